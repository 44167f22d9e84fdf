/* The `cmp` executor: the plan's ops as the same standalone kernels as `serial`, but on
 * several streams (independent branches run side by side) with programmatic dependent launch
 * inside a stream (a kernel starts — and streams its weights — while its predecessor ends),
 * the whole step captured once into a CUDA graph and replayed (article section 7).
 *
 * Streams are assigned from the graph: an op continues the stream whose last op is one of
 * its producers, else it takes the least loaded stream; producers on other streams are
 * joined with events. PDL is used where the previous op of the op's stream is one of its
 * producers: every kernel waits with griddepcontrol.wait before it reads producer data (the
 * GEMMs in their activation loader, A0, the finalizations, E1 and F1 first thing), and that
 * wait covers every producer the launch depends on programmatically; producers on other
 * streams are joined by events (complete before the op starts, or, if the capture turns
 * those edges programmatic too, complete before its wait returns). D1 (producers B0 and the
 * head gate C0) and E1 (D1 and the indexer key B1) are such ops. A producer read only by an
 * op's later kernels (the head gate, read by D1's finalization, not by its GEMM) is joined
 * after the first kernel's launch: D1's GEMM streams its weights while C0 still runs.
 * Tried and removed (H200, 2026-11-29, session 6): a launch priority per op from its longest
 * remaining path under the planner's cost model, so the critical path's CTAs dispatch first —
 * cmp 65.69 / 66.07 us with it, 65.82 / 65.91 without (bench/RESULTS.md). Also tried
 * (session 8): D0 streaming its weights only after D1's GEMM, so the critical D1 gets the
 * bandwidth: D1 done at 33.2 us instead of 41.2, but E1 and F1 then ran beside D0 and its
 * finalization's 1024 CTAs and lost it again (cmp 63.1 against 61.3); and D0 with its
 * finalization fused (serial's): 62.4 against 59.5, D1 done later. */
#include <string.h>

#include "bench.h"
#include "exec_internal.h"

#define NSTREAMS (1 + MRT_CMP_STREAMS)

/* Cross-stream joins as programmatic graph edges (issue [F]): inside a capture, a producer on
 * another stream is joined by an edge from its last kernel node of type programmatic
 * (cudaGraphKernelNodePortProgrammatic: the edge fires once every block of the producer has
 * executed griddepcontrol.launch_dependents or exited), and the consumer is launched as its
 * PDL variant, whose griddepcontrol.wait then waits for that producer's completion and memory
 * too. So C0 and B1 (fresh branches after A0), D0 (after B0) and the late joins (the head gate
 * C0 into D1's finalization) start and stream their weights while their producer still runs,
 * as same-stream PDL does. Outside a capture the joins stay events (a launch's programmatic
 * event cannot be triggered by griddepcontrol.launch_dependents in CUDA 13.0: only at block
 * start or exit). Measured slower (H200, 2026-11-30, session 10 run 2, A B A B): cmp 58.53 /
 * 58.55 us with every cross-stream join programmatic against 55.69 / 55.51 with events; C0 was
 * done 4.5 us sooner in the trace, but the fresh branches' CTAs (D0's GEMM: 128 CTAs, one an
 * SM by shared memory) now sit on SMs waiting for their producers. So the default stays
 * events; -DMRT_CMP_CROSS_PDL=1: every cross-stream join programmatic, =2: only the joins
 * into an op that already follows a producer on its stream (D1's finalization joining the
 * head gate C0, E1 joining the indexer key B1), fresh branches by events. */
#ifndef MRT_CMP_CROSS_PDL
#define MRT_CMP_CROSS_PDL 0
#endif

/* The capture's last node on stream s when it is exactly one kernel node (a producer's last
 * kernel), else NULL: the join then falls back to the event. */
static cudaGraphNode_t last_kernel_node(cudaStream_t s) {
    cudaStreamCaptureStatus cs;
    const cudaGraphNode_t *d = NULL;
    const cudaGraphEdgeData *ed = NULL;
    size_t n = 0;
    cudaGraphNodeType t;
    if (cudaStreamGetCaptureInfo(s, &cs, NULL, NULL, &d, &ed, &n) || cs != cudaStreamCaptureStatusActive || n != 1)
        return NULL;
    return cudaGraphNodeGetType(d[0], &t) == cudaSuccess && t == cudaGraphNodeTypeKernel ? d[0] : NULL;
}

