/* The megakernel's OperandPtrTable (src/cuda/mega_op.h): one row per planned op and weight
 * copy, built on the host once per executor from the plan's tiling and the executor's device
 * buffers. GEMM rows reuse the standalone planners for their TMA descriptors and kernel
 * arguments, then take the plan's tiling: split 1 inside a tile, the activation box as tall
 * as the plan's M tile, the pipeline depth that fits the megakernel's shared memory. Every
 * refusal names the op and what the megakernel cannot run. */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>

#include "exec_internal.h"
#include "gemm_host.h"
#include "mega_op.h"
#include "ops.h"
#include "prefix_ops.h"

#define D(t) mrt_gpu_dev(x, (t), copy)

static mrt_status refuse(mrt_gpu_exec *x, const mrt_op *op, const char *what) {
    return mrt_fail(x->ctx, MRT_ERR_UNSUPPORTED, "mega: op %s (%s): %s", op->name, mrt_op_kind(op), what);
}

/* The plan's tile of a GEMM op: rows per tile (block_m) -> wgmma N. */
static mrt_status tile_width(mrt_gpu_exec *x, const mrt_op *op, int *tn) {
    const int bm = x->p->cfg[op->id].block_m;
    if (bm < 1 || bm > 128) return refuse(x, op, "M tiles of more than 128 rows (wgmma N <= 128)");
    *tn = mrt_gemm_pick_tn(bm);
    return MRT_OK;
}

/* A GEMM tile's ring in the megakernel: at most MRT_MEGA_RING_BYTES of weights (4 stages of
 * fp8 or K-major bf16, 2 of the MN-major bf16 kind's 32 KB), where shared memory holds more (up
 * to MRT_GEMM_MAX_STAGES, 8). Every tile streams its first stages before its input is ready, so
 * at the step's start ~130 tiles put their rings' weights in flight at once (8 stages: ~17 MB
 * at GLM-5 M=16, ~4 us of the HBM), and every one-shot load behind them (A0's rows, the
 * finalizations' planes, E1's keys, F1's rows) waits that long. Measured (H200, session 32 runs
 * 2-3, MRT_MEGA_STAGES, same build): every ring at 4 stages faster at all 11 shapes tried, M=16
 * KV=8192 64.0-64.1 us against 65.9-66.0 (A0 done 7.5 against 8.5, every later link shorter),
 * KV=65536 115.2 against 121.1, M=64 KV=8192 104.0 against 108.4, M=1 KV=1024 54.5 against
 * 57.1; 3 and 5 stages in between, 2 slower (67.9); capping D0 alone (the op that streams
 * after its input) did not pay, nor B0 / D1 / D0 at 3, 5 or 6 around the others' 4 (run 5).
 * D2's stages are twice the bytes: 2 instead of 3 (run 6, A B in one run: M=16 KV=8192 63.6 /
 * 63.7 against 64.0 / 63.9, KV=65536 114.3 against 115.9, M=1 KV=1024 -0.3, M=128 KV=1024
 * level, M=64 KV=8192 +0.6). */
#ifndef MRT_MEGA_RING_BYTES
#define MRT_MEGA_RING_BYTES 65536
#endif

/* An experiment knob's value for op `name` (*v; `dflt` where the environment does not say)
 * from the environment variable `var`: "N" every GEMM op, "OP=N,OP=N" the ops named (e.g.
 * "D0=2,B0=6"); N in 1..MRT_GEMM_MAX_STAGES. Returns nonzero on a value that is not one of
 * these. MRT_MEGA_STAGES caps the rings' depth. */
static int op_env_stages(const char *var, const char *name, int dflt, int *v) {
    const char *s = getenv(var), *p = s;
    *v = dflt;
    if (!s || !*s) return 0;
    const size_t n = strlen(name);
    while (*p) {
        const char *eq = strchr(p, '='), *end = strchr(p, ',');
        if (!end) end = p + strlen(p);
        const bool named = eq && eq < end;
        if (!named && p != s) return 1; /* "N" stands alone */
        char *num_end;
        const long x = strtol(named ? eq + 1 : p, &num_end, 10);
        if (num_end != end || x < 1 || x > MRT_GEMM_MAX_STAGES) return 1;
        if (!named || ((size_t)(eq - p) == n && !strncmp(p, name, n))) *v = (int)x;
        if (!named && *end) return 1;
        p = *end ? end + 1 : end;
    }
    return 0;
}

