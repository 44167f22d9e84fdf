/* Unit tests of src/core/numerics.h: the e4m3 and bf16 conversions, the block and
 * power-of-two scales and the RoPE helpers, against docs/NUMERICS.md. Every executor's
 * rounding is defined by these functions, so they are checked exhaustively where the
 * domain is small (all 256 e4m3 codes, all 65536 bf16 patterns, every e4m3 midpoint). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "numerics.h"
#include "testing.h"

static uint8_t enc(float x) { return mrt_f32_to_e4m3(x); }
static float dec(uint8_t c) { return mrt_e4m3_to_f32(c); }

/* The value of an e4m3 code straight from the format's definition (bias 7, subnormals
 * m * 2^-9), in double, for codes that are not NaN. */
static double e4m3_value(int c) {
    int s = c >> 7, e = (c >> 3) & 15, m = c & 7;
    double v = e == 0 ? m * ldexp(1.0, -9) : (1.0 + m / 8.0) * ldexp(1.0, e - 7);
    return s ? -v : v;
}

static void test_e4m3_codes(void) {
    int bad_value = 0, bad_round = 0;
    for (int c = 0; c < 256; c++) {
        float v = dec((uint8_t)c);
        if ((c & 0x7F) == 0x7F) {
            CHECK(isnan(v), "code 0x%02X must decode to NaN, got %g", c, (double)v);
            CHECK(enc(v) == c, "NaN code 0x%02X re-encodes to 0x%02X", c, enc(v));
            continue;
        }
        if ((double)v != e4m3_value(c) && bad_value++ < 5)
            CHECK(0, "code 0x%02X decodes to %.9g, the format says %.9g", c, (double)v, e4m3_value(c));
        if (enc(v) != c && bad_round++ < 5)
            CHECK(0, "code 0x%02X -> %.9g -> 0x%02X", c, (double)v, enc(v));
    }
    CHECK(bad_value == 0, "%d codes decode to the wrong value", bad_value);
    CHECK(bad_round == 0, "%d codes do not survive decode + encode", bad_round);

    CHECK(signbit(dec(0x80)) && dec(0x80) == 0.0f, "0x80 must decode to -0");
    CHECK(enc(-0.0f) == 0x80, "-0 encodes to 0x%02X, want 0x80", enc(-0.0f));
    CHECK(enc(0.0f) == 0x00, "+0 encodes to 0x%02X", enc(0.0f));
    CHECK(dec(0x7E) == 448.0f && dec(0xFE) == -448.0f, "max code must be +-448");
    CHECK(dec(0x01) == 0x1p-9f, "smallest subnormal is 2^-9, got %g", (double)dec(0x01));
    CHECK(dec(0x08) == 0x1p-6f, "smallest normal is 2^-6, got %g", (double)dec(0x08));
    CHECK(dec(0x38) == 1.0f, "0x38 is 1.0, got %g", (double)dec(0x38));
    for (int c = 0; c < 0x7E; c++)
        if (!(dec((uint8_t)c) < dec((uint8_t)(c + 1))))
            CHECK(0, "positive codes must increase: 0x%02X %g, 0x%02X %g", c, (double)dec((uint8_t)c),
                  c + 1, (double)dec((uint8_t)(c + 1)));
}

