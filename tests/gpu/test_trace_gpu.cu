/* Traces of the GPU executors (issue [G]): a traced step of serial, cmp and mega gives the
 * same bytes as an untraced one; every CTA (every instruction) left its stamps (the trace
 * step refuses a hole); serial's kernels follow one another on the stream track and its
 * critical path is every launch; cmp spreads over several streams; the JSON carries it all.
 * Prints "SKIP" without a GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glm5_fixture.h"
#include "gpu.h"
#include "internal.h"
#include "testing.h"

static mrt_context *ctx;

static char *json_of(mrt_trace *tr) {
    FILE *f = tmpfile();
    if (!f || mrt_trace_write_json(tr, f)) return NULL;
    long n = ftell(f);
    rewind(f);
    char *b = (char *)malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) n = 0;
    if (b) b[n] = 0;
    fclose(f);
    return b;
}

/* The per-launch slices on the stream tracks (pid 2), in issue order: one JSON line each. */
static int stream_slices(const char *json, int *tid, double *ts, double *dur, int cap) {
    const char *key = "{\"ph\": \"X\", \"pid\": 2, \"tid\": ";
    int n = 0;
    for (const char *s = strstr(json, key); s && n < cap; s = strstr(s + 1, key)) {
        const char *t = strstr(s, "\"ts\": "), *d = strstr(s, "\"dur\": "), *eol = strchr(s, '\n');
        if (!t || !d || (eol && d > eol)) break;
        tid[n] = atoi(s + strlen(key)), ts[n] = atof(t + 6), dur[n] = atof(d + 7);
        n++;
    }
    return n;
}

static void stream_executor(const char *exe, mrt_plan *p, mrt_gpu_exec *x, uint64_t want) {
    const mrt_graph *g = p->g;
    const char *outs[] = {"r_new", "qmla", "logits", "topk", "mla_cache", "idx_cache"};
    mrt_trace *tr = mrt_trace_new(p, exe);
    mrt_status st = mrt_gpu_trace_step(x, exe, 0, tr);
    if (!CHECK(st == MRT_OK, "%s traced step: %s", exe, mrt_last_error(ctx))) return mrt_trace_free(tr);
    uint64_t d = gpu_digest(x, g, outs, 6, &st);
    CHECK(st == MRT_OK && d == want, "%s: traced step's bytes differ from the untraced step's", exe);
    mrt_trace_print(tr, stdout);
    mrt_trace_metrics m = mrt_trace_get_metrics(tr);
    int gemm_fp8 = 0;
    for (int i = 0; i < p->n_ops; i++) gemm_fp8 += g->ops[p->ops[i]].kind == MRT_OPC_GEMM_FP8;
    int launches = p->n_ops + gemm_fp8; /* a gemm_fp8 op is its GEMM and its finalization */
    char *json = json_of(tr);
    if (!CHECK(json != NULL, "%s: JSON written", exe)) return mrt_trace_free(tr);
    int tid[64];
    double ts[64], dur[64];
    int n = stream_slices(json, tid, ts, dur, 64), streams = 0;
    for (int i = 0; i < n; i++) streams = tid[i] + 1 > streams ? tid[i] + 1 : streams;
    CHECK(n == launches, "%s: %d launch slices, want %d", exe, n, launches);
    CHECK(m.span_us > 1 && m.span_us < 10000, "%s: span %.2f us", exe, m.span_us);
    CHECK(m.active_ratio > 0 && m.active_ratio <= 1, "%s: active SM ratio %.3f", exe, m.active_ratio);
    if (!strcmp(exe, "serial")) {
        CHECK(streams == 1, "serial: %d streams", streams);
        CHECK(m.critical_len == launches, "serial: critical path of %d launches, want all %d", m.critical_len, launches);
        int overlap = 0; /* no PDL in serial: a kernel starts after the previous one ended */
        for (int i = 1; i < n; i++) overlap += ts[i] < ts[i - 1] + dur[i - 1] - 0.05;
        CHECK(overlap == 0, "serial: %d kernels start before their predecessor ended", overlap);
    } else
        CHECK(streams > 1, "cmp: %d streams (the independent branches run side by side)", streams);
    free(json);
    mrt_trace_free(tr);
}

