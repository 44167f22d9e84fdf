/* GPU presence, and the host side shared by the standalone GEMMs: TMA descriptors, the
 * split-K / stage / tile-width choices, workspace layout and the launch. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gemm_host.h"
#include "gemm_kernel.cuh" /* the traced twins' lookup */
#include "trace_gpu.h"

int mrt_gpu_fail(char *why, size_t n, const char *fmt, ...) {
    if (why && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

extern "C" int mrt_gpu_available(char *why, size_t n) {
    int count = 0;
    cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
        mrt_gpu_fail(why, n, "no usable CUDA device: %s", cudaGetErrorString(e));
        cudaGetLastError();
        return 0;
    }
    if (count == 0) {
        mrt_gpu_fail(why, n, "no CUDA device");
        return 0;
    }
    int dev = 0, major = 0, minor = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    if (major != 9 || minor != 0) {
        mrt_gpu_fail(why, n, "device %d is sm_%d%d; megartp's kernels are built for sm_90a (Hopper)", dev, major,
                     minor);
        return 0;
    }
    if (why && n) why[0] = 0;
    return 1;
}

/* ---- watchdog records ------------------------------------------------------------------ */

static unsigned *mrt_diag_host = NULL, *mrt_diag_dev = NULL;

unsigned *mrt_gpu_diag(void) {
    if (!mrt_diag_host) {
        void *h = NULL, *d = NULL;
        size_t bytes = (size_t)MRT_DIAG_SLOTS * MRT_DIAG_WORDS * 4;
        if (cudaHostAlloc(&h, bytes, cudaHostAllocMapped) != cudaSuccess) {
            cudaGetLastError();
            return NULL;
        }
        memset(h, 0, bytes);
        if (cudaHostGetDevicePointer(&d, h, 0) != cudaSuccess) {
            cudaGetLastError();
            cudaFreeHost(h);
            return NULL;
        }
        mrt_diag_host = (unsigned *)h, mrt_diag_dev = (unsigned *)d;
    }
    return mrt_diag_dev;
}

extern "C" int mrt_gpu_watchdog_report(char *buf, size_t n) {
    int count = 0;
    size_t used = 0;
    if (buf && n) buf[0] = 0;
    if (!mrt_diag_host) return 0;
    /* Stuck GEMM tiles last: in a megakernel hang most records are tiles held up by the
     * wait that another record names, and the caller's buffer may not hold them all. */
    for (int k = 0; k < 2 * MRT_DIAG_SLOTS; k++) {
        const int i = k % MRT_DIAG_SLOTS;
        volatile unsigned *d = mrt_diag_host + i * MRT_DIAG_WORDS;
        if (d[0] != MRT_DIAG_MAGIC || (d[3] == MRT_DIAG_TILE_STUCK) != (k >= MRT_DIAG_SLOTS)) continue;
        char line[320];
        unsigned code = d[3];
        if (code == MRT_DIAG_EMPTY_WAIT)
            snprintf(line, sizeof line, "block %u thread %u: %s loader waited > %lld cycles for stage %u (parity %u, %s %u) to be released\n",
                     d[1], d[2], d[7] == 1 ? "activation" : d[7] == 2 ? "weight" : "index-logits key",
                     (long long)MRT_SPIN_LIMIT_CYCLES, d[4], d[5], d[7] == 3 ? "key pass" : "K block", d[6]);
        else if (code == MRT_DIAG_TILE_STUCK)
            snprintf(line, sizeof line, "block %u: GEMM tile (batch %u, n0 %u, m0 %u, split %u, K blocks %u..%u) not done after %lld cycles: weights issued %d, activations issued %d, consumed %d / %d\n",
                     d[1], d[4], d[5], d[6], d[7], d[8], d[8] + d[9], (long long)MRT_SPIN_LIMIT_CYCLES, (int)d[10], (int)d[11], (int)d[12], (int)d[13]);
        else if (code == MRT_DIAG_MEGA_WAIT)
            snprintf(line, sizeof line, "megakernel worker %u, instruction %u (task %u): event e%u still %u, waiting for %u\n",
                     d[4], d[5], d[6], d[7], d[9], d[8]);
        else if (code == MRT_DIAG_MEGA_UNSUPPORTED)
            snprintf(line, sizeof line, "megakernel worker %u, instruction %u (task %u): opcode %u is not implemented\n",
                     d[4], d[5], d[6], d[7]);
        else if (code == MRT_DIAG_FULL_WAIT)
            snprintf(line, sizeof line, "block %u thread %u: consumer waited on mbarrier at smem 0x%x (parity %u)\n", d[1], d[2], d[4], d[5]);
        else
            snprintf(line, sizeof line, "block %u thread %u: watchdog record with unknown code %u\n", d[1], d[2], code);
        count++;
        size_t len = strlen(line);
        if (buf && used + len + 1 < n) memcpy(buf + used, line, len + 1), used += len;
    }
    return count;
}

/* ---- TMA descriptors ---------------------------------------------------------------- */

typedef CUresult (*mrt_encode_tiled_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                        const cuuint64_t *, const cuuint32_t *, const cuuint32_t *,
                                        CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
                                        CUtensorMapFloatOOBfill);

static mrt_encode_tiled_fn mrt_encode_tiled(void) {
    static mrt_encode_tiled_fn fn = NULL;
    if (!fn) {
        void *p = NULL;
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) ==
                cudaSuccess &&
            q == cudaDriverEntryPointSuccess)
            fn = (mrt_encode_tiled_fn)p;
    }
    return fn;
}

