/* GEMM instructions inside the megakernel (src/cuda/mega.cu): one instruction = one tile of
 * the plan (gemm_fp8, gemm_bf16, bmm_bf16), run by the same role functions as the standalone
 * kernel (src/cuda/gemm_kernel.cuh) on the CTA's dynamic shared memory, and the finalization a
 * gemm_fp8 reduce group owes once its last member is done.
 *
 * Differences from the standalone kernel, and why:
 *  - split = 1 inside a tile: the plan's split-K is its reduce groups; every split writes its
 *    fp32 partial plane and the group's finalizer sums the planes in split order (the order
 *    mrt_gemm_store uses), so mega and serial (given the plan's split) add the same numbers
 *    the same way.
 *  - the barriers are re-initialized for every instruction and invalidated after it, and
 *    the consumers' staging stores (generic proxy) are fenced before the next instruction's
 *    TMA (async proxy) writes the same shared memory.
 *  - the instruction's event waits run in the activation loader only (mrt_mega_wait; the
 *    consumers and the store inherit them through full barrier 0): the weight loader fills
 *    the pipeline while the producers finish, the article's main gain. */
#ifndef MRT_MEGA_GEMM_CUH
#define MRT_MEGA_GEMM_CUH

#include "gemm_compute.cuh"
#include "mega_op.h"
#include "ops.h" /* MRT_EPI_* */
#include "stamp.cuh" /* mrt_globaltimer */

/* How long the step's first GEMM tiles hold their weight loads back (ns; 0: not at all). */
#ifndef MRT_MEGA_FIRST_WEIGHTS_NS
#define MRT_MEGA_FIRST_WEIGHTS_NS 2000
#endif

/* An instruction's event waits, run by one warp (lane j spins on event j, nwait <=
 * MRT_MAX_WAITS; the warp leaves together): ld.acquire.gpu until each counter reaches
 * threshold * epoch (compared modulo 2^32), bounded by half of MRT_SPIN_LIMIT_CYCLES, below
 * the GEMM tile watchdog's (past the bound: a watchdog record naming worker, instruction,
 * task, event, expected and seen, then a trap); then __syncwarp and the warp's
 * fence.proxy.async.global (TMA reads of the producers' data follow). The acquire that reads
 * a count synchronizes with every signal the count holds: each signal is a red.release, and
 * the later adds on the counter continue its release sequence; __syncwarp carries it to the
 * warp's other lanes, the CTA barrier or the tile's full barrier to the rest.
 * Until session 27 the polls were ld.relaxed.gpu and the acquire a fence.acq_rel.gpu after
 * them (an ld.acquire is a load plus an invalidation of the SM's L1, CCTL.IVALL, once per
 * poll; that mattered while the ops' arguments were read from global memory). That fence
 * waited ~1.1-1.5 us in a GEMM tile's activation loader, its tile's weight loads in flight,
 * and ~0.4 us in E1's and F1's waits (H200, session 27 runs 4-5: the trace's weights ->
 * input of tiles reached after their input, with -DMRT_MEGA_WAIT_PROBE, and with the acquire
 * fence alone and the proxy fence alone: 1.60-1.70 against 0.48-0.58 us for D0 / D2, the
 * proxy fence cheap). Acquire polls, run 5, A B in one run: M=16 KV=8192 69.86 / 69.99 ->
 * 67.83 / 67.79 us, M=1 KV=8192 65.55 -> 62.87, M=64 KV=8192 114.73 -> 111.32, M=128
 * KV=1024 171.63 -> 166.32, M=16 KV=65536 125.87 -> 121.74; mega = serial bytes
 * (test_mega_prefix). GEMM tiles call it from the activation loader only, so weights stream
 * meanwhile; it stamps "input ready" (traced kernels) from the activation loader's warp. */
/* The counters' memory operations, gpu scope: an acquire load of a count; an add with
 * acquire and release, returning the count before it. The group wait (mega.cu's
 * mrt_mega_group_ready) keeps relaxed polls and fence.acq_rel.gpu: acquire polls there and an
 * acquire load of the (since removed) done count instead of its fence, also the member
 * tickets as release adds, were level within the noise (H200, session 28 run 1: -0.1 .. -0.7
 * us at six shapes, +1.7 at M=16 KV=65536). */