static void stream_executors(void) {
    glm5_fixture f;
    mrt_status st = glm5_fixture_new(ctx, (glm5_shape){16, 2, 8192}, NULL, 11, &f);
    if (!st) st = mrt_gpu_serial_step(f.x, 0, 1);
    if (!st) st = mrt_gpu_sync(f.x);
    const char *outs[] = {"r_new", "qmla", "logits", "topk", "mla_cache", "idx_cache"};
    uint64_t want = st ? 0 : gpu_digest(f.x, f.g, outs, 6, &st);
    if (CHECK(st == MRT_OK, "set-up: %s", mrt_last_error(ctx))) {
        stream_executor("serial", f.p, f.x, want);
        stream_executor("cmp", f.p, f.x, want);
    }
    glm5_fixture_free(&f);
}

static void mega(void) {
    glm5_fixture f;
    mrt_status st = glm5_fixture_new(ctx, (glm5_shape){16, 2, 8192}, "A0", 12, &f); /* what mega runs so far */
    if (!st) st = mrt_gpu_mega_step(f.x, 0, 1);
    if (!st) st = mrt_gpu_sync(f.x);
    const char *outs[] = {"r_new", "x", "x8", "sx"};
    uint64_t want = st ? 0 : gpu_digest(f.x, f.g, outs, 4, &st);
    mrt_trace *tr = st ? NULL : mrt_trace_new(f.p, "mega");
    if (!st) st = mrt_gpu_trace_step(f.x, "mega", 0, tr);
    if (CHECK(st == MRT_OK, "mega traced step: %s", mrt_last_error(ctx))) {
        CHECK(gpu_digest(f.x, f.g, outs, 4, &st) == want && !st, "mega: traced step's bytes differ");
        mrt_trace_print(tr, stdout);
        char *json = json_of(tr);
        int slices = 0;
        for (const char *q = json; q && (q = strstr(q, "\"ph\": \"X\"")); q++) slices++;
        CHECK(slices == f.p->n_tasks, "mega: %d instruction slices, want one per task (%d)", slices, f.p->n_tasks);
        mrt_trace_metrics m = mrt_trace_get_metrics(tr);
        CHECK(m.span_us > 0 && m.span_us < 10000, "mega: span %.2f us", m.span_us);
        free(json);
    }
    /* a trace made for another plan, or an unknown executor, is refused by name */
    mrt_plan *p2 = NULL;
    if (f.g && !mrt_plan_build(f.g, NULL, &p2)) {
        mrt_trace *wrong = mrt_trace_new(p2, "serial");
        CHECK(mrt_gpu_trace_step(f.x, "serial", 0, wrong) == MRT_ERR_INVALID && strstr(mrt_last_error(ctx), "plan"),
              "a trace of another plan is refused: %s", mrt_last_error(ctx));
        mrt_trace_free(wrong);
    }
    mrt_trace *other = f.p ? mrt_trace_new(f.p, "mega") : NULL;
    CHECK(mrt_gpu_trace_step(f.x, "warp", 0, other) == MRT_ERR_INVALID && strstr(mrt_last_error(ctx), "warp"),
          "an unknown executor is refused by name: %s", mrt_last_error(ctx));
    mrt_trace_free(other);
    mrt_plan_free(p2);
    mrt_trace_free(tr);
    glm5_fixture_free(&f);
}

int main(void) {
    if (!gpu_or_skip()) return 0;
    ctx = mrt_context_new();
    stream_executors();
    mega();
    mrt_context_free(ctx);
    TEST_MAIN_END();
}
