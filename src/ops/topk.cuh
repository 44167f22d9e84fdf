/* topk (F1) on the GPU: the k largest finite logits of a row as indices, sorted by (logit
 * descending, index ascending), -1 padded. One row is the work of T threads (one CTA in the
 * standalone kernel). The C reference is `cpu` in topk.c; the launcher is src/cuda/index_ops.cu.
 *
 * Keys: each float maps to an order-preserving uint32 (negative: ~bits, else bits | 2^31);
 * -0.0 is folded into +0.0 (the reference compares with ==) and non-finite values map to 0,
 * which no finite value reaches (the smallest finite key is 0x00800000), so 0 = "excluded".
 *
 *  1. Load the row (into shared memory when it fits) and count the finite values.
 *  2. Radix select, MSB first, digits of 12, 12 and 8 bits: a shared histogram of the keys that
 *     match the prefix so far, then the digit where the k-th largest lies. Stop as soon as the
 *     keys >= the prefix are at most CAP (usually after the first digit: then the k-th value
 *     need not be known exactly; the sort below settles the boundary).
 *  3. Gather those candidates (warp-aggregated atomics: their order does not matter, the sort
 *     is by a total order). If even the full 32-bit key leaves more than CAP (many values equal
 *     to the k-th), take every key > it and the first `need` keys == it in index order (a
 *     block-wide scan in index order), exactly as the reference breaks ties.
 *  4. Sort the <= CAP candidates: bucket them by (key - lowest) >> shift into NB buckets
 *     (descending), then each candidate's rank is its bucket's start plus the number of members
 *     of its bucket that precede it; out[rank] = index when rank < k. Buckets are small for
 *     real logits; many equal values make them large (quadratic in a bucket's size, still exact).
 * Every step is a pass over shared memory between barriers: no spin, no global atomics.
 *
 * Measured (H200, 2026-11-29): 17.4 us a kernel (CUDA graph) for M = 16, kv = 8192, k = 2048 on
 * E1 logits with the single-CTA row (1024 threads; 512 threads: 21.0 us), although the work is
 * small (one radix digit suffices, ~2150 candidates, buckets of <= 7): one SM per row is bound by
 * its issue rate and the latency of ~13 barrier phases. The cluster variant below spreads a row
 * over C SMs. */
#ifndef MRT_TOPK_CUH
#define MRT_TOPK_CUH

#include <cooperative_groups.h>
#include <stdint.h>

#define MRT_TOPK_CAP 4096         /* candidates sorted at the end; k <= CAP */
#define MRT_TOPK_NB 4096          /* histogram bins of a 12-bit digit; sort buckets */
#define MRT_TOPK_CACHE_MAX 24576  /* rows of at most this many logits stay in shared memory */
#define MRT_TOPK_BAR 1            /* named barrier of the row's threads */

struct mrt_topk_args {
    const float *logits; /* [M, kv] */
    int *out;            /* [M, k] */
    int M, kv, k;
    int cache_keys;      /* kv if the row is cached in shared memory, else 0 */
};

/* Scalars shared by the row's threads (16-byte aligned size: the cache after it takes uint4). */
struct alignas(16) mrt_topk_shared {
    uint32_t nvalid, ccount, maxkey, dsel, above, eqcnt;
    uint32_t wsum[32];
    uint32_t cnt[2][16]; /* cluster variant: per-CTA candidate counts (> / == threshold), in the leader */
};

/* Shared memory: scalars | hist[NB] | bcur[NB] | ckey[CAP] | cidx[CAP] | region, where region
 * holds the cached row (cache_keys words) during steps 1-3 and the bucketed candidates
 * (bkey[CAP], bidx[CAP]) in step 4. */
static __host__ __device__ __forceinline__ long long mrt_topk_smem_bytes(int cache_keys) {
    long long region = (long long)cache_keys * 4 > MRT_TOPK_CAP * 8 ? (long long)cache_keys * 4 : MRT_TOPK_CAP * 8;
    return (long long)sizeof(mrt_topk_shared) + MRT_TOPK_NB * 8 + MRT_TOPK_CAP * 8 + region;
}

