/* A0 on the GPU: r = bf16(h + res), x = w * r * rsqrt(mean(r^2) + eps), x8/sx = 1x128 e4m3
 * quantization of the fp32 x (docs/NUMERICS.md). One tile = one row, one CTA; the same device function serves the standalone kernel and the
 * megakernel. The sum of squares is accumulated in fp64, like the CPU reference, so both
 * take the same rounding steps into the e4m3 codes. */
#pragma once

#include <cuda_bf16.h>
#include <stdint.h>

#include "numerics.h"

#define MRT_A0_MAX_THREADS 1024 /* one CTA a row: H / 8 (or H / 16) threads, rounded to warps */

struct mrt_a0_args {
    const uint16_t *h, *res, *w; /* [M, H], [M, H], [H] bf16 bits */
    uint16_t *r_new, *x;         /* [M, H] */
    uint8_t *x8;                 /* [M, H] */
    float *sx;                   /* [M, H / 128] */
    int H;
    float eps;
    unsigned delay_ns; /* tests: hold the outputs back this long (a slow producer) */
};

/* A group of whole warps that runs one unit of work together: thread `tid` of `n`, meeting
 * at named barrier `bar` (0 with n = blockDim.x: the whole CTA, as __syncthreads). The
 * standalone kernels pass the whole CTA; the megakernel runs several groups side by side on
 * other barrier ids, so a unit's code does not depend on how many threads the CTA has. */
#ifdef MRT_MEGA_FIN_EVEN_BARS /* racecheck diagnostic: each named barrier's passes (mega.cu mrt_mega_even_bars) */
static __device__ __forceinline__ unsigned *mrt_grp_passes() {
    __shared__ unsigned passes[16];
    return passes;
}
#endif
struct mrt_grp {
    int tid, n, bar;
    __device__ __forceinline__ void sync() const {
        if (bar == 0) __syncthreads(); /* the whole CTA: the plain barrier (tools model it exactly) */
        else {
#ifdef MRT_MEGA_FIN_EVEN_BARS
            if (tid == 0) mrt_grp_passes()[bar]++; /* read by the group after a CTA barrier */
#endif
            asm volatile("bar.sync %0, %1;" ::"r"(bar), "r"(n) : "memory");
        }
    }
};
static __device__ __forceinline__ mrt_grp mrt_grp_cta() { return mrt_grp{(int)threadIdx.x, (int)blockDim.x, 0}; }

/* Group-wide sum of doubles; every thread gets the total. Fixed tree order (deterministic
 * run to run): each warp's shuffle tree, then the warps' sums in index order. K values a
 * thread: v[k] is virtual thread tid + k * g.n's, and the sum is the one K * g.n threads
 * holding one value each would take (a virtual warp's tree is its real warp's, the virtual
 * warps are added in index order): the same bits at any K. */
template <int K>
static __device__ __forceinline__ double mrt_grp_sum_f64_k(const mrt_grp &g, const double (&v)[K], double *scratch) {
    const int warp = g.tid >> 5, lane = g.tid & 31, nw = g.n >> 5;
    double s[K];
#pragma unroll
    for (int k = 0; k < K; k++) {
        s[k] = v[k];
        for (int o = 16; o > 0; o >>= 1) s[k] += __shfl_xor_sync(0xffffffffu, s[k], o);
    }
    if (g.n == 32) { /* one warp (the megakernel's finalization groups): lane 0's sums by shuffles, no barriers */
        double t = 0;
#pragma unroll
        for (int k = 0; k < K; k++) t += __shfl_sync(0xffffffffu, s[k], 0);
        return t;
    }
    g.sync(); /* scratch may still be read by a previous call */
    if (lane == 0)
#pragma unroll
        for (int k = 0; k < K; k++) scratch[warp + k * nw] = s[k];
    g.sync();
    double t = 0;
    for (int i = 0; i < K * nw; i++) t += scratch[i];
    return t;
}

