/* `megartp bench pdl`: what programmatic dependent launch (PDL) buys one producer/consumer
 * pair, split by where the consumer waits (the article's section 7, "PDL收益拆解").
 *
 * Producer: A0 (add + RMSNorm + 1x128 quant, hidden 6144, one CTA a row): the device function
 * of mrt_gpu_a0 (mrt_a0_row), in a copy of its kernel that also writes %globaltimer stamps
 * (first CTA start, last CTA end). It waits and triggers at entry, as mrt_a0_kernel does.
 * Consumer: the FP8 GEMM reading A0's x8 / sx, B0 (6144 -> 2624, 16 MB of weights) and, as the
 * negative case with almost nothing to prefetch, B1 (6144 -> 128, 0.8 MB). Three consumer
 * variants of the same GEMM (same tiles, split, stages, epilogue), each launched with PDL off
 * and on (the wait is a no-op without the launch attribute):
 *   entry     every thread executes griddepcontrol.wait first, before any prologue; one
 *             loader warp loads weights and activations (MRT_WAIT_PLACE_ENTRY)
 *   prologue  descriptor prefetch, mbarrier init and the CTA barrier, then every thread waits;
 *             the same single loader, so no weight byte moves before the wait
 *             (MRT_WAIT_PLACE_PROLOGUE: DeepGEMM's placement)
 *   prefetch  the executors' kernel: the weight loader fills the weight ring before the wait,
 *             only the activation loader and the store wait (MRT_WAIT_PLACE_LOADER)
 *
 * Metric: span = producer's first CTA start to consumer's last output store, both from
 * %globaltimer (the consumer's stamp: an epilogue that stamps after the last output vector of
 * each tile), per pair. The pairs run inside a CUDA graph of PDL_PAIRS (producer, consumer)
 * pairs, plain edge from each consumer to the next producer, the PDL edge (or a plain one)
 * from producer to consumer; weights rotate through enough copies that the pairs of one graph
 * stream more than 6 x the 60 MB L2 (and >= 6 copies). Graphs of the six (variant, PDL)
 * combinations replay interleaved, PDL_REPS times each (the first warms up); median over
 * (PDL_REPS - 1) x PDL_PAIRS pairs. Also printed: the graph's time per pair (events around the
 * replay / pairs: includes the plain consumer -> producer gap) and the producer's own span.
 *
 * Correctness, before timing, for every M, consumer and variant: A0's outputs and the GEMM's
 * output poisoned (0xFF: NaN in e4m3, fp32 and bf16), producer then consumer, PDL off and on,
 * with the producer also held back 20 us (delay_ns) so an early read would meet poison; with
 * both the stamped copy and mrt_gpu_a0 itself as producer. Every output must be written and
 * byte-identical to the prefetch variant's PDL-off bytes. The last pair of each PDL graph is
 * compared as well. */
#include "bench_fill.cuh"
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <algorithm>
#include <string>
#include <vector>

#include "add_rmsnorm_quant.cuh"
#include "bench.h"
#include "gemm_host.h"
#include "gemm_kernel.cuh"
#include "prefix_ops.h"

#define PDL_H 6144
#define PDL_PAIRS 240
#define PDL_REPS 6
#define PDL_ROTATE_BYTES (6.0 * 60e6) /* more than 6 x the H200's 60 MB L2 */
#define PDL_DELAY_NS 20000u
#define PDL_MAX_M 4096

enum { PDL_ENTRY = 0, PDL_PROLOGUE = 1, PDL_PREFETCH = 2, PDL_NV = 3 };
static const char *const pdl_vname[PDL_NV] = {"entry", "prologue", "prefetch"};

static __device__ __forceinline__ unsigned long long pdl_now() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

/* stamps of one pair: [0] producer first CTA start (min), [1] producer last CTA end (max),
 * [2] consumer last output store (max), [3] unused */
__global__ void pdl_stamp_init(unsigned long long *s, int pairs) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < pairs) s[4 * i] = ~0ull, s[4 * i + 1] = 0, s[4 * i + 2] = 0, s[4 * i + 3] = 0;
}

