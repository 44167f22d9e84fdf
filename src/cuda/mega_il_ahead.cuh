/* E1's keys ahead (the megakernel; docs/MEGAKERNEL.md session 35): while a GEMM tile runs, its
 * idle warp 3 starts copying the first passes of the worker's next instruction's keys, when
 * that is a wgmma E1 tile, into the E1 keys' region of shared memory (index_logits_wg.cuh, APART
 * layouts), so the E1 tile starts with its keys there and pays one round trip (its queries)
 * instead of three (block-table lookups, keys, then the queries' wait behind them).
 *
 * Why: E1's tile is on the step's critical path (A0 -> B0 -> D1 -> E1 -> F1) and its loads
 * are most of it. A diagnostic build whose E1 tiles copied no keys (H200, session 35 run 1,
 * logits wrong) took E1's input -> computed from 10.4 to 7.1 us a task at M=16 KV=8192 (the
 * step -1.5 us, D0 -> D2 then ends it) and from 18.5 to 9.9 at M=16 KV=65536 (step 114.7 ->
 * 94.9). The D1 tiles that precede E1 on their workers wait ~13 us for B0's output with warp
 * 3 idle: the keys' copies fit there.
 *
 * Which keys: a key is this step's work only at or past the request's first position (the
 * cache write, B1, writes the tokens' own rows, positions pos[t]); every key before is the
 * previous steps', read-only for the whole step, so it needs no event: the whole cache blocks
 * of keys [j0, jend), jend <= min(j1, first position, j0 + the tile's key buffers). The tile
 * copies the rest of those passes itself, after its events and with its queries, from the
 * block-table entries stored here (no lookup round trip).
 *
 * The copies are TMA: a block's keys one box of the op row's map (`tw`: the cache as rows of
 * 128 bytes, swizzled as wgmma reads them) and its scales one bulk copy, all issued by one
 * thread on the region's mbarrier, which the E1 tile waits on before its first pass and
 * invalidates after. (cp.async from the warp's 32 lanes, the first form, held the GEMM tile:
 * its lanes issued ~72 copies each at the memory's pace, up to ~10 us past the tile's own end
 * with D0 streaming, H200 session 35 run 2: every shape 1.7-11.7 us slower.) Nothing here
 * waits on another CTA. */
#ifndef MRT_MEGA_IL_AHEAD_CUH
#define MRT_MEGA_IL_AHEAD_CUH

#include "index_logits_wg.cuh"
#include "mega_op.h"

/* -DMRT_MEGA_IL_AHEAD=0: no keys ahead (the E1 tiles copy all their keys, as before session 35). */
#ifndef MRT_MEGA_IL_AHEAD
#define MRT_MEGA_IL_AHEAD 1
#endif

/* The keys' region's offset in a CTA's `usable` bytes of dynamic shared memory (from the
 * 1024-aligned base): its top, 1024-aligned. The E1 tiles' other buffers, and anything of a
 * GEMM tile's worker from its tile to the next instruction (its finalization's scratch), lie
 * below it (mega_table.cu checks the first; a GEMM tile's layout is checked per tile). */
static __host__ __device__ inline int mrt_mega_il_keys_off(int usable) {
    return (usable - mrt_ilw_keys_region<MRT_ILW_STAGES>::BYTES) & ~1023;
}

/* What a GEMM tile's warp 3 needs to find the worker's next instruction: its words (global
 * memory; NULL after the queue's last slot) and the operand table. */
struct mrt_mega_ahead {
    const uint32_t *next;
    const mrt_mega_op *ops;
    uint8_t *region; /* the E1 keys' region (1024-aligned), NULL: none */
    int *tag;        /* shared memory outside the region: the slot whose keys are ahead, -1: none */
    int slot;        /* the next instruction's slot */
};

/* The E1 tile at the slot whose keys are ahead: keys [j0, jend) of its region. */
static __device__ __forceinline__ int mrt_mega_il_jend(const uint8_t *region) {
    return ((const mrt_ilw_ahead *)(region + mrt_ilw_keys_region<MRT_ILW_STAGES>::HDR_OFF))->jend;
}
/* One thread, after that tile: its copies have landed (the tile waited for them unless it had
 * no pass to use them in) before the region's mbarrier is invalidated, and the region is
 * anything else. */