static void test_e4m3_rounding(void) {
    /* Ties go to the even mantissa, in the normal and the subnormal range. */
    CHECK(enc(1.0625f) == 0x38, "1.0625 (tie 1 | 1.125) -> 0x%02X, want 0x38 (1.0)", enc(1.0625f));
    CHECK(enc(1.1875f) == 0x3A, "1.1875 (tie 1.125 | 1.25) -> 0x%02X, want 0x3A (1.25)", enc(1.1875f));
    CHECK(enc(-1.0625f) == 0xB8, "-1.0625 -> 0x%02X, want 0xB8", enc(-1.0625f));
    CHECK(enc(0x1p-10f) == 0x00, "2^-10 (tie 0 | 2^-9) -> 0x%02X, want 0x00", enc(0x1p-10f));
    CHECK(enc(3 * 0x1p-10f) == 0x02, "3*2^-10 (tie 2^-9 | 2^-8) -> 0x%02X, want 0x02",
          enc(3 * 0x1p-10f));
    CHECK(enc(0x1p-30f) == 0x00 && enc(-0x1p-30f) == 0x80, "tiny values flush to signed zero");

    /* Saturation: no infinity in E4M3FN; 464 is the midpoint to the (absent) 480. */
    const float big[] = {448.0f, 448.5f, 464.0f, 479.0f, 480.0f, 500.0f, 1e9f, FLT_MAX, INFINITY};
    for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
        CHECK(enc(big[i]) == 0x7E, "%g -> 0x%02X, want 0x7E (448)", (double)big[i], enc(big[i]));
        CHECK(enc(-big[i]) == 0xFE, "%g -> 0x%02X, want 0xFE (-448)", (double)-big[i], enc(-big[i]));
    }
    CHECK(enc(NAN) == 0x7F, "NaN -> 0x%02X, want 0x7F", enc(NAN));
    CHECK(enc(-NAN) == 0xFF, "-NaN -> 0x%02X, want 0xFF", enc(-NAN));

    /* Every midpoint between neighbouring codes goes to the even code (its mantissa LSB
     * is the code's LSB); one fp32 ulp either side goes to the nearer code. */
    int bad = 0;
    for (int c = 0; c < 0x7E; c++) {
        float lo = dec((uint8_t)c), hi = dec((uint8_t)(c + 1));
        float mid = (lo + hi) / 2; /* exact: one more bit than either code */
        int even = (c & 1) ? c + 1 : c;
        float below = nextafterf(mid, 0.0f), above = nextafterf(mid, INFINITY);
        if (enc(mid) != even || enc(-mid) != (even | 0x80) || enc(below) != c ||
            enc(above) != c + 1 || enc(-below) != (c | 0x80) || enc(-above) != ((c + 1) | 0x80)) {
            if (bad++ < 5)
                CHECK(0, "midpoint %.9g of 0x%02X/0x%02X: mid -> 0x%02X (want 0x%02X), below -> 0x%02X, "
                      "above -> 0x%02X",
                      (double)mid, c, c + 1, enc(mid), even, enc(below), enc(above));
        }
    }
    CHECK(bad == 0, "%d of 126 midpoints round wrongly", bad);
}

static int bf16_is_nan(uint16_t b) { return (b & 0x7F80) == 0x7F80 && (b & 0x7F) != 0; }

static void test_bf16(void) {
    CHECK(mrt_f32_to_bf16(1.0f + 0x1p-8f) == 0x3F80, "1+2^-8 (tie) -> 0x%04X, want 0x3F80 (1.0)",
          mrt_f32_to_bf16(1.0f + 0x1p-8f));
    CHECK(mrt_round_bf16(1.0f + 3 * 0x1p-8f) == 1.0f + 0x1p-6f, "1+3*2^-8 (tie) -> %.9g, want 1+2^-6",
          (double)mrt_round_bf16(1.0f + 3 * 0x1p-8f));
    CHECK(mrt_f32_to_bf16(1.0f + 0x1p-8f + 0x1p-20f) == 0x3F81, "just above a tie rounds up");
    CHECK(mrt_f32_to_bf16(1.0f + 0x1p-8f - 0x1p-20f) == 0x3F80, "just below a tie rounds down");
    CHECK(mrt_f32_to_bf16(-(1.0f + 3 * 0x1p-8f)) == 0xBF82, "-(1+3*2^-8) -> 0x%04X, want 0xBF82",
          mrt_f32_to_bf16(-(1.0f + 3 * 0x1p-8f)));
    CHECK(mrt_round_bf16(-2.0f) == -2.0f, "-2 is exact");

    /* NaN stays NaN, including payloads only in the low 16 bits (plain truncation or
     * rounding would turn 0x7F800001 into infinity). */
    const uint32_t nans[] = {0x7FC00000u, 0x7F800001u, 0x7FFFFFFFu, 0xFF800001u, 0xFFC00000u};
    for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++) {
        uint16_t b = mrt_f32_to_bf16(mrt_bits_f32(nans[i]));
        CHECK(bf16_is_nan(b), "NaN 0x%08X -> bf16 0x%04X is not NaN", nans[i], b);
        CHECK((b >> 15) == (nans[i] >> 31), "NaN 0x%08X lost its sign", nans[i]);
    }
    CHECK(mrt_f32_to_bf16(INFINITY) == 0x7F80 && mrt_f32_to_bf16(-INFINITY) == 0xFF80, "infinities");

    /* Large values: 65504 rounds up to 65536; the largest bf16 is kept; FLT_MAX is above
     * the last bf16 midpoint, so RNE overflows it to infinity. */
    CHECK(mrt_round_bf16(65504.0f) == 65536.0f, "65504 -> %g", (double)mrt_round_bf16(65504.0f));
    CHECK(mrt_f32_to_bf16(mrt_bits_f32(0x7F7F0000u)) == 0x7F7F, "largest bf16 kept");
    CHECK(mrt_f32_to_bf16(FLT_MAX) == 0x7F80, "FLT_MAX -> 0x%04X, want 0x7F80 (inf)",
          mrt_f32_to_bf16(FLT_MAX));
    float r38 = mrt_round_bf16(3.0e38f);
    CHECK(isfinite(r38) && fabsf(r38 - 3.0e38f) <= 3.0e38f * 0x1p-8f, "3e38 -> %g", (double)r38);
    CHECK(mrt_round_bf16(-1e30f) == -mrt_round_bf16(1e30f), "rounding is sign-symmetric");

    /* Every bf16 pattern survives bf16 -> f32 -> bf16 (NaNs stay NaN). */
    int bad = 0;
    for (uint32_t b = 0; b < 65536; b++) {
        uint16_t r = mrt_f32_to_bf16(mrt_bf16_to_f32((uint16_t)b));
        if (bf16_is_nan((uint16_t)b) ? !bf16_is_nan(r) : r != b) bad++;
    }
    CHECK(bad == 0, "%d bf16 patterns do not round-trip", bad);
}

