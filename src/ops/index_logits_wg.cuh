/* index_logits (E1) on warpgroup MMA (wgmma, e4m3 x e4m3): the same tile as index_logits.cuh
 * (request b, keys [j0, j1), 256 threads), computed as D[keys x (token, head)] = K Q^T by the
 * two warpgroups, 64 keys each, both operands in shared memory exactly as stored (no
 * conversion: a key or a query head is 128 e4m3 codes = one 128-byte swizzle row).
 *
 * Why: the mma.sync tile is issue-bound (index_logits.cuh); at long context E1 is most of the
 * step (H200, session 6: 136 us of 280 at M=64 KV=65536, ~250 TFLOP/s). A first wgmma version
 * (session 6, f16: codes converted into shared memory, queries re-converted every pass, no
 * overlap of loads and MMAs) ran slower than mma.sync (H200, session 7: 9.76 against 8.27 us
 * at M=16 kv=8192 chunk 128; 168 against 142 us at M=64 kv=65536): the conversions and the
 * serialized pass, not the MMAs, were its time. This version converts nothing, keeps a group
 * chunk's queries resident in shared memory for all of the tile's keys, and copies the next
 * STAGES - 1 passes of 128 keys (the standalone kernels by cp.async, 4 buffers; the megakernel
 * by TMA, 2 buffers: mrt_ilw_maps) while the current one is multiplied. Measured (H200,
 * session 7): E1 7.53 -> 6.73-7.19 us at M=16 KV=8192, 138 -> 80-85 us at M=64 b=8 KV=65536
 * (bench/RESULTS.md).
 *
 * Layout: rows = keys (wgmma M = 64 per warpgroup), columns = (token, head) of a group of
 * TPG = 128 / heads tokens (wgmma N = 128), K = the 128 dims in four k32 steps. Operands are
 * K-major with the 128-byte swizzle: 16-byte chunk c of row r at chunk c ^ (r & 7).
 *
 * Loop: for each chunk of up to GROUPS token groups (the standalone kernels 2, a request's
 * 8 tokens at M=16 and 32 heads; the megakernel 8: MRT_MEGA_ILW_GROUPS, mega_op.h): copy
 * their queries, head weights, positions; then
 * for each pass of 128 keys: wait for its keys, then per group one wgmma chain (4 x
 * m64n128k32) and the epilogue from the accumulator fragment (wgmma_ops.cuh: d[4c + 2i + j]
 * = row 16w + l/4 + 8i, column 8c + 2(l%4) + j): relu, times wI, summed over the token's heads
 * (a thread's 8c-columns in order, then the quad's lanes by xor 1, 2), times the key's scale,
 * -inf past the token's position.
 *
 * Numerics: products of e4m3 codes are exact; Hopper's FP8 tensor cores add them with a
 * narrower accumulator than fp32 (measured against fp64: rel err 0.5-2e-4), and the sum
 * order differs from the mma.sync tile's, so the logits differ from variant 0's in the last
 * bits; every executor runs this same tile, so they agree with each other byte for byte. */
#ifndef MRT_INDEX_LOGITS_WG_CUH
#define MRT_INDEX_LOGITS_WG_CUH

#include "gemm_core.cuh" /* mrt_sdesc_k, mrt_wgmma_fence / commit / wait, mrt_reg_fence */
#include "index_logits.cuh"
#include "wgmma_ops.cuh"
#ifdef MRT_ILW_DIAG_FIRST_PASS
#include "stamp.cuh" /* mrt_globaltimer */
#endif

#define MRT_ILW_KEYS 128  /* keys a pass: 64 a warpgroup */
#define MRT_ILW_GROUPS 2  /* token groups (128 query columns each) resident at a time */
#ifndef MRT_ILW_STAGES
#define MRT_ILW_STAGES 2  /* key buffers: passes in flight (the executors' tile) */
#endif

/* Shared memory (from a 1024-aligned base): keys [STAGES buffers][128 rows][128 B], queries
 * [GROUPS][128 rows][128 B], key scales [STAGES][128], wI [GROUPS][128], positions [GROUPS][16].
 * GROUPS: token groups resident at a time; a tile with more groups runs its keys once per
 * GROUPS of them (the block-table lookups, the key copies and every pass again). */
