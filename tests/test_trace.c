/* Traces (issue [G]): a CPU-executor trace of a GLM-5 prefix step is written as Chrome
 * trace-event JSON that parses (a small JSON parser below), carries one slice per task and
 * the metrics; the HTML timeline renders every slice in headless Chromium (the test reads
 * the rendered DOM and takes a screenshot, trace.png beside the test binary). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glm5_check.h"
#include "internal.h"
#include "testing.h"

/* ---- a minimal JSON parser: true if the text is one valid JSON value ------------------- */

typedef struct jp {
    const char *s;
    int slices; /* objects with "ph": "X" */
} jp;

static void ws(jp *j) {
    while (isspace((unsigned char)*j->s)) j->s++;
}
static bool value(jp *j);
static bool string(jp *j) {
    if (*j->s != '"') return false;
    for (j->s++; *j->s && *j->s != '"'; j->s++)
        if (*j->s == '\\' && !*++j->s) return false;
    if (*j->s != '"') return false;
    j->s++;
    return true;
}
static bool number(jp *j) {
    char *end;
    strtod(j->s, &end);
    if (end == j->s) return false;
    j->s = end;
    return true;
}
static bool object(jp *j) {
    j->s++;
    ws(j);
    if (*j->s == '}') return j->s++, true;
    for (;;) {
        ws(j);
        bool ph = !strncmp(j->s, "\"ph\"", 4);
        if (!string(j)) return false;
        ws(j);
        if (*j->s++ != ':') return false;
        ws(j);
        if (ph && !strncmp(j->s, "\"X\"", 3)) j->slices++;
        if (!value(j)) return false;
        ws(j);
        if (*j->s == ',') {
            j->s++;
            continue;
        }
        if (*j->s == '}') return j->s++, true;
        return false;
    }
}
static bool array(jp *j) {
    j->s++;
    ws(j);
    if (*j->s == ']') return j->s++, true;
    for (;;) {
        ws(j);
        if (!value(j)) return false;
        ws(j);
        if (*j->s == ',') {
            j->s++;
            continue;
        }
        if (*j->s == ']') return j->s++, true;
        return false;
    }
}
static bool value(jp *j) {
    ws(j);
    switch (*j->s) {
    case '{': return object(j);
    case '[': return array(j);
    case '"': return string(j);
    case 't': return !strncmp(j->s, "true", 4) ? (j->s += 4, true) : false;
    case 'f': return !strncmp(j->s, "false", 5) ? (j->s += 5, true) : false;
    case 'n': return !strncmp(j->s, "null", 4) ? (j->s += 4, true) : false;
    default: return number(j);
    }
}

static char *slurp(FILE *f) {
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) n = 0;
    if (b) b[n] = 0;
    return b;
}

static const char *chromium_flags = "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run "
                                     "--disable-background-networking --disable-component-update --disable-sync "
                                     "--user-data-dir=/tmp/mrt-chromium-profile";

/* Loads the page in headless Chromium and checks that its timeline drew `want` slices. */
static void rendered(const char *html, int want_slices) {
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "chromium %s --dump-dom \"file://$(realpath %s)\" 2>/dev/null", chromium_flags, html);
    FILE *pp = popen(cmd, "r"); /* a pipe cannot seek: read it in a loop */
    size_t cap = 1 << 22, n = 0;
    char *dom = malloc(cap);
    while (dom && pp && n + 1 < cap) {
        size_t k = fread(dom + n, 1, cap - 1 - n, pp);
        if (!k) break;
        n += k;
    }
    if (dom) dom[n] = 0;
    if (pp) pclose(pp);
    char want[64];
    snprintf(want, sizeof want, "data-rendered=\"%d\"", want_slices);
    CHECK(dom && strstr(dom, want), "Chromium rendered all %d slices of %s (is the Debian chromium package installed?)",
          want_slices, html);
    free(dom);
}

static bool parse_json(mrt_trace *tr, int *slices) {
    FILE *f = tmpfile();
    if (!f || mrt_trace_write_json(tr, f) != MRT_OK) return false;
    char *json = slurp(f);
    fclose(f);
    jp j = {json ? json : "", 0};
    bool ok = json && value(&j);
    ws(&j);
    ok = ok && *j.s == 0 && strstr(json, "\"process_name\"") && strstr(json, "\"SMs\"") && strstr(json, "\"streams\"");
    *slices = j.slices;
    free(json);
    return ok;
}

static int op_id(mrt_plan *p, const char *name) {
    mrt_op *op = mrt_graph_find_op(p->g, name);
    return op ? op->id : -1;
}

