/* Traces: per-task phase stamps on worker tracks, their metrics (span, active ratio, gaps,
 * per-op timings, the critical path through the events), Chrome trace-event JSON and a
 * self-contained HTML timeline (inline SVG and a little JS: wheel zooms, drag pans). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct rec {
    int task, track;
    double t[MRT_PH_COUNT];
} rec;

struct mrt_trace {
    mrt_plan *p;
    char executor[16];
    int n, cap;
    rec *r;
    int *by_task; /* task -> record, -1 if none */
};

mrt_trace *mrt_trace_new(mrt_plan *p, const char *executor) {
    if (!p) return NULL;
    mrt_trace *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->p = p;
    snprintf(t->executor, sizeof t->executor, "%s", executor ? executor : "?");
    t->by_task = malloc(sizeof(int) * (size_t)(p->n_tasks + 1));
    if (!t->by_task) {
        free(t);
        return NULL;
    }
    for (int i = 0; i < p->n_tasks; i++) t->by_task[i] = -1;
    return t;
}

void mrt_trace_free(mrt_trace *t) {
    if (!t) return;
    free(t->r);
    free(t->by_task);
    free(t);
}

void mrt_trace_add(mrt_trace *t, int task, int track, const double *stamps) {
    if (!t || task < 0 || task >= t->p->n_tasks) return;
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 1024;
        rec *q = realloc(t->r, sizeof(rec) * (size_t)cap);
        if (!q) return; /* a trace is best effort: a record lost, not a failed step */
        t->r = q, t->cap = cap;
    }
    rec *r = &t->r[t->n];
    r->task = task, r->track = track;
    memcpy(r->t, stamps, sizeof r->t);
    t->by_task[task] = t->n++;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct span2 {
    double a, b;
} span2;

static int cmp_span2(const void *x, const void *y) {
    double a = ((const span2 *)x)->a, b = ((const span2 *)y)->a;
    return (a > b) - (a < b);
}

/* Total length of the union of intervals (sorted in place). */
static double union_len(span2 *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_span2);
    double len = 0, a = 0, b = -INFINITY;
    for (int i = 0; i < n; i++) {
        if (v[i].a > b) {
            if (b > a) len += b - a;
            a = v[i].a, b = v[i].b;
        } else if (v[i].b > b)
            b = v[i].b;
    }
    if (b > a) len += b - a;
    return len;
}

/* The task whose publication released `task` last: among the producers of its events, the
 * one that finished latest. -1 if it waited for nothing. */
static int releaser(const mrt_trace *t, int task) {
    const mrt_plan *p = t->p;
    const mrt_task *k = &p->tasks[task];
    int best = -1;
    double when = -INFINITY;
    for (int j = 0; j < k->n_wait; j++) {
        const mrt_event *e = &p->events[k->wait[j].event];
        for (int i = 0; i < e->n_prod; i++) {
            const mrt_pubinst *q = &p->pubs[p->ev_prod[e->prod0 + i]];
            int first = q->task >= 0 ? q->task : p->groups[q->group].first_task;
            int count = q->task >= 0 ? 1 : p->groups[q->group].members;
            for (int m = first; m < first + count; m++) {
                int r = t->by_task[m];
                if (r >= 0 && t->r[r].t[MRT_PH_PUBLISHED] > when) when = t->r[r].t[MRT_PH_PUBLISHED], best = m;
            }
        }
    }
    return best;
}

/* The critical path: from the task that published last, back through the releasers. */
static int critical_path(const mrt_trace *t, int *path, int cap) {
    int last = -1;
    for (int i = 0; i < t->n; i++)
        if (last < 0 || t->r[i].t[MRT_PH_PUBLISHED] > t->r[last].t[MRT_PH_PUBLISHED]) last = i;
    int n = 0;
    for (int task = last >= 0 ? t->r[last].task : -1; task >= 0 && n < cap; task = releaser(t, task)) path[n++] = task;
    for (int i = 0; i < n / 2; i++) { /* first to last */
        int x = path[i];
        path[i] = path[n - 1 - i], path[n - 1 - i] = x;
    }
    return n;
}

