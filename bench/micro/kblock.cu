/* The consumers' loop of an FP8 GEMM K block, alone: what one K block costs a CTA once its
 * stage is in shared memory, by the shape of the work (tokens TN, weight rows per CTA) and the
 * loop's form. Why: the megakernel's GEMM tiles take ~0.45 us a K block at M=16 with their
 * weights already resident (GEMM probe, docs/MEGAKERNEL.md sessions 18-19), which sets every
 * tile's time (a D0 tile of 16 K blocks 8.5 us) far above what its 16 KB a K block needs from
 * the memory system. If the cost is the loop's latency (the wgmma chain, the wait, the
 * promotion) and not its width, a CTA that streams twice the weight rows a K block (two
 * independent accumulator chains a warpgroup, or four warpgroups) moves twice the bytes in
 * about the same time.
 *
 * Two parts. "resident": every CTA (one an SM) cycles through up to 4 stages already in
 * shared memory, running per K block what mrt_gemm_fp8_compute runs: the full barrier's wait
 * (a completed phase), the wgmmas (k32 steps into a fresh register tile a chain), commit,
 * wait, the stage's empty arrival, the progress word, the promotion acc += tile * sw *
 * sx[col]; "ser" waits for each wgmma before the next, as the megakernel's QGMMAs are
 * (C7510). Forms: "plain" (wait then promote) and "pipe" (K block i+1 issued before K block
 * i's promotion, the megakernel's MRT_MEGA_PIPE form). "stream": the same consumers fed by a
 * TMA ring from HBM (one loader lane, weights rotating through 6 copies of D0's 33.5 MB),
 * P CTAs streaming D0's 16384 x 2048 weights in tiles of ROWS rows (16 K blocks a tile,
 * tile t on CTA t % P): the time for all of D0 on 68 CTAs (the megakernel's D0 workers at
 * M=16) or 132, by tile height and ring depth.
 *
 * Build: make build/bench/kblock (needs nvcc); run on the GPU: build/bench/kblock */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <cuda.h>
#include <cuda_runtime.h>

#define MRT_SPIN_LIMIT_CYCLES 400000000LL /* 0.2 s: a hang here traps at once */
#include "gemm_host.h" /* gemm_core.cuh, mrt_tmap_2d */
#include "stamp.cuh"     /* mrt_globaltimer */

#define NKB 512 /* K blocks a CTA runs in the resident part, timed */
#define D0_ROWS 16384
#define D0_K 2048
#define COPIES 6


/* a K block's stage (weights, then activations; 1024-aligned) and how many fit in 200 KB */
template <int TN, int ROWS> struct kb_stage {
    enum { W_BYTES = ROWS * 128, BYTES = (ROWS * 128 + TN * 128 + 1023) / 1024 * 1024, FIT = 200 * 1024 / BYTES };
};

/* The consumers: NWG warpgroups, each CH chains of 64 weight rows (rows = 64 * NWG * CH);
 * WG k32 wgmmas a chain a K block (4 = real, 0 = the loop without them); SER: each wgmma
 * waited for before the next. */