/* Stream s waits for a producer: a programmatic edge from its kernel node when there is one
 * (capture only), else its event. */
static cudaError_t join(cudaStream_t s, cudaEvent_t ev, cudaGraphNode_t node, int *prog) {
    if (!node) return cudaStreamWaitEvent(s, ev, 0);
    cudaGraphEdgeData ed;
    memset(&ed, 0, sizeof ed);
    ed.from_port = cudaGraphKernelNodePortProgrammatic, ed.type = cudaGraphDependencyTypeProgrammatic;
    (*prog)++;
    return cudaStreamUpdateCaptureDependencies(s, &node, &ed, 1, cudaStreamAddCaptureDependencies);
}

static bool pdl_capable(const mrt_op *op) {
    return op->kind == MRT_OPC_ADD_RMSNORM_QUANT || op->kind == MRT_OPC_GEMM_FP8 || op->kind == MRT_OPC_GEMM_BF16 ||
           op->kind == MRT_OPC_BMM_BF16 || op->kind == MRT_OPC_INDEX_LOGITS || op->kind == MRT_OPC_TOPK;
}

/* Issues one step for weight/cache copy `copy` on x->stream and its side streams, joined
 * back into x->stream (inside a capture, this adds the step's nodes to the graph). */
mrt_status mrt_gpu_cmp_launch(mrt_gpu_exec *x, int copy) {
    const mrt_plan *p = x->p;
    const mrt_graph *g = x->g;
    cudaStream_t s[NSTREAMS] = {x->stream, x->side[0], x->side[1], x->side[2]};
    int tail[NSTREAMS], load[NSTREAMS] = {0}, on[MRT_MAX_OPS];
    bool used[NSTREAMS] = {true, false, false, false};
    cudaGraphNode_t node[MRT_MAX_OPS]; /* capture: each op's last kernel node (NULL: join by event) */
    cudaStreamCaptureStatus cs = cudaStreamCaptureStatusNone;
    const bool prog = MRT_CMP_CROSS_PDL && cudaStreamIsCapturing(s[0], &cs) == cudaSuccess &&
                      cs == cudaStreamCaptureStatusActive;
    x->cmp_prog_joins = 0;
    for (int k = 0; k < NSTREAMS; k++) tail[k] = -1;
    if (p->n_ops + NSTREAMS > MRT_CMP_EVENTS)
        return mrt_fail(x->ctx, MRT_ERR_LIMIT, "cmp: %d ops need more than %d events", p->n_ops, MRT_CMP_EVENTS);
    /* side streams start from the main stream's current point (the step's beginning) */
    cudaError_t e = cudaEventRecord(x->ev[MRT_CMP_EVENTS - 1], s[0]);
    for (int k = 1; k < NSTREAMS && !e; k++) e = cudaStreamWaitEvent(s[k], x->ev[MRT_CMP_EVENTS - 1], 0);
    if (e) return mrt_gpu_cuda_fail(x, e, "cmp: fork");
    for (int i = 0; i < p->n_ops; i++) {
        const mrt_op *op = &g->ops[p->ops[i]];
        /* producers (plan rows), each once; late[] = read only by the op's later kernels */
        int prod[MRT_MAX_OP_IO], np = 0;
        bool late[MRT_MAX_OP_IO];
        const int nfirst = mrt_gpu_op_first_inputs(op);
        for (int j = 0; j < op->n_in; j++) {
            int po = g->tensors[op->in[j]].producer;
            if (po < 0 || p->op_row[po] < 0) continue;
            int q = 0;
            while (q < np && prod[q] != p->op_row[po]) q++;
            if (q == np) prod[np] = p->op_row[po], late[np++] = j >= nfirst;
            else late[q] &= j >= nfirst;
        }
        int k = -1;
        for (int q = 0; q < np && k < 0; q++)
            for (int t = 0; t < NSTREAMS; t++)
                if (tail[t] == prod[q]) k = t;
        const bool follows = k >= 0; /* the stream's last op is a producer of this one */
        if (k < 0) { /* a fresh branch: the least loaded stream */
            k = 0;
            for (int t = 1; t < NSTREAMS; t++)
                if (load[t] < load[k]) k = t;
        }
        /* the PDL variant also where a producer on another stream is joined programmatically
         * (its wait covers that producer too) */
        const bool xprog = prog && (MRT_CMP_CROSS_PDL == 1 || follows);
        bool cross = false;
        for (int q = 0; q < np; q++) cross |= on[prod[q]] != k && node[prod[q]];
        const bool pdl = pdl_capable(op) && (follows || (xprog && cross));
        x->stamps.stream = k;
        for (int part = MRT_LAUNCH_FIRST; part <= MRT_LAUNCH_REST; part++) {
            for (int q = 0; q < np && !e; q++)
                if (on[prod[q]] != k && late[q] == (part == MRT_LAUNCH_REST))
                    e = join(s[k], x->ev[prod[q]], pdl && xprog ? node[prod[q]] : NULL, &x->cmp_prog_joins);
            if (e) return mrt_gpu_cuda_fail(x, e, "cmp: join");
            mrt_status st = mrt_gpu_launch_op_part(x, op, copy, s[k], pdl, part);
            if (st) return st;
        }
        if ((e = cudaEventRecord(x->ev[i], s[k]))) return mrt_gpu_cuda_fail(x, e, "cmp: record");
        node[i] = prog ? last_kernel_node(s[k]) : NULL;
        on[i] = k, tail[k] = i, used[k] = true;
        load[k]++;
    }
    for (int k = 1; k < NSTREAMS && !e; k++) { /* join every branch back into the main stream */
        if (!used[k]) continue;
        e = cudaEventRecord(x->ev[MRT_CMP_EVENTS - 1 - k], s[k]);
        if (!e) e = cudaStreamWaitEvent(s[0], x->ev[MRT_CMP_EVENTS - 1 - k], 0);
    }
    return e ? mrt_gpu_cuda_fail(x, e, "cmp: join back") : MRT_OK;
}

