/* The set-up most GPU tests share: the GLM-5 prefix graph at a shape, its plan (all ops, or
 * `ops`), random host data from a seed, and a GPU executor (one weight copy) holding it. */
#ifndef MRT_GLM5_FIXTURE_H
#define MRT_GLM5_FIXTURE_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glm5_check.h"
#include "gpu.h"

/* false, after printing the SKIP line run_all.sh expects, when there is no usable GPU */
static inline bool gpu_or_skip(void) {
    char why[256];
    if (mrt_gpu_available(why, sizeof why)) return true;
    printf("SKIP: %s\n0 passed, 0 failed\n", why);
    return false;
}

typedef struct glm5_fixture {
    mrt_graph *g;
    mrt_plan *p;
    glm5_host h;
    mrt_gpu_exec *x;
} glm5_fixture;

static inline void glm5_fixture_free(glm5_fixture *f) {
    mrt_gpu_exec_free(f->x);
    glm5_host_free(&f->h);
    mrt_plan_free(f->p);
    mrt_graph_free(f->g);
    memset(f, 0, sizeof *f);
}

/* FNV-1a over the device bytes of the named tensors (copy 0): equal digests = identical
 * bytes. *st carries a download error (and stops the digest). */
static inline uint64_t gpu_digest(mrt_gpu_exec *x, const mrt_graph *g, const char *const *names, int n, mrt_status *st) {
    uint64_t d = 1469598103934665603ull;
    for (int i = 0; i < n && !*st; i++) {
        const mrt_tensor *t = mrt_graph_find_tensor(g, names[i]);
        size_t bytes = mrt_tensor_bytes(t);
        unsigned char *b = (unsigned char *)malloc(bytes);
        *st = b ? mrt_gpu_download(x, mrt_tensor_id(t), 0, b) : MRT_ERR_NOMEM;
        for (size_t k = 0; b && !*st && k < bytes; k++) d = (d ^ b[k]) * 1099511628211ull;
        free(b);
    }
    return d;
}

/* Model config c, plan options o. On failure everything made so far is freed and the status
 * returned (message in ctx). */
static inline mrt_status glm5_fixture_new_cfg(mrt_context *ctx, glm5_config c, glm5_shape s, const mrt_plan_opts *o,
                                              uint64_t seed, glm5_fixture *f) {
    memset(f, 0, sizeof *f);
    mrt_status st = glm5_prefix_graph(ctx, &c, &s, &f->g);
    if (!st) st = mrt_plan_build(f->g, o, &f->p);
    if (!st) st = glm5_host_random(ctx, &c, &s, seed, &f->h);
    if (!st) st = mrt_gpu_exec_new(f->p, 1, &f->x);
    if (!st) st = glm5_upload(f->x, f->g, &f->h, 1);
    if (st) glm5_fixture_free(f);
    return st;
}

/* GLM-5 with plan options o. */
static inline mrt_status glm5_fixture_new_opts(mrt_context *ctx, glm5_shape s, const mrt_plan_opts *o, uint64_t seed,
                                               glm5_fixture *f) {
    return glm5_fixture_new_cfg(ctx, glm5_config_glm5(), s, o, seed, f);
}

/* The default plan of `ops` (NULL: all). */
static inline mrt_status glm5_fixture_new(mrt_context *ctx, glm5_shape s, const char *ops, uint64_t seed, glm5_fixture *f) {
    mrt_plan_opts o = mrt_plan_opts_default();
    o.ops = ops;
    return glm5_fixture_new_opts(ctx, s, &o, seed, f);
}

#endif