/* Takes a standalone plan's weight descriptor, arguments and output store into the row, with
 * the pipeline for `kbs` K blocks a tile of `kind` (the plan's, or MRT_GEMM_FP8_TALL for its
 * tall tiles) that fits `smem` bytes (at most the ring's cap). */
static mrt_status adopt(mrt_gpu_exec *x, const mrt_op *op, const mrt_gpu_gemm *plan, int kind, int kbs, int smem,
                        mrt_mega_op *o) {
    int bytes, cap;
    const int wbytes = mrt_gemm_kind_visit(kind, [](auto k) { return (int)mrt_gemm_kind<decltype(k)::value>::W_BYTES; });
    if (op_env_stages("MRT_MEGA_STAGES", op->name, MRT_MEGA_RING_BYTES / wbytes > 1 ? MRT_MEGA_RING_BYTES / wbytes : 1,
                      &cap))
        return refuse(x, op, "MRT_MEGA_STAGES is not N or OP=N,OP=N,... (N: 1..8 ring stages)");
    memcpy(&o->tw, plan->tmap_w, sizeof o->tw);
    memcpy(&o->ga, plan->args, sizeof o->ga);
    memcpy(&o->out, plan->epi, sizeof o->out);
    o->ga.kb_per_split = kbs;
    o->ga.stages = mrt_gemm_pick_stages_in(kind, o->tn, kbs, smem, &bytes);
    if (cap < o->ga.stages) o->ga.stages = cap;
    return o->ga.stages < 1 ? refuse(x, op, "one pipeline stage does not fit shared memory") : MRT_OK;
}

/* gemm_fp8 with its finalization. Partials: [nsplit][M][N] fp32 in x->mega.part[op]. */
static mrt_status row_gemm_fp8(mrt_gpu_exec *x, const mrt_op *op, int copy, int smem, mrt_mega_op *o) {
    const mrt_graph *g = x->g;
    const int M = (int)op_in(g, op, 0)->dims[0], K = (int)op_in(g, op, 0)->dims[1], N = (int)op_in(g, op, 2)->dims[0];
    const int epi = op->p.i[0], bn = x->p->cfg[op->id].block_n;
    int64_t kbs, nsplit = mrt_split_blocks(K / 128, x->p->cfg[op->id].split, &kbs);
    mrt_status st = tile_width(x, op, &o->tn);
    if (st) return st;
    if (bn % 64 || (epi == MRT_EPI_QKV_A && bn % 128))
        return refuse(x, op, "N tiles must be multiples of 64 (QKV_A: 128, its q scale blocks)");
    /* a tile of up to 128 rows, or up to 256 as a tall tile (mega_gemm.cuh picks the kind by
     * the tile's rows) where the build has them and their registers allow: two accumulators a
     * warpgroup */
    const bool tall = bn > 128;
    if (tall && !MRT_MEGA_TALL)
        return refuse(x, op, "N tiles of more than 128 rows (--block-n) need a build with -DMRT_MEGA_TALL=1 (gpu.h)");
    if (bn > 256 || (tall && o->tn > MRT_GEMM_TALL_TN))
        return refuse(x, op, "N tiles of more than 128 rows (tall, up to 256) need tiles of at most 32 tokens");
    if (epi == MRT_EPI_Q_B && (op->p.i[2] % 64 || op->p.i[3] > 64))
        return refuse(x, op, "Q_B heads need nope a multiple of 64 and rope <= 64 (a head's rope columns in one tile)");
    op_state *s = &x->op[op->id];
    float *part = x->mega.part[op->id];
    if (!part) {
        cudaError_t e = cudaMalloc((void **)&part, (size_t)nsplit * M * N * 4);
        if (e) return mrt_gpu_cuda_fail(x, e, "mega: split partials");
        x->mega.part[op->id] = part;
    }
    mrt_gpu_gemm_fp8_args ga;
    memset(&ga, 0, sizeof ga);
    ga.M = M, ga.N = N, ga.K = K, ga.split = 1;
    ga.x8 = D(op->in[0]), ga.sx = (const float *)D(op->in[1]), ga.w = D(op->in[2]), ga.sw = (const float *)D(op->in[3]);
    ga.out = part, ga.out_ld = N, ga.out_f32 = 1;
    mrt_gpu_gemm plan;
    if (mrt_gpu_gemm_fp8_plan(&plan, &ga, x->why, sizeof x->why) ||
        mrt_tmap_2d(&o->tx, ga.x8, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, K, M, K, 128, o->tn, x->why, sizeof x->why))
        return refuse(x, op, x->why);
    if ((st = adopt(x, op, &plan, tall ? MRT_GEMM_FP8_TALL : MRT_GEMM_FP8, (int)kbs, smem, o))) return st;
    o->ga.sx_tma = mrt_gemm_sx_map(&o->tsx, ga.sx, M, K / 128, o->tn, (int)kbs);
    o->plane = (long long)M * N, o->part = part, o->nsplit = (int)nsplit, o->epi_kind = epi;
    /* the finalization: the serial executor's arguments (Q_B's roped q_pe straight into the
     * query, mrt_gpu_q_b_query), but INDEX_Q sums the gate's split partials */
    mrt_gpu_epi e;
    memset(&e, 0, sizeof e);
    e.epi = epi, e.c = s->c, e.ip = op->p.i, e.eps = op->p.f[0], e.M = M, e.K = K, e.N = N;
    for (int j = 0; j < op->n_in; j++) e.in[j] = D(op->in[j]);
    for (int j = 0; j < op->n_out; j++) e.out[j] = D(op->out[j]);
    if (epi == MRT_EPI_Q_B && (st = mrt_gpu_q_b_query(x, op, copy, &e))) return st;
    if (epi == MRT_EPI_INDEX_Q) e.gate_partials = x->p->tensors[op->in[5]].partials;
    int units, threads;
    if (mrt_epi_fill(&e, &o->epi, &units, &threads, x->why, sizeof x->why)) return refuse(x, op, x->why);
    /* Q_B unsplit: each tile holds final sums, and Q_B is element-wise, so the tile's store
     * runs it (the serial executor's fused D0: the same operations on the same sums, so the
     * same bytes) instead of a lone tile's finalization jobs after the store (session 9 run
     * 3's trace: D0 tiles 14.3 us to compute, then 14.7 to publish). -DMRT_MEGA_NO_FUSED_Q_B:
     * the jobs, which also serve a layout the fused store does not take (its 8-column
     * groups need nope, rope and the query's width multiples of 8). */
    o->fused_q_b = 0;
#ifndef MRT_MEGA_NO_FUSED_Q_B
    if (epi == MRT_EPI_Q_B && nsplit == 1) {
        char why[160];
        o->fused_q_b = mrt_epi_q_b_fused_of(o->epi, N, &o->qbf, why, sizeof why) == 0;
    }
#endif
    return MRT_OK;
}

