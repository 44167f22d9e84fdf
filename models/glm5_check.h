/* Comparing a GLM-5 prefix step with the naive reference (tolerances: docs/NUMERICS.md)
 * and binding host buffers to graph tensors. */
#ifndef MRT_GLM5_CHECK_H
#define MRT_GLM5_CHECK_H

#include "glm5_prefix.h"

#ifdef __cplusplus
extern "C" {
#endif

/* buffers[t] = the host buffer of graph tensor t (NULL for workspaces). */
mrt_status glm5_bind(const mrt_graph *g, const glm5_host *h, void **buffers);
/* Uploads every tensor h holds to the GPU executor x: weights and caches into each of the
 * first `copies` copies (benchmarks rotate through them), everything else once. */
mrt_status glm5_upload(mrt_gpu_exec *x, const mrt_graph *g, const glm5_host *h, int copies);
/* Downloads the step's outputs and both caches (copy 0) into h: what glm5_compare checks. */
mrt_status glm5_download(mrt_gpu_exec *x, const mrt_graph *g, glm5_host *h);

typedef struct glm5_check_summary {
    double rel_r_new, rel_qmla, rel_logits, topk_overlap, topk_worst_row, topk_overlap_ties;
    long long cache_code_steps, cache_code_far;
} glm5_check_summary;

/* Which outputs a plan produces (bits below): only those are compared. */
enum {
    GLM5_OUT_R_NEW = 1, GLM5_OUT_QMLA = 2, GLM5_OUT_LOGITS = 4, GLM5_OUT_TOPK = 8,
    GLM5_OUT_MLA_CACHE = 16, GLM5_OUT_IDX_CACHE = 32, GLM5_OUT_ALL = 63
};
unsigned glm5_plan_outputs(const mrt_plan *p);

/* Tolerances. GLM5_TOL_REFERENCE: an executor against the naive reference or the CPU
 * executor on the CPU (same fp32 steps, so only ties round differently). GLM5_TOL_DEVICE:
 * a GPU executor against the CPU executor: Hopper's FP8 tensor cores accumulate a 128-wide
 * K block with ~1e-4 relative error (measured: docs/NUMERICS.md), which flips bf16 and
 * e4m3 roundings downstream; each flipped e4m3 input code moves every output of the next
 * GEMM by ~1e-3. */
typedef enum { GLM5_TOL_REFERENCE, GLM5_TOL_DEVICE } glm5_tolerance;

/* Prints a table to f (NULL: silent); returns the number of failed checks among the
 * outputs in `which`. */
int glm5_compare(const glm5_host *out, const glm5_host *ref, unsigned which, glm5_tolerance tol, FILE *f,
                 glm5_check_summary *sum);

/* FNV-1a over every output and both caches: equal digests = identical bytes. */
uint64_t glm5_digest(const glm5_host *h);

#ifdef __cplusplus
}
#endif

#endif
