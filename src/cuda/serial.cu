/* Device buffers of a plan's graph and the `serial` executor: one kernel per op (the ops'
 * standalone wrappers), in plan order, on one stream, optionally as a CUDA graph.
 *
 * The serial executor runs whole ops: it takes the plan's op selection and order, and each
 * GEMM takes the plan's split-K (when it divides the K blocks evenly) but reduces it
 * in-kernel, in split order: the sums the megakernel's reduce groups make, so the executors
 * agree byte for byte. So here the head gate is produced reduced (one partial); D0's
 * finalization writes the roped q_pe straight into the FlashMLA query, where D2 writes the
 * absorbed part, as in every GPU executor (mrt_gpu_q_b_query). */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "gemm_host.h" /* mrt_gpu_num_sms */
#include "gpu.h"
#include "index_ops.h"
#include "internal.h"
#include "ops.h"
#include "exec_internal.h"
#include "prefix_ops.h"

/* Keys per CTA of the standalone E1 kernel (the plan's chunk is the megakernel's tiling; a
 * standalone kernel picks its own). wgmma tile (128 keys a pass): 128 keys, doubled while
 * there are more than 4 tiles an SM (H200, session 7, E1 alone: M=16 KV=8192 chunk 128 7.29
 * us, 256 10.70; M=64 b=8 KV=65536 chunk 256 97.40, 512 91.68, 1024 89.21). mma.sync tile:
 * 64 (7.9 us against 14.8 at 256, M=16 KV=8192). */
static int e1_standalone_chunk(long long batch, long long kv) {
#ifndef MRT_E1_MMA_SYNC
    long long chunk = 128;
    while (batch * ((kv + chunk - 1) / chunk) > 4LL * mrt_gpu_num_sms()) chunk *= 2;
    return (int)chunk;
#else
    (void)batch, (void)kv;
    return 64;
#endif
}

mrt_status mrt_gpu_cuda_fail(mrt_gpu_exec *x, int e, const char *what) {
    return mrt_fail(x->ctx, MRT_ERR_INVALID, "%s: %s", what, cudaGetErrorString((cudaError_t)e));
}

void *mrt_gpu_dev(mrt_gpu_exec *x, int tensor, int copy) {
    return x->dev[tensor][rotates(&x->g->tensors[tensor]) ? copy : 0];
}
#define D mrt_gpu_dev

/* The plan's split-K of a GEMM op over `kblocks` 128-wide K blocks, or 0 (the standalone
 * planner's choice) when the plan's splits are uneven. */
static int plan_split(const mrt_gpu_exec *x, const mrt_op *op, int kblocks) {
    int64_t kbs, n = mrt_split_blocks(kblocks, x->p->cfg[op->id].split, &kbs);
    return n * kbs == kblocks ? (int)n : 0;
}

/* The finalization of gemm_fp8 op `op` for weight/cache copy `copy`: its standalone kernel's
 * arguments, or the fused store's (mrt_gpu_gemm_fp8_args.fused). */
static mrt_status op_epi(mrt_gpu_exec *x, const mrt_op *op, int copy, mrt_gpu_epi *e) {
    const mrt_graph *g = x->g;
    const op_state *s = &x->op[op->id];
    memset(e, 0, sizeof *e);
    e->epi = op->p.i[0], e->c = s->c, e->ip = op->p.i, e->eps = op->p.f[0];
    e->M = (int)op_in(g, op, 0)->dims[0], e->K = (int)op_in(g, op, 0)->dims[1], e->N = (int)op_in(g, op, 2)->dims[0];
    for (int j = 0; j < op->n_in; j++) e->in[j] = D(x, op->in[j], copy);
    for (int j = 0; j < op->n_out; j++) e->out[j] = D(x, op->out[j], copy);
    e->gate_partials = 1; /* the serial head gate is reduced in its GEMM */
    e->part = s->gemm[copy].partials, e->nsplit = s->gemm[copy].split;
    return e->epi == MRT_EPI_Q_B ? mrt_gpu_q_b_query(x, op, copy, e) : MRT_OK;
}

