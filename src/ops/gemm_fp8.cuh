/* FP8 e4m3 block-scaled GEMM, the compute role (the other roles are in gemm_core.cuh).
 *
 *   C[m, n] = sum_kb ( sum_{k in K block kb} x8[m, k] * W[n, k] ) * sx[m, kb] * sw[n/128, kb]
 *   x8 [M, K] e4m3 row-major, sx [M, K/128] f32; W [N, K] e4m3 row-major, sw [ceil(N/128), K/128].
 *
 * Swap-AB: each consumer warpgroup multiplies its 64 weight rows (wgmma's M) by the TN tokens
 * of the tile (wgmma's N), both operands K-major as 8-bit wgmma requires. Promotion per 128-K
 * block: the four k32 wgmmas of a block accumulate into a fresh register tile (the first
 * one with scale-d = 0), then acc += tile * (sw * sx[m]) in fp32. The CTA's 128 weight rows
 * are one 128x128 weight-scale block, so sw is a scalar per K block and only sx varies along
 * the tile's columns. A tall tile (MRT_GEMM_FP8_TALL, RB = 2 below) is two such blocks: each
 * warpgroup runs a chain for each, with its own sw. (The fp8 tensor-core accumulator is not full fp32 across many K; one
 * 128-K block at a time keeps its error small, then fp32 FMAs take over.) */
#ifndef MRT_GEMM_FP8_CUH
#define MRT_GEMM_FP8_CUH

#include "gemm_core.cuh"

/* -DMRT_GEMM_SCALES_LATE=N (experiment, docs/MEGAKERNEL.md session 17 next step 2): at TN <=
 * N, K block 0's wgmmas need only their stage; the consumers wait for the scales (gathered
 * after the event wait, from HBM for the weights') before its promotion instead of before the
 * loop. At every TN (H200, session 18 run 1): mega M=16 KV=8192 84.9 against 86.6 us, M=128
 * 227.0 against 224.2, serial +0.5, cmp +0.9; at TN <= 64 over the opaque words offset (run
 * 2): level at M=16 and M=1, -2.4 us at M=16 KV=65536, +0.5 at M=64. Not taken. */
#ifndef MRT_GEMM_SCALES_LATE
#define MRT_GEMM_SCALES_LATE 0
#endif
/* -DMRT_GEMM_DIAG_WGMMAS=N (diagnostic builds, results wrong): N of a K block's four k32
 * wgmmas, so the GEMM probe's K block 0 -> last splits a K block's ~0.4 us into the wgmmas'
 * share and the rest (barriers, promotion, the ring). */
#ifndef MRT_GEMM_DIAG_WGMMAS
#define MRT_GEMM_DIAG_WGMMAS 4
#endif
/* -DMRT_GEMM_PROBE_WAITS (diagnostic, with -DMRT_GEMM_PROBE): the probe's "last K block
 * ready" stamp becomes K block 0's plus the time consumer thread 0 spent in the full waits of
 * K blocks 1.., so the probe's K block 0 -> last splits into waiting for stages and the rest. */
#if defined(MRT_GEMM_PROBE_WAITS) && !defined(MRT_GEMM_PROBE)
#error "-DMRT_GEMM_PROBE_WAITS needs -DMRT_GEMM_PROBE"
#endif
/* -DMRT_GEMM_PROBE_SX (diagnostic, with -DMRT_GEMM_PROBE): the probe's "last K block ready"
 * stamp becomes the activation loader's scales gathered (gemm_core.cuh mrt_gemm_aload), so
 * the input -> K block 0 of a tile splits into its scales and the rest (the activations' TMA,
 * K block 0's wgmmas): session 41's probe had D0 at M=128 9.9 us there with the loads (~2 at
 * M=16), and gathering the scales by cp.async did not shorten those tiles. */
#if defined(MRT_GEMM_PROBE_SX) && (!defined(MRT_GEMM_PROBE) || defined(MRT_GEMM_PROBE_WAITS))
#error "-DMRT_GEMM_PROBE_SX needs -DMRT_GEMM_PROBE and not -DMRT_GEMM_PROBE_WAITS"
#endif
/* -DMRT_GEMM_ACC_CHAINS=C (experiment, 1 or 2 or 4): a K block's four k32 wgmmas go to C
 * independent accumulators (k32 step kk to chain kk % C), summed in chain order before the
 * promotion. Why: the four wgmmas accumulate into one tile, each waiting for the one before,
 * and their chain is ~0.2 us of a K block's ~0.4 whether ptxas serializes them (C7510, the
 * megakernel's calls) or not (inlined): session 18 runs 4 and 6 (H200, GEMM probe). C > 1
 * can only overlap them where nothing serializes (the standalone kernels; the megakernel
 * with -DMRT_MEGA_INLINE_GEMM and -DMRT_MEGA_INLINE_E1). The sums' order changes the fp32
 * rounding: serial and mega built alike still agree in bytes. At TN <= 32 only. Session 19
 * run 1 (H200), C = 4: mega level, serial +0.7 us, cmp +0.5. Not taken. */
