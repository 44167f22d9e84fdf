/* Standalone BF16 GEMMs (head gate C0: K-major W; W_UK absorption D2: MN-major, batched):
 * planning and kernel instantiations. Device code: src/ops/gemm_bf16.cuh. */
#include <string.h>

#include "gemm_host.h"
#include "gemm_kernel.cuh"

template <int KIND, class Wait, bool TRACE = false> static const void *mrt_bf16_kernel(int tn) {
    switch (tn) {
    case 8: return (const void *)mrt_gemm_kernel<KIND, 8, Wait, mrt_epi_store, TRACE>;
    case 16: return (const void *)mrt_gemm_kernel<KIND, 16, Wait, mrt_epi_store, TRACE>;
    case 32: return (const void *)mrt_gemm_kernel<KIND, 32, Wait, mrt_epi_store, TRACE>;
    case 64: return (const void *)mrt_gemm_kernel<KIND, 64, Wait, mrt_epi_store, TRACE>;
    case 128: return (const void *)mrt_gemm_kernel<KIND, 128, Wait, mrt_epi_store, TRACE>;
    }
    return NULL;
}

template <int KIND> static const void *mrt_bf16_traced_of(const void *kernel) {
    for (int tn = 8; tn <= 128; tn *= 2) {
        if (kernel == mrt_bf16_kernel<KIND, mrt_wait_none>(tn)) return mrt_bf16_kernel<KIND, mrt_wait_none, true>(tn);
        if (kernel == mrt_bf16_kernel<KIND, mrt_wait_griddep>(tn))
            return mrt_bf16_kernel<KIND, mrt_wait_griddep, true>(tn);
    }
    return NULL;
}

const void *mrt_gemm_bf16_traced(const void *kernel) {
    const void *k = mrt_bf16_traced_of<MRT_GEMM_BF16>(kernel);
    return k ? k : mrt_bf16_traced_of<MRT_GEMM_BF16_MN>(kernel);
}

int mrt_bf16_split(int M, int N, int K, int batches, int mn, int split, int allow_cluster, int *cluster) {
    *cluster = 1;
    if (mn) return 1; /* K is one head's 192: three K blocks, nothing to split */
    const int tn = mrt_gemm_pick_tn(M), nchunks = (M + tn - 1) / tn, ntiles = (N + 127) / 128;
    const int mc = M < tn ? M : tn, rows = N < 128 ? N : 128;
    return mrt_gemm_pick_split(MRT_GEMM_BF16, tn, mrt_bf16_kernel<MRT_GEMM_BF16, mrt_wait_none>(tn),
                               ntiles * nchunks * batches, K / 64, rows * 128.0, (double)mc * rows * 4.0, split,
                               allow_cluster, cluster);
}