template <int STAGES = MRT_ILW_STAGES, int GROUPS = MRT_ILW_GROUPS> struct mrt_ilw_layout {
    static_assert(GROUPS >= 1 && GROUPS <= 16, "wgmma E1: 1..16 resident token groups (positions: 16 threads a group)");
    static_assert((GROUPS * 16 * 4) % 8 == 0, "mbarriers 8-byte aligned");
    static constexpr int KEY_BYTES = MRT_ILW_KEYS * 128, Q_BYTES = 128 * 128;
    static constexpr int A_OFF = 0;
    static constexpr int B_OFF = A_OFF + STAGES * KEY_BYTES;
    static constexpr int KS_OFF = B_OFF + GROUPS * Q_BYTES;
    static constexpr int WI_OFF = KS_OFF + STAGES * MRT_ILW_KEYS * 4;
    static constexpr int POS_OFF = WI_OFF + GROUPS * 128 * 4;
    /* TMA loads: STAGES key mbarriers, the queries', STAGES release mbarriers (RELEASE) */
    static constexpr int BAR_OFF = POS_OFF + GROUPS * 16 * 4;
    static constexpr int BYTES = BAR_OFF + (2 * STAGES + 1) * 8;
    static constexpr int SMEM_BYTES = BYTES + 1024; /* the caller's pointer is 16-byte aligned */
};

/* 16 bytes of global memory -> chunk c of swizzled row r at `ops` (zeros when src is NULL). */
static __device__ __forceinline__ void mrt_ilw_put(uint8_t *ops, int r, int c, const uint8_t *src) {
    uint8_t *dst = ops + r * 128 + ((c ^ (r & 7)) << 4);
    if (src) mrt_cp_async16(dst, src);
    else *(uint4 *)dst = make_uint4(0, 0, 0, 0);
}

/* Where keys [js, js + 128) of request b come from (codes and scales; NULL: at or past j1,
 * zeros): the block-table lookups, one round trip, apart from the copies they address, so
 * the first pass's lookups can be in flight before the tile's other copies are issued. */
struct mrt_ilw_keys_src {
    const uint8_t *row[MRT_ILW_KEYS * 8 / MRT_IL_THREADS];
    const float *scale;
};
/* -DMRT_ILW_DIAG_NOKEYS (diagnostic builds, logits wrong): no block-table lookups and no key
 * copies (the key buffers keep what shared memory held, the scales are 1), so a trace's E1
 * input -> computed is the tile without its keys' loads: what copying them ahead of the tile
 * could gain at most (H200, session 35 run 1: 10.4 -> 7.1 us a task at M=16 KV=8192, 18.5 ->
 * 9.9 at KV=65536; docs/MEGAKERNEL.md). */
static __device__ __forceinline__ mrt_ilw_keys_src mrt_ilw_keys_find(const mrt_index_logits_args &a, int b, int js,
                                                                     int j1, int tid) {
    mrt_ilw_keys_src s;
#ifdef MRT_ILW_DIAG_NOKEYS
    (void)a, (void)b, (void)js, (void)j1, (void)tid;
    for (int q = 0; q < MRT_ILW_KEYS * 8 / MRT_IL_THREADS; q++) s.row[q] = nullptr;
    s.scale = nullptr;
#else
    const int *bt = a.block_table + (long long)b * a.bpr;
#pragma unroll
    for (int q = 0; q < MRT_ILW_KEYS * 8 / MRT_IL_THREADS; q++) {
        const int u = tid + q * MRT_IL_THREADS, j = js + (u >> 3);
        s.row[q] = j < j1 ? mrt_il_key_row(a, bt, j) + (u & 7) * 16 : nullptr;
    }
    s.scale = tid < MRT_ILW_KEYS ? mrt_il_scale_src(a, bt, js + tid, j1) : nullptr;
#endif
    return s;
}
/* Starts copying the keys of `s` into key buffer `A` and their scales into `ks` (the caller
 * commits the group). */
static __device__ __forceinline__ void mrt_ilw_keys_copy(const mrt_ilw_keys_src &s, int tid, uint8_t *A, float *ks) {
#ifdef MRT_ILW_DIAG_NOKEYS
    (void)s, (void)A;
    if (tid < MRT_ILW_KEYS) ks[tid] = 1.0f;
#else
#pragma unroll
    for (int q = 0; q < MRT_ILW_KEYS * 8 / MRT_IL_THREADS; q++) {
        const int u = tid + q * MRT_IL_THREADS;
        mrt_ilw_put(A, u >> 3, u & 7, s.row[q]);
    }
    if (tid < MRT_ILW_KEYS) mrt_il_scale_copy(ks + tid, s.scale);
#endif
}
static __device__ __forceinline__ void mrt_ilw_keys_issue(const mrt_index_logits_args &a, int b, int js, int j1,
                                                          int tid, uint8_t *A, float *ks) {
    mrt_ilw_keys_copy(mrt_ilw_keys_find(a, b, js, j1, tid), tid, A, ks);
}