#ifndef MRT_GEMM_ACC_CHAINS
#define MRT_GEMM_ACC_CHAINS 1
#endif
/* MRT_GEMM_PIPE=N (docs/MEGAKERNEL.md session 19): at TN <= N (64 at most) K block i+1's
 * wgmmas run in a second register tile while K block i is promoted. Why: the GEMM probe with
 * -DMRT_GEMM_PROBE_WAITS (session 19 run 1, H200) has B0's consumers waiting for stages 0.58
 * us of the 4.51 from K block 0 to the last: the loop itself (wait<0> on four dependent
 * wgmmas, then the promotion) is the rate, not the weights' arrival. Issuing K block i+1
 * before waiting for K block i (run 2) held each stage one K block longer (mega M=64 +5 us);
 * now K block i's stage is released first. Run 3, N = 64: the probe's B0 K block 0 -> last
 * 4.00 against 4.26 us, D0 4.96 against 5.70. The promotion's order is unchanged (results
 * identical). Default 0 here; the megakernel sets 32 (MRT_MEGA_PIPE, mega.cu, with the
 * figures): in the standalone GEMMs it is slower (serial +0.9-1.9 us, cmp +1.2-2.6; runs 2-3). */
#ifndef MRT_GEMM_PIPE
#define MRT_GEMM_PIPE 0
#endif
static_assert(MRT_GEMM_PIPE <= 64, "MRT_GEMM_PIPE: at TN <= 64 at most (three register tiles)");
/* K block i's wgmmas (stage s): k32 step kk into chain kk % CH (CH = 1: all into tile, the
 * default), one commit group; the chains summed into tile once waited for (fp8_chains_sum).
 * RB row blocks of 128 (a tall tile's 2): row block r's 64 rows of this warpgroup into
 * tile[r], the k32 steps of the blocks interleaved (their chains independent). */
template <int TN, int CH, int RB>
static __device__ __forceinline__ void mrt_gemm_fp8_issue(float (&tile)[RB][TN / 2], float (&chain)[CH > 1 ? CH - 1 : 1][TN / 2],
                                                          uint32_t stage, int wg) {
    static_assert(RB == 1 || CH == 1, "a tall tile's row blocks are its chains");
    const mrt_sdesc_k_tn<TN> dw(stage + wg * 64 * MRT_GEMM_KB_BYTES);
    const mrt_sdesc_k_tn<TN> dx(stage + RB * mrt_gemm_kind<MRT_GEMM_FP8>::W_BYTES);
    mrt_wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < MRT_GEMM_DIAG_WGMMAS; kk++)
#pragma unroll
        for (int r = 0; r < RB; r++) {
            const uint32_t off = r * mrt_gemm_kind<MRT_GEMM_FP8>::W_BYTES + 32 * kk;
            if (kk % CH == 0) mrt_wgmma<TN>::e4m3(tile[r], dw(off), dx(32 * kk), kk / CH);
            else mrt_wgmma<TN>::e4m3(chain[kk % CH - 1], dw(off), dx(32 * kk), kk / CH);
        }
    mrt_wgmma_commit();
}
template <int TN, int CH, int RB>
static __device__ __forceinline__ void mrt_gemm_fp8_chains_sum(float (&tile)[RB][TN / 2], float (&chain)[CH > 1 ? CH - 1 : 1][TN / 2]) {
#pragma unroll
    for (int r = 0; r < RB; r++) mrt_reg_fence(tile[r]);
#pragma unroll
    for (int c = 0; c < CH - 1; c++) {
        mrt_reg_fence(chain[c]);
#pragma unroll
        for (int j = 0; j < TN / 2; j++) tile[0][j] += chain[c][j];
    }
}
/* acc += tile * (sw * sx[column]) for K block i: sw = sws[i], sx = this thread's first
 * column's scale of K block i (m-major, P = mrt_gemm_sx_pitch: gemm_core.cuh);
 * column 8c + 2q + j is 8c * P + j * P further. */