/* mrt_a0_kernel (src/cuda/prefix_ops.cu) plus the stamps (st may be NULL). */
__global__ void __launch_bounds__(MRT_A0_MAX_THREADS) pdl_a0_kernel(mrt_a0_args a, unsigned long long *st) {
    __shared__ double scratch[32];
    if (st && threadIdx.x == 0) atomicMin(st, pdl_now());
    asm volatile("griddepcontrol.wait;" ::: "memory");
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    mrt_a0_row(a, blockIdx.x, scratch);
    if (st) {
        __syncthreads();
        if (threadIdx.x == 0) atomicMax(st + 1, pdl_now());
    }
}

/* The default epilogue (bf16 rows), and a %globaltimer stamp after each tile's last output
 * vector (t_end may be NULL). */
struct pdl_epi_stamp {
    mrt_epi_store st;
    unsigned long long *t_end;
    int M, N, tn;
    __device__ __forceinline__ void operator()(const mrt_gemm_tile &t, int m, int n, const float (&v)[8]) const {
        st(t, m, n, v);
        const int mlast = (M < t.m0 + tn ? M : t.m0 + tn) - 1;
        const int nlast = (N < t.n0 + 128 ? N : t.n0 + 128) - 8;
        if (t_end && m == mlast && n == nlast) atomicMax(t_end, pdl_now());
    }
};
static_assert(sizeof(pdl_epi_stamp) <= sizeof(((mrt_gpu_gemm *)0)->epi), "pdl_epi_stamp outgrew mrt_gpu_gemm.epi");

template <class W> static const void *pdl_kernel_w(int tn) {
    switch (tn) {
    case 8: return (const void *)mrt_gemm_kernel<MRT_GEMM_FP8, 8, W, pdl_epi_stamp>;
    case 16: return (const void *)mrt_gemm_kernel<MRT_GEMM_FP8, 16, W, pdl_epi_stamp>;
    case 32: return (const void *)mrt_gemm_kernel<MRT_GEMM_FP8, 32, W, pdl_epi_stamp>;
    case 64: return (const void *)mrt_gemm_kernel<MRT_GEMM_FP8, 64, W, pdl_epi_stamp>;
    case 128: return (const void *)mrt_gemm_kernel<MRT_GEMM_FP8, 128, W, pdl_epi_stamp>;
    }
    return NULL;
}
static const void *pdl_kernel(int v, int tn) {
    if (v == PDL_ENTRY) return pdl_kernel_w<mrt_wait_griddep_entry>(tn);
    if (v == PDL_PROLOGUE) return pdl_kernel_w<mrt_wait_griddep_prologue>(tn);
    return pdl_kernel_w<mrt_wait_griddep>(tn);
}


struct pdl_consumer {
    const char *name, *what;
    int N, K;
};
static const pdl_consumer pdl_consumers[] = {
    {"B0", "6144->2624, 16.1 MB of weights", 2624, PDL_H},
    {"B1", "6144->128, 0.8 MB of weights (negative case)", 128, PDL_H},
};

/* The producer's buffers (sized for the largest M). */
struct pdl_env {
    cudaStream_t st = NULL;
    uint16_t *h = NULL, *res = NULL, *w = NULL, *r_new = NULL, *x = NULL;
    uint8_t *x8 = NULL;
    float *sx = NULL;
    unsigned long long *stamps = NULL; /* [PDL_PAIRS][4] */
    int max_m = 0;
};

/* One consumer shape: weight copies, scales, output, workspace. */
struct pdl_cbufs {
    uint8_t *w = NULL;
    float *sw = NULL;
    uint16_t *out = NULL;
    void *ws = NULL;
    size_t wstride = 0, swcount = 0, ws_bytes = 0;
    int copies = 0;
};

static void pdl_cfree(pdl_cbufs &b) {
    cudaFree(b.w), cudaFree(b.sw), cudaFree(b.out), cudaFree(b.ws);
    b = pdl_cbufs();
}

/* Reports a failure (with the CUDA error and any watchdog records); always -1. */
static int pdl_err(FILE *out, const char *what) {
    cudaError_t e = cudaGetLastError();
    char rep[2048];
    int n = mrt_gpu_watchdog_report(rep, sizeof rep);
    fprintf(out, "\nbench pdl: %s failed: %s\n%s", what, cudaGetErrorString(e), n ? rep : "");
    return -1;
}