mrt_trace_metrics mrt_trace_get_metrics(const mrt_trace *t) {
    mrt_trace_metrics m = {0};
    if (!t || !t->n) return m;
    const mrt_plan *p = t->p;
    double t0 = INFINITY, t1 = -INFINITY;
    int tracks = 0;
    for (int i = 0; i < t->n; i++) {
        if (t->r[i].t[MRT_PH_VISIBLE] < t0) t0 = t->r[i].t[MRT_PH_VISIBLE];
        if (t->r[i].t[MRT_PH_PUBLISHED] > t1) t1 = t->r[i].t[MRT_PH_PUBLISHED];
        if (t->r[i].track + 1 > tracks) tracks = t->r[i].track + 1;
    }
    m.span_us = t1 - t0;
    span2 *v = malloc(sizeof(span2) * (size_t)(t->n + 1));
    if (!v) return m;
    /* busy time per track: the union of its tasks' input-ready..published intervals */
    double busy = 0;
    int *order = malloc(sizeof(int) * (size_t)(t->n + 1));
    for (int tr = 0; order && tr < tracks; tr++) {
        int n = 0;
        for (int i = 0; i < t->n; i++)
            if (t->r[i].track == tr) v[n].a = t->r[i].t[MRT_PH_INPUT], v[n++].b = t->r[i].t[MRT_PH_PUBLISHED];
        busy += union_len(v, n);
    }
    free(order);
    m.active_ratio = m.span_us > 0 && tracks ? busy / (m.span_us * tracks) : 0;
    /* gaps: stretches where no op runs anywhere, between the ops' [first, last] intervals */
    int nops = 0;
    for (int o = 0; o < p->n_ops; o++) {
        int id = p->ops[o];
        double a = INFINITY, b = -INFINITY;
        for (int k = p->op_first_task[id]; k < p->op_first_task[id] + p->op_tasks[id]; k++) {
            int r = t->by_task[k];
            if (r < 0) continue;
            if (t->r[r].t[MRT_PH_INPUT] < a) a = t->r[r].t[MRT_PH_INPUT];
            if (t->r[r].t[MRT_PH_PUBLISHED] > b) b = t->r[r].t[MRT_PH_PUBLISHED];
        }
        if (b >= a) v[nops].a = a, v[nops++].b = b;
    }
    qsort(v, (size_t)nops, sizeof *v, cmp_span2);
    double gaps[MRT_MAX_OPS];
    int ng = 0;
    double reach = nops ? v[0].b : 0;
    for (int i = 1; i < nops; i++) {
        if (v[i].a > reach) gaps[ng++] = v[i].a - reach;
        if (v[i].b > reach) reach = v[i].b;
    }
    for (int i = 0; i < ng; i++) m.gap_total_us += gaps[i];
    qsort(gaps, (size_t)ng, sizeof(double), cmp_d);
    m.gap_median_us = ng ? gaps[ng / 2] : 0;
    m.gap_pct = m.span_us > 0 ? 100 * m.gap_total_us / m.span_us : 0;
    free(v);
    int *path = malloc(sizeof(int) * (size_t)(p->n_tasks + 1));
    if (path) {
        m.critical_len = critical_path(t, path, p->n_tasks);
        if (m.critical_len) {
            const rec *a = &t->r[t->by_task[path[0]]], *b = &t->r[t->by_task[path[m.critical_len - 1]]];
            m.critical_us = b->t[MRT_PH_PUBLISHED] - a->t[MRT_PH_VISIBLE];
        }
        free(path);
    }
    return m;
}

static const char *phase_names[MRT_PH_COUNT] = {"visible", "weights issued", "input ready", "compute done", "published"};

