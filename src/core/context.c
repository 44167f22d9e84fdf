/* Contexts, error messages and small host utilities. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"

mrt_context *mrt_context_new(void) { return calloc(1, sizeof(mrt_context)); }

void mrt_context_free(mrt_context *ctx) { free(ctx); }

const char *mrt_last_error(const mrt_context *ctx) { return ctx ? ctx->err : "no context"; }

mrt_status mrt_fail(mrt_context *ctx, mrt_status s, const char *fmt, ...) {
    if (ctx) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
        va_end(ap);
    }
    return s;
}

const char *mrt_status_name(mrt_status s) {
    static const char *names[] = {"ok",     "invalid argument", "shape mismatch", "dtype mismatch",
                                  "bad graph", "unknown op",    "race",           "deadlock",
                                  "limit exceeded", "out of memory", "mismatch", "unsupported"};
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "unknown status";
}

double mrt_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

void *mrt_xcalloc(size_t n, size_t size) { return calloc(n ? n : 1, size ? size : 1); }