/* rank 2 or 3, zero fill: the shared body of mrt_tmap_2d / mrt_tmap_3d / mrt_tmap_2d_flat */
static int tmap_encode(void *tmap, const void *base, CUtensorMapDataType dt, cuuint32_t rank, const cuuint64_t *dims,
                       const cuuint64_t *strides, const cuuint32_t *box, CUtensorMapSwizzle swizzle, char *why,
                       size_t n) {
    mrt_encode_tiled_fn enc = mrt_encode_tiled();
    if (!enc) return mrt_gpu_fail(why, n, "cuTensorMapEncodeTiled is not available from the driver");
    if ((uintptr_t)base % 16) return mrt_gpu_fail(why, n, "tensor base %p is not 16-byte aligned", base);
    for (cuuint32_t i = 0; i + 1 < rank; i++)
        if (strides[i] % 16)
            return mrt_gpu_fail(why, n, "stride %u of %llu bytes is not a multiple of 16", i,
                                (unsigned long long)strides[i]);
    const cuuint32_t estr[3] = {1, 1, 1};
    CUresult r = enc((CUtensorMap *)tmap, dt, rank, (void *)base, dims, strides, box, estr,
                     CU_TENSOR_MAP_INTERLEAVE_NONE, swizzle, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS)
        return mrt_gpu_fail(why, n, "cuTensorMapEncodeTiled failed (%d) for a %u-d tensor [.. x %llu x %llu], box %u x %u",
                            (int)r, rank, (unsigned long long)dims[1], (unsigned long long)dims[0], box[1],
                            box[0]);
    return 0;
}

/* rank 2: mrt_tmap_2d (128-byte swizzle) and mrt_tmap_2d_flat (none) */
static int tmap_2d(void *tmap, const void *base, CUtensorMapDataType dt, uint64_t inner, uint64_t rows,
                   uint64_t row_bytes, uint32_t box_inner, uint32_t box_rows, CUtensorMapSwizzle swizzle, char *why,
                   size_t n) {
    const cuuint64_t dims[2] = {inner, rows}, strides[1] = {row_bytes};
    const cuuint32_t box[2] = {box_inner, box_rows};
    return tmap_encode(tmap, base, dt, 2, dims, strides, box, swizzle, why, n);
}

int mrt_tmap_2d(void *tmap, const void *base, CUtensorMapDataType dt, int elem_bytes, uint64_t inner,
                uint64_t rows, uint64_t row_bytes, uint32_t box_inner, uint32_t box_rows, char *why, size_t n) {
    (void)elem_bytes;
    return tmap_2d(tmap, base, dt, inner, rows, row_bytes, box_inner, box_rows, CU_TENSOR_MAP_SWIZZLE_128B, why, n);
}

int mrt_tmap_2d_flat(void *tmap, const void *base, CUtensorMapDataType dt, uint64_t inner, uint64_t rows,
                     uint64_t row_bytes, uint32_t box_inner, uint32_t box_rows, char *why, size_t n) {
    return tmap_2d(tmap, base, dt, inner, rows, row_bytes, box_inner, box_rows, CU_TENSOR_MAP_SWIZZLE_NONE, why, n);
}

