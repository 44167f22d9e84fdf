/* `megartp bench gemm`: every GLM-5 GEMM shape at several M, side by side with the
 * same-bytes TMA read kernel (the speed of light for those bytes) and cuBLASLt (fp8 with
 * per-tensor scales; bf16 for the bf16 shapes) in the same run.
 *
 * Method (DESIGN.md section 5): weights rotate through >= 6 copies and >= 256 MB in all
 * (several times the 60 MB L2), activations stay put (in a real step they come warm from the
 * producer). Each timing: 20 warm-up launches, then >= 200 launches each between two events
 * on one stream; the median (and p10/p90) of those. Also the amortized per-launch time of a
 * CUDA graph of the same 200 launches, without and with PDL (programmatic edges), which
 * hides launch gaps the way the cmp executor will. */
#include "bench_fill.cuh"
#include <cublasLt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <vector>

#include "gemm_host.h"

#define BENCH_RUNS 200
#define BENCH_WARM 20
#define BENCH_ROTATE_BYTES (256.0 * 1e6)

/* ---- fill and read kernels ------------------------------------------------------------ */


/* Reads `bytes` (a multiple of 16) with 1D bulk copies (cp.async.bulk) into 4 x 32 KiB
 * shared-memory stages, one issuing lane per CTA, one CTA (one warp) per SM: the streaming
 * rate a GEMM of the same bytes could at best reach. The whole warp waits on the stages:
 * mrt_mbar_wait_full ends in __syncwarp, which lane 0 alone must not reach (a lone lane there
 * hung session 43's GEMM probe; here the other lanes used to return at once). */
#define READ_STAGE 32768
#define READ_STAGES 4
__global__ void __launch_bounds__(32, 1) bench_read(const uint8_t *src, size_t bytes) {
    extern __shared__ __align__(128) uint8_t rsmem[];
    __shared__ __align__(8) uint64_t bars[READ_STAGES];
    const bool issuer = threadIdx.x == 0;
    size_t per = ((bytes + gridDim.x - 1) / gridDim.x + 15) & ~(size_t)15;
    size_t lo = (size_t)blockIdx.x * per, hi = lo + per < bytes ? lo + per : bytes;
    if (issuer) {
        for (int s = 0; s < READ_STAGES; s++) mrt_mbar_init(mrt_smem_u32(&bars[s]), 1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    __syncwarp();
    int i = 0;
    for (size_t off = lo; off < hi; off += READ_STAGE, i++) {
        int s = i % READ_STAGES;
        uint32_t bar = mrt_smem_u32(&bars[s]);
        if (i >= READ_STAGES) mrt_mbar_wait_full(bar, ((i / READ_STAGES) - 1) & 1, NULL);
        uint32_t len = (uint32_t)(hi - off < READ_STAGE ? hi - off : READ_STAGE);
        if (issuer) {
            mrt_mbar_arrive_tx(bar, len);
            mrt_bulk_load(mrt_smem_u32(rsmem + s * READ_STAGE), src + off, len, bar);
        }
    }
    for (int j = i - READ_STAGES < 0 ? 0 : i - READ_STAGES; j < i; j++)
        mrt_mbar_wait_full(mrt_smem_u32(&bars[j % READ_STAGES]), (j / READ_STAGES) & 1, NULL);
}

__global__ void bench_empty(void) {}

/* ---- timing ---------------------------------------------------------------------------- */

struct bench_stats {
    double p10, p50, p90, graph, graph_pdl; /* us; graph*: amortized per launch, < 0 if n/a */
};

template <class F> static int bench_time(F launch, cudaStream_t st, bench_stats *r, int with_graph) {
    for (int i = 0; i < BENCH_WARM; i++)
        if (launch(i, 0)) return -1;
    std::vector<cudaEvent_t> ev(2 * BENCH_RUNS);
    for (auto &e : ev) cudaEventCreate(&e);
    for (int i = 0; i < BENCH_RUNS; i++) {
        cudaEventRecord(ev[2 * i], st);
        if (launch(i, 0)) return -1;
        cudaEventRecord(ev[2 * i + 1], st);
    }
    if (cudaStreamSynchronize(st) != cudaSuccess) return -1;
    std::vector<double> us(BENCH_RUNS);
    for (int i = 0; i < BENCH_RUNS; i++) {
        float ms = 0;
        cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]);
        us[i] = ms * 1e3;
    }
    std::sort(us.begin(), us.end());
    r->p10 = us[BENCH_RUNS / 10], r->p50 = us[BENCH_RUNS / 2], r->p90 = us[BENCH_RUNS * 9 / 10];
    r->graph = r->graph_pdl = -1;
    for (int pdl = 0; pdl < 2 && with_graph; pdl++) {
        cudaGraph_t graph = NULL;
        cudaGraphExec_t exec = NULL;
        int ok = cudaStreamBeginCapture(st, cudaStreamCaptureModeThreadLocal) == cudaSuccess;
        for (int i = 0; ok && i < BENCH_RUNS; i++) ok = launch(i, pdl) == 0;
        ok = (cudaStreamEndCapture(st, &graph) == cudaSuccess) && ok;
        ok = ok && cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess;
        double best = 1e30;
        for (int rep = 0; ok && rep < 4; rep++) {
            cudaEventRecord(ev[0], st);
            ok = cudaGraphLaunch(exec, st) == cudaSuccess;
            cudaEventRecord(ev[1], st);
            ok = ok && cudaStreamSynchronize(st) == cudaSuccess;
            float ms = 0;
            cudaEventElapsedTime(&ms, ev[0], ev[1]);
            if (rep > 0 && ms * 1e3 / BENCH_RUNS < best) best = ms * 1e3 / BENCH_RUNS; /* rep 0 warms up */
        }
        if (ok) (pdl ? r->graph_pdl : r->graph) = best;
        cudaGetLastError();
        if (exec) cudaGraphExecDestroy(exec);
        if (graph) cudaGraphDestroy(graph);
    }
    for (auto &e : ev) cudaEventDestroy(e);
    return 0;
}