/* gemm_bf16 (C0): each split writes its own plane of the partial output (tile_reduce). */
static mrt_status row_gemm_bf16(mrt_gpu_exec *x, const mrt_op *op, int copy, int smem, mrt_mega_op *o) {
    const mrt_graph *g = x->g;
    const int M = (int)op_in(g, op, 0)->dims[0], K = (int)op_in(g, op, 0)->dims[1], N = (int)op_in(g, op, 1)->dims[0];
    int64_t kbs, nsplit = mrt_split_blocks(K / 128, x->p->cfg[op->id].split, &kbs);
    mrt_status st = tile_width(x, op, &o->tn);
    if (st) return st;
    if (x->p->tensors[op->out[0]].partials != nsplit) return refuse(x, op, "output partials differ from the split");
    mrt_gpu_gemm_bf16_args ga;
    memset(&ga, 0, sizeof ga);
    ga.M = M, ga.N = N, ga.K = K, ga.batches = 1, ga.split = 1;
    ga.x = D(op->in[0]), ga.x_ld = K, ga.w = D(op->in[1]);
    ga.out = D(op->out[0]), ga.out_ld = N, ga.out_f32 = 1;
    mrt_gpu_gemm plan;
    if (mrt_gpu_gemm_bf16_plan(&plan, &ga, x->why, sizeof x->why) ||
        mrt_tmap_2d(&o->tx, ga.x, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, K, M, (uint64_t)K * 2, 64, o->tn, x->why,
                    sizeof x->why))
        return refuse(x, op, x->why);
    if ((st = adopt(x, op, &plan, plan.kind, 2 * (int)kbs, smem, o))) return st; /* bf16 K blocks are 64 wide */
    o->plane = (long long)M * N, o->nsplit = (int)nsplit;
    return MRT_OK;
}

/* bmm_bf16 (D2): per head, MN-major weights, into the query's first C columns (D0 wrote its
 * last R, the roped q_pe: mrt_gpu_q_b_query). */
