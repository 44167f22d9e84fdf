/* Comparing a GLM-5 prefix step with the naive reference (tolerances: docs/NUMERICS.md)
 * and binding host buffers to graph tensors. */
#ifndef MRT_GLM5_CHECK_H
#define MRT_GLM5_CHECK_H

#include "glm5_prefix.h"

/* buffers[t] = the host buffer of graph tensor t (NULL for workspaces). */
mrt_status glm5_bind(const mrt_graph *g, const glm5_host *h, void **buffers);

typedef struct glm5_check_summary {
    double rel_r_new, rel_qmla, rel_logits, topk_overlap, topk_worst_row;
    long long cache_code_steps, cache_code_far;
} glm5_check_summary;

/* Which outputs a plan produces (bits below): only those are compared. */
enum {
    GLM5_OUT_R_NEW = 1, GLM5_OUT_QMLA = 2, GLM5_OUT_LOGITS = 4, GLM5_OUT_TOPK = 8,
    GLM5_OUT_MLA_CACHE = 16, GLM5_OUT_IDX_CACHE = 32, GLM5_OUT_ALL = 63
};
unsigned glm5_plan_outputs(const mrt_plan *p);

/* Prints a table to f (NULL: silent); returns the number of failed checks among the
 * outputs in `which`. */
int glm5_compare(const glm5_host *out, const glm5_host *ref, unsigned which, FILE *f, glm5_check_summary *sum);

/* FNV-1a over every output and both caches: equal digests = identical bytes. */
uint64_t glm5_digest(const glm5_host *h);

#endif