mrt_status mrt_gpu_cmp_edges(mrt_gpu_exec *x, int copy, mrt_cmp_edges *out) {
    if (!x || !out) return MRT_ERR_INVALID;
    memset(out, 0, sizeof *out);
    out->cross_pdl = MRT_CMP_CROSS_PDL;
    cudaGraph_t gr = NULL;
    cudaError_t e = cudaStreamBeginCapture(x->stream, cudaStreamCaptureModeThreadLocal);
    if (e) return mrt_gpu_cuda_fail(x, e, "cmp edges: begin capture");
    mrt_status st = mrt_gpu_cmp_launch(x, copy);
    e = cudaStreamEndCapture(x->stream, &gr);
    size_t n = 0;
    if (!st && !e) e = cudaGraphGetEdges(gr, NULL, NULL, NULL, &n);
    cudaGraphNode_t *from = (cudaGraphNode_t *)calloc(n + 1, sizeof *from), *to = (cudaGraphNode_t *)calloc(n + 1, sizeof *to);
    cudaGraphEdgeData *ed = (cudaGraphEdgeData *)calloc(n + 1, sizeof *ed);
    if (!st && !e && (!from || !to || !ed)) st = mrt_fail(x->ctx, MRT_ERR_NOMEM, "cmp edges: out of memory");
    if (!st && !e) e = cudaGraphGetEdges(gr, from, to, ed, &n);
    for (size_t i = 0; i < n && !st && !e; i++) out->prog += ed[i].type == cudaGraphDependencyTypeProgrammatic;
    out->edges = (int)n, out->joins = x->cmp_prog_joins;
    free(from), free(to), free(ed);
    if (gr) cudaGraphDestroy(gr);
    return st ? st : e ? mrt_gpu_cuda_fail(x, e, "cmp edges: capture") : MRT_OK;
}

mrt_status mrt_gpu_cmp_step(mrt_gpu_exec *x, int copy) {
    if (!x) return MRT_ERR_INVALID;
    return mrt_gpu_graph_step(x, copy, "cmp", mrt_gpu_cmp_launch, &x->cmp_graph[copy]);
}

void mrt_gpu_set_producer_delay(mrt_gpu_exec *x, unsigned ns) {
    if (!x) return;
    x->delay_ns = ns;
    for (int c = 0; c < MRT_MAX_COPIES; c++) /* captured graphs hold the old value */
        for (cudaGraphExec_t *ge : {&x->graph[c], &x->cmp_graph[c]})
            if (*ge) cudaGraphExecDestroy(*ge), *ge = NULL;
}
