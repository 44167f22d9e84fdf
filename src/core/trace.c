/* Traces: per-task phase stamps on worker tracks, their metrics (span, active ratio, gaps,
 * per-op timings, the critical path through the events), Chrome trace-event JSON and a
 * self-contained HTML timeline (inline SVG and a little JS: wheel zooms, drag pans). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* One record: a plan task on its worker (cpu, mega), or one CTA of a kernel launch on its
 * SM (serial, cmp). Phases of a CTA: visible = weights = start, input = ready (its PDL wait
 * returned), computed = published = end. */
typedef struct rec {
    int task;   /* plan task, -1 for a CTA */
    int op;     /* graph op id */
    int launch; /* kernel launch of a CTA, -1 for a task */
    int track;  /* worker or SM */
    double t[MRT_PH_COUNT];
} rec;

typedef struct launch {
    int op, stream;
    char kernel[24];
} launch;

struct mrt_trace {
    mrt_plan *p;
    char executor[16];
    int n, cap;
    rec *r;
    int *by_task; /* task -> record, -1 if none */
    launch *l;
    int nl, capl;
    int tracks; /* set by mrt_trace_set_tracks; 0: highest track + 1 */
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
    free(t->l);
    free(t);
}

const mrt_plan *mrt_trace_plan(const mrt_trace *t) { return t ? t->p : NULL; }

void mrt_trace_set_tracks(mrt_trace *t, int tracks) {
    if (t && tracks >= 0) t->tracks = tracks;
}

static rec *new_rec(mrt_trace *t) {
    if (t->n == t->cap) {
        int cap = t->cap ? 2 * t->cap : 1024;
        rec *q = realloc(t->r, sizeof(rec) * (size_t)cap);
        if (!q) return NULL; /* a trace is best effort: a record lost, not a failed step */
        t->r = q, t->cap = cap;
    }
    return &t->r[t->n++];
}

void mrt_trace_add(mrt_trace *t, int task, int track, const double *stamps) {
    if (!t || !stamps || task < 0 || task >= t->p->n_tasks || track < 0) return;
    rec *r = new_rec(t);
    if (!r) return;
    r->task = task, r->op = t->p->tasks[task].op, r->launch = -1, r->track = track;
    memcpy(r->t, stamps, sizeof r->t);
    t->by_task[task] = t->n - 1;
}

int mrt_trace_add_launch(mrt_trace *t, int op, int stream, const char *kernel) {
    if (!t || op < 0 || op >= t->p->g->n_ops || stream < 0) return -1;
    if (t->nl == t->capl) {
        int cap = t->capl ? 2 * t->capl : 64;
        launch *q = realloc(t->l, sizeof(launch) * (size_t)cap);
        if (!q) return -1;
        t->l = q, t->capl = cap;
    }
    launch *l = &t->l[t->nl];
    l->op = op, l->stream = stream;
    snprintf(l->kernel, sizeof l->kernel, "%s", kernel ? kernel : "kernel");
    return t->nl++;
}