mrt_status mrt_gpu_q_b_query(mrt_gpu_exec *x, const mrt_op *op, int copy, mrt_gpu_epi *e) {
    const mrt_tensor *q = mrt_graph_find_tensor(x->g, "qmla");
    if (!q) return mrt_fail(x->ctx, MRT_ERR_INVALID, "op %s: no qmla tensor for q_pe", op->name);
    e->qmla = (uint16_t *)D(x, q->id, copy);
    e->qmla_width = (int)q->dims[2], e->qmla_rope_at = (int)q->dims[2] - op->p.i[3];
    return MRT_OK;
}

/* The serial executor runs D0's finalization (Q_B: element-wise) in its GEMM's store when the
 * plan does not split that GEMM: serial 85.0 -> 81.8 us (H200, session 8, bench/RESULTS.md).
 * cmp keeps the separate kernel: there D0 streams beside D1, the critical path, and the fused
 * GEMM took more of the bandwidth (D1 done at 43.2 us instead of 39.4; cmp 59.5 -> 62.4). The
 * megakernel runs the same functor in its D0 tiles' store (mega_table.cu); the bytes are the
 * same (test_mega_prefix, mega = serial). -DMRT_NO_FUSED_Q_B: the separate kernel in serial too. */
static bool fuse_epi(const mrt_gpu_exec *x, const mrt_op *op) {
#ifdef MRT_NO_FUSED_Q_B
    (void)x, (void)op;
    return false;
#else
    return op->p.i[0] == MRT_EPI_Q_B && plan_split(x, op, (int)op_in(x->g, op, 0)->dims[1] / 128) == 1;
#endif
}

static mrt_status prepare_gemms(mrt_gpu_exec *x) {
    const mrt_graph *g = x->g;
    for (int i = 0; i < x->p->n_ops; i++) {
        const mrt_op *op = &g->ops[x->p->ops[i]];
        op_state *s = &x->op[op->id];
        const mrt_tensor *a = op_in(g, op, 0);
        if (op->kind == MRT_OPC_GEMM_FP8) {
            int M = (int)a->dims[0], K = (int)a->dims[1], N = (int)op_in(g, op, 2)->dims[0];
            s->fused = fuse_epi(x, op);
            cudaError_t e = cudaMalloc((void **)&s->c, (size_t)M * N * 4);
            size_t ws = mrt_gpu_gemm_workspace_bytes(0, M, N, K, 1, plan_split(x, op, K / 128));
            if (!e && ws) e = cudaMalloc(&s->ws, ws);
            if (!e && ws) e = cudaMemsetAsync(s->ws, 0, ws, x->stream); /* tickets start at zero; runs leave them so */
            if (e) return mrt_gpu_cuda_fail(x, e, "serial: GEMM buffers");
            for (int c = 0; c < x->copies; c++) {
                mrt_gpu_gemm_fp8_args ga;
                memset(&ga, 0, sizeof ga);
                ga.M = M, ga.N = N, ga.K = K;
                ga.x8 = D(x, op->in[0], c), ga.sx = (const float *)D(x, op->in[1], c);
                ga.w = D(x, op->in[2], c), ga.sw = (const float *)D(x, op->in[3], c);
                ga.out = s->c, ga.out_ld = N, ga.out_f32 = 1, ga.split = plan_split(x, op, K / 128);
                ga.partials_out = 1; /* its finalization kernel sums the planes (mrt_gpu_epi.part) */
                ga.workspace = s->ws, ga.workspace_bytes = ws;
                if (mrt_gpu_gemm_fp8_plan(&s->gemm[c], &ga, x->why, sizeof x->why))
                    return mrt_fail(x->ctx, MRT_ERR_INVALID, "op %s: %s", op->name, x->why);
                if (s->fused) {
                    mrt_gpu_epi fe;
                    mrt_status es = op_epi(x, op, c, &fe);
                    if (es) return es;
                    ga.fused = &fe, ga.partials_out = 0;
                    if (mrt_gpu_gemm_fp8_plan(&s->fused_gemm[c], &ga, x->why, sizeof x->why))
                        return mrt_fail(x->ctx, MRT_ERR_INVALID, "op %s: %s", op->name, x->why);
                }
            }
        } else if (op->kind == MRT_OPC_GEMM_BF16 || op->kind == MRT_OPC_BMM_BF16) {
            bool bmm = op->kind == MRT_OPC_BMM_BF16;
            const mrt_tensor *w = op_in(g, op, bmm ? 2 : 1), *o = op_out(g, op, 0);
            int M = (int)a->dims[0], batches = bmm ? (int)a->dims[1] : 1;
            int K = bmm ? (int)a->dims[2] : (int)a->dims[1], N = bmm ? (int)w->dims[2] : (int)w->dims[0];
            const int split = bmm ? 1 : plan_split(x, op, K / 128);
            size_t ws = mrt_gpu_gemm_workspace_bytes(bmm ? 2 : 1, M, N, K, batches, split);
            cudaError_t e = ws ? cudaMalloc(&s->ws, ws) : cudaSuccess;
            if (!e && ws) e = cudaMemsetAsync(s->ws, 0, ws, x->stream);
            if (e) return mrt_gpu_cuda_fail(x, e, "serial: GEMM workspace");
            for (int c = 0; c < x->copies; c++) {
                mrt_gpu_gemm_bf16_args ga;
                memset(&ga, 0, sizeof ga);
                ga.M = M, ga.N = N, ga.K = K, ga.batches = batches;
                ga.x = D(x, op->in[0], c);
                ga.x_ld = bmm ? (long long)batches * K : K, ga.x_batch_col = bmm ? K : 0;
                ga.w = D(x, op->in[bmm ? 2 : 1], c), ga.w_mn_major = bmm;
                ga.out = D(x, op->out[0], c);
                ga.out_ld = bmm ? (long long)batches * o->dims[2] : N, ga.out_batch_stride = bmm ? o->dims[2] : 0;
                ga.out_f32 = !bmm, ga.split = split, ga.workspace = s->ws, ga.workspace_bytes = ws;
                if (mrt_gpu_gemm_bf16_plan(&s->gemm[c], &ga, x->why, sizeof x->why))
                    return mrt_fail(x->ctx, MRT_ERR_INVALID, "op %s: %s", op->name, x->why);
            }
        }
    }
    return MRT_OK;
}

