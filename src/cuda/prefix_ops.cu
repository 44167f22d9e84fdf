/* Standalone kernels of A0 and the FP8 GEMM finalizations: a CTA per tile, calling the
 * same device functions the megakernel calls (src/ops/add_rmsnorm_quant.cuh,
 * src/ops/gemm_fp8_epilogues.cuh). Built with -fmad=false (Makefile): these compute the
 * quantities that e4m3 codes are rounded from, and must take the CPU reference's steps. */
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdio.h>

#include "gemm_host.h" /* mrt_gpu_fail */
#include "add_rmsnorm_quant.cuh"
#include "gemm_fp8_epilogues.cuh"
#include "ops.h"
#include "pdl.cuh" /* mrt_pdl_entry, mrt_pdl_launch */
#include "prefix_ops.h"
#include "stamp.cuh"
#include "trace_gpu.h"
#include "mega_op.h" /* mrt_epi_fill */

/* TRACE (stamp.cuh): the traced twin, launched only with records */
template <bool TRACE>
__global__ void __launch_bounds__(MRT_A0_MAX_THREADS) mrt_a0_kernel(mrt_a0_args a, mrt_cta_stamp *ts) {
    __shared__ double scratch[16384 / 128]; /* a group sum each: H <= 16384 (mrt_gpu_a0) */
    mrt_stamp_start_if<TRACE>(ts);
    mrt_pdl_entry<TRACE>(ts);
    mrt_a0_row(a, blockIdx.x, scratch);
    mrt_stamp_end_if<TRACE>(ts);
}

/* A row over a cluster of MRT_A0_CLUSTER CTAs, each a C-th of its 128-groups (H / 8 / C
 * threads, one chunk each), the group sums written into every CTA's scratch through
 * distributed shared memory: the same sum order, so the same bytes as one CTA a row (the
 * megakernel's). A0 is bound by the issue rate of the SMs it runs on (Nsight Compute, session
 * 8: the busiest SM issued ~1350 instructions a warp; more threads on the same 16 SMs gained
 * 0.3 us), so it spreads the row. H200, session 9 run 2, A B A B against one CTA a row: A0
 * 4.20 / 4.19 us against 5.76 / 5.81, serial 78.46 / 78.91 against 79.93 / 79.88, cmp 55.07 /
 * 55.55 against 56.17 / 56.24. -DMRT_A0_CLUSTER=1: one CTA a row. */
#ifndef MRT_A0_CLUSTER
#define MRT_A0_CLUSTER 4
#endif
/* Distributed shared memory may be written only once the other CTAs of the cluster have
 * started (CUDA programming guide, distributed shared memory): the kernel arrives on the
 * cluster barrier first thing and before() waits on it, so the wait overlaps the row's loads.
 * racecheck of the reduced-size step (H200, 2026-11-30, session 10 run 2) reported every put()
 * of the version without it as a write into "a block that might not have entered yet". */
struct mrt_a0_cluster_x {
    __device__ __forceinline__ void before() const { asm volatile("barrier.cluster.wait.aligned;" ::: "memory"); }
    __device__ __forceinline__ void put(double *scratch, int g, double v) const {
        cooperative_groups::cluster_group cl = cooperative_groups::this_cluster();
        for (unsigned r = 0; r < cl.num_blocks(); r++) *cl.map_shared_rank(scratch + g, r) = v;
    }
    __device__ __forceinline__ void after() const { cooperative_groups::this_cluster().sync(); }
};

template <bool TRACE>
__global__ void __cluster_dims__(MRT_A0_CLUSTER, 1, 1) __launch_bounds__(MRT_A0_MAX_THREADS)
    mrt_a0_cluster_kernel(mrt_a0_args a, mrt_cta_stamp *ts) {
    __shared__ double scratch[16384 / 128];
    mrt_stamp_start_if<TRACE>(ts);
    asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory"); /* this CTA has started */
    mrt_pdl_entry<TRACE>(ts);
    const int rank = (int)cooperative_groups::this_cluster().block_rank(), span = a.H / 8 / MRT_A0_CLUSTER;
    mrt_a0_part(a, (int)blockIdx.x / MRT_A0_CLUSTER, rank * span, rank * span + span, rank * span,
                rank * span + span, scratch, mrt_a0_cluster_x());
    mrt_stamp_end_if<TRACE>(ts);
}