static int is_pow2(float s) {
    int e;
    return s > 0 && isfinite(s) && frexpf(s, &e) == 0.5f;
}

static void test_scales(void) {
    CHECK(mrt_block_scale(448.0f) == 1.0f, "block_scale(448) = %g", (double)mrt_block_scale(448.0f));
    CHECK(mrt_block_scale(896.0f) == 2.0f, "block_scale(896) = %g", (double)mrt_block_scale(896.0f));
    CHECK(mrt_block_scale(1.0f) == 1.0f / 448.0f, "block_scale(1) = 1/448");
    CHECK(mrt_block_scale(0.0f) == 1e-10f / 448.0f, "block_scale(0) floors amax at 1e-10");
    CHECK(mrt_block_scale(1e-20f) == 1e-10f / 448.0f, "block_scale(tiny) floors amax at 1e-10");
    /* The block's amax maps onto the largest code. */
    int bad = 0;
    for (int i = 0; i < 2000; i++) {
        float amax = ldexpf(1.0f + (float)i / 2000.0f, i % 40 - 20);
        if (enc(amax / mrt_block_scale(amax)) != 0x7E) bad++;
    }
    CHECK(bad == 0, "%d of 2000 amax values do not map to code 0x7E", bad);

    CHECK(mrt_pow2_scale(448.0f) == 1.0f, "pow2_scale(448) = %g, want 1", (double)mrt_pow2_scale(448.0f));
    CHECK(mrt_pow2_scale(448.0001f) == 2.0f, "pow2_scale(448.0001) = %g, want 2",
          (double)mrt_pow2_scale(448.0001f));
    CHECK(mrt_pow2_scale(447.99f) == 1.0f, "pow2_scale(447.99) = %g, want 1", (double)mrt_pow2_scale(447.99f));
    CHECK(mrt_pow2_scale(224.0f) == 0.5f, "pow2_scale(224) = %g, want 0.5", (double)mrt_pow2_scale(224.0f));
    float floor_s = ldexpf(1.0f, (int)ceil(log2((double)(1e-4f / 448.0f))));
    CHECK(floor_s == 0x1p-22f, "2^ceil(log2(1e-4/448)) is 2^-22, computed %g", (double)floor_s);
    const float tiny[] = {0.0f, 1e-30f, 1e-5f, 1e-4f};
    for (size_t i = 0; i < sizeof tiny / sizeof tiny[0]; i++)
        CHECK(mrt_pow2_scale(tiny[i]) == floor_s, "pow2_scale(%g) = %g, want 2^-22 (amax floored at 1e-4)",
              (double)tiny[i], (double)mrt_pow2_scale(tiny[i]));
    /* Exact powers of two at the boundaries: amax = 448 * 2^k gives exactly 2^k. */
    for (int k = -20; k <= 20; k++) {
        float amax = ldexpf(448.0f, k);
        CHECK(mrt_pow2_scale(amax) == ldexpf(1.0f, k), "pow2_scale(448*2^%d) = %g", k,
              (double)mrt_pow2_scale(amax));
        CHECK(mrt_pow2_scale(nextafterf(amax, INFINITY)) == ldexpf(1.0f, k + 1),
              "pow2_scale just above 448*2^%d must double", k);
    }
    /* In general: the smallest power of two s with amax / s <= 448. */
    bad = 0;
    for (int i = 0; i < 5000; i++) {
        float amax = ldexpf(1.0f + (float)(i * 7919 % 5000) / 5000.0f, i % 50 - 12);
        float s = mrt_pow2_scale(amax), v = fmaxf(amax, 1e-4f) / 448.0f;
        if (!is_pow2(s) || !(s >= v) || !(s / 2 < v)) bad++;
    }
    CHECK(bad == 0, "%d of 5000 pow2 scales are not the smallest power of two >= amax/448", bad);
}

