/* The persistent megakernel, first version (issue [E], in progress): one co-resident CTA per
 * worker queue (cooperative launch), 384 threads, interpreting the plan's encoded
 * instructions in queue order with the event protocol of DESIGN.md section 3:
 *   wait:    one thread spins ld.acquire.gpu on the event counter until it reaches
 *            threshold * epoch (counters are never reset: replay needs no reset launch),
 *            bounded by clock64; past the bound it records worker, slot, task, event,
 *            expected and seen in the host-mapped watchdog buffer and traps;
 *   publish: every writer done (bar.sync), then one thread fences and adds with
 *            red.release.gpu; reduce groups take a ticket (acq_rel) and only the member that
 *            completes the group (ticket == members * epoch) performs the group's signals.
 * This version executes NoOps and A0 (the same device function as the standalone kernel);
 * the host refuses plans with other ops. No weight prefetch, pages or two instruction slots
 * yet: each instruction runs to completion before the next is decoded.
 * Run on the H200 by tests/gpu/test_mega (bench/RESULTS.md, 2026-11-29). */
#include <cuda_runtime.h>
#include <string.h>

#include "add_rmsnorm_quant.cuh"
#include "bench.h"
#include "exec_internal.h"
#include "gemm_host.h" /* mrt_gpu_diag; gemm_core.cuh: mrt_diag_trap, MRT_DIAG_* */
#include "ops.h"
#include "stamp.cuh"

#define MRT_MEGA_THREADS 384
#define MRT_MEGA_SPIN_CYCLES 20000000000LL /* ~10 s at 2 GHz: a wrong plan traps, it does not hang */

typedef struct mrt_mega_args {
    const uint32_t *instr; /* [workers, max_len, 32] */
    int max_len;
    const uint64_t *operands; /* [n_ops, 16]: the op's slots; A0: slot 15 = H | eps bits << 32 */
    unsigned *events, *tickets;
    unsigned epoch; /* 1-based step number */
    unsigned *diag;
    unsigned long long *stamps; /* TRACE: [workers][max_len][MRT_PH_COUNT] %globaltimer ns */
} mrt_mega_args;

