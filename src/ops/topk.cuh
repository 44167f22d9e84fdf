/* topk (F1) on the GPU: the k largest finite logits of a row as indices in ascending index
 * order, -1 padded; of logits equal to the k-th largest, the lowest indices (docs/NUMERICS.md).
 * One row is the work of T threads (one CTA in the standalone kernel, threads 0..T-1 of a
 * megakernel worker), of a cluster of C CTAs, or of P megakernel workers in slices (the last
 * section). The C reference is `cpu` in topk.c; the launchers are src/cuda/index_ops.cu.
 *
 * Keys: each float maps to an order-preserving uint32 (negative: ~bits, else bits | 2^31);
 * -0.0 is folded into +0.0 (the reference compares with ==) and non-finite values map to 0,
 * which no finite value reaches (the smallest finite key is 0x00800000), so 0 = "excluded"
 * (mrt_topk_key, topk_split.h: topk.c's slices use the same function).
 *
 *  Radix select, MSB first, digits of 12, 12 and 8 bits: a shared histogram of the keys that
 *  match the prefix so far, then the digit where the k-th largest lies. It ends when the
 *  digit's whole bin is taken (then: every key >= the prefix) or at the full 32-bit key T
 *  (then: every key > T and the first `need` keys == T in index order). Then the indices are
 *  written in index order:
 *  - one CTA a row (mrt_topk_row): the row is read twice (histogram; then bitmaps of the
 *    selected keys and a list of the threshold digit's keys, which later passes resolve), and
 *    the output comes from the bitmaps, a few words a thread;
 *  - a cluster a row (mrt_topk_row_cluster): each warp owns a segment of its CTA's slice,
 *    counts its selected keys (ballots), scans over the warps and the CTAs give each segment's
 *    first output position, and a second pass writes the indices (ballot ranks);
 *  - keys in registers (mrt_topk_row_reg, the standalone kernel) or runs of them in shared
 *    memory (mrt_topk_row_runs, the megakernel's): a thread's keys are one run of the row, so
 *    one scan of the threads' counts positions the output.
 * No sort: ascending index order is the output order, so the candidates never need ranking.
 * (Until 2026-11-29 the output was sorted by logit; the sort was half of the op: H200, GLM-5
 * M=16 KV=8192, 13.88 us a step with it, 7.24 us without it.) Every step is a pass over shared
 * memory between barriers: no spin, no global atomics.
 *
 * Where the one-CTA row's time goes (H200, 2026-11-29, M=16 kv=8192 k=2048, 9.52 us a kernel in
 * a CUDA graph, phases from the STOP variants): load + histogram ~1.9 us, digit search 0.9,
 * pass 1 2.4, the list 1.15, emit 2.5. In the megakernel's step (384 threads, session 26 run
 * 3, -DMRT_MEGA_TOPK_STOP, input -> computed): pass 0 3.46, search 0.76, pass 1 3.14, the
 * list 1.50, emit 2.56 (11.42 a row). Tried and measured slower (bench/RESULTS.md, session 6):
 * a warp-aggregated histogram (__match_any_sync: 16.0 us), and an emit with coalesced stores
 * (a bitmap word per warp-step: 9.17 us here but 39.2 against 34.9 at M=64 kv=65536). */
#ifndef MRT_TOPK_CUH
#define MRT_TOPK_CUH

#include <cooperative_groups.h>
#include <stdint.h>

#include "cp_async.cuh"
#include "topk_split.h"

#define MRT_TOPK_NB 4096          /* histogram bins of a 12-bit digit */
#define MRT_TOPK_CACHE_MAX 24576  /* rows of at most this many logits stay in shared memory */
/* named barrier of the row's threads; the GEMM consumers and the mma.sync E1 tile use id 1
 * too (with 256 threads). For the racecheck question of docs/MEGAKERNEL.md (sessions 51-52):
 * -DMRT_TOPK_BAR=14, a free id (0 is __syncthreads, 2-13 the finalization groups'), left the
 * hazards as they were (session 52 run 1); so did -DMRT_TOPK_BAR=0, __syncthreads, which every
 * caller can use (each runs its rows on its whole block), with the step level and the same
 * bytes (session 53 run 1, H100): the id stays 1. */
#ifndef MRT_TOPK_BAR
#define MRT_TOPK_BAR 1
#endif

struct mrt_topk_args {
    const float *logits; /* [M, kv] */
    int *out;            /* [M, k] */
    int M, kv, k;
    int cache_keys;      /* kv if the row is cached in shared memory, else 0 */
    /* a row over several workers (mrt_topk_slice / mrt_topk_merge; topk.c has the layout) */
    uint32_t *ent;       /* [M, 2 kv]: (key, index) pairs of each slice, by digit */
    uint32_t *cnt;       /* [M * slices, MRT_TOPK_GW]: each slice's G array */
    int slice_cache;     /* keys of a slice kept in shared memory (a longer slice is read twice) */
    int cache24;         /* kv if an unsliced row longer than cache_keys keeps 24-bit key prefixes in
                          * shared memory (mrt_topk_row_runs24), else 0 */
};

/* Scalars shared by the row's threads (16-byte aligned size: the cache after it takes uint4). */
struct alignas(16) mrt_topk_shared {
    uint32_t nvalid, dsel, above, eqcnt, lcount;
    uint32_t wsum[32];
    uint32_t wg[32], we[32]; /* per warp: selected keys above the threshold, keys equal to it */
    uint32_t cnt[2][16];     /* cluster variant: the same per CTA, in the leader */
};

#define MRT_TOPK_LIST 4096 /* one-CTA row: keys of the threshold's 12-bit bin resolved as a list */
#ifndef MRT_TOPK_P1_KEYS
#define MRT_TOPK_P1_KEYS 4 /* one-CTA row: keys a thread takes at once in pass 1 */
#endif

/* Shared memory of the one-CTA row of kv logits: scalars | hist[NB] | lkey[LIST] | lidx[LIST] |
 * sel[W] | tie[W] | cache[cache_keys]: W = mrt_topk_words(kv), the words of the row's bitmaps,
 * rounded up to 4 so the cache stays 16-byte aligned (uint4 stores). */
static __host__ __device__ __forceinline__ int mrt_topk_words(int kv) { return ((kv + 31) / 32 + 3) & ~3; }
static __host__ __device__ __forceinline__ long long mrt_topk_smem_bytes(int kv, int cache_keys) {
    return (long long)sizeof(mrt_topk_shared) + (MRT_TOPK_NB + 2LL * MRT_TOPK_LIST) * 4 + 2LL * mrt_topk_words(kv) * 4 +
           (long long)cache_keys * 4;
}

template <int T> static __device__ __forceinline__ void mrt_topk_bar() {
#if MRT_TOPK_BAR == 0 /* diagnostic: __syncthreads (every caller's T is its block's size) */
    __syncthreads();
#else
    asm volatile("bar.sync %0, %1;" ::"n"(MRT_TOPK_BAR), "n"(T) : "memory");
#endif
}

/* The selected keys: every key >= lo (tkey == 0), or every key > tkey and the first `need`
 * keys == tkey in index order. lo >= 1 and tkey != 0, so the excluded key 0 is never taken. */
struct mrt_topk_sel {
    uint32_t lo, tkey, need;
};
static __device__ __forceinline__ bool mrt_topk_above(const mrt_topk_sel &s, uint32_t key) {
    return s.tkey ? key > s.tkey : key >= s.lo;
}

/* Exclusive prefix sum over the T threads (in thread order) of v; *total gets the sum.
 * Uses sh->wsum; the caller puts a barrier between two calls' last reads and next writes. */
template <int T>
static __device__ __forceinline__ uint32_t mrt_topk_scan(uint32_t v, mrt_topk_shared *sh, uint32_t *total, int tid) {
    const int lane = tid & 31, warp = tid >> 5;
    uint32_t x = v;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const uint32_t y = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o) x += y;
    }
    if (lane == 31) sh->wsum[warp] = x;
    mrt_topk_bar<T>();
    uint32_t w = lane < T / 32 ? sh->wsum[lane] : 0u, wi = w;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const uint32_t y = __shfl_up_sync(0xffffffffu, wi, o);
        if (lane >= o) wi += y;
    }
    *total = __shfl_sync(0xffffffffu, wi, T / 32 - 1);
    const uint32_t wbase = __shfl_sync(0xffffffffu, wi - w, warp);
    return wbase + x - v;
}

/* Pass 0 of a row or slice: keys [0, n) of `src` -> their order-preserving keys (into `cache`
 * when `cached`), each finite one counted into hist by its top 12 bits; returns this thread's
 * count of finite keys. The loads go out MRT_TOPK_LOADS at a time a thread before any of them is
 * used: a loop that loads, converts and counts one float4 an iteration waits a memory round trip
 * an iteration, the shared atomics in between keeping the next load from being issued early
 * (the PTX has each ld.global after the previous one's atom.shared): at 384 threads and
 * kv = 8192 that was six round trips a row. Counts commute, so the histogram, the count and the
 * cache are those of the one-at-a-time loop. vec: n a multiple of 4 and src 16-byte aligned.
 * Measured (H200, session 26 runs 3-5, with the staged emit below; A B in one run): mega M=16
 * KV=8192 70.54-70.63 -> 69.69-69.78 us (F1 input -> computed 12.3 -> 11.4 a row), 71.3 ->
 * 70.3 in run 5, where 4 loads a batch measured 70.0-70.1 and 1 (the old order, staged emit
 * only) 70.9; M=64 KV=65536 233.2 -> 228.2, M=128 KV=65536 391.0 -> 384.6. The unaligned
 * path once loaded 4 x MRT_TOPK_LOADS scalars a batch: that build was 4 us slower at M=128
 * KV=1024 (run 4), where a row loads one float4 a thread whatever the batch (F1 off the
 * critical path, its own time unchanged, D2 later): the code's size, not its loads. */