mrt_status mrt_gpu_exec_new(mrt_plan *p, int copies, mrt_gpu_exec **out) {
    if (!out || !p) return MRT_ERR_INVALID;
    *out = NULL;
    char why[256];
    if (!mrt_gpu_available(why, sizeof why)) return mrt_fail(p->ctx, MRT_ERR_UNSUPPORTED, "%s", why);
    if (copies < 1 || copies > MRT_MAX_COPIES)
        return mrt_fail(p->ctx, MRT_ERR_INVALID, "gpu executor: %d weight copies (1..%d)", copies, MRT_MAX_COPIES);
    mrt_gpu_exec *x = (mrt_gpu_exec *)calloc(1, sizeof *x);
    if (!x) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "gpu executor: out of memory");
    x->ctx = p->ctx, x->p = p, x->g = p->g, x->copies = copies;
    mrt_status st = MRT_OK;
    cudaError_t e = cudaStreamCreateWithFlags(&x->stream, cudaStreamNonBlocking);
    for (int i = 0; i < MRT_CMP_STREAMS && !e; i++) e = cudaStreamCreateWithFlags(&x->side[i], cudaStreamNonBlocking);
    for (int i = 0; i < MRT_CMP_EVENTS && !e; i++) e = cudaEventCreateWithFlags(&x->ev[i], cudaEventDisableTiming);
    if (e) st = mrt_gpu_cuda_fail(x, e, "gpu executor: streams and events");
    for (int t = 0; t < x->g->n_tensors && !st; t++) {
        const mrt_tensor *tt = &x->g->tensors[t];
        x->bytes[t] = mrt_tensor_bytes(tt);
        /* a partial output (C0's gate) holds one plane per split: the megakernel writes them
         * all, the stream executors reduce into the first */
        size_t all = x->bytes[t] * (size_t)(p->tensors[t].partials > 1 ? p->tensors[t].partials : 1);
        for (int c = 0; c < (rotates(tt) ? copies : 1) && !st; c++)
            if ((e = cudaMalloc(&x->dev[t][c], all))) st = mrt_gpu_cuda_fail(x, e, tt->name);
            else if ((e = cudaMemsetAsync(x->dev[t][c], 0xFF, all, x->stream))) st = mrt_gpu_cuda_fail(x, e, tt->name);
    }
    if (!st) st = prepare_gemms(x);
    if (st) {
        mrt_gpu_exec_free(x);
        return st;
    }
    *out = x;
    return MRT_OK;
}