/* CTA traces (the stream executors' shape of trace) with known answers: a serial chain with
 * 2 us gaps between kernels, and a two-stream step whose critical path runs through the
 * longer branch. */
static void cta_traces(mrt_plan *p, const char *html) {
    /* serial: launch i of plan op i holds SMs 0 .. 3i+1 over [10i, 10i + 8] */
    mrt_trace *tr = mrt_trace_new(p, "serial");
    mrt_trace_set_tracks(tr, 132);
    int n = p->n_ops, ctas = 0;
    double busy = 0;
    for (int i = 0; i < n; i++) {
        int l = mrt_trace_add_launch(tr, p->ops[i], 0, i % 2 ? "gemm" : "epilogue");
        CHECK(l == i, "launch %d numbered %d", i, l);
        for (int c = 0; c < 3 * i + 2; c++, ctas++) mrt_trace_add_cta(tr, l, c, 10.0 * i, 10.0 * i + 0.5, 10.0 * i + 8);
        busy += (3 * i + 2) * 8.0;
    }
    mrt_trace_metrics m = mrt_trace_get_metrics(tr);
    double span = 10.0 * (n - 1) + 8;
    CHECK(fabs(m.span_us - span) < 1e-9, "serial span %.3f, want %.3f", m.span_us, span);
    CHECK(m.gap_count == n - 1 && fabs(m.gap_median_us - 2) < 1e-9 && fabs(m.gap_total_us - 2.0 * (n - 1)) < 1e-9,
          "gaps: %d, median %.3f, total %.3f (want %d of 2 us)", m.gap_count, m.gap_median_us, m.gap_total_us, n - 1);
    CHECK(fabs(m.active_ratio - busy / (span * 132)) < 1e-9, "active SM ratio %.6f, want %.6f", m.active_ratio,
          busy / (span * 132));
    CHECK(m.critical_len == n && fabs(m.critical_us - span) < 1e-9, "serial critical path: %d launches, %.3f us",
          m.critical_len, m.critical_us);
    CHECK(fabs(m.tick_us - 0.5) < 1e-9, "smallest step between stamps %.3f us (want 0.5)", m.tick_us);
    mrt_trace_print(tr, stdout);
    int slices = 0;
    CHECK(parse_json(tr, &slices), "serial CTA trace JSON parses and names its processes");
    CHECK(slices == ctas + n, "%d slices: one per CTA (%d) and per launch (%d)", slices, ctas, n);
    FILE *hf = fopen(html, "w");
    CHECK(hf && mrt_trace_write_html(tr, hf) == MRT_OK, "HTML written to %s", html);
    if (hf) fclose(hf);
    rendered(html, ctas + n); /* SM rows and stream rows */
    mrt_trace_free(tr);

    /* bad records are refused, not stored: a launch of no op or stream, a CTA of no launch */
    tr = mrt_trace_new(p, "serial");
    CHECK(mrt_trace_add_launch(tr, -1, 0, "k") == -1 && mrt_trace_add_launch(tr, p->g->n_ops, 0, "k") == -1 &&
              mrt_trace_add_launch(tr, p->ops[0], -1, "k") == -1,
          "launches of a bad op or stream are refused");
    mrt_trace_add_cta(tr, 0, 0, 0, 0, 1); /* no launch 0 yet */
    mrt_trace_add_cta(tr, -1, 0, 0, 0, 1);
    m = mrt_trace_get_metrics(tr);
    CHECK(m.span_us == 0 && m.critical_len == 0 && m.gap_count == 0, "an empty trace has zero metrics");
    CHECK(mrt_trace_write_json(NULL, stdout) == MRT_ERR_INVALID && mrt_trace_write_html(tr, NULL) == MRT_ERR_INVALID,
          "writing without a trace or a file is refused");
    mrt_trace_free(tr);

    /* cmp: A0 then B0 on stream 0, C0 (long) on stream 1, D1 needs both (on stream 0) */
    int a0 = op_id(p, "A0"), b0 = op_id(p, "B0"), c0 = op_id(p, "C0"), d1 = op_id(p, "D1");
    if (!CHECK(a0 >= 0 && b0 >= 0 && c0 >= 0 && d1 >= 0, "ops A0 B0 C0 D1 in the plan")) return;
    tr = mrt_trace_new(p, "cmp");
    int la = mrt_trace_add_launch(tr, a0, 0, "a0"), lb = mrt_trace_add_launch(tr, b0, 0, "gemm");
    int lc = mrt_trace_add_launch(tr, c0, 1, "gemm"), ld = mrt_trace_add_launch(tr, d1, 0, "gemm");
    mrt_trace_add_cta(tr, la, 0, 0, 0, 4);
    mrt_trace_add_cta(tr, lb, 1, 3, 4.2, 14); /* PDL: started before A0 ended */
    mrt_trace_add_cta(tr, lb, 2, 3, 4.2, 13);
    mrt_trace_add_cta(tr, lc, 3, 5, 5, 25);
    mrt_trace_add_cta(tr, ld, 1, 25, 25, 30);
    m = mrt_trace_get_metrics(tr);
    CHECK(m.critical_len == 3 && fabs(m.critical_us - 30) < 1e-9,
          "cmp critical path A0 -> C0 -> D1: %d launches, %.3f us", m.critical_len, m.critical_us);
    CHECK(m.gap_count == 0 && m.gap_total_us == 0, "no gap between overlapping kernels (%d)", m.gap_count);
    CHECK(fabs(m.active_ratio - (4 + 11 + 10 + 20 + 5) / (30.0 * 4)) < 1e-9, "active ratio %.6f over 4 SMs",
          m.active_ratio);
    char buf[4096] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    mrt_trace_print(tr, f);
    fclose(f);
    fputs(buf, stdout);
    CHECK(strstr(buf, "A0.a0 -> C0.gemm -> D1.gemm") != NULL, "the printed critical path names A0.a0 -> C0.gemm -> D1.gemm");
    CHECK(parse_json(tr, &slices) && slices == 5 + 4, "cmp trace JSON: %d slices (want 9)", slices);
    mrt_trace_free(tr);
}

