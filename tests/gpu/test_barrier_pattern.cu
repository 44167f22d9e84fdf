/* The megakernel's CTA barrier pattern in a few lines, checked for its results and meant to
 * be run under `compute-sanitizer --tool racecheck` (scripts/device-next.sh does).
 *
 * racecheck reports hazards in the megakernel between shared-memory accesses that a
 * __syncthreads orders (docs/MEGAKERNEL.md). This kernel has the same pattern and nothing
 * else: 384 threads loop over "instructions"; each starts with __syncthreads, 32 threads
 * write the instruction words, __syncthreads, everyone reads them; then either
 *   GEMM-like:  warps 4-11 exchange values through shared memory at named barrier 1 (256),
 *   row-like:   warps 0-7 do the same at barrier ID (1 in `same_ids`, 5 otherwise),
 *   groups:     three groups of 128 threads at barriers 2, 3, 4;
 *   mbarriers:  a GEMM tile's handshake (session 53: racecheck's reports in the megakernel
 *               are reads by lane 0 of consumer warps): warp 1's lane 0 fills buf and arrives
 *               on `full`, warps 4-11 wait on it and read buf, then each one's lane 0 arrives
 *               on `empty`, which warp 1's lane 0 waits on; after the CTA barrier thread 0
 *               invalidates both (the next such step initializes them again);
 * then thread 0 writes a flag, __syncthreads, everyone reads it. Every exchange is checked,
 * so the test fails if the pattern is wrong; if racecheck reports hazards here, with the
 * results right, they come from the tool's model of these barriers, not from megartp.
 * `prologue` (the instruction loop's pieces one by one) and `aliased` (a row's exchange in
 * dynamic shared memory a bulk copy wrote) follow, each case named ("case: ...") so that a
 * racecheck log's reports can be counted by case (scripts/device-common.sh per_case).
 * Prints "SKIP" without a GPU. */
#include <cuda_runtime.h>
#include <stdio.h>

#include "gpu.h"
#include "gemm_core.cuh" /* the megakernel's mbarrier helpers */
#include "mega_gemm.cuh" /* its event loads and tickets */
#include "testing.h"

#define THREADS 384
#define STEPS 16
#define SPINS 100000000LL /* a bounded mbarrier wait, in clock cycles: a miss counts as errors */

/* SUSPEND: the try_wait that lets the hardware suspend the thread (a GEMM tile's watchdog) */
static __device__ unsigned wait_phase0(uint32_t bar, bool suspend = false) {
    const long long t0 = clock64();
    while (!(suspend ? mrt_mbar_try_suspend(bar, 0, 20000) : mrt_mbar_try(bar, 0)))
        if (clock64() - t0 > SPINS) return 1000u;
    return 0u;
}