void mrt_gpu_exec_free(mrt_gpu_exec *x) {
    if (!x) return;
    cudaDeviceSynchronize();
    for (int c = 0; c < MRT_MAX_COPIES; c++)
        if (x->graph[c]) cudaGraphExecDestroy(x->graph[c]);
    for (int t = 0; t < MRT_MAX_TENSORS; t++)
        for (int c = 0; c < MRT_MAX_COPIES; c++) cudaFree(x->dev[t][c]);
    for (int o = 0; o < MRT_MAX_OPS; o++) cudaFree(x->op[o].c), cudaFree(x->op[o].ws);
    cudaFree(x->mega.instr), cudaFree(x->mega.table), cudaFree(x->mega.events), cudaFree(x->mega.tickets);
    cudaFree(x->mega.launches);
    for (int o = 0; o < MRT_MAX_OPS; o++) cudaFree(x->mega.part[o]);
    cudaFree(x->stamps.dev), cudaFree(x->mega_stamps);
    for (int c = 0; c < MRT_MAX_COPIES; c++)
        if (x->cmp_graph[c]) cudaGraphExecDestroy(x->cmp_graph[c]);
    for (int i = 0; i < MRT_CMP_STREAMS; i++)
        if (x->side[i]) cudaStreamDestroy(x->side[i]);
    for (int i = 0; i < MRT_CMP_EVENTS; i++)
        if (x->ev[i]) cudaEventDestroy(x->ev[i]);
    if (x->stream) cudaStreamDestroy(x->stream);
    free(x);
}

static mrt_status check_tensor(mrt_gpu_exec *x, int tensor, int copy) {
    if (!x) return MRT_ERR_INVALID;
    if (tensor < 0 || tensor >= x->g->n_tensors)
        return mrt_fail(x->ctx, MRT_ERR_INVALID, "gpu executor: no tensor %d", tensor);
    int n = rotates(&x->g->tensors[tensor]) ? x->copies : 1;
    if (copy < 0 || copy >= n)
        return mrt_fail(x->ctx, MRT_ERR_INVALID, "tensor %s: copy %d of %d", x->g->tensors[tensor].name, copy, n);
    return MRT_OK;
}

mrt_status mrt_gpu_upload(mrt_gpu_exec *x, int tensor, int copy, const void *host) {
    mrt_status st = check_tensor(x, tensor, copy);
    if (st) return st;
    /* on the executor's stream (non-blocking: the legacy stream's copies would not wait for a
     * step still running, and a test replaying steps then saw its fresh poison or inputs land
     * in the middle of one) */
    cudaError_t e = cudaMemcpyAsync(x->dev[tensor][copy], host, x->bytes[tensor], cudaMemcpyHostToDevice, x->stream);
    if (!e) e = cudaStreamSynchronize(x->stream);
    return e ? mrt_gpu_cuda_fail(x, e, x->g->tensors[tensor].name) : MRT_OK;
}

mrt_status mrt_gpu_download(mrt_gpu_exec *x, int tensor, int copy, void *host) {
    mrt_status st = check_tensor(x, tensor, copy);
    if (st) return st;
    cudaError_t e = cudaMemcpyAsync(host, x->dev[tensor][copy], x->bytes[tensor], cudaMemcpyDeviceToHost, x->stream);
    if (!e) e = cudaStreamSynchronize(x->stream);
    return e ? mrt_gpu_cuda_fail(x, e, x->g->tensors[tensor].name) : MRT_OK;
}