template <int TN, int NWG, int CH, int WG, int SER> struct kb_consumer {
    float acc[CH][TN / 2], t0[CH][TN / 2], t1[CH][TN / 2];
    const float *sxq, *sw;
    int wg, lane;
    __device__ __forceinline__ kb_consumer(const float *sx, const float *sw_, int tid) : sw(sw_) {
        wg = tid >> 7, lane = tid & 31;
        sxq = sx + 2 * (lane & 3) * 8;
#pragma unroll
        for (int c = 0; c < CH; c++)
#pragma unroll
            for (int j = 0; j < TN / 2; j++) acc[c][j] = t0[c][j] = t1[c][j] = 0.0f;
    }
    __device__ __forceinline__ void issue(float (&tile)[CH][TN / 2], uint32_t st) {
        mrt_wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < WG; kk++)
#pragma unroll
            for (int c = 0; c < CH; c++) {
                mrt_wgmma<TN>::e4m3(tile[c], mrt_sdesc_k(st + (uint32_t)(c * NWG + wg) * 8192u + 32 * kk),
                                    mrt_sdesc_k(st + 64 * NWG * CH * 128 + 32 * kk), kk);
                if (SER) {
                    mrt_wgmma_commit();
                    mrt_wgmma_wait<0>();
                }
            }
        mrt_wgmma_commit();
    }
    __device__ __forceinline__ void fence(float (&tile)[CH][TN / 2]) {
#pragma unroll
        for (int c = 0; c < CH; c++) mrt_reg_fence(tile[c]);
    }
    __device__ __forceinline__ void promote(const float (&tile)[CH][TN / 2], int kb) {
#pragma unroll
        for (int c = 0; c < CH; c++) {
            const float w = sw[c * 8 + (kb & 7)];
#pragma unroll
            for (int g = 0; g < TN / 8; g++) {
                const float s0 = w * sxq[64 * g + (kb & 7)], s1 = w * sxq[64 * g + 8 + (kb & 7)];
                acc[c][4 * g + 0] = fmaf(tile[c][4 * g + 0], s0, acc[c][4 * g + 0]);
                acc[c][4 * g + 1] = fmaf(tile[c][4 * g + 1], s1, acc[c][4 * g + 1]);
                acc[c][4 * g + 2] = fmaf(tile[c][4 * g + 2], s0, acc[c][4 * g + 2]);
                acc[c][4 * g + 3] = fmaf(tile[c][4 * g + 3], s1, acc[c][4 * g + 3]);
            }
        }
    }
    /* nkb K blocks; full(kb) waits for K block kb's stage and returns its address, done(kb)
     * releases it */
    template <int PIPE, class Full, class Done>
    __device__ __forceinline__ void loop(int nkb, const Full &full, const Done &done) {
        if (PIPE) {
            issue(t0, full(0));
            for (int kb = 0; kb < nkb; kb += 2) {
                mrt_wgmma_wait<0>();
                fence(t0);
                done(kb);
                issue(t1, full(kb + 1));
                promote(t0, kb);
                mrt_wgmma_wait<0>();
                fence(t1);
                done(kb + 1);
                if (kb + 2 < nkb) issue(t0, full(kb + 2));
                promote(t1, kb + 1);
            }
        } else {
            for (int kb = 0; kb < nkb; kb++) {
                issue(t0, full(kb));
                mrt_wgmma_wait<0>();
                fence(t0);
                done(kb);
                promote(t0, kb);
            }
        }
    }
    __device__ __forceinline__ float sum() const {
        float s = 0.0f;
#pragma unroll
        for (int c = 0; c < CH; c++)
#pragma unroll
            for (int j = 0; j < TN / 2; j++) s += acc[c][j];
        return s;
    }
};