/* The megakernel's loads (TMA = true in mrt_index_logits_tile_wg): warp 0 issues a pass's keys
 * as one TMA box and one bulk copy of scales per cache block (or per 128 keys of a larger one),
 * after one block-table lookup a lane, and a token group's queries as one TMA box and its head
 * weights as one bulk copy; every thread waits on the pass's mbarrier. Why: in the step, half
 * of E1's warp stall samples are instruction fetch (`stall_no_instruction`, H200, session 40
 * run 2, M=16 KV=8192), most of them in the prologue, whose per-thread copy code (the lookups
 * of 4 key rows and a scale, 8 query chunks, the head weights; 12 KB of SASS) runs once a step
 * with its code cold: from the tile's entry to thread 0's queries' copies issued took 2.8 us
 * (run 1, -DMRT_ILW_DIAG_FIRST_PASS=3 / 4). Measured (runs 3-4, A B in one run each): E1 9.2 ->
 * 7.6 us a task at M=16 KV=8192, the step 59.6-59.9 -> 58.1-58.6 us, M=128 KV=8192 175-176 ->
 * 170, M=16 KV=65536 +0.4 to +0.9, the other shapes level; issuing every buffer's pass in the
 * prologue (two passes in flight) lost 0.5-2.8 us at M <= 16. The standalone kernels keep the
 * cp.async copies. */
struct mrt_ilw_maps {
    const CUtensorMap *keys;    /* the cache as [blocks][block_tokens][128 codes], box 128 x mrt_ilw_box_rows x 1 */
    const CUtensorMap *queries; /* q8 as [M * heads][128 codes], box 128 x 128 */
    unsigned *diag;             /* the watchdog's record of a wait past its bound */
};
/* Keys a TMA box holds: a whole cache block, or 128 keys of a larger one (mega_table.cu admits
 * block_tokens >= 8 dividing 128 or a multiple of it, and chunks a multiple of this). */
static __host__ __device__ __forceinline__ int mrt_ilw_box_rows(int block_tokens) {
    return block_tokens < MRT_ILW_KEYS ? block_tokens : MRT_ILW_KEYS;
}
/* Warp 0: keys [js, min(js + 128, j1)) of request b and their scales into key buffer A / ks,
 * completing `bar`; lane i loads box i (one block-table lookup, one TMA box, one bulk copy of
 * its scales). Rows of the last box past j1 hold the block's other keys and boxes wholly past
 * j1 are not loaded: their logits are not stored. */
static __device__ __forceinline__ void mrt_ilw_keys_tma(const mrt_index_logits_args &a, const CUtensorMap *map, int b,
                                                        int js, int j1, int lane, uint8_t *A, float *ks, uint32_t bar) {
    const int R = mrt_ilw_box_rows(a.block_tokens), nbox = min(MRT_ILW_KEYS / R, (j1 - js + R - 1) / R);
    if (lane == 0) mrt_mbar_arrive_tx(bar, (uint32_t)(nbox * R * (MRT_IL_DIM + 4)));
    __syncwarp();
    if (lane < nbox) {
        const int j = js + lane * R, blk = (int)mrt_fastdiv_q((uint32_t)j, a.blocks), in_blk = j - blk * a.block_tokens;
        const int phys = a.block_table[(long long)b * a.bpr + blk];
        mrt_tma_load_3d(mrt_smem_u32(A + lane * R * 128), map, 0, in_blk, phys, bar);
        mrt_bulk_load(mrt_smem_u32(ks + lane * R),
                      a.cache + (long long)phys * a.block_bytes + (long long)a.block_tokens * MRT_IL_DIM + in_blk * 4,
                      (uint32_t)R * 4, bar);
    }
}
/* Warp 0: the queries of token groups g0 .. g0 + ng of the request at token t0 (a group's 128
 * rows, one box: rows past the request's tokens are the next request's or zeros, their columns
 * weigh 0 and are not stored) and its tokens' head weights (one bulk copy), completing `bar`. */
template <int TPG>
static __device__ __forceinline__ void mrt_ilw_queries_tma(const mrt_index_logits_args &a, const CUtensorMap *map,
                                                           int t0, int g0, int ng, int lane, uint8_t *B, float *wI_s,
                                                           uint32_t bar) {
    if (lane == 0)
        mrt_mbar_arrive_tx(bar, (uint32_t)(ng * 128 * 128 + min(ng * TPG, a.n - g0 * TPG) * a.heads * 4));
    __syncwarp();
    if (lane < ng) {
        const int t = (g0 + lane) * TPG, row = (t0 + t) * a.heads;
        mrt_tma_load_2d(mrt_smem_u32(B + lane * 128 * 128), map, 0, row, bar, mrt_policy_evict_last());
        mrt_bulk_load(mrt_smem_u32(wI_s + lane * 128), a.wI + row, (uint32_t)(min(TPG, a.n - t) * a.heads * 4), bar);
    }
}