static mrt_a0_args pdl_a0_args(const pdl_env &e, unsigned delay_ns) {
    mrt_a0_args a = {e.h, e.res, e.w, e.r_new, e.x, e.x8, e.sx, PDL_H, 1e-5f, delay_ns};
    return a;
}
static const int pdl_a0_threads = ((PDL_H / 16) + 31) / 32 * 32;

/* The producer, plain launch (it follows a consumer or a memset). real = mrt_gpu_a0 itself. */
static int pdl_launch_a0(const pdl_env &e, int M, unsigned long long *stamp, int real, unsigned delay_ns) {
    if (real) {
        char why[256];
        return mrt_gpu_a0(e.h, e.res, e.w, e.r_new, e.x, e.x8, e.sx, M, PDL_H, 1e-5f, delay_ns, e.st, 0, why, sizeof why)
                   ? -1
                   : 0;
    }
    pdl_a0_kernel<<<M, pdl_a0_threads, 0, e.st>>>(pdl_a0_args(e, delay_ns), stamp);
    return cudaGetLastError() == cudaSuccess ? 0 : -1;
}

/* The consumer: plan `g` (of one weight copy) run as variant v, stamping into t_end. */
static int pdl_launch_gemm(const mrt_gpu_gemm &g0, const pdl_env &e, int v, int pdl, int M, int N,
                           unsigned long long *t_end) {
    mrt_gpu_gemm g = g0;
    g.kernel = g.kernel_pdl = pdl_kernel(v, g0.tn);
    pdl_epi_stamp ep;
    memset(&ep, 0, sizeof ep);
    memcpy(&ep.st, g0.epi, sizeof ep.st);
    ep.t_end = t_end, ep.M = M, ep.N = N, ep.tn = g0.tn;
    memcpy(g.epi, &ep, sizeof ep);
    char why[256];
    return mrt_gpu_gemm_run(&g, e.st, pdl, why, sizeof why);
}

static int pdl_setup_consumer(pdl_cbufs &b, const pdl_consumer &c, const pdl_env &e, const int *ms, int n_ms) {
    const size_t wbytes = (size_t)c.N * c.K;
    b.wstride = (wbytes + 4095) & ~(size_t)4095;
    b.copies = (int)std::max(6.0, PDL_ROTATE_BYTES / (double)wbytes + 1);
    b.swcount = (size_t)((c.N + 127) / 128) * (c.K / 128);
    b.ws_bytes = 0;
    for (int mi = 0; mi < n_ms; mi++) /* enough for any split at every M */
        for (int sp = 0; sp <= c.K / 128; sp++)
            b.ws_bytes = std::max(b.ws_bytes, mrt_gpu_gemm_workspace_bytes(MRT_GEMM_FP8, ms[mi], c.N, c.K, 1, sp));
    if (cudaMalloc((void **)&b.w, b.wstride * b.copies) != cudaSuccess ||
        cudaMalloc((void **)&b.sw, b.swcount * 4 * b.copies) != cudaSuccess ||
        cudaMalloc((void **)&b.out, (size_t)e.max_m * c.N * 2) != cudaSuccess ||
        (b.ws_bytes && cudaMalloc(&b.ws, b.ws_bytes) != cudaSuccess))
        return -1;
    mrt_bench_fill<<<1024, 256, 0, e.st>>>(b.w, b.wstride * b.copies, 1234 + c.N, 0);
    mrt_bench_fill<<<256, 256, 0, e.st>>>((uint8_t *)b.sw, b.swcount * 4 * b.copies, 5, 2);
    if (b.ws_bytes) cudaMemsetAsync(b.ws, 0, b.ws_bytes, e.st);
    return cudaStreamSynchronize(e.st) == cudaSuccess ? 0 : -1;
}

struct pdl_result {
    double p10, p50, p90, prod, pair; /* us: span percentiles, producer span median, graph time per pair */
    int n;
};

static double pdl_pct(std::vector<double> &v, double q) {
    if (v.empty()) return -1;
    std::sort(v.begin(), v.end());
    size_t i = (size_t)(q * (double)(v.size() - 1) + 0.5);
    return v[i];
}

