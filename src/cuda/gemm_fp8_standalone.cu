/* Standalone FP8 block-scaled GEMM: planning (shape checks, TMA descriptors, tile width,
 * split-K, stages) and the kernel instantiations. Device code: src/ops/gemm_fp8.cuh. */
#include <string.h>

#include "gemm_host.h"
#include "gemm_kernel.cuh"
#include "../ops/gemm_fp8_epilogues.cuh" /* mrt_epi_q_b_fused, mrt_epi_fill */
#include "ops.h" /* MRT_EPI_Q_B */
#include "prefix_ops.h"

template <class Wait, bool TRACE = false, class Epi = mrt_epi_store> static const void *mrt_fp8_kernel(int tn) {
    switch (tn) {
    case 8: return (const void *)mrt_gemm_kernel<MRT_GEMM_FP8, 8, Wait, Epi, TRACE>;
    case 16: return (const void *)mrt_gemm_kernel<MRT_GEMM_FP8, 16, Wait, Epi, TRACE>;
    case 32: return (const void *)mrt_gemm_kernel<MRT_GEMM_FP8, 32, Wait, Epi, TRACE>;
    case 64: return (const void *)mrt_gemm_kernel<MRT_GEMM_FP8, 64, Wait, Epi, TRACE>;
    case 128: return (const void *)mrt_gemm_kernel<MRT_GEMM_FP8, 128, Wait, Epi, TRACE>;
    }
    return NULL;
}

template <class Epi> static const void *mrt_fp8_traced_of(const void *kernel) {
    for (int tn = 8; tn <= 128; tn *= 2) {
        if (kernel == mrt_fp8_kernel<mrt_wait_none, false, Epi>(tn)) return mrt_fp8_kernel<mrt_wait_none, true, Epi>(tn);
        if (kernel == mrt_fp8_kernel<mrt_wait_griddep, false, Epi>(tn))
            return mrt_fp8_kernel<mrt_wait_griddep, true, Epi>(tn);
    }
    return NULL;
}

const void *mrt_gemm_fp8_traced(const void *kernel) {
    const void *k = mrt_fp8_traced_of<mrt_epi_store>(kernel);
    return k ? k : mrt_fp8_traced_of<mrt_epi_q_b_fused>(kernel);
}

static_assert(sizeof(mrt_epi_q_b_fused) <= sizeof(((mrt_gpu_gemm *)0)->epi), "mrt_epi_q_b_fused outgrew mrt_gpu_gemm.epi");
static_assert(sizeof(mrt_gemm_args) <= sizeof(((mrt_gpu_gemm *)0)->args), "mrt_gemm_args outgrew mrt_gpu_gemm.args");
static_assert(sizeof(mrt_epi_store) <= sizeof(((mrt_gpu_gemm *)0)->epi), "mrt_epi_store outgrew mrt_gpu_gemm.epi");

/* The planner's split (and reduction path: *cluster > 1 = through a cluster of that size). */
static int mrt_fp8_split(int M, int N, int K, int split, int allow_cluster, int *cluster) {
    const int tn = mrt_gemm_pick_tn(M), nchunks = (M + tn - 1) / tn, ntiles = (N + 127) / 128;
    const int mc = M < tn ? M : tn;
    /* valid weight bytes per K block per tile, on average (the last tile may hold 64 rows) */
    const double wb = (double)N / ntiles * 128.0;
    return mrt_gemm_pick_split(MRT_GEMM_FP8, tn, mrt_fp8_kernel<mrt_wait_none>(tn), ntiles * nchunks, K / 128, wb,
                               (double)mc * (N / ntiles) * 4.0, split, allow_cluster, cluster);
}

extern "C" size_t mrt_gpu_gemm_workspace_bytes(int kind, int M, int N, int K, int batches, int split) {
    if (M < 1 || N < 1 || K < 1) return 0;
    const int tn = mrt_gemm_pick_tn(M), nchunks = (M + tn - 1) / tn;
    int cl = 1;
    if (kind == MRT_GEMM_FP8) {
        if (split <= 0) split = mrt_fp8_split(M, N, K, 0, 0, &cl);
        return mrt_gemm_ws_bytes(1, nchunks, (N + 127) / 128, split, M, N);
    }
    if (split <= 0) split = mrt_bf16_split(M, N, K, batches, kind == MRT_GEMM_BF16_MN, 0, 0, &cl);
    const int bn = kind == MRT_GEMM_BF16_MN ? 256 : 128;
    return mrt_gemm_ws_bytes(batches, nchunks, (N + bn - 1) / bn, split, M, N);
}