/* A group's logits, from each lane's partial sums s[token][key] (its 8 head columns a token,
 * keys rows r and r + 8, r = 16 w + lane / 4 of its warpgroup's 64) to the quad's totals, by a
 * reduce-scatter: lane q of a quad ends with the totals of token tl = q (TPG 4: both keys)
 * or tl = q % 2 (TPG 2: key q / 2), so every lane stores KEYS logits of one token. The sums
 * are those of the all-reduce this replaced (own + xor-1 partner's, then + xor-2 partner's:
 * the same operands in the same order, so the same bytes) in 6 shuffles instead of 16 (TPG
 * 4; 3 instead of 8 at TPG 2), and the stores need no per-token branch: the all-reduce left
 * every lane all tokens, and a lane stored its token's in a loop over tokens that diverged
 * four ways, each way reloading the arguments, the position and the key scales from shared
 * memory after the previous way's global stores (the compiler cannot tell them apart):
 * 4.2 us of a 256-key tile's 13.5 at M=16 KV=8192, 29 of 71 at M=128 (H200, session 24
 * run 1, -DMRT_MEGA_IL_STOP=3 against 0). Lane q's keys: rows r + 8 i (TPG 4), r + 8 (q / 2)
 * (TPG 2): mrt_ilw_key_row. */
template <int TPG> struct mrt_ilw_sums {
    static_assert(TPG == 2 || TPG == 4, "wgmma E1: 32 heads (4 tokens a group) or 64 (2)");
    static constexpr int KEYS = TPG == 4 ? 2 : 1;
    float v[KEYS];
    int tl; /* this lane's token in the group */
};
/* the row (of the pass's 128 keys) of lane `lane`'s first logit: its key i is 8 i past it */
template <int TPG> static __device__ __forceinline__ int mrt_ilw_key_row(int wg, int w, int lane) {
    return 64 * wg + 16 * w + (lane >> 2) + (TPG == 2 ? 8 * ((lane & 3) >> 1) : 0);
}
template <int TPG>
static __device__ __forceinline__ mrt_ilw_sums<TPG> mrt_ilw_quad_sums(const float (&s)[TPG][2], int quad) {
    const bool b0 = (quad & 1) != 0, b1 = (quad & 2) != 0;
    mrt_ilw_sums<TPG> o;
    if constexpr (TPG == 4) {
#pragma unroll
        for (int i = 0; i < 2; i++) {
            /* xor 1: keep tokens b0 and b0 + 2, send the other two */
            const float u0 = (b0 ? s[1][i] : s[0][i]) + __shfl_xor_sync(0xffffffffu, b0 ? s[0][i] : s[1][i], 1);
            const float u2 = (b0 ? s[3][i] : s[2][i]) + __shfl_xor_sync(0xffffffffu, b0 ? s[2][i] : s[3][i], 1);
            /* xor 2: keep token b0 + 2 b1 = quad */
            o.v[i] = (b1 ? u2 : u0) + __shfl_xor_sync(0xffffffffu, b1 ? u0 : u2, 2);
        }
        o.tl = quad;
    } else {
        float u[2];
#pragma unroll
        for (int i = 0; i < 2; i++) /* xor 1: keep token b0 */
            u[i] = (b0 ? s[1][i] : s[0][i]) + __shfl_xor_sync(0xffffffffu, b0 ? s[0][i] : s[1][i], 1);
        o.v[0] = (b1 ? u[1] : u[0]) + __shfl_xor_sync(0xffffffffu, b1 ? u[0] : u[1], 2); /* xor 2: keep key b1 */
        o.tl = quad & 1;
    }
    return o;
}

/* RELEASE = N (template argument; the megakernel's TMA loads; 0: off): a key buffer is released by an
 * mbarrier every warp arrives at after its units of the pass (count: the tile's warps), not by
 * a CTA barrier closing each pass, and the keys are one stream over the tile's group chunks
 * (pass p of every chunk reads the same keys), so the next chunk's first keys are in flight
 * during this chunk's last passes; a CTA barrier closes only a chunk's last pass (its queries,
 * head weights and positions are rewritten). Warp 0 issues pass q + STAGES - 1's keys after
 * waiting for pass q - 1's release: at the start of pass q (N = 1), or after its own units of
 * pass q (N = 2, STAGES >= 3: its warpgroup does not wait for the slowest of pass q - 1).
 * Why: at M=128 KV=65536 a pass's 16 units fall 6/5/5 on the three warpgroups and the barrier
 * holds the two faster ones each pass (3 us of a ~37-us task without loads, H200, session 49
 * runs 2-3, scripts/wgmma_probe.cu), and each of a task's two chunks began with its first
 * keys' load exposed. An E1 task there 54.7 -> 51.9 us (session 49 run 5); mega.cu's
 * MRT_MEGA_ILW_RELEASE says where the megakernel takes it and what the step measured. */