/* mrt_pow2_inv: the quantizations' x * (1 / s) for a scale s = 2^e of mrt_pow2_scale gives
 * x / s's bits: 1 / s is exact for every e the scale takes (-22 .. 120), and the product
 * rounds the same real number once. Random bit patterns cover subnormal and overflowing
 * results, infinities and NaNs; tests/gpu/test_numerics_gpu.cu checks the device's
 * reciprocal over all 2^32 inputs. */
static void test_pow2_inv(void) {
    int bad_inv = 0, bad = 0, nan_bad = 0;
    uint32_t st = 0x9E3779B9u;
    for (int e = -22; e <= 120; e++) {
        const float s = ldexpf(1.0f, e), inv = mrt_pow2_inv(s);
        if (inv != ldexpf(1.0f, -e)) bad_inv++;
        for (int i = 0; i < 20000; i++) {
            st = st * 1664525u + 1013904223u;
            const float x = mrt_bits_f32(st ^ (st >> 15) * 2654435761u);
            const float q = x / s, p = x * inv;
            if (isnan(q) || isnan(p)) nan_bad += isnan(q) != isnan(p);
            else if (mrt_f32_bits(q) != mrt_f32_bits(p)) bad++;
        }
    }
    CHECK(bad_inv == 0, "%d of 143 powers of two 2^e have mrt_pow2_inv != 2^-e", bad_inv);
    CHECK(bad == 0 && nan_bad == 0, "x * mrt_pow2_inv(s) differs from x / s at %d inputs (%d NaN)", bad, nan_bad);
    const float amax[] = {0.0f, 1e-30f, 0.37f, 448.0f, 449.0f, 3e5f, 1e30f, FLT_MAX};
    for (size_t i = 0; i < sizeof amax / sizeof amax[0]; i++) {
        const float s = mrt_pow2_scale(amax[i]), inv = mrt_pow2_inv(s);
        CHECK(s * inv == 1.0f && is_pow2(inv), "pow2_scale(%g) = %g: its inverse %g is not exact", (double)amax[i],
              (double)s, (double)inv);
    }
}

static void test_rope(void) {
    float c, s;
    for (int i = 0; i < 32; i++) {
        mrt_rope_cos_sin(0, i, 64, 1e6, &c, &s);
        CHECK(c == 1.0f && s == 0.0f, "position 0 pair %d: cos %g sin %g", i, (double)c, (double)s);
    }
    mrt_rope_cos_sin(5, 0, 64, 1e6, &c, &s); /* pair 0: inverse frequency 1, angle = pos */
    CHECK(c == (float)cos(5.0) && s == (float)sin(5.0), "pos 5 pair 0: cos %g sin %g", (double)c, (double)s);
    mrt_rope_cos_sin(1000, 16, 64, 1e6, &c, &s); /* theta^(-1/2) = 1e-3: angle 1 */
    float ang = 1000.0f * (float)(1.0 / pow(1e6, 0.5));
    CHECK(c == (float)cos((double)ang) && s == (float)sin((double)ang), "pos 1000 pair 16");
    float a = 3.0f, b = 4.0f;
    mrt_rope_pair(&a, &b, 0.6f, 0.8f); /* (3,4) rotated by the angle with cos .6 sin .8 */
    CHECK(a == 3.0f * 0.6f - 4.0f * 0.8f && b == 4.0f * 0.6f + 3.0f * 0.8f,
          "rope_pair: (%g, %g)", (double)a, (double)b);
}

int main(void) {
    test_e4m3_codes();
    test_e4m3_rounding();
    test_bf16();
    test_scales();
    test_pow2_inv();
    test_rope();
    TEST_MAIN_END();
}