/* ---- the shapes ------------------------------------------------------------------------ */

struct bench_shape {
    const char *name, *what;
    int kind; /* 0 fp8, 1 bf16 K-major, 2 bf16 MN-major batched */
    int N, K, batches;
};
static const bench_shape bench_shapes[] = {
    {"B0", "fused A (q_a|kv_a)", 0, 2624, 6144, 1}, {"B1", "indexer k", 0, 128, 6144, 1},
    {"D0", "q_b", 0, 16384, 2048, 1},               {"D1", "indexer q", 0, 4096, 2048, 1},
    {"C0", "head gate (bf16)", 1, 32, 6144, 1},     {"D2", "W_UK absorb (bf16 bmm)", 2, 512, 192, 64},
};

/* Buffers of one shape: weight copies (one allocation), activations, output, workspace. */
struct bench_bufs {
    uint8_t *w = NULL, *x = NULL, *out = NULL, *ws = NULL;
    float *sw = NULL, *sx = NULL, *one = NULL;
    size_t wbytes = 0, wstride = 0, swbytes = 0, ws_bytes = 0;
    int copies = 0;
};

static void bench_free(bench_bufs &b) {
    cudaFree(b.w), cudaFree(b.x), cudaFree(b.out), cudaFree(b.ws), cudaFree(b.sw), cudaFree(b.sx), cudaFree(b.one);
    b = bench_bufs();
}