mrt_status mrt_gpu_poison(mrt_gpu_exec *x, int tensor) {
    mrt_status st = check_tensor(x, tensor, 0);
    if (st) return st;
    int n = rotates(&x->g->tensors[tensor]) ? x->copies : 1;
    const int planes = x->p->tensors[tensor].partials > 1 ? x->p->tensors[tensor].partials : 1;
    for (int c = 0; c < n; c++) {
        cudaError_t e = cudaMemsetAsync(x->dev[tensor][c], 0xFF, x->bytes[tensor] * planes, x->stream);
        if (e) return mrt_gpu_cuda_fail(x, e, x->g->tensors[tensor].name);
    }
    for (int o = 0; o < MRT_MAX_OPS; o++)
        if (x->op[o].c)
            cudaMemsetAsync(x->op[o].c, 0xFF,
                            (size_t)op_in(x->g, &x->g->ops[o], 0)->dims[0] * op_in(x->g, &x->g->ops[o], 2)->dims[0] * 4,
                            x->stream);
    return MRT_OK;
}

int mrt_gpu_op_first_inputs(const mrt_op *op) { return op->kind == MRT_OPC_GEMM_FP8 ? 4 : op->n_in; }

mrt_status mrt_gpu_launch_op(mrt_gpu_exec *x, const mrt_op *op, int copy, void *st, int pdl) {
    return mrt_gpu_launch_op_part(x, op, copy, st, pdl, MRT_LAUNCH_ALL | MRT_LAUNCH_FUSED);
}

mrt_status mrt_gpu_launch_op_part(mrt_gpu_exec *x, const mrt_op *op, int copy, void *st, int pdl, int part) {
    const mrt_graph *g = x->g;
    op_state *s = &x->op[op->id];
    int rc = 0;
    x->stamps.op = op->id; /* a traced step's launches are this op's */
    if (!(part & MRT_LAUNCH_FIRST) && op->kind != MRT_OPC_GEMM_FP8) return MRT_OK; /* one kernel: nothing after it */
    switch (op->kind) {
    case MRT_OPC_ADD_RMSNORM_QUANT: {
        const mrt_tensor *h = op_in(g, op, 0);
        rc = mrt_gpu_a0((const uint16_t *)D(x, op->in[0], copy), (const uint16_t *)D(x, op->in[1], copy),
                        (const uint16_t *)D(x, op->in[2], copy), (uint16_t *)D(x, op->out[0], copy),
                        (uint16_t *)D(x, op->out[1], copy), (uint8_t *)D(x, op->out[2], copy),
                        (float *)D(x, op->out[3], copy), (int)h->dims[0], (int)h->dims[1], op->p.f[0], x->delay_ns,
                        st, pdl, x->why, sizeof x->why);
        break;
    }
    case MRT_OPC_GEMM_FP8: {
        const bool fused = s->fused && (part & MRT_LAUNCH_FUSED);
        if (part & MRT_LAUNCH_FIRST)
            rc = mrt_gpu_gemm_run(fused ? &s->fused_gemm[copy] : &s->gemm[copy], st, pdl, x->why, sizeof x->why);
        if (rc || !(part & MRT_LAUNCH_REST) || fused) break; /* fused: its GEMM ran the finalization */
        mrt_gpu_epi e;
        mrt_status es = op_epi(x, op, copy, &e);
        if (es) return es;
        rc = mrt_gpu_epilogue(&e, st, pdl, x->why, sizeof x->why); /* right after its GEMM: PDL-safe */
        break;
    }
    case MRT_OPC_GEMM_BF16:
    case MRT_OPC_BMM_BF16: rc = mrt_gpu_gemm_run(&s->gemm[copy], st, pdl, x->why, sizeof x->why); break;
    case MRT_OPC_INDEX_LOGITS: {
        const mrt_tensor *q = op_in(g, op, 0);
        rc = mrt_gpu_index_logits(D(x, op->in[0], copy), (const float *)D(x, op->in[1], copy), D(x, op->in[2], copy),
                                  (const int *)D(x, op->in[3], copy), (const int *)D(x, op->in[4], copy),
                                  (float *)D(x, op->out[0], copy), (int)q->dims[0], op->p.i[4], op->p.i[5],
                                  (int)q->dims[1], (int)q->dims[2], op->p.i[6], e1_standalone_chunk(op->p.i[4], op->p.i[5]),
                                  st, pdl, x->why, sizeof x->why);
        break;
    }
    case MRT_OPC_TOPK: {
        const mrt_tensor *l = op_in(g, op, 0);
        rc = mrt_gpu_topk((const float *)D(x, op->in[0], copy), (int *)D(x, op->out[0], copy), (int)l->dims[0],
                          (int)l->dims[1], op->p.i[0], st, pdl, x->why, sizeof x->why);
        break;
    }
    default: return mrt_fail(x->ctx, MRT_ERR_UNSUPPORTED, "op %s: no GPU kernel for kind %d", op->name, op->kind);
    }
    return rc ? mrt_fail(x->ctx, MRT_ERR_INVALID, "op %s: %s", op->name, x->why) : MRT_OK;
}