extern "C" int mrt_gpu_a0(const uint16_t *h, const uint16_t *res, const uint16_t *w, uint16_t *r_new, uint16_t *x,
                          uint8_t *x8, float *sx, int M, int H, float eps, unsigned delay_ns, void *stream, int pdl,
                          char *why, size_t n) {
    if (M < 1 || H % 128 || H > 16384) return mrt_gpu_fail(why, n, "a0: M %d, hidden %d (a multiple of 128 up to 16384)", M, H);
    mrt_a0_args a = {h, res, w, r_new, x, x8, sx, H, eps, delay_ns};
    /* one 8-element chunk a thread where the row allows (768 at GLM-5 size), else two. H200,
     * session 8 run 5, A B A B against two chunks a thread: A0 alone 5.78 against 6.10 us,
     * cmp 59.3 / 59.4 against 60.2 / 60.3 (A0 done at 6.2 us in cmp's trace against 7.3, where
     * B0's waiting CTAs share its SMs), serial 81.4 against 81.9. */
    int threads = H / 8 <= MRT_A0_MAX_THREADS ? (H / 8 + 31) / 32 * 32 : ((H / 16) + 31) / 32 * 32;
    if (MRT_A0_CLUSTER > 1 && (H / 8) % (32 * MRT_A0_CLUSTER) == 0) { /* whole warps, whole groups a CTA */
        mrt_cta_stamp *cts = mrt_gpu_stamps_take(M * MRT_A0_CLUSTER, "a0");
        void *cargs[2] = {&a, &cts};
        const void *cfn = cts ? (const void *)mrt_a0_cluster_kernel<true> : (const void *)mrt_a0_cluster_kernel<false>;
        cudaError_t e = mrt_pdl_launch(cfn, dim3(M * MRT_A0_CLUSTER), dim3(H / 8 / MRT_A0_CLUSTER), 0, cargs,
                                       (cudaStream_t)stream, pdl);
        return e ? mrt_gpu_fail(why, n, "a0: launch failed: %s", cudaGetErrorString(e)) : 0;
    }
    mrt_cta_stamp *ts = mrt_gpu_stamps_take(M, "a0");
    void *args[2] = {&a, &ts};
    const void *fn = ts ? (const void *)mrt_a0_kernel<true> : (const void *)mrt_a0_kernel<false>;
    cudaError_t e = mrt_pdl_launch(fn, dim3(M), dim3(threads), 0, args, (cudaStream_t)stream, pdl);
    return e ? mrt_gpu_fail(why, n, "a0: launch failed: %s", cudaGetErrorString(e)) : 0;
}

/* The split planes a GEMM left unsummed (mrt_gpu_epi.part): a unit sums its columns into
 * shared memory (mrt_epi_sum_columns). */
struct mrt_epi_split {
    const float *part;
    int nsplit;
};

/* The GEMM output columns [c0, c1) that unit u of the epilogue reads. */
static __device__ __forceinline__ void mrt_epi_unit_cols(const mrt_epi_args &a, int epi, int u, int *c0, int *c1) {
    switch (epi) {
    case MRT_EPI_QKV_A:
        if (u < a.q_lora / 128) *c0 = u * 128, *c1 = *c0 + 128;
        else *c0 = a.q_lora, *c1 = a.N;
        break;
    case MRT_EPI_Q_B: *c0 = u * (a.nope + a.rope), *c1 = *c0 + a.nope + a.rope; break;
    case MRT_EPI_INDEX_Q: *c0 = u * a.dim, *c1 = *c0 + a.dim; break;
    default: *c0 = 0, *c1 = a.N; break; /* INDEX_K: the whole row */
    }
}

/* grid.x = row, grid.y = unit (QKV_A: q blocks, then the kv unit; Q_B, INDEX_Q: heads).
 * With sp.part, the unit's columns are summed over the GEMM's split planes first, in split
 * order (as the GEMM's own reduction and the megakernel's finalization sum them).
 * TRACE: as mrt_a0_kernel's. */