static __device__ __forceinline__ unsigned mrt_ld_acquire(const unsigned *p) {
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ void mrt_red_release(unsigned *p, unsigned v) {
    asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

static __device__ void mrt_mega_a0(const mrt_mega_args &a, const uint32_t *w, double *scratch) {
    const uint64_t *s = a.operands + (size_t)w[1] * MRT_OPERAND_SLOTS;
    mrt_a0_args x;
    x.h = (const uint16_t *)s[0], x.res = (const uint16_t *)s[1], x.w = (const uint16_t *)s[2];
    x.r_new = (uint16_t *)s[3], x.x = (uint16_t *)s[4], x.x8 = (uint8_t *)s[5], x.sx = (float *)s[6];
    x.H = (int)(s[15] & 0xFFFFFFFFu);
    unsigned eb = (unsigned)(s[15] >> 32);
    memcpy(&x.eps, &eb, 4);
    x.delay_ns = 0;
    for (uint32_t row = w[24]; row < w[25]; row++) mrt_a0_row(x, (int)row, scratch);
}

/* Trace stamps (TRACE = true, a separate instantiation: the untraced kernel has no trace
 * code at all): thread 0 writes %globaltimer for each phase of each instruction. No weight
 * prefetch yet: "weights issued" is stamped with "visible". */
template <bool TRACE>
static __device__ __forceinline__ void mrt_mega_stamp(const mrt_mega_args &a, int slot, int phase) {
    if constexpr (TRACE)
        if (threadIdx.x == 0)
            a.stamps[((size_t)blockIdx.x * a.max_len + slot) * MRT_PH_COUNT + phase] = mrt_globaltimer();
}

template <bool TRACE>
__global__ void __launch_bounds__(MRT_MEGA_THREADS, 1) mrt_mega_kernel(mrt_mega_args a) {
    __shared__ uint32_t w[MRT_INSTR_WORDS];
    __shared__ double scratch[32];
    __shared__ int last; /* this CTA's member completed its reduce group */
    const uint32_t *q = a.instr + (size_t)blockIdx.x * a.max_len * MRT_INSTR_WORDS;
    for (int slot = 0; slot < a.max_len; slot++) {
        __syncthreads(); /* the previous instruction is done with w */
        if (threadIdx.x < MRT_INSTR_WORDS) w[threadIdx.x] = q[slot * MRT_INSTR_WORDS + threadIdx.x];
        __syncthreads();
        uint32_t opcode = w[0] & 0xFFu, nwait = (w[0] >> 16) & 0xFu, nsig = (w[0] >> 20) & 0xFu;
        if (opcode == MRT_OPC_NOOP) continue;
        mrt_mega_stamp<TRACE>(a, slot, MRT_PH_VISIBLE);
        mrt_mega_stamp<TRACE>(a, slot, MRT_PH_WEIGHTS);
        if (threadIdx.x == 0)
            for (uint32_t j = 0; j < nwait; j++) {
                const unsigned *ctr = a.events + w[4 + 2 * j];
                unsigned target = w[5 + 2 * j] * a.epoch, seen;
                long long t0 = clock64();
                while ((seen = mrt_ld_acquire(ctr)) < target) {
                    if (clock64() - t0 > MRT_MEGA_SPIN_CYCLES)
                        mrt_diag_trap(a.diag, MRT_DIAG_MEGA_WAIT, blockIdx.x, (unsigned)slot, w[2], w[4 + 2 * j], target,
                                      seen);
                    __nanosleep(200);
                }
            }
        __syncthreads(); /* acquire by thread 0, then the barrier: every thread reads after it */
        mrt_mega_stamp<TRACE>(a, slot, MRT_PH_INPUT);
        switch (opcode) {
        case MRT_OPC_ADD_RMSNORM_QUANT: mrt_mega_a0(a, w, scratch); break;
        default:
            if (threadIdx.x == 0) mrt_diag_trap(a.diag, MRT_DIAG_MEGA_UNSUPPORTED, blockIdx.x, (unsigned)slot, w[2], opcode);
        }
        __syncthreads(); /* every writer of this instruction is done */
        mrt_mega_stamp<TRACE>(a, slot, MRT_PH_COMPUTED);
        if (threadIdx.x == 0) {
            __threadfence();
            last = 1;
            if (w[3] != MRT_NO_GROUP) {
                unsigned members = (w[3] >> 20) + 1u, t;
                asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;"
                             : "=r"(t)
                             : "l"(a.tickets + (w[3] & (MRT_MAX_GROUPS - 1u)))
                             : "memory");
                last = t + 1 == members * a.epoch;
            }
            for (uint32_t j = 0; j < nsig; j++) {
                bool fin = (w[14 + 3 * j] & MRT_PUB_BY_FINALIZER) != 0;
                if (!fin || last) mrt_red_release(a.events + w[12 + 3 * j], w[13 + 3 * j]);
            }
        }
        mrt_mega_stamp<TRACE>(a, slot, MRT_PH_PUBLISHED);
    }
}

/* ---- host ------------------------------------------------------------------------------ */

static mrt_status mega_check(mrt_gpu_exec *x) {
    for (int i = 0; i < x->p->n_ops; i++) {
        const mrt_op *op = &x->g->ops[x->p->ops[i]];
        if (op->kind != MRT_OPC_ADD_RMSNORM_QUANT)
            return mrt_fail(x->ctx, MRT_ERR_UNSUPPORTED,
                            "mega: this first version runs A0 (add_rmsnorm_quant) only; op %s (%s) is not yet "
                            "supported (plan it with --ops A0)", op->name, mrt_op_kind(op));
        if (op_in(x->g, op, 0)->dims[1] / 16 > MRT_MEGA_THREADS)
            return mrt_fail(x->ctx, MRT_ERR_UNSUPPORTED, "mega: hidden %lld needs more than %d threads a row",
                            (long long)op_in(x->g, op, 0)->dims[1], MRT_MEGA_THREADS);
    }
    return MRT_OK;
}

mrt_status mrt_gpu_mega_launch(mrt_gpu_exec *x, int copy, int reload, unsigned long long *stamps) {
    if (!x) return MRT_ERR_INVALID;
    if (copy < 0 || copy >= x->copies) return mrt_fail(x->ctx, MRT_ERR_INVALID, "mega: copy %d of %d", copy, x->copies);
    mrt_plan *p = x->p;
    mrt_status st = mega_check(x);
    if (st) return st;
    int sms = 0, per_sm = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mrt_mega_kernel<false>, MRT_MEGA_THREADS, 0);
    if (p->workers > sms * per_sm)
        return mrt_fail(x->ctx, MRT_ERR_INVALID, "mega: %d workers cannot all be resident (%d SMs x %d)", p->workers, sms,
                        per_sm);
    mrt_gpu_mega *m = &x->mega;
    size_t words = (size_t)p->workers * p->max_len * MRT_INSTR_WORDS;
    cudaError_t e = cudaSuccess;
    if (!m->loaded) {
        memset(m, 0, sizeof *m);
        e = cudaMalloc(&m->instr, words * 4);
        if (!e) e = cudaMalloc(&m->operands, (size_t)p->n_ops * MRT_OPERAND_SLOTS * 8);
        if (!e) e = cudaMalloc(&m->events, (size_t)(p->n_events + 1) * 4);
        if (!e) e = cudaMalloc(&m->tickets, (size_t)(p->n_groups + 1) * 4);
        if (!e) e = cudaMemset(m->events, 0, (size_t)(p->n_events + 1) * 4);
        if (!e) e = cudaMemset(m->tickets, 0, (size_t)(p->n_groups + 1) * 4);
        if (e) return mrt_gpu_cuda_fail(x, e, "mega: buffers");
        m->loaded = true, reload = 1;
    }
    if (reload) { /* instructions and the OperandPtrTable (device pointers of this copy) */
        uint64_t rows[MRT_MAX_OPS * MRT_OPERAND_SLOTS] = {0};
        for (int i = 0; i < p->n_ops; i++) {
            const mrt_op *op = &x->g->ops[p->ops[i]];
            uint64_t *r = rows + i * MRT_OPERAND_SLOTS;
            int n = 0;
            for (int j = 0; j < op->n_in; j++) r[n++] = (uint64_t)(uintptr_t)mrt_gpu_dev(x, op->in[j], copy);
            for (int j = 0; j < op->n_out; j++) r[n++] = (uint64_t)(uintptr_t)mrt_gpu_dev(x, op->out[j], copy);
            unsigned eb;
            memcpy(&eb, &op->p.f[0], 4);
            r[15] = (uint64_t)op_in(x->g, op, 0)->dims[1] | (uint64_t)eb << 32;
        }
        /* a (re)loaded plan starts its own count of steps: thresholds scale with the epoch,
         * which holds only while every step since the counters' last reset ran this plan */
        e = cudaMemset(m->events, 0, (size_t)(p->n_events + 1) * 4);
        if (!e) e = cudaMemset(m->tickets, 0, (size_t)(p->n_groups + 1) * 4);
        m->epoch = 0;
        if (!e) e = cudaMemcpy(m->instr, p->instr, words * 4, cudaMemcpyHostToDevice);
        if (!e) e = cudaMemcpy(m->operands, rows, (size_t)p->n_ops * MRT_OPERAND_SLOTS * 8, cudaMemcpyHostToDevice);
        if (e) return mrt_gpu_cuda_fail(x, e, "mega: upload");
    }
    mrt_mega_args a = {m->instr, p->max_len, m->operands, m->events, m->tickets, ++m->epoch, mrt_gpu_diag(), stamps};
    void *args[1] = {&a};
    const void *fn = stamps ? (const void *)mrt_mega_kernel<true> : (const void *)mrt_mega_kernel<false>;
    e = cudaLaunchCooperativeKernel(fn, dim3(p->workers), dim3(MRT_MEGA_THREADS), args, 0, x->stream);
    return e ? mrt_gpu_cuda_fail(x, e, "mega: launch") : MRT_OK;
}

mrt_status mrt_gpu_mega_step(mrt_gpu_exec *x, int copy, int reload) { return mrt_gpu_mega_launch(x, copy, reload, NULL); }