/* random e4m3 bytes (exponents kept small: no infinities) and scales, the barriers' inits */
static __device__ void kb_setup(uint8_t *sbase, int bytes, float *sx, int nsx, uint32_t bar0, int nbars,
                                uint32_t count0, uint32_t count1) {
    const int tid = threadIdx.x;
    uint32_t h = 2654435761u * (blockIdx.x + 1) + tid;
    for (int i = tid; i < bytes / 4; i += blockDim.x) {
        h = h * 1664525u + 1013904223u;
        ((uint32_t *)sbase)[i] = h & 0x3b3b3b3bu;
    }
    for (int i = tid; i < nsx; i += blockDim.x) sx[i] = 1.0f + 0.001f * i;
    if (tid == 0) {
        for (int b = 0; b < nbars; b++) mrt_mbar_init(bar0 + 8u * b, b < nbars / 2 ? count0 : count1);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
}

template <int TN, int NWG, int CH, int PIPE, int WG, int SER>
__global__ void __launch_bounds__(128 * NWG, 1) kblock_resident(float *out, unsigned long long *ns, int *progress) {
    extern __shared__ __align__(1024) uint8_t smem_raw[];
    typedef kb_stage<TN, 64 * NWG * CH> S_;
    constexpr int STAGE = S_::BYTES, STAGES = S_::FIT < 4 ? S_::FIT : 4;
    const uint32_t base = (mrt_smem_u32(smem_raw) + 1023u) & ~1023u;
    uint8_t *sbase = smem_raw + (base - mrt_smem_u32(smem_raw));
    float *sx = (float *)(sbase + STAGES * STAGE), *sw = sx + TN * 8; /* [TN][8], [CH][8] */
    __shared__ __align__(8) uint64_t bars[2];
    const int tid = threadIdx.x;
    const uint32_t full = mrt_smem_u32(&bars[0]), empty = mrt_smem_u32(&bars[1]);
    kb_setup(sbase, STAGES * STAGE, sx, TN * 8 + CH * 8, full, 2, 1, (1u << 20) - 1);
    if (tid == 0) mrt_mbar_arrive(full); /* phase 0 complete: "full" for good; "empty" never completes */
    __syncthreads();
    kb_consumer<TN, NWG, CH, WG, SER> k(sx, sw, tid);
    const int wg = tid >> 7, lane = tid & 31;
    const unsigned long long start = mrt_globaltimer();
    k.template loop<PIPE>(
        NKB,
        [&](int kb) {
            mrt_mbar_wait_full(full, 0, nullptr);
            return base + (uint32_t)(kb % STAGES) * STAGE;
        },
        [&](int kb) {
            __syncwarp();
            if (lane == 0) mrt_mbar_arrive(empty);
            if ((tid & 127) == 0) ((volatile int *)progress)[blockIdx.x * 4 + wg] = kb + 1;
        });
    asm volatile("bar.sync 1, %0;" ::"n"(128 * NWG) : "memory");
    const unsigned long long end = mrt_globaltimer();
    out[blockIdx.x * blockDim.x + tid] = k.sum();
    if (tid == 0) ns[blockIdx.x] = end - start;
}

/* Streams D0's rows [copy * D0_ROWS, +D0_ROWS) in tiles of ROWS rows x 16 K blocks, tile t
 * on CTA t % gridDim.x, through a ring of STAGES stages; warp 4 * NWG lane 0 loads */
template <int TN, int NWG, int CH, int STAGES, int WG>
__global__ void __launch_bounds__(128 * NWG + 32, 1)
    kblock_stream(const __grid_constant__ CUtensorMap tw, int copy, float *out, unsigned long long *ns) {
    extern __shared__ __align__(1024) uint8_t smem_raw[];
    typedef kb_stage<TN, 64 * NWG * CH> S_;
    constexpr int ROWS = 64 * NWG * CH, STAGE = S_::BYTES, NKBT = D0_K / 128, TILES = D0_ROWS / ROWS;
    static_assert(STAGES <= S_::FIT && STAGES <= 16, "ring too deep for shared memory");
    const uint32_t base = (mrt_smem_u32(smem_raw) + 1023u) & ~1023u;
    uint8_t *sbase = smem_raw + (base - mrt_smem_u32(smem_raw));
    float *sx = (float *)(sbase + STAGES * STAGE), *sw = sx + TN * 8;
    __shared__ __align__(8) uint64_t bars[32];
    const int tid = threadIdx.x;
    const uint32_t bar0 = mrt_smem_u32(&bars[0]);
    auto fullb = [&](int s) { return bar0 + 8u * s; };
    auto emptyb = [&](int s) { return bar0 + 8u * (16 + s); };
    /* full: the loader's arrival (its bytes); empty: one arrival a consumer warp */
    kb_setup(sbase, STAGES * STAGE, sx, TN * 8 + CH * 8, bar0, 32, 1, 4 * NWG);
    const int ntiles = (TILES - (int)blockIdx.x + (int)gridDim.x - 1) / (int)gridDim.x; /* this CTA's */
    const int nkb = ntiles * NKBT;
    __syncthreads();
    const unsigned long long start = mrt_globaltimer();
    if (tid >= 128 * NWG) {
        if (tid == 128 * NWG) {
            uint64_t pol;
            asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(pol));
            for (int i = 0; i < nkb; i++) {
                const int s = i % STAGES, t = (int)blockIdx.x + (i / NKBT) * (int)gridDim.x, kb = i % NKBT;
                if (i >= STAGES) mrt_mbar_wait_empty(emptyb(s), ((i / STAGES) - 1) & 1, nullptr, s, i, 2);
                mrt_mbar_arrive_tx(fullb(s), S_::W_BYTES);
#pragma unroll
                for (int j = 0; j < ROWS / 128; j++)
                    mrt_tma_load_2d(base + (uint32_t)(s * STAGE + j * 16384), &tw, kb * 128,
                                    copy * D0_ROWS + t * ROWS + 128 * j, fullb(s), pol);
            }
        }
    } else {
        kb_consumer<TN, NWG, CH, WG, 0> k(sx, sw, tid);
        const int lane = tid & 31;
        if (nkb > 0) /* CTAs past the last tile (P > tiles) stream nothing */
            k.template loop<1>(
            nkb,
            [&](int i) {
                mrt_mbar_wait_full(fullb(i % STAGES), (i / STAGES) & 1, nullptr);
                return base + (uint32_t)(i % STAGES) * STAGE;
            },
            [&](int i) {
                __syncwarp();
                if (lane == 0) mrt_mbar_arrive(emptyb(i % STAGES));
            });
        out[blockIdx.x * blockDim.x + tid] = k.sum();
    }
    __syncthreads();
    const unsigned long long end = mrt_globaltimer();
    if (tid == 0) ns[2 * blockIdx.x] = start, ns[2 * blockIdx.x + 1] = end;
}