template <bool TRACE>
__global__ void __launch_bounds__(256) mrt_epi_kernel(mrt_epi_args a, int epi, mrt_epi_split sp, mrt_cta_stamp *ts) {
    __shared__ double ds[32];
    __shared__ float fs[32];
    __shared__ float rowbuf[256];
    __shared__ __align__(16) float sums[MRT_EPI_MAX_COLS]; /* the unit's columns, summed over the splits */
    mrt_stamp_start_if<TRACE>(ts);
    mrt_pdl_entry<TRACE>(ts);
    int row = blockIdx.x, u = blockIdx.y;
    const mrt_grp g = mrt_grp_cta();
    mrt_epi_row cr = mrt_epi_row_c(a, row);
    if (sp.part) {
        int c0, c1;
        mrt_epi_unit_cols(a, epi, u, &c0, &c1);
        cr = mrt_epi_sum_columns(g, sp.part, sums, (long long)a.M * a.N, sp.nsplit, a.N, row, c0, c1);
        __syncthreads(); /* the epilogue reads the sums */
    }
    switch (epi) {
    case MRT_EPI_QKV_A:
        if (u < a.q_lora / 128) mrt_epi_qkv_a_q(g, a, cr, row, u * 128, ds, fs);
        else mrt_epi_qkv_a_kv(g, a, cr, row, ds, fs);
        break;
    case MRT_EPI_INDEX_K: mrt_epi_index_k(g, a, cr, row, ds, fs, rowbuf); break;
    case MRT_EPI_Q_B: mrt_epi_q_b(g, a, cr, row, u, 0, a.nope + a.rope, rowbuf); break;
    case MRT_EPI_INDEX_Q: mrt_epi_index_q(g, a, cr, row, u, fs, rowbuf); break;
    }
    mrt_stamp_end_if<TRACE>(ts);
}