static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The op table of a megakernel trace adds, per op, the median input ready -> published and the
 * cost model's median time for its tasks (the plan's own costs, less the worker's step), from
 * stamps with known answers, for E1 (chunks of 128, 128 and 44 keys a row at KV=300: tasks of
 * different costs, so a wrong pick of the median shows); a CPU trace's table has neither (host
 * time is not the model's). */
static void model_columns(mrt_plan *p, const char *cpu_table) {
    CHECK(!strstr(cpu_table, "model"), "the CPU trace's op table has no model column");
    mrt_trace *tr = mrt_trace_new(p, "mega");
    int e1 = op_id(p, "E1"), k = 0;
    double *in_pub = malloc(sizeof(double) * (size_t)p->n_tasks), *time = malloc(sizeof(double) * (size_t)p->n_tasks);
    if (!CHECK(tr && e1 >= 0 && in_pub && time, "set-up")) goto out;
    for (int i = 0; i < p->n_tasks; i++) {
        const double v = 0.01 * i, in = v + 0.3, comp = in + 1.0 + 0.5 * (i % 3), st[MRT_PH_COUNT] = {
            [MRT_PH_VISIBLE] = v, [MRT_PH_WEIGHTS] = v + 0.1, [MRT_PH_INPUT] = in, [MRT_PH_COMPUTED] = comp,
            [MRT_PH_PUBLISHED] = comp + 0.25 + 0.125 * (i % 2)};
        mrt_trace_add(tr, i, p->tasks[i].worker, st);
        if (p->tasks[i].op == e1)
            in_pub[k] = st[MRT_PH_PUBLISHED] - in, time[k] = mrt_task_time_us(p, &p->tasks[i]), k++;
    }
    qsort(in_pub, (size_t)k, sizeof(double), cmp_double), qsort(time, (size_t)k, sizeof(double), cmp_double);
    char buf[16384] = {0};
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    mrt_trace_print(tr, f);
    fclose(f);
    const char *line = strstr(buf, "\n  E1 ");
    double got_ip = -1, got_model = -1;
    const char *bar = line ? strchr(strchr(line + 1, '|') + 1, '|') : NULL;
    CHECK(strstr(buf, "in->pub") && strstr(buf, "model") && bar && sscanf(bar, "| %lf %lf", &got_ip, &got_model) == 2,
          "the mega trace's op table has in->pub and model columns:\n%s", buf);
    CHECK(k > 2 && time[0] < time[k - 1] && in_pub[0] < in_pub[k - 1], "E1's %d tasks differ in cost and time", k);
    CHECK(fabs(got_ip - in_pub[k / 2]) < 0.006 && fabs(got_model - time[k / 2]) < 0.006,
          "E1 (%d tasks): in->pub %.3f model %.3f, want %.3f and %.3f", k, got_ip, got_model, in_pub[k / 2], time[k / 2]);
out:
    free(in_pub), free(time);
    mrt_trace_free(tr);
}