static int bench_alloc(bench_bufs &b, const bench_shape &s, int M, size_t ws_bytes, size_t read_bytes) {
    const int elem = s.kind == 0 ? 1 : 2;
    b.wbytes = (size_t)s.batches * s.N * s.K * elem;
    b.wstride = (b.wbytes + 4095) & ~(size_t)4095;
    b.copies = (int)std::max(6.0, BENCH_ROTATE_BYTES / (double)b.wbytes + 1);
    const int nkb = s.K / 128, nnb = (s.N + 127) / 128;
    b.swbytes = s.kind == 0 ? (size_t)nnb * nkb * 4 : 0;
    size_t xbytes = s.kind == 2 ? (size_t)M * 64 * 256 * 2 : (size_t)M * s.K * elem;
    size_t obytes = s.kind == 2 ? (size_t)M * 64 * 576 * 2 : (size_t)M * s.N * (s.kind == 1 ? 4 : 2);
    size_t wall = b.wstride * b.copies + read_bytes + 65536; /* the read kernel may run past the last copy */
    if (cudaMalloc((void **)&b.w, wall) != cudaSuccess || cudaMalloc((void **)&b.x, xbytes) != cudaSuccess ||
        cudaMalloc((void **)&b.out, obytes * 2) != cudaSuccess || cudaMalloc((void **)&b.one, 16) != cudaSuccess)
        return -1;
    mrt_bench_fill<<<1024, 256>>>(b.w, wall, 1234, s.kind == 0 ? 0 : 1);
    mrt_bench_fill<<<256, 256>>>(b.x, xbytes, 99, s.kind == 0 ? 0 : 1);
    if (s.kind == 0) {
        if (cudaMalloc((void **)&b.sw, b.swbytes * b.copies) != cudaSuccess ||
            cudaMalloc((void **)&b.sx, (size_t)M * nkb * 4) != cudaSuccess)
            return -1;
        mrt_bench_fill<<<256, 256>>>((uint8_t *)b.sw, b.swbytes * b.copies, 5, 2);
        mrt_bench_fill<<<64, 256>>>((uint8_t *)b.sx, (size_t)M * nkb * 4, 6, 2);
    }
    float one = 1.0f;
    cudaMemcpy(b.one, &one, 4, cudaMemcpyHostToDevice);
    if (ws_bytes) {
        if (cudaMalloc((void **)&b.ws, ws_bytes) != cudaSuccess) return -1;
        cudaMemset(b.ws, 0, ws_bytes);
    }
    b.ws_bytes = ws_bytes;
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : -1;
}

/* Plans of ours for every weight copy. */
static int bench_plan(std::vector<mrt_gpu_gemm> &plans, const bench_shape &s, int M, int split, int cluster,
                      bench_bufs &b, char *why, size_t n) {
    plans.resize(b.copies);
    for (int c = 0; c < b.copies; c++) {
        const uint8_t *w = b.w + (size_t)c * b.wstride;
        if (s.kind == 0) {
            mrt_gpu_gemm_fp8_args a;
            memset(&a, 0, sizeof a);
            a.M = M, a.N = s.N, a.K = s.K, a.x8 = b.x, a.sx = b.sx, a.w = w;
            a.sw = (const float *)((const uint8_t *)b.sw + (size_t)c * b.swbytes);
            a.out = b.out, a.out_ld = s.N, a.split = split, a.workspace = b.ws, a.workspace_bytes = b.ws_bytes;
            a.reduce_cluster = cluster;
            if (mrt_gpu_gemm_fp8_plan(&plans[c], &a, why, n)) return -1;
        } else {
            mrt_gpu_gemm_bf16_args a;
            memset(&a, 0, sizeof a);
            a.M = M, a.N = s.N, a.K = s.K, a.batches = s.batches, a.w = w, a.w_mn_major = s.kind == 2;
            a.x = b.x, a.x_ld = s.kind == 2 ? 64 * 256 : s.K, a.x_batch_col = s.kind == 2 ? 256 : 0;
            a.out = b.out, a.out_ld = s.kind == 2 ? 64 * 576 : s.N, a.out_batch_stride = s.kind == 2 ? 576 : 0;
            a.out_f32 = s.kind == 1, a.split = split, a.workspace = b.ws, a.workspace_bytes = b.ws_bytes;
            a.reduce_cluster = cluster;
            if (mrt_gpu_gemm_bf16_plan(&plans[c], &a, why, n)) return -1;
        }
    }
    return 0;
}

/* ---- cuBLASLt peer ------------------------------------------------------------------------ */

struct bench_lt {
    cublasLtHandle_t h = NULL;
    cublasLtMatmulDesc_t op = NULL;
    cublasLtMatrixLayout_t A = NULL, B = NULL, C = NULL, D = NULL;
    cublasLtMatmulAlgo_t algo;
    void *ws = NULL;
    size_t ws_bytes = 32u << 20;
    int ok = 0;
};

static void lt_free(bench_lt &l) {
    if (l.A) cublasLtMatrixLayoutDestroy(l.A);
    if (l.B) cublasLtMatrixLayoutDestroy(l.B);
    if (l.C) cublasLtMatrixLayoutDestroy(l.C);
    if (l.D) cublasLtMatrixLayoutDestroy(l.D);
    if (l.op) cublasLtMatmulDescDestroy(l.op);
    l.A = l.B = l.C = l.D = NULL, l.op = NULL, l.ok = 0;
}