#ifndef MRT_TOPK_LOADS
#define MRT_TOPK_LOADS 8 /* float4 loads in flight a thread (kv <= 12288 at 384 threads: one batch) */
#endif
/* -DMRT_TOPK_DIAG_NO_HIST (diagnostic builds with -DMRT_MEGA_TOPK_STOP=1 only: the histogram
 * stays zero, so nothing after pass 0 is right): pass 0 without its shared atomics, the
 * loads, conversions and cache stores kept, so that against the plain STOP=1 build the trace
 * shows what the atomics cost (whether a warp's keys landing in few bins serialize them). */
#ifdef MRT_TOPK_DIAG_NO_HIST
#define MRT_TOPK_COUNT(h, c) ((void)(h), (void)(c))
#else
#define MRT_TOPK_COUNT(h, c) atomicAdd(&(h)[(c) >> 20], 1u)
#endif
template <int T>
static __device__ __forceinline__ uint32_t mrt_topk_pass0(const float *src, int n, bool vec, uint32_t *cache,
                                                          bool cached, uint32_t *hist, int tid) {
    uint32_t nv = 0;
    if (vec) {
        for (int i0 = tid; i0 < n / 4; i0 += MRT_TOPK_LOADS * T) {
            float4 v[MRT_TOPK_LOADS];
#pragma unroll
            for (int u = 0; u < MRT_TOPK_LOADS; u++) {
                const int i = i0 + u * T;
                v[u] = i < n / 4 ? ((const float4 *)src)[i] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            }
#pragma unroll
            for (int u = 0; u < MRT_TOPK_LOADS; u++) {
                const int i = i0 + u * T;
                if (i >= n / 4) break;
                const uint4 c = make_uint4(mrt_topk_key(v[u].x), mrt_topk_key(v[u].y), mrt_topk_key(v[u].z),
                                           mrt_topk_key(v[u].w));
                if (cached) ((uint4 *)cache)[i] = c;
                if (c.x) MRT_TOPK_COUNT(hist, c.x), nv++;
                if (c.y) MRT_TOPK_COUNT(hist, c.y), nv++;
                if (c.z) MRT_TOPK_COUNT(hist, c.z), nv++;
                if (c.w) MRT_TOPK_COUNT(hist, c.w), nv++;
            }
        }
    } else { /* rows of any length or alignment (not GLM-5's): MRT_TOPK_LOADS scalars at a time */
        for (int i0 = tid; i0 < n; i0 += MRT_TOPK_LOADS * T) {
            float v[MRT_TOPK_LOADS];
#pragma unroll
            for (int u = 0; u < MRT_TOPK_LOADS; u++) {
                const int i = i0 + u * T;
                v[u] = i < n ? src[i] : 0.0f;
            }
#pragma unroll
            for (int u = 0; u < MRT_TOPK_LOADS; u++) {
                const int i = i0 + u * T;
                if (i >= n) break;
                const uint32_t c = mrt_topk_key(v[u]);
                if (cached) cache[i] = c;
                if (c) MRT_TOPK_COUNT(hist, c), nv++;
            }
        }
    }
    return nv;
}

/* Key i of the row: from the shared cache, or from global memory (plain loads: in the
 * megakernel the logits come from other CTAs). */
static __device__ __forceinline__ uint32_t mrt_topk_get(const float *row, const uint32_t *cache, bool cached, int i) {
    return cached ? cache[i] : mrt_topk_key(row[i]);
}

/* Digit search: hist[0, nb) counts the keys matching the prefix by digit. Finds the digit d
 * holding the krem-th largest of them: sh->dsel = d, sh->above = count of digits > d,
 * sh->eqcnt = hist[d] (nothing when krem exceeds them all). Returns the count of all of them,
 * in every thread. Ends with a barrier. */
template <int T>
static __device__ __forceinline__ uint32_t mrt_topk_find(const uint32_t *hist, int nb, uint32_t krem,
                                                         mrt_topk_shared *sh, int tid) {
    const int per = (nb + T - 1) / T;
    uint32_t local = 0, total;
    for (int i = 0; i < per; i++) {
        const int q = tid * per + i; /* q-th digit from the top */
        if (q < nb) local += hist[nb - 1 - q];
    }
    const uint32_t excl = mrt_topk_scan<T>(local, sh, &total, tid);
    if (excl < krem && krem <= excl + local) {
        uint32_t cum = excl;
        for (int i = 0; i < per; i++) {
            const int q = tid * per + i;
            if (q >= nb) break;
            const uint32_t h = hist[nb - 1 - q];
            if (cum + h >= krem) {
                sh->dsel = (uint32_t)(nb - 1 - q), sh->above = cum, sh->eqcnt = h;
                break;
            }
            cum += h;
        }
    }
    mrt_topk_bar<T>();
    return total;
}

/* Warp w's segment of [b0, b1): whole warps of 32 keys, in index order. */
template <int T> static __device__ __forceinline__ void mrt_topk_segment(int b0, int b1, int warp, int *a, int *b) {
    const int seg = ((b1 - b0 + T / 32 - 1) / (T / 32) + 31) & ~31;
    *a = min(b1, b0 + warp * seg), *b = min(b1, *a + seg);
}

/* Cluster emit, part 1: each warp counts the selected keys of its segment of [b0, b1): above
 * the threshold into sh->wg[warp], equal to it into sh->we[warp]. A barrier must follow. */
template <int T, class G>
static __device__ __forceinline__ void mrt_topk_count(G get, int b0, int b1, const mrt_topk_sel &s, mrt_topk_shared *sh,
                                                      int tid) {
    const int warp = tid >> 5, lane = tid & 31;
    int a, b;
    mrt_topk_segment<T>(b0, b1, warp, &a, &b);
    uint32_t ng = 0, ne = 0;
    for (int i0 = a; i0 < b; i0 += 32) {
        const int i = i0 + lane;
        const uint32_t key = i < b ? get(i) : 0u;
        ng += __popc(__ballot_sync(0xffffffffu, mrt_topk_above(s, key)));
        ne += __popc(__ballot_sync(0xffffffffu, s.tkey != 0u && key == s.tkey));
    }
    if (lane == 0) sh->wg[warp] = ng, sh->we[warp] = ne;
}

/* After part 1's barrier: the counts of the warps before this one (*g above, *e equal) and
 * of all T / 32 warps (*tg, *te). */
template <int T>
static __device__ __forceinline__ void mrt_topk_warp_base(const mrt_topk_shared *sh, int tid, uint32_t *g, uint32_t *e,
                                                          uint32_t *tg, uint32_t *te) {
    const int warp = tid >> 5, lane = tid & 31;
    const uint32_t vg = lane < T / 32 ? sh->wg[lane] : 0u, ve = lane < T / 32 ? sh->we[lane] : 0u;
    uint32_t ig = vg, ie = ve;
#pragma unroll
    for (int o = 1; o < 32; o <<= 1) {
        const uint32_t yg = __shfl_up_sync(0xffffffffu, ig, o), ye = __shfl_up_sync(0xffffffffu, ie, o);
        if (lane >= o) ig += yg, ie += ye;
    }
    *tg = __shfl_sync(0xffffffffu, ig, 31), *te = __shfl_sync(0xffffffffu, ie, 31);
    *g = __shfl_sync(0xffffffffu, ig - vg, warp), *e = __shfl_sync(0xffffffffu, ie - ve, warp);
}

/* Cluster emit, part 2: writes the selected indices of this warp's segment in index order;
 * g and e: the keys above / equal to the threshold before the segment (in the whole row). A
 * key equal to the threshold is taken while fewer than s.need of them precede it. */
template <int T, class G>
static __device__ __forceinline__ void mrt_topk_write(G get, int b0, int b1, const mrt_topk_sel &s, uint32_t g,
                                                      uint32_t e, int *out, int tid) {
    const int warp = tid >> 5, lane = tid & 31;
    const uint32_t below = (1u << lane) - 1u;
    int a, b;
    mrt_topk_segment<T>(b0, b1, warp, &a, &b);
    uint32_t pos = g + min(e, s.need);
    for (int i0 = a; i0 < b; i0 += 32) {
        const int i = i0 + lane;
        const uint32_t key = i < b ? get(i) : 0u;
        const bool eq = s.tkey != 0u && key == s.tkey;
        const uint32_t me = __ballot_sync(0xffffffffu, eq);
        const bool take = mrt_topk_above(s, key) || (eq && e + (uint32_t)__popc(me & below) < s.need);
        const uint32_t mt = __ballot_sync(0xffffffffu, take);
        if (take) out[pos + (uint32_t)__popc(mt & below)] = i;
        pos += (uint32_t)__popc(mt), e += (uint32_t)__popc(me);
    }
}

/* Radix passes 1 and 2 (digits of 12 and 8 bits) over the keys each(f) hands f (this thread's
 * share), of which those matching `prefix` under `pmask` (the 12-bit digit of pass 0) hold the
 * krem-th largest: the selection among them, as mrt_topk_sel. Starts and ends with barriers'
 * worth of order: hist is free on entry and again on return. */