static __device__ __forceinline__ double mrt_grp_sum_f64(const mrt_grp &g, double v, double *scratch) {
    const double one[1] = {v};
    return mrt_grp_sum_f64_k<1>(g, one, scratch);
}

/* bf16 element e (0..7) of an 8-element chunk held in a uint4, and two bf16 codes packed in
 * a word: with e a constant (unrolled loops) these are register moves. The chunk was viewed
 * through a uint16_t pointer until session 15, which put every loaded chunk on the stack
 * (STL after each load, LDL before each use; ncu of the A0-only megakernel, H200): an A0 row
 * in the megakernel took 8.5 us input -> computed in the step, now 6.5 (bench/RESULTS.md,
 * session 15 run 3). */
static __device__ __forceinline__ uint16_t mrt_chunk_bf16(const uint4 &u, int e) {
    const uint32_t w = e < 2 ? u.x : e < 4 ? u.y : e < 6 ? u.z : u.w;
    return (uint16_t)(e & 1 ? w >> 16 : w & 0xFFFFu);
}
static __device__ __forceinline__ uint32_t mrt_pack_bf16x2(float lo, float hi) {
    return (uint32_t)mrt_f32_to_bf16(lo) | (uint32_t)mrt_f32_to_bf16(hi) << 16;
}

/* The 8-element chunks [cb, ce) of one row (cb, ce multiples of 16: whole 128-groups).
 * Thread t owns the chunks cb + t and cb + t + blockDim (16-byte loads; blockDim a multiple
 * of 32, at least (ce - cb) / 2); all of its loads issue before any arithmetic, so the row
 * costs one memory round trip, not one per chunk. The 16 chunks of a 128-group sit in 16
 * consecutive lanes: a group's amax is a half-warp shuffle reduction.
 * The sum of squares goes in an order fixed by the row alone, not by blockDim or by how the
 * row is cut (the standalone kernel runs H / 8 threads, the megakernel 384, and their bytes
 * must agree): each chunk's 8 squares in sequence, a group's 16 chunks by a half-warp tree,
 * the H / 128 groups in index order. X publishes group g's sum into every scratch that needs
 * it (X::put), with X::before() ahead (scratch may still be read for a previous row) and
 * X::after() behind (every group's sum visible); then each CTA sums scratch[0, H / 128).
 * Every loop is unrolled and a chunk's values stay in registers; a chunk past ce computes on
 * zeros (its squares add 0) and stores nothing.
 * Only the chunks [ob, oe) are stored (r_new, x, x8, sx): a megakernel slice of a row (--split
 * A0=S) sums the whole row, the same order so the same factor in every slice, and normalizes,
 * quantizes and stores its own groups. A warp with no chunk of its own skips the second pass,
 * which is most of a row's instructions (fp32 products, 8 IEEE divisions a chunk). */