template <int TN>
static __device__ __forceinline__ void mrt_gemm_fp8_promote(float (&acc)[TN / 2], const float (&tile)[TN / 2], float sw,
                                                            const float *sx, int P) {
#pragma unroll
    for (int c = 0; c < TN / 8; c++) {
        const float s0 = sw * sx[8 * c * P], s1 = sw * sx[8 * c * P + P];
        acc[4 * c + 0] = fmaf(tile[4 * c + 0], s0, acc[4 * c + 0]);
        acc[4 * c + 1] = fmaf(tile[4 * c + 1], s1, acc[4 * c + 1]);
        acc[4 * c + 2] = fmaf(tile[4 * c + 2], s0, acc[4 * c + 2]);
        acc[4 * c + 3] = fmaf(tile[4 * c + 3], s1, acc[4 * c + 3]);
    }
}
/* The same for each of RB row blocks: row block r's weight scales at sws[r * kbp] (kbp: the
 * layout's K blocks a tile, gemm_core.cuh mrt_gemm_load_sw) */
template <int TN, int RB>
static __device__ __forceinline__ void mrt_gemm_fp8_promote_rb(float (&acc)[RB][TN / 2], const float (&tile)[RB][TN / 2],
                                                               const float *sws, int kbp, const float *sx, int P) {
#pragma unroll
    for (int r = 0; r < RB; r++) mrt_gemm_fp8_promote<TN>(acc[r], tile[r], sws[r * kbp], sx, P);
}
/* The consumers' full wait for a stage; probe builds with -DMRT_GEMM_PROBE_WAITS add the time
 * thread 0 spent in it to `waited` (K blocks after the first). */
struct mrt_gemm_fp8_waits {
#ifdef MRT_GEMM_PROBE_WAITS
    unsigned long long waited = 0;
#endif
    __device__ __forceinline__ void full(const mrt_gemm_bars &b, int s, uint32_t ph, unsigned *diag, int i, int ctid) {
#ifdef MRT_GEMM_PROBE_WAITS
        const unsigned long long tw = ctid == 0 ? mrt_globaltimer() : 0ull;
#else
        (void)i, (void)ctid;
#endif
        mrt_mbar_wait_full(b.full(s), ph, diag);
#ifdef MRT_GEMM_PROBE_WAITS
        if (ctid == 0 && i > 0) waited += mrt_globaltimer() - tw;
#endif
    }
};
/* After K block i's wgmmas completed: probe stamps, stage s released (each warp once its
 * wgmmas read it), the watchdog's progress word. */
static __device__ __forceinline__ void mrt_gemm_fp8_done(const mrt_gemm_bars &b, const mrt_gemm_progress &pr,
                                                         const mrt_gemm_fp8_waits &w, int s, int i, int nkb, int ctid, int lane, int wg) {
#ifdef MRT_GEMM_PROBE /* probe builds: when K block 0's and the last K block's data were ready */
    if (ctid == 0 && i == 0) pr.stamp(0);
#ifdef MRT_GEMM_PROBE_WAITS /* stamp 1 = stamp 0 + the waits: "last K block ready" - "K block 0
                               ready" becomes the time K blocks 1.. waited for their stage */
    if (ctid == 0 && i == nkb - 1) pr.stamps()[1] = pr.stamps()[0] + w.waited;
#elif !defined(MRT_GEMM_PROBE_SX) /* there the activation loader stamps 1 */
    if (ctid == 0 && i == nkb - 1) pr.stamp(1);
#endif
#endif
    (void)w, (void)nkb;
    __syncwarp();
    if (lane == 0) mrt_mbar_arrive(b.empty(s)); /* this warp is done reading stage s */
    if ((ctid & 127) == 0) pr.set(2 + wg, i + 1);
}
/* Run by the 256 consumer threads (ctid 0..255). Leaves the CTA's fp32 C tile transposed
 * into the staging area stg[m_local][n_local], visible to all consumer threads. RB: 128-row
 * blocks of the tile (MRT_GEMM_FP8_TALL: 2). */
