/* `megartp bench glm5-prefix`: the step of each executor with weights and caches rotating
 * through `copies` (>= 6) layer copies, so no replay reads a warm L2; per op median us, bytes
 * and TB/s; per step median and spread over the replays; and the same-bytes read kernel in
 * the same run, every figure also as a ratio to it (DESIGN.md section 5). */
#include <cuda_runtime.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "glm5_check.h"
#include "gpu.h"
#include "internal.h"
#include "ops.h"

static int cmp_f(const void *a, const void *b) {
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static float pct(float *v, int n, double q) {
    qsort(v, (size_t)n, sizeof(float), cmp_f);
    int i = (int)floor(q * (n - 1) + 0.5);
    return v[i < 0 ? 0 : i >= n ? n - 1 : i];
}

/* A step's row of the table: median and spread of t (reps samples; sorted in place), its
 * TB/s and its ratio to the read kernel. kind: "" or " what it is". */
static void step_row(FILE *out, const char *name, const char *kind, float *t, int reps, double bytes, float rd_us) {
    float med = pct(t, reps, 0.5) * 1e3f, p10 = pct(t, reps, 0.1) * 1e3f, p90 = pct(t, reps, 0.9) * 1e3f;
    fprintf(out, "| **step, %s** |%s | **%.2f** (p10 %.2f, p90 %.2f) | %.2f | %.2f | %.2f |\n", name, kind, med, p10, p90,
            bytes * 1e-6, bytes / (med * 1e-6) * 1e-12, med / rd_us);
}

/* Streaming read of n16 16-byte words; the sum goes to *sink so nothing is optimized out. */
__global__ void __launch_bounds__(512) mrt_read_kernel(const uint4 *__restrict__ p, size_t n16, unsigned *sink) {
    unsigned acc = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n16; i += (size_t)gridDim.x * blockDim.x) {
        uint4 v;
        asm volatile("ld.global.nc.L1::no_allocate.v4.u32 {%0,%1,%2,%3}, [%4];"
                     : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                     : "l"(p + i));
        acc ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (acc == 0x9E3779B9u) *sink = acc;
}

/* Bytes an op must move: the distinct regions its tiles read and write, from the plan's
 * declarations (tiles of one op re-read the same weight or activation boxes: counted once).
 * Op scratch (split-K partials) is an implementation choice and is not counted. */
static double op_bytes(const mrt_plan *p, int op_id) {
    double b = 0;
    int n = 0, cap = 1024;
    const mrt_access **seen = (const mrt_access **)malloc(sizeof(*seen) * cap);
    for (int t = p->op_first_task[op_id]; t < p->op_first_task[op_id] + p->op_tasks[op_id]; t++) {
        const mrt_task *k = &p->tasks[t];
        for (int a = 0; a < k->n_acc; a++) {
            const mrt_access *x = &mrt_task_acc(p, k)[a];
            const mrt_plan_tensor *pt = &p->tensors[x->tensor];
            if (pt->scratch_of >= 0) continue;
            bool dup = false;
            for (int i = 0; i < n && !dup; i++)
                dup = seen[i]->tensor == x->tensor && seen[i]->kind == x->kind && mrt_box_equal(seen[i]->box, x->box);
            if (dup) continue;
            if (n == cap) seen = (const mrt_access **)realloc(seen, sizeof(*seen) * (cap *= 2));
            seen[n++] = x;
            double cells = (double)(x->box.r1 - x->box.r0) * (x->box.c1 - x->box.c0);
            b += cells * (pt->t.role == MRT_ROLE_CACHE ? 1 : mrt_dtype_size(pt->t.dtype));
        }
    }
    free(seen);
    return b;
}

extern "C" int mrt_bench_prefix(mrt_plan *p, void *host_glm5, int copies, int reps, const char *modes, int per_op,
                                FILE *out, mrt_bench_prefix_result *res) {
    bool want_cmp = modes && strstr(modes, "cmp"), want_mega = modes && strstr(modes, "mega");
    FILE *msg = out ? out : stderr;
    const glm5_host *h = (const glm5_host *)host_glm5;
    const mrt_graph *g = p->g;
    mrt_gpu_exec *x = NULL;
    mrt_status st = mrt_gpu_exec_new(p, copies, &x);
    if (!st) st = glm5_upload(x, g, h, copies);
    if (st) {
        fprintf(msg, "bench: %s: %s\n", mrt_status_name(st), mrt_last_error(p->ctx));
        mrt_gpu_exec_free(x);
        return -1;
    }
    cudaStream_t s = (cudaStream_t)mrt_gpu_exec_stream(x);
    /* the same-bytes read kernel over rotating buffers */
    double step_bytes = 0, bytes[MRT_MAX_OPS] = {0};
    for (int i = 0; i < p->n_ops; i++) step_bytes += bytes[i] = op_bytes(p, p->ops[i]);
    size_t n16 = (size_t)(step_bytes / 16) + 1;
    uint4 *rd[16] = {0};
    unsigned *sink = NULL;
    cudaMalloc(&sink, 4);
    for (int c = 0; c < copies; c++) {
        cudaMalloc(&rd[c], n16 * 16);
        cudaMemset(rd[c], c + 1, n16 * 16);
    }
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    /* Every figure is a CUDA graph of one launch per copy (so consecutive launches read
     * different bytes), replayed; a figure is the graph's time / copies. Graphs keep the
     * ~5 us a lone event-timed launch costs on these machines out of the numbers. */
    int rounds = (reps + copies - 1) / copies;
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0), cudaEventCreate(&e1);
    float *t_read = (float *)malloc(sizeof(float) * rounds), *t_step = (float *)malloc(sizeof(float) * rounds);
    float *t_cmp = (float *)malloc(sizeof(float) * rounds), *t_mega = (float *)malloc(sizeof(float) * rounds);
    /* the megakernel loads its tables on its first step (allocations cannot be captured) */
    if (want_mega && !(st = mrt_gpu_mega_step(x, 0, 0))) st = mrt_gpu_sync(x);
    float *t_op = (float *)malloc(sizeof(float) * rounds * MRT_MAX_OPS);
    /* -1: read kernel, 0..n_ops-1: one op (serial), n_ops: the serial step, n_ops + 1: cmp,
     * n_ops + 2: mega */
    for (int what = -1; what <= p->n_ops + 2 && !st; what++) {
        if (!per_op && what >= 0 && what < p->n_ops) continue;
        if ((what == p->n_ops + 1 && !want_cmp) || (what == p->n_ops + 2 && !want_mega)) continue;
        cudaGraph_t gr;
        cudaGraphExec_t ge = NULL;
        cudaError_t ce = cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal);
        for (int c = 0; c < copies && !ce && !st; c++) {
            if (what < 0) mrt_read_kernel<<<2 * sms, 512, 0, s>>>(rd[c], n16, sink);
            else if (what < p->n_ops) st = mrt_gpu_serial_op(x, what, c);
            else if (what == p->n_ops)
                for (int i = 0; i < p->n_ops && !st; i++) st = mrt_gpu_serial_op(x, i, c);
            else if (what == p->n_ops + 1) st = mrt_gpu_cmp_launch(x, c);
            else st = mrt_gpu_mega_step(x, c, 0);
        }
        cudaError_t ce2 = cudaStreamEndCapture(s, &gr);
        if (!ce && !ce2 && !st) ce = cudaGraphInstantiate(&ge, gr, 0);
        if (!ce2) cudaGraphDestroy(gr);
        if (ce || ce2) {
            fprintf(msg, "bench: graph capture: %s\n", cudaGetErrorString(ce ? ce : ce2));
            st = MRT_ERR_INVALID;
        }
        float *dst = what < 0             ? t_read
                     : what < p->n_ops     ? t_op + what * rounds
                     : what == p->n_ops    ? t_step
                     : what == p->n_ops + 1 ? t_cmp
                                            : t_mega;
        for (int r = -3; r < rounds && !st; r++) { /* 3 warm-up replays */
            cudaEventRecord(e0, s);
            cudaGraphLaunch(ge, s);
            cudaEventRecord(e1, s);
            if ((st = mrt_gpu_sync(x))) break;
            float ms = 0;
            cudaEventElapsedTime(&ms, e0, e1);
            if (r >= 0) dst[r] = ms / copies;
        }
        if (ge) cudaGraphExecDestroy(ge);
    }
    reps = rounds;
    int rc = 0;
    if (st) {
        fprintf(msg, "bench: %s: %s\n", mrt_status_name(st), mrt_last_error(p->ctx));
        rc = -1;
    } else if (res) {
        memset(res, 0, sizeof *res);
        res->read_us = pct(t_read, reps, 0.5) * 1e3f;
        res->serial_us = pct(t_step, reps, 0.5) * 1e3f;
        res->cmp_us = want_cmp ? pct(t_cmp, reps, 0.5) * 1e3f : 0;
        res->mega_us = want_mega ? pct(t_mega, reps, 0.5) * 1e3f : 0;
        for (int i = 0; i < p->n_ops && per_op; i++) res->op_us[i] = pct(t_op + i * reps, reps, 0.5) * 1e3f;
        res->step_mb = step_bytes * 1e-6;
    }
    if (!st && out) {
        float rd_us = pct(t_read, reps, 0.5) * 1e3f;
        fprintf(out, "\n| op | kind | us (median) | MB | TB/s | x read of its bytes |\n|---|---|---|---|---|---|\n");
        for (int i = 0; i < p->n_ops && per_op; i++) {
            const mrt_op *op = &g->ops[p->ops[i]];
            float us = pct(t_op + i * reps, reps, 0.5) * 1e3f;
            fprintf(out, "| %s | %s | %.2f | %.2f | %.2f | %.2f |\n", op->name, mrt_op_kind(op), us, bytes[i] * 1e-6,
                    bytes[i] / (us * 1e-6) * 1e-12, us / (rd_us * bytes[i] / step_bytes));
        }
        step_row(out, "serial", "", t_step, reps, step_bytes, rd_us);
        if (want_cmp) step_row(out, "cmp", " multistream + PDL", t_cmp, reps, step_bytes, rd_us);
        if (want_mega) {
            char kind[64];
            snprintf(kind, sizeof kind, " persistent megakernel, %d workers", p->workers);
            step_row(out, "mega", kind, t_mega, reps, step_bytes, rd_us);
        }
        fprintf(out, "| same-bytes read kernel | | %.2f | %.2f | %.2f | 1.00 |\n", rd_us, step_bytes * 1e-6,
                step_bytes / (rd_us * 1e-6) * 1e-12);
        fprintf(out, "\nEach figure: a CUDA graph of %d launches, one per weight/cache copy (%.0f MB a step), replayed %d "
                     "times (%d launches); median and spread over the replays.\n", copies, step_bytes * 1e-6, reps,
                reps * copies);
    }
    cudaEventDestroy(e0), cudaEventDestroy(e1);
    for (int c = 0; c < copies; c++) cudaFree(rd[c]);
    cudaFree(sink);
    free(t_read), free(t_step), free(t_op), free(t_cmp), free(t_mega);
    mrt_gpu_exec_free(x);
    return rc;
}