void mrt_trace_print(const mrt_trace *t, FILE *f) {
    if (!t) return;
    const mrt_plan *p = t->p;
    mrt_trace_metrics m = mrt_trace_get_metrics(t);
    fprintf(f, "trace (%s): %d tasks, span %.2f us, average active ratio %.1f%%, gaps between ops: median %.3f us, "
               "total %.2f us (%.2f%% of the span)\n",
            t->executor, t->n, m.span_us, 100 * m.active_ratio, m.gap_median_us, m.gap_total_us, m.gap_pct);
    fprintf(f, "  %-4s %12s %12s %12s %12s\n", "op", "first vis.", "last vis.", "input ready", "done");
    for (int o = 0; o < p->n_ops; o++) {
        int id = p->ops[o];
        double fv = INFINITY, lv = -INFINITY, in = INFINITY, done = -INFINITY;
        for (int k = p->op_first_task[id]; k < p->op_first_task[id] + p->op_tasks[id]; k++) {
            int r = t->by_task[k];
            if (r < 0) continue;
            const double *s = t->r[r].t;
            fv = fmin(fv, s[MRT_PH_VISIBLE]), lv = fmax(lv, s[MRT_PH_VISIBLE]);
            in = fmin(in, s[MRT_PH_INPUT]), done = fmax(done, s[MRT_PH_PUBLISHED]);
        }
        fprintf(f, "  %-4s %12.2f %12.2f %12.2f %12.2f\n", p->g->ops[id].name, fv, lv, in, done);
    }
    int *path = malloc(sizeof(int) * (size_t)(p->n_tasks + 1));
    if (!path) return;
    int n = critical_path(t, path, p->n_tasks);
    fprintf(f, "  critical path (%d tasks, %.2f us):", n, m.critical_us);
    for (int i = 0; i < n; i++) {
        const mrt_task *k = &p->tasks[path[i]];
        fprintf(f, "%s %s[%d]", i ? " ->" : "", p->g->ops[k->op].name, k->index);
    }
    fprintf(f, "\n");
    free(path);
}