template <int T, class Each>
static __device__ mrt_topk_sel mrt_topk_refine_each(const Each &each, uint32_t prefix, uint32_t pmask, uint32_t krem,
                                                    uint32_t *hist, mrt_topk_shared *sh, int tid) {
    for (int p = 1; p < 3; p++) {
        const int nb = p == 1 ? MRT_TOPK_NB : 256, sft = p == 1 ? 8 : 0;
        for (int i = tid; i < nb; i += T) hist[i] = 0u;
        mrt_topk_bar<T>();
        each([&](uint32_t key) {
            if (key != 0u && (key & pmask) == prefix) atomicAdd(&hist[(key >> sft) & (uint32_t)(nb - 1)], 1u);
        });
        mrt_topk_bar<T>();
        mrt_topk_find<T>(hist, nb, krem, sh, tid);
        krem -= sh->above;
        prefix |= sh->dsel << sft, pmask |= (uint32_t)(nb - 1) << sft;
        if (krem == sh->eqcnt) return mrt_topk_sel{prefix, 0u, 0u}; /* the whole bin: every key >= prefix */
    }
    return mrt_topk_sel{1u, prefix, krem};
}

/* The selection of the k largest of the keys each(f) hands f (this thread's share), after
 * pass 0 counted all of them into hist by their top 12 bits (and a barrier): every finite key
 * when there are at most k, else the 12-bit digit holding the k-th largest, refined by
 * mrt_topk_refine_each unless its whole bin is taken. The register row's and the runs'. */
template <int T, class Each>
static __device__ __forceinline__ mrt_topk_sel mrt_topk_select(const Each &each, uint32_t k, uint32_t *hist,
                                                               mrt_topk_shared *sh, int tid) {
    uint32_t krem = k;
    if (mrt_topk_find<T>(hist, MRT_TOPK_NB, krem, sh, tid) <= krem) return mrt_topk_sel{1u, 0u, 0u};
    krem -= sh->above;
    const uint32_t prefix = sh->dsel << 20;
    if (krem == sh->eqcnt) return mrt_topk_sel{prefix, 0u, 0u}; /* the digit's whole bin is taken */
    return mrt_topk_refine_each<T>(each, prefix, 0xFFF00000u, krem, hist, sh, tid);
}

/* The same over n keys get(0 .. n), thread tid taking tid, tid + T, ... */
template <int T, class G>
static __device__ mrt_topk_sel mrt_topk_refine(G get, int n, uint32_t prefix, uint32_t pmask, uint32_t krem,
                                               uint32_t *hist, mrt_topk_shared *sh, int tid) {
    return mrt_topk_refine_each<T>([&](auto f) { for (int i = tid; i < n; i += T) f(get(i)); }, prefix, pmask, krem,
                                   hist, sh, tid);
}

/* The output from the row's bitmaps (W words): `sel` the selected keys, `tie` the keys equal
 * to the threshold, of which the first `need` in index order are taken; `taken` indices in
 * all, the rest of out[0, k) -1. Each thread owns a run of words: counts, two scans, then its
 * indices in order. With `stage` (MRT_TOPK_NB free words of shared memory, e.g. the
 * histogram's, free by then) and taken <= MRT_TOPK_NB the indices go there at their positions
 * and then out in whole rows, a warp's store one 128-byte line; stored straight, a warp's
 * store touches a sector a thread (each thread its own run of out), ~8 such stores a thread
 * at k = 2048 (the standalone register row stages the same way: 7.16 -> 6.73 us a launch,
 * H200 session 9). In the megakernel (H200, session 26 run 2, with pass 0's batched loads):
 * M=16 KV=8192 70.71 / 70.71 us against 71.15 / 71.19 stored straight (the switch that
 * measured it, MRT_TOPK_STAGE_EMIT=0, is gone). Ends with a barrier
 * (the next row reuses shared memory). */
template <int T>
static __device__ __forceinline__ void mrt_topk_emit(const uint32_t *sel, const uint32_t *tie, int W, uint32_t need,
                                                     uint32_t taken, int k, int *out, int *stage, mrt_topk_shared *sh,
                                                     int tid) {
    const int per = (W + T - 1) / T, w0 = min(W, tid * per), w1 = min(W, w0 + per);
    uint32_t cs = 0, ct = 0, ts, tt;
    for (int w = w0; w < w1; w++) cs += (uint32_t)__popc(sel[w]), ct += (uint32_t)__popc(tie[w]);
    const uint32_t es = mrt_topk_scan<T>(cs, sh, &ts, tid);
    mrt_topk_bar<T>(); /* wsum is rewritten by the next scan */
    const uint32_t et = mrt_topk_scan<T>(ct, sh, &tt, tid);
    uint32_t pos = es + min(et, need), ties = need > et ? need - et : 0u; /* ties this run may take */
    const bool staged = stage && taken <= MRT_TOPK_NB; /* uniform */
    int *dst = staged ? stage : out;
    for (int w = w0; w < w1; w++) {
        uint32_t m = sel[w], t = tie[w];
        for (; t && ties; ties--) m |= t & (0u - t), t &= t - 1u; /* the lowest ties first */
        for (; m; m &= m - 1u) dst[pos++] = w * 32 + __ffs(m) - 1;
    }
    if (staged) {
        mrt_topk_bar<T>();
        for (int r = tid; r < (int)taken; r += T) out[r] = stage[r];
    }
    for (int r = (int)taken + tid; r < k; r += T) out[r] = -1;
    mrt_topk_bar<T>();
}

/* Row `row` (kv logits) -> out[0, k). T threads, tid 0..T-1; smem as mrt_topk_smem_bytes
 * (cache_keys >= kv: the row is cached; 0: read from global memory in both passes).
 *  pass 0: load (cache), count the finite keys, histogram of the top 12 bits; the digit
 *          holding the k-th largest (mrt_topk_find);
 *  pass 1: bitmaps of the row, one ballot word per warp and 32 keys: `sel` = keys above that
 *          digit (or the final selection, when it is already known), and the keys of the
 *          digit itself into a list (index and key; at most MRT_TOPK_LIST of them, else
 *          radix passes over the row settle the selection before pass 1);
 *  list:   radix passes over the list settle the threshold; its selected keys are or-ed into
 *          `sel`, the keys equal to the threshold into `tie`;
 *  emit:   each thread owns a run of bitmap words: counts, two scans, then the indices of its
 *          words in order, taking ties while fewer than `need` precede them.
 * The row is read twice; everything after pass 1 is a few words a thread.
 * STOP (diagnostic, output incomplete): 1..4 return after pass 0, the digit search, pass 1,
 * the list, so that timing each shows what the phases cost (index_ops.h, variants 4-7).
 * (Their early returns leave loops unreachable: nvcc's warning 128 is silenced here.) */
#pragma nv_diag_suppress 128
template <int T, int STOP = 0>
static __device__ void mrt_topk_row(const float *row, int kv, int k, int *out, uint8_t *smem, int cache_keys,
                                    int tid) {
    /* every loop over bins, keys and words is strided by T with a bound, so T need not divide
     * the bins: 384 (the megakernel's whole CTA) is variant 10 of test_index_ops */
    static_assert(T % 32 == 0 && T <= 1024, "topk: T must be a warp multiple, at most 1024");
    mrt_topk_shared *sh = (mrt_topk_shared *)smem;
    uint32_t *hist = (uint32_t *)(smem + sizeof(mrt_topk_shared));
    uint32_t *lkey = hist + MRT_TOPK_NB;
    int *lidx = (int *)(lkey + MRT_TOPK_LIST);
    const int W = (kv + 31) / 32, Wpad = mrt_topk_words(kv); /* the bitmaps' words: in use, allocated */
    uint32_t *sel = (uint32_t *)(lidx + MRT_TOPK_LIST), *tie = sel + Wpad, *cache = tie + Wpad;
    const bool cached = kv <= cache_keys;
    const int lane = tid & 31, warp = tid >> 5;

    for (int i = tid; i < MRT_TOPK_NB; i += T) hist[i] = 0u;
    if (tid == 0) sh->nvalid = 0, sh->lcount = 0;
    mrt_topk_bar<T>();

    /* pass 0 */
    uint32_t nv = mrt_topk_pass0<T>(row, kv, (kv & 3) == 0 && ((uintptr_t)row & 15) == 0, cache, cached, hist, tid);
    nv = __reduce_add_sync(0xffffffffu, nv);
    if (lane == 0 && nv) atomicAdd(&sh->nvalid, nv);
    mrt_topk_bar<T>();
    const uint32_t nvalid = sh->nvalid;
    if constexpr (STOP == 1) return;
    auto get = [&](int i) { return mrt_topk_get(row, cache, cached, i); };

    /* the selection, or the 12-bit digit whose keys go to the list */
    mrt_topk_sel s = {1u, 0u, 0u}; /* every finite key */
    bool listing = false;
    uint32_t dsel = 0u, krem = (uint32_t)k;
    if (nvalid > (uint32_t)k) {
        mrt_topk_find<T>(hist, MRT_TOPK_NB, krem, sh, tid);
        dsel = sh->dsel, krem -= sh->above;
        if (krem == sh->eqcnt) s.lo = dsel << 20; /* the digit's whole bin is taken */
        else if (sh->eqcnt <= MRT_TOPK_LIST) listing = true;
        else s = mrt_topk_refine<T>(get, kv, dsel << 20, 0xFFF00000u, krem, hist, sh, tid);
    }
    if constexpr (STOP == 2) return;

    /* pass 1, MRT_TOPK_P1_KEYS keys a thread a round: their loads, ballots and the list's one
     * slot claim a warp are independent, so a round's latency chain (load, ballot, shared
     * atomic, shuffle, store) is paid once for several keys instead of once a key. Measured
     * (H200, session 20 run 3, the megakernel's 384-thread row; 1 key a round as before):
     * mega M=16 KV=8192 80.57 / 79.14 us against 81.15 / 79.64 (F1 input -> computed 11.07
     * against 11.36), M=16 KV=65536 191.3 against 194.9 (rows past the shared cache, read
     * from global memory in pass 1), M=128 KV=65536 547.0 against 549.3; 2 or 8 keys level
     * with 4. Less than the latency chain promised: pass 1's time is mostly elsewhere.
     * The list's order is now a warp's four keys together; nothing reads it in order (the
     * list's radix passes count, its selected keys set bitmap bits). */
    for (int base = 0; base < kv; base += MRT_TOPK_P1_KEYS * T) {
        uint32_t key[MRT_TOPK_P1_KEYS], ml[MRT_TOPK_P1_KEYS], nl = 0;
#pragma unroll
        for (int u = 0; u < MRT_TOPK_P1_KEYS; u++) {
            const int i = base + u * T + tid;
            key[u] = i < kv ? get(i) : 0u;
        }
#pragma unroll
        for (int u = 0; u < MRT_TOPK_P1_KEYS; u++) {
            const int b = base + u * T; /* a multiple of 32: its warps' bitmap words start at b / 32 */
            const bool in_bin = listing && key[u] != 0u && (key[u] >> 20) == dsel;
            const bool above = listing ? key[u] != 0u && (key[u] >> 20) > dsel : mrt_topk_above(s, key[u]);
            const uint32_t ws = __ballot_sync(0xffffffffu, above);
            const uint32_t wt = __ballot_sync(0xffffffffu, !listing && s.tkey != 0u && key[u] == s.tkey);
            if (lane == 0 && b + warp * 32 < kv) sel[(b >> 5) + warp] = ws, tie[(b >> 5) + warp] = wt;
            ml[u] = __ballot_sync(0xffffffffu, in_bin);
            nl += (uint32_t)__popc(ml[u]);
        }
        if (nl) { /* warp-uniform */
            uint32_t slot = 0;
            if (lane == 0) slot = atomicAdd(&sh->lcount, nl);
            slot = __shfl_sync(0xffffffffu, slot, 0);
            const uint32_t below = (1u << lane) - 1u;
#pragma unroll
            for (int u = 0; u < MRT_TOPK_P1_KEYS; u++) {
                if (ml[u] >> lane & 1u) {
                    const uint32_t at = slot + (uint32_t)__popc(ml[u] & below);
                    lkey[at] = key[u], lidx[at] = base + u * T + tid;
                }
                slot += (uint32_t)__popc(ml[u]);
            }
        }
    }
    mrt_topk_bar<T>();
    if constexpr (STOP == 3) return;

    /* the list */
    if (listing) {
        const int n = (int)sh->lcount;
        s = mrt_topk_refine<T>([&](int i) { return lkey[i]; }, n, dsel << 20, 0xFFF00000u, krem, hist, sh, tid);
        for (int p = tid; p < n; p += T) {
            const uint32_t key = lkey[p], b = 1u << (lidx[p] & 31);
            if (mrt_topk_above(s, key)) atomicOr(&sel[lidx[p] >> 5], b);
            else if (s.tkey != 0u && key == s.tkey) atomicOr(&tie[lidx[p] >> 5], b);
        }
        mrt_topk_bar<T>();
    }
    if constexpr (STOP == 4) return;

    mrt_topk_emit<T>(sel, tie, W, s.need, min(nvalid, (uint32_t)k), k, out, (int *)hist, sh, tid);
}
#pragma nv_diag_default 128