static __device__ __forceinline__ unsigned mrt_ld_acquire(const unsigned *p) {
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}
static __device__ __forceinline__ unsigned mrt_atom_add_acq_rel(unsigned *p, unsigned v) {
    unsigned t;
    asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(t) : "l"(p), "r"(v) : "memory");
    return t;
}
static __device__ __forceinline__ void mrt_red_release(unsigned *p, unsigned v) {
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
static __device__ __forceinline__ void mrt_red_relaxed(unsigned *p, unsigned v) {
    asm volatile("red.relaxed.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
/* Counters (events, tickets) 128 bytes apart: one L2 line each, so the CTAs polling one event
 * do not contend with the atomics on its neighbours (HOPPER_NOTES: counters sharing lines). */
#define MRT_MEGA_CTR_STRIDE 32
/* The sleep between two polls of an event (ns). H200, session 20 (M=16 KV=8192): several
 * polls in flight lost (run 7: 2 +0.9 us, 4 +1.9; 3d76a78, reverted); with MRT_MEGA_HELP_POLL_NS
 * (mega.cu) 300 / 200 +0.5, 30 / 20 level (run 8: 79.77 / 79.81 against 79.92 / 79.89). */
#ifndef MRT_MEGA_POLL_NS
#define MRT_MEGA_POLL_NS 100
#endif
struct mrt_mega_wait {
    const unsigned *events;
    const uint32_t *w; /* the instruction's words (shared memory) */
    unsigned epoch, nwait;
    unsigned *diag;
    unsigned slot;
    unsigned long long *ph; /* traced: this instruction's phase stamps, else NULL */
    __device__ __forceinline__ void operator()(int lane) const {
        /* all events at once: a wait costs its slowest event, not the sum of its events'
         * round trips (H200, session 20 run 2: mega M=16 KV=8192 80.57 / 80.59 -> 79.87 /
         * 79.92 us, M=64 and M=128 faster too, against lane 0 polling them in turn) */
        if ((unsigned)lane < nwait) spin((unsigned)lane);
        __syncwarp();
#ifdef MRT_MEGA_WAIT_PROBE /* diagnostic: "input ready" before the proxy fence, so that against
                              the default the trace's weights -> input shows what it costs
                              (session 27 run 4 measured the two fences of then with it) */
        if (lane == 0 && ph && (threadIdx.x >> 5) <= 1) ph[MRT_PH_INPUT] = mrt_globaltimer();
#endif
        if (nwait) asm volatile("fence.proxy.async.global;" ::: "memory"); /* TMA reads of producer data follow */
#ifndef MRT_MEGA_WAIT_PROBE
        if (lane == 0 && ph && (threadIdx.x >> 5) <= 1) ph[MRT_PH_INPUT] = mrt_globaltimer();
#endif
        __syncwarp();
    }
    __device__ __forceinline__ void spin(unsigned j) const {
        const unsigned *ctr = events + (size_t)w[4 + 2 * j] * MRT_MEGA_CTR_STRIDE;
        const unsigned target = w[5 + 2 * j] * epoch;
        unsigned seen;
        long long t0 = clock64();
        for (;;) {
            seen = mrt_ld_acquire(ctr);
            if ((int)(seen - target) >= 0) break;
            /* half the GEMM tile watchdog's bound: a tile waiting here is named by the event
             * it misses, not only as a tile that did not start */
            if (clock64() - t0 > MRT_SPIN_LIMIT_CYCLES / 2)
                mrt_diag_trap(diag, MRT_DIAG_MEGA_WAIT, blockIdx.x, slot, w[2], w[4 + 2 * j], target, seen);
            __nanosleep(MRT_MEGA_POLL_NS);
        }
    }
};

/* Payloads (src/ops/gemm_fp8.c, gemm_bf16.c, bmm_bf16.c):
 *   gemm_fp8: m0 m1 n0 n1 kb0 kb1 split nsplit     gemm_bf16: m0 m1 k0 k1 split
 *   bmm_bf16: m0 m1 h n0 n1 */
template <int KIND>
static __device__ __forceinline__ mrt_gemm_tile mrt_mega_tile_of(const mrt_mega_op &o, const uint32_t *pl, int *m1,
                                                                 int *n1) {
    mrt_gemm_tile t;
    t.m0 = (int)pl[0], *m1 = (int)pl[1], t.batch = 0, t.split = 0;
    if (mrt_gemm_kind<KIND>::SCALED) {
        t.n0 = (int)pl[2], *n1 = (int)pl[3], t.kb0 = (int)pl[4], t.nkb = (int)(pl[5] - pl[4]), t.split = (int)pl[6];
    } else if (KIND == MRT_GEMM_BF16) {
        t.n0 = 0, *n1 = o.ga.N, t.kb0 = (int)pl[2] / 64, t.nkb = (int)(pl[3] - pl[2]) / 64, t.split = (int)pl[4];
    } else {
        t.batch = (int)pl[2], t.n0 = (int)pl[3], *n1 = (int)pl[4], t.kb0 = 0, t.nkb = o.ga.K / 64;
    }
    t.ntile = t.n0 / mrt_gemm_kind<KIND>::BLOCK_N, t.chunk = 0;
    return t;
}

/* One tile, all 384 threads; smem 1024-aligned, large enough for the op's layout (host); o:
 * the operand row in shared memory, tw / tx: its TMA descriptors in global memory (passed as
 * pointers: with the global row passed by reference, the compiler's clone of this function
 * took the whole 896-byte row by value). A function of its own, not inlined: its registers
 * are allocated apart from the kernel body's (inlined, the step took 190 us instead of
 * 177-184: H200, 2026-11-29, despite ptxas's C7510 warning that wgmma is serialized across
 * the call). Since then, inlined (no C7510): 107.7 / 108.3 us against 97.7 / 97.4 (992 bytes of
 * body spill at TN 16; H200, session 12 run 4); inlined with A0's row and the finalization job
 * made calls (body spill 556 bytes): 99.1-99.9 against 94.3-95.1 (session 13 run 2); inlined
 * with setmaxnreg giving the consumer warpgroups 216 registers for the tile (producers 72; no
 * C7510 at TN 16, 5 WARPGROUP.DEPBAR against 24): 96.5-96.7 against 95.1-95.7, every tile's
 * input -> computed unchanged (session 13 run 5, 8d761f4); ptxas ignored some of those
 * setmaxnreg at TN 64 (C7507) and the step hung there until the watchdog (run 4). */
/* -DMRT_MEGA_PRO_PROBE=N (diagnostic builds, session 27): a traced GEMM tile's "weights
 * issued" stamp moves to its prologue, by thread 0: 1 at the tile's entry, 2 after its
 * barriers' init (mbarrier.init, fence.mbarrier_init), 3 after the CTA barrier that follows;
 * against the default (warp 2, just before its first weight load) the trace's visible ->
 * weights splits the ~1.5 us a GEMM tile takes from being reached to its first weight load
 * (session 27 run 3's trace: D1 1.63, D0 1.60, D2 1.44 us median; E1, F1, A0 0.22). */
#ifndef MRT_MEGA_PRO_PROBE
#define MRT_MEGA_PRO_PROBE 0
#endif
/* D1's (INDEX_Q's) RMS factor of each of the tile's rows, computed by the tile's idle warp 3
 * while the k-loop runs (after the scales barrier, which the activation loader's lanes arrive
 * on after its input wait: the block sums are B0's, covered by that wait), for the
 * finalization's jobs, which read it instead of computing it (0.8 us of a job's 2.7 on the
 * M=16 chain, H200 session 36 run 6). Every member of a group has the unit's rows, and a member
 * finalizes right after its own tile, so the factors in its shared memory are its unit's;
 * mrt_fold_factor sums the block sums in the job's own order, so it gives the job's own bits
 * (test_mega_prefix: mega = serial bytes). Warp 3's part is a __noinline__ call: inlined into
 * the tile (session 36 run 7) the tile function's code moved around it and B0's tile, which
 * runs none of it, slowed (input -> computed 8.70 -> 9.15 us, M=16 KV=8192 +0.6); as a call
 * (run 8, A B in one run against it off): D1 computed -> published 6.94 -> 6.11 us, M=16
 * KV=8192 level, M=64 KV=8192 102.2 -> 97.5, M=16 KV=65536 -0.7, M=1 -0.3, M=128 -0.4.
 * -DMRT_MEGA_IQ_RFAC=0 (A B builds) leaves it to the jobs, as until session 37. */
#ifndef MRT_MEGA_IQ_RFAC
#define MRT_MEGA_IQ_RFAC 1
#endif
/* An INDEX_Q unit whose jobs load their row inputs first (mrt_mega_fin_job): the jobs that
 * read warp 3's factors, so one predicate decides both sides. */
static __device__ __forceinline__ bool mrt_mega_iq_loads_first(const mrt_mega_op &o) {
    return o.epi_kind == MRT_EPI_INDEX_Q && mrt_epi_index_q_loads_fit(o.epi);
}
#if MRT_MEGA_IQ_RFAC
static __shared__ float mrt_mega_iq_rfac[128];
static __device__ __noinline__ void mrt_mega_iq_row_factors(const mrt_mega_op &o, int m0, int m1, uint32_t scales,
                                                            unsigned *diag, int lane) {
    const mrt_epi_args &e = o.epi;
    mrt_mbar_wait_full(scales, 0, diag);
    for (int m = m0 + lane; m < m1; m += 32)
        mrt_mega_iq_rfac[m - m0] = mrt_fold_factor(e.ssq_in, m, e.K / 128, e.K, e.eps);
}
#endif
template <int KIND, int TN>
static __device__ __forceinline__ void mrt_mega_gemm_tile_body(const mrt_mega_op &o, const CUtensorMap *tw,
                                                               const CUtensorMap *tx, const CUtensorMap *tsx,
                                                               const uint32_t *pl,
                                                               uint8_t *smem, const mrt_mega_wait &wait,
                                                               unsigned long long *ph) {
    typedef mrt_gemm_layout<KIND, TN> L;
    const mrt_gemm_args &a = o.ga; /* shared memory (the instruction's row), not a local copy */
    int m1, n1;
    const mrt_gemm_tile t = mrt_mega_tile_of<KIND>(o, pl, &m1, &n1);
    const uint32_t base = mrt_smem_u32(smem);
    const L lay(a.stages, a.kb_per_split);
    const mrt_gemm_bars bars = {base + lay.bar_off};
    float *sxs = (float *)(smem + lay.sx_off), *sws = (float *)(smem + lay.sw_off), *stg = (float *)smem;
    int *flag = (int *)(smem + lay.flag_off);
    const mrt_gemm_progress pr = {(volatile int *)(smem + lay.flag_off + 16)};
    const int warp = (int)threadIdx.x >> 5, lane = (int)threadIdx.x & 31;
    mrt_mega_out epi = {o.out, m1, n1, mrt_gemm_kind<KIND>::SCALED && o.fused_q_b ? &o.qbf : NULL};
    epi.s.out = (uint8_t *)o.out.out + (size_t)t.split * o.plane * (o.out.f32 ? 4 : 2);
#if MRT_MEGA_PRO_PROBE == 1
    if (ph && threadIdx.x == 0) ph[MRT_PH_WEIGHTS] = mrt_globaltimer();
#endif
    /* Every thread's generic-proxy writes of this shared memory since the CTA's last GEMM tile
     * (that tile's staging, a finalization's scratch, A0's, E1's and F1's buffers) ordered
     * before this tile's TMA writes into it: each thread fences its own, the barrier below
     * carries them to the loaders. Here, not at the end of the tile (until session 28: after
     * the staging), where the fence waited behind the tile's global stores (H200, session 28
     * run 4, without it: M=16 KV=8192 -0.5 / -0.7 us) and the other ops' writes went unfenced. */
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    if (threadIdx.x == 0) {
        mrt_gemm_controller_init<KIND>(bars, a.stages, 0);
        for (int i = 0; i < 4; i++) pr.set(i, 0);
#if MRT_MEGA_PRO_PROBE == 2
        if (ph) ph[MRT_PH_WEIGHTS] = mrt_globaltimer();
#endif
    }
    __syncthreads();
#if MRT_MEGA_PRO_PROBE == 3
    if (ph && threadIdx.x == 0) ph[MRT_PH_WEIGHTS] = mrt_globaltimer();
#endif
    if (warp == 0) {
        if (lane == 0) mrt_gemm_watchdog(t, a, bars, pr);
    } else if (warp == 1) {
        mrt_gemm_aload<KIND, TN>(t, a, tx, tsx, base, sxs, bars, pr, wait, lane);
    } else if (warp == 2) {
#if MRT_MEGA_FIRST_WEIGHTS_NS > 0
        /* The step's first GEMM tiles (slot 0: B0, C0, B1) hold their weight loads back this
         * long, so that A0's row loads (first op, critical path) do not queue behind the weight
         * requests issued at the same moment (~17 MB with 8-stage rings, ~8.5 MB with 4).
         * Measured (H200, session 11 run 1, A B A B):
         * 2 us: mega 117.0 / 119.9 against 126.8 / 122.4 without; 4 us (run 2): 112.1 / 114.1
         * against 112.4 / 112.5 for 2 us. Session 28 run 3 (0, 1, 2, 3.5, 5 us at 7 shapes):
         * 1-3.5 within the noise of 2 at M=16 KV=8192, 0 up to 9 us slower, 5 up to 4 slower;
         * a longer hold finishes A0 sooner (5 us: done 7.0 against 9.1) and B0 as late (its
         * weights later). With the rings at 4 stages (session 32 run 5): 0, 1 and 3.5 us
         * against 2 again, 1 us -0.3 at M=16 KV=8192 and +0.3 to +0.5 at three other shapes,
         * 0 up to 29 us slower. Bounded by the global timer. */
        if (wait.slot == 0 && lane == 0) {
            const unsigned long long t0 = mrt_globaltimer();
            while (mrt_globaltimer() - t0 < (unsigned long long)(MRT_MEGA_FIRST_WEIGHTS_NS)) __nanosleep(256);
        }
        __syncwarp();
#endif
        if (!MRT_MEGA_PRO_PROBE && ph && lane == 0) ph[MRT_PH_WEIGHTS] = mrt_globaltimer();
        mrt_gemm_wload<KIND, TN>(t, a, tw, base, sws, bars, pr, lane);
#if MRT_MEGA_IQ_RFAC
    } else if (warp == 3) {
        if (mrt_gemm_kind<KIND>::SCALED && mrt_mega_iq_loads_first(o)) {
            static_assert(TN <= 128, "INDEX_Q row factors: a tile's rows fit mrt_mega_iq_rfac");
            mrt_mega_iq_row_factors(o, t.m0, m1, bars.scales(), a.diag, lane);
        }
#endif
    } else if (warp >= 4) {
        const int ctid = (int)threadIdx.x - 128;
        mrt_gemm_compute<KIND, TN>(t, a, base, sxs, sws, bars, pr, stg, ctid);
#ifdef MRT_GEMM_PROBE /* probe builds: the trace's "weights" and "visible" of an fp8 GEMM tile
                         become K block 0's and the last K block's data ready (the thread that
                         stamped them, in this tile's shared memory) */
        if (mrt_gemm_kind<KIND>::SCALED && ph && ctid == 0) ph[MRT_PH_WEIGHTS] = pr.stamps()[0], ph[MRT_PH_VISIBLE] = pr.stamps()[1];
#endif
#ifdef MRT_MEGA_PROBE /* probe builds: the trace's "weights" and "input" of a GEMM tile become
                         k-loop done and store done (they overwrite the earlier stamps) */
        if (ph && ctid == 0) ph[MRT_PH_WEIGHTS] = mrt_globaltimer();
#endif
        /* The store does not wait on the instruction's events (the standalone kernel's store
         * does: under PDL its wait is per thread). The consumers have inherited them: the
         * activation loader's lane 0 polls and fences (acquire, gpu scope) before its arrive
         * on full barrier 0 (release, CTA scope), and every consumer's wait on that barrier
         * (acquire) comes before its stores and its epilogue's loads. The wait here cost a
         * poll and two fences in each of the 8 consumer warps between the last K block and
         * the stores. Measured (H200, session 16 run 6, A B A B as -DMRT_MEGA_STORE_NOWAIT):
         * M=16 86.36 / 86.70 us against 91.14 / 91.33 (every GEMM's input -> computed 1.4-2.2
         * us shorter: B0 10.62 -> 9.28, D1 6.88 -> 4.83, D0 12.77 -> 11.30), M=64 146.2
         * against 152.0, M=128 225.4 against 231.5; mega = serial bytes (test_mega_prefix). */
        /* mega_op.h: D0's rows' factors and positions once a tile, into the activations'
         * scales (sxs, TN * mrt_gemm_sx_pitch >= 4 TN floats), which the k-loop has read for
         * the last time before its closing consumer barrier */
        if (mrt_gemm_kind<KIND>::SCALED && epi.qb) {
            float *qr = sxs;
            int32_t *qp = (int32_t *)(sxs + TN);
            for (int i = ctid; i < m1 - t.m0; i += MRT_GEMM_CONSUMERS)
                qr[i] = epi.qb->row_factor(t.m0 + i), qp[i] = epi.qb->pos[t.m0 + i];
            mrt_consumer_sync();
            epi.qr = qr, epi.qp = qp;
        }
        mrt_gemm_store<KIND, TN, mrt_mega_out, mrt_wait_none, mrt_consumer_barrier, false>(
            t, a, stg, flag, epi, mrt_wait_none(), mrt_consumer_barrier(), ctid, MRT_GEMM_CONSUMERS);
#ifdef MRT_MEGA_PROBE
        if (ph && ctid == 0) ph[MRT_PH_INPUT] = mrt_globaltimer();
#endif
        if ((ctid & 127) == 0) mrt_mbar_arrive(bars.done());
    }
    __syncthreads();
    if (threadIdx.x == 0) { /* exactly the barriers mrt_gemm_controller_init made (no cluster) */
        for (int s = 0; s < a.stages; s++) {
            mrt_mbar_inval(bars.full(s));
            mrt_mbar_inval(bars.empty(s));
        }
        mrt_mbar_inval(bars.scales()), mrt_mbar_inval(bars.done());
    }
}
/* With -DMRT_MEGA_TALL=1 an fp8 tile of more than 128 rows is tall (mega_table.cu allows it
 * at TN <= 32; gpu.h says why it is off by default). */
template <int KIND, int TN>
static __device__ __forceinline__ void mrt_mega_gemm_tile_any(const mrt_mega_op &o, const CUtensorMap *tw,
                                                              const CUtensorMap *tx, const CUtensorMap *tsx,
                                                              const uint32_t *pl, uint8_t *smem,
                                                              const mrt_mega_wait &wait, unsigned long long *ph) {
    if constexpr (MRT_MEGA_TALL && KIND == MRT_GEMM_FP8 && TN <= MRT_GEMM_TALL_TN)
        if (pl[3] - pl[2] > 128u) {
            mrt_mega_gemm_tile_body<MRT_GEMM_FP8_TALL, TN>(o, tw, tx, tsx, pl, smem, wait, ph);
            return;
        }
    mrt_mega_gemm_tile_body<KIND, TN>(o, tw, tx, tsx, pl, smem, wait, ph);
}
/* The kind is picked inside the called function, so the kernel body keeps the one call it had
 * before the tall kind (with a call of its own the body spilled 88 / 500 bytes against 80 /
 * 476, nvcc -Xptxas -v at TN 16; the step is that sensitive: docs/MEGAKERNEL.md session 43);
 * the fp8 tile function then holds both kinds (spills at TN 16 32 -> 64 bytes). */
template <int KIND, int TN>
static __device__ __noinline__ void mrt_mega_gemm_tile(const mrt_mega_op &o, const CUtensorMap *tw,
                                                        const CUtensorMap *tx, const CUtensorMap *tsx,
                                                        const uint32_t *pl, uint8_t *smem,
                                                        const mrt_mega_wait &wait, unsigned long long *ph) {
    mrt_mega_gemm_tile_any<KIND, TN>(o, tw, tx, tsx, pl, smem, wait, ph);
}

/* Scratch of the finalization groups (in the megakernel's dynamic shared memory, used after
 * the tile it finalizes: mega.cu): three groups of 128 threads or twelve of 32
 * (mrt_mega_fin_threads), each with its share: 8 doubles and 8 floats a warp, a row buffer
 * of 256 floats a 128-thread group or a whole head (128) a one-warp group, and the job's
 * columns summed over the split planes (12 floats a thread: MRT_EPI_MAX_COLS a 128-thread
 * group, 384 a one-warp group, whose jobs are 128 columns: mrt_mega_fin_threads). */
#define MRT_MEGA_FIN_MAX_GROUPS 12
struct mrt_mega_fin_smem {
    double ds[MRT_MEGA_GROUPS * 32];
    float fs[MRT_MEGA_GROUPS * 32];
    float rowbuf[MRT_MEGA_FIN_MAX_GROUPS * 128];
    __align__(16) float sums[MRT_MEGA_GROUPS * MRT_EPI_MAX_COLS];
    int job[MRT_MEGA_FIN_MAX_GROUPS]; /* the job a group claimed */
#if defined(MRT_MEGA_FIN_PROBE) && MRT_MEGA_FIN_PROBE >= 2
    unsigned long long *probe; /* group 0's first job: its stamps (mrt_mega_finalize_claimed) */
#endif
    __device__ __forceinline__ double *dsg(const mrt_grp &g, int gi) { return ds + gi * (g.n / 4); }
    __device__ __forceinline__ float *fsg(const mrt_grp &g, int gi) { return fs + gi * (g.n / 4); }
    __device__ __forceinline__ float *rowg(const mrt_grp &g, int gi) { return rowbuf + gi * (g.n < 64 ? 128 : 2 * g.n); }
    __device__ __forceinline__ float *sumg(const mrt_grp &g, int gi) { return sums + gi * (g.n * MRT_EPI_MAX_COLS / 128); }
};

/* Threads in a finalization group: 128 (one column a thread), or one warp for QKV_A's q units
 * (four columns a thread; the block's fp64 sum in the 128-thread order: mrt_grp_sum_f64_k)
 * and INDEX_Q's heads (the head in its 128 floats of row buffer, the 32 RoPE pairs one a
 * lane; the rest a max and element-wise steps): twelve groups a member, so a unit's row jobs
 * take a quarter of the rounds. Measured (H200, session 14 run 3): M=16 94.81 / 95.13 us
 * against 96.03 / 95.91 with 128-thread q groups and 64-thread INDEX_Q groups, M=64 164.4
 * against 176.6, M=128 258.8 against 285.3 (B0's computed -> published 32.9 -> 16.2 us, D1's
 * 32.6 -> 22.2). Earlier: INDEX_Q in 64-thread groups, one round of 24 groups for GLM-5
 * M=16's 16 row jobs instead of two of 12 (D1 11.4 -> 7.8 us, session 11 run 5); QKV_A q in
 * 64-thread groups level at M=16 (session 12 run 1). */
static __device__ __forceinline__ int mrt_mega_fin_threads(const mrt_mega_op &o, const uint32_t *pl) {
    if (o.epi_kind == MRT_EPI_QKV_A && (int)pl[2] < o.epi.q_lora) return 32;
    if (o.epi_kind == MRT_EPI_INDEX_Q && o.epi.dim <= 128 && o.epi.rope / 2 <= 32) return 32;
    /* a wider RoPE: 64 threads (a pair a thread) */
    return o.epi_kind == MRT_EPI_INDEX_Q && o.epi.dim <= 128 && o.epi.rope / 2 <= 64 ? 64 : 128;
}


/* A gemm_fp8 unit's finalization = jobs (row, piece): Q_B's pieces are heads, QKV_A q's
 * 128-column scale blocks, INDEX_Q's heads; QKV_A kv and INDEX_K take whole rows. */
struct mrt_mega_fin_unit {
    int m0, m1, u0, u1, pieces, h0, width, jobs;
    int rows; /* rows a job: 1, or INDEX_Q's / QKV_A q's (mrt_mega_iq_rows_of, mrt_mega_qa_rows_of) */
    mrt_smalldiv per_row; /* a job's row block and piece: job / pieces, a divide less a job */
};
/* INDEX_Q jobs of several rows (mrt_mega_iq_rows_job): where a split D1 unit has more rows than
 * its members have one-warp groups (more than 24 tokens a tile at GLM-5's split 2), a group
 * takes R rows a job, so the unit's jobs take fewer rounds of its groups. Why: a job is a chain
 * of round trips (claim, loads, epilogue, signals: ~4.5-6 us at M=128), and at M=128 a D1
 * unit's 128 one-row jobs ran ~5.3 rounds (computed -> published 24.5 us median; H200, session
 * 51 run 1), on the critical path at M=64 and holding 60 of D0's tiles at M=128. R is the
 * kernel's (its tile width TN), chosen where ptxas's allocation of E1's tile functions in that
 * kernel stays as it was: any new call in the kernel body can move it (4 rows a job in the TN
 * 64 kernel spilled E1's tiles 40 -> 76 / 180 and 172 -> 204 / 452 bytes, and M=64 KV=65536
 * took 185 us against 174; session 51 run 2); mrt_mega_fin_rows below. TN < 32: 1 (a unit's
 * rows never outnumber its groups, and M <= 16's kernels carry none of this code); TN 32: 1
 * (2 moved E1's tiles); TN 64: 2; TN 128: 4 (E1's tiles as they were). Needs warp 3's row
 * factors (MRT_MEGA_IQ_RFAC) and a 128-value head with its RoPE pairs in one warp
 * (mrt_mega_iq_rows_of). */
#ifndef MRT_MEGA_IQ_ROWS_TN32
#define MRT_MEGA_IQ_ROWS_TN32 1
#endif
#ifndef MRT_MEGA_IQ_ROWS_TN64
#define MRT_MEGA_IQ_ROWS_TN64 2
#endif
#ifndef MRT_MEGA_IQ_ROWS_TN128
#define MRT_MEGA_IQ_ROWS_TN128 4
#endif
/* B0's (QKV_A q) rows a job by kernel, chosen the same way (mrt_mega_qa_rows_of): TN 64 none
 * (2 rows moved E1's tiles there again), TN 128 four. */
#ifndef MRT_MEGA_QA_ROWS_TN64
#define MRT_MEGA_QA_ROWS_TN64 1
#endif
#ifndef MRT_MEGA_QA_ROWS_TN128
#define MRT_MEGA_QA_ROWS_TN128 4
#endif
/* rows a finalization job takes in the kernel of tile width TN: IQ for D1 (INDEX_Q), QA for B0's
 * q units (QKV_A) */
template <int TN>
struct mrt_mega_fin_rows {
    static constexpr int IQ = !MRT_MEGA_IQ_RFAC || TN < 32 ? 1
                              : TN == 32                  ? MRT_MEGA_IQ_ROWS_TN32
                              : TN == 64                  ? MRT_MEGA_IQ_ROWS_TN64
                                                          : MRT_MEGA_IQ_ROWS_TN128;
    static constexpr int QA = TN < 64 ? 1 : TN == 64 ? MRT_MEGA_QA_ROWS_TN64 : MRT_MEGA_QA_ROWS_TN128;
};
static __device__ __forceinline__ int mrt_mega_iq_rows_of(const mrt_mega_op &o, int rows, int pieces, int rmax) {
    const int groups = o.nsplit * MRT_MEGA_GROUPS * 4; /* one-warp groups: 12 a member */
    if (rmax == 1 || !mrt_mega_iq_loads_first(o) || o.epi.dim != 128 || o.epi.rope > 64 || o.nsplit < 2 ||
        rows * pieces <= groups)
        return 1;
    return rmax;
}
/* QKV_A's q units (B0's finalization, on the chain A0 -> B0 -> D0 / D1) the same way
 * (mrt_mega_qa_rows_job, the kernel's QA): B0's units have 4 members (48 groups) and one
 * 128-column piece, so M=128's 128 one-row jobs ran ~2.7 rounds (computed -> published 13.3
 * us, max 18.6; session 51 run 1). */
static __device__ __forceinline__ int mrt_mega_qa_rows_of(const mrt_mega_op &o, int rows, int pieces, int rmax) {
    const int groups = o.nsplit * MRT_MEGA_GROUPS * 4;
    if (rmax == 1 || o.nsplit < 2 || rows * pieces <= groups) return 1;
    return rmax;
}
/* riq, rqa: rows an INDEX_Q, a QKV_A q job may take (mrt_mega_fin_rows<TN>'s IQ and QA of the
 * kernel; 1 for a lone tile) */
static __device__ __forceinline__ mrt_mega_fin_unit mrt_mega_fin_unit_of(const mrt_mega_op &o, const uint32_t *pl,
                                                                         int riq, int rqa) {
    const mrt_epi_args &e = o.epi;
    mrt_mega_fin_unit u;
    u.m0 = (int)pl[0], u.u0 = (int)pl[2], u.u1 = (int)pl[3]; /* the unit: final_unit() of src/ops/gemm_fp8.c */
    if (o.epi_kind == MRT_EPI_QKV_A && u.u0 >= e.q_lora) u.u0 = e.q_lora, u.u1 = e.N;
    if (o.epi_kind == MRT_EPI_INDEX_K) u.u0 = 0, u.u1 = e.N;
    u.width = e.nope + e.rope, u.pieces = 1, u.h0 = 0;
    if (o.epi_kind == MRT_EPI_QKV_A && u.u0 < e.q_lora) u.pieces = (u.u1 - u.u0) / 128;
    /* heads by multiply-shift quotients (e.head_of_col, fastdiv.h): no division sequences in
     * the code every gemm_fp8 tile's start and finalization run */
    if (o.epi_kind == MRT_EPI_Q_B)
        u.h0 = (int)mrt_fastdiv_q((uint32_t)u.u0, e.head_of_col),
        u.pieces = (int)mrt_fastdiv_q((uint32_t)(u.u1 - 1), e.head_of_col) + 1 - u.h0;
    if (o.epi_kind == MRT_EPI_INDEX_Q)
        u.h0 = (int)mrt_fastdiv_q((uint32_t)u.u0, e.head_of_col),
        u.pieces = (int)mrt_fastdiv_q((uint32_t)(u.u1 - u.u0), e.head_of_col);
    u.m1 = (int)pl[1];
    u.rows = o.epi_kind == MRT_EPI_INDEX_Q                      ? mrt_mega_iq_rows_of(o, u.m1 - u.m0, u.pieces, riq)
             : o.epi_kind == MRT_EPI_QKV_A && u.u0 < e.q_lora ? mrt_mega_qa_rows_of(o, u.m1 - u.m0, u.pieces, rqa)
                                                                : 1;
    u.jobs = (u.m1 - u.m0 + u.rows - 1) / u.rows * u.pieces;
    u.per_row = mrt_smalldiv_make(u.pieces); /* jobs < 2^23: rows of a tile times its pieces */
    return u;
}

/* One job, by a group of mrt_mega_fin_threads threads: its columns summed over the split planes in split
 * order (0 + p0 + p1 ..., mrt_gemm_store's order) into the group's shared memory, then the
 * op's epilogue on them, as src/ops/gemm_fp8.c's cpu_final does. Ends with the group's
 * barrier. */
/* Inlined into the kernel body (308 bytes of spill a thread at TN 16 there). As a call, with
 * A0's row one too (body spill 64 bytes), the step was slower: 99.2-100.7 us against 95.0-95.1
 * (H200, session 13 run 2). */
#if defined(MRT_MEGA_FIN_PROBE) && MRT_MEGA_FIN_PROBE >= 2
#define MRT_MEGA_JOB_STAMP(k)                                                                                         \
    do {                                                                                                              \
        if (gi == 0 && g.tid == 0 && sm.probe) sm.probe[k] = mrt_globaltimer();                                       \
    } while (0)
#else
#define MRT_MEGA_JOB_STAMP(k) \
    do {                      \
    } while (0)
#endif
/* -DMRT_MEGA_FIN_PROBE=4: an INDEX_Q job's epilogue in steps: "weights issued" its row factor
 * done, "input ready" its RoPE done (after "visible", the planes summed); "published" then
 * follows the quantization, the stores and the signals. =5: "input ready" is the row inputs
 * (gate partials, block sums: loads issued before the planes') stored in the row buffer, before
 * the row factor's sums. */
#if defined(MRT_MEGA_FIN_PROBE) && MRT_MEGA_FIN_PROBE >= 4
struct mrt_mega_iq_probe {
    unsigned long long *ph;
    bool on;
    __device__ __forceinline__ void operator()(int k) const {
        const int at = k == 0 ? MRT_PH_WEIGHTS : MRT_PH_INPUT;
        if (on && ph && k != (MRT_MEGA_FIN_PROBE == 5 ? 1 : 2)) ph[at] = mrt_globaltimer();
    }
};
#endif
/* -DMRT_MEGA_FIN_PROBE=3: every job runs its epilogue twice (the same values from the same
 * sums, the same bytes stored twice), "input ready" after the first and "weights issued"
 * after the second: the second runs on warm instruction caches. */
#if defined(MRT_MEGA_FIN_PROBE) && MRT_MEGA_FIN_PROBE == 3
#define MRT_MEGA_JOB_REPS 2
#else
#define MRT_MEGA_JOB_REPS 1
#endif
/* C e4m3 codes of value(0 .. C-1) to dst (C in 8, 16, 32; dst aligned to C bytes), in 8- or
 * 16-byte words: the several-row jobs' quantized columns */
template <int C, class Value>
static __device__ __forceinline__ void mrt_mega_store_e4m3(uint8_t *dst, const Value &value) {
    uint32_t w[C / 4];
#pragma unroll
    for (int k = 0; k < C / 4; k++) {
        w[k] = 0;
#pragma unroll
        for (int b = 0; b < 4; b++) w[k] |= (uint32_t)mrt_f32_to_e4m3(value(4 * k + b)) << (8 * b);
    }
    if (C == 8) *(uint2 *)dst = make_uint2(w[0], w[1]);
#pragma unroll
    for (int k = 0; k < C / 16; k++) ((uint4 *)dst)[k] = make_uint4(w[4 * k], w[4 * k + 1], w[4 * k + 2], w[4 * k + 3]);
}

#if MRT_MEGA_IQ_RFAC
/* R rows of one INDEX_Q head by one warp: L = 32 / R lanes a row, each with C = 128 / L
 * adjacent columns in registers (the RoPE pairs (2i, 2i + 1) stay in a lane), summed over the
 * split planes by the same mrt_sum_splits as mrt_epi_sum_columns, then mrt_epi_index_q_t's
 * element-wise steps on them: the fold by warp 3's row factor, RoPE, the head's amax (a max
 * over the row's lanes: the same value in any order), the power-of-two quantization, the gate
 * partials summed in order into the head weight. The same operations on the same values as
 * the one-row job, so the same bytes. A call: its registers (C sums, the RoPE pairs) stay out
 * of the kernel body's allocation. */
template <int R>
static __device__ __noinline__ void mrt_mega_iq_rows_job(const mrt_mega_op &o, const mrt_mega_fin_unit &u, int job) {
    constexpr int L = 32 / R, C = 128 / L, V = C / 4;
    const mrt_epi_args &e = o.epi;
    const int lane = (int)threadIdx.x & 31, sub = lane % L, first = lane - sub;
    const int jr = mrt_smalldiv_q(job, u.per_row), h = u.h0 + job - jr * u.pieces;
    const int row = u.m0 + jr * R + lane / L, d0 = sub * C;
    const bool live = row < u.m1;
    const int rrow = live ? row : u.m0; /* a row past the unit's loads the first row's, stores nothing */
    float4 v[V];
    mrt_sum_splits<V, 2>(o.part + (long long)rrow * e.N + h * e.dim + d0, (long long)e.M * e.N, o.nsplit, v);
    float gv[R]; /* gate partials sub, sub + L, ... of the row */
#pragma unroll
    for (int k = 0; k < R; k++) gv[k] = k * L + sub < e.gate_partials ? mrt_epi_iq_gate(e, rrow, h, k * L + sub) : 0.0f;
    float cs[C / 2], sn[C / 2];
    const float *rcs = e.rope_cs + (size_t)e.pos[rrow] * e.rope;
#pragma unroll
    for (int p = 0; p < C / 2; p++)
        if (d0 + 2 * p < e.rope) cs[p] = rcs[d0 / 2 + p], sn[p] = rcs[e.rope / 2 + d0 / 2 + p];
    const float r = mrt_mega_iq_rfac[rrow - u.m0];
    float q[C], amax = 0;
#pragma unroll
    for (int k = 0; k < V; k++)
        q[4 * k] = mrt_q_b_fold(v[k].x, r), q[4 * k + 1] = mrt_q_b_fold(v[k].y, r),
        q[4 * k + 2] = mrt_q_b_fold(v[k].z, r), q[4 * k + 3] = mrt_q_b_fold(v[k].w, r);
#pragma unroll
    for (int p = 0; p < C / 2; p++)
        if (d0 + 2 * p < e.rope) mrt_rope_pair_rn(&q[2 * p], &q[2 * p + 1], cs[p], sn[p]);
#pragma unroll
    for (int c = 0; c < C; c++) amax = fmaxf(amax, fabsf(q[c]));
#pragma unroll
    for (int x = L / 2; x > 0; x >>= 1) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, x));
    const float qs = mrt_pow2_scale(fmaxf(0.0f, amax)), qi = mrt_pow2_inv(qs);
    float gs = 0; /* the partials in index order, as the one-row job's lane 0 adds them */
#pragma unroll
    for (int k = 0; k < R; k++)
        for (int j = 0; j < L; j++) {
            const float x = __shfl_sync(0xffffffffu, gv[k], first + j);
            if (k * L + j < e.gate_partials) gs = __fadd_rn(gs, x);
        }
    if (!live) return;
    mrt_mega_store_e4m3<C>(e.q8i + ((size_t)row * e.heads + h) * e.dim + d0,
                           [&](int c) { return __fmul_rn(q[c], qi); }); /* = / qs */
    if (sub == 0) e.wI[row * e.heads + h] = mrt_epi_iq_weight(e, gs, qs);
}
#endif

/* R rows of one QKV_A q piece (128 columns) by one warp: L = 32 / R lanes a row, each with C =
 * 128 / L adjacent columns, summed over the split planes as mrt_epi_sum_columns does, then
 * mrt_epi_qkv_a_q_k's steps: bf16, times w_qn, the block's amax (a max over the row's lanes)
 * and its scale, the quantization, and the block's fp64 sum of squares in the order of 128
 * threads: virtual warp w (columns 32 w ..) summed by the butterfly of __shfl_xor 16, 8, 4, 2,
 * 1, then the four in index order from 0. Column 32 w + l sits at position j = l mod C of lane
 * l / C (in the row's lanes), so a butterfly step o >= C pairs the same position of lanes
 * o / C apart (a shuffle), a step o < C positions j and j + o of one lane; each step adds
 * partner to own, and IEEE addition is commutative: the same sums, the same bits. */
template <int R>
static __device__ __noinline__ void mrt_mega_qa_rows_job(const mrt_mega_op &o, const mrt_mega_fin_unit &u, int job) {
    constexpr int L = 32 / R, C = 128 / L, V = C / 4;
    const mrt_epi_args &e = o.epi;
    const int lane = (int)threadIdx.x & 31, sub = lane % L, first = lane - sub;
    const int jr = mrt_smalldiv_q(job, u.per_row), c0 = u.u0 + 128 * (job - jr * u.pieces);
    const int row = u.m0 + jr * R + lane / L, d0 = c0 + sub * C;
    const bool live = row < u.m1;
    const int rrow = live ? row : u.m0;
    float4 v[V];
    mrt_sum_splits<V, 2>(o.part + (long long)rrow * e.N + d0, (long long)e.M * e.N, o.nsplit, v);
    uint4 wq[C / 8]; /* w_qn of the lane's columns, 8 bf16 a word */
#pragma unroll
    for (int k = 0; k < C / 8; k++) wq[k] = *(const uint4 *)(e.w_qn + d0 + 8 * k);
    float y[C], amax = 0;
    double a[C];
#pragma unroll
    for (int c = 0; c < C; c++) {
        const float4 &f = v[c / 4];
        const float q = mrt_round_bf16(c % 4 == 0 ? f.x : c % 4 == 1 ? f.y : c % 4 == 2 ? f.z : f.w);
        y[c] = __fmul_rn(mrt_bf16_to_f32(mrt_chunk_bf16(wq[c / 8], c % 8)), q);
        a[c] = (double)q * (double)q;
        amax = fmaxf(amax, fabsf(y[c]));
    }
#pragma unroll
    for (int x = L / 2; x > 0; x >>= 1) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, x));
    const float s = mrt_block_scale(fmaxf(0.0f, amax));
#pragma unroll
    for (int st = 16; st >= C; st >>= 1) /* butterfly steps across lanes */
#pragma unroll
        for (int c = 0; c < C; c++) a[c] += __shfl_xor_sync(0xffffffffu, a[c], st / C);
#pragma unroll
    for (int st = C / 2; st > 0; st >>= 1) /* and within the lane */
#pragma unroll
        for (int c = 0; c < st; c++) a[c] += a[c + st];
    double ss = 0; /* virtual warps 0..3 in order: warp w's sum is at lanes w * 32 / C .. */
#pragma unroll
    for (int w = 0; w < 4; w++) ss += __shfl_sync(0xffffffffu, a[0], first + w * (32 / C));
    if (!live) return;
    mrt_mega_store_e4m3<C>(e.qr8 + (size_t)row * e.q_lora + d0, [&](int c) { return __fdiv_rn(y[c], s); });
    if (sub == 0) {
        e.sqr[row * (e.q_lora / 128) + c0 / 128] = s;
        e.ssq_out[row * (e.q_lora / 128) + c0 / 128] = (float)ss;
    }
}