extern "C" int mrt_gpu_gemm_bf16_plan(mrt_gpu_gemm *g, const mrt_gpu_gemm_bf16_args *x, char *why, size_t n) {
    memset(g, 0, sizeof *g);
    const int mn = x->w_mn_major ? 1 : 0, kind = mn ? MRT_GEMM_BF16_MN : MRT_GEMM_BF16;
    const int M = x->M, N = x->N, K = x->K, B = x->batches;
    if (M < 1) return mrt_gpu_fail(why, n, "gemm_bf16: M = %d, need at least one token", M);
    if (B < 1 || (!mn && B != 1))
        return mrt_gpu_fail(why, n, "gemm_bf16: batches = %d (K-major weights take exactly 1)", B);
    if (N < 8 || N % (mn ? 64 : 8))
        return mrt_gpu_fail(why, n, "gemm_bf16: N = %d is not a positive multiple of %d", N, mn ? 64 : 8);
    if (K < 64 || K % 64) return mrt_gpu_fail(why, n, "gemm_bf16: K = %d is not a positive multiple of 64", K);
    if (!x->x || !x->w || !x->out) return mrt_gpu_fail(why, n, "gemm_bf16: a NULL pointer among x, w, out");
    if (x->x_ld % 8 || x->x_batch_col % 8)
        return mrt_gpu_fail(why, n, "gemm_bf16: x_ld = %lld and x_batch_col = %lld must be multiples of 8", x->x_ld,
                            x->x_batch_col);
    if (x->x_ld < (long long)(B - 1) * x->x_batch_col + K)
        return mrt_gpu_fail(why, n, "gemm_bf16: x rows of %lld elements cannot hold batch %d's K = %d columns",
                            x->x_ld, B - 1, K);
    if (x->out_ld % 8 || x->out_batch_stride % 8 || (uintptr_t)x->out % 16)
        return mrt_gpu_fail(why, n, "gemm_bf16: out must be 16-byte aligned with out_ld, out_batch_stride multiples of 8");
    const int bn = mn ? 256 : 128, nkb = K / 64;
    const int tn = mrt_gemm_pick_tn(M), nchunks = (M + tn - 1) / tn, ntiles = (N + bn - 1) / bn;
    if (x->split < 0 || (x->split > 0 && nkb % x->split) || (mn && x->split > 1))
        return mrt_gpu_fail(why, n, "gemm_bf16: split %d does not divide the %d K blocks of K = %d%s", x->split, nkb, K,
                            mn ? " (MN-major weights take no split)" : "");
    int cluster = 1;
    const int split = mrt_bf16_split(M, N, K, B, mn, x->split, x->reduce_cluster > 0 ? 1 : x->reduce_cluster < 0 ? 0 : 2, &cluster);
    int smem = 0;
    const int stages = mrt_gemm_pick_stages(kind, tn, nkb / split, &smem);
    if (stages < 1) return mrt_gpu_fail(why, n, "gemm_bf16: M = %d, split %d does not fit shared memory", M, split);

    mrt_gemm_args a;
    memset(&a, 0, sizeof a);
    a.diag = mrt_gpu_diag();
    a.M = M, a.N = N, a.K = K, a.batches = B;
    a.ntiles = ntiles, a.nchunks = nchunks, a.split = split, a.kb_per_split = nkb / split, a.stages = stages;
    a.act_batch_col = (int)x->x_batch_col;
    a.cluster = cluster > 1;
    g->workspace_need = cluster > 1 ? 0 : mrt_gemm_ws_bytes(B, nchunks, ntiles, split, M, N);
    if (split > 1 && cluster == 1) {
        if (!x->workspace || x->workspace_bytes < g->workspace_need)
            return mrt_gpu_fail(why, n, "gemm_bf16: split %d needs a workspace of %zu bytes, given %zu", split,
                                g->workspace_need, x->workspace ? x->workspace_bytes : (size_t)0);
        mrt_gemm_ws_split(x->workspace, B, nchunks, ntiles, &a.tickets, &a.partial);
    }
    if (mn) {
        if (mrt_tmap_2d(g->tmap_w, x->w, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, N, (uint64_t)B * K, (uint64_t)N * 2, 64,
                        64, why, n))
            return -1;
    } else if (mrt_tmap_2d(g->tmap_w, x->w, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, K, N, (uint64_t)K * 2, 64, 128, why,
                           n)) {
        return -1;
    }
    if (mrt_tmap_2d(g->tmap_x, x->x, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, x->x_ld, M, (uint64_t)x->x_ld * 2, 64, tn,
                    why, n))
        return -1;
    mrt_epi_store e = {x->out, x->out_ld, x->out_batch_stride, x->out_f32 ? 1 : 0};
    memcpy(g->args, &a, sizeof a);
    memcpy(g->epi, &e, sizeof e);
    if (mn) {
        g->kernel = mrt_bf16_kernel<MRT_GEMM_BF16_MN, mrt_wait_none>(tn);
        g->kernel_pdl = mrt_bf16_kernel<MRT_GEMM_BF16_MN, mrt_wait_griddep>(tn);
    } else {
        g->kernel = mrt_bf16_kernel<MRT_GEMM_BF16, mrt_wait_none>(tn);
        g->kernel_pdl = mrt_bf16_kernel<MRT_GEMM_BF16, mrt_wait_griddep>(tn);
    }
    g->kind = kind, g->tn = tn, g->split = split, g->stages = stages;
    g->grid = B * ntiles * nchunks * split, g->smem_bytes = smem, g->cluster = cluster;
    return mrt_gemm_allow(g, "gemm_bf16", why, n);
}