/* ---- One row with its keys in registers (kv <= T * PER) -------------------------------------
 * Thread t holds the PER keys [PER * t, PER * t + PER): thread order is index order. The same
 * radix select as mrt_topk_row (digits of 12, 12 and 8 bits: a histogram of the keys matching
 * the prefix so far, then mrt_topk_find; it ends early when the digit's whole bin is taken),
 * but every pass reads registers instead of the row, and the output is one scan: a thread's
 * position is the count of selected keys before it, (above the threshold) + min(equal to it,
 * need). No bitmaps, no list, no cache. Standalone kernels only (the megakernel's row takes
 * 256 threads: mrt_topk_row). smem: sizeof(mrt_topk_shared) + MRT_TOPK_NB * 4 bytes.
 * H200, session 8 (CUDA graph, M=16 k=2048): kv=8192 7.95 us against mrt_topk_row's 9.67;
 * kv=2048 (no selection) 5.83 against 6.02, k=16 6.93 against 7.85: the fixed part (load,
 * pass 0's histogram, the scans) is now most of it, not measured apart. */

template <int T, int PER, bool STAGE = false>
static __device__ void mrt_topk_row_reg(const float *row, int kv, int k, int *out, uint8_t *smem, int tid) {
    static_assert(T % 32 == 0 && MRT_TOPK_NB % T == 0 && PER % 4 == 0 && T * PER <= 65535,
                  "topk registers: T a warp multiple dividing NB, PER a multiple of 4, counts in 16 bits");
    mrt_topk_shared *sh = (mrt_topk_shared *)smem;
    uint32_t *hist = (uint32_t *)(smem + sizeof(mrt_topk_shared));
    const int i0 = tid * PER;
    const bool vec = (kv & 3) == 0 && ((uintptr_t)row & 15) == 0;
    uint32_t key[PER];
#pragma unroll
    for (int j = 0; j < PER; j += 4) { /* plain loads: the logits are a producer's */
        const int i = i0 + j;
        if (vec && i < kv) {
            const float4 v = *(const float4 *)(row + i);
            key[j] = mrt_topk_key(v.x), key[j + 1] = mrt_topk_key(v.y);
            key[j + 2] = mrt_topk_key(v.z), key[j + 3] = mrt_topk_key(v.w);
        } else {
#pragma unroll
            for (int e = 0; e < 4; e++) key[j + e] = i + e < kv ? mrt_topk_key(row[i + e]) : 0u;
        }
    }
    /* pass 0: the top 12 bits of every finite key; then passes 1 and 2 as mrt_topk_row's */
    for (int i = tid; i < MRT_TOPK_NB; i += T) hist[i] = 0u;
    mrt_topk_bar<T>();
#pragma unroll
    for (int j = 0; j < PER; j++)
        if (key[j] != 0u) atomicAdd(&hist[key[j] >> 20], 1u);
    mrt_topk_bar<T>();
    const mrt_topk_sel s = mrt_topk_select<T>(
        [&](auto f) {
#pragma unroll
            for (int j = 0; j < PER; j++) f(key[j]);
        },
        (uint32_t)k, hist, sh, tid);
    uint32_t ng = 0u, ne = 0u;
#pragma unroll
    for (int j = 0; j < PER; j++) {
        ng += mrt_topk_above(s, key[j]) ? 1u : 0u;
        ne += s.tkey != 0u && key[j] == s.tkey ? 1u : 0u;
    }
    uint32_t tot;
    const uint32_t ex = mrt_topk_scan<T>((ng << 16) | ne, sh, &tot, tid); /* totals <= T * PER < 2^16 */
    const int taken = (int)((tot >> 16) + min(tot & 0xFFFFu, s.need));
    /* STAGE: the indices go to shared memory at their positions (hist is free: the last digit
     * search ended with a barrier), then out in whole rows. Stored straight, each store of a
     * warp touches 32 runs of out (one per thread): 8 such stores a thread at kv = 8192. */
    const bool stage = STAGE && taken <= MRT_TOPK_NB;
    int *dst = stage ? (int *)hist : out;
    uint32_t e = ex & 0xFFFFu, pos = (ex >> 16) + min(e, s.need);
#pragma unroll
    for (int j = 0; j < PER; j++) {
        const bool eq = s.tkey != 0u && key[j] == s.tkey;
        if (mrt_topk_above(s, key[j]) || (eq && e < s.need)) dst[pos++] = i0 + j;
        e += eq ? 1u : 0u;
    }
    if (stage) {
        mrt_topk_bar<T>();
        for (int r = tid; r < taken; r += T) out[r] = dst[r];
    }
    for (int r = taken + tid; r < k; r += T) out[r] = -1;
}

/* ---- One row, each thread a run of keys in shared memory (kv <= MRT_TOPK_CACHE_MAX) ----------
 * The register row's select and output (a thread's keys are one run [per * t, per * t + per),
 * so thread order is index order and the output positions are one scan: no bitmaps, no list)
 * with the keys in shared memory and the loops over them rolled. Why: the megakernel runs an
 * F1 row once a step on a worker whose instruction caches hold other ops' code by then, so
 * the row's code is fetched cold every step and its size is time (MEGAKERNEL.md session 34).
 * The row comes in by cp.async from a rolled loop (every copy in flight at once, nothing held
 * in registers); pass 0 converts and counts in copy order (a histogram needs no order; no
 * bank conflicts), as do the refining passes; only the count and the output read runs.
 * smem: mrt_topk_runs_smem_bytes(kv) = scalars | hist[NB] | keys[kv rounded up to 4]. */
static __host__ __device__ __forceinline__ long long mrt_topk_runs_smem_bytes(int kv) {
    return (long long)sizeof(mrt_topk_shared) + MRT_TOPK_NB * 4LL + (((long long)kv + 3) & ~3LL) * 4;
}

/* mrt_topk_row_runs' phase hook (the megakernel's -DMRT_MEGA_TOPK_PROBE=2 and 3): every thread
 * calls it after the row's copy (0), after pass 0 (1) and after the selection (2), each just
 * after a barrier. */
struct mrt_topk_no_hook {
    __device__ __forceinline__ void operator()(int) const {}
};