int mrt_epi_q_b_fused_of(const mrt_epi_args &a, int N, mrt_epi_q_b_fused *q, char *why, size_t n) {
    if (a.nope % 8 || a.rope % 8 || a.qmla_width % 8 || a.qmla_rope_at % 8 || (uintptr_t)a.q_nope % 16 ||
        (uintptr_t)a.qmla % 16 || a.heads * (a.nope + a.rope) != N)
        return mrt_gpu_fail(why, n, "gemm_fp8: fused q_b: %d heads of %d + %d columns, query width %d at %d (N = %d; "
                            "multiples of 8, 16-byte aligned outputs)", a.heads, a.nope, a.rope, a.qmla_width,
                            a.qmla_rope_at, N);
    *q = mrt_epi_q_b_fused{a.ssq_in, a.rope_cs, a.pos, a.q_nope, a.qmla, a.heads, a.nope, a.rope,
                           a.qmla_width, a.qmla_rope_at, a.K, a.eps, a.head_of_col};
    return 0;
}

/* The fused Q_B store's arguments from the op's finalization (x->fused); 0 or -1. */
static int fused_q_b(const mrt_gpu_gemm_fp8_args *x, mrt_epi_q_b_fused *q, char *why, size_t n) {
    mrt_epi_args a;
    int units, threads;
    if (x->fused->epi != MRT_EPI_Q_B) return mrt_gpu_fail(why, n, "gemm_fp8: epilogue %d cannot be fused (Q_B only)", x->fused->epi);
    if (x->fused->M != x->M || x->fused->N != x->N || x->fused->K != x->K)
        return mrt_gpu_fail(why, n, "gemm_fp8: fused epilogue of %d x %d x %d on a GEMM of %d x %d x %d", x->fused->M,
                            x->fused->N, x->fused->K, x->M, x->N, x->K);
    if (mrt_epi_fill(x->fused, &a, &units, &threads, why, n)) return -1;
    return mrt_epi_q_b_fused_of(a, x->N, q, why, n);
}

int mrt_gemm_sx_map(void *tmap, const float *sx, int M, int sx_ld, int tn, int kb_per_cta) {
    const int pitch = mrt_gemm_sx_pitch(kb_per_cta);
    char why[160];
    if (!MRT_GEMM_SX_TMA || sx_ld % 4 || (uintptr_t)sx % 16 || pitch > 256 || tn > 256) return 0;
    return mrt_tmap_2d_flat(tmap, sx, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, (uint64_t)sx_ld, (uint64_t)M,
                            (uint64_t)sx_ld * 4, (uint32_t)pitch, (uint32_t)tn, why, sizeof why) == 0;
}