int mrt_tmap_3d(void *tmap, const void *base, CUtensorMapDataType dt, uint64_t inner, uint64_t rows, uint64_t planes,
                uint64_t row_bytes, uint64_t plane_bytes, uint32_t box_inner, uint32_t box_rows, char *why, size_t n) {
    const cuuint64_t dims[3] = {inner, rows, planes}, strides[2] = {row_bytes, plane_bytes};
    const cuuint32_t box[3] = {box_inner, box_rows, 1};
    return tmap_encode(tmap, base, dt, 3, dims, strides, box, CU_TENSOR_MAP_SWIZZLE_128B, why, n);
}

/* ---- planning ----------------------------------------------------------------------- */

int mrt_gpu_num_sms(void) {
    static int v = 0;
    if (!v) {
        int dev = 0;
        cudaGetDevice(&dev);
        if (cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || v <= 0) v = 132;
    }
    return v;
}

int mrt_gpu_smem_optin(void) {
    static int v = 0;
    if (!v) {
        int dev = 0;
        cudaGetDevice(&dev);
        if (cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess || v <= 0)
            v = 232448;
    }
    return v;
}

int mrt_gemm_pick_tn(int M) {
    static const int tns[] = {8, 16, 32, 64, 128};
    for (int i = 0; i < 5; i++)
        if (M <= tns[i]) return tns[i];
    return 128;
}

/* Lets `kernel` take `bytes` of dynamic shared memory. The attribute belongs to the kernel,
 * which every GEMM plan of that variant shares: only ever raise it. (Setting it exactly let
 * a later plan, or the cluster-capacity probe, lower it under an earlier plan, whose launch
 * then failed with "invalid argument": the cumulative benchmark's B0 after B1.) */
cudaError_t mrt_gpu_raise_smem(const void *kernel, int bytes) {
    cudaFuncAttributes fa;
    cudaError_t e = cudaFuncGetAttributes(&fa, kernel);
    if (e == cudaSuccess && fa.maxDynamicSharedSizeBytes < bytes)
        e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    return e;
}

int mrt_gemm_cluster_capacity(const void *kernel, int size, int smem) {
    static struct {
        const void *k;
        int size, smem, cap;
    } cache[128];
    static int n_cache = 0;
    for (int i = 0; i < n_cache; i++)
        if (cache[i].k == kernel && cache[i].size == size && cache[i].smem == smem) return cache[i].cap;
    int cap = 0;
    if (size >= 2 && size <= 16 &&
        cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) == cudaSuccess &&
        mrt_gpu_raise_smem(kernel, smem) == cudaSuccess) {
        cudaLaunchConfig_t cfg = {};
        cudaLaunchAttribute attr;
        attr.id = cudaLaunchAttributeClusterDimension;
        attr.val.clusterDim.x = (unsigned)size, attr.val.clusterDim.y = 1, attr.val.clusterDim.z = 1;
        cfg.gridDim = dim3((unsigned)size), cfg.blockDim = dim3(MRT_GEMM_THREADS), cfg.dynamicSmemBytes = (size_t)smem;
        cfg.attrs = &attr, cfg.numAttrs = 1;
        if (cudaOccupancyMaxActiveClusters(&cap, kernel, &cfg) != cudaSuccess) cap = 0;
    }
    cudaGetLastError();
    if (n_cache < 128) cache[n_cache].k = kernel, cache[n_cache].size = size, cache[n_cache].smem = smem,
                       cache[n_cache++].cap = cap;
    return cap;
}