template <bool SAME_IDS> __global__ void __launch_bounds__(THREADS, 1) pattern(unsigned *bad) {
    __shared__ unsigned words[32], buf[THREADS], flag;
    __shared__ __align__(8) uint64_t mbar[2]; /* full, empty */
    const int t = (int)threadIdx.x, warp = t / 32, lane = t % 32;
    const uint32_t full = mrt_smem_u32(&mbar[0]), empty = mrt_smem_u32(&mbar[1]);
    unsigned errors = 0;
    for (int step = 0; step < STEPS; step++) {
        __syncthreads(); /* the previous instruction is done with words, buf and flag */
        if (t < 32) words[t] = (unsigned)(step * 32 + t) ^ blockIdx.x;
        __syncthreads();
        errors += words[t % 32] != ((unsigned)(step * 32 + t % 32) ^ blockIdx.x);
        const int kind = step % 4;
        if (kind == 0 && warp >= 4) { /* GEMM consumers: warps 4-11 */
            const int i = t - 128;
            buf[i] = (unsigned)(step * 1000 + i);
            asm volatile("bar.sync 1, 256;" ::: "memory");
            errors += buf[255 - i] != (unsigned)(step * 1000 + 255 - i);
        } else if (kind == 1 && warp < 8) { /* E1 / F1 rows: warps 0-7 */
            buf[t] = (unsigned)(step * 1000 + t);
            if (SAME_IDS) asm volatile("bar.sync 1, 256;" ::: "memory");
            else asm volatile("bar.sync 5, 256;" ::: "memory");
            errors += buf[255 - t] != (unsigned)(step * 1000 + 255 - t);
        } else if (kind == 2) { /* finalization groups of 128 threads */
            const int g = t / 128, i = t % 128;
            buf[t] = (unsigned)(step * 1000 + t);
            asm volatile("bar.sync %0, 128;" ::"r"(2 + g) : "memory");
            errors += buf[g * 128 + 127 - i] != (unsigned)(step * 1000 + g * 128 + 127 - i);
        } else if (kind == 3) { /* a GEMM tile's mbarrier handshake */
            if (t == 0) mrt_mbar_init(full, 1), mrt_mbar_init(empty, 8);
            __syncthreads();
            if (warp == 1 && lane == 0) {
                for (int i = 0; i < 256; i++) buf[i] = (unsigned)(step * 1000 + i);
                mrt_mbar_arrive(full);
                errors += wait_phase0(empty);
            } else if (warp >= 4) {
                errors += wait_phase0(full);
                __syncwarp();
                errors += buf[t - 128] != (unsigned)(step * 1000 + t - 128);
                __syncwarp();
                if (lane == 0) mrt_mbar_arrive(empty);
            }
            __syncthreads();
            if (t == 0) mrt_mbar_inval(full), mrt_mbar_inval(empty);
        }
        __syncthreads(); /* every writer of this instruction is done */
        if (t == 0) flag = (unsigned)step;
        __syncthreads();
        errors += flag != (unsigned)step;
    }
    if (errors) atomicAdd(bad, errors);
}

/* The megakernel's instruction loop piece by piece (session 53): racecheck reports the
 * instruction words' write and read across the loop's __syncthreads in CTAs that run A0 after
 * A0 (only CTA barriers, shuffles and plain shared memory), which `pattern` does not show. Each
 * FEAT bit adds one thing the kernel body does around its barriers, so a racecheck run names
 * which of them its model loses the barriers' order after. Exchanges checked as above. */