template <int R, int RQ>
static __device__ void mrt_mega_fin_job(const mrt_mega_op &o, const mrt_mega_fin_unit &u, int job, const mrt_grp &g,
                                        mrt_mega_fin_smem &sm, int gi) {
    const mrt_epi_args &e = o.epi;
    /* several rows a job (one-warp groups: mrt_mega_iq_rows_of, mrt_mega_qa_rows_of) */
#if MRT_MEGA_IQ_RFAC
    if constexpr (R > 1) {
        if (u.rows > 1 && o.epi_kind == MRT_EPI_INDEX_Q) {
            mrt_mega_iq_rows_job<R>(o, u, job);
            g.sync(); /* the job's stores before its group's signals (thread 0's release) */
            return;
        }
    }
#endif
    if constexpr (RQ > 1) {
        if (u.rows > 1 && o.epi_kind == MRT_EPI_QKV_A) {
            mrt_mega_qa_rows_job<RQ>(o, u, job);
            g.sync(); /* as above */
            return;
        }
    }
    const int jr = mrt_smalldiv_q(job, u.per_row), N = e.N, row = u.m0 + jr, pc = job - jr * u.pieces;
    int c0 = u.u0, c1 = u.u1; /* the job's columns: QKV_A kv, INDEX_K (whole unit) */
    if (o.epi_kind == MRT_EPI_QKV_A && u.u0 < e.q_lora) c0 = u.u0 + 128 * pc, c1 = c0 + 128;
    if (o.epi_kind == MRT_EPI_Q_B) c0 = max(u.u0, (u.h0 + pc) * u.width), c1 = min(u.u1, (u.h0 + pc + 1) * u.width);
    if (o.epi_kind == MRT_EPI_INDEX_Q) c0 = (u.h0 + pc) * e.dim, c1 = c0 + e.dim;
    /* An INDEX_Q job loads its row inputs (pos -> RoPE pair, gate partials, q_a block sums)
     * before the split planes, so the RoPE pair's two dependent round trips run beside the
     * planes' and the read-back's instead of after them (D1's finalization is on the critical
     * path). The same values and sums in the same order: the same bytes. Measured (H200,
     * session 15 runs 1-2, as -DMRT_MEGA_IQ_INPUTS_FIRST): mega -0.4 us roundrobin (six A B
     * pairs, -1.4 .. +0.4), -1.0 / -1.3 critical-path; D1 computed -> published 8.5 -> 8.0. */
    if (mrt_mega_iq_loads_first(o)) {
        mrt_epi_iq_loads l = mrt_epi_index_q_load(g, e, row, u.h0 + pc);
#if MRT_MEGA_IQ_RFAC
        l.r = mrt_mega_iq_rfac[row - u.m0], l.has_r = 1; /* the tile's warp 3 (above) */
#endif
        const mrt_epi_row cr = mrt_epi_sum_columns(g, o.part, sm.sumg(g, gi), (long long)e.M * N, o.nsplit, N, row, c0, c1);
        g.sync();
        MRT_MEGA_JOB_STAMP(MRT_PH_VISIBLE);
        for (int rep = 0; rep < MRT_MEGA_JOB_REPS; rep++) {
#if defined(MRT_MEGA_FIN_PROBE) && MRT_MEGA_FIN_PROBE >= 4
            mrt_epi_index_q_t<true>(g, e, cr, row, u.h0 + pc, l, sm.fsg(g, gi), sm.rowg(g, gi),
                                    mrt_mega_iq_probe{sm.probe, gi == 0 && g.tid == 0});
            g.sync();
#else
            mrt_epi_index_q_t<true>(g, e, cr, row, u.h0 + pc, l, sm.fsg(g, gi), sm.rowg(g, gi));
            g.sync(); /* as below */
            MRT_MEGA_JOB_STAMP(rep ? MRT_PH_WEIGHTS : MRT_PH_INPUT);
#endif
        }
        return;
    }
    const mrt_epi_row cr = mrt_epi_sum_columns(g, o.part, sm.sumg(g, gi), (long long)e.M * N, o.nsplit, N, row, c0, c1);
    g.sync();
    MRT_MEGA_JOB_STAMP(MRT_PH_VISIBLE);
    for (int rep = 0; rep < MRT_MEGA_JOB_REPS; rep++) {
        switch (o.epi_kind) {
        case MRT_EPI_QKV_A:
            if (u.u0 < e.q_lora) mrt_epi_qkv_a_q(g, e, cr, row, c0, sm.dsg(g, gi), sm.fsg(g, gi));
            else mrt_epi_qkv_a_kv(g, e, cr, row, sm.dsg(g, gi), sm.fsg(g, gi));
            break;
        case MRT_EPI_INDEX_K: mrt_epi_index_k(g, e, cr, row, sm.dsg(g, gi), sm.fsg(g, gi), sm.rowg(g, gi)); break;
        case MRT_EPI_Q_B: {
            const int h = u.h0 + pc;
            mrt_epi_q_b(g, e, cr, row, h, c0 - h * u.width, c1 - h * u.width, sm.rowg(g, gi));
            break;
        }
        default: mrt_epi_index_q(g, e, cr, row, u.h0 + pc, sm.fsg(g, gi), sm.rowg(g, gi)); break;
        }
        g.sync(); /* the group's next job writes what this epilogue may still read */
        MRT_MEGA_JOB_STAMP(rep ? MRT_PH_WEIGHTS : MRT_PH_INPUT);
    }
}