/* One color per op, stable across traces. */
static const char *op_color(int op) {
    static const char *c[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                              "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};
    return c[op % 10];
}

mrt_status mrt_trace_write_json(const mrt_trace *t, FILE *f) {
    if (!t || !f) return MRT_ERR_INVALID;
    const mrt_plan *p = t->p;
    mrt_trace_metrics m = mrt_trace_get_metrics(t);
    fprintf(f, "{\"displayTimeUnit\": \"ns\",\n \"otherData\": {\"executor\": \"%s\", \"tasks\": %d, \"span_us\": %.4f, "
               "\"active_ratio\": %.5f, \"gap_median_us\": %.4f, \"gap_total_us\": %.4f, \"gap_pct\": %.4f, "
               "\"critical_len\": %d, \"critical_us\": %.4f},\n \"traceEvents\": [\n",
            t->executor, t->n, m.span_us, m.active_ratio, m.gap_median_us, m.gap_total_us, m.gap_pct, m.critical_len,
            m.critical_us);
    int tracks = 0;
    for (int i = 0; i < t->n; i++)
        if (t->r[i].track + 1 > tracks) tracks = t->r[i].track + 1;
    for (int tr = 0; tr < tracks; tr++)
        fprintf(f, "  {\"ph\": \"M\", \"pid\": 1, \"tid\": %d, \"name\": \"thread_name\", \"args\": {\"name\": \"worker %d\"}},\n",
                tr, tr);
    for (int i = 0; i < t->n; i++) {
        const rec *r = &t->r[i];
        const mrt_task *k = &p->tasks[r->task];
        const char *op = p->g->ops[k->op].name;
        fprintf(f, "  {\"ph\": \"X\", \"pid\": 1, \"tid\": %d, \"name\": \"%s[%d]\", \"cat\": \"%s\", \"ts\": %.4f, "
                   "\"dur\": %.4f, \"args\": {\"task\": %d",
                r->track, op, k->index, op, r->t[MRT_PH_VISIBLE], r->t[MRT_PH_PUBLISHED] - r->t[MRT_PH_VISIBLE],
                r->task);
        for (int ph = 0; ph < MRT_PH_COUNT; ph++) fprintf(f, ", \"%s\": %.4f", phase_names[ph], r->t[ph]);
        fprintf(f, "}}%s\n", i + 1 < t->n ? "," : "");
    }
    fprintf(f, " ]}\n");
    return MRT_OK;
}

mrt_status mrt_trace_write_html(const mrt_trace *t, FILE *f) {
    if (!t || !f) return MRT_ERR_INVALID;
    const mrt_plan *p = t->p;
    mrt_trace_metrics m = mrt_trace_get_metrics(t);
    int tracks = 0;
    for (int i = 0; i < t->n; i++)
        if (t->r[i].track + 1 > tracks) tracks = t->r[i].track + 1;
    fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>megartp trace (%s)</title>\n"
               "<style>body{font:12px sans-serif;margin:8px} svg{border:1px solid #ccc;cursor:grab}"
               " .legend span{display:inline-block;padding:1px 6px;margin-right:4px;color:#fff}</style></head><body>\n",
            t->executor);
    fprintf(f, "<h3>megartp trace: %s executor, %d tasks on %d tracks</h3>\n<p>span %.2f us, average active ratio "
               "%.1f%%, gaps between ops: median %.3f us, total %.2f us (%.2f%%); critical path %d tasks, %.2f us. "
               "Wheel: zoom; drag: pan; hover: task and its phases.</p>\n<div class=\"legend\">",
            t->executor, t->n, tracks, m.span_us, 100 * m.active_ratio, m.gap_median_us, m.gap_total_us, m.gap_pct,
            m.critical_len, m.critical_us);
    for (int o = 0; o < p->n_ops; o++)
        fprintf(f, "<span style=\"background:%s\">%s</span>", op_color(p->ops[o]), p->g->ops[p->ops[o]].name);
    fprintf(f, "</div>\n<svg id=\"tl\" width=\"1200\" height=\"%d\"></svg>\n<div id=\"tip\"></div>\n<script>\n"
               "const D = [\n", 20 + 6 * tracks);
    for (int i = 0; i < t->n; i++) {
        const rec *r = &t->r[i];
        const mrt_task *k = &p->tasks[r->task];
        fprintf(f, "[%d,\"%s[%d]\",\"%s\"", r->track, p->g->ops[k->op].name, k->index, op_color(k->op));
        for (int ph = 0; ph < MRT_PH_COUNT; ph++) fprintf(f, ",%.4f", r->t[ph]);
        fprintf(f, "]%s\n", i + 1 < t->n ? "," : "");
    }
    fprintf(f, "];\nconst NS = 'http://www.w3.org/2000/svg', svg = document.getElementById('tl');\n"
               "let t0 = Infinity, t1 = -Infinity;\n"
               "for (const d of D) { t0 = Math.min(t0, d[3]); t1 = Math.max(t1, d[7]); }\n"
               "let lo = t0, hi = t1 > t0 ? t1 : t0 + 1;\n"
               "function draw() {\n"
               "  while (svg.firstChild) svg.removeChild(svg.firstChild);\n"
               "  const W = 1200, sx = W / (hi - lo);\n"
               "  let n = 0;\n"
               "  for (const d of D) {\n"
               "    const x0 = (d[3] - lo) * sx, x1 = (d[7] - lo) * sx;\n"
               "    if (x1 < 0 || x0 > W) continue;\n"
               "    const r = document.createElementNS(NS, 'rect');\n"
               "    r.setAttribute('x', x0); r.setAttribute('y', 16 + 6 * d[0]);\n"
               "    r.setAttribute('width', Math.max(0.5, x1 - x0)); r.setAttribute('height', 5);\n"
               "    r.setAttribute('fill', d[2]);\n"
               "    r.addEventListener('mousemove', () => { document.getElementById('tip').textContent =\n"
               "      d[1] + ' on track ' + d[0] + ': visible ' + d[3].toFixed(2) + ', weights ' + d[4].toFixed(2) +\n"
               "      ', input ready ' + d[5].toFixed(2) + ', computed ' + d[6].toFixed(2) + ', published ' +\n"
               "      d[7].toFixed(2) + ' us'; });\n"
               "    svg.appendChild(r); n++;\n"
               "  }\n"
               "  const lab = document.createElementNS(NS, 'text');\n"
               "  lab.setAttribute('x', 4); lab.setAttribute('y', 12);\n"
               "  lab.textContent = lo.toFixed(2) + ' us .. ' + hi.toFixed(2) + ' us';\n"
               "  svg.appendChild(lab);\n"
               "  svg.setAttribute('data-rendered', n);\n"
               "}\n"
               "svg.addEventListener('wheel', e => { e.preventDefault();\n"
               "  const at = lo + (hi - lo) * e.offsetX / 1200, k = e.deltaY > 0 ? 1.25 : 0.8;\n"
               "  lo = at - (at - lo) * k; hi = at + (hi - at) * k; draw(); });\n"
               "let drag = null;\n"
               "svg.addEventListener('mousedown', e => { drag = [e.offsetX, lo, hi]; });\n"
               "window.addEventListener('mouseup', () => { drag = null; });\n"
               "svg.addEventListener('mousemove', e => { if (!drag) return;\n"
               "  const d = (e.offsetX - drag[0]) * (drag[2] - drag[1]) / 1200;\n"
               "  lo = drag[1] - d; hi = drag[2] - d; draw(); });\n"
               "draw();\n</script></body></html>\n");
    return MRT_OK;
}