/* Runs producer + consumer once from poisoned buffers; copies the consumer's output to host. */
static int pdl_once(const pdl_env &e, const pdl_cbufs &b, const mrt_gpu_gemm &g, int v, int pdl, int M, int N,
                    int real, unsigned delay, std::vector<uint8_t> &host) {
    const size_t ob = (size_t)M * N * 2;
    cudaMemsetAsync(e.x8, 0xFF, (size_t)M * PDL_H, e.st);
    cudaMemsetAsync(e.sx, 0xFF, (size_t)M * (PDL_H / 128) * 4, e.st);
    cudaMemsetAsync(b.out, 0xFF, ob, e.st);
    if (pdl_launch_a0(e, M, NULL, real, delay) || pdl_launch_gemm(g, e, v, pdl, M, N, NULL)) return -1;
    host.resize(ob);
    if (cudaMemcpyAsync(host.data(), b.out, ob, cudaMemcpyDeviceToHost, e.st) != cudaSuccess) return -1;
    return cudaStreamSynchronize(e.st) == cudaSuccess ? 0 : -1;
}

static size_t pdl_diff(const std::vector<uint8_t> &a, const std::vector<uint8_t> &b) {
    size_t d = 0;
    for (size_t i = 0; i < a.size() && i < b.size(); i++) d += a[i] != b[i];
    return d + (a.size() > b.size() ? a.size() - b.size() : b.size() - a.size());
}
static size_t pdl_poisoned(const std::vector<uint8_t> &a) { /* bf16 0xFFFF left = never written */
    size_t n = 0;
    for (size_t i = 0; i + 1 < a.size(); i += 2) n += a[i] == 0xFF && a[i + 1] == 0xFF;
    return n;
}

/* One consumer at one M: the check, then the six graphs. res[v][pdl]. Returns 0, 1 when the
 * check failed (results not timed), -1 on a CUDA error (the context may be gone). */