/* A lone tile's finalization: all of its unit's jobs, three groups of 128 threads side by
 * side (named barriers 2-4). */
static __device__ void mrt_mega_finalize(const mrt_mega_op &o, const uint32_t *pl, mrt_mega_fin_smem &sm) {
    const mrt_mega_fin_unit u = mrt_mega_fin_unit_of(o, pl, 1, 1);
    const int gi = (int)threadIdx.x / 128;
    const mrt_grp g = {(int)threadIdx.x - gi * 128, 128, 2 + gi};
    for (int job = gi; job < u.jobs; job += MRT_MEGA_GROUPS) mrt_mega_fin_job<1, 1>(o, u, job, g, sm, gi);
}

/* A reduce group's finalization counter, epoch-scaled (no reset between steps): jobs claimed. */
struct mrt_mega_fin_ctr {
    unsigned *claim;
    unsigned epoch;
};
/* A job is claimed by one atomicAdd (a load and a CAS loop before: 12 groups of 128 threads
 * contend for one word, and a failed CAS is another round trip; with a done count then,
 * mega 110.5 / 110.2 us against 112.4 / 112.5, H200, session 11 run 2). The claim word
 * counts jobs, epoch-scaled: step e hands out (e-1)*jobs .. e*jobs-1 (modulo 2^32); a claim
 * past them takes itself back, so the word is e*jobs when the step's launch ends and the
 * next step starts from its base without a reset. A value below e*jobs is handed out once:
 * take-backs only undo claims that were past it. Measured and dropped (H200, session 29 run
 * 2, -DMRT_MEGA_FIN_STATIC_FIRST): the member completing the ticket running jobs 0 .. G-1
 * unclaimed (one atomic round trip less before them) was level or slower: M=16 KV=8192 67.43
 * / 67.74 against 67.15 / 67.22 us, M=64 KV=8192 109.01 against 108.20, M=128 KV=1024 161.02
 * against 160.96; same bytes, racecheck clean. */