static void lt_batch(cublasLtMatrixLayout_t L, int count, long long stride) {
    cublasLtMatrixLayoutSetAttribute(L, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count);
    cublasLtMatrixLayoutSetAttribute(L, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride);
}

/* Column-major view (cuBLAS): D[N x M] = op(A)[N x K] . B[K x M], D = our out [M, N] row-major. */
static void lt_setup(bench_lt &l, const bench_shape &s, int M, const bench_bufs &b) {
    lt_free(l);
    cublasOperation_t ta = s.kind == 2 ? CUBLAS_OP_N : CUBLAS_OP_T, tb = CUBLAS_OP_N;
    if (cublasLtMatmulDescCreate(&l.op, CUBLAS_COMPUTE_32F, CUDA_R_32F) != CUBLAS_STATUS_SUCCESS) return;
    cublasLtMatmulDescSetAttribute(l.op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta);
    cublasLtMatmulDescSetAttribute(l.op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb);
    cudaDataType_t ab = s.kind == 0 ? CUDA_R_8F_E4M3 : CUDA_R_16BF, cd = s.kind == 1 ? CUDA_R_32F : CUDA_R_16BF;
    if (s.kind == 0) {
        const float *one = b.one;
        cublasLtMatmulDescSetAttribute(l.op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, &one, sizeof one);
        cublasLtMatmulDescSetAttribute(l.op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, &one, sizeof one);
    }
    if (s.kind == 2) { /* per head: A = W_uk[h] as [512 x 192] col-major, B = q_nope[:, h] [192 x M] */
        cublasLtMatrixLayoutCreate(&l.A, ab, 512, 192, 512);
        cublasLtMatrixLayoutCreate(&l.B, ab, 192, M, 64 * 256);
        cublasLtMatrixLayoutCreate(&l.C, cd, 512, M, 64 * 576);
        cublasLtMatrixLayoutCreate(&l.D, cd, 512, M, 64 * 576);
        lt_batch(l.A, 64, 192LL * 512), lt_batch(l.B, 64, 256), lt_batch(l.C, 64, 576), lt_batch(l.D, 64, 576);
    } else {
        cublasLtMatrixLayoutCreate(&l.A, ab, s.K, s.N, s.K);
        cublasLtMatrixLayoutCreate(&l.B, ab, s.K, M, s.K);
        cublasLtMatrixLayoutCreate(&l.C, cd, s.N, M, s.N);
        cublasLtMatrixLayoutCreate(&l.D, cd, s.N, M, s.N);
    }
    cublasLtMatmulPreference_t pref;
    cublasLtMatmulPreferenceCreate(&pref);
    cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &l.ws_bytes,
                                         sizeof l.ws_bytes);
    cublasLtMatmulHeuristicResult_t res;
    int found = 0;
    if (cublasLtMatmulAlgoGetHeuristic(l.h, l.op, l.A, l.B, l.C, l.D, pref, 1, &res, &found) ==
            CUBLAS_STATUS_SUCCESS &&
        found > 0)
        l.algo = res.algo, l.ok = 1;
    cublasLtMatmulPreferenceDestroy(pref);
}

static int lt_run(bench_lt &l, const bench_bufs &b, int copy, cudaStream_t st) {
    const float alpha = 1.0f, beta = 0.0f;
    const uint8_t *w = b.w + (size_t)copy * b.wstride;
    return cublasLtMatmul(l.h, l.op, &alpha, w, l.A, b.x, l.B, &beta, b.out, l.C, b.out, l.D, &l.algo, l.ws,
                          l.ws_bytes, st) == CUBLAS_STATUS_SUCCESS
               ? 0
               : -1;
}

/* ---- the table ------------------------------------------------------------------------------ */

static double bench_bytes(const bench_shape &s, int M) {
    const int nkb = s.K / 128, nnb = (s.N + 127) / 128;
    if (s.kind == 0) return (double)s.N * s.K + nnb * nkb * 4.0 + (double)M * s.K + M * nkb * 4.0 + (double)M * s.N * 2;
    if (s.kind == 1) return (double)s.N * s.K * 2 + (double)M * s.K * 2 + (double)M * s.N * 4;
    return 64.0 * 192 * 512 * 2 + (double)M * 64 * 192 * 2 + (double)M * 64 * 512 * 2;
}