int main(int argc, char **argv) {
    (void)argc;
    char dir[512] = ".", html[600], png[600];
    const char *slash = strrchr(argv[0], '/');
    if (slash) snprintf(dir, sizeof dir, "%.*s", (int)(slash - argv[0]), argv[0]);
    snprintf(html, sizeof html, "%s/trace.html", dir);
    snprintf(png, sizeof png, "%s/trace.png", dir);
    mrt_context *ctx = mrt_context_new();
    glm5_config c = glm5_config_glm5();
    glm5_shape s = {4, 2, 300};
    mrt_graph *g = NULL;
    mrt_plan *p = NULL;
    glm5_host h = {0};
    mrt_plan_opts o = mrt_plan_opts_default();
    o.tiling = MRT_TILING_SEED;
    o.workers = 148;
    mrt_status st = glm5_prefix_graph(ctx, &c, &s, &g);
    if (!st) st = mrt_plan_build(g, &o, &p);
    if (!st) st = glm5_host_random(ctx, &c, &s, 3, &h);
    mrt_trace *tr = st ? NULL : mrt_trace_new(p, "cpu");
    if (!CHECK(st == MRT_OK && tr, "set-up: %s", mrt_last_error(ctx))) TEST_MAIN_END();
    void *bufs[MRT_MAX_TENSORS] = {0};
    glm5_bind(g, &h, bufs);
    mrt_cpu_opts co = mrt_cpu_opts_default();
    co.trace = tr;
    CHECK(mrt_cpu_run(p, bufs, &co) == MRT_OK, "traced run: %s", mrt_last_error(ctx));
    mrt_trace_metrics m = mrt_trace_get_metrics(tr);
    char table[16384] = {0};
    FILE *tf = fmemopen(table, sizeof table - 1, "w");
    mrt_trace_print(tr, tf);
    fclose(tf);
    fputs(table, stdout);
    CHECK(m.span_us > 0, "span %.3f us", m.span_us);
    /* one task at a time on the CPU: the active ratio is about 1 / tracks */
    CHECK(m.active_ratio > 0 && m.active_ratio <= 1.0, "active ratio %.4f", m.active_ratio);
    /* the critical path runs from an A0 row through B0, D1 to the last E1 chunk at least */
    CHECK(m.critical_len >= 4, "critical path of %d tasks", m.critical_len);
    CHECK(m.gap_total_us >= 0 && m.gap_pct <= 100, "gaps %.3f us (%.2f%%)", m.gap_total_us, m.gap_pct);

    FILE *f = tmpfile();
    CHECK(f && mrt_trace_write_json(tr, f) == MRT_OK, "JSON written");
    char *json = f ? slurp(f) : NULL;
    if (f) fclose(f);
    jp j = {json ? json : "", 0};
    bool ok = json && value(&j);
    ws(&j);
    CHECK(ok && *j.s == 0, "the trace JSON parses (stopped at offset %ld)", json ? (long)(j.s - json) : -1L);
    CHECK(j.slices == p->n_tasks, "%d slices, one per task (%d)", j.slices, p->n_tasks);
    CHECK(json && strstr(json, "\"active_ratio\"") && strstr(json, "\"critical_len\"") && strstr(json, "\"traceEvents\""),
          "the JSON keeps the metrics");
    free(json);

    /* the HTML timeline, rendered by headless Chromium */
    f = fopen(html, "w");
    CHECK(f && mrt_trace_write_html(tr, f) == MRT_OK, "HTML written to %s", html);
    if (f) fclose(f);
    rendered(html, p->n_tasks);
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "rm -f %s; chromium %s --screenshot=%s --window-size=1280,1000 \"file://$(realpath %s)\" "
                              ">/dev/null 2>&1", png, chromium_flags, png, html);
    int rc = system(cmd);
    FILE *img = fopen(png, "rb");
    long size = 0;
    if (img) {
        fseek(img, 0, SEEK_END);
        size = ftell(img);
        fclose(img);
    }
    CHECK(rc == 0 && size > 10000, "screenshot %s: %ld bytes (chromium exit %d)", png, size, rc);
    printf("timeline: %s, screenshot: %s (%ld bytes)\n", html, png, size);

    mrt_trace_free(tr);
    model_columns(p, table);
    snprintf(html, sizeof html, "%s/trace-cta.html", dir);
    cta_traces(p, html);
    glm5_host_free(&h);
    mrt_plan_free(p);
    mrt_graph_free(g);
    mrt_context_free(ctx);
    TEST_MAIN_END();
}