/* STAGES: key buffers (STAGES - 1 passes copied ahead of the one multiplied; the logits do
 * not depend on it). STOP (timing diagnostics only, index_ops.h variants 6-8; no or wrong
 * output): 1 = the copies and barriers alone, 2 = also the MMAs, without the epilogue, 3 =
 * also the epilogue's math, without its stores.
 * Where the time goes (H200, session 7, CUDA graph, us a kernel): M=16 KV=8192 chunk 128:
 * copies 4.29, + MMAs 4.45, + math 5.75, full 6.79; M=64 b=8 KV=65536 chunk 1024: 24.61,
 * 29.16, 65.58, 84.05. The epilogue is most of it; two attempts at it changed nothing or lost
 * (bench/RESULTS.md, session 7): the head weights read into registers before the MMAs
 * (6.79 / 84.66 against 6.79 / 84.05) and the logits staged in shared memory and stored as
 * whole rows (7.37 / 92.40). With 128 registers a thread (64 of them the accumulator) there
 * are 2 CTAs, 16 warps, an SM to hide the epilogue's latencies; overlapping one group's
 * epilogue with the next group's MMAs needs a second accumulator (1 CTA an SM). A group in two
 * halves of 64 columns, the next half's wgmmas in flight during this half's epilogue in the
 * same 64 registers, was slower at every shape (H200, session 47 run 1: M=128 KV=65536 297 ->
 * 330 us in the megakernel, serial's E1 +2 us). */
/* (STOP's early continues leave loops unreachable: nvcc's warning 128 is silenced here.) */
#pragma nv_diag_suppress 128
/* -DMRT_ILW_DIAG_FIRST_PASS (diagnostic builds, timing only): thread 0 writes %globaltimer to
 * *first_pass once the tile's first pass of keys (and its queries) landed, so a trace splits
 * a tile's loads prologue from the rest (the megakernel stores it as E1's "weights issued");
 * =3: at the tile's entry (the call, from the kernel body's barrier after the input's wait).
 * (=2 and =4 stamped the cp.async copies' prologue, thread 0's first keys' and queries' copies
 * issued: session 40 run 1; removed with the megakernel's loads by TMA.)
 * NWG: the warpgroups that multiply, 2 (keys 64 wg of every group) or, with TMA, 3 (the
 * megakernel's whole CTA: a pass's units of 64 keys x one group dealt to them in turn; the
 * same logits, each computed as with 2). */
template <int TPG, int STAGES = MRT_ILW_STAGES, int STOP = 0, int GROUPS = MRT_ILW_GROUPS, bool TMA = false, int NWG = 2,
          int RELEASE = 0>