static __device__ __forceinline__ void mrt_mega_il_done(uint8_t *region, unsigned *diag) {
    const uint32_t bar = mrt_smem_u32(region + mrt_ilw_keys_region<MRT_ILW_STAGES>::HDR_OFF);
    long long t0 = clock64();
    while (!mrt_mbar_try(bar, 0))
        if (clock64() - t0 > 2 * MRT_SPIN_LIMIT_CYCLES) mrt_diag_trap(diag, MRT_DIAG_FULL_WAIT, bar, 0, 0, 0);
    mrt_mbar_inval(bar);
}

/* Warp 3 (lane 0..31) of a GEMM tile whose layout uses `used` bytes from the base: the next
 * instruction's keys ahead, if it is a wgmma E1 tile whose row has the keys' map, its keys
 * start on a block and the region lies past `used`. A call (noinline), so that the GEMM
 * tiles' registers are allocated as without it: inlined, the TN-128 tiles spilled more (fp8
 * 220 / 504 bytes of spill stores / loads against 188 / 344) and the M=128 steps lost 6-8 us
 * (H200, session 35 run 3). */
static __device__ __noinline__ void mrt_mega_il_ahead(const mrt_mega_ahead &ah, uint8_t *smem, uint32_t used,
                                                      int lane) {
    typedef mrt_ilw_keys_region<MRT_ILW_STAGES> R;
    if (!MRT_MEGA_IL_AHEAD || !ah.next || !ah.region || ah.region < smem + used) return;
    const uint32_t w0 = __ldg(ah.next);
    if ((w0 & 0xFFu) != MRT_OPC_INDEX_LOGITS) return;
    const mrt_mega_op &o = ah.ops[__ldg(ah.next + 1)];
    const mrt_index_logits_args &a = o.il;
    const int rows = o.il_rows, bt = a.block_tokens;
    if (!rows || (a.heads != 32 && a.heads != 64)) return; /* the mma.sync tile keeps its own layout */
    const int b = (int)__ldg(ah.next + 24), j0 = (int)__ldg(ah.next + 25), j1 = (int)__ldg(ah.next + 26);
    const int jcap = min(j1, j0 + MRT_ILW_STAGES * MRT_ILW_KEYS); /* the tile's key buffers */
    const int bfirst = j0 / bt, nblk = jcap > j0 ? (jcap - 1) / bt - bfirst + 1 : 0;
    if (j0 % bt || nblk <= 0 || nblk > MRT_ILW_AHEAD_BLKS) return;
    /* the request's first position (its tokens' rows are this step's cache write) and the
     * block-table entries: both round trips at once */
    int first = 0x7fffffff;
    for (int t = lane; t < a.n; t += 32) first = min(first, a.pos[b * a.n + t]);
    mrt_ilw_ahead *h = (mrt_ilw_ahead *)(ah.region + R::HDR_OFF);
    const int *btr = a.block_table + (long long)b * a.bpr;
    for (int i = lane; i < nblk; i += 32) h->blk[i] = btr[bfirst + i];
#pragma unroll
    for (int d = 16; d; d >>= 1) first = min(first, __shfl_xor_sync(0xffffffffu, first, d));
    const int nfull = (max(j0, min(jcap, first)) - j0) / bt; /* whole blocks before it */
    __syncwarp(); /* every lane's block-table entries stored */
    if (lane != 0 || nfull == 0) return;
    const uint32_t bar = mrt_smem_u32(&h->bar), dst = mrt_smem_u32(ah.region);
    const uint32_t ks = mrt_smem_u32(ah.region + R::KS_OFF);
    mrt_mbar_init(bar, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    mrt_mbar_arrive_tx(bar, (uint32_t)(nfull * bt * (MRT_IL_DIM + 4)));
    const uint64_t pol = mrt_policy_evict_first();
    for (int i = 0; i < nfull; i++) { /* key k = i bt: pass k / 128, row k % 128 (buffers adjacent) */
        const int blk = h->blk[i];
        mrt_tma_load_2d(dst + i * bt * 128, &o.tw, 0, blk * rows, bar, pol);
        mrt_bulk_load(ks + i * bt * 4, a.cache + (long long)blk * a.block_bytes + (long long)bt * MRT_IL_DIM,
                      (uint32_t)bt * 4, bar);
    }
    h->jend = j0 + nfull * bt, h->bfirst = bfirst, h->nblk = nblk, *ah.tag = ah.slot;
}

#endif