int mrt_epi_fill(const mrt_gpu_epi *e, mrt_epi_args *out, int *units, int *threads, char *why, size_t n) {
    mrt_epi_args a;
    memset(&a, 0, sizeof a);
    a.c = e->c, a.M = e->M, a.N = e->N, a.K = e->K, a.eps = e->eps;
    const int32_t *ip = e->ip;
    *units = 1, *threads = MRT_EPI_THREADS;
    switch (e->epi) {
    case MRT_EPI_QKV_A: /* in: x8 sx W sW w_qn w_kvn pos block_table rope_cs; out: qr8 sqr ssq mla_cache */
        a.w_qn = (const uint16_t *)e->in[4], a.w_kvn = (const uint16_t *)e->in[5];
        a.pos = (const int32_t *)e->in[6], a.block_table = (const int32_t *)e->in[7], a.rope_cs = (const float *)e->in[8];
        a.qr8 = (uint8_t *)e->out[0], a.sqr = (float *)e->out[1], a.ssq_out = (float *)e->out[2];
        a.mla_cache = (uint8_t *)e->out[3];
        a.q_lora = ip[1], a.kv_lora = ip[2], a.rope = ip[3], a.batch = ip[4], a.kv = ip[5], a.block_tokens = ip[6];
        if (a.kv_lora % 128 || a.kv_lora / 128 > 8 || a.rope / 2 > MRT_EPI_THREADS)
            return mrt_gpu_fail(why, n, "epilogue qkv_a: kv_lora %d, rope %d unsupported", a.kv_lora, a.rope);
        if (a.N - a.q_lora > MRT_EPI_MAX_COLS) /* the kv unit */
            return mrt_gpu_fail(why, n, "epilogue qkv_a: kv unit of %d columns (at most %d)", a.N - a.q_lora, MRT_EPI_MAX_COLS);
        *units = a.q_lora / 128 + 1;
        break;
    case MRT_EPI_INDEX_K: /* in: x8 sx W sW ln_w ln_b pos block_table rope_cs; out: idx_cache */
        a.ln_w = (const uint16_t *)e->in[4], a.ln_b = (const uint16_t *)e->in[5];
        a.pos = (const int32_t *)e->in[6], a.block_table = (const int32_t *)e->in[7], a.rope_cs = (const float *)e->in[8];
        a.idx_cache = (uint8_t *)e->out[0];
        a.batch = ip[4], a.kv = ip[5], a.block_tokens = ip[6];
        if (e->N != 128) return mrt_gpu_fail(why, n, "epilogue index_k: key width %d (128 supported)", e->N);
        break;
    case MRT_EPI_Q_B: /* in: qr8 sqr W sW ssq pos rope_cs; out: q_nope q_pe */
        a.ssq_in = (const float *)e->in[4], a.pos = (const int32_t *)e->in[5], a.rope_cs = (const float *)e->in[6];
        a.q_nope = (uint16_t *)e->out[0];
        a.heads = ip[1], a.nope = ip[2], a.rope = ip[3];
        a.qmla = e->qmla, a.qmla_width = e->qmla_width, a.qmla_rope_at = e->qmla_rope_at;
        if (a.rope > 256 || !a.qmla) return mrt_gpu_fail(why, n, "epilogue q_b: rope %d or no query buffer", a.rope);
        if (a.nope + a.rope > MRT_EPI_MAX_COLS)
            return mrt_gpu_fail(why, n, "epilogue q_b: head width %d (at most %d)", a.nope + a.rope, MRT_EPI_MAX_COLS);
        *units = a.heads, *threads = 256;
        break;
    case MRT_EPI_INDEX_Q: /* in: qr8 sqr W sW ssq gate pos rope_cs; out: q8i wI */
        a.ssq_in = (const float *)e->in[4], a.gate = (const float *)e->in[5], a.pos = (const int32_t *)e->in[6];
        a.rope_cs = (const float *)e->in[7], a.q8i = (uint8_t *)e->out[0], a.wI = (float *)e->out[1];
        a.heads = ip[1], a.dim = ip[2], a.rope = ip[3], a.gate_partials = e->gate_partials;
        if (a.dim != 128) return mrt_gpu_fail(why, n, "epilogue index_q: head dim %d (128 supported)", a.dim);
        a.iq_c1 = (float)(1.0 / sqrt((double)a.dim)), a.iq_c2 = (float)(1.0 / sqrt((double)a.heads)); /* wI's factors */
        *units = a.heads;
        break;
    default: return mrt_gpu_fail(why, n, "unknown epilogue %d", e->epi);
    }
    if (e->epi == MRT_EPI_QKV_A || e->epi == MRT_EPI_INDEX_K) { /* the cache writers */
        if (a.batch < 1 || a.M < a.batch || a.kv < 1 || a.block_tokens < 1)
            return mrt_gpu_fail(why, n, "epilogue %s: %d rows in %d requests, %d cache positions in blocks of %d "
                                "(need 1 <= batch <= M, kv >= 1, block_tokens >= 1)",
                                e->epi == MRT_EPI_QKV_A ? "qkv_a" : "index_k", a.M, a.batch, a.kv, a.block_tokens);
        a.req_of_row = mrt_fastdiv_make((uint32_t)(a.M / a.batch));
        mrt_cache_blocks(a.kv, a.block_tokens, &a.bpr, &a.block_of_pos);
    }
    if (e->epi == MRT_EPI_Q_B) a.head_of_col = mrt_fastdiv_make((uint32_t)(a.nope + a.rope));
    if (e->epi == MRT_EPI_INDEX_Q) a.head_of_col = mrt_fastdiv_make((uint32_t)a.dim);
    *out = a;
    return 0;
}

extern "C" int mrt_gpu_epilogue(const mrt_gpu_epi *e, void *stream, int pdl, char *why, size_t n) {
    mrt_epi_args a;
    int units, threads;
    if (mrt_epi_fill(e, &a, &units, &threads, why, n)) return -1;
    if (e->part && (e->nsplit < 1 || e->N % 4))
        return mrt_gpu_fail(why, n, "epilogue: %d split planes of width %d (need >= 1, a multiple of 4)", e->nsplit, e->N);
    dim3 grid(e->M, units);
    int epi = e->epi;
    mrt_epi_split sp = {e->part, e->nsplit};
    mrt_cta_stamp *ts = mrt_gpu_stamps_take((int)(grid.x * grid.y), "epilogue");
    void *args[4] = {&a, &epi, &sp, &ts};
    const void *fn = ts ? (const void *)mrt_epi_kernel<true> : (const void *)mrt_epi_kernel<false>;
    cudaError_t ce = mrt_pdl_launch(fn, grid, dim3(threads), 0, args, (cudaStream_t)stream, pdl);
    return ce ? mrt_gpu_fail(why, n, "epilogue: launch failed: %s", cudaGetErrorString(ce)) : 0;
}