template <class X>
static __device__ void mrt_a0_part(const mrt_a0_args &a, int row, int cb, int ce, int ob, int oe, double *scratch,
                                   const X &x) {
    uint4 hh[2], rr[2], ww[2];
#pragma unroll
    for (int i = 0; i < 2; i++) {
        const int c = cb + threadIdx.x + i * blockDim.x;
        hh[i] = rr[i] = ww[i] = make_uint4(0u, 0u, 0u, 0u);
        if (c < ce) {
            hh[i] = *(const uint4 *)(a.h + (size_t)row * a.H + c * 8);
            rr[i] = *(const uint4 *)(a.res + (size_t)row * a.H + c * 8);
            if (c >= ob && c < oe) ww[i] = *(const uint4 *)(a.w + c * 8);
        }
    }
    float v[2][8];
    double css[2] = {0, 0}; /* each chunk's squares */
#pragma unroll
    for (int i = 0; i < 2; i++) {
        const int c = cb + threadIdx.x + i * blockDim.x;
#pragma unroll
        for (int e = 0; e < 8; e++) {
            const float r = mrt_round_bf16(__fadd_rn(mrt_bf16_to_f32(mrt_chunk_bf16(hh[i], e)),
                                                     mrt_bf16_to_f32(mrt_chunk_bf16(rr[i], e))));
            v[i][e] = r;
            css[i] += (double)r * (double)r;
        }
        if (c < ce && c >= ob && c < oe)
            *(uint4 *)(a.r_new + (size_t)row * a.H + c * 8) =
                make_uint4(mrt_pack_bf16x2(v[i][0], v[i][1]), mrt_pack_bf16x2(v[i][2], v[i][3]),
                           mrt_pack_bf16x2(v[i][4], v[i][5]), mrt_pack_bf16x2(v[i][6], v[i][7]));
    }
    x.before();
#pragma unroll
    for (int i = 0; i < 2; i++) {
        const int c = cb + threadIdx.x + i * blockDim.x;
        if (i * blockDim.x >= (unsigned)(ce - cb)) break; /* uniform; ce - cb is a multiple of 16 */
        double gs = css[i]; /* lane % 16 == c % 16: the tree's shape is the group's */
        for (int o = 8; o > 0; o >>= 1) gs += __shfl_xor_sync(0xffffffffu, gs, o);
        if (c < ce && (c & 15) == 0) x.put(scratch, c / 16, gs);
    }
    x.after();
    double ss = 0;
    for (int gi = 0; gi < a.H / 128; gi++) ss += scratch[gi];
    float rs = mrt_rms_factor(ss, a.H, a.eps);
    if (a.delay_ns) { /* bounded: at most delay_ns, checked against the global timer */
        uint64_t t0, t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
        do {
            __nanosleep(1000);
            asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        } while (t - t0 < a.delay_ns);
    }
#pragma unroll
    for (int i = 0; i < 2; i++) {
        const int c = cb + threadIdx.x + i * blockDim.x;
        if (i * blockDim.x >= (unsigned)(ce - cb)) break; /* uniform: the whole block leaves together */
        const bool live = c < ce && c >= ob && c < oe;
        if (!__any_sync(0xffffffffu, live)) continue; /* the warp's lanes all skip it: uniform */
        float amax = 0;
#pragma unroll
        for (int e = 0; e < 8; e++) {
            v[i][e] = live ? __fmul_rn(__fmul_rn(mrt_bf16_to_f32(mrt_chunk_bf16(ww[i], e)), v[i][e]), rs) : 0.0f;
            amax = fmaxf(amax, fabsf(v[i][e]));
        }
        for (int o = 8; o > 0; o >>= 1) amax = fmaxf(amax, __shfl_xor_sync(0xffffffffu, amax, o));
        if (!live) continue;
        *(uint4 *)(a.x + (size_t)row * a.H + c * 8) =
            make_uint4(mrt_pack_bf16x2(v[i][0], v[i][1]), mrt_pack_bf16x2(v[i][2], v[i][3]),
                       mrt_pack_bf16x2(v[i][4], v[i][5]), mrt_pack_bf16x2(v[i][6], v[i][7]));
        const float s = mrt_block_scale(amax);
        uint32_t q[2] = {0u, 0u};
#pragma unroll
        for (int e = 0; e < 8; e++) q[e >> 2] |= (uint32_t)mrt_f32_to_e4m3(__fdiv_rn(v[i][e], s)) << (8 * (e & 3));
        *(uint2 *)(a.x8 + (size_t)row * a.H + c * 8) = make_uint2(q[0], q[1]);
        if ((c & 15) == 0) a.sx[(size_t)row * (a.H / 128) + c / 16] = s;
    }
}

/* The whole row in one CTA (the megakernel's A0, the standalone kernel). */
struct mrt_a0_local {
    __device__ __forceinline__ void before() const { __syncthreads(); }
    __device__ __forceinline__ void put(double *scratch, int g, double v) const { scratch[g] = v; }
    __device__ __forceinline__ void after() const { __syncthreads(); }
};
static __device__ void mrt_a0_row(const mrt_a0_args &a, int row, double *scratch) {
    mrt_a0_part(a, row, 0, a.H / 8, 0, a.H / 8, scratch, mrt_a0_local());
}
