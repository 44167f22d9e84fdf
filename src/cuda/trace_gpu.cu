/* Traced steps of the GPU executors (issue [G]): `serial` and `cmp` run their usual launches
 * with a stamp sink installed, so every kernel writes one record per CTA (start, inputs
 * ready, end, SM; src/ops/stamp.cuh); `mega` runs the traced instantiation of the
 * megakernel, which stamps each instruction's phases. The records become an mrt_trace: CTA
 * slices on SM tracks plus a slice per launch on its stream's track, or task slices on
 * worker tracks. All stamps are %globaltimer nanoseconds; the trace keeps microseconds from
 * the step's first stamp. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h" /* mrt_gpu_cmp_launch */
#include "exec_internal.h"

static thread_local mrt_gpu_stamps *sink;

extern "C" void mrt_gpu_stamps_install(mrt_gpu_stamps *s) { sink = s; }

extern "C" mrt_cta_stamp *mrt_gpu_stamps_take(int ctas, const char *kernel) {
    mrt_gpu_stamps *s = sink;
    if (!s || !s->dev) return NULL;
    if (ctas < 1 || s->used + ctas > MRT_STAMP_CTAS || s->n_launch == MRT_STAMP_LAUNCHES) {
        s->overflow = 1;
        return NULL;
    }
    mrt_gpu_stamp_launch *l = &s->launch[s->n_launch++];
    l->op = s->op, l->stream = s->stream, l->first = s->used, l->ctas = ctas, l->kernel = kernel;
    s->used += ctas;
    return s->dev + l->first;
}

/* What a traced stream step's graph holds: the records cleared, then the executor's launches. */
static mrt_status clear_records(mrt_gpu_exec *x) {
    cudaError_t e = cudaMemsetAsync(x->stamps.dev, 0, sizeof(mrt_cta_stamp) * MRT_STAMP_CTAS, x->stream);
    return e ? mrt_gpu_cuda_fail(x, e, "trace: clear records") : MRT_OK;
}
static mrt_status traced_serial(mrt_gpu_exec *x, int copy) {
    mrt_status st = clear_records(x);
    return st ? st : mrt_gpu_serial_launch(x, copy);
}
static mrt_status traced_cmp(mrt_gpu_exec *x, int copy) {
    mrt_status st = clear_records(x);
    return st ? st : mrt_gpu_cmp_launch(x, copy);
}

static mrt_status stream_trace(mrt_gpu_exec *x, bool cmp, int copy, mrt_trace *t) {
    mrt_gpu_stamps *s = &x->stamps;
    cudaError_t e = cudaSuccess;
    if (!s->dev && (e = cudaMalloc(&s->dev, sizeof(mrt_cta_stamp) * MRT_STAMP_CTAS)))
        return mrt_gpu_cuda_fail(x, e, "trace: records");
    s->used = s->overflow = s->n_launch = 0;
    /* captured once (the sink fills the launch table during capture), replayed twice: the
     * first replay warms the graph, the second is the one recorded */
    cudaGraphExec_t ge = NULL;
    mrt_gpu_stamps_install(s);
    mrt_status st = mrt_gpu_graph_step(x, copy, cmp ? "cmp trace" : "serial trace", cmp ? traced_cmp : traced_serial, &ge);
    mrt_gpu_stamps_install(NULL);
    if (!st) st = mrt_gpu_sync(x);
    if (!st && (e = cudaGraphLaunch(ge, x->stream))) st = mrt_gpu_cuda_fail(x, e, "trace: replay");
    if (!st) st = mrt_gpu_sync(x);
    if (ge) cudaGraphExecDestroy(ge);
    if (st) return st;
    if (s->overflow)
        return mrt_fail(x->ctx, MRT_ERR_LIMIT, "trace: the step needs more than %d CTA records or %d launches",
                        MRT_STAMP_CTAS, MRT_STAMP_LAUNCHES);
    mrt_cta_stamp *h = (mrt_cta_stamp *)malloc(sizeof(mrt_cta_stamp) * (size_t)(s->used + 1));
    if (!h) return mrt_fail(x->ctx, MRT_ERR_NOMEM, "trace: out of memory");
    if ((e = cudaMemcpy(h, s->dev, sizeof(mrt_cta_stamp) * (size_t)s->used, cudaMemcpyDeviceToHost))) {
        free(h);
        return mrt_gpu_cuda_fail(x, e, "trace: download");
    }
    unsigned long long t0 = ~0ull;
    for (int i = 0; i < s->used; i++) {
        if (!h[i].start || !h[i].end) { /* every CTA of every launch stamps: a hole is a bug */
            int l = 0;
            while (l + 1 < s->n_launch && s->launch[l + 1].first <= i) l++;
            mrt_status r = mrt_fail(x->ctx, MRT_ERR_INVALID, "trace: CTA %d of launch %d (%s of op %s) left no %s stamp",
                                    i - s->launch[l].first, l, s->launch[l].kernel, x->g->ops[s->launch[l].op].name,
                                    h[i].start ? "end" : "start");
            free(h);
            return r;
        }
        if (h[i].start < t0) t0 = h[i].start;
    }
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    mrt_trace_set_tracks(t, sms);
    for (int l = 0; l < s->n_launch; l++) {
        const mrt_gpu_stamp_launch *L = &s->launch[l];
        int id = mrt_trace_add_launch(t, L->op, L->stream, L->kernel);
        if (id < 0) {
            free(h);
            return mrt_fail(x->ctx, MRT_ERR_NOMEM, "trace: out of memory");
        }
        for (int c = 0; c < L->ctas; c++) {
            const mrt_cta_stamp *r = &h[L->first + c];
            double a = (double)(r->start - t0) * 1e-3, b = (double)(r->end - t0) * 1e-3;
            double ready = r->ready ? (double)(r->ready - t0) * 1e-3 : a;
            mrt_trace_add_cta(t, id, (int)r->sm, a, ready, b);
        }
    }
    free(h);
    return MRT_OK;
}