static __device__ __forceinline__ int mrt_mega_claim(const mrt_mega_fin_ctr &c, int jobs) {
    const unsigned t = atomicAdd(c.claim, 1u) - (c.epoch - 1u) * (unsigned)jobs;
    if (t < (unsigned)jobs) return (int)t;
    atomicSub(c.claim, 1u);
    return -1;
}

/* A member's part of its group's finalization (every member's partial visible): group gi
 * (mrt_mega_fin_threads threads) claims jobs until none is left, and its thread 0 performs
 * the group's finalizer signals after each job (PUB: the instruction's MRT_PUB_BY_FINALIZER
 * red.release adds, after the job's closing barrier). The group's split-0 member added
 * increment * (1 - jobs) to each of those events when it started its tile (mega.cu), so the
 * unit adds its increment once, with its last job. That correction comes before the
 * member's ticket (its acq_rel add releases it) and every job after the group is complete,
 * so it precedes every job's add in the counter's order: a count is seen below the sum of
 * the units finished, never above it (a watchdog record's "seen" may show the deficit).
 * Until session 31 each job added to a done count (a release add whose result was looked
 * at) and the job completing it acquired (fence) and signalled: that round trip and the
 * fence stood between the last job's stores and the consumers. Measured (H200, session 31
 * run 3, A B in one run, as -DMRT_MEGA_JOB_SIGNALS): M=16 KV=8192 65.79 / 65.94 us against
 * 66.61 / 66.91, KV=1024 60.59 / 60.97 against 61.08 / 61.42, KV=65536 117.05 against
 * 119.24, M=1 KV=8192 60.28 against 61.88, M=64 KV=8192 108.31 against 109.30, M=128
 * KV=1024 160.37 against 160.77, KV=65536 363.81 against 366.64; mega = serial bytes
 * (test_mega_prefix 95 passed, `megartp run` digests at three shapes). */
