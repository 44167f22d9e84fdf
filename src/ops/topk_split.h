/* topk (F1): what the C tiler and reference (topk.c) and the device code (topk.cuh,
 * mega_table.cu) share: the key of a logit and the constants of a row over several workers.
 * Plain C; the key function is host and device code under nvcc. */
#ifndef MRT_TOPK_SPLIT_H
#define MRT_TOPK_SPLIT_H

#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define MRT_TOPK_FN static __host__ __device__ __forceinline__
#else
#define MRT_TOPK_FN static inline
#endif

/* The key of a logit: order-preserving as an unsigned integer (negative: ~bits, else bits |
 * 2^31), -0.0 folded into +0.0, non-finite values 0 ("excluded"; no finite value reaches it:
 * the smallest finite key is 0x00800000). */
MRT_TOPK_FN uint32_t mrt_topk_key(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7F800000u) == 0x7F800000u) return 0u; /* +-inf, NaN: excluded */
    if (u == 0x80000000u) u = 0u;                    /* -0.0 == +0.0 */
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

#define MRT_TOPK_GW 4100            /* words of a slice's G array: G[0..4096], padded to 16 bytes */
#define MRT_TOPK_MAX_SLICES 16      /* slices a row, at most (the finalizer keeps per-slice state) */
/* The default tiling: at most 8 slices, at least 16384 keys each (so rows up to 16383 keys stay
 * on one worker), rows x slices at most the workers. Measured (H200, session 22 run 3, mega
 * step us, --split F1=1 / 4 / 8 / 16): KV=65536 M=1 156.4 / 105.4 / 100.7 / 108.6, M=16
 * 189.1 / 143.8 / 147.2 / 184.6, M=64 359.0 / 334.3 / 384.4 / 535.3, M=128 544.1 / 577.2 /
 * 681.0; KV=8192 (F1=1 / 2 / 4) M=1 76.3 / 79.8 / 81.7, M=16 79.8 / 89.6 / 91.3, M=64 141.6 /
 * 150.1 / 171.1: a slice costs ~8 us however short, and more tasks queue behind D2's.
 * Session 46 (H200, bench/RESULTS.md runs 3-7), with the unsliced row past 24576 keys as 24-bit
 * key prefixes in shared memory (topk.cuh mrt_topk_row_runs24; the bitmap row before it):
 * KV=65536 M=16 F1=4 (the default) 104.5 against F1=1 131.6, M=64 F1=2 182.6-184.9 against
 * F1=1 208.9 and F1=4 203.5, M=128 F1=1 (the default) 300-301 against F1=2 315.2: the rule
 * stands. */
#define MRT_TOPK_DEFAULT_SLICES 8
#define MRT_TOPK_MIN_SLICE 16384

/* Slices of a row of kv keys for `split` (< 1 counts as 1): *slice keys each, a multiple of
 * 128, the last one shorter; returns how many hold keys. */
static inline int64_t mrt_topk_slices(int64_t kv, int split, int64_t *slice) {
    const int64_t s = split < 1 ? 1 : split, per = (kv + s - 1) / s;
    *slice = (per + 127) / 128 * 128;
    if (*slice < 128) *slice = 128;
    return (kv + *slice - 1) / *slice;
}

#endif