template <int TN, int RB = 1>
static __device__ __forceinline__ void mrt_gemm_fp8_compute(const mrt_gemm_tile &t, const mrt_gemm_args &a,
                                                            uint32_t smem, const float *sxs, const float *sws,
                                                            const mrt_gemm_bars &b, const mrt_gemm_progress &pr, float *stg, int ctid) {
    constexpr int KIND = RB == 1 ? MRT_GEMM_FP8 : MRT_GEMM_FP8_TALL;
    typedef mrt_gemm_layout<KIND, TN> L;
    const int wg = ctid >> 7, lane = ctid & 31, q = lane & 3;
    float acc[RB][TN / 2], tile[RB][TN / 2];
#pragma unroll
    for (int rb = 0; rb < RB; rb++)
#pragma unroll
        for (int r = 0; r < TN / 2; r++) acc[rb][r] = 0.0f, tile[rb][r] = 0.0f;
    constexpr int CH = TN <= 32 && RB == 1 ? MRT_GEMM_ACC_CHAINS : 1; /* wider tiles have no registers to spare */
    float chain[CH > 1 ? CH - 1 : 1][TN / 2];               /* accumulators 1.. of the chains */
#pragma unroll
    for (int c = 0; c < CH - 1; c++)
#pragma unroll
        for (int j = 0; j < TN / 2; j++) chain[c][j] = 0.0f;
    if (TN > MRT_GEMM_SCALES_LATE) mrt_mbar_wait_full(b.scales(), 0, a.diag);
    /* read once: in the megakernel `a` is shared memory (the operand row), which every
     * mbarrier asm's memory clobber would have the compiler re-read (and spill) each K block
     * (ncu, H200, session 12 run 6). Mega 97.51 / 97.50 us against 98.19 / 97.99 re-read (run 7) */
    unsigned *const diag = a.diag;
    const int nkb = t.nkb, P = mrt_gemm_sx_pitch(a.kb_per_split), kbp = RB > 1 ? a.kb_per_split : 0;
    const float *const sxq = sxs + 2 * q * P + mrt_gemm_sx_col(t.kb0); /* this thread's first column's K block kb0 */
    mrt_ring r = {0, a.stages, 0u};
    mrt_gemm_fp8_waits w;
    if constexpr (CH == 1 && TN <= MRT_GEMM_PIPE && TN * RB <= 32) { /* a tall tile at TN 32: no third register tile */
        /* two register tiles. An iteration: K block i's wgmmas waited for, its stage released
         * at once, K block i+1's issued into the other tile, then K block i promoted while
         * they run. Only one group is ever pending, so the stage is held no longer than now.
         * K block 0 is issued unconditionally: nkb >= 1 (every split holds K blocks / split of
         * a divisor; plan.c), and a 0 would end in the full wait's watchdog, not a hang. */
        float tb[RB][TN / 2];
        mrt_ring rn = r; /* the ring of the K block issued next */
        /* K block i (its group in cur) waited for and released, K block i+1 issued into nxt,
         * K block i promoted; the two tiles swap roles from one K block to the next */
        auto step = [&](float(&cur)[RB][TN / 2], float(&nxt)[RB][TN / 2], int i) {
            mrt_wgmma_wait<0>();
#pragma unroll
            for (int rb = 0; rb < RB; rb++) mrt_reg_fence(cur[rb]);
            mrt_gemm_fp8_done(b, pr, w, r.s, i, nkb, ctid, lane, wg);
            r.next();
            if (i + 1 < nkb) {
                w.full(b, rn.s, rn.ph, diag, i + 1, ctid);
                mrt_gemm_fp8_issue<TN, CH, RB>(nxt, chain, smem + rn.s * L::STAGE_BYTES, wg);
                rn.next();
            }
            if (TN <= MRT_GEMM_SCALES_LATE && i == 0) mrt_mbar_wait_full(b.scales(), 0, diag);
            mrt_gemm_fp8_promote_rb<TN, RB>(acc, cur, sws + i, kbp, sxq + i, P);
        };
        w.full(b, rn.s, rn.ph, diag, 0, ctid);
        mrt_gemm_fp8_issue<TN, CH, RB>(tile, chain, smem + rn.s * L::STAGE_BYTES, wg);
        rn.next();
        for (int i = 0; i < nkb; i += 2) { /* on entry K block i's group (tile) is pending */
            step(tile, tb, i);
            if (i + 1 >= nkb) break;
            step(tb, tile, i + 1);
        }
    } else {
        for (int i = 0; i < nkb; i++, r.next()) {
            w.full(b, r.s, r.ph, diag, i, ctid);
            mrt_gemm_fp8_issue<TN, CH, RB>(tile, chain, smem + r.s * L::STAGE_BYTES, wg);
            mrt_wgmma_wait<0>();
            mrt_gemm_fp8_chains_sum<TN, CH, RB>(tile, chain);
            mrt_gemm_fp8_done(b, pr, w, r.s, i, nkb, ctid, lane, wg);
            /* scales late (MRT_GEMM_SCALES_LATE above): first read by K block 0's promotion */
            if (TN <= MRT_GEMM_SCALES_LATE && i == 0) mrt_mbar_wait_full(b.scales(), 0, diag);
            mrt_gemm_fp8_promote_rb<TN, RB>(acc, tile, sws + i, kbp, sxq + i, P);
        }
    }
    mrt_consumer_sync(); /* both warpgroups have read every stage: staging may overwrite them */
#pragma unroll
    for (int rb = 0; rb < RB; rb++) mrt_gemm_stage_acc<KIND, TN>(stg, acc[rb], rb * 128 + wg * 64, ctid);
    mrt_consumer_sync();
}

#endif