template <int T, class Hook = mrt_topk_no_hook>
static __device__ void mrt_topk_row_runs(const float *row, int kv, int k, int *out, uint8_t *smem, int tid,
                                         const Hook &hook = Hook()) {
    static_assert(T % 32 == 0 && T <= 1024, "topk runs: T a warp multiple up to 1024");
    mrt_topk_shared *sh = (mrt_topk_shared *)smem;
    uint32_t *hist = (uint32_t *)(smem + sizeof(mrt_topk_shared));
    uint32_t *keys = hist + MRT_TOPK_NB; /* the row's floats, then their keys in place */
    uint4 *keys4 = (uint4 *)keys;
    const int n4 = (kv + 3) / 4, per = (n4 + T - 1) / T * 4; /* uint4s of the row; keys a run */
    const int r0 = min(4 * n4, tid * per), r1 = min(4 * n4, r0 + per);

    for (int i = tid; i < MRT_TOPK_NB; i += T) hist[i] = 0u;
    if ((kv & 3) == 0 && ((uintptr_t)row & 15) == 0)
        for (int c = tid; c < n4; c += T) mrt_cp_async16(keys4 + c, row + 4 * c);
    else
        for (int i = tid; i < kv; i += T) mrt_cp_async4(keys + i, row + i);
    mrt_cp_async_wait_all();
    mrt_topk_bar<T>();
    hook(0);
    /* pass 0: keys in place (0 past kv: the excluded key), the top 12 bits of each counted */
#pragma unroll 1
    for (int c = tid; c < n4; c += T) {
        const uint4 f = keys4[c];
        const int i = 4 * c;
        const uint4 q = make_uint4(mrt_topk_key(__uint_as_float(f.x)), i + 1 < kv ? mrt_topk_key(__uint_as_float(f.y)) : 0u,
                                   i + 2 < kv ? mrt_topk_key(__uint_as_float(f.z)) : 0u,
                                   i + 3 < kv ? mrt_topk_key(__uint_as_float(f.w)) : 0u);
        keys4[c] = q;
        if (q.x) atomicAdd(&hist[q.x >> 20], 1u);
        if (q.y) atomicAdd(&hist[q.y >> 20], 1u);
        if (q.z) atomicAdd(&hist[q.z >> 20], 1u);
        if (q.w) atomicAdd(&hist[q.w >> 20], 1u);
    }
    mrt_topk_bar<T>();
    hook(1);
    const mrt_topk_sel s = mrt_topk_select<T>(
        [&](auto f) {
#pragma unroll 1
            for (int c = tid; c < n4; c += T) {
                const uint4 q = keys4[c];
                f(q.x), f(q.y), f(q.z), f(q.w);
            }
        },
        (uint32_t)k, hist, sh, tid);
    hook(2); /* mrt_topk_find ends with a barrier */
    /* the output: this run's selected keys, positioned by one scan (counts < 2^16: kv is) */
    uint32_t ng = 0u, ne = 0u;
#pragma unroll 1
    for (int i = r0; i < r1; i += 4) {
        const uint4 q = keys4[i / 4];
        ng += (mrt_topk_above(s, q.x) ? 1u : 0u) + (mrt_topk_above(s, q.y) ? 1u : 0u) +
              (mrt_topk_above(s, q.z) ? 1u : 0u) + (mrt_topk_above(s, q.w) ? 1u : 0u);
        if (s.tkey) ne += (q.x == s.tkey ? 1u : 0u) + (q.y == s.tkey ? 1u : 0u) + (q.z == s.tkey ? 1u : 0u) +
                          (q.w == s.tkey ? 1u : 0u);
    }
    uint32_t tot;
    const uint32_t ex = mrt_topk_scan<T>((ng << 16) | ne, sh, &tot, tid);
    const uint32_t taken = (tot >> 16) + min(tot & 0xFFFFu, s.need);
    const bool stage = taken <= MRT_TOPK_NB; /* uniform; hist is free (the last search ended with a barrier) */
    int *dst = stage ? (int *)hist : out;
    uint32_t e = ex & 0xFFFFu, pos = (ex >> 16) + min(e, s.need);
#pragma unroll 1
    for (int i = r0; i < r1; i += 4) {
        const uint4 q = keys4[i / 4];
        const uint32_t kq[4] = {q.x, q.y, q.z, q.w};
#pragma unroll
        for (int j = 0; j < 4; j++) {
            const bool eq = s.tkey != 0u && kq[j] == s.tkey;
            if (mrt_topk_above(s, kq[j]) || (eq && e < s.need)) dst[pos++] = i + j;
            e += eq ? 1u : 0u;
        }
    }
    if (stage) {
        mrt_topk_bar<T>();
        for (int r = tid; r < (int)taken; r += T) out[r] = dst[r];
    }
    for (int r = (int)taken + tid; r < k; r += T) out[r] = -1;
    mrt_topk_bar<T>(); /* the next row (or instruction) rewrites shared memory */
}

/* Rows [r0, r1) of the op as mrt_topk_row_runs (a.kv <= MRT_TOPK_CACHE_MAX). */
template <int T, class Hook = mrt_topk_no_hook>
static __device__ void mrt_topk_tile_runs(const mrt_topk_args &a, int r0, int r1, uint8_t *smem, int tid,
                                          const Hook &hook = Hook()) {
    for (int r = r0; r < r1; r++)
        mrt_topk_row_runs<T>(a.logits + (long long)r * a.kv, a.kv, a.k, a.out + (long long)r * a.k, smem, tid, hook);
}

/* ---- One row, keys as 24-bit prefixes in shared memory (rows past the 32-bit runs' cache) ----
 * A row of 65536 keys does not fit shared memory as 32-bit keys (256 KB), and the row read
 * twice from global memory (mrt_topk_row) took 79 us in the megakernel's step (H200, session 46
 * run 2, M=128 KV=65536, one task a row; the same row in two slices on two workers 27.7 us
 * each). Here each key keeps its top 24 bits, 3 bytes (hi[i]: bits 31..16, mid[i]: 23..8): pass
 * 0 reads the row once (MRT_TOPK_R24_LOADS float4 a thread in flight) and counts the top 12
 * bits, the second digit (bits 19..8) is counted from shared memory, and only keys sharing the
 * threshold's whole 24-bit prefix are read again from global memory (the third digit, bits
 * 7..0, and their bits in the output), typically none or a few a row: a 24-bit prefix is
 * 1/2^15 of an octave. The output: bitmaps of the selected keys and of the threshold's ties,
 * one classification pass, then the bitmap row's emit (mrt_topk_emit). kv a multiple of 4 and
 * the row 16-byte aligned, kv <= MRT_TOPK_R24_MAX (the callers check). smem:
 * mrt_topk_runs24_smem_bytes(kv) = scalars | hist[NB] (then the bitmaps) | hi[kp] mid[kp]
 * (then the output's staging, where its indices fit), kp = kv rounded up to 32 (0 past kv):
 * 213536 bytes at kv = 65536 (the megakernel's F1 has 229616). The shared-memory passes take
 * 8 keys a load pair (a 16-byte and an 8-byte load). Phases of a row of 65536 keys at M=128 in the step (H200,
 * session 46, -DMRT_MEGA_TOPK_PROBE=2, us): with 4 keys a load pair, 8 loads in flight and
 * the runs' output (count, scan, write: two passes) pass 0 18.2, selection 10.0, output 27.0
 * (run 5); with 8 keys and 16 loads 18.8 / 9.1 / 26.9 (run 6): the passes are bound by the
 * SM's issue of their per-key instructions (one SM, 65536 keys), not by their loads' latency,
 * hence one classification pass instead of two.
 */
#ifndef MRT_TOPK_R24_LOADS
#define MRT_TOPK_R24_LOADS 16 /* pass 0: float4 loads in flight a thread (a row of 65536 keys: 16384) */
#endif
#define MRT_TOPK_R24_MAX 65536 /* the output's two bitmaps fit the histogram's words */
static __host__ __device__ __forceinline__ long long mrt_topk_runs24_smem_bytes(int kv) {
    return (long long)sizeof(mrt_topk_shared) + MRT_TOPK_NB * 4LL + (((long long)kv + 31) & ~31LL) * 3;
}
/* whether mrt_topk_row_runs24 takes a row of kv keys at `logits` with `smem` bytes of shared
 * memory (its callers' one test: 16-byte aligned rows, kv a multiple of 4 up to the maximum) */
static __host__ __device__ __forceinline__ bool mrt_topk_runs24_fits(int kv, const float *logits, long long smem) {
    return kv % 4 == 0 && kv <= MRT_TOPK_R24_MAX && ((uintptr_t)logits & 15) == 0 && mrt_topk_runs24_smem_bytes(kv) <= smem;
}

/* the 24-bit prefixes of keys 8c .. 8c + 7 (one 16-byte and one 8-byte shared load) */
static __device__ __forceinline__ void mrt_topk_p24x8(const uint16_t *hi, const uint8_t *mid, int c, uint32_t (&q)[8]) {
    const uint4 h = ((const uint4 *)hi)[c];
    const uint2 m = ((const uint2 *)mid)[c];
    const uint32_t hw[4] = {h.x, h.y, h.z, h.w}, mw[2] = {m.x, m.y};
#pragma unroll
    for (int j = 0; j < 8; j++)
        q[j] = (((hw[j / 2] >> (16 * (j & 1))) & 0xFFFFu) << 8) | ((mw[j / 4] >> (8 * (j & 3))) & 0xFFu);
}

