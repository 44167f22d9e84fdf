/* Reference numerics shared by every executor: e4m3 (OCP FP8 E4M3FN), bf16, the 1x128
 * activation scale, the power-of-two (UE8M0-style) scale and RoPE angles.
 * The exact rounding contract is docs/NUMERICS.md; GPU code must match it bit for bit
 * (e4m3: __nv_cvt_float_to_fp8(x, __NV_SATFINITE, __NV_E4M3) rounds the same way). */
#ifndef MRT_NUMERICS_H
#define MRT_NUMERICS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define MRT_NUM_FN static __host__ __device__ __forceinline__
#else
#define MRT_NUM_FN static inline
#endif

#define MRT_E4M3_MAX 448.0f

MRT_NUM_FN uint32_t mrt_f32_bits(float x) {
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}
MRT_NUM_FN float mrt_bits_f32(uint32_t u) {
    float x;
    memcpy(&x, &u, 4);
    return x;
}

/* Device code converts with the hardware instruction, which gives the reference's code for
 * every input but NaN, and picks NaN's code (as the reference computes it: bf16 the high
 * half with the quiet bit, e4m3 sign | 0x7F) by a select beside it: all 2^32 inputs compared
 * on the H200 by tests/gpu/test_numerics_gpu. A branch to the reference routine instead
 * inlined it at every conversion (the megakernel's PTX 130k instructions against 102k, an A0
 * row's kernel 2790 against 1214 with 288 branches against 37) and measured 0.8-1.5 us
 * slower a step in serial, cmp and mega alike (H200, bench/RESULTS.md session 15 run 1). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
#define MRT_HW_CVT 1
#endif

/* fp32 -> bf16, round to nearest even; NaN stays a (quiet) NaN. */
MRT_NUM_FN uint16_t mrt_f32_to_bf16_ref(float x) {
    uint32_t u = mrt_f32_bits(x);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((u >> 16) | 0x0040u);
    u += 0x7FFFu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}
MRT_NUM_FN uint16_t mrt_f32_to_bf16(float x) {
#ifdef MRT_HW_CVT
    uint16_t r;
    asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(r) : "f"(x));
    return isnan(x) ? (uint16_t)((mrt_f32_bits(x) >> 16) | 0x0040u) : r;
#else
    return mrt_f32_to_bf16_ref(x);
#endif
}
MRT_NUM_FN float mrt_bf16_to_f32(uint16_t h) { return mrt_bits_f32((uint32_t)h << 16); }
MRT_NUM_FN float mrt_round_bf16(float x) { return mrt_bf16_to_f32(mrt_f32_to_bf16(x)); }

/* e4m3 (E4M3FN: bias 7, no infinity, S.1111.111 is NaN, max 448) -> fp32. */
MRT_NUM_FN float mrt_e4m3_to_f32(uint8_t c) {
    int s = c >> 7, e = (c >> 3) & 15, m = c & 7;
    float v;
    if (e == 15 && m == 7) return mrt_bits_f32(0x7FC00000u | ((uint32_t)s << 31));
    if (e == 0)
        v = (float)m * (1.0f / 512.0f); /* subnormal: m * 2^-9 */
    else
        v = ldexpf(1.0f + (float)m / 8.0f, e - 7);
    return s ? -v : v;
}

/* fp32 -> e4m3 with round-to-nearest-even and saturation to +-448 (infinities too);
 * NaN -> 0x7F (sign kept). */