static int cmp_u64(const void *a, const void *b) {
    unsigned long long x = *(const unsigned long long *)a, y = *(const unsigned long long *)b;
    return (x > y) - (x < y);
}

template <int TN, int NWG, int CH, int PIPE, int WG, int SER>
static int run_resident(const char *form, int sms, float *out, unsigned long long *ns, int *progress) {
    typedef kb_stage<TN, 64 * NWG * CH> S_;
    const int stages = S_::FIT < 4 ? S_::FIT : 4;
    const size_t smem = 1024 + (size_t)stages * S_::BYTES + (TN * 8 + 64) * sizeof(float);
    auto k = kblock_resident<TN, NWG, CH, PIPE, WG, SER>;
    if (cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) return 1;
    unsigned long long h[1024], med[5];
    for (int rep = 0; rep < 5; rep++) {
        k<<<sms, 128 * NWG, smem>>>(out, ns, progress);
        if (cudaDeviceSynchronize() != cudaSuccess) return 1;
        cudaMemcpy(h, ns, sms * sizeof(h[0]), cudaMemcpyDeviceToHost);
        qsort(h, sms, sizeof(h[0]), cmp_u64);
        med[rep] = h[sms / 2];
    }
    qsort(med, 5, sizeof(med[0]), cmp_u64);
    const double per = (double)med[2] / NKB;
    printf("| %3d | %d | %d | %-5s%s | %d | %6d | %7.1f | %6.1f |\n", TN, NWG, CH, form, SER ? " ser" : "", WG,
           S_::W_BYTES, per, S_::W_BYTES / per);
    return 0;
}

template <int TN, int NWG, int CH, int STAGES, int WG>
static int run_stream(int ctas, const CUtensorMap *tw, float *out, unsigned long long *ns) {
    typedef kb_stage<TN, 64 * NWG * CH> S_;
    const size_t smem = 1024 + (size_t)STAGES * S_::BYTES + (TN * 8 + 64) * sizeof(float);
    auto k = kblock_stream<TN, NWG, CH, STAGES, WG>;
    if (cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem) != cudaSuccess) return 1;
    unsigned long long h[2048], span[12];
    const int reps = 12;
    for (int rep = 0; rep < reps; rep++) {
        k<<<ctas, 128 * NWG + 32, smem>>>(*tw, rep % COPIES, out, ns);
        if (cudaDeviceSynchronize() != cudaSuccess) return 1;
        cudaMemcpy(h, ns, 2 * ctas * sizeof(h[0]), cudaMemcpyDeviceToHost);
        unsigned long long lo = ~0ull, hi = 0;
        for (int c = 0; c < ctas; c++) lo = h[2 * c] < lo ? h[2 * c] : lo, hi = h[2 * c + 1] > hi ? h[2 * c + 1] : hi;
        span[rep] = hi - lo;
    }
    qsort(span, reps, sizeof(span[0]), cmp_u64);
    const double us = span[reps / 2] / 1000.0, mb = (double)D0_ROWS * D0_K / 1e6;
    const int rows = 64 * NWG * CH, tiles = D0_ROWS / rows;
    printf("| %3d | %3d | %3d | %d x %d | %2d x %2d KB | %s | %7.2f | %5.2f | %5.1f |\n", ctas, rows, tiles, NWG, CH,
           STAGES, S_::W_BYTES / 1024, WG ? "wgmma" : "none ", us, mb / us, mb * 1e3 / us / ctas);
    return 0;
}