template <int T, class Hook = mrt_topk_no_hook>
static __device__ void mrt_topk_row_runs24(const float *row, int kv, int k, int *out, uint8_t *smem, int tid,
                                           const Hook &hook = Hook()) {
    static_assert(T % 32 == 0 && T <= 1024, "topk runs24: T a warp multiple up to 1024");
    mrt_topk_shared *sh = (mrt_topk_shared *)smem;
    uint32_t *hist = (uint32_t *)(smem + sizeof(mrt_topk_shared));
    /* the prefixes of kp keys (past kv: 0, excluded), read 8 at a time, 32 a bitmap word */
    const int n4 = kv / 4, kp = (kv + 31) & ~31, n8 = kp / 8, W = kp / 32;
    uint16_t *hi = (uint16_t *)(hist + MRT_TOPK_NB);
    uint8_t *mid = (uint8_t *)(hi + kp);
    /* the output's bitmaps take the histogram's words once the selection is made (2 W <= NB:
     * kv <= 65536), and its staging the prefixes' (read by then) */
    uint32_t *sel = hist, *tie = hist + mrt_topk_words(kv);

    for (int i = tid; i < MRT_TOPK_NB; i += T) hist[i] = 0u;
    for (int i = kv + tid; i < kp; i += T) hi[i] = 0u, mid[i] = 0u;
    mrt_topk_bar<T>();
    /* pass 0, in copy order: prefixes stored, top 12 bits counted */
    for (int c0 = tid; c0 < n4; c0 += MRT_TOPK_R24_LOADS * T) {
        float4 v[MRT_TOPK_R24_LOADS];
#pragma unroll
        for (int u = 0; u < MRT_TOPK_R24_LOADS; u++) {
            const int c = c0 + u * T;
            v[u] = c < n4 ? ((const float4 *)row)[c] : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        }
#pragma unroll
        for (int u = 0; u < MRT_TOPK_R24_LOADS; u++) {
            const int c = c0 + u * T;
            if (c >= n4) break;
            const uint32_t q0 = mrt_topk_key(v[u].x), q1 = mrt_topk_key(v[u].y), q2 = mrt_topk_key(v[u].z),
                           q3 = mrt_topk_key(v[u].w);
            ((uint2 *)hi)[c] = make_uint2((q0 >> 16) | (q1 & 0xFFFF0000u), (q2 >> 16) | (q3 & 0xFFFF0000u));
            ((uint32_t *)mid)[c] = ((q0 >> 8) & 0xFFu) | (q1 & 0xFF00u) | ((q2 << 8) & 0xFF0000u) | ((q3 << 16) & 0xFF000000u);
            if (q0) atomicAdd(&hist[q0 >> 20], 1u);
            if (q1) atomicAdd(&hist[q1 >> 20], 1u);
            if (q2) atomicAdd(&hist[q2 >> 20], 1u);
            if (q3) atomicAdd(&hist[q3 >> 20], 1u);
        }
    }
    mrt_topk_bar<T>();
    hook(1);
    /* the selection: digits of 12 (pass 0), 12 (bits 19..8, shared memory) and 8 bits (7..0, the
     * keys of the 24-bit prefix from global memory), as mrt_topk_select's */
    mrt_topk_sel s = {1u, 0u, 0u}; /* every finite key */
    uint32_t krem = (uint32_t)k;
    const uint32_t nvalid = mrt_topk_find<T>(hist, MRT_TOPK_NB, krem, sh, tid);
    if (nvalid > krem) {
        krem -= sh->above;
        const uint32_t d0 = sh->dsel;
        if (krem == sh->eqcnt) {
            s.lo = d0 << 20; /* the digit's whole bin is taken */
        } else {
            for (int i = tid; i < MRT_TOPK_NB; i += T) hist[i] = 0u;
            mrt_topk_bar<T>();
#pragma unroll 2
            for (int c = tid; c < n8; c += T) {
                uint32_t q[8];
                mrt_topk_p24x8(hi, mid, c, q);
#pragma unroll
                for (int j = 0; j < 8; j++)
                    if (q[j] != 0u && (q[j] >> 12) == d0) atomicAdd(&hist[q[j] & 0xFFFu], 1u);
            }
            mrt_topk_bar<T>();
            mrt_topk_find<T>(hist, MRT_TOPK_NB, krem, sh, tid);
            krem -= sh->above;
            const uint32_t pre = (d0 << 12) | sh->dsel;
            if (krem == sh->eqcnt) {
                s.lo = pre << 8;
            } else {
                for (int i = tid; i < 256; i += T) hist[i] = 0u;
                mrt_topk_bar<T>();
#pragma unroll 1
                for (int c = tid; c < n8; c += T) {
                    uint32_t q[8];
                    mrt_topk_p24x8(hi, mid, c, q);
#pragma unroll
                    for (int j = 0; j < 8; j++)
                        if (q[j] == pre) atomicAdd(&hist[mrt_topk_key(row[8 * c + j]) & 0xFFu], 1u);
                }
                mrt_topk_bar<T>();
                mrt_topk_find<T>(hist, 256, krem, sh, tid);
                krem -= sh->above;
                const uint32_t key = (pre << 8) | sh->dsel;
                s = krem == sh->eqcnt ? mrt_topk_sel{key, 0u, 0u} : mrt_topk_sel{1u, key, krem};
            }
        }
    }
    hook(2); /* mrt_topk_find ends with a barrier */
    /* the output: the row's bitmaps of selected keys and of keys equal to the threshold, a
     * word (32 keys) at a time in copy order, then mrt_topk_emit (each thread a run of words,
     * indices in order). The full key is read only for a key of the threshold's 24-bit prefix
     * that the prefix cannot decide. */
    const uint32_t thr = s.tkey ? s.tkey : s.lo, t24 = thr >> 8;
    const bool by_prefix = !s.tkey && (s.lo & 0xFFu) == 0u; /* key >= lo <=> prefix >= lo's */
#pragma unroll 1
    for (int w = tid; w < W; w += T) {
        uint32_t ws = 0u, wt = 0u;
#pragma unroll
        for (int h = 0; h < 4; h++) {
            uint32_t q[8];
            mrt_topk_p24x8(hi, mid, 4 * w + h, q);
#pragma unroll
            for (int j = 0; j < 8; j++) {
                const uint32_t b = 1u << (8 * h + j);
                if (q[j] > t24) {
                    ws |= b;
                } else if (q[j] == t24 && q[j] != 0u) {
                    if (by_prefix) {
                        ws |= b;
                    } else {
                        const uint32_t key = mrt_topk_key(row[32 * w + 8 * h + j]);
                        if (s.tkey ? key > s.tkey : key >= s.lo) ws |= b;
                        else if (s.tkey && key == s.tkey) wt |= b;
                    }
                }
            }
        }
        sel[w] = ws, tie[w] = wt;
    }
    mrt_topk_bar<T>();
    const uint32_t taken = min(nvalid, (uint32_t)k); /* every finite key, or the k selected */
    /* staged where the prefixes' 3 kp bytes hold the indices (not in a row of few keys
     * that takes most of them) */
    int *stage = 4LL * taken <= 3LL * kp ? (int *)hi : nullptr;
    mrt_topk_emit<T>(sel, tie, W, s.need, taken, k, out, stage, sh, tid); /* ends with a barrier */
}

/* Rows [r0, r1) of the op as mrt_topk_row_runs24 (a.kv <= a.cache24); the hook as the runs
 * row's, after pass 0 (1) and after the selection (2). */
template <int T, class Hook = mrt_topk_no_hook>
static __device__ void mrt_topk_tile_runs24(const mrt_topk_args &a, int r0, int r1, uint8_t *smem, int tid,
                                            const Hook &hook = Hook()) {
    for (int r = r0; r < r1; r++)
        mrt_topk_row_runs24<T>(a.logits + (long long)r * a.kv, a.kv, a.k, a.out + (long long)r * a.k, smem, tid, hook);
}

/* ---- The cluster variant: one row over C CTAs of T threads (standalone kernels only) -----------
 * A single CTA per row leaves most SMs idle at decode M (16 rows, 132 SMs) and is bound by one SM's
 * issue rate; here the row is cut into C contiguous slices, one per CTA of a thread-block
 * cluster, and the CTAs meet through distributed shared memory (DSMEM) in the leader (rank 0):
 *  - each CTA keeps its slice's keys in its own shared memory and builds a local histogram of
 *    each digit, then adds its non-zero bins into the leader's (remote atomics); after a cluster
 *    barrier every CTA reads the merged histogram and finds the same digit (no second barrier);
 *  - emit: each CTA counts its slice's selected keys (step 3a), the per-CTA totals go to the
 *    leader, and after a cluster barrier each CTA adds the totals of the CTAs before it (the
 *    slices are in index order), so the "first `need` keys equal to the threshold" rule holds
 *    across the whole row and each CTA writes its own part of the output (step 3b). */
static __device__ __forceinline__ void mrt_tkc_sync() { cooperative_groups::this_cluster().sync(); }
static __device__ __forceinline__ unsigned mrt_tkc_rank() { return cooperative_groups::this_cluster().block_rank(); }
template <class P> static __device__ __forceinline__ P *mrt_tkc_map(P *p, unsigned r) {
    return cooperative_groups::this_cluster().map_shared_rank(p, r);
}

#define MRT_TOPKC_CACHE_MAX 16384 /* slice keys kept in shared memory per CTA */

/* Shared memory of a CTA of the cluster variant: scalars | lhist[NB] | g0[NB] | g1[NB] | g2[256] |
 * cache[cache_keys]; g0-g2 (the merged histograms of the three digits) are used in the leader
 * only (every CTA has the same layout). */
static __host__ __device__ __forceinline__ long long mrt_topkc_smem_bytes(int cache_keys) {
    return (long long)sizeof(mrt_topk_shared) + (3LL * MRT_TOPK_NB + 256) * 4 + (long long)cache_keys * 4;
}

/* slice length: kv / C rounded up to a multiple of 4 (rows stay 16-byte aligned per slice) */
static __host__ __device__ __forceinline__ int mrt_topkc_slice(int kv, int C) { return ((kv + C - 1) / C + 3) & ~3; }