/* -DMRT_MEGA_FIN_PROBE (diagnostic builds): a traced member's "weights issued" stamp becomes
 * the moment its CTA knows the group complete (mega.cu) and "visible" the moment its group 0
 * finished its first job, so computed -> weights -> visible -> published splits a
 * finalization into the ticket and the wait for the group, the claim and one job, and the rest
 * (later jobs, the last claim, the signals). A member whose group 0 got no job keeps the
 * instruction's own "visible" stamp (seen as a negative phase).
 * -DMRT_MEGA_FIN_PROBE=2: group 0's first job by phase instead: "weights issued" its claim
 * returned, "visible" its loads landed (the split planes summed into shared memory, the row
 * inputs), "input ready" its epilogue done (its stores issued). =3: the same, but the
 * epilogue twice, "weights issued" after the second (mrt_mega_fin_job). Session 31 run 2
 * (M=16 KV=8192, the members whose group 0 got a job, medians): B0 computed -> claim 1.95,
 * loads 0.86, epilogue 1.82 (1.34 on warm instruction caches), -> published 2.05 us; D1
 * 1.76, 0.99, 2.62 (2.34), 2.50; with the jobs signalling (run 5) -> published 1.54 for
 * both, the phases before it as they were. Measured and dropped (session 32 run 1,
 * -DMRT_MEGA_QA_WEIGHTS_FIRST): a QKV_A q unit's group loading its w_qn factors once before
 * its first claim, level at M <= 64 (M=16 KV=8192 65.80 / 65.89 against 66.10 / 65.76 us),
 * M=128 KV=1024 161.59 against 159.35. */