static mrt_status row_bmm_bf16(mrt_gpu_exec *x, const mrt_op *op, int copy, int smem, mrt_mega_op *o) {
    const mrt_graph *g = x->g;
    const mrt_tensor *q = op_in(g, op, 0), *pe = op_in(g, op, 1), *w = op_in(g, op, 2);
    const int M = (int)q->dims[0], H = (int)q->dims[1], Dn = (int)q->dims[2], C = (int)w->dims[2], R = (int)pe->dims[2];
    if (x->p->cfg[op->id].block_n % 64) return refuse(x, op, "N tiles must be multiples of 64");
    mrt_status st = tile_width(x, op, &o->tn);
    if (st) return st;
    mrt_gpu_gemm_bf16_args ga;
    memset(&ga, 0, sizeof ga);
    ga.M = M, ga.N = C, ga.K = Dn, ga.batches = H, ga.split = 1;
    ga.x = D(op->in[0]), ga.x_ld = (long long)H * Dn, ga.x_batch_col = Dn, ga.w = D(op->in[2]), ga.w_mn_major = 1;
    ga.out = D(op->out[0]), ga.out_ld = (long long)H * (C + R), ga.out_batch_stride = C + R, ga.out_f32 = 0;
    mrt_gpu_gemm plan;
    if (mrt_gpu_gemm_bf16_plan(&plan, &ga, x->why, sizeof x->why) ||
        mrt_tmap_2d(&o->tx, ga.x, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, ga.x_ld, M, (uint64_t)ga.x_ld * 2, 64, o->tn,
                    x->why, sizeof x->why))
        return refuse(x, op, x->why);
    if ((st = adopt(x, op, &plan, plan.kind, Dn / 64, smem, o))) return st;
    o->plane = 0, o->nsplit = 1;
    return MRT_OK;
}