template <int T> static __device__ __forceinline__ void mrt_topk_bar() {
    asm volatile("bar.sync %0, %1;" ::"n"(MRT_TOPK_BAR), "n"(T) : "memory");
}

static __device__ __forceinline__ uint32_t mrt_topk_key(float f) {
    uint32_t u = __float_as_uint(f);
    if ((u & 0x7F800000u) == 0x7F800000u) return 0u; /* +-inf, NaN: excluded */
    if (u == 0x80000000u) u = 0u;                    /* -0.0 == +0.0 */
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
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

/* Key i of the row: from the shared cache, or from global memory (plain loads: in the
 * megakernel the logits come from other CTAs). */
static __device__ __forceinline__ uint32_t mrt_topk_get(const float *row, const uint32_t *cache, bool cached, int i) {
    return cached ? cache[i] : mrt_topk_key(row[i]);
}

/* Digit search: hist[0, nb) counts the keys matching the prefix by digit. Finds the digit d
 * holding the krem-th largest of them: sh->dsel = d, sh->above = count of digits > d,
 * sh->eqcnt = hist[d]. Ends with a barrier. */
template <int T>
static __device__ __forceinline__ void mrt_topk_find(const uint32_t *hist, int nb, uint32_t krem, mrt_topk_shared *sh,
                                                     int tid) {
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
}

/* Appends, in any order, the keys for which take(key) holds to the candidates (ckey, cidx),
 * keeping sh->maxkey. Whole warps iterate (ballot). */
template <int T, class F>
static __device__ __forceinline__ void mrt_topk_gather(const float *row, const uint32_t *cache, bool cached, int kv,
                                                       uint32_t *ckey, int *cidx, mrt_topk_shared *sh, int tid,
                                                       F take) {
    const int lane = tid & 31;
    uint32_t mx = 0;
    for (int base = 0; base < kv; base += T) {
        const int i = base + tid;
        const uint32_t key = i < kv ? mrt_topk_get(row, cache, cached, i) : 0u;
        const bool f = key != 0u && take(key);
        const uint32_t m = __ballot_sync(0xffffffffu, f);
        if (m) {
            const int leader = __ffs(m) - 1;
            uint32_t slot = 0;
            if (lane == leader) slot = atomicAdd(&sh->ccount, (uint32_t)__popc(m));
            slot = __shfl_sync(0xffffffffu, slot, leader) + __popc(m & ((1u << lane) - 1u));
            if (f) ckey[slot] = key, cidx[slot] = i, mx = max(mx, key);
        }
    }
    mx = __reduce_max_sync(0xffffffffu, mx);
    if (lane == 0 && mx) atomicMax(&sh->maxkey, mx);
}

/* Step 4: sorts the c candidates (ckey, cidx), keys in [base, maxkey], and writes out[0, k):
 * out[rank] = index for rank < k, -1 from min(c, k) on. Buckets (key - base) >> shift into NB
 * buckets (descending); a candidate's rank is its bucket's start plus the members of its bucket
 * that precede it in (key desc, index asc). Needs: candidates visible to all T threads and
 * hist, bcur, bkey, bidx free (a barrier before); uses sh->wsum. No barrier at the end. */
template <int T>
static __device__ __forceinline__ void mrt_topk_sort(const uint32_t *ckey, const int *cidx, uint32_t c, uint32_t base,
                                                     uint32_t maxkey, int k, int *out, uint32_t *hist, uint32_t *bcur,
                                                     uint32_t *bkey, int *bidx, mrt_topk_shared *sh, int tid) {
    const uint32_t range = maxkey - base;
    int shift = 0;
    while ((range >> shift) >= (uint32_t)MRT_TOPK_NB) shift++;
#define MRT_TOPK_BUCKET(key) ((uint32_t)(MRT_TOPK_NB - 1) - (((key) - base) >> shift))
    for (int i = tid; i < MRT_TOPK_NB; i += T) hist[i] = 0u;
    mrt_topk_bar<T>();
    for (uint32_t p = tid; p < c; p += T) atomicAdd(&hist[MRT_TOPK_BUCKET(ckey[p])], 1u);
    mrt_topk_bar<T>();
    {
        constexpr int per = MRT_TOPK_NB / T;
        uint32_t h[per], local = 0, total;
#pragma unroll
        for (int i = 0; i < per; i++) h[i] = hist[tid * per + i], local += h[i];
        uint32_t run = mrt_topk_scan<T>(local, sh, &total, tid);
#pragma unroll
        for (int i = 0; i < per; i++) hist[tid * per + i] = run, bcur[tid * per + i] = run, run += h[i];
    }
    mrt_topk_bar<T>();
    for (uint32_t p = tid; p < c; p += T) {
        const uint32_t key = ckey[p], slot = atomicAdd(&bcur[MRT_TOPK_BUCKET(key)], 1u);
        bkey[slot] = key, bidx[slot] = cidx[p];
    }
    mrt_topk_bar<T>();
    for (uint32_t p = tid; p < c; p += T) {
        const uint32_t key = bkey[p], b = MRT_TOPK_BUCKET(key), s1 = bcur[b];
        const int idx = bidx[p];
        uint32_t r = hist[b];
        for (uint32_t q = hist[b]; q < s1; q++) {
            const uint32_t kq = bkey[q];
            r += kq > key || (kq == key && bidx[q] < idx);
        }
        if (r < (uint32_t)k) out[r] = idx;
    }
#undef MRT_TOPK_BUCKET
    for (int r = (int)min(c, (uint32_t)k) + tid; r < k; r += T) out[r] = -1;
}

/* Row `row` (kv logits) -> out[0, k). T threads, tid 0..T-1; smem as mrt_topk_smem_bytes
 * (cache_keys >= kv: the row is cached; 0: read from global memory in every pass). */
template <int T>
static __device__ void mrt_topk_row(const float *row, int kv, int k, int *out, uint8_t *smem, int cache_keys,
                                    int tid) {
    static_assert(T % 32 == 0 && T <= 1024 && MRT_TOPK_NB % T == 0, "topk: T must be a warp multiple dividing NB");
    mrt_topk_shared *sh = (mrt_topk_shared *)smem;
    uint32_t *hist = (uint32_t *)(smem + sizeof(mrt_topk_shared));
    uint32_t *bcur = hist + MRT_TOPK_NB;
    uint32_t *ckey = bcur + MRT_TOPK_NB;
    int *cidx = (int *)(ckey + MRT_TOPK_CAP);
    uint32_t *cache = (uint32_t *)(cidx + MRT_TOPK_CAP);
    uint32_t *bkey = cache; /* step 4 reuses the cache region */
    int *bidx = (int *)(bkey + MRT_TOPK_CAP);
    const bool cached = kv <= cache_keys;
    const int lane = tid & 31;

    if (tid == 0) sh->nvalid = 0, sh->ccount = 0, sh->maxkey = 0;
    mrt_topk_bar<T>();

    /* 1. load, count finite values */
    uint32_t nv = 0;
    if (cached && (kv & 3) == 0 && ((uintptr_t)row & 15) == 0) {
        for (int i = tid; i < kv / 4; i += T) {
            const float4 v = ((const float4 *)row)[i];
            const uint4 c = make_uint4(mrt_topk_key(v.x), mrt_topk_key(v.y), mrt_topk_key(v.z), mrt_topk_key(v.w));
            ((uint4 *)cache)[i] = c;
            nv += (c.x != 0u) + (c.y != 0u) + (c.z != 0u) + (c.w != 0u);
        }
    } else {
        for (int i = tid; i < kv; i += T) {
            const uint32_t c = mrt_topk_key(row[i]);
            if (cached) cache[i] = c;
            nv += c != 0u;
        }
    }
    nv = __reduce_add_sync(0xffffffffu, nv);
    if (lane == 0 && nv) atomicAdd(&sh->nvalid, nv);
    mrt_topk_bar<T>();
    const uint32_t nvalid = sh->nvalid;

    /* 2. radix select */
    uint32_t lo = 1u, tkey = 0u, gt = 0u, need = 0u; /* lo: take keys >= lo; tie mode: tkey != 0 */
    if (nvalid > (uint32_t)k) {
        uint32_t prefix = 0u, pmask = 0u, krem = (uint32_t)k;
        bool fits = false;
        const int shifts[3] = {20, 8, 0}, bits[3] = {12, 12, 8};
        for (int p = 0; p < 3 && !fits; p++) {
            const int nb = 1 << bits[p], sft = shifts[p];
            for (int i = tid; i < nb; i += T) hist[i] = 0u;
            mrt_topk_bar<T>();
            for (int i = tid; i < kv; i += T) {
                const uint32_t key = mrt_topk_get(row, cache, cached, i);
                if (key != 0u && (key & pmask) == prefix) atomicAdd(&hist[(key >> sft) & (uint32_t)(nb - 1)], 1u);
            }
            mrt_topk_bar<T>();
            mrt_topk_find<T>(hist, nb, krem, sh, tid);
            const uint32_t dsel = sh->dsel, above = sh->above, eqcnt = sh->eqcnt;
            gt += above, krem -= above;
            prefix |= dsel << sft, pmask |= (uint32_t)(nb - 1) << sft;
            fits = gt + eqcnt <= MRT_TOPK_CAP;
        }
        if (fits)
            lo = prefix; /* prefix's low bits are 0: keys >= lo are the keys >= this digit range */
        else
            tkey = prefix, need = krem; /* ties at the exact k-th key */
    }

    /* 3. gather */
    if (!tkey) {
        const uint32_t l = lo;
        mrt_topk_gather<T>(row, cache, cached, kv, ckey, cidx, sh, tid, [l](uint32_t key) { return key >= l; });
    } else {
        const uint32_t tk = tkey;
        mrt_topk_gather<T>(row, cache, cached, kv, ckey, cidx, sh, tid, [tk](uint32_t key) { return key > tk; });
        if (tid == 0) atomicMax(&sh->maxkey, tk);
        /* the first `need` keys == tkey in index order, after the gt keys > tkey */
        const int warp = tid >> 5;
        uint32_t running = 0;
        for (int base = 0; base < kv && running < need; base += T) {
            const int i = base + tid;
            const bool f = i < kv && mrt_topk_get(row, cache, cached, i) == tk;
            const uint32_t m = __ballot_sync(0xffffffffu, f);
            if (lane == 0) sh->wsum[warp] = (uint32_t)__popc(m);
            mrt_topk_bar<T>();
            const uint32_t w = lane < T / 32 ? sh->wsum[lane] : 0u;
            uint32_t wi = w;
#pragma unroll
            for (int o = 1; o < 32; o <<= 1) {
                const uint32_t y = __shfl_up_sync(0xffffffffu, wi, o);
                if (lane >= o) wi += y;
            }
            const uint32_t wbase = __shfl_sync(0xffffffffu, wi - w, warp);
            const uint32_t tot = __shfl_sync(0xffffffffu, wi, T / 32 - 1);
            const uint32_t rank = running + wbase + (uint32_t)__popc(m & ((1u << lane) - 1u));
            if (f && rank < need) ckey[gt + rank] = tk, cidx[gt + rank] = i;
            running += tot;
            mrt_topk_bar<T>(); /* wsum is rewritten next round */
        }
        if (tid == 0) sh->ccount = gt + need;
    }
    mrt_topk_bar<T>();

    /* 4. sort */
    const uint32_t c = sh->ccount;
    mrt_topk_sort<T>(ckey, cidx, c, tkey ? tkey : lo, sh->maxkey, k, out, hist, bcur, bkey, bidx, sh, tid);
    mrt_topk_bar<T>(); /* the next row reuses shared memory */
}

/* ---- The cluster variant: one row over C CTAs of T threads (standalone kernels only) -----------
 * A single CTA per row leaves most SMs idle at decode M (16 rows, 132 SMs) and is bound by one SM's
 * issue rate; here the row is cut into C contiguous slices, one per CTA of a thread-block
 * cluster, and the CTAs meet through distributed shared memory (DSMEM) in the leader (rank 0):
 *  - each CTA keeps its slice's keys in its own shared memory and builds a local histogram of
 *    each digit, then adds its non-zero bins into the leader's (remote atomics); after a cluster
 *    barrier every CTA reads the merged histogram and finds the same digit (no second barrier);
 *  - candidates: every thread owns a contiguous run of its slice, so a block scan of per-thread
 *    counts numbers them in index order; the per-CTA totals go to the leader, and after a cluster
 *    barrier each CTA adds the totals of the CTAs before it (the slices are in index order) —
 *    the "first `need` keys equal to the threshold" rule therefore holds across the whole row;
 *  - candidates are written straight into the leader's buffer; after the last cluster barrier the
 *    non-leaders exit (nothing reads their shared memory any more) and the leader sorts.
 * Limits: kv <= 65535 * C (16-bit packed counts). */
static __device__ __forceinline__ void mrt_tkc_sync() { cooperative_groups::this_cluster().sync(); }
static __device__ __forceinline__ unsigned mrt_tkc_rank() { return cooperative_groups::this_cluster().block_rank(); }
template <class P> static __device__ __forceinline__ P *mrt_tkc_map(P *p, unsigned r) {
    return cooperative_groups::this_cluster().map_shared_rank(p, r);
}

#define MRT_TOPKC_CACHE_MAX 16384 /* slice keys kept in shared memory per CTA */

/* Shared memory of a CTA of the cluster variant: scalars | lhist[NB] | g0[NB] | g1[NB] | g2[256] |
 * bcur[NB] | ckey[CAP] | cidx[CAP] | bkey[CAP] | bidx[CAP] | cache[cache_keys]. g*, bcur, c*, b*
 * are used in the leader only (every CTA has the same layout). */
static __host__ __device__ __forceinline__ long long mrt_topkc_smem_bytes(int cache_keys) {
    return (long long)sizeof(mrt_topk_shared) + (4LL * MRT_TOPK_NB + 256) * 4 + 4LL * MRT_TOPK_CAP * 4 +
           (long long)cache_keys * 4;
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
    uint32_t *bcur = g2 + 256, *ckey = bcur + MRT_TOPK_NB;
    int *cidx = (int *)(ckey + MRT_TOPK_CAP);
    uint32_t *bkey = (uint32_t *)(cidx + MRT_TOPK_CAP);
    int *bidx = (int *)(bkey + MRT_TOPK_CAP);
    uint32_t *cache = (uint32_t *)(bidx + MRT_TOPK_CAP);
    const unsigned q = mrt_tkc_rank();
    const int lane = tid & 31, S = mrt_topkc_slice(kv, C);
    const int s0 = min(kv, (int)q * S), s1 = min(kv, s0 + S);       /* this CTA's slice */
    const int R = ((S + T - 1) / T + 3) & ~3;                         /* each thread's run */
    const int m0 = s0 + tid * R, m1 = min(s1, m0 + R);                /* this thread's run */
    const bool cached = S <= cache_keys;
    uint32_t *ccache = cache + tid * R; /* my run in the cache (cache index = i - s0) */
    mrt_topk_shared *Lsh = mrt_tkc_map(sh, 0);
    uint32_t *Lckey = mrt_tkc_map(ckey, 0);
    int *Lcidx = mrt_tkc_map(cidx, 0);
#define MRT_TKC_KEY(i) (cached ? ccache[(i) - m0] : mrt_topk_key(row[i]))

    /* 0. the leader's merged histograms start at zero (all digits at once: no clear later) */
    if (q == 0) {
        for (int i = tid; i < MRT_TOPK_NB; i += T) g0[i] = 0u, g1[i] = 0u;
        for (int i = tid; i < 256; i += T) g2[i] = 0u;
        if (tid == 0) sh->maxkey = 0u;
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
    uint32_t lo = 1u, tkey = 0u, gt = 0u, need = 0u;
    {
        uint32_t prefix = 0u, pmask = 0u, krem = (uint32_t)k;
        bool fits = false;
        for (int p = 0; p < 3 && !fits; p++) {
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
            uint32_t total;
            {
                /* the digit search of mrt_topk_find, over the leader's histogram, and the total */
                const int per = (nb + T - 1) / T;
                uint32_t local = 0;
                for (int i = 0; i < per; i++) {
                    const int qq = tid * per + i;
                    if (qq < nb) local += Lg[nb - 1 - qq];
                }
                const uint32_t excl = mrt_topk_scan<T>(local, sh, &total, tid);
                if (p == 0 && total <= (uint32_t)k) { /* uniform: every finite key is taken */
                    mrt_topk_bar<T>();                  /* the gather's scan rewrites wsum */
                    break;
                }
                if (excl < krem && krem <= excl + local) {
                    uint32_t cum = excl;
                    for (int i = 0; i < per; i++) {
                        const int qq = tid * per + i;
                        if (qq >= nb) break;
                        const uint32_t h = Lg[nb - 1 - qq];
                        if (cum + h >= krem) {
                            sh->dsel = (uint32_t)(nb - 1 - qq), sh->above = cum, sh->eqcnt = h;
                            break;
                        }
                        cum += h;
                    }
                }
                mrt_topk_bar<T>();
            }
            const uint32_t dsel = sh->dsel, above = sh->above, eqcnt = sh->eqcnt;
            gt += above, krem -= above;
            prefix |= dsel << sft, pmask |= (uint32_t)(nb - 1) << sft;
            fits = gt + eqcnt <= MRT_TOPK_CAP;
            if (fits) lo = prefix;
            else if (p == 2) tkey = prefix, need = krem;
        }
    }

    /* 3. gather: counts of taken keys (and, at a tie, keys == tkey) of my run, in index order */
    uint32_t ng = 0, ne = 0, mx = 0;
    for (int i = m0; i < m1; i++) {
        const uint32_t key = MRT_TKC_KEY(i);
        if (key == 0u) continue;
        if (tkey ? key > tkey : key >= lo) ng++, mx = max(mx, key);
        else if (tkey && key == tkey) ne++;
    }
    uint32_t tot;
    const uint32_t ex = mrt_topk_scan<T>((ng << 16) | ne, sh, &tot, tid);
    if (tid == 0) Lsh->cnt[0][q] = tot >> 16, Lsh->cnt[1][q] = tot & 0xFFFFu;
    mx = __reduce_max_sync(0xffffffffu, mx);
    if (lane == 0 && mx) atomicMax(&Lsh->maxkey, mx);
    mrt_tkc_sync(); /* every CTA's counts are in the leader */
    uint32_t bg = 0, be = 0, all_g = 0;
    for (int r = 0; r < C; r++) {
        const uint32_t cg = Lsh->cnt[0][r], ce = Lsh->cnt[1][r];
        if (r < (int)q) bg += cg, be += ce;
        all_g += cg;
    }
    {
        uint32_t sg = bg + (ex >> 16), se = be + (ex & 0xFFFFu);
        for (int i = m0; i < m1; i++) {
            const uint32_t key = MRT_TKC_KEY(i);
            if (key == 0u) continue;
            if (tkey ? key > tkey : key >= lo) {
                Lckey[sg] = key, Lcidx[sg] = i, sg++;
            } else if (tkey && key == tkey) {
                if (se < need) Lckey[gt + se] = key, Lcidx[gt + se] = i;
                se++;
            }
        }
    }
#undef MRT_TKC_KEY
    mrt_tkc_sync(); /* every candidate is in the leader; nothing reads the other CTAs any more */
    if (q != 0) return;

    /* 4. the leader sorts */
    const uint32_t c = tkey ? gt + need : all_g;
    uint32_t maxkey = sh->maxkey;
    if (tkey) maxkey = max(maxkey, tkey);
    mrt_topk_sort<T>(ckey, cidx, c, tkey ? tkey : lo, maxkey, k, out, g0, bcur, bkey, bidx, sh, tid);
}

/* Rows [r0, r1) of the op: the tile of the plan (payload r0 r1). */
template <int T>
static __device__ void mrt_topk_tile(const mrt_topk_args &a, int r0, int r1, uint8_t *smem, int tid) {
    for (int r = r0; r < r1; r++)
        mrt_topk_row<T>(a.logits + (long long)r * a.kv, a.kv, a.k, a.out + (long long)r * a.k, smem, a.cache_keys,
                        tid);
}

/* Row r of the op by the cluster whose CTAs call this (cache_keys: mrt_topkc_slice or 0). */
template <int T, int C>
static __device__ void mrt_topk_tile_cluster(const mrt_topk_args &a, int r, uint8_t *smem, int tid) {
    mrt_topk_row_cluster<T, C>(a.logits + (long long)r * a.kv, a.kv, a.k, a.out + (long long)r * a.k, smem,
                               a.cache_keys, tid);
}

#endif