extern "C" int mrt_gpu_gemm_fp8_plan(mrt_gpu_gemm *g, const mrt_gpu_gemm_fp8_args *x, char *why, size_t n) {
    memset(g, 0, sizeof *g);
    if (x->M < 1) return mrt_gpu_fail(why, n, "gemm_fp8: M = %d, need at least one token", x->M);
    if (x->N < 64 || x->N % 64)
        return mrt_gpu_fail(why, n, "gemm_fp8: N = %d is not a positive multiple of 64", x->N);
    if (x->K < 128 || x->K % 128)
        return mrt_gpu_fail(why, n, "gemm_fp8: K = %d is not a positive multiple of 128", x->K);
    if (!x->x8 || !x->sx || !x->w || !x->sw || (!x->out && !x->fused))
        return mrt_gpu_fail(why, n, "gemm_fp8: a NULL pointer among x8, sx, w, sw, out");
    if (!x->fused && (x->out_ld < x->N || x->out_ld % 8))
        return mrt_gpu_fail(why, n, "gemm_fp8: out_ld = %lld must be >= N = %d and a multiple of 8", x->out_ld, x->N);
    if (!x->fused && (uintptr_t)x->out % 16) return mrt_gpu_fail(why, n, "gemm_fp8: out is not 16-byte aligned");
    const int M = x->M, N = x->N, K = x->K, nkb = K / 128;
    const int tn = mrt_gemm_pick_tn(M), nchunks = (M + tn - 1) / tn, ntiles = (N + 127) / 128;
    if (x->split < 0 || (x->split > 0 && nkb % x->split))
        return mrt_gpu_fail(why, n, "gemm_fp8: split %d does not divide the %d K blocks of K = %d", x->split, nkb, K);
    if (x->partials_out && !x->out_f32)
        return mrt_gpu_fail(why, n, "gemm_fp8: partials_out needs out_f32 (the planes are fp32 sums)");
    mrt_epi_q_b_fused qf;
    if (x->fused && fused_q_b(x, &qf, why, n)) return -1;
    int cluster = 1;
    const int allow_cluster = x->partials_out || x->reduce_cluster < 0 ? 0 : x->reduce_cluster > 0 ? 1 : 2;
    const int split = x->fused ? 1 : mrt_fp8_split(M, N, K, x->split, allow_cluster, &cluster);
    if (x->fused && x->split > 1)
        return mrt_gpu_fail(why, n, "gemm_fp8: a fused epilogue needs split 1, given %d", x->split);
    int smem = 0;
    const int stages = mrt_gemm_pick_stages(MRT_GEMM_FP8, tn, nkb / split, &smem);
    if (stages < 1) return mrt_gpu_fail(why, n, "gemm_fp8: M = %d, split %d does not fit shared memory", M, split);

    mrt_gemm_args a;
    memset(&a, 0, sizeof a);
    a.diag = mrt_gpu_diag();
    a.M = M, a.N = N, a.K = K, a.batches = 1;
    a.ntiles = ntiles, a.nchunks = nchunks, a.split = split, a.kb_per_split = nkb / split, a.stages = stages;
    a.sx = x->sx, a.sw = x->sw, a.sx_ld = nkb, a.sw_ld = nkb;
    a.cluster = cluster > 1;
    g->workspace_need = cluster > 1 ? 0 : mrt_gemm_ws_bytes(1, nchunks, ntiles, split, M, N);
    if (split > 1 && cluster == 1) {
        if (!x->workspace || x->workspace_bytes < g->workspace_need)
            return mrt_gpu_fail(why, n, "gemm_fp8: split %d needs a workspace of %zu bytes, given %zu", split,
                                g->workspace_need, x->workspace ? x->workspace_bytes : (size_t)0);
        mrt_gemm_ws_split(x->workspace, 1, nchunks, ntiles, &a.tickets, &a.partial);
        a.partials_only = x->partials_out ? 1 : 0;
        g->partials = x->partials_out ? a.partial : NULL;
    }
    if (mrt_tmap_2d(g->tmap_w, x->w, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, K, N, K, 128, 128, why, n)) return -1;
    if (mrt_tmap_2d(g->tmap_x, x->x8, CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, K, M, K, 128, tn, why, n)) return -1;
    a.sx_tma = mrt_gemm_sx_map(g->tmap_sx, x->sx, M, nkb, tn, a.kb_per_split);
    memcpy(g->args, &a, sizeof a);
    if (x->fused) {
        memcpy(g->epi, &qf, sizeof qf);
        g->kernel = mrt_fp8_kernel<mrt_wait_none, false, mrt_epi_q_b_fused>(tn);
        g->kernel_pdl = mrt_fp8_kernel<mrt_wait_griddep, false, mrt_epi_q_b_fused>(tn);
    } else {
        mrt_epi_store e = {x->out, x->out_ld, 0, x->out_f32 ? 1 : 0};
        memcpy(g->epi, &e, sizeof e);
        g->kernel = mrt_fp8_kernel<mrt_wait_none>(tn);
        g->kernel_pdl = mrt_fp8_kernel<mrt_wait_griddep>(tn);
    }
    g->kind = MRT_GEMM_FP8, g->tn = tn, g->split = split, g->stages = stages, g->sx_tma = a.sx_tma;
    g->grid = ntiles * nchunks * split, g->smem_bytes = smem, g->cluster = cluster;
    return mrt_gemm_allow(g, "gemm_fp8", why, n);
}