enum {
    P_WAIT = 1,         /* warp 0: lanes < 2 poll an event (ld.acquire), __syncwarp, proxy fence, __syncwarp */
    P_SLEEP = 2,        /* the poll sleeps between loads (__nanosleep) */
    P_ROWCOPY = 4,      /* every thread copies 16-byte pieces of an operand row into shared memory */
    P_SCRATCH = 8,      /* A0's sums: lanes 0 and 16 of warps 0-3 write, a barrier, all read */
    P_PUBLISH = 16,     /* thread 0 takes a ticket (atom.acq_rel) and signals (red.release) */
    P_PROXY_SHARED = 32, /* every thread: fence.proxy.async.shared::cta (a GEMM tile's start) */
    P_NOOP = 64,         /* odd steps are NoOps: past the words' read, `continue` to the loop's head */
    P_LANE0 = 128,       /* a GEMM tile's watchdog: warp 0's lane 0 waits on an mbarrier that warps 4-11
                          * arrive on after a while, its other lanes go on to the CTA barrier */
    P_GROUPS32 = 256,    /* a finalization's claimed jobs: groups of 32 threads at named barriers 2-13,
                          * each group a different number of job rounds (1-3, changing by step) */
    P_GROUPS128 = 512,   /* the same with groups of 128 threads at barriers 2-4 */
    P_ROWBAR = 1024,     /* F1's scan after the words: each warp's lane 31 writes its sum,
                          * `bar.sync 1, 384`, lanes < 12 read (the megakernel's remaining report) */
    P_EVEN = 2048        /* P_GROUPS's groups pad to 3 rounds each with empty rounds (their barriers
                          * only): every group passes its barrier as often (mega.cu's
                          * MRT_MEGA_FIN_EVEN_BARS) */
};
__global__ void __launch_bounds__(THREADS, 1) prologue(unsigned feat, unsigned *ctr, const uint4 *src, unsigned *bad) {
    __shared__ unsigned words[32];
    __shared__ uint4 row[24];
    __shared__ double scratch[8];
    __shared__ __align__(8) uint64_t done_bar;
    __shared__ unsigned gjob[THREADS / 32], gbuf[THREADS], wsum[THREADS / 32];
    const int t = (int)threadIdx.x, warp = t / 32, lane = t % 32;
    const uint32_t done = mrt_smem_u32(&done_bar);
    unsigned errors = 0;
    for (int step = 0; step < STEPS; step++) {
        __syncthreads(); /* the previous instruction is done with words, row and scratch */
        if (t < 32) words[t] = (unsigned)(step * 32 + t) ^ blockIdx.x;
        if (feat & P_ROWCOPY)
            for (int i = t; i < 24; i += blockDim.x) row[i] = make_uint4(src[i].x + step, src[i].y, src[i].z, src[i].w);
        __syncthreads();
        errors += words[0] != ((unsigned)(step * 32) ^ blockIdx.x);
        if (feat & P_ROWCOPY) errors += row[t % 24].x != (unsigned)(t % 24 + step);
        if ((feat & P_NOOP) && (words[0] & 32u) != (blockIdx.x & 32u)) continue; /* step odd (uniform) */
        if (feat & P_ROWBAR) { /* wsum's last reads were a step's barriers ago */
            if (lane == 31) wsum[warp] = (unsigned)(step * 100 + warp);
            asm volatile("bar.sync 1, %0;" ::"n"(THREADS) : "memory");
            if (lane < THREADS / 32) errors += wsum[lane] != (unsigned)(step * 100 + lane);
        }
        if (warp == 0 && (feat & P_WAIT)) {
            if (lane < 2) {
                const long long t0 = clock64();
                while ((int)(mrt_ld_acquire(ctr + 32 * lane) - 1u) < 0 && clock64() - t0 < SPINS)
                    if (feat & P_SLEEP) __nanosleep(64);
            }
            __syncwarp();
            asm volatile("fence.proxy.async.global;" ::: "memory");
            __syncwarp();
        }
        __syncthreads();
        if (feat & P_PROXY_SHARED) asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        if (feat & P_SCRATCH) {
            __syncthreads(); /* scratch may still be read for the previous row */
            if (t < 128 && t % 16 == 0) scratch[t / 16] = (double)(step + t);
            __syncthreads();
            double sum = 0;
            for (int g = 0; g < 8; g++) sum += scratch[g];
            errors += sum != 8.0 * step + 16.0 * 28;
        }
        if (feat & P_LANE0) {
            if (t == 0) mrt_mbar_init(done, 2);
            __syncthreads();
            if (warp == 0) {
                if (lane == 0) errors += wait_phase0(done, true);
            } else if (warp >= 4) {
                __nanosleep(2000); /* the tile's work */
                if ((t & 127) == 0) mrt_mbar_arrive(done);
            }
            __syncthreads();
            if (t == 0) mrt_mbar_inval(done);
        }
        if (feat & (P_GROUPS32 | P_GROUPS128)) {
            const int gn = (feat & P_GROUPS32) ? 32 : 128, gi = t / gn, gt = t % gn, id = 2 + gi;
            for (int r = 0; r < (gi + step) % 3 + 1; r++) { /* claim, the job's exchange, its closing barrier */
                if (gt == 0) gjob[gi] = (unsigned)(step * 10 + r);
                asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(gn) : "memory");
                errors += gjob[gi] != (unsigned)(step * 10 + r);
                gbuf[t] = (unsigned)(step + r + t);
                asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(gn) : "memory");
                const int o = gi * gn + (gt + 1) % gn;
                errors += gbuf[o] != (unsigned)(step + r + o);
                asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(gn) : "memory");
            }
            if (feat & P_EVEN)
                for (int r = (gi + step) % 3 + 1; r < 3; r++)
                    for (int k = 0; k < 3; k++) asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(gn) : "memory");
        }
        __syncthreads(); /* every writer of this instruction is done */
        if ((feat & P_PUBLISH) && t == 0) mrt_atom_add_acq_rel(ctr + 64, 1u), mrt_red_release(ctr + 96, 1u); /* mega.cu's ticket and signal */
    }
    if (errors) atomicAdd(bad, errors);
}