static __device__ void mrt_index_logits_tile_wg(const mrt_index_logits_args &a, int b, int j0, int j1, uint8_t *smem_in,
                                                int tid, int g_lo = 0, int g_hi = 0x7fffffff,
                                                const mrt_ilw_maps *maps = nullptr
#ifdef MRT_ILW_DIAG_FIRST_PASS
                                                ,
                                                unsigned long long *first_pass = nullptr
#endif
) {
#if defined(MRT_ILW_DIAG_FIRST_PASS) && MRT_ILW_DIAG_FIRST_PASS == 3
    if (first_pass && tid == 0) *first_pass = mrt_globaltimer();
#endif
    typedef mrt_ilw_layout<STAGES, GROUPS> L;
    static_assert(TPG * 8 <= 128 && 128 % TPG == 0, "wgmma E1: 128 / TPG heads a token, a multiple of 8");
    static_assert(NWG == 2 || (NWG == 3 && TMA), "wgmma E1: 2 warpgroups, or 3 with the loads by TMA (warp 0)");
    constexpr int H = 128 / TPG, THREADS = NWG * 128;
    uint8_t *smem = (uint8_t *)(((uintptr_t)smem_in + 1023) & ~(uintptr_t)1023);
    uint8_t *A = smem + L::A_OFF, *B = smem + L::B_OFF;
    float *ks_s = (float *)(smem + L::KS_OFF), *wI_s = (float *)(smem + L::WI_OFF);
    int *pos_s = (int *)(smem + L::POS_OFF);
    const int wg = tid >> 7, w = (tid >> 5) & 3, lane = tid & 31, quad = lane & 3;
    const int t0 = b * a.n, ngroups = min((a.n + TPG - 1) / TPG, g_hi); /* token groups [g_lo, ngroups) */
    /* in registers: read through `a` after the logits' stores, these would be reloaded */
    float *const logits = a.logits;
    const long long kv = a.kv;
    const int n = a.n, row = mrt_ilw_key_row<TPG>(wg, w, lane); /* this lane's logits: keys row + 8 i */
    const int npass = (j1 - j0 + MRT_ILW_KEYS - 1) / MRT_ILW_KEYS;
    /* TMA: key buffer s's mbarrier at kbar + 8 s, the queries' at qbar; the phases each thread
     * waits for next (bit s of kph, qph), flipped at each wait. REL: buffer s's release mbarrier
     * at ebar + 8 s; the key stream's passes are q = chunk * npass + p, in buffer q % STAGES. */
    constexpr bool REL = TMA && RELEASE > 0;
    static_assert(!REL || RELEASE != 2 || STAGES >= 3,
                  "RELEASE 2 issues a pass's keys after the one before is computed: 3 key buffers or more");
    uint32_t kbar = 0, qbar = 0, ebar = 0, kph = 0, qph = 0;
    const int nq = npass * ((max(0, ngroups - g_lo) + GROUPS - 1) / GROUPS); /* the key stream's passes */
    /* warp 0 (REL): pass q of the stream into its buffer, once the pass before in that buffer
     * was released */
    auto keys_issue = [&](int q) {
        const int bn = q % STAGES;
        if (q >= STAGES) mrt_mbar_wait_empty(ebar + 8 * bn, (uint32_t)((q / STAGES - 1) & 1), maps->diag, bn, q, 3);
        mrt_ilw_keys_tma(a, maps->keys, b, j0 + (q % npass) * MRT_ILW_KEYS, j1, lane, A + bn * L::KEY_BYTES,
                         ks_s + bn * MRT_ILW_KEYS, kbar + 8 * bn);
    };
    if constexpr (TMA) {
        if (npass <= 0) return; /* (no task has no keys; nothing would wait for the queries' copies) */
        kbar = mrt_smem_u32(smem + L::BAR_OFF), qbar = kbar + 8 * STAGES, ebar = qbar + 8;
        if (tid == 0) {
            /* the previous instruction's generic accesses to this shared memory (ordered before
             * thread 0 by the kernel body's barrier), before the copies' */
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
            for (int s = 0; s <= STAGES; s++) mrt_mbar_init(kbar + 8 * s, 1);
            if (REL)
                for (int s = 0; s < STAGES; s++) mrt_mbar_init(ebar + 8 * s, THREADS / 32);
            asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
        }
        /* warp 0's copies read what other CTAs published: its lanes made the kernel body's
         * wait, which ends in `fence.proxy.async.global` (mrt_mega_wait) */
        mrt_il_bar<THREADS>(); /* the mbarriers initialized before any thread waits on them */
    }

    for (int g0 = g_lo; g0 < ngroups; g0 += GROUPS) {
        const int ng = min(GROUPS, ngroups - g0);
        mrt_ilw_keys_src k0 = {}; /* cp.async: the first pass's lookups */
        if constexpr (TMA) {
            if (tid < 32) {
                mrt_ilw_queries_tma<TPG>(a, maps->queries, t0, g0, ng, lane, B, wI_s, qbar);
                if (REL) {
                    if (g0 == g_lo) /* the stream's first passes; later chunks' are issued ahead */
                        for (int q = 0; q < STAGES - 1 && q < nq; q++) keys_issue(q);
                } else {
                    for (int q = 0; q < STAGES - 1 && q < npass; q++)
                        mrt_ilw_keys_tma(a, maps->keys, b, j0 + q * MRT_ILW_KEYS, j1, lane, A + q * L::KEY_BYTES,
                                         ks_s + q * MRT_ILW_KEYS, kbar + 8 * q);
                }
            }
            /* the head weights of columns past the request's tokens (not copied); their proxy
             * fence orders them before a later group chunk's bulk copies into the same words */
            for (int u = tid; u < ng * 128; u += THREADS)
                if ((g0 + (u >> 7)) * TPG + (u & 127) / H >= a.n) wI_s[u] = 0.0f;
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
        } else {
            /* Every copy of the chunk's first pass is issued before anything waits: the first
             * key pass's block-table lookups first (in flight meanwhile), then the queries, head
             * weights and positions (cp.async, nothing to wait for), then that pass's keys,
             * whose addresses the lookups return. So the prologue is two round trips (lookup,
             * keys) rather than four (weights, positions, lookup, keys) when the weights and
             * positions were loads into registers stored to shared memory. Measured (H200,
             * session 20 run 2, M=16 KV=8192): the step's E1 input -> computed 7.36 -> 7.14 us,
             * mega 80.07 / 80.09 -> 79.87 / 79.92; less than two round trips: most of the 3.4 us
             * a tile spends up to its first pass's keys (run 1, -DMRT_MEGA_IL_STOP=1) is not
             * these loads' latency (not yet known what). */
            if (npass > 0) k0 = mrt_ilw_keys_find(a, b, j0, j1, tid);
            /* queries of groups g0 .. g0 + ng: column tl * H + h of group gi = token (g0 + gi) TPG + tl.
             * (Rolled, with the head weights' loop below: the megakernel's tile 45 -> 36 KB and the
             * step level at M=16, 1-2 us slower at M=64 and KV=65536: H200, session 36 run 3.) */
            for (int u = tid; u < ng * 128 * 8; u += MRT_IL_THREADS) {
                const int gi = u >> 10, col = (u >> 3) & 127, c = u & 7;
                const int t = (g0 + gi) * TPG + col / H, h = col % H;
                const uint8_t *src = nullptr;
                if (t < a.n) src = a.q8 + ((long long)(t0 + t) * a.heads + h) * MRT_IL_DIM + c * 16;
                mrt_ilw_put(B + gi * L::Q_BYTES, col, c, src);
            }
            for (int u = tid; u < ng * 128; u += MRT_IL_THREADS) {
                const int gi = u >> 7, col = u & 127, t = (g0 + gi) * TPG + col / H;
                if (t < a.n) mrt_cp_async4(wI_s + u, a.wI + (long long)(t0 + t) * a.heads + col % H);
                else wI_s[u] = 0.0f;
            }
        }
        if (tid < ng * 16) {
            const int gi = tid >> 4, tl = tid & 15, t = (g0 + gi) * TPG + tl;
            if (tl < TPG && t < a.n) mrt_cp_async4(pos_s + tid, a.pos + t0 + t);
            else pos_s[tid] = -1;
        }
        if constexpr (TMA) {
            mrt_il_commit(); /* the positions */
        } else {
            /* the queries' copies join the first pass's key group, so one wait covers both; one
             * group is committed per pass slot even when empty, so the wait count is constant */
            if (npass > 0) mrt_ilw_keys_copy(k0, tid, A, ks_s);
            mrt_il_commit();
#pragma unroll
            for (int q = 1; q < STAGES - 1; q++) {
                if (q < npass)
                    mrt_ilw_keys_issue(a, b, j0 + q * MRT_ILW_KEYS, j1, tid, A + q * L::KEY_BYTES,
                                       ks_s + q * MRT_ILW_KEYS);
                mrt_il_commit();
            }
        }
        for (int p = 0; p < npass; p++) {
            /* REL: pass q of the key stream (buffer q % STAGES, its use q / STAGES) */
            const int q = ((g0 - g_lo) / GROUPS) * npass + p;
            const int js = j0 + p * MRT_ILW_KEYS, buf = (REL ? q : p) % STAGES, nb = (p + STAGES - 1) % STAGES;
            /* buffer nb was last read by pass p - 1, released by its closing barrier */
            /* the pass's end: REL releases its buffer (RELEASE 2: then loads the pass after next)
             * and a barrier closes only the chunk's last pass; without REL a barrier closes each
             * pass: this pass's key buffer (next-but-one pass) and, after the last pass, the
             * queries, weights and positions (next group chunk) are rewritten */
            auto pass_end = [&]() {
                if (REL) {
                    __syncwarp(); /* this warp's reads of the pass's keys and scales are done */
                    if (lane == 0) mrt_mbar_arrive(ebar + 8 * buf);
                    if (RELEASE == 2 && q + STAGES - 1 < nq && tid < 32) keys_issue(q + STAGES - 1);
                    if (p < npass - 1) return;
                }
                mrt_il_bar<THREADS>();
            };
            if constexpr (TMA) {
                if (REL) {
                    if (RELEASE == 1 && q + STAGES - 1 < nq && tid < 32) keys_issue(q + STAGES - 1);
                } else if (p + STAGES - 1 < npass && tid < 32)
                    mrt_ilw_keys_tma(a, maps->keys, b, js + (STAGES - 1) * MRT_ILW_KEYS, j1, lane,
                                     A + nb * L::KEY_BYTES, ks_s + nb * MRT_ILW_KEYS, kbar + 8 * nb);
                if (p == 0) { /* the queries and head weights; the positions and zero weights, CTA-wide */
                    mrt_mbar_wait_full(qbar, qph, maps->diag);
                    qph ^= 1u;
                    mrt_cp_async_wait_all();
                    mrt_il_bar<THREADS>();
                }
                if (REL) { /* pass q's keys landed */
                    mrt_mbar_wait_full(kbar + 8 * buf, (uint32_t)((q / STAGES) & 1), maps->diag);
                } else {
                    mrt_mbar_wait_full(kbar + 8 * buf, (kph >> buf) & 1u, maps->diag); /* pass p's keys landed */
                    kph ^= 1u << buf;
                }
            } else {
                if (p + STAGES - 1 < npass)
                    mrt_ilw_keys_issue(a, b, js + (STAGES - 1) * MRT_ILW_KEYS, j1, tid, A + nb * L::KEY_BYTES,
                                       ks_s + nb * MRT_ILW_KEYS);
                mrt_il_commit();
                asm volatile("cp.async.wait_group %0;" ::"n"(STAGES - 1) : "memory"); /* pass p's group landed */
                asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); /* cp.async / st.shared -> wgmma */
                mrt_il_bar<THREADS>(); /* every thread's copies of this pass (and the queries) landed */
            }
#if defined(MRT_ILW_DIAG_FIRST_PASS) && MRT_ILW_DIAG_FIRST_PASS == 1
            if (first_pass && tid == 0 && p == 0 && g0 == g_lo) *first_pass = mrt_globaltimer();
#endif
            if (STOP == 1) {
                pass_end();
                continue;
            }
            const float *ks = ks_s + buf * MRT_ILW_KEYS;
            float ksv[mrt_ilw_sums<TPG>::KEYS]; /* the scales of this lane's keys */
            if constexpr (NWG == 2) {
#pragma unroll
                for (int i = 0; i < mrt_ilw_sums<TPG>::KEYS; i++) ksv[i] = ks[row + 8 * i];
            }
            float sink = 0.0f; /* STOP 2, 3: keeps the wgmmas (2) or the math (3) without what follows */
            /* units (64 keys kh of the pass, group gi) to the warpgroups in turn: with 2, keys
             * kh = wg of every group; with 3, 2 ng units over 3 warpgroups. The tile's units in
             * order are ubase + u (ubase: those of earlier passes and group chunks), unit ubase + u
             * the warpgroup (ubase + u) % NWG's (with 2 that is u % 2 = wg: ubase is even). */
            const int ubase = 2 * ((g0 - g_lo) * npass + p * ng);
            for (int u = NWG == 2 ? wg : (wg - ubase % NWG + NWG) % NWG; u < 2 * ng; u += NWG) {
                const int kh = NWG == 2 ? wg : (u & 1), gi = u >> 1;
                const int krow = NWG == 2 ? row : mrt_ilw_key_row<TPG>(kh, w, lane);
                if constexpr (NWG != 2) {
#pragma unroll
                    for (int i = 0; i < mrt_ilw_sums<TPG>::KEYS; i++) ksv[i] = ks[krow + 8 * i];
                }
                const uint32_t a_addr = mrt_smem_u32(A + buf * L::KEY_BYTES + kh * (64 * 128));
                const uint32_t b_addr = mrt_smem_u32(B + gi * L::Q_BYTES);
                const float *wv_s = wI_s + gi * 128;
                float acc[64];
                mrt_wgmma_fence();
                const mrt_sdesc_k_at<> da(a_addr), db(b_addr);
#pragma unroll
                for (int kk = 0; kk < 4; kk++) /* k32 step kk: 32 bytes into each 128-byte row */
                    mrt_wgmma<128>::e4m3(acc, da(kk * 32), db(kk * 32), kk != 0);
                mrt_wgmma_commit();
                mrt_wgmma_wait<0>();
                mrt_reg_fence(acc);
                if (STOP == 2) { /* one accumulator read: without it ptxas may drop the chain */
                    sink += acc[0];
                    continue;
                }
                /* per token of the group, this thread's two keys (i = 0, 1): its 8 head columns a
                 * token, in column order, then the quad's lanes */
                float s[TPG][2];
#pragma unroll
                for (int tl = 0; tl < TPG; tl++) s[tl][0] = s[tl][1] = 0.0f;
#pragma unroll
                for (int c = 0; c < 16; c++) {
                    const int tl = 8 * c / H;
#pragma unroll
                    for (int j = 0; j < 2; j++) {
                        const float wv = wv_s[8 * c + 2 * quad + j];
                        s[tl][0] = fmaf(wv, fmaxf(acc[4 * c + j], 0.0f), s[tl][0]);
                        s[tl][1] = fmaf(wv, fmaxf(acc[4 * c + 2 + j], 0.0f), s[tl][1]);
                    }
                }
                const mrt_ilw_sums<TPG> o = mrt_ilw_quad_sums<TPG>(s, quad);
                if (STOP == 3) {
#pragma unroll
                    for (int i = 0; i < o.KEYS; i++) sink += o.v[i];
                    continue;
                }
                const int t = (g0 + gi) * TPG + o.tl;
                if (t < n) {
                    float *out = logits + (long long)(t0 + t) * kv;
                    const int pos = pos_s[gi * 16 + o.tl];
#pragma unroll
                    for (int i = 0; i < o.KEYS; i++) {
                        const int j = js + krow + 8 * i;
                        if (j < j1) out[j] = j <= pos ? o.v[i] * ksv[i] : -INFINITY;
                    }
                }
            }
            if (STOP >= 2 && sink == -1.25e-37f) a.logits[0] = sink; /* never true; keeps sink live */
            pass_end();
        }
    }
    if constexpr (TMA)
        if (tid == 0)
            for (int s = 0; s < (REL ? 2 * STAGES + 1 : STAGES + 1); s++) mrt_mbar_inval(kbar + 8 * s);
}
#pragma nv_diag_default 128

#endif