mrt_status mrt_gpu_serial_launch(mrt_gpu_exec *x, int copy) {
    x->stamps.stream = 0;
    for (int i = 0; i < x->p->n_ops; i++) {
        mrt_status st = mrt_gpu_launch_op(x, &x->g->ops[x->p->ops[i]], copy, x->stream, 0);
        if (st) return st;
    }
    return MRT_OK;
}

mrt_status mrt_gpu_graph_step(mrt_gpu_exec *x, int copy, const char *what, mrt_status (*issue)(mrt_gpu_exec *, int),
                              cudaGraphExec_t *cache) {
    if (copy < 0 || copy >= x->copies) return mrt_fail(x->ctx, MRT_ERR_INVALID, "copy %d of %d", copy, x->copies);
    char msg[64];
    if (!*cache) {
        cudaGraph_t gr;
        cudaError_t e = cudaStreamBeginCapture(x->stream, cudaStreamCaptureModeThreadLocal);
        if (e) return mrt_gpu_cuda_fail(x, e, (snprintf(msg, sizeof msg, "%s: begin capture", what), msg));
        mrt_status st = issue(x, copy);
        gr = NULL;
        e = cudaStreamEndCapture(x->stream, &gr); /* always: the stream leaves capture mode */
        if (st || e) {
            if (gr) cudaGraphDestroy(gr); /* a failed issue's partial graph is not kept */
            return st ? st : mrt_gpu_cuda_fail(x, e, (snprintf(msg, sizeof msg, "%s: end capture", what), msg));
        }
        e = cudaGraphInstantiate(cache, gr, 0);
        cudaGraphDestroy(gr);
        if (e) {
            *cache = NULL; /* the next step captures again */
            return mrt_gpu_cuda_fail(x, e, (snprintf(msg, sizeof msg, "%s: instantiate", what), msg));
        }
    }
    cudaError_t e = cudaGraphLaunch(*cache, x->stream);
    return e ? mrt_gpu_cuda_fail(x, e, (snprintf(msg, sizeof msg, "%s: graph launch", what), msg)) : MRT_OK;
}

mrt_status mrt_gpu_serial_step(mrt_gpu_exec *x, int copy, int graph) {
    mrt_status st = check_tensor(x, 0, 0);
    if (st) return st;
    if (copy < 0 || copy >= x->copies) return mrt_fail(x->ctx, MRT_ERR_INVALID, "copy %d of %d", copy, x->copies);
    if (!graph) return mrt_gpu_serial_launch(x, copy);
    return mrt_gpu_graph_step(x, copy, "serial", mrt_gpu_serial_launch, &x->graph[copy]);
}

void *mrt_gpu_exec_stream(mrt_gpu_exec *x) { return x ? x->stream : NULL; }

mrt_status mrt_gpu_serial_op(mrt_gpu_exec *x, int i, int copy) {
    if (!x || i < 0 || i >= x->p->n_ops || copy < 0 || copy >= x->copies) return MRT_ERR_INVALID;
    return mrt_gpu_launch_op(x, &x->g->ops[x->p->ops[i]], copy, x->stream, 0);
}

mrt_status mrt_gpu_sync(mrt_gpu_exec *x) {
    if (!x) return MRT_ERR_INVALID;
    cudaError_t e = cudaStreamSynchronize(x->stream);
    if (!e) return MRT_OK;
    char report[8192];
    int n = mrt_gpu_watchdog_report(report, sizeof report);
    return mrt_fail(x->ctx, MRT_ERR_INVALID, "gpu step failed: %s%s%s", cudaGetErrorString(e), n ? "; watchdog: " : "",
                    n ? report : "");
}