template <int T, int C>
static __device__ void mrt_topk_row_cluster(const float *row, int kv, int k, int *out, uint8_t *smem, int cache_keys,
                                            int tid) {
    static_assert(T % 32 == 0 && MRT_TOPK_NB % T == 0 && C >= 1 && C <= 16, "topk cluster: bad T or C");
    mrt_topk_shared *sh = (mrt_topk_shared *)smem;
    uint32_t *lhist = (uint32_t *)(smem + sizeof(mrt_topk_shared));
    uint32_t *g0 = lhist + MRT_TOPK_NB, *g1 = g0 + MRT_TOPK_NB, *g2 = g1 + MRT_TOPK_NB;
    uint32_t *cache = g2 + 256;
    const unsigned q = mrt_tkc_rank();
    const int S = mrt_topkc_slice(kv, C);
    const int s0 = min(kv, (int)q * S), s1 = min(kv, s0 + S);       /* this CTA's slice */
    const int R = ((S + T - 1) / T + 3) & ~3;                         /* each thread's run */
    const int m0 = s0 + tid * R, m1 = min(s1, m0 + R);                /* this thread's run */
    const bool cached = S <= cache_keys;
    uint32_t *ccache = cache + tid * R; /* my run in the cache (cache index = i - s0) */
    mrt_topk_shared *Lsh = mrt_tkc_map(sh, 0);
#define MRT_TKC_KEY(i) (cached ? ccache[(i) - m0] : mrt_topk_key(row[i]))

    /* 0. the leader's merged histograms start at zero (all digits at once: no clear later) */
    if (q == 0) {
        for (int i = tid; i < MRT_TOPK_NB; i += T) g0[i] = 0u, g1[i] = 0u;
        for (int i = tid; i < 256; i += T) g2[i] = 0u;
    }
    for (int i = tid; i < MRT_TOPK_NB; i += T) lhist[i] = 0u;
    mrt_topk_bar<T>();
    /* 1. load my run, keys into the cache, local histogram of the top 12 bits */
    if (cached && (kv & 3) == 0 && ((uintptr_t)row & 15) == 0) {
        for (int i = m0; i < m1; i += 4) { /* m0, m1 - m0 and s1 are multiples of 4 here */
            const float4 v = *(const float4 *)(row + i);
            const uint4 c = make_uint4(mrt_topk_key(v.x), mrt_topk_key(v.y), mrt_topk_key(v.z), mrt_topk_key(v.w));
            *(uint4 *)(ccache + (i - m0)) = c;
            if (c.x) atomicAdd(&lhist[c.x >> 20], 1u);
            if (c.y) atomicAdd(&lhist[c.y >> 20], 1u);
            if (c.z) atomicAdd(&lhist[c.z >> 20], 1u);
            if (c.w) atomicAdd(&lhist[c.w >> 20], 1u);
        }
    } else {
        for (int i = m0; i < m1; i++) {
            const uint32_t c = mrt_topk_key(row[i]);
            if (cached) ccache[i - m0] = c;
            if (c) atomicAdd(&lhist[c >> 20], 1u);
        }
    }
    mrt_topk_bar<T>();
    mrt_tkc_sync(); /* the leader's histograms are cleared */

    /* 2. radix select over the merged histograms */
    mrt_topk_sel s = {1u, 0u, 0u}; /* every finite key, unless the select below ends otherwise */
    uint32_t nvalid = 0;
    {
        uint32_t prefix = 0u, pmask = 0u, krem = (uint32_t)k;
        bool done = false;
        for (int p = 0; p < 3 && !done; p++) {
            const int nb = p == 2 ? 256 : MRT_TOPK_NB, sft = p == 0 ? 20 : p == 1 ? 8 : 0; /* digits 12, 12, 8 */
            uint32_t *Lg = mrt_tkc_map(p == 0 ? g0 : p == 1 ? g1 : g2, 0);
            if (p > 0) { /* local histogram of the next digit among the keys matching the prefix */
                for (int i = tid; i < nb; i += T) lhist[i] = 0u;
                mrt_topk_bar<T>();
                for (int i = m0; i < m1; i++) {
                    const uint32_t key = MRT_TKC_KEY(i);
                    if (key != 0u && (key & pmask) == prefix) atomicAdd(&lhist[(key >> sft) & (uint32_t)(nb - 1)], 1u);
                }
                mrt_topk_bar<T>();
            }
            for (int i = tid; i < nb; i += T) {
                const uint32_t v = lhist[i];
                if (v) atomicAdd(&Lg[i], v);
            }
            mrt_tkc_sync(); /* merged histogram of digit p complete */
            const uint32_t total = mrt_topk_find<T>(Lg, nb, krem, sh, tid); /* over the leader's histogram */
            if (p == 0) nvalid = total;
            if (p == 0 && total <= (uint32_t)k) break; /* uniform: every finite key is taken */
            const uint32_t dsel = sh->dsel, above = sh->above, eqcnt = sh->eqcnt;
            krem -= above;
            prefix |= dsel << sft, pmask |= (uint32_t)(nb - 1) << sft;
            done = krem == eqcnt; /* the digit's whole bin is taken: every key >= prefix */
            if (done) s.lo = prefix;
            else if (p == 2) s.tkey = prefix, s.need = krem;
        }
    }

    /* 3. emit: counts of this CTA's slice, the CTAs before it from the leader, then the writes */
    auto get = [&](int i) { return cached ? cache[i - s0] : mrt_topk_key(row[i]); };
    mrt_topk_count<T>(get, s0, s1, s, sh, tid);
    mrt_topk_bar<T>();
    uint32_t g, e, tg, te;
    mrt_topk_warp_base<T>(sh, tid, &g, &e, &tg, &te);
    if (tid == 0) Lsh->cnt[0][q] = tg, Lsh->cnt[1][q] = te;
    mrt_tkc_sync(); /* every CTA's counts are in the leader */
    for (int r = 0; r < (int)q; r++) g += Lsh->cnt[0][r], e += Lsh->cnt[1][r];
    mrt_tkc_sync(); /* nothing reads the leader's shared memory any more: CTAs may exit */
#undef MRT_TKC_KEY
    mrt_topk_write<T>(get, s0, s1, s, g, e, out, tid);
    if (q == 0)
        for (int r = (int)min(nvalid, (uint32_t)k) + tid; r < k; r += T) out[r] = -1;
}

/* ---- A row over several workers (the megakernel's F1 with split > 1; layout in topk.c) ------
 * One row of kv keys in P slices, each a task of its own worker; no task waits for another.
 * A member (mrt_topk_slice) counts its slice's keys by their top 12 bits, writes the slice's
 * G array (keys with digit >= b) and its (key, index) pairs grouped by digit, highest first;
 * the member that completes the row's group (ticket) runs mrt_topk_merge: the digit holding
 * the k-th largest from the P arrays (a 6-bit coarse digit, then the 6 bits under it: 2 x 65
 * G values a slice instead of 4096), every pair above that digit (a prefix of each slice's
 * pairs), the threshold among the digit's own pairs (the one-CTA row's list and radix
 * passes), and the output from bitmaps as the one-CTA row's. A member writes only the pairs
 * of digits the merge can read (at or above the slice's own k-th largest key's digit); the
 * merge reads O(k + the digit's keys) pairs, not the row. H200 (session 22 run 5): at M=1
 * KV=65536 four slices of 16384 keys take 11.3-12.7 us, the merging one 23.4 (the one-CTA row
 * took 77 us, session 21 run 8); a slice of 2048 keys ~5.4 us, the merge ~9 us more. */

/* Shared memory of a member: scalars | cursor[NB] | G[NB + 4] | its slice's keys (up to
 * cache_keys). */
static __host__ __device__ __forceinline__ long long mrt_topk_slice_smem_bytes(int cache_keys) {
    return (long long)sizeof(mrt_topk_shared) + (2LL * MRT_TOPK_NB + 4) * 4 + (long long)cache_keys * 4;
}
/* Keys of a slice a member keeps in shared memory given `smem` bytes (a multiple of 4: uint4
 * stores); a longer slice is read from global memory a second time. */
static __host__ __device__ __forceinline__ int mrt_topk_slice_cache(long long slice, long long smem) {
    const long long room = (smem - mrt_topk_slice_smem_bytes(0)) / 4;
    return (int)(slice < room ? slice : room) & ~3;
}
/* ... of the finalizer: the one-CTA row's without a cache, three per-slice scalars and two
 * per-slice runs of 65 G values (the coarse digits' bounds, then the fine digits'). */
#define MRT_TOPK_MERGE_RUN 68 /* 65 G values, padded */
static __host__ __device__ __forceinline__ long long mrt_topk_merge_smem_bytes(int kv) {
    return mrt_topk_smem_bytes(kv, 0) + (3LL * (MRT_TOPK_MAX_SLICES + 4) + 2LL * MRT_TOPK_MAX_SLICES * MRT_TOPK_MERGE_RUN) * 4;
}

/* Member: keys [s0, s1) of row r -> its G array (cnt row r * P + p) and its pairs (ent row r
 * from 2 * s0). T threads; ends with a barrier (every write of the CTA is done: the caller's
 * thread 0 then takes the group's ticket with release semantics). */