static mrt_status row_of(mrt_gpu_exec *x, const mrt_op *op, int copy, int smem, mrt_mega_op *o) {
    const mrt_graph *g = x->g;
    memset(o, 0, sizeof *o);
    switch (op->kind) {
    case MRT_OPC_ADD_RMSNORM_QUANT: {
        const int H = (int)op_in(g, op, 0)->dims[1];
        if (H % 128 || H / 16 > MRT_MEGA_THREADS) return refuse(x, op, "hidden must be a multiple of 128, <= 16 x 384");
        mrt_a0_args &a = o->a0;
        a.h = (const uint16_t *)D(op->in[0]), a.res = (const uint16_t *)D(op->in[1]), a.w = (const uint16_t *)D(op->in[2]);
        a.r_new = (uint16_t *)D(op->out[0]), a.x = (uint16_t *)D(op->out[1]), a.x8 = (uint8_t *)D(op->out[2]);
        a.sx = (float *)D(op->out[3]), a.H = H, a.eps = op->p.f[0], a.delay_ns = 0;
        return MRT_OK;
    }
    case MRT_OPC_GEMM_FP8: return row_gemm_fp8(x, op, copy, smem, o);
    case MRT_OPC_GEMM_BF16: return row_gemm_bf16(x, op, copy, smem, o);
    case MRT_OPC_BMM_BF16: return row_bmm_bf16(x, op, copy, smem, o);
    case MRT_OPC_INDEX_LOGITS: {
        const mrt_tensor *q = op_in(g, op, 0);
        const int M = (int)q->dims[0], heads = (int)q->dims[1], dim = (int)q->dims[2];
        const int batch = op->p.i[4], kv = op->p.i[5], bt = op->p.i[6];
        if (dim != MRT_IL_DIM || heads < 1 || heads > 64 || bt % 4)
            return refuse(x, op, "needs head dim 128, 1..64 heads, block_tokens a multiple of 4");
        mrt_index_logits_args &a = o->il;
        a.q8 = (const uint8_t *)D(op->in[0]), a.wI = (const float *)D(op->in[1]), a.cache = (const uint8_t *)D(op->in[2]);
        a.pos = (const int *)D(op->in[3]), a.block_table = (const int *)D(op->in[4]), a.logits = (float *)D(op->out[0]);
        a.M = M, a.batch = batch, a.n = M / batch, a.kv = kv, a.heads = heads;
        mrt_il_set_blocks(a, bt);
        a.chunk = x->p->cfg[op->id].chunk, a.nchunks = (kv + a.chunk - 1) / a.chunk;
#ifndef MRT_E1_MMA_SYNC
        const int il_bytes = heads == 32 || heads == 64 ? mrt_ilw_layout<MRT_MEGA_ILW_STAGES, MRT_MEGA_ILW_GROUPS>::SMEM_BYTES
                                                        : mrt_il_layout<MRT_IL_F16>::SMEM_BYTES;
#else
        const int il_bytes = mrt_il_layout<MRT_IL_F16>::SMEM_BYTES;
#endif
        if (il_bytes > smem) return refuse(x, op, "its tile does not fit shared memory");
#ifndef MRT_E1_MMA_SYNC
        if (heads == 32 || heads == 64) { /* the wgmma tile loads through TMA (index_logits_wg.cuh) */
            const int R = mrt_ilw_box_rows(bt);
            if (R < 8 || (bt < MRT_ILW_KEYS ? MRT_ILW_KEYS % bt : bt % MRT_ILW_KEYS) || a.chunk % R)
                return refuse(x, op, "its tile loads keys as TMA boxes of whole cache blocks (or 128 keys of "
                                     "one): block_tokens must be 8, 16, 32, 64 or a multiple of 128 (the chunk a "
                                     "multiple of 128)");
            const mrt_tensor *c = op_in(g, op, 2);
            if (mrt_tmap_3d(&o->tw, a.cache, CU_TENSOR_MAP_DATA_TYPE_UINT8, MRT_IL_DIM, (uint64_t)bt,
                            (uint64_t)c->dims[0], MRT_IL_DIM, (uint64_t)a.block_bytes, MRT_IL_DIM, (uint32_t)R, x->why,
                            sizeof x->why) ||
                mrt_tmap_2d(&o->tx, a.q8, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, MRT_IL_DIM, (uint64_t)M * heads, MRT_IL_DIM,
                            MRT_IL_DIM, 128, x->why, sizeof x->why))
                return refuse(x, op, x->why);
        }
#endif
        return MRT_OK;
    }
    case MRT_OPC_TOPK: {
        const mrt_tensor *l = op_in(g, op, 0);
        mrt_topk_args &a = o->tk;
        a.logits = (const float *)D(op->in[0]), a.out = (int *)D(op->out[0]);
        a.M = (int)l->dims[0], a.kv = (int)l->dims[1], a.k = op->p.i[0];
        if (a.k < 1) return refuse(x, op, "k must be >= 1");
        a.cache_keys = a.kv <= MRT_TOPK_CACHE_MAX && mrt_topk_smem_bytes(a.kv, a.kv) <= smem ? a.kv : 0;
        /* longer rows: 24-bit key prefixes in shared memory when they fit (rows 16-byte aligned:
         * logits from cudaMalloc, kv a multiple of 4), else the row read twice */
        a.cache24 = !a.cache_keys && mrt_topk_runs24_fits(a.kv, a.logits, smem) ? a.kv : 0;
        if (!a.cache24 && mrt_topk_smem_bytes(a.kv, a.cache_keys) > smem)
            return refuse(x, op, "its row state does not fit shared memory");
        int64_t slice;
        const int64_t slices = mrt_topk_slices(a.kv, x->p->cfg[op->id].split, &slice);
        if (slices <= 1) return MRT_OK;
        /* a row over several workers (topk.c): pairs and G arrays in x->mega.part[op], shared
         * by the weight copies (steps do not overlap) */
        if (mrt_topk_merge_smem_bytes(a.kv) > smem) return refuse(x, op, "its row's merge does not fit shared memory");
        a.slice_cache = mrt_topk_slice_cache(slice, smem);
        const size_t words = (size_t)a.M * 2 * a.kv + (size_t)a.M * slices * MRT_TOPK_GW;
        if (!x->mega.part[op->id]) {
            cudaError_t e = cudaMalloc((void **)&x->mega.part[op->id], words * 4);
            if (e) return mrt_gpu_cuda_fail(x, e, "mega: top-k slices");
        }
        a.ent = (uint32_t *)x->mega.part[op->id], a.cnt = a.ent + (size_t)a.M * 2 * a.kv;
        return MRT_OK;
    }
    default: return refuse(x, op, "no megakernel code for this op kind");
    }
}

mrt_status mrt_gpu_mega_table(mrt_gpu_exec *x, int smem, void *rows_host) {
    mrt_mega_op *rows = (mrt_mega_op *)rows_host;
    for (int copy = 0; copy < x->copies; copy++)
        for (int i = 0; i < x->p->n_ops; i++) {
            mrt_status st = row_of(x, &x->g->ops[x->p->ops[i]], copy, smem, rows + (size_t)copy * x->p->n_ops + i);
            if (st) return st;
        }
    return MRT_OK;
}
