/* The C face of the indexer's GPU ops: E1 (indexer logits) and F1 (top-k) of the GLM-5
 * prefix (../shared/GLM5_PREFIX.md steps 7 and 8; rounding in docs/NUMERICS.md). The device
 * code is src/ops/index_logits.cuh and src/ops/topk.cuh; src/cuda/index_ops.cu holds the
 * standalone kernels and these launchers. No CUDA header is included here: usable from C11.
 *
 * All pointers are device pointers; `stream` is a cudaStream_t (NULL: the legacy stream).
 * Every function returns 0 once the kernel is enqueued, or -1 with a message in why (n bytes)
 * naming the argument that is wrong or the CUDA error of the launch. Nothing is allocated. */
#ifndef MRT_INDEX_OPS_H
#define MRT_INDEX_OPS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* E1. logits[t, j] = (sum_h wI[t,h] * max(dot(q8[t,h,:], k8[j,:]), 0)) * ks[j] if j <= pos[t],
 * else -INFINITY, for every token t of request b = t / (M / batch) and key j in [0, kv).
 *   q8i  [M, heads, dim] e4m3 codes          wI [M, heads] f32        pos [M] i32
 *   idx_cache [num_blocks][block_tokens * dim e4m3 codes (token-major), then block_tokens f32]
 *   block_table [batch, ceil(kv / block_tokens)] i32: key j of request b lives in block
 *       block_table[b * ceil(kv / block_tokens) + j / block_tokens] at offset j % block_tokens
 *   logits [M, kv] f32 (row stride kv)
 * One CTA per tile (request, `chunk` keys); it reads each key once for all of the request's
 * tokens. Limits (checked): dim == 128, 1 <= heads <= 64, batch divides M, 1 <= chunk,
 * M / batch <= kv. The cache must be 4-byte aligned per block (block_tokens * 132 bytes) and
 * q8i 16-byte aligned. Entries of block_table and pos are not checked here (they are device
 * data): the plan checks them on the host (mrt_check_step_inputs).
 * Which tile: with 32 or 64 heads, variant 5 below (e4m3 wgmma with 4 key buffers; the
 * megakernel runs the same tile with 2, variant 4's: identical logits, which
 * test_index_ops checks; the chunk should be a multiple of its 128-key pass), else variant 0 (e4m3 converted exactly to f16, mma.sync
 * m16n8k16, products exact, f32 accumulation, rel err ~6e-8 against fp64 on the H200). A build
 * with -DMRT_E1_MMA_SYNC takes variant 0 always (the executors must agree: all of them call
 * this function or the megakernel's copy of the same choice). Choose chunk so that there are
 * about one or two tiles per SM (batch * kv / chunk).
 * pdl = 1 launches with programmatic stream serialization: the kernel may start while its
 * predecessor on the stream ends; every thread waits (griddepcontrol.wait) before it reads
 * anything (the same holds for mrt_gpu_topk). The variants below launch without it. */
int mrt_gpu_index_logits(const void *q8i, const float *wI, const void *idx_cache, const int *pos,
                         const int *block_table, float *logits, int M, int batch, int kv, int heads, int dim,
                         int block_tokens, int chunk, void *stream, int pdl, char *why, size_t n);

/* Variants of E1 for benchmarks and tests (mrt_gpu_index_logits takes 4 or 0, above).
 *  1: e4m3 operands straight into mma.sync m16n8k32. Hopper's FP8 *wgmma* is known to keep only
 *     ~13 mantissa bits in its accumulator; with mma.sync on the H200 (2026-11-29) this variant
 *     measured the same error as variant 0 (~6e-8) and was no faster, so it is kept only to measure.
 *  2: variant 0 with the mmas issued step-major (NT independent accumulator chains in flight);
 *  3: variant 2 with K split over two accumulators per n-tile (2 NT chains of half length);
 *  4: warpgroup MMA (wgmma m64n128k32 e4m3, operands in shared memory as stored, queries
 *     resident, keys double-buffered; 32 or 64 heads): src/ops/index_logits_wg.cuh. Its sums
 *     run in another order (and in the FP8 tensor cores' accumulator): logits within 2e-3 of
 *     the reference, like variant 1;
 *  5: variant 4 with 4 key buffers (3 passes copied ahead of the one multiplied);
 *  6, 7, 8: timing diagnostics of variant 4, no (valid) output: 6 = its copies and barriers
 *     alone, 7 = also its MMAs, without the epilogue, 8 = also the epilogue's math, no stores;
 *  9: variant 5 with one CTA a token group (each reads the tile's keys; identical logits): twice
 *     the CTAs at GLM-5's 8 tokens a request, each with half the epilogue.
 *  Variants 2 and 3 target the per-warp serialization seen in variant 0's timings; they were
 *  checked only in the CPU emulation of the tile code, not yet on a GPU (tests/gpu checks them). */
int mrt_gpu_index_logits_variant(int variant, const void *q8i, const float *wI, const void *idx_cache,
                                 const int *pos, const int *block_table, float *logits, int M, int batch, int kv,
                                 int heads, int dim, int block_tokens, int chunk, void *stream, char *why,
                                 size_t n);

/* F1. For each row r of logits [M, kv] f32: the k largest finite logits (-inf, +inf, NaN
 * excluded; -0.0 == +0.0) as indices j in ascending order, written to out[r * k + i]; -1
 * pads the row when it has fewer than k finite values. Of the values equal to the k-th
 * largest, the smaller indices are taken (as the CPU reference). One CTA (1024 threads) per
 * row: variant 9 (keys in registers, output staged) up to kv = 16384, else variant 0.
 * Limits (checked): k >= 1, kv >= 1, M >= 1. */
int mrt_gpu_topk(const float *logits, int *out, int M, int kv, int k, void *stream, int pdl, char *why, size_t n);

/* Variants of F1: 0 = mrt_gpu_topk (one CTA of 1024 threads a row), 1 = one CTA of 512 threads;
 * 2 = a thread-block cluster of 8 CTAs x 256 threads a row, 3 = a cluster of 4 x 256 (the row is
 * split into slices whose counts meet in the leader CTA's shared memory).
 * Variants 2 and 3 spread a row over several SMs (at M = 16 variant 0 keeps 116 of 132 SMs idle);
 * tests/gpu/test_index_ops checks every variant against the reference. Measured (H200,
 * 2026-11-29, f8e71c3, GLM-5 M=16 kv=8192 k=2048 on E1 logits, CUDA graph): variant 0 9.75 us,
 * 1 11.27, 2 97.85, 3 31.71 — the cluster variants are far slower (not analysed; no executor
 * uses them). Variants 4-7 are diagnostics, not top-k: variant 0 returning after pass 0, the
 * digit search, pass 1 and the list (topk.cuh), timed by test_index_ops to show what each phase
 * costs; their output is incomplete. Variant 8: one CTA of 1024 threads a row with the row's
 * keys in registers, 8 a thread up to kv = 8192, 16 up to 16384 (topk.cuh mrt_topk_row_reg;
 * refused above that). Variant 9: variant 8 with the indices staged in shared memory and
 * stored as whole rows (H200, session 9: 6.73 against variant 8's 7.16 us at kv = 8192).
 * Variant 10: variant 0's shared-memory row on 384 threads, the megakernel's whole CTA
 * (MRT_MEGA_TOPK_THREADS, mega_op.h). Variants 11 and 12: the megakernel's row in 3 and 16
 * slices (topk.cuh mrt_topk_slice / mrt_topk_merge, a CTA a slice, the row's last merges;
 * scratch allocated around each launch: not for timing). Variant 13: one CTA of 384 threads
 * a row, each thread a run of the row's keys in shared memory (topk.cuh mrt_topk_row_runs;
 * kv <= MRT_TOPK_CACHE_MAX, refused above): the megakernel's F1 row (mega_op.h). Variant 14:
 * variant 13 with each key's top 24 bits in shared memory (mrt_topk_row_runs24; kv a multiple of
 * 4 up to MRT_TOPK_R24_MAX, 65536, refused otherwise): the megakernel's unsliced row past the
 * runs' cache. */
int mrt_gpu_topk_variant(int variant, const float *logits, int *out, int M, int kv, int k, void *stream,
                         char *why, size_t n);

#ifdef __cplusplus
}
#endif

#endif