template <int T>
static __device__ void mrt_topk_slice(const mrt_topk_args &a, int r, int s0, int s1, int p, int P, uint8_t *smem,
                                      int tid) {
    mrt_topk_shared *sh = (mrt_topk_shared *)smem;
    uint32_t *hist = (uint32_t *)(smem + sizeof(mrt_topk_shared)), *Gs = hist + MRT_TOPK_NB;
    uint32_t *cache = Gs + MRT_TOPK_NB + 4;
    const float *row = a.logits + (long long)r * a.kv;
    const int n = s1 - s0;
    const bool cached = n <= a.slice_cache;
    for (int i = tid; i < MRT_TOPK_NB; i += T) hist[i] = 0u;
    if (tid == 0) sh->dsel = 0u;
    mrt_topk_bar<T>();
    /* vec: n is then a multiple of 4 (the finite count is the merge's business, not kept) */
    mrt_topk_pass0<T>(row + s0, n, (a.kv & 3) == 0 && (s0 & 3) == 0 && ((uintptr_t)a.logits & 15) == 0, cache, cached,
                      hist, tid);
    mrt_topk_bar<T>();
    /* G[b] = keys with digit >= b, each thread a run of digits from the top; hist[b] becomes
     * the first pair slot of digit b (the keys above it). sh->dsel: the highest digit with k
     * keys at or above it in this slice alone (0 if none): the row's threshold digit is at
     * least that, so the merge never reads a pair below it and those are not written (at
     * most k pairs and one digit's, not the slice). G goes out from shared memory in whole
     * rows (a thread's run of digits as stores would touch a sector a digit). */
    uint32_t *G = a.cnt + ((long long)r * P + p) * MRT_TOPK_GW;
    const int per = (MRT_TOPK_NB + T - 1) / T;
    uint32_t local = 0, total;
    for (int i = 0; i < per; i++) {
        const int q = tid * per + i;
        if (q < MRT_TOPK_NB) local += hist[MRT_TOPK_NB - 1 - q];
    }
    uint32_t c = mrt_topk_scan<T>(local, sh, &total, tid);
    for (int i = 0; i < per; i++) {
        const int q = tid * per + i, b = MRT_TOPK_NB - 1 - q;
        if (q >= MRT_TOPK_NB) break;
        const uint32_t h = hist[b];
        if (c < (uint32_t)a.k && c + h >= (uint32_t)a.k) sh->dsel = (uint32_t)b;
        hist[b] = c, c += h, Gs[b] = c;
    }
    if (tid == 0) Gs[MRT_TOPK_NB] = 0u;
    mrt_topk_bar<T>();
    for (int i = tid; i <= MRT_TOPK_NB; i += T) G[i] = Gs[i];
    uint2 *ent = (uint2 *)(a.ent + (long long)r * 2 * a.kv) + s0;
    const uint32_t dmin = sh->dsel;
    for (int i = tid; i < n; i += T) {
        const uint32_t key = cached ? cache[i] : mrt_topk_key(row[s0 + i]);
        if (key && (key >> 20) >= dmin) ent[atomicAdd(&hist[key >> 20], 1u)] = make_uint2(key, (uint32_t)(s0 + i));
    }
    mrt_topk_bar<T>();
}

/* Finalizer of row r (P slices of S keys): after every member's writes (the ticket's acquire by
 * thread 0, then a barrier). Reads the members' data with ld.global.cg: other SMs wrote it. */
template <int T>
static __device__ void mrt_topk_merge(const mrt_topk_args &a, int r, int P, int S, uint8_t *smem, int tid) {
    mrt_topk_shared *sh = (mrt_topk_shared *)smem;
    uint32_t *hist = (uint32_t *)(smem + sizeof(mrt_topk_shared));
    uint32_t *lkey = hist + MRT_TOPK_NB;
    int *lidx = (int *)(lkey + MRT_TOPK_LIST);
    const int W = (a.kv + 31) / 32, Wpad = mrt_topk_words(a.kv);
    uint32_t *sel = (uint32_t *)(lidx + MRT_TOPK_LIST), *tie = sel + Wpad;
    uint32_t *pa = tie + Wpad, *pe = pa + MRT_TOPK_MAX_SLICES + 4, *poff = pe + MRT_TOPK_MAX_SLICES + 4;
    uint32_t *cg = poff + MRT_TOPK_MAX_SLICES + 4, *fg = cg + MRT_TOPK_MAX_SLICES * MRT_TOPK_MERGE_RUN;
    const uint32_t *G0 = a.cnt + (long long)r * P * MRT_TOPK_GW;
    const uint2 *ent = (const uint2 *)(a.ent + (long long)r * 2 * a.kv);
    auto entry = [&](int p, uint32_t j) { return __ldcg(ent + (long long)p * S + j); };
    auto mark = [&](uint32_t *bits, uint32_t idx) { atomicOr(&bits[idx >> 5], 1u << (idx & 31)); };
    const uint32_t k = (uint32_t)a.k;
    /* The 65 G values of digits base + 64 c (coarse) or base + c (fine) of every slice into
     * run[p * RUN + c] in one round trip; then hist[c] = the row's keys in digit c of the 64. */
    auto gather = [&](uint32_t *run, int base, int step) {
        for (int j = tid; j < 65 * P; j += T) {
            const int p = j / 65, c = j - 65 * p;
            run[p * MRT_TOPK_MERGE_RUN + c] = __ldcg(G0 + (long long)p * MRT_TOPK_GW + base + step * c);
        }
        mrt_topk_bar<T>();
        if (tid < 64) {
            uint32_t v = 0;
            for (int p = 0; p < P; p++) v += run[p * MRT_TOPK_MERGE_RUN + tid] - run[p * MRT_TOPK_MERGE_RUN + tid + 1];
            hist[tid] = v;
        }
        mrt_topk_bar<T>();
    };

    for (int i = tid; i < W; i += T) sel[i] = 0u, tie[i] = 0u;
    gather(cg, 0, 64);
    const uint32_t nvalid = mrt_topk_find<T>(hist, 64, k, sh, tid);
    mrt_topk_sel s = {1u, 0u, 0u}; /* every finite key */
    uint32_t dsel = 0u, krem = k;
    if (nvalid > k) {
        const uint32_t csel = sh->dsel;
        krem -= sh->above;
        mrt_topk_bar<T>(); /* every thread has read sh before the next search writes it */
        gather(fg, 64 * (int)csel, 1);
        mrt_topk_find<T>(hist, 64, krem, sh, tid);
        const uint32_t d = sh->dsel;
        dsel = 64 * csel + d, krem -= sh->above;
        if (tid < P) pa[tid] = fg[tid * MRT_TOPK_MERGE_RUN + d + 1], pe[tid] = fg[tid * MRT_TOPK_MERGE_RUN + d] - pa[tid];
    } else if (tid < P) { /* every pair of every slice is selected */
        pa[tid] = cg[tid * MRT_TOPK_MERGE_RUN], pe[tid] = 0u;
    }
    mrt_topk_bar<T>();
    if (tid == 0) {
        uint32_t o = 0;
        for (int p = 0; p < P; p++) poff[p] = o, o += pe[p];
        poff[P] = o;
    }
    mrt_topk_bar<T>();
    const uint32_t n = poff[P];                  /* the threshold digit's pairs */
    const bool whole = nvalid > k && krem == n;  /* that digit's whole bin is taken */
    const bool listed = !whole && n <= MRT_TOPK_LIST;
    /* one pass over each slice's pairs at or above the digit: above it (or the whole bin) into
     * sel, the digit's own into the list */
    for (int p = 0; p < P; p++) {
        const uint32_t above = pa[p], m = above + pe[p], o = poff[p];
        for (uint32_t j = tid; j < m; j += T) {
            if (j >= above && !whole && !listed) break; /* j grows: the rest are the digit's, read below */
            const uint2 e = entry(p, j);
            if (j < above || whole) mark(sel, e.y);
            else lkey[o + j - above] = e.x, lidx[o + j - above] = (int)e.y;
        }
    }
    if (whole) s.lo = dsel << 20;
    else if (nvalid > k) { /* the threshold among the digit's pairs */
        mrt_topk_bar<T>();
        auto at = [&](int i) { /* pair i of the digit, slice after slice, from global memory */
            int p = 0;
            while (p + 1 < P && (uint32_t)i >= poff[p + 1]) p++;
            return entry(p, pa[p] + (uint32_t)i - poff[p]);
        };
        if (listed) {
            s = mrt_topk_refine<T>([&](int i) { return lkey[i]; }, (int)n, dsel << 20, 0xFFF00000u, krem, hist, sh, tid);
            for (int i = tid; i < (int)n; i += T) {
                const uint32_t key = lkey[i];
                if (mrt_topk_above(s, key)) mark(sel, (uint32_t)lidx[i]);
                else if (s.tkey != 0u && key == s.tkey) mark(tie, (uint32_t)lidx[i]);
            }
        } else {
            s = mrt_topk_refine<T>([&](int i) { return at(i).x; }, (int)n, dsel << 20, 0xFFF00000u, krem, hist, sh, tid);
            for (int i = tid; i < (int)n; i += T) {
                const uint2 e = at(i);
                if (mrt_topk_above(s, e.x)) mark(sel, e.y);
                else if (s.tkey != 0u && e.x == s.tkey) mark(tie, e.y);
            }
        }
    }
    mrt_topk_bar<T>();
    mrt_topk_emit<T>(sel, tie, W, s.need, min(nvalid, k), a.k, a.out + (long long)r * a.k, (int *)hist, sh, tid);
}

/* Rows [r0, r1) of the op: the tile of the plan (payload r0 r1). STOP: mrt_topk_row's. */
template <int T, int STOP = 0>
static __device__ void mrt_topk_tile(const mrt_topk_args &a, int r0, int r1, uint8_t *smem, int tid) {
    for (int r = r0; r < r1; r++)
        mrt_topk_row<T, STOP>(a.logits + (long long)r * a.kv, a.kv, a.k, a.out + (long long)r * a.k, smem, a.cache_keys,
                        tid);
}

/* Row r of the op by the cluster whose CTAs call this (cache_keys: mrt_topkc_slice or 0). */
template <int T, int C>
static __device__ void mrt_topk_tile_cluster(const mrt_topk_args &a, int r, uint8_t *smem, int tid) {
    mrt_topk_row_cluster<T, C>(a.logits + (long long)r * a.kv, a.kv, a.k, a.out + (long long)r * a.k, smem,
                               a.cache_keys, tid);
}

#endif
