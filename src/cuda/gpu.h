/* The C face of the CUDA side (the .cu files of src/cuda implement it with extern "C"; no_cuda.c
 * stands in where nvcc is absent). No CUDA header is included here. */
#ifndef MRT_GPU_H
#define MRT_GPU_H

#include <stddef.h>
#include <stdio.h>

/* -DMRT_MEGA_TALL=1 (build flag; the library and the GPU tests alike): the megakernel runs
 * fp8 GEMM tiles of more than 128 rows (plan option --block-n OP=256) as tall tiles, two
 * accumulator chains a warpgroup (MRT_GEMM_FP8_TALL); without it (the default) it refuses
 * them with a message. Default off: the tall branch in the fp8 tile function made the default
 * plan's step 0-0.4 us slower at M=16 KV=8192 and 1.1-4.8 at KV=65536 (its spills: 32 -> 64
 * bytes at TN 16), and the tall plans themselves were faster only where D0's chain is the
 * critical one (H200, session 44 runs 3-4: docs/MEGAKERNEL.md). */
#ifndef MRT_MEGA_TALL
#define MRT_MEGA_TALL 0
#endif

#ifdef __cplusplus
#define MRT_GPU_ALIGN64 alignas(64)
extern "C" {
#else
#define MRT_GPU_ALIGN64 _Alignas(64)
#endif

/* 1 if a usable GPU (sm_90) is present; else 0 with the reason in why. */
int mrt_gpu_available(char *why, size_t n);

/* ---- standalone GEMMs (src/cuda/gemm*.cu; device code in src/ops/gemm_*.cuh) ------------
 * All pointers are device pointers, 16-byte aligned; row strides are in elements and make
 * 16-byte multiples. Plan once per (shapes, buffers), run many times; a plan is a plain
 * struct (it holds the TMA descriptors), so re-planning after a buffer change costs a few
 * microseconds of host time and no allocation. Functions return 0, or -1 with a message in
 * why naming what is wrong. */

/* out[m, n] = sum_kb dot(x8[m, kb], W[n, kb]) * sx[m, kb] * sw[n/128, kb], fp32 accumulate.
 * x8 [M, K] e4m3 (row stride K), sx [M, K/128] f32, W [N, K] e4m3, sw [ceil(N/128), K/128] f32.
 * M >= 1, N a multiple of 64, K a multiple of 128. */
struct mrt_gpu_epi; /* prefix_ops.h */
typedef struct mrt_gpu_gemm_fp8_args {
    int M, N, K;
    const void *x8;
    const float *sx;
    const void *w;
    const float *sw;
    void *out;         /* out[m * out_ld + n], bf16 or fp32 */
    long long out_ld;  /* a multiple of 8 */
    int out_f32;       /* 1: fp32 output, 0: bf16 (round to nearest even) */
    int split;         /* K splits; 0: chosen by the planner; else must divide K/128 */
    int reduce_cluster; /* how split-K partials are summed: through a thread-block cluster of the
                           split CTAs of a tile, in distributed shared memory (no workspace), or
                           through the global workspace. 1: cluster wherever it fits; -1: always
                           global; 0 (default): cluster only when the whole GEMM is one cluster
                           (B1, C0), global otherwise -- as measured fastest (bench/gemm/NOTES.md) */
    int partials_out;  /* 1: with split > 1 the kernel leaves the split partials unsummed in the
                          workspace (mrt_gpu_gemm.partials, [split][M][N] fp32) and does not
                          write out: the consumer sums them in split order (the serial and cmp
                          finalization kernels do, mrt_gpu_epi.part). Saves the kernel's
                          reduction tail (fence, ticket, the last CTA's loads). fp32 out only;
                          reduces through global memory whatever reduce_cluster says. */
    void *workspace;   /* split-K partials and tickets; see mrt_gpu_gemm.workspace_need */
    size_t workspace_bytes;
    const struct mrt_gpu_epi *fused; /* non-NULL: the op's Q_B finalization (prefix_ops.h) runs in
                          the GEMM's store instead of writing out (which may then be NULL):
                          needs split 1 (given or chosen) and no-RoPE / RoPE widths and the
                          query's row and RoPE offset in multiples of 8; the only epilogue
                          fused so far (the others need a whole row or head) */
} mrt_gpu_gemm_fp8_args;

/* bf16 GEMM, fp32 accumulate. For each batch b < batches:
 *   out[m * out_ld + b * out_batch_stride + n] = sum_k x[m * x_ld + b * x_batch_col + k] * W_b(n, k)
 * w_mn_major = 0: W [N, K] row-major (W_b(n, k) = w[n * K + k]; batches must be 1);
 *                 N a multiple of 8, K a multiple of 64 (head gate C0: N=32, K=6144).
 * w_mn_major = 1: W [batches][K][N] row-major (W_b(n, k) = w[(b * K + k) * N + n]);
 *                 N a multiple of 64, K a multiple of 64 (W_UK absorption D2: 64 x 192 -> 512). */
typedef struct mrt_gpu_gemm_bf16_args {
    int M, N, K, batches;
    const void *x;
    long long x_ld, x_batch_col;
    const void *w;
    int w_mn_major;
    void *out;
    long long out_ld, out_batch_stride;
    int out_f32;
    int split; /* 0: planner's choice (always 1 for w_mn_major) */
    int reduce_cluster; /* as in mrt_gpu_gemm_fp8_args */
    void *workspace;
    size_t workspace_bytes;
} mrt_gpu_gemm_bf16_args;

typedef struct mrt_gpu_gemm {
    MRT_GPU_ALIGN64 unsigned char tmap_w[128]; /* CUtensorMap of the weights (opaque here) */
    MRT_GPU_ALIGN64 unsigned char tmap_x[128]; /* CUtensorMap of the activations */
    MRT_GPU_ALIGN64 unsigned char tmap_sx[128]; /* fp8: of the activation scales where args.sx_tma */
    MRT_GPU_ALIGN64 unsigned char args[128];   /* kernel arguments (mrt_gemm_args) */
    MRT_GPU_ALIGN64 unsigned char epi[128];    /* the store's epilogue (mrt_epi_store, mrt_epi_q_b_fused) */
    const void *kernel, *kernel_pdl;           /* host stubs of the two kernel variants */
    int kind;                                  /* 0 fp8, 1 bf16 K-major, 2 bf16 MN-major */
    int tn;                                    /* tokens per tile (wgmma N): 8, 16, 32, 64, 128 */
    int split, stages, grid, smem_bytes;
    int sx_tma;            /* fp8: 1 = each tile's activation scales come by one TMA box (sx's
                              rows a multiple of 16 bytes), 0 = its loader warp gathers them */
    int cluster;           /* > 1: the split CTAs of a tile run as one cluster of this size and
                              reduce in distributed shared memory (no workspace used) */
    size_t workspace_need; /* bytes; 0 when no global reduction. Its first 4*tiles bytes are
                              tickets that must be zero before the first run (cudaMemset once);
                              every run leaves them zero again. */
    const float *partials; /* partials_out with split > 1: the split planes [split][M][N] each
                              run writes (in the workspace); else NULL (out holds the result) */
} mrt_gpu_gemm;

int mrt_gpu_gemm_fp8_plan(mrt_gpu_gemm *g, const mrt_gpu_gemm_fp8_args *a, char *why, size_t n);
int mrt_gpu_gemm_bf16_plan(mrt_gpu_gemm *g, const mrt_gpu_gemm_bf16_args *a, char *why, size_t n);
/* Workspace bytes a GEMM of this shape may need for a given split (0 = planner's choice),
 * before any buffer exists (kind as in mrt_gpu_gemm.kind): enough for the global reduction
 * (a plan that reduces in a cluster needs none). */
size_t mrt_gpu_gemm_workspace_bytes(int kind, int M, int N, int K, int batches, int split);
/* Launches on `stream` (a cudaStream_t; NULL = default stream). pdl = 1 launches the
 * griddepcontrol.wait variant with programmatic stream serialization, so the kernel may
 * start (and stream its weights) while its predecessor finishes. */
int mrt_gpu_gemm_run(const mrt_gpu_gemm *g, void *stream, int pdl, char *why, size_t n);

/* After a kernel trapped (a launch or sync returned an error): writes the watchdog records
 * the kernels left (which block waited for what, how far each pipeline role got) into buf,
 * one line each, and returns their number (0: none). Host memory only; safe after the
 * context is lost. */
int mrt_gpu_watchdog_report(char *buf, size_t n);

/* `megartp bench gemm`: every GLM-5 GEMM shape at each M of ms (NULL / 0: 1,16,64,128,256);
 * prints a markdown table to out: median us over >= 200 runs with rotating weights, TB/s,
 * the same-bytes TMA read kernel, cuBLASLt at the same shape. Returns 0, or -1 with a
 * message on out. */
int mrt_bench_gemm(const int *ms, int n_ms, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
