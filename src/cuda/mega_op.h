/* The megakernel's OperandPtrTable row (internal to src/cuda, C++): everything one planned op
 * needs on the device, per weight/cache copy, so a step on any copy is one launch with no
 * host work. Rows live in device memory as [copies][plan ops]; an instruction's operand row
 * (word 1) picks the op, the launch's copy picks the set. Filled by src/cuda/mega_table.cu,
 * read by src/cuda/mega.cu. */
#ifndef MRT_MEGA_OP_H
#define MRT_MEGA_OP_H

#include "add_rmsnorm_quant.cuh"
#include "gemm_core.cuh"
#include "gemm_fp8_epilogues.cuh"
#include "index_logits.cuh"
#include "index_logits_wg.cuh"
#include "topk.cuh"

#define MRT_MEGA_THREADS 384

/* F1 rows: threads 0..MRT_MEGA_TOPK_THREADS-1 (a multiple of 32, at most the CTA's 384).
 * The whole CTA: a row took 14.0 us on 256 threads, 11.3 on 384 (traces, H200, session 11
 * run 1); the same row code at 384 threads is test_index_ops's F1 variant 10. */
#ifndef MRT_MEGA_TOPK_THREADS
#define MRT_MEGA_TOPK_THREADS 384
#endif
static_assert(MRT_MEGA_TOPK_THREADS % 32 == 0 && MRT_MEGA_TOPK_THREADS <= 384, "F1 rows: whole warps of the CTA");
/* An unsliced F1 row whose keys fit shared memory (mrt_topk_args.cache_keys) is a thread's
 * run of keys in shared memory (topk.cuh mrt_topk_row_runs); -DMRT_MEGA_TOPK_RUNS=0 makes it
 * the shared-memory row with bitmaps and a list (mrt_topk_row), as every row was before
 * session 34. A longer unsliced row keeps its keys' 24-bit prefixes in shared memory
 * (mrt_topk_row_runs24, mrt_topk_args.cache24; since session 46) where they fit, else it is
 * mrt_topk_row from global memory. */
#ifndef MRT_MEGA_TOPK_RUNS
#define MRT_MEGA_TOPK_RUNS 1
#endif
/* E1 (wgmma tile) token groups resident at a time: a tile runs its keys once per this many
 * groups (4 tokens a group at 32 heads). The standalone kernels keep MRT_ILW_GROUPS (2) and
 * spread a request's groups over CTAs; a worker runs them all, so with 2 a 64-token request
 * (M=128) reloaded its keys and paid the tile's prologue 8 times. 8 groups: 128 KB of
 * queries beside the keys (mega_table.cu checks the fit). */
#ifndef MRT_MEGA_ILW_GROUPS
#define MRT_MEGA_ILW_GROUPS 8
#endif
/* E1 (wgmma tile) key buffers in the megakernel (-DMRT_MEGA_ILW_STAGES=N; the standalone
 * kernels' MRT_ILW_STAGES by default): 16.5 KB each beside the queries. 3 gained nothing with
 * the barrier a pass or with the release (H200, session 49 run 4: M=128 KV=65536 292.4 ->
 * 294.4 us with the barrier, 281.8 -> 286.2 with the release). */
#ifndef MRT_MEGA_ILW_STAGES
#define MRT_MEGA_ILW_STAGES MRT_ILW_STAGES
#endif
#define MRT_MEGA_GROUPS 3         /* finalization groups of 128 threads (named barriers 2..4; one-warp groups 2..13) */

/* D0's fused Q_B store (its tiles unsplit at every batch size) takes each row's fold factor and
 * position from shared memory, computed once a tile by the consumers before the store
 * (mega_gemm.cuh). Before, each 8-column store item computed the factor itself (K / 128 loads,
 * an fp64 sum, division and square root) and loaded the position: a tile's store took 12.1 us
 * at M=128 KV=1024 (TN 128: 8 items a consumer thread, each its own chain; H200, session 28
 * run 4). Measured (H200, session 29 run 1, A B in one run as -DMRT_MEGA_QB_ROWS=1): M=128
 * KV=1024 165.50 / 165.70 -> 160.41 / 160.24 us (D0's store 35.0 -> 29.7 us a task), M=64
 * KV=8192 110.43 -> 108.99, M=128 KV=8192 185.87 -> 185.50, M=16 KV=8192 67.34 -> 67.23, M=1
 * KV=8192 62.10 -> 62.83; mega = serial bytes (test_mega_prefix). */
/* rows m0.. of a tile: factor r[m - m0], position p[m - m0] (shared memory) */
struct mrt_mega_qb_rows {
    const float *r;
    const int32_t *p;
    int m0;
    __device__ __forceinline__ float factor(int m) const { return r[m - m0]; }
    __device__ __forceinline__ const int32_t *position(int m) const { return p + (m - m0); }
};

/* Where a GEMM tile's result goes: mrt_epi_store at `plane` elements per split (fp32
 * partials: gemm_fp8's scratch, C0's partial gate) or rows of bf16 (D2), columns below n1 and
 * rows below m1 only (a tile's TN may exceed its rows; D2's role computes 256 columns). */
struct mrt_mega_out {
    mrt_epi_store s;
    int m1, n1;
    const mrt_epi_q_b_fused *qb; /* D0 unsplit: the Q_B finalization in the store, else NULL */
    const float *qr;     /* the tile's rows' factors and positions (shared memory), else NULL */
    const int32_t *qp;
    __device__ __forceinline__ void operator()(const mrt_gemm_tile &t, int m, int n, const float (&v)[8]) const {
        if (m >= m1 || n >= n1) return;
        if (qb && qr) qb->store(m, n, v, mrt_mega_qb_rows{qr, qp, t.m0});
        else if (qb) (*qb)(t, m, n, v);
        else s(t, m, n, v);
    }
};

struct mrt_mega_op { /* CUtensorMap members keep it 64-byte aligned (TMA needs that) */
    CUtensorMap tw, tx;   /* GEMMs: weights and activations (this copy's buffers) */
    CUtensorMap tsx;      /* gemm_fp8: the activation scales where ga.sx_tma (mrt_gemm_sx_map) */
    mrt_gemm_args ga;     /* GEMMs: split 1 (the plan's split-K is its reduce groups), stages
                             (at most MRT_MEGA_RING_BYTES of weights: mega_table.cu) and
                             kb_per_split for the op's longest tile */
    mrt_epi_store out;    /* GEMMs: where tiles write (plane 0) */
    long long plane;      /* elements between the split planes of `out` (0: no planes) */
    mrt_epi_args epi;     /* gemm_fp8: the finalization (its jobs sum the partials into shared
                             memory: epi.c, a reduced [M, N], is not read) */
    const float *part;    /* gemm_fp8: [nsplit][M][N] fp32 partials (= out.out) */
    int tn, nsplit, epi_kind; /* GEMMs: tokens per tile (0: no GEMM), split planes, MRT_EPI_* */
    int fused_q_b;            /* gemm_fp8 Q_B unsplit: its finalization runs in the tile's store (qbf) */
    mrt_epi_q_b_fused qbf;
    mrt_a0_args a0;
    mrt_index_logits_args il;
    mrt_topk_args tk;
};

#endif