static mrt_status mega_trace(mrt_gpu_exec *x, int copy, mrt_trace *t) {
    const mrt_plan *p = x->p;
    size_t n = (size_t)p->workers * p->max_len * MRT_PH_COUNT;
    cudaError_t e = cudaSuccess;
    if (!x->mega_stamps && (e = cudaMalloc(&x->mega_stamps, n * 8))) return mrt_gpu_cuda_fail(x, e, "trace: stamps");
    /* a warm step (reloading the plan for this copy), then the recorded one */
    mrt_status st = mrt_gpu_mega_launch(x, copy, 1, x->mega_stamps);
    if (!st) st = mrt_gpu_sync(x);
    if (!st && (e = cudaMemsetAsync(x->mega_stamps, 0, n * 8, x->stream))) st = mrt_gpu_cuda_fail(x, e, "trace: clear stamps");
    if (!st) st = mrt_gpu_mega_launch(x, copy, 0, x->mega_stamps);
    if (!st) st = mrt_gpu_sync(x);
    if (st) return st;
    unsigned long long *h = (unsigned long long *)malloc(n * 8);
    if (!h) return mrt_fail(x->ctx, MRT_ERR_NOMEM, "trace: out of memory");
    if ((e = cudaMemcpy(h, x->mega_stamps, n * 8, cudaMemcpyDeviceToHost))) {
        free(h);
        return mrt_gpu_cuda_fail(x, e, "trace: download");
    }
    unsigned long long t0 = ~0ull;
    for (size_t i = 0; i < n; i++)
        if (h[i] && h[i] < t0) t0 = h[i];
    mrt_trace_set_tracks(t, p->workers);
    for (int w = 0; w < p->workers; w++)
        for (int slot = 0; slot < p->max_len; slot++) {
            const uint32_t *ins = p->instr + ((size_t)w * p->max_len + slot) * MRT_INSTR_WORDS;
            if ((ins[0] & 0xFFu) == MRT_OPC_NOOP) continue;
            const unsigned long long *r = h + ((size_t)w * p->max_len + slot) * MRT_PH_COUNT;
            double us[MRT_PH_COUNT];
            for (int ph = 0; ph < MRT_PH_COUNT; ph++) {
                if (!r[ph]) {
                    mrt_status bad = mrt_fail(x->ctx, MRT_ERR_INVALID, "trace: worker %d, slot %d (task %u) left no "
                                              "stamp for phase %d", w, slot, ins[2], ph);
                    free(h);
                    return bad;
                }
                us[ph] = (double)(r[ph] - t0) * 1e-3;
            }
            mrt_trace_add(t, (int)ins[2], w, us);
        }
    free(h);
    return MRT_OK;
}

extern "C" mrt_status mrt_gpu_trace_step(mrt_gpu_exec *x, const char *executor, int copy, mrt_trace *t) {
    if (!x) return MRT_ERR_INVALID;
    if (!t || mrt_trace_plan(t) != x->p)
        return mrt_fail(x->ctx, MRT_ERR_INVALID, "trace: the trace must be made (mrt_trace_new) for this executor's plan");
    if (copy < 0 || copy >= x->copies) return mrt_fail(x->ctx, MRT_ERR_INVALID, "trace: copy %d of %d", copy, x->copies);
    if (executor && !strcmp(executor, "serial")) return stream_trace(x, false, copy, t);
    if (executor && !strcmp(executor, "cmp")) return stream_trace(x, true, copy, t);
    if (executor && !strcmp(executor, "mega")) return mega_trace(x, copy, t);
    return mrt_fail(x->ctx, MRT_ERR_INVALID, "trace: unknown GPU executor \"%s\" (serial, cmp, mega)",
                    executor ? executor : "(null)");
}