MRT_NUM_FN uint8_t mrt_f32_to_e4m3_ref(float x) {
    uint32_t u = mrt_f32_bits(x);
    uint8_t sign = (uint8_t)((u >> 24) & 0x80u);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint8_t)(sign | 0x7F);
    float a = fabsf(x);
    if (a >= MRT_E4M3_MAX) return (uint8_t)(sign | 0x7E);
    if (a < 0.015625f) { /* below 2^-6: subnormal grid of 2^-9; 8 * 2^-9 is the first normal */
        int m = (int)rintf(a * 512.0f);
        return (uint8_t)(sign | m);
    }
    int ex;
    float f = frexpf(a, &ex); /* a = f * 2^ex, f in [0.5, 1) */
    ex -= 1;                  /* a = (2f) * 2^ex, 2f in [1, 2) */
    int m = (int)rintf((2.0f * f - 1.0f) * 8.0f);
    if (m == 8) m = 0, ex++;
    if (ex > 8 || (ex == 8 && m == 7)) return (uint8_t)(sign | 0x7E);
    return (uint8_t)(sign | ((ex + 7) << 3) | m);
}
MRT_NUM_FN uint8_t mrt_f32_to_e4m3(float x) {
#ifdef MRT_HW_CVT /* satfinite: +-inf and |x| past 448 saturate, as the reference does */
    uint16_t r;
    asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %1;" : "=h"(r) : "f"(x));
    return isnan(x) ? (uint8_t)(((mrt_f32_bits(x) >> 24) & 0x80u) | 0x7Fu) : (uint8_t)r;
#else
    return mrt_f32_to_e4m3_ref(x);
#endif
}

/* 1x128 (and 128x128) block scale: the block's amax maps to 448. */
MRT_NUM_FN float mrt_block_scale(float amax) { return fmaxf(amax, 1e-10f) / MRT_E4M3_MAX; }

/* Power-of-two scale of the indexer: 2^ceil(log2(max(amax, 1e-4) / 448)). Computed from
 * the exponent bits so it is exact and identical on every machine. */
MRT_NUM_FN float mrt_pow2_scale(float amax) {
    float v = fmaxf(amax, 1e-4f) / MRT_E4M3_MAX;
    int e;
    float f = frexpf(v, &e); /* v = f * 2^e, f in [0.5, 1) */
    return ldexpf(1.0f, f == 0.5f ? e - 1 : e);
}

/* 1 / s for a scale s of mrt_pow2_scale, so that the device's quantizations multiply instead
 * of divide (__fdiv_rn is a ~20-instruction sequence with a called slow path, on the
 * finalizations' dependent chain): s is 2^e with -22 <= e <= 120, so 1 / s = 2^-e exactly, and
 * x * 2^-e and x / 2^e are the same real number rounded once to nearest: the same bits, for
 * every x (subnormal results, infinities and NaN included). */
MRT_NUM_FN float mrt_pow2_inv(float s) {
#ifdef __CUDA_ARCH__
    return __frcp_rn(s);
#else
    return 1.0f / s;
#endif
}

/* RoPE, interleaved pairs (2i, 2i+1) of a rot_dim-wide slice:
 * inv_freq_i = fp32(theta^(-2i/rot_dim)), angle = fp32(pos) * inv_freq_i rounded to fp32,
 * cos/sin of that fp32 angle rounded to fp32. Host only (GPU executors read a table the
 * host fills with this function, so all executors see the same values). */
#ifndef __CUDACC__
static inline void mrt_rope_cos_sin(int pos, int i, int rot_dim, double theta, float *c, float *s) {
    float inv = (float)(1.0 / pow(theta, 2.0 * i / rot_dim));
    float angle = (float)pos * inv;
    *c = (float)cos((double)angle);
    *s = (float)sin((double)angle);
}
#endif

/* Norm factors from statistics summed in fp64 (docs/NUMERICS.md): e4m3 codes downstream
 * flip at ties, so every executor's CPU reference takes these exact rounding steps.
 * RMSNorm: fp32(1 / sqrt(fp64(fp32(ss / n) + eps))). */
MRT_NUM_FN float mrt_rms_factor(double sum_sq, int n, float eps) {
    float ms = (float)(sum_sq / (double)n);
    return (float)(1.0 / sqrt((double)(ms + eps)));
}
/* LayerNorm: fp32(1 / sqrt(var + eps)) with var the biased variance in fp64. */
MRT_NUM_FN float mrt_ln_factor(double var, float eps) { return (float)(1.0 / sqrt(var + (double)eps)); }

/* (a, b) -> (a cos - b sin, b cos + a sin), in fp32. */
MRT_NUM_FN void mrt_rope_pair(float *a, float *b, float c, float s) {
    float x = *a, y = *b;
    *a = x * c - y * s;
    *b = y * c + x * s;
}

#endif
