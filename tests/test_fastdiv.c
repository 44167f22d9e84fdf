/* Unit test of src/core/fastdiv.h: the multiply-shift quotient equals j / d for every divisor
 * 1..4100, every dividend below 70000, and dividends near the ends of the range (2^31 - 1
 * down, powers of two and their neighbours, multiples of d and their neighbours), then random
 * pairs over the whole domain; the float-reciprocal one likewise below 2^23 (test_smalldiv). */
#include <stdint.h>
#include <stdlib.h>

#include "fastdiv.h"
#include "testing.h"

static int bad;
static void check(uint32_t j, uint32_t d, mrt_fastdiv f) {
    if (mrt_fastdiv_q(j, f) != j / d && bad++ < 5)
        CHECK(0, "%u / %u: fastdiv %u, want %u (mul %u, shift %d)", j, d, mrt_fastdiv_q(j, f), j / d, f.mul, f.shift);
}

static void test_small(void) {
    for (uint32_t d = 1; d <= 4100; d++) {
        const mrt_fastdiv f = mrt_fastdiv_make(d);
        CHECK(f.shift >= 31 && f.shift <= 62, "divisor %u: shift %d out of range", d, f.shift);
        for (uint32_t j = 0; j < 70000; j++) check(j, d, f);
        for (uint32_t j = 0x7FFFFFFFu; j > 0x7FFFFFFFu - 5000; j--) check(j, d, f);
        for (int k = 1; k < 31; k++)
            for (int e = -2; e <= 2; e++) check((uint32_t)((1u << k) + e) & 0x7FFFFFFFu, d, f);
        for (uint32_t m = 1; m < 0x7FFFFFFFu / d && m < (1u << 20); m = m * 3 + 1)
            for (int e = -1; e <= 1; e++)
                if (m * d + e < 0x80000000u) check(m * d + e, d, f);
    }
}

static void test_random(void) {
    srand(12345);
    for (int i = 0; i < 2000000; i++) {
        const uint32_t d = (((uint32_t)rand() << 16) ^ (uint32_t)rand()) % (i & 1 ? 0x7FFFFFFFu : 70000u) + 1;
        const uint32_t j = (((uint32_t)rand() << 16) ^ (uint32_t)rand()) & 0x7FFFFFFFu;
        check(j, d, mrt_fastdiv_make(d));
    }
    const uint32_t big[] = {0x7FFFFFFFu, 0x7FFFFFFEu, 0x40000001u, 0x40000000u, 0x3FFFFFFFu, 46341u, 65537u};
    for (unsigned i = 0; i < sizeof big / sizeof big[0]; i++) {
        const mrt_fastdiv f = mrt_fastdiv_make(big[i]);
        for (uint32_t j = 0; j < 100; j++) check(j * (big[i] / 97 + 1) & 0x7FFFFFFFu, big[i], f);
        check(0x7FFFFFFFu, big[i], f), check(big[i] - 1, big[i], f), check(big[i], big[i], f);
    }
}

/* mrt_smalldiv: every divisor 1..4100 against every dividend below 70000 and the top of its
 * range, divisors near 2^23 and random pairs below 2^23 */
static int sbad;
static void scheck(int j, int d, mrt_smalldiv s) {
    if (mrt_smalldiv_q(j, s) != j / d && sbad++ < 5)
        CHECK(0, "%d / %d: smalldiv %d, want %d (r %a)", j, d, mrt_smalldiv_q(j, s), j / d, (double)s.r);
}
static void test_smalldiv(void) {
    const int top = (1 << 23) - 1;
    for (int d = 1; d <= 4100; d++) {
        const mrt_smalldiv s = mrt_smalldiv_make(d);
        for (int j = 0; j < 70000; j++) scheck(j, d, s);
        for (int j = top; j > top - 20000; j--) scheck(j, d, s);
        for (int m = 1; m * d <= top; m = m * 3 + 1)
            for (int e = -1; e <= 1; e++)
                if (m * d + e <= top) scheck(m * d + e, d, s);
    }
    for (int d = top; d > top - 3000; d--) {
        const mrt_smalldiv s = mrt_smalldiv_make(d);
        for (int j = 0; j <= top; j += 4093) scheck(j, d, s);
        scheck(d - 1, d, s), scheck(d, d, s), scheck(top, d, s);
    }
    srand(54321);
    for (int i = 0; i < 2000000; i++) {
        const int d = (int)((((uint32_t)rand() << 16) ^ (uint32_t)rand()) % (i & 1 ? (uint32_t)top : 4096u)) + 1;
        const int j = (int)((((uint32_t)rand() << 16) ^ (uint32_t)rand()) & (uint32_t)top);
        scheck(j, d, mrt_smalldiv_make(d));
    }
    CHECK(mrt_smalldiv_q(12345, mrt_smalldiv_make(0)) == 0, "smalldiv: divisor 0 must give quotient 0");
    CHECK(sbad == 0, "%d small quotients wrong", sbad);
}

/* mrt_cache_blocks: a request's table row holds ceil(kv / block_tokens) blocks, and position p
 * is in block p / block_tokens, for the block sizes and contexts the launchers see (a context
 * ending inside a block, exactly at a block's end, shorter than one block). */
static void test_cache_blocks(void) {
    const int sizes[] = {1, 4, 8, 16, 64, 96, 128, 256, 384};
    const int kvs[] = {1, 3, 63, 64, 65, 300, 1000, 8192, 65536, 65537};
    int wrong = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (size_t k = 0; k < sizeof kvs / sizeof kvs[0]; k++) {
            const int bt = sizes[i], kv = kvs[k];
            int bpr = -1;
            mrt_fastdiv f = {0u, 0};
            mrt_cache_blocks(kv, bt, &bpr, &f);
            wrong += !CHECK(bpr == (kv + bt - 1) / bt && (long long)bpr * bt >= kv && (long long)(bpr - 1) * bt < kv,
                            "kv %d, block_tokens %d: %d blocks a row", kv, bt, bpr);
            for (int p = 0; p < kv; p += 1 + p / 7)
                if ((int)mrt_fastdiv_q((uint32_t)p, f) != p / bt && wrong++ < 5)
                    CHECK(0, "kv %d, block_tokens %d: position %d in block %u, want %d", kv, bt, p,
                          mrt_fastdiv_q((uint32_t)p, f), p / bt);
        }
    CHECK(wrong == 0, "cache geometry: %d wrong", wrong);
}

int main(void) {
    CHECK(mrt_fastdiv_q(12345, mrt_fastdiv_make(0)) == 0, "divisor 0 must give quotient 0");
    test_small();
    test_random();
    test_smalldiv();
    test_cache_blocks();
    CHECK(bad == 0, "%d quotients wrong", bad);
    TEST_MAIN_END();
}