void mrt_trace_add_cta(mrt_trace *t, int launch_id, int sm, double start, double ready, double end) {
    if (!t || launch_id < 0 || launch_id >= t->nl || sm < 0) return;
    rec *r = new_rec(t);
    if (!r) return;
    r->task = -1, r->op = t->l[launch_id].op, r->launch = launch_id, r->track = sm;
    if (ready < start) ready = start;
    if (end < ready) end = ready;
    r->t[MRT_PH_VISIBLE] = r->t[MRT_PH_WEIGHTS] = start;
    r->t[MRT_PH_INPUT] = ready;
    r->t[MRT_PH_COMPUTED] = r->t[MRT_PH_PUBLISHED] = end;
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

/* When a record occupies its track: an instruction from its input being ready (waiting for
 * an event is not work), a CTA from its start (it holds the SM while its PDL wait blocks). */
static double busy_from(const rec *r) { return r->task >= 0 ? r->t[MRT_PH_INPUT] : r->t[MRT_PH_VISIBLE]; }

static int n_tracks(const mrt_trace *t) {
    if (t->tracks) return t->tracks;
    int tracks = 0;
    for (int i = 0; i < t->n; i++)
        if (t->r[i].track + 1 > tracks) tracks = t->r[i].track + 1;
    return tracks;
}

/* The span of each unit: ops for task traces, kernel launches for CTA traces (the units gaps
 * are measured between; a launch's span is also its slice on its stream's track). Fills
 * v[unit] for all n_ops + nl units: ops first, then launch i at n_ops + i; a unit without
 * records gets a = INFINITY, b = -INFINITY. */
static void unit_spans(const mrt_trace *t, span2 *v) {
    int nu = t->p->g->n_ops + t->nl;
    for (int u = 0; u < nu; u++) v[u].a = INFINITY, v[u].b = -INFINITY;
    for (int i = 0; i < t->n; i++) {
        const rec *r = &t->r[i];
        int u = r->launch >= 0 ? t->p->g->n_ops + r->launch : r->op;
        if (busy_from(r) < v[u].a) v[u].a = busy_from(r);
        if (r->t[MRT_PH_PUBLISHED] > v[u].b) v[u].b = r->t[MRT_PH_PUBLISHED];
    }
}

/* unit_spans in a fresh array (NULL when out of memory); launch i's span is at n_ops + i. */
static span2 *unit_spans_new(const mrt_trace *t) {
    span2 *v = malloc(sizeof(span2) * (size_t)(t->p->g->n_ops + t->nl + 1));
    if (v) unit_spans(t, v);
    return v;
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

/* The launch that held launch `i` back last: among the previous launch of its stream and
 * the last launch of each op producing one of its inputs, the one that ended latest. */
static int launch_releaser(const mrt_trace *t, const span2 *ls, int i) {
    const mrt_graph *g = t->p->g;
    const mrt_op *op = &g->ops[t->l[i].op];
    int best = -1;
    bool stream_seen = false;          /* the closest earlier launch of i's stream was met */
    bool op_seen[MRT_MAX_OPS] = {false}; /* ops whose last launch before i was met */
    for (int j = i - 1; j >= 0; j--) {
        const launch *l = &t->l[j];
        bool dep = false;
        if (l->stream == t->l[i].stream && !stream_seen) stream_seen = true, dep = true;
        if (!op_seen[l->op]) {
            op_seen[l->op] = true;
            for (int q = 0; q < op->n_in; q++) dep |= g->tensors[op->in[q]].producer == l->op;
        }
        if (dep && ls[j].b > -INFINITY && (best < 0 || ls[j].b > ls[best].b)) best = j;
    }
    return best;
}

/* The critical path, first to last: tasks (task traces) or launches (CTA traces), from the
 * one that finished last back through whatever released it. */
static int critical_path(const mrt_trace *t, int *path, int cap, double *us) {
    int n = 0;
    *us = 0;
    if (t->nl) {
        span2 *all = unit_spans_new(t), *ls = all ? all + t->p->g->n_ops : NULL;
        if (!all) return 0;
        int last = -1;
        for (int i = 0; i < t->nl; i++)
            if (ls[i].b > -INFINITY && (last < 0 || ls[i].b > ls[last].b)) last = i;
        for (int i = last; i >= 0 && n < cap; i = launch_releaser(t, ls, i)) path[n++] = i;
        if (n) *us = ls[path[0]].b - ls[path[n - 1]].a;
        free(all);
    } else {
        int last = -1;
        for (int i = 0; i < t->n; i++)
            if (t->r[i].task >= 0 && (last < 0 || t->r[i].t[MRT_PH_PUBLISHED] > t->r[last].t[MRT_PH_PUBLISHED])) last = i;
        for (int task = last >= 0 ? t->r[last].task : -1; task >= 0 && n < cap; task = releaser(t, task)) path[n++] = task;
        if (n) *us = t->r[t->by_task[path[0]]].t[MRT_PH_PUBLISHED] - t->r[t->by_task[path[n - 1]]].t[MRT_PH_VISIBLE];
    }
    for (int i = 0; i < n / 2; i++) { /* first to last */
        int x = path[i];
        path[i] = path[n - 1 - i], path[n - 1 - i] = x;
    }
    return n;
}

mrt_trace_metrics mrt_trace_get_metrics(const mrt_trace *t) {
    mrt_trace_metrics m = {0};
    if (!t || !t->n) return m;
    double t0 = INFINITY, t1 = -INFINITY;
    int tracks = n_tracks(t);
    for (int i = 0; i < t->n; i++) {
        if (t->r[i].t[MRT_PH_VISIBLE] < t0) t0 = t->r[i].t[MRT_PH_VISIBLE];
        if (t->r[i].t[MRT_PH_PUBLISHED] > t1) t1 = t->r[i].t[MRT_PH_PUBLISHED];
    }
    m.span_us = t1 - t0;
    int cap = t->n > t->p->g->n_ops + t->nl ? t->n : t->p->g->n_ops + t->nl;
    span2 *v = malloc(sizeof(span2) * (size_t)(cap + 1));
    double *gaps = malloc(sizeof(double) * (size_t)(cap + 1));
    int *path = malloc(sizeof(int) * (size_t)(cap + t->p->n_tasks + 1));
    if (!v || !gaps || !path) {
        free(v), free(gaps), free(path);
        return m;
    }
    /* busy time per track: the union of its records' busy intervals */
    double busy = 0;
    for (int tr = 0; tr < tracks; tr++) {
        int n = 0;
        for (int i = 0; i < t->n; i++)
            if (t->r[i].track == tr) v[n].a = busy_from(&t->r[i]), v[n++].b = t->r[i].t[MRT_PH_PUBLISHED];
        busy += union_len(v, n);
    }
    m.active_ratio = m.span_us > 0 && tracks ? busy / (m.span_us * tracks) : 0;
    /* gaps: stretches where no unit (op or kernel launch) runs anywhere */
    unit_spans(t, v);
    int nu = 0;
    for (int u = 0; u < t->p->g->n_ops + t->nl; u++)
        if (v[u].b >= v[u].a) v[nu++] = v[u];
    qsort(v, (size_t)nu, sizeof *v, cmp_span2);
    int ng = 0;
    double reach = nu ? v[0].b : 0;
    for (int i = 1; i < nu; i++) {
        if (v[i].a > reach) gaps[ng++] = v[i].a - reach;
        if (v[i].b > reach) reach = v[i].b;
    }
    for (int i = 0; i < ng; i++) m.gap_total_us += gaps[i];
    qsort(gaps, (size_t)ng, sizeof(double), cmp_d);
    m.gap_median_us = ng ? (ng % 2 ? gaps[ng / 2] : 0.5 * (gaps[ng / 2 - 1] + gaps[ng / 2])) : 0;
    m.gap_count = ng;
    m.gap_pct = m.span_us > 0 ? 100 * m.gap_total_us / m.span_us : 0;
    m.critical_len = critical_path(t, path, cap + t->p->n_tasks, &m.critical_us);
    free(v), free(gaps), free(path);
    double *all = malloc(sizeof(double) * (size_t)t->n * MRT_PH_COUNT);
    if (all) {
        for (int i = 0; i < t->n; i++) memcpy(all + (size_t)i * MRT_PH_COUNT, t->r[i].t, sizeof t->r[i].t);
        qsort(all, (size_t)t->n * MRT_PH_COUNT, sizeof(double), cmp_d);
        m.tick_us = INFINITY;
        for (size_t i = 1; i < (size_t)t->n * MRT_PH_COUNT; i++)
            if (all[i] > all[i - 1] && all[i] - all[i - 1] < m.tick_us) m.tick_us = all[i] - all[i - 1];
        if (m.tick_us == INFINITY) m.tick_us = 0;
        free(all);
    }
    return m;
}

static const char *phase_names[MRT_PH_COUNT] = {"visible", "weights issued", "input ready", "compute done", "published"};

/* A record's name: "B0[45]" for a task, "B0.gemm" for a CTA of B0's GEMM kernel. */
static void rec_label(const mrt_trace *t, const rec *r, char *buf, size_t n) {
    const mrt_plan *p = t->p;
    if (r->task >= 0) snprintf(buf, n, "%s[%d]", p->g->ops[r->op].name, p->tasks[r->task].index);
    else snprintf(buf, n, "%s.%s", p->g->ops[r->op].name, t->l[r->launch].kernel);
}

static int n_streams(const mrt_trace *t) {
    int s = 0;
    for (int i = 0; i < t->nl; i++)
        if (t->l[i].stream + 1 > s) s = t->l[i].stream + 1;
    return s;
}

void mrt_trace_print(const mrt_trace *t, FILE *f) {
    if (!t || !f) return;
    const mrt_plan *p = t->p;
    mrt_trace_metrics m = mrt_trace_get_metrics(t);
    bool ctas = t->nl > 0;
    if (ctas)
        fprintf(f, "trace (%s): %d CTAs of %d kernel launches on %d streams, %d SMs; span %.2f us, average active SM "
                   "ratio %.1f%%; gaps between kernels: %d, median %.3f us, total %.2f us (%.2f%% of the span)\n",
                t->executor, t->n, t->nl, n_streams(t), n_tracks(t), m.span_us, 100 * m.active_ratio, m.gap_count,
                m.gap_median_us, m.gap_total_us, m.gap_pct);
    else
        fprintf(f, "trace (%s): %d tasks on %d workers; span %.2f us, average active ratio %.1f%%; gaps between ops: "
                   "%d, median %.3f us, total %.2f us (%.2f%% of the span)\n",
                t->executor, t->n, n_tracks(t), m.span_us, 100 * m.active_ratio, m.gap_count, m.gap_median_us,
                m.gap_total_us, m.gap_pct);
    fprintf(f, "  stamps: the smallest step between two of them is %.3f us (the clock's resolution is at most that)\n",
            m.tick_us);
    /* Per op: when it ran (us from the first stamp), then where one task's (CTA's) time goes,
     * medians over its records: weights issued -> input ready (prefetch while waiting),
     * input ready -> computed, computed -> published (a reduce group's finalization lands in
     * its finalizer's record: the maximum shows it). The megakernel's traces add input ready ->
     * published beside the cost model's time for the op's tasks (schedule.c, the worker's step
     * between instructions left out): where the plan's costs, and so critical-path's queues and
     * auto's and tuning's picks, are wrong (session 38: D0 at M=64 KV=65536 19.5 against 26.7). */
    const bool model = !ctas && !strcmp(t->executor, "mega");
    fprintf(f, "  %-4s %10s %10s %10s %10s | %5s %9s %9s %9s %9s", "op", "first vis.", "last vis.", "input", "done",
            "tasks", "w->in", "in->comp", "comp->pub", "max c->p");
    if (model) fprintf(f, " | %9s %9s", "in->pub", "model");
    fprintf(f, "\n");
    double t0 = INFINITY;
    for (int i = 0; i < t->n; i++) t0 = fmin(t0, t->r[i].t[MRT_PH_VISIBLE]);
    double *d = malloc(sizeof(double) * 5 * (size_t)(t->n + 1));
    for (int o = 0; o < p->n_ops && d; o++) {
        int id = p->ops[o], k = 0;
        double fv = INFINITY, lv = -INFINITY, in = INFINITY, done = -INFINITY, pubmax = 0;
        double *wi = d, *ic = d + t->n + 1, *cp = d + 2 * (t->n + 1), *ip = d + 3 * (t->n + 1), *mc = d + 4 * (t->n + 1);
        for (int i = 0; i < t->n; i++) {
            const double *st = t->r[i].t;
            if (t->r[i].op != id) continue;
            fv = fmin(fv, st[MRT_PH_VISIBLE]), lv = fmax(lv, st[MRT_PH_VISIBLE]);
            in = fmin(in, st[MRT_PH_INPUT]), done = fmax(done, st[MRT_PH_PUBLISHED]);
            wi[k] = st[MRT_PH_INPUT] - st[MRT_PH_WEIGHTS], ic[k] = st[MRT_PH_COMPUTED] - st[MRT_PH_INPUT];
            cp[k] = st[MRT_PH_PUBLISHED] - st[MRT_PH_COMPUTED], pubmax = fmax(pubmax, cp[k]);
            ip[k] = st[MRT_PH_PUBLISHED] - st[MRT_PH_INPUT];
            mc[k] = model && t->r[i].task >= 0 ? mrt_task_time_us(p, &p->tasks[t->r[i].task]) : 0;
            k++;
        }
        if (!k) continue; /* no record of this op */
        double *cols[] = {wi, ic, cp, ip, mc};
        for (int c = 0; c < 5; c++) qsort(cols[c], (size_t)k, sizeof(double), cmp_d);
        fprintf(f, "  %-4s %10.2f %10.2f %10.2f %10.2f | %5d %9.2f %9.2f %9.2f %9.2f", p->g->ops[id].name, fv - t0,
                lv - t0, in - t0, done - t0, k, wi[k / 2], ic[k / 2], cp[k / 2], pubmax);
        if (model) fprintf(f, " | %9.2f %9.2f", ip[k / 2], mc[k / 2]);
        fprintf(f, "\n");
    }
    free(d);
    int cap = p->n_tasks + t->nl + 1;
    int *path = malloc(sizeof(int) * (size_t)cap);
    if (!path) return;
    double us;
    int n = critical_path(t, path, cap, &us);
    fprintf(f, "  critical path (%d %s, %.2f us):", n, ctas ? "kernels" : "tasks", us);
    for (int i = 0; i < n; i++) {
        if (ctas) fprintf(f, "%s %s.%s", i ? " ->" : "", p->g->ops[t->l[path[i]].op].name, t->l[path[i]].kernel);
        else fprintf(f, "%s %s[%d]", i ? " ->" : "", p->g->ops[p->tasks[path[i]].op].name, p->tasks[path[i]].index);
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
    bool ctas = t->nl > 0;
    int tracks = n_tracks(t), streams = n_streams(t);
    fprintf(f, "{\"displayTimeUnit\": \"ns\",\n \"otherData\": {\"executor\": \"%s\", \"records\": %d, \"launches\": %d, "
               "\"tracks\": %d, \"span_us\": %.4f, \"active_ratio\": %.5f, \"gap_count\": %d, \"gap_median_us\": %.4f, "
               "\"gap_total_us\": %.4f, \"gap_pct\": %.4f, \"critical_len\": %d, \"critical_us\": %.4f, \"tick_us\": %.4f},\n"
               " \"traceEvents\": [\n",
            t->executor, t->n, t->nl, tracks, m.span_us, m.active_ratio, m.gap_count, m.gap_median_us, m.gap_total_us,
            m.gap_pct, m.critical_len, m.critical_us, m.tick_us);
    fprintf(f, "  {\"ph\": \"M\", \"pid\": 1, \"name\": \"process_name\", \"args\": {\"name\": \"%s\"}},\n",
            ctas ? "SMs" : "workers");
    if (ctas) fprintf(f, "  {\"ph\": \"M\", \"pid\": 2, \"name\": \"process_name\", \"args\": {\"name\": \"streams\"}},\n");
    for (int tr = 0; tr < tracks; tr++)
        fprintf(f, "  {\"ph\": \"M\", \"pid\": 1, \"tid\": %d, \"name\": \"thread_name\", \"args\": {\"name\": \"%s %d\"}},\n",
                tr, ctas ? "SM" : "worker", tr);
    for (int s = 0; s < streams; s++)
        fprintf(f, "  {\"ph\": \"M\", \"pid\": 2, \"tid\": %d, \"name\": \"thread_name\", \"args\": {\"name\": \"stream %d\"}},\n",
                s, s);
    span2 *all = unit_spans_new(t), *ls = all ? all + p->g->n_ops : NULL;
    if (!all) return MRT_ERR_NOMEM;
    for (int i = 0; i < t->nl; i++) /* one slice per launch on its stream's track */
        if (ls[i].b > -INFINITY)
            fprintf(f, "  {\"ph\": \"X\", \"pid\": 2, \"tid\": %d, \"name\": \"%s.%s\", \"cat\": \"%s\", \"ts\": %.4f, "
                       "\"dur\": %.4f, \"args\": {\"launch\": %d}},\n",
                    t->l[i].stream, p->g->ops[t->l[i].op].name, t->l[i].kernel, p->g->ops[t->l[i].op].name, ls[i].a,
                    ls[i].b - ls[i].a, i);
    free(all);
    for (int i = 0; i < t->n; i++) {
        const rec *r = &t->r[i];
        char label[48];
        rec_label(t, r, label, sizeof label);
        fprintf(f, "  {\"ph\": \"X\", \"pid\": 1, \"tid\": %d, \"name\": \"%s\", \"cat\": \"%s\", \"ts\": %.4f, "
                   "\"dur\": %.4f, \"args\": {\"%s\": %d",
                r->track, label, p->g->ops[r->op].name, r->t[MRT_PH_VISIBLE], r->t[MRT_PH_PUBLISHED] - r->t[MRT_PH_VISIBLE],
                r->task >= 0 ? "task" : "launch", r->task >= 0 ? r->task : r->launch);
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
    bool ctas = t->nl > 0;
    int tracks = n_tracks(t), streams = n_streams(t);
    int rows = tracks + (streams ? streams + 1 : 0); /* stream rows below a spacer row */
    fprintf(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>megartp trace (%s)</title>\n"
               "<style>body{font:12px sans-serif;margin:8px} svg{border:1px solid #ccc;cursor:grab}"
               " .legend span{display:inline-block;padding:1px 6px;margin-right:4px;color:#fff}</style></head><body>\n",
            t->executor);
    fprintf(f, "<h3>megartp trace: %s executor, %d %s on %d %s%s</h3>\n<p>span %.2f us, average active ratio "
               "%.1f%%, gaps between %s: %d, median %.3f us, total %.2f us (%.2f%%); critical path %d %s, %.2f us. "
               "Wheel: zoom; drag: pan; hover: a slice and its phases.%s</p>\n<div class=\"legend\">",
            t->executor, t->n, ctas ? "CTAs" : "tasks", tracks, ctas ? "SMs" : "workers",
            ctas ? " (rows at the bottom: one per stream, a slice per kernel)" : "", m.span_us, 100 * m.active_ratio,
            ctas ? "kernels" : "ops", m.gap_count, m.gap_median_us, m.gap_total_us, m.gap_pct, m.critical_len,
            ctas ? "kernels" : "tasks", m.critical_us,
            ctas ? " Phases of a CTA: start, inputs ready (its PDL wait returned), end." : "");
    for (int o = 0; o < p->n_ops; o++)
        fprintf(f, "<span style=\"background:%s\">%s</span>", op_color(p->ops[o]), p->g->ops[p->ops[o]].name);
    fprintf(f, "</div>\n<svg id=\"tl\" width=\"1200\" height=\"%d\"></svg>\n<div id=\"tip\"></div>\n<script>\n"
               "const D = [\n", 20 + 6 * rows);
    span2 *all = unit_spans_new(t), *ls = all ? all + p->g->n_ops : NULL;
    if (!all) return MRT_ERR_NOMEM;
    for (int i = 0; i < t->nl; i++)
        if (ls[i].b > -INFINITY)
            fprintf(f, "[%d,\"%s.%s (stream %d)\",\"%s\",%.4f,%.4f,%.4f,%.4f,%.4f],\n", tracks + 1 + t->l[i].stream,
                    p->g->ops[t->l[i].op].name, t->l[i].kernel, t->l[i].stream, op_color(t->l[i].op), ls[i].a, ls[i].a,
                    ls[i].a, ls[i].b, ls[i].b);
    free(all);
    for (int i = 0; i < t->n; i++) {
        const rec *r = &t->r[i];
        char label[48];
        rec_label(t, r, label, sizeof label);
        fprintf(f, "[%d,\"%s\",\"%s\"", r->track, label, op_color(r->op));
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
               "      d[1] + ' on row ' + d[0] + ': visible ' + d[3].toFixed(2) + ', weights ' + d[4].toFixed(2) +\n"
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