int mrt_gemm_pick_split(int kind, int tn, const void *kernel, int units, int nkb, double wbytes_per_kb,
                        double out_bytes_per_tile, int split, int allow_cluster, int *cluster) {
    /* Fitted to the split sweeps of bench/gemm/NOTES.md (H200, 2026-11-29): a kernel this
     * short streams ~3.6 TB/s in all, at most ~42 B/ns per SM; ~1.5 us ramp (first bytes,
     * last tile). Global reduction: partial stores, a fence and a ticket atomic (~1.5 us),
     * then the last CTA's loads, 8 splits per L2 round trip. Cluster reduction: two on-chip
     * handshakes and distributed-shared-memory reads (~0.5 us). */
#ifdef MRT_GEMM_NO_CLUSTER /* sanitizer builds: under compute-sanitizer racecheck the step with
                              cluster launches faulted or hung (H200, 2026-11-30, session 10) */
    allow_cluster = 0;
#endif
    const double hbm = 3600.0, per_sm_cap = 42.0, ramp = 1500.0;
    const int num_sms = mrt_gpu_num_sms();
    double best = 1e300;
    int bs = split > 0 ? split : 1, bc = 1;
    for (int s = 1; s <= nkb; s++) {
        if (nkb % s || (split > 0 && s != split)) continue;
        int smem = 0;
        if (mrt_gemm_pick_stages(kind, tn, nkb / s, &smem) < 1) continue;
        for (int use_cl = 0; use_cl < 2; use_cl++) {
            long long ctas = (long long)units * s, slots = num_sms;
            /* allow_cluster 2 (auto): only a GEMM that is one cluster in all (B1, C0: measured
             * 0.3-0.4 us faster than the global reduction; with many clusters it was slower) */
            const int cl_ok = allow_cluster == 1 || (allow_cluster == 2 && units == 1);
            if (use_cl) {
                if (s < 2 || s > 16 || !cl_ok || !kernel) continue;
                int cap = mrt_gemm_cluster_capacity(kernel, s, smem);
                if (cap < 1) continue;
                slots = (long long)cap * s;
            } else if (s > 1 && cl_ok && s <= 16 && kernel && mrt_gemm_cluster_capacity(kernel, s, smem) >= 1) {
                continue; /* the cluster path is taken wherever it is allowed and works */
            }
            long long waves = (ctas + slots - 1) / slots;
            long long active = ctas < slots ? ctas : slots;
            double rate = hbm / (double)active;
            if (rate > per_sm_cap) rate = per_sm_cap;
            double t = (double)waves * ((double)(nkb / s) * wbytes_per_kb / rate + ramp);
            if (s > 1 && use_cl) t += 500.0;
            if (s > 1 && !use_cl)
                t += 1500.0 + 2.0 * out_bytes_per_tile / rate + (double)((s + 7) / 8) * 600.0;
            if (t < best) best = t, bs = s, bc = use_cl ? s : 1;
        }
    }
    *cluster = bc;
    return bs;
}

template <int KIND, int TN> static int mrt_stages_for(int kb_per_split, int cap, int *smem_bytes) {
    typedef mrt_gemm_layout<KIND, TN> L;
    int best = 0;
    for (int s = 1; s <= MRT_GEMM_MAX_STAGES && s <= kb_per_split; s++) {
        L lay(s, kb_per_split);
        if ((int)lay.total <= cap) best = s, *smem_bytes = (int)lay.total + 1024;
    }
    return best;
}

int mrt_gemm_pick_stages_in(int kind, int tn, int kb_per_split, int cap, int *smem_bytes) {
    return mrt_gemm_kind_visit(kind, [&](auto k) {
        constexpr int K = decltype(k)::value;
        switch (tn) {
        case 8: return mrt_stages_for<K, 8>(kb_per_split, cap, smem_bytes);
        case 16: return mrt_stages_for<K, 16>(kb_per_split, cap, smem_bytes);
        case 32: return mrt_stages_for<K, 32>(kb_per_split, cap, smem_bytes);
        case 64: return mrt_stages_for<K, 64>(kb_per_split, cap, smem_bytes);
        case 128: return mrt_stages_for<K, 128>(kb_per_split, cap, smem_bytes);
        }
        return 0;
    });
}

int mrt_gemm_pick_stages(int kind, int tn, int kb_per_split, int *smem_bytes) {
    /* 1024: alignment slack of the dynamic base */
    return mrt_gemm_pick_stages_in(kind, tn, kb_per_split, mrt_gpu_smem_optin() - 1024, smem_bytes);
}

/* Workspace: tickets [batches][nchunks][ntiles] u32 (padded to 256 B), then partials
 * [batches][split][M][N] f32. */
size_t mrt_gemm_ws_bytes(int batches, int nchunks, int ntiles, int split, int M, int N) {
    if (split <= 1) return 0;
    size_t t = ((size_t)batches * nchunks * ntiles * 4 + 255) & ~(size_t)255;
    return t + (size_t)batches * split * M * N * 4;
}