/* Dynamic shared memory that a GEMM tile used, then another op's barrier exchange in the same
 * bytes (session 54): racecheck's remaining megakernel reports (F1's scan, a finalization's
 * sums, after a GEMM tile on the same CTA) are all exchanges through the dynamic shared
 * memory, where the tile's TMA wrote its stages and its mbarriers lived; the clean exchanges
 * are in static shared memory. Each step: the "tile" (thread 0 inits an mbarrier at dyn +
 * MBAR_AT, warp 1's lane 0 bulk-copies 2 KB of src into dyn, warps 4-11 wait and read it,
 * thread 0 invalidates the mbarrier), then the "row": each warp's lane 31 writes its sum at
 * dyn + at, a barrier, every thread reads all 12. `at`: 4096 (bytes nothing else touched),
 * 0 (bytes the bulk copy wrote), MBAR_AT (the mbarrier's bytes). `row_bar`: 0 __syncthreads,
 * else `bar.sync row_bar, 384` (F1's). ALIASED_DYN: its dynamic shared memory. */
#define MBAR_AT 2048
#define ALIASED_DYN 8192
__global__ void __launch_bounds__(THREADS, 1) aliased(int at, int row_bar, const uint4 *src, unsigned *bad) {
    extern __shared__ __align__(1024) uint8_t dyn[];
    const int t = (int)threadIdx.x, warp = t / 32, lane = t % 32;
    const uint32_t base = mrt_smem_u32(dyn), full = base + MBAR_AT;
    unsigned *wsum = (unsigned *)(dyn + at);
    unsigned errors = 0;
    for (int step = 0; step < STEPS; step++) {
        __syncthreads(); /* the previous step is done with dyn */
        asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); /* generic writes before the copy */
        if (t == 0) {
            mrt_mbar_init(full, 1);
            asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        }
        __syncthreads();
        if (warp == 1 && lane == 0) {
            mrt_mbar_arrive_tx(full, 2048);
            mrt_bulk_load(base, src + (step % 2) * 128, 2048, full);
        } else if (warp >= 4) {
            errors += wait_phase0(full);
            const unsigned *v = (const unsigned *)dyn;
            errors += v[t - 128] != (unsigned)((step % 2) * 512 + t - 128);
        }
        __syncthreads();
        if (t == 0) mrt_mbar_inval(full);
        __syncthreads(); /* the next op's instruction: its row */
        if (lane == 31) wsum[warp] = (unsigned)(step * 100 + warp);
        if (row_bar) asm volatile("bar.sync %0, %1;" ::"r"(row_bar), "n"(THREADS) : "memory");
        else __syncthreads();
        unsigned sum = 0;
        for (int i = 0; i < THREADS / 32; i++) sum += wsum[i];
        errors += sum != (unsigned)(step * 100 * (THREADS / 32) + (THREADS / 32) * (THREADS / 32 - 1) / 2);
    }
    if (errors) atomicAdd(bad, errors);
}

