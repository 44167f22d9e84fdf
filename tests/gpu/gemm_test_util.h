/* Helpers shared by the GPU GEMM tests (host C++ inside .cu files): a seeded RNG, a
 * parallel-for for the fp64 CPU references, relative error, poisoning, CUDA error checks. */
#ifndef MRT_GEMM_TEST_UTIL_H
#define MRT_GEMM_TEST_UTIL_H

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <thread>
#include <vector>

#include "cuda/gpu.h"
#include "numerics.h"
#include "testing.h"

/* A CUDA call that must succeed; on failure prints the call, any watchdog record, and
 * exits the test (a lost context makes further checks meaningless). */
#define CUDA_OK(call)                                                                               \
    do {                                                                                            \
        cudaError_t e_ = (call);                                                                    \
        if (e_ != cudaSuccess) {                                                                    \
            fprintf(stderr, "%s:%d: CUDA error %s in %s\n", __FILE__, __LINE__, cudaGetErrorString(e_), #call); \
            char rep_[4096];                                                                        \
            if (mrt_gpu_watchdog_report(rep_, sizeof rep_)) fprintf(stderr, "watchdog:\n%s", rep_); \
            test_failed_++;                                                                         \
            exit(test_end_());                                                                      \
        }                                                                                           \
    } while (0)

/* xorshift64*: reproducible per seed, fast enough for 30M values. */
struct test_rng {
    uint64_t s;
    explicit test_rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 1) {}
    uint64_t next() {
        s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
        return s * 0x2545F4914F6CDD1Dull;
    }
    float uniform() { return (float)((next() >> 40) * (1.0 / 16777216.0)); } /* [0, 1) */
    float sym() { return uniform() * 2.0f - 1.0f; }                          /* [-1, 1) */
};

/* Runs f(i) for i in [0, n) on all cores, in contiguous chunks. */
template <class F> static void test_parallel_for(long n, F f) {
    unsigned nt = std::thread::hardware_concurrency();
    if (nt < 1) nt = 1;
    if (nt > 64) nt = 64;
    std::vector<std::thread> th;
    long chunk = (n + nt - 1) / nt;
    for (unsigned t = 0; t < nt; t++) {
        long lo = t * chunk, hi = lo + chunk < n ? lo + chunk : n;
        if (lo >= hi) break;
        th.emplace_back([=] {
            for (long i = lo; i < hi; i++) f(i);
        });
    }
    for (auto &x : th) x.join();
}

/* ||out - ref|| / ||ref||; NaN (e.g. an unwritten poisoned element) makes it NaN. */
static double test_rel_err(const float *out, const double *ref, long n) {
    double num = 0, den = 0;
    for (long i = 0; i < n; i++) {
        double d = (double)out[i] - ref[i];
        num += d * d, den += ref[i] * ref[i];
    }
    return sqrt(num / (den > 0 ? den : 1e-300));
}

/* Whether the test binary should skip: no sm_90 GPU. Prints "SKIP: reason". */
static int test_gpu_skip(void) {
    setvbuf(stdout, NULL, _IOLBF, 0); /* lines survive a crash or a timeout kill */
    char why[256];
    if (mrt_gpu_available(why, sizeof why)) return 0;
    printf("SKIP: %s\n", why);
    return 1;
}

/* Command line: --reps N (determinism repetitions, default 100), --quick (fewer M),
 * --only NAME (one case name, e.g. B0). */
struct test_opts {
    int reps = 100;
    int quick = 0;
    const char *only = NULL;
};
static test_opts test_parse(int argc, char **argv) {
    test_opts o;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc) o.reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--quick")) o.quick = 1;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) o.only = argv[++i];
    }
    if (o.reps < 1) o.reps = 1;
    return o;
}

/* On a failed comparison: where the bad elements are (first few, and by weight-row half of
 * the 128-row tile and by token mod 8), which tells a layout bug from a numerics one. */
static void test_describe_errors(const float *out, const double *ref, int M, int N, int ld_ref) {
    long bad = 0, bad_half[2] = {0, 0}, bad_m8[8] = {0};
    int shown = 0;
    for (int m = 0; m < M; m++)
        for (int n = 0; n < N; n++) {
            double r = ref[(size_t)m * ld_ref + n], o = out[(size_t)m * ld_ref + n];
            if (!(fabs(o - r) <= 0.02 * fabs(r) + 1e-3)) {
                bad++, bad_half[(n % 128) >= 64]++, bad_m8[m % 8]++;
                if (shown < 6) printf("    bad m=%d n=%d: got %.6g, want %.6g\n", m, n, o, r), shown++;
            }
        }
    printf("    %ld of %ld elements off by > 2%%; by row half %ld/%ld; by m%%8: %ld %ld %ld %ld %ld %ld %ld %ld\n", bad,
           (long)M * N, bad_half[0], bad_half[1], bad_m8[0], bad_m8[1], bad_m8[2], bad_m8[3], bad_m8[4], bad_m8[5],
           bad_m8[6], bad_m8[7]);
}

#endif