template <int R, int RQ, class PUB>
static __device__ void mrt_mega_finalize_claimed(const mrt_mega_op &o, const uint32_t *pl, mrt_mega_fin_smem &sm,
                                                 const mrt_mega_fin_ctr &c, const mrt_grp &g, int gi, const PUB &pub
#ifdef MRT_MEGA_FIN_PROBE
                                                 , unsigned long long *ph
#endif
) {
    const mrt_mega_fin_unit u = mrt_mega_fin_unit_of(o, pl, R, RQ);
#ifdef MRT_MEGA_FIN_PROBE
    bool first = true;
#endif
    for (;;) {
        if (g.tid == 0) {
            const int j = mrt_mega_claim(c, u.jobs);
            sm.job[gi] = j;
#if MRT_MEGA_FIN_PROBE >= 2
            if (gi == 0) sm.probe = ph && first && j >= 0 ? ph : nullptr;
            if (MRT_MEGA_FIN_PROBE == 2 && gi == 0 && sm.probe) ph[MRT_PH_WEIGHTS] = mrt_globaltimer();
#endif
        }
        g.sync();
        const int job = sm.job[gi];
        if (job < 0) break;
        mrt_mega_fin_job<R, RQ>(o, u, job, g, sm, gi); /* its closing barrier orders this read before the next claim */
#if defined(MRT_MEGA_FIN_PROBE) && MRT_MEGA_FIN_PROBE == 1
        if (ph && gi == 0 && g.tid == 0 && first) ph[MRT_PH_VISIBLE] = mrt_globaltimer();
#endif
        if (g.tid == 0) pub();
#ifdef MRT_MEGA_FIN_PROBE
        first = false;
#endif
    }
}

#endif