int main(void) {
    char why[256];
    if (!mrt_gpu_available(why, sizeof why)) {
        printf("SKIP: %s\n0 passed, 0 failed\n", why);
        return 0;
    }
    unsigned *bad = NULL, h = 0;
    CHECK(cudaMalloc(&bad, sizeof *bad) == cudaSuccess, "cudaMalloc");
    for (int same = 0; same < 2 && bad; same++) {
        cudaMemset(bad, 0, sizeof *bad);
        if (same) pattern<true><<<4, THREADS>>>(bad);
        else pattern<false><<<4, THREADS>>>(bad);
        cudaError_t e = cudaDeviceSynchronize();
        if (e == cudaSuccess) e = cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost);
        CHECK(e == cudaSuccess && h == 0, "barrier pattern (%s ids): %s, %u wrong exchanges",
              same ? "same" : "distinct", cudaGetErrorString(e), h);
        printf("barrier pattern, %s named-barrier ids for the two 256-thread roles: %u wrong exchanges\n",
               same ? "the same" : "distinct", h);
    }
    /* the prologue's pieces one at a time, then all; events 0 and 1 already reached */
    unsigned *ctr = NULL;
    uint4 *src = NULL, hsrc[24];
    for (int i = 0; i < 24; i++) hsrc[i] = make_uint4((unsigned)i, 7u * i, 11u * i, 13u * i);
    unsigned one[64] = {0};
    one[0] = one[32] = 1u;
    CHECK(cudaMalloc(&ctr, 128 * sizeof *ctr) == cudaSuccess && cudaMalloc(&src, sizeof hsrc) == cudaSuccess, "cudaMalloc");
    /* the last case as the megakernel launches: cooperative, with its dynamic shared memory */
    const unsigned feats[] = {0, P_WAIT, P_WAIT | P_SLEEP, P_ROWCOPY, P_SCRATCH, P_PUBLISH, P_PROXY_SHARED, P_NOOP, P_LANE0, P_LANE0 | P_NOOP, P_GROUPS32, P_GROUPS128,
                             P_GROUPS32 | P_ROWBAR, P_GROUPS32 | P_ROWBAR | P_EVEN, P_GROUPS128 | P_ROWBAR,
                             P_GROUPS128 | P_ROWBAR | P_EVEN, P_GROUPS32 | P_EVEN, 255, 255};
    const int nf = (int)(sizeof feats / sizeof feats[0]), dyn = 200 * 1024;
    cudaFuncSetAttribute(prologue, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn);
    for (int f = 0; f < nf && bad && ctr && src; f++) {
        printf("case: prologue features %u%s\n", feats[f], f == nf - 1 ? ", cooperative launch, 200 KB dynamic shared" : "");
        fflush(stdout);
        cudaMemset(bad, 0, sizeof *bad), cudaMemset(ctr, 0, 128 * sizeof *ctr);
        cudaMemcpy(ctr, one, sizeof one, cudaMemcpyHostToDevice), cudaMemcpy(src, hsrc, sizeof hsrc, cudaMemcpyHostToDevice);
        cudaError_t e = cudaSuccess;
        if (f == nf - 1) {
            unsigned ft = feats[f];
            void *args[] = {&ft, &ctr, &src, &bad};
            e = cudaLaunchCooperativeKernel((const void *)prologue, dim3(4), dim3(THREADS), args, (size_t)dyn, 0);
        } else
            prologue<<<4, THREADS>>>(feats[f], ctr, src, bad);
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
        if (e == cudaSuccess) e = cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost);
        CHECK(e == cudaSuccess && h == 0, "prologue features %u: %s, %u wrong exchanges", feats[f], cudaGetErrorString(e), h);
    }
    /* the row's exchange in bytes the "tile" left alone, wrote by bulk copy, held its mbarrier
     * in; under __syncthreads and under F1's bar.sync 1, 384 */
    uint4 *tsrc = NULL, htsrc[256];
    for (int i = 0; i < 256; i++) htsrc[i] = make_uint4(4u * i, 4u * i + 1, 4u * i + 2, 4u * i + 3);
    CHECK(cudaMalloc(&tsrc, sizeof htsrc) == cudaSuccess, "cudaMalloc");
    cudaFuncSetAttribute(aliased, cudaFuncAttributeMaxDynamicSharedMemorySize, ALIASED_DYN);
    const int ats[] = {4096, 0, MBAR_AT}, bars[] = {0, 1};
    for (int i = 0; i < 6 && bad && tsrc; i++) {
        const int at = ats[i % 3], rb = bars[i / 3];
        printf("case: aliased row at %d (%s), row barrier %d\n", at, at == 4096 ? "untouched" : at ? "the mbarrier's" : "bulk-copied", rb);
        fflush(stdout);
        cudaMemset(bad, 0, sizeof *bad), cudaMemcpy(tsrc, htsrc, sizeof htsrc, cudaMemcpyHostToDevice);
        aliased<<<4, THREADS, ALIASED_DYN>>>(at, rb, tsrc, bad);
        cudaError_t e = cudaDeviceSynchronize();
        if (e == cudaSuccess) e = cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost);
        CHECK(e == cudaSuccess && h == 0, "aliased row at %d, barrier %d: %s, %u wrong exchanges", at, rb, cudaGetErrorString(e), h);
    }
    cudaFree(tsrc);
    cudaFree(ctr), cudaFree(src);
    cudaFree(bad);
    TEST_MAIN_END();
}