int main(void) {
    int sms = 0;
    if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0) != cudaSuccess || sms <= 0 || sms > 1024) {
        fprintf(stderr, "kblock: no usable GPU\n");
        return 1;
    }
    float *out;
    unsigned long long *ns;
    int *progress;
    uint8_t *w;
    const size_t wbytes = (size_t)COPIES * D0_ROWS * D0_K;
    if (cudaMalloc(&out, (size_t)sms * 1024 * sizeof(float)) != cudaSuccess ||
        cudaMalloc(&ns, (size_t)sms * 2 * sizeof(*ns)) != cudaSuccess ||
        cudaMalloc(&progress, (size_t)sms * 4 * sizeof(int)) != cudaSuccess || cudaMalloc(&w, wbytes) != cudaSuccess ||
        cudaMemset(w, 0x30, wbytes) != cudaSuccess) {
        fprintf(stderr, "kblock: cudaMalloc failed\n");
        return 1;
    }
    CUtensorMap tw;
    char why[256];
    if (mrt_tmap_2d(&tw, w, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, D0_K, (uint64_t)COPIES * D0_ROWS, D0_K, 128, 128, why,
                    sizeof why)) {
        fprintf(stderr, "kblock: tensor map: %s\n", why);
        return 1;
    }
    int rc = 0;
    printf("## Resident: the K block loop alone, %d CTAs (one an SM), %d K blocks each, stages in shared memory\n\n",
           sms, NKB);
    printf("| TN | warpgroups | chains a WG | form | wgmmas a chain | weight bytes a K block | ns a K block | GB/s a CTA |\n");
    printf("|---|---|---|---|---|---|---|---|\n");
    rc |= run_resident<16, 2, 1, 0, 0, 0>("plain", sms, out, ns, progress);
    rc |= run_resident<16, 2, 1, 0, 4, 0>("plain", sms, out, ns, progress);
    rc |= run_resident<16, 2, 1, 0, 4, 1>("plain", sms, out, ns, progress);
    rc |= run_resident<16, 2, 1, 1, 4, 0>("pipe", sms, out, ns, progress);
    rc |= run_resident<16, 2, 1, 1, 4, 1>("pipe", sms, out, ns, progress);
    rc |= run_resident<16, 2, 2, 1, 4, 0>("pipe", sms, out, ns, progress);
    rc |= run_resident<16, 2, 2, 1, 4, 1>("pipe", sms, out, ns, progress);
    rc |= run_resident<16, 4, 1, 1, 4, 0>("pipe", sms, out, ns, progress);
    rc |= run_resident<16, 4, 1, 1, 4, 1>("pipe", sms, out, ns, progress);
    rc |= run_resident<32, 2, 1, 1, 4, 0>("pipe", sms, out, ns, progress);
    rc |= run_resident<32, 2, 2, 1, 4, 0>("pipe", sms, out, ns, progress);
    printf("\n## Stream: D0's weights (%d x %d e4m3, %d copies rotating) through a TMA ring, tile t on CTA t %% P\n\n",
           D0_ROWS, D0_K, COPIES);
    printf("| P (CTAs) | rows a tile | tiles | WGs x chains | ring | consumers | us | TB/s | GB/s a CTA |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    const int P[2] = {68, sms};
    for (int i = 0; i < 2; i++) {
        rc |= run_stream<16, 2, 1, 8, 0>(P[i], &tw, out, ns);
        rc |= run_stream<16, 2, 1, 8, 4>(P[i], &tw, out, ns);
        rc |= run_stream<16, 2, 1, 10, 4>(P[i], &tw, out, ns);
        rc |= run_stream<16, 2, 1, 4, 4>(P[i], &tw, out, ns);
        rc |= run_stream<16, 2, 2, 5, 0>(P[i], &tw, out, ns);
        rc |= run_stream<16, 2, 2, 5, 4>(P[i], &tw, out, ns);
        rc |= run_stream<16, 2, 2, 4, 4>(P[i], &tw, out, ns);
        rc |= run_stream<16, 4, 1, 5, 4>(P[i], &tw, out, ns);
    }
    if (rc) fprintf(stderr, "kblock: a launch failed: %s\n", cudaGetErrorString(cudaGetLastError()));
    return rc;
}