static int pdl_measure(const pdl_env &e, pdl_cbufs &b, const pdl_consumer &c, int M, pdl_result res[PDL_NV][2],
                       char *plan_desc, size_t pdn, char *check, size_t cn, FILE *out) {
    char why[512];
    std::vector<mrt_gpu_gemm> plans(b.copies);
    for (int k = 0; k < b.copies; k++) {
        mrt_gpu_gemm_fp8_args a;
        memset(&a, 0, sizeof a);
        a.M = M, a.N = c.N, a.K = c.K, a.x8 = e.x8, a.sx = e.sx, a.w = b.w + (size_t)k * b.wstride;
        a.sw = b.sw + (size_t)k * b.swcount, a.out = b.out, a.out_ld = c.N;
        a.workspace = b.ws, a.workspace_bytes = b.ws_bytes;
        if (mrt_gpu_gemm_fp8_plan(&plans[k], &a, why, sizeof why)) {
            fprintf(out, "| %s | %d | plan failed: %s |\n", c.name, M, why);
            return 1;
        }
    }
    const mrt_gpu_gemm &p0 = plans[0];
    for (int v = 0; v < PDL_NV; v++) {
        const void *k = pdl_kernel(v, p0.tn);
        if (p0.cluster > 8) cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
        if (mrt_gpu_raise_smem(k, p0.smem_bytes) != cudaSuccess) return pdl_err(out, "cudaFuncSetAttribute");
    }
    snprintf(plan_desc, pdn, "tn %d, split %d%s, %d stages, %d CTAs; %d weight copies", p0.tn, p0.split,
             p0.split == 1 ? "" : p0.cluster > 1 ? " (cluster)" : " (global)", p0.stages, p0.grid, b.copies);

    /* ---- check ---- */
    const int last = (PDL_PAIRS - 1) % b.copies;
    std::vector<uint8_t> ref[2], ref_last, o;
    size_t bad = 0, runs = 0, poisoned = 0;
    for (int real = 0; real < 2; real++) {
        if (pdl_once(e, b, p0, PDL_PREFETCH, 0, M, c.N, real, 0, ref[real])) return pdl_err(out, "check run");
        poisoned += pdl_poisoned(ref[real]);
        for (int v = 0; v < PDL_NV; v++)
            for (int pdl = 0; pdl < 2; pdl++)
                for (int r = 0; r < (pdl ? 4 : 1); r++) {
                    const unsigned delay = r & 1 ? PDL_DELAY_NS : 0; /* a slow producer */
                    if (pdl_once(e, b, p0, v, pdl, M, c.N, real, delay, o)) return pdl_err(out, "check run");
                    size_t d = pdl_diff(o, ref[real]);
                    runs++;
                    if (d) {
                        bad++;
                        fprintf(out, "CHECK FAIL %s M=%d %s PDL %s producer %s delay %u: %zu bytes differ\n", c.name, M,
                                pdl_vname[v], pdl ? "on" : "off", real ? "mrt_gpu_a0" : "stamped", delay, d);
                    }
                }
    }
    if (pdl_once(e, b, plans[last], PDL_PREFETCH, 0, M, c.N, 0, 0, ref_last)) return pdl_err(out, "check run");
    poisoned += pdl_poisoned(ref_last);
    snprintf(check, cn, "%s: %zu runs %s the PDL-off bytes, %zu outputs left unwritten", c.name, runs,
             bad ? "NOT all equal to" : "byte-identical to", poisoned);
    if (bad || poisoned) return 1;

    /* ---- timing: six graphs, replayed interleaved ---- */
    cudaGraphExec_t exec[PDL_NV][2] = {};
    int rc = 0;
    for (int v = 0; v < PDL_NV && !rc; v++)
        for (int pdl = 0; pdl < 2 && !rc; pdl++) {
            cudaGraph_t graph = NULL;
            if (cudaStreamBeginCapture(e.st, cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
                rc = pdl_err(out, "begin capture");
                break;
            }
            int ok = 1;
            for (int i = 0; ok && i < PDL_PAIRS; i++)
                ok = !pdl_launch_a0(e, M, e.stamps + 4 * i, 0, 0) &&
                     !pdl_launch_gemm(plans[i % b.copies], e, v, pdl, M, c.N, e.stamps + 4 * i + 2);
            ok = cudaStreamEndCapture(e.st, &graph) == cudaSuccess && ok;
            ok = ok && cudaGraphInstantiate(&exec[v][pdl], graph, 0) == cudaSuccess;
            if (graph) cudaGraphDestroy(graph);
            if (!ok) rc = pdl_err(out, "graph capture");
        }
    std::vector<double> span[PDL_NV][2], prod[PDL_NV][2], pair[PDL_NV][2];
    std::vector<unsigned long long> hs(4 * PDL_PAIRS);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    size_t invalid = 0;
    for (int rep = 0; rep < PDL_REPS && !rc; rep++)
        for (int v = 0; v < PDL_NV && !rc; v++)
            for (int pdl = 0; pdl < 2 && !rc; pdl++) {
                pdl_stamp_init<<<(PDL_PAIRS + 127) / 128, 128, 0, e.st>>>(e.stamps, PDL_PAIRS);
                cudaEventRecord(e0, e.st);
                cudaGraphLaunch(exec[v][pdl], e.st);
                cudaEventRecord(e1, e.st);
                cudaMemcpyAsync(hs.data(), e.stamps, hs.size() * 8, cudaMemcpyDeviceToHost, e.st);
                if (cudaStreamSynchronize(e.st) != cudaSuccess) {
                    rc = pdl_err(out, "graph replay");
                    break;
                }
                if (rep == 0) continue; /* warm-up */
                float ms = 0;
                cudaEventElapsedTime(&ms, e0, e1);
                pair[v][pdl].push_back(ms * 1e3 / PDL_PAIRS);
                for (int i = 0; i < PDL_PAIRS; i++) {
                    unsigned long long s0 = hs[4 * i], s1 = hs[4 * i + 1], s2 = hs[4 * i + 2];
                    if (s0 == ~0ull || s1 < s0 || s2 < s0) {
                        invalid++;
                        continue;
                    }
                    span[v][pdl].push_back((double)(s2 - s0) * 1e-3);
                    prod[v][pdl].push_back((double)(s1 - s0) * 1e-3);
                }
            }
    /* the last pair of each PDL graph wrote the output of weight copy `last` */
    size_t gbad = 0;
    for (int v = 0; v < PDL_NV && !rc; v++) {
        o.resize(ref_last.size());
        if (cudaMemsetAsync(b.out, 0xFF, o.size(), e.st) != cudaSuccess ||
            cudaGraphLaunch(exec[v][1], e.st) != cudaSuccess ||
            cudaMemcpyAsync(o.data(), b.out, o.size(), cudaMemcpyDeviceToHost, e.st) != cudaSuccess ||
            cudaStreamSynchronize(e.st) != cudaSuccess) {
            rc = pdl_err(out, "graph check");
            break;
        }
        gbad += pdl_diff(o, ref_last) != 0;
    }
    for (int v = 0; v < PDL_NV; v++)
        for (int pdl = 0; pdl < 2; pdl++)
            if (exec[v][pdl]) cudaGraphExecDestroy(exec[v][pdl]);
    cudaEventDestroy(e0), cudaEventDestroy(e1);
    if (rc) return rc;
    size_t used = strlen(check);
    snprintf(check + used, cn - used, "; PDL graphs' last pair %s; %zu invalid stamps", gbad ? "DIFFERS" : "identical",
             invalid);
    if (gbad) return 1;
    for (int v = 0; v < PDL_NV; v++)
        for (int pdl = 0; pdl < 2; pdl++) {
            pdl_result &r = res[v][pdl];
            r.n = (int)span[v][pdl].size();
            r.p10 = pdl_pct(span[v][pdl], 0.1), r.p50 = pdl_pct(span[v][pdl], 0.5), r.p90 = pdl_pct(span[v][pdl], 0.9);
            r.prod = pdl_pct(prod[v][pdl], 0.5), r.pair = pdl_pct(pair[v][pdl], 0.5);
        }
    return 0;
}

extern "C" int mrt_bench_pdl(const int *ms, int n_ms, FILE *out) {
    static const int ms_default[] = {16, 32, 64, 128, 256};
    if (!ms || n_ms <= 0) ms = ms_default, n_ms = 5;
    char why[512];
    if (!mrt_gpu_available(why, sizeof why)) {
        fprintf(out, "bench pdl: %s\n", why);
        return -1;
    }
    pdl_env e;
    for (int i = 0; i < n_ms; i++) {
        if (ms[i] < 1 || ms[i] > PDL_MAX_M) {
            fprintf(out, "bench pdl: M = %d out of 1..%d\n", ms[i], PDL_MAX_M);
            return -1;
        }
        e.max_m = std::max(e.max_m, ms[i]);
    }
    mrt_bench_heading(out, "pdl");
    fprintf(out,
            "Producer A0 (add + RMSNorm + quant, hidden %d, M CTAs) -> consumer FP8 GEMM reading its x8/sx. Span = "
            "producer's first CTA start -> consumer's last output store, from %%globaltimer stamps, median over %d "
            "pairs (%d graph replays x %d pairs; p10-p90 beside). Pairs run in a CUDA graph: plain edge consumer -> "
            "next producer; producer -> consumer plain (PDL off) or programmatic (PDL on). Weights rotate over >= 6 "
            "copies and > %.0f MB. \"graph/pair\" = graph time / pairs (includes the plain edge to the next pair). "
            "\"A0\" = the producer's own span (first CTA start -> last CTA end).\n\n",
            PDL_H, (PDL_REPS - 1) * PDL_PAIRS, PDL_REPS - 1, PDL_PAIRS, PDL_ROTATE_BYTES / 1e6);
    fflush(out);
    cudaStreamCreateWithFlags(&e.st, cudaStreamNonBlocking);
    const size_t xe = (size_t)e.max_m * PDL_H;
    int rc = 0;
    if (cudaMalloc((void **)&e.h, xe * 2) != cudaSuccess || cudaMalloc((void **)&e.res, xe * 2) != cudaSuccess ||
        cudaMalloc((void **)&e.w, PDL_H * 2) != cudaSuccess || cudaMalloc((void **)&e.r_new, xe * 2) != cudaSuccess ||
        cudaMalloc((void **)&e.x, xe * 2) != cudaSuccess || cudaMalloc((void **)&e.x8, xe) != cudaSuccess ||
        cudaMalloc((void **)&e.sx, xe / 128 * 4) != cudaSuccess ||
        cudaMalloc((void **)&e.stamps, 4 * 8 * PDL_PAIRS) != cudaSuccess) {
        fprintf(out, "bench pdl: allocation failed\n");
        rc = -1;
    }
    if (!rc) {
        mrt_bench_fill<<<256, 256, 0, e.st>>>((uint8_t *)e.h, xe * 2, 11, 1);
        mrt_bench_fill<<<256, 256, 0, e.st>>>((uint8_t *)e.res, xe * 2, 12, 1);
        mrt_bench_fill<<<16, 256, 0, e.st>>>((uint8_t *)e.w, PDL_H * 2, 13, 1);
        if (cudaStreamSynchronize(e.st) != cudaSuccess) rc = pdl_err(out, "fill");
    }
    struct row {
        const char *name;
        int M;
        pdl_result r[PDL_NV][2];
    };
    std::vector<row> rows;
    std::vector<std::string> checks;
    for (const pdl_consumer &c : pdl_consumers) {
        if (rc < 0) break;
        pdl_cbufs b;
        if (pdl_setup_consumer(b, c, e, ms, n_ms)) {
            rc = pdl_err(out, "consumer buffers");
            pdl_cfree(b);
            break;
        }
        fprintf(out, "### consumer %s (%s)\n\n", c.name, c.what);
        fprintf(out, "| M | GEMM plan | variant | span PDL off | span PDL on | saving us | saving %% | off p10-p90 | "
                     "on p10-p90 | A0 off / on | graph/pair off / on |\n");
        fprintf(out, "|---|---|---|---|---|---|---|---|---|---|---|\n");
        fflush(out);
        for (int mi = 0; mi < n_ms && rc >= 0; mi++) {
            const int M = ms[mi];
            row r;
            r.name = c.name, r.M = M;
            char plan[160] = "", check[512] = "";
            int st = pdl_measure(e, b, c, M, r.r, plan, sizeof plan, check, sizeof check, out);
            checks.push_back(std::string(check[0] ? check : "(no check)") + " at M=" + std::to_string(M));
            if (st) {
                fprintf(out, "| %d | %s | check failed or run error: %s |\n", M, plan, check);
                rc = st < 0 ? -1 : 1;
                continue;
            }
            for (int v = 0; v < PDL_NV; v++) {
                const pdl_result &f = r.r[v][0], &n = r.r[v][1];
                fprintf(out,
                        "| %d | %s | %s | %.3f | %.3f | **%.3f** | **%.1f%%** | %.2f-%.2f | %.2f-%.2f | %.2f / %.2f | "
                        "%.2f / %.2f |\n",
                        M, v == 0 ? plan : "", pdl_vname[v], f.p50, n.p50, f.p50 - n.p50, 100.0 * (f.p50 - n.p50) / f.p50,
                        f.p10, f.p90, n.p10, n.p90, f.prod, n.prod, f.pair, n.pair);
            }
            fflush(out);
            rows.push_back(r);
        }
        fprintf(out, "\n");
        pdl_cfree(b);
    }
    fprintf(out, "correctness (PDL on vs off, poisoned producer outputs and consumer output, producer also delayed "
                 "%u us; both the stamped A0 copy and mrt_gpu_a0 as producer):\n",
            PDL_DELAY_NS / 1000);
    for (auto &s : checks) fprintf(out, "- %s\n", s.c_str());
    if (!rows.empty()) {
        fprintf(out, "\nsaving (span PDL off - on) by variant, us (%%):\n\n| consumer | M | entry | prologue | prefetch |\n"
                     "|---|---|---|---|---|\n");
        for (auto &r : rows) {
            fprintf(out, "| %s | %d |", r.name, r.M);
            for (int v = 0; v < PDL_NV; v++) {
                const pdl_result &f = r.r[v][0], &n = r.r[v][1];
                fprintf(out, " %.3f (%.1f%%) |", f.p50 - n.p50, 100.0 * (f.p50 - n.p50) / f.p50);
            }
            fprintf(out, "\n");
        }
        fprintf(out, "\narticle (section 7, QKV-A GEMM after Add+RMSNorm+Quant, M=16): entry 0.608 us (4.4%%), "
                     "prologue 1.344 us (9.6%%), prefetch 2.912 us (20.7%%)\n");
    }
    cudaFree(e.h), cudaFree(e.res), cudaFree(e.w), cudaFree(e.r_new), cudaFree(e.x), cudaFree(e.x8), cudaFree(e.sx);
    cudaFree(e.stamps);
    cudaStreamDestroy(e.st);
    return rc ? -1 : 0;
}