static void fmt_us(char *buf, size_t n, double v) {
    if (v < 0) snprintf(buf, n, "n/a");
    else snprintf(buf, n, "%.2f", v);
}

extern "C" int mrt_bench_gemm(const int *ms, int n_ms, FILE *out) {
    static const int ms_default[] = {1, 16, 64, 128, 256};
    if (!ms || n_ms <= 0) ms = ms_default, n_ms = 5;
    char why[512];
    if (!mrt_gpu_available(why, sizeof why)) {
        fprintf(out, "bench gemm: %s\n", why);
        return -1;
    }
    mrt_bench_heading(out, "gemm");
    fprintf(out, "p50 = median of %d launches, each between two events (p10-p90 beside it); graph / g+PDL = "
                 "amortized per launch in a CUDA graph of the same %d launches, plain / with programmatic "
                 "(PDL) edges; read = the same-bytes TMA bulk read kernel; cuBLASLt: fp8 with per-tensor scales "
                 "(bf16 for C0, D2). Weights rotate over >= 6 copies and >= 256 MB. TB/s = bytes / p50 and "
                 "bytes / g+PDL.\n\n",
            BENCH_RUNS, BENCH_RUNS);
    cudaStream_t st;
    cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking);
    {
        bench_stats e = {-1, -1, -1, -1, -1};
        bench_time(
            [&](int, int) {
                bench_empty<<<1, 32, 0, st>>>();
                return cudaGetLastError() == cudaSuccess ? 0 : -1;
            },
            st, &e, 1);
        fprintf(out, "empty kernel (the floor of the method): p50 %.2f us (p10-p90 %.2f-%.2f), graph %.2f us\n\n", e.p50,
                e.p10, e.p90, e.graph);
    }
    fprintf(out, "| op | K->N | M | MB | tile | ours p50 | p10-p90 | graph | g+PDL | TB/s p50, g+PDL | read p50, graph "
                 "| ours/read (g+PDL/graph) | cuBLASLt p50, graph | cuBLASLt/ours (p50) |\n");
    fprintf(out, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    bench_lt lt;
    cublasLtCreate(&lt.h);
    cudaMalloc(&lt.ws, lt.ws_bytes);
    cudaFuncSetAttribute(bench_read, cudaFuncAttributeMaxDynamicSharedMemorySize, READ_STAGE * READ_STAGES);
    const int nsm = mrt_gpu_num_sms();
    int rc = 0;
    struct sweep_row {
        const char *name;
        int split, cluster;
        double p50, gpdl;
    };
    std::vector<sweep_row> sweep;
    for (const bench_shape &s : bench_shapes) {
        for (int mi = 0; mi < n_ms; mi++) {
            const int M = ms[mi];
            const double bytes = bench_bytes(s, M);
            const size_t rbytes = ((size_t)bytes + 15) & ~(size_t)15;
            /* workspace for any split the sweep may try */
            size_t ws = 0;
            for (int sp = 0; sp <= 96; sp++) ws = std::max(ws, mrt_gpu_gemm_workspace_bytes(s.kind, M, s.N, s.K, s.batches, sp));
            bench_bufs b;
            std::vector<mrt_gpu_gemm> plans;
            if (bench_alloc(b, s, M, ws, rbytes) || bench_plan(plans, s, M, 0, 0, b, why, sizeof why)) {
                fprintf(out, "| %s | %d->%d | %d | setup failed: %s |\n", s.name, s.K, s.N, M,
                        why[0] ? why : cudaGetErrorString(cudaGetLastError()));
                bench_free(b);
                rc = -1;
                continue;
            }
            bench_stats ours = {-1, -1, -1, -1, -1}, rd = ours, cub = ours;
            int copies = b.copies;
            int e1 = bench_time([&](int i, int pdl) { return mrt_gpu_gemm_run(&plans[i % copies], st, pdl, why, sizeof why); },
                                st, &ours, 1);
            int e2 = bench_time(
                [&](int i, int pdl) {
                    (void)pdl;
                    bench_read<<<nsm, 32, READ_STAGE * READ_STAGES, st>>>(b.w + (size_t)(i % copies) * b.wstride, rbytes);
                    return cudaGetLastError() == cudaSuccess ? 0 : -1;
                },
                st, &rd, 1);
            lt_setup(lt, s, M, b);
            int e3 = lt.ok ? bench_time([&](int i, int pdl) { (void)pdl; return lt_run(lt, b, i % copies, st); }, st, &cub, 1) : -1;
            if (e3) cub.p50 = -1, cudaGetLastError();
            if (e1 || e2) {
                fprintf(out, "| %s | %d->%d | %d | run failed: %s |\n", s.name, s.K, s.N, M,
                        e1 ? why : cudaGetErrorString(cudaGetLastError()));
                rc = -1;
            } else {
                char g0[32], g1[32], cb[32], cbg[32], ratio[32], rdg[32], tile[96];
                fmt_us(g0, sizeof g0, ours.graph), fmt_us(g1, sizeof g1, ours.graph_pdl), fmt_us(cb, sizeof cb, cub.p50);
                fmt_us(cbg, sizeof cbg, cub.graph), fmt_us(rdg, sizeof rdg, rd.graph);
                if (cub.p50 > 0) snprintf(ratio, sizeof ratio, "%.2fx", cub.p50 / ours.p50);
                else snprintf(ratio, sizeof ratio, "n/a");
                const mrt_gpu_gemm &p0 = plans[0];
                snprintf(tile, sizeof tile, "tn %d, split %d%s, %d st, %d CTAs", p0.tn, p0.split,
                         p0.split == 1 ? "" : p0.cluster > 1 ? " cl" : " gl", p0.stages, p0.grid);
                double tb_g = ours.graph_pdl > 0 ? bytes / (ours.graph_pdl * 1e-6) / 1e12 : 0;
                double rr = ours.graph_pdl > 0 && rd.graph > 0 ? ours.graph_pdl / rd.graph : 0;
                fprintf(out,
                        "| %s %s | %d->%d%s | %d | %.2f | %s | **%.2f** | %.2f-%.2f | %s | **%s** | %.2f, %.2f | %.2f, %s "
                        "| %.2f | %s, %s | %s |\n",
                        s.name, s.what, s.K, s.N, s.batches > 1 ? " x64" : "", M, bytes / 1e6, tile, ours.p50, ours.p10,
                        ours.p90, g0, g1, bytes / (ours.p50 * 1e-6) / 1e12, tb_g, rd.p50, rdg, rr, cb, cbg, ratio);
            }
            fflush(out);
            /* split sweep at M = 16 (the decode point of the targets) */
            if (M == 16 && s.kind != 2 && !e1) {
                const int nkb = s.K / (s.kind == 0 ? 128 : 64);
                for (int sp = 1; sp <= 48; sp++)
                    for (int cl = 0; cl < 2; cl++) {
                        if (nkb % sp || (cl && (sp < 2 || sp > 16))) continue;
                        std::vector<mrt_gpu_gemm> p2;
                        bench_stats t2 = {-1, -1, -1, -1, -1};
                        if (bench_plan(p2, s, M, sp, cl ? 1 : -1, b, why, sizeof why)) continue;
                        if (cl && p2[0].cluster < 2) continue; /* no such cluster fits */
                        if (bench_time([&](int i, int pdl) { return mrt_gpu_gemm_run(&p2[i % copies], st, pdl, why, sizeof why); },
                                       st, &t2, 1) == 0)
                            sweep.push_back({s.name, sp, cl, t2.p50, t2.graph_pdl});
                    }
            }
            bench_free(b);
        }
    }
    if (!sweep.empty()) {
        fprintf(out, "\nsplit-K sweep at M=16, us as p50 / g+PDL; sN = N splits reduced through global memory, "
                     "cN = through a cluster of N CTAs (DSMEM). The planner's pick is in the table above.\n\n");
        const char *cur = NULL;
        for (auto &r : sweep) {
            if (!cur || strcmp(cur, r.name)) fprintf(out, "%s%s:", cur ? "\n" : "", r.name), cur = r.name;
            fprintf(out, " %s%d=%.1f/%.1f", r.cluster ? "c" : "s", r.split, r.p50, r.gpdl);
        }
        fprintf(out, "\n");
    }
    lt_free(lt);
    cudaFree(lt.ws);
    cublasLtDestroy(lt.h);
    cudaStreamDestroy(st);
    return rc;
}