void mrt_gemm_ws_split(void *ws, int batches, int nchunks, int ntiles, unsigned **tickets, float **partial) {
    size_t t = ((size_t)batches * nchunks * ntiles * 4 + 255) & ~(size_t)255;
    *tickets = (unsigned *)ws;
    *partial = (float *)((char *)ws + t);
}

/* ---- launch -------------------------------------------------------------------------- */

/* The traced twin of a plan's kernel (stamps compiled in), or NULL. */
static const void *mrt_gemm_traced(const void *kernel) {
    if (!kernel) return NULL;
    const void *t = mrt_gemm_fp8_traced(kernel);
    return t ? t : mrt_gemm_bf16_traced(kernel);
}

extern "C" int mrt_gpu_gemm_run(const mrt_gpu_gemm *g, void *stream, int pdl, char *why, size_t n) {
    const void *fn = pdl ? g->kernel_pdl : g->kernel;
    if (!fn) return mrt_gpu_fail(why, n, "gemm plan has no kernel (not planned?)");
    /* this launch's trace records (NULL unless a traced step): only the traced twin writes them,
     * the plan's kernels have no stamp code */
    mrt_cta_stamp *ts = mrt_gpu_stamps_take(g->grid, "gemm");
    if (ts && !(fn = mrt_gemm_traced(fn))) return mrt_gpu_fail(why, n, "gemm: the plan's kernel has no traced twin");
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((unsigned)g->grid);
    cfg.blockDim = dim3(MRT_GEMM_THREADS);
    cfg.dynamicSmemBytes = (size_t)g->smem_bytes;
    cfg.stream = (cudaStream_t)stream;
    cudaLaunchAttribute attr[2];
    int na = 0;
    if (pdl) {
        attr[na].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[na++].val.programmaticStreamSerializationAllowed = 1;
    }
    if (g->cluster > 1) {
        attr[na].id = cudaLaunchAttributeClusterDimension;
        attr[na].val.clusterDim.x = (unsigned)g->cluster, attr[na].val.clusterDim.y = 1;
        attr[na++].val.clusterDim.z = 1;
    }
    cfg.attrs = na ? attr : NULL;
    cfg.numAttrs = (unsigned)na;
    mrt_gemm_args args; /* the plan's, with this launch's records */
    memcpy(&args, g->args, sizeof args);
    args.ts = ts;
    void *params[5] = {(void *)g->tmap_w, (void *)g->tmap_x, (void *)g->tmap_sx, (void *)&args, (void *)g->epi};
    cudaError_t e = cudaLaunchKernelExC(&cfg, fn, params);
    if (e != cudaSuccess) return mrt_gpu_fail(why, n, "gemm launch failed: %s", cudaGetErrorString(e));
    return 0;
}

int mrt_gemm_allow(const mrt_gpu_gemm *g, const char *what, char *why, size_t n) {
    /* both variants and their traced twins: any of the four may be launched */
    const void *k[4] = {g->kernel, g->kernel_pdl, mrt_gemm_traced(g->kernel), mrt_gemm_traced(g->kernel_pdl)};
    for (int i = 0; i < 4; i++) {
        if (i >= 2 && !k[i]) continue; /* a kernel without a twin */
        if (g->cluster > 8) cudaFuncSetAttribute(k[i], cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
        cudaError_t e = mrt_gpu_raise_smem(k[i], g->smem_bytes);
        if (e != cudaSuccess)
            return mrt_gpu_fail(why, n, "%s: cannot allow %d bytes of shared memory: %s", what, g->smem_bytes,
                                cudaGetErrorString(e));
    }
    return 0;
}

void mrt_bench_heading(FILE *out, const char *what) {
    cudaDeviceProp prop;
    int dev = 0, drv = 0;
    cudaGetDevice(&dev);
    cudaGetDeviceProperties(&prop, dev);
    cudaDriverGetVersion(&drv);
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));
    fprintf(out, "## megartp bench %s — %s, %d SMs, %d MB L2, CUDA driver API %d.%d, %s\n\n", what, prop.name,
            prop.multiProcessorCount, prop.l2CacheSize >> 20, drv / 1000, (drv % 1000) / 10, date);
}
