/* The persistent megakernel (issue [E]; docs/MEGAKERNEL.md): one co-resident CTA per worker
 * queue (cooperative launch), 384 threads, interpreting the plan's encoded instructions in
 * queue order with the event protocol of DESIGN.md section 3:
 *   wait:    one lane polls each event counter (ld.acquire.gpu) until it reaches
 *            threshold * epoch (counters are never reset: replay needs no reset launch),
 *            bounded by clock64; past the bound it records worker, slot, task, event,
 *            expected and seen in the host-mapped watchdog buffer and traps; then
 *            fence.proxy.async.global (TMA reads of producer data follow; until session 27
 *            relaxed polls and a fence.acq_rel.gpu: mega_gemm.cuh). GEMM tiles wait in
 *            their activation loader only, so their weights stream meanwhile; other
 *            ops wait before they start (thread 0, then a CTA barrier).
 *   run:     A0 rows, GEMM tiles (src/cuda/mega_gemm.cuh), E1 tiles, F1 rows: the device
 *            functions of the standalone kernels.
 *   publish: every writer done (bar.sync), then one thread adds with red.release.gpu;
 *            reduce groups take a ticket (acq_rel). A gemm_fp8 group's finalization (the
 *            split sums in split order and the op's epilogue, per (row, piece) job) is done
 *            by the members there once the group is complete: the member completing the
 *            ticket always, earlier members if the group completes within MRT_MEGA_HELP_NS;
 *            jobs are claimed one at a time, and every job performs the group's
 *            MRT_PUB_BY_FINALIZER signals, which the group's split-0 member corrected by
 *            increment * (1 - jobs) at its tile's start. A lone gemm_fp8 tile finalizes its
 *            unit itself before any signal; other groups signal from the member that
 *            completes the ticket.
 * Each instruction's words and operand row are copied in when the worker reaches it: two
 * instruction slots filled ahead by bulk copies were built and measured twice (sessions 11
 * and 17, docs/MEGAKERNEL.md) and did not pay. No shared-memory pages: a GEMM tile's weights
 * stream from its start, not during the previous instruction (an L2 prefetch of them, and
 * issuing the first stages during a finalization, were measured and did not pay). */
#include <cuda_runtime.h>
#include <string.h>

/* The fp8 GEMM's K-block pipeline (MRT_GEMM_PIPE, gemm_fp8.cuh) in the megakernel's tiles at
 * TN <= MRT_MEGA_PIPE (32); the standalone kernels keep theirs (0). H200, session 19 run 3
 * (docs/MEGAKERNEL.md): mega M=16 KV=8192 81.11 / 80.61 us against 82.27 / 82.13, M=64 141.4
 * against 143.2, M=16 KV=65536 193.4 against 195.2, M=1 KV=1024 level; at TN <= 64 M=64 147.0
 * (the TN-64 tile spills 100 / 216 bytes instead of 76 / 112); in the standalone GEMMs serial
 * +0.9 us, cmp +1.2-1.9. -DMRT_GEMM_PIPE=N sets both. */
#ifndef MRT_MEGA_PIPE
#define MRT_MEGA_PIPE 32
#endif
#ifndef MRT_GEMM_PIPE
#define MRT_GEMM_PIPE MRT_MEGA_PIPE
#endif

#include "bench.h"
#include "exec_internal.h"
#include "gemm_host.h" /* mrt_gpu_diag; gemm_core.cuh: mrt_diag_trap, MRT_DIAG_* */
#include "mega_gemm.cuh"
#include "ops.h"
#include "stamp.cuh"

typedef struct mrt_mega_args {
    const uint32_t *instr; /* [workers, max_len, 32] */
    const int *queue_len;  /* [workers]: the instructions each worker runs; the NoOps that pad
                            * its queue to max_len are not visited (mega_queue_len) */
    int max_len;
    const mrt_mega_op *ops; /* [n_ops]: this launch's copy */
    unsigned *events, *tickets; /* tickets: [2][groups] (taken; finalization jobs claimed) */
    unsigned groups;
    unsigned *launches; /* CTAs started since the last reload: CTA tickets give the step number */
    unsigned *diag;
    unsigned long long *stamps; /* TRACE: [workers][max_len][MRT_PH_COUNT] %globaltimer ns */
} mrt_mega_args;

/* The widest GEMM tile (TN) whose kernel reaches the instruction's words through an unseen
 * offset (the kernel loop below says why). */
#ifndef MRT_MEGA_OPAQUE_TN
#define MRT_MEGA_OPAQUE_TN 64
#endif

/* Experiment (session 18 run 6): the GEMM tiles of TN <= N inlined in the kernel body
 * (-DMRT_MEGA_INLINE_GEMM=N; 0: every tile a call), with -DMRT_MEGA_INLINE_E1 the wgmma E1 tile
 * too (then no call holds a wgmma: no C7510). Both at every TN, H200: M=16 KV=8192 80.9 / 81.0
 * us against 83.1 / 82.8, M=1 KV=1024 60.2 against 62.7, but M=16 KV=65536 199.9 against
 * 195.3, M=128 231.3 against 225.7; the probe's K block 0 -> last barely moved (B0 4.22
 * against 4.54 us, D0 5.66 against 6.11): four dependent wgmmas cost about as much without
 * the serialization. */
#ifndef MRT_MEGA_INLINE_GEMM
#define MRT_MEGA_INLINE_GEMM 0
#endif
template <int KIND, int TN>
static __device__ __forceinline__ void mrt_mega_gemm(const mrt_mega_op &o, const mrt_mega_op &og, const uint32_t *pl,
                                                     uint8_t *smem, const mrt_mega_wait &wait, unsigned long long *ph) {
    if (TN <= MRT_MEGA_INLINE_GEMM) mrt_mega_gemm_tile_any<KIND, TN>(o, &og.tw, &og.tx, &og.tsx, pl, smem, wait, ph);
    else mrt_mega_gemm_tile<KIND, TN>(o, &og.tw, &og.tx, &og.tsx, pl, smem, wait, ph);
}

/* How long a member that is not the last of its gemm_fp8 reduce group waits for the group
 * before leaving its finalization to the others (bounded: it never deadlocks, and a member
 * far ahead of its group does not hold its queue). */
#ifndef MRT_MEGA_HELP_NS /* -DMRT_MEGA_HELP_NS=N. 0 (only the last member finalizes): mega 164 us
                            against 130-135 with 3000 (H200, session 10 run 1); 10000 against
                            3000: 121.2 / 121.5 against 126.8 / 122.4 (session 11 run 1); today's
                            code (session 16 runs 1, 5): 0 104.3 / 103.3 against 91.3 / 91.4,
                            1000 96.4 / 96.4; 40000 level at M = 16, 64, 128 */
#define MRT_MEGA_HELP_NS 10000
#endif

#ifndef MRT_MEGA_HELP_POLL_NS /* the sleep between two polls of a group's ticket (ns) */
#define MRT_MEGA_HELP_POLL_NS 64
#endif
/* One thread: true once every member of the group has taken its ticket (count >= target,
 * modulo 2^32; relaxed polls, then the acquire), false after MRT_MEGA_HELP_NS. */
static __device__ bool mrt_mega_group_ready(const unsigned *ticket, unsigned target) {
    const unsigned long long t0 = mrt_globaltimer();
    for (;;) {
        unsigned seen;
        asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(seen) : "l"(ticket) : "memory");
        if ((int)(seen - target) >= 0) break;
        if (mrt_globaltimer() - t0 > MRT_MEGA_HELP_NS) return false;
        __nanosleep(MRT_MEGA_HELP_POLL_NS);
    }
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    return true;
}

/* f(counter, increment) for each of the instruction's signals that a reduce group's
 * finalization owes (MRT_PUB_BY_FINALIZER) or, by_fin false, the task's own. */
template <class F>
static __device__ __forceinline__ void mrt_mega_each_signal(unsigned *events, const uint32_t *w, uint32_t nsig,
                                                            bool by_fin, const F &f) {
    for (uint32_t j = 0; j < nsig; j++)
        if (((w[14 + 3 * j] & MRT_PUB_BY_FINALIZER) != 0) == by_fin)
            f(events + (size_t)w[12 + 3 * j] * MRT_MEGA_CTR_STRIDE, w[13 + 3 * j]);
}
/* One thread: those signals performed. */
template <class A>
static __device__ __forceinline__ void mrt_mega_signal(const A &a, const uint32_t *w, uint32_t nsig, bool by_fin) {
    mrt_mega_each_signal(a.events, w, nsig, by_fin, [](unsigned *ctr, unsigned inc) { mrt_red_release(ctr, inc); });
}

/* The finalizer signals one finalization job performs (mrt_mega_finalize_claimed). A struct,
 * not a lambda capturing by reference: that lambda changed the megakernel's PTX (the kernel
 * parameters' loads and registers; not measured), this keeps it as measured. */
template <class A>
struct mrt_mega_job_pub {
    const A &a;
    const uint32_t *w;
    uint32_t nsig;
    __device__ __forceinline__ void operator()() const { mrt_mega_signal(a, w, nsig, true); }
};

/* Trace stamps (TRACE = true, a separate instantiation: the untraced kernel has no trace
 * code at all): thread 0 writes %globaltimer for each phase of each instruction; "weights
 * issued" and, for GEMM tiles, "input ready" come from the loaders (mrt_mega_wait). */
template <bool TRACE>
static __device__ __forceinline__ void mrt_mega_stamp(const mrt_mega_args &a, int slot, int phase) {
    if constexpr (TRACE)
        if (threadIdx.x == 0)
            a.stamps[((size_t)blockIdx.x * a.max_len + slot) * MRT_PH_COUNT + phase] = mrt_globaltimer();
}

/* E1 tile (payload b j0 j1 t0 t1), threads 0..255. NT = 4 (<= 32 heads, GLM-5) is inlined
 * (a call's ABI made it spill); NT = 8 is a function of its own, so its register pressure
 * stays out of the kernel body. The calls cost no wgmma serialization: the GEMM code is
 * inlined and these functions hold no wgmma. */
template <int NT>
static __device__ __forceinline__ void mrt_mega_il_tile(const mrt_mega_op &o, const uint32_t *pl, uint8_t *smem) {
    if (threadIdx.x < MRT_IL_THREADS)
        mrt_index_logits_tile<MRT_IL_F16, NT>(o.il, (int)pl[0], (int)pl[1], (int)pl[2], smem, (int)threadIdx.x);
}
static __device__ __noinline__ void mrt_mega_il_tile8(const mrt_mega_op &o, const uint32_t *pl, uint8_t *smem) {
    mrt_mega_il_tile<8>(o, pl, smem);
}
#ifndef MRT_E1_MMA_SYNC
/* -DMRT_MEGA_IL_STOP=N (diagnostic builds, logits incomplete): wgmma E1 tiles stop after
 * phase N of mrt_index_logits_tile_wg (1 the queries' and keys' loads, 2 the wgmmas, 3 the
 * head sums without the stores), so the trace's E1 input -> computed in each build splits a
 * tile's time (session 19: 7.3 us at M=16 KV=8192 for one pass of 128 keys). */
#ifndef MRT_MEGA_IL_STOP
#define MRT_MEGA_IL_STOP 0
#endif
/* E1's warpgroups: 3, every thread of the CTA (a pass's 2 ng units of 64 keys x one token
 * group dealt to them in turn); with 2 (the standalone kernels' tile, 2 CTAs an SM) warps 8-11
 * sat idle through E1. Measured (H200, session 47 run 3, A B in one run): M=64 KV=65536
 * 184.2 / 182.7 -> 179.1 / 178.9 us, M=128 KV=65536 298.4 / 299.9 -> 297.2 / 295.0 (E1's
 * task 57.6 -> 56.0), M <= 16 and M=128 KV=1024 level (a request's 8 tokens are 2 groups, 4
 * units: the third warpgroup takes one of them). A task is its epilogue's math on CUDA cores
 * (at M=128 KV=65536, -DMRT_MEGA_IL_STOP: loads 8.8 us, + MMAs 31.0, + head sums 46.4, + stores
 * 55.7; session 48 run 1: the cut after the MMAs now reads the accumulator, without which
 * ptxas dropped the chain and session 47 measured 11.0), which more warps hide only a little of. */
#ifndef MRT_MEGA_ILW_WGS
#define MRT_MEGA_ILW_WGS 3
#endif
/* E1's key buffers released by mbarriers (the tile's RELEASE, index_logits_wg.cuh says how;
 * -DMRT_MEGA_ILW_RELEASE=N, 0: a CTA barrier a pass everywhere) where a pass has at least
 * MRT_MEGA_ILW_RELEASE_UNITS units (2 a token group: 16 at 32 tokens a request or more, 4 at
 * M=16 batch 2), the barrier's tile below (mrt_mega_il_tile_rel<0>). Measured (H200, session
 * 49, mega us, the barrier everywhere / the release everywhere / this): run 6: M=128 KV=65536
 * 290.0 / 285.0 / 289.9 and 294.0 / 285.1 / 289.7, M=64 KV=65536 178.1 / 175.3 / 173.9 and
 * 177.2 / 173.8 / 173.9, M=16 KV=8192 55.3 / 55.6 / 54.5 and 55.4 / 55.7 / 54.6, M=16
 * KV=65536 104.1 / 105.6 / 99.9 and 102.3 / 104.2 / 99.9. At M=16 a pass has 4 units on 3
 * warpgroups, little for the release to even out, and the release everywhere lost there
 * (runs 4-5; so did choosing at run time inside one tile, build-rt); in a function of its own
 * the barrier's tile spills less (32-40 bytes against 64-84) and M=16 gains, but the release's
 * tile (84-172 bytes) keeps only part of its M=128 gain. */
#ifndef MRT_MEGA_ILW_RELEASE
#define MRT_MEGA_ILW_RELEASE 1
#endif
#ifndef MRT_MEGA_ILW_RELEASE_UNITS
#define MRT_MEGA_ILW_RELEASE_UNITS 8
#endif
/* E1 on wgmma: 32 heads (TPG 4) or 64 (TPG 2); one call site for both, since each call site
 * adds saves to the kernel body's spill. A call, like the GEMM tile: ptxas reports the
 * kernel's wgmmas serialized (C7510; not all of them: the called GEMM tile's pipelined K
 * blocks still overlap, session 19), and it is still faster:
 * with the GEMM and wgmma E1 tiles inlined (no C7510, ~1.1 KB of spill in the kernel body)
 * the step measured 160-165 us against 146-149 (session 8, docs/MEGAKERNEL.md). */
#ifdef MRT_MEGA_INLINE_E1 /* experiment: the wgmma E1 tile inlined in the kernel body */
#define MRT_MEGA_E1_FN static __device__ __forceinline__
#else
#define MRT_MEGA_E1_FN static __device__ __noinline__
#endif
#ifdef MRT_ILW_DIAG_FIRST_PASS /* the tile's first pass landed, as its "weights issued" stamp */
#define MRT_MEGA_IL_PARAMS \
    const mrt_mega_op &o, const mrt_ilw_maps &maps, const uint32_t *pl, uint8_t *smem, unsigned long long *ph
#define MRT_MEGA_IL_ARGS o, maps, pl, smem, ph
#define MRT_MEGA_IL_DIAG , ph ? ph + MRT_PH_WEIGHTS : nullptr
#else
#define MRT_MEGA_IL_PARAMS const mrt_mega_op &o, const mrt_ilw_maps &maps, const uint32_t *pl, uint8_t *smem
#define MRT_MEGA_IL_ARGS o, maps, pl, smem
#define MRT_MEGA_IL_DIAG
#endif
/* The tile at 32 or 64 heads, its key buffers released as RELEASE says. A function of its own
 * for each RELEASE, called by the one below: the four tiles in one function spilled 272 / 620
 * bytes (TN 16) against 64-84 / 168-280 for the two. */
template <int RELEASE> static __device__ __forceinline__ void mrt_mega_il_tiles(MRT_MEGA_IL_PARAMS) {
    if (o.il.heads == 32)
        mrt_index_logits_tile_wg<4, MRT_MEGA_ILW_STAGES, MRT_MEGA_IL_STOP, MRT_MEGA_ILW_GROUPS, true, MRT_MEGA_ILW_WGS,
                                 RELEASE>(o.il, (int)pl[0], (int)pl[1], (int)pl[2], smem, (int)threadIdx.x, 0,
                                          0x7fffffff, &maps MRT_MEGA_IL_DIAG);
    else
        mrt_index_logits_tile_wg<2, MRT_MEGA_ILW_STAGES, MRT_MEGA_IL_STOP, MRT_MEGA_ILW_GROUPS, true, MRT_MEGA_ILW_WGS,
                                 RELEASE>(o.il, (int)pl[0], (int)pl[1], (int)pl[2], smem, (int)threadIdx.x, 0,
                                          0x7fffffff, &maps MRT_MEGA_IL_DIAG);
}
template <int RELEASE> MRT_MEGA_E1_FN void mrt_mega_il_tile_rel(MRT_MEGA_IL_PARAMS) {
    mrt_mega_il_tiles<RELEASE>(MRT_MEGA_IL_ARGS);
}
/* -DMRT_MEGA_ILW_REL_OUTER=1: the release's tiles inline in E1's function (as when they were
 * its only tiles: M=128 KV=65536 285 us against 289.7 behind the call, session 49 run 6), the
 * barrier's still a call of its own. Session 50 run 1: M=128 KV=65536 -3 to -6.5 us, M=16
 * KV=8192 +0.5 to +0.85: not the default. */
#ifndef MRT_MEGA_ILW_REL_OUTER
#define MRT_MEGA_ILW_REL_OUTER 0
#endif
MRT_MEGA_E1_FN void mrt_mega_il_tile_wg(MRT_MEGA_IL_PARAMS) {
    if (threadIdx.x >= MRT_MEGA_ILW_WGS * 128) return;
    const int tpg = o.il.heads == 32 ? 4 : 2, units = 2 * min(MRT_MEGA_ILW_GROUPS, (o.il.n + tpg - 1) / tpg);
    if (MRT_MEGA_ILW_RELEASE > 0 && units >= MRT_MEGA_ILW_RELEASE_UNITS) {
        if (MRT_MEGA_ILW_REL_OUTER) mrt_mega_il_tiles<MRT_MEGA_ILW_RELEASE>(MRT_MEGA_IL_ARGS);
        else mrt_mega_il_tile_rel<MRT_MEGA_ILW_RELEASE>(MRT_MEGA_IL_ARGS);
    } else {
        mrt_mega_il_tile_rel<0>(MRT_MEGA_IL_ARGS);
    }
}
#endif

/* -DMRT_MEGA_TOPK_STOP=N (diagnostic builds, output incomplete): F1 rows return after phase N
 * of mrt_topk_row (1 pass 0, 2 the digit search, 3 pass 1, 4 the list), so the trace's F1
 * input -> computed in each build splits a row's time into its phases, in the step and alone
 * (`--ops F1`). */
#ifndef MRT_MEGA_TOPK_STOP
#define MRT_MEGA_TOPK_STOP 0
#endif

/* F1 rows (payload r0 r1), threads 0..MRT_MEGA_TOPK_THREADS-1 (mega_op.h): a row that fits
 * shared memory as runs of keys (mrt_topk_row_runs), small code for a row run once a step
 * with its code cold. Measured (H200, session 34 runs 2-5, A B in one run each):
 * - the shared-memory row (bitmaps, a list; this function was 107 KB of code with it): M=16
 *   KV=8192 63.65-63.78 us, F1 input -> computed 11.2 a row;
 * - the standalone kernel's register row at 384 threads x 24 keys (146 KB of code): M=16
 *   KV=8192 -1.4 to -1.6 us, but M=128 KV=1024 +3.0 to +4.7 and M=128 KV=8192 +3.2 to +4.5
 *   (a row's first run in the step 11.9 us against 3.7 run again warm: its code);
 * - runs (run 5): M=16 KV=8192 62.10 / 62.26 / 62.14 against 63.65 / 63.78 / 63.72 (F1 9.4 a
 *   row), M=64 KV=8192 -1.7, M=128 KV=8192 -3.1, M=128 KV=1024 / M=1 level, M=16 KV=1024 +0.4;
 *   this function is 126 KB with it (the runs row ~18 KB of that; the rest the bitmap row,
 *   the slices and their merge, which its rows do not run).
 * -DMRT_MEGA_TOPK_PROBE (run 4) split a row into its first run and a second, warm one: the
 * shared-memory row 11.0 then 9.2 us in the step, 10.0 then 9.1 with the chain alone (no D0 /
 * D2, run 6): cold code ~1-2 us of a row at M=16, the rest the row's work on E1's logits.
 * A row over several workers (payload r r+1 s0 s1 p P S, P > 1): this task's slice, then the
 * row's ticket (thread 0, acq_rel: the release publishes the slice, the acquire of the one
 * completing it orders every slice before its reads); that one merges the row. *last tells
 * the kernel body whether this task performs the group's publications. */
#ifdef MRT_MEGA_TOPK_PROBE
/* -DMRT_MEGA_TOPK_PROBE (diagnostic builds): an unsliced F1 task runs its rows twice, stamping
 * "weights issued" between the two runs, so input -> weights is the rows with their code cold
 * (as every step runs them) and weights -> computed the same rows again with it warm.
 * -DMRT_MEGA_TOPK_PROBE=2: once, a runs row's pass 0 (the copy in, keys, histogram) stamped
 * as "weights issued" and its selection as "visible" (overwriting the instruction's own), so
 * input -> weights -> visible -> computed is pass 0, the select, the output (a task of
 * several rows keeps its last row's stamps). =3: the copy in as "weights issued", pass 0 as
 * "visible", so input -> weights -> visible is the row's copy, then its keys and histogram. */
#define MRT_MEGA_TOPK_PASSES (MRT_MEGA_TOPK_PROBE >= 2 ? 1 : 2)
#define MRT_MEGA_TOPK_PH , unsigned long long *ph
struct mrt_mega_topk_hook {
    unsigned long long *ph;
    __device__ __forceinline__ void operator()(int phase) const {
        const int at = phase + (MRT_MEGA_TOPK_PROBE == 3 ? 1 : 0); /* 1: weights, 2: visible */
        if (ph && threadIdx.x == 0 && (at == 1 || at == 2))
            ph[at == 1 ? MRT_PH_WEIGHTS : MRT_PH_VISIBLE] = mrt_globaltimer();
    }
};
#else
#define MRT_MEGA_TOPK_PASSES 1
#define MRT_MEGA_TOPK_PH
#endif
static __device__ __noinline__ void mrt_mega_topk(const mrt_mega_op &o, const uint32_t *pl, uint8_t *smem,
                                                  unsigned *tickets, uint32_t group, unsigned epoch,
                                                  int *last MRT_MEGA_TOPK_PH) {
    constexpr int T = MRT_MEGA_TOPK_THREADS;
    const int tid = (int)threadIdx.x;
    if (tid >= T) return;
    if (pl[5] <= 1) {
        for (int run = 0; run < MRT_MEGA_TOPK_PASSES; run++) {
            if (MRT_MEGA_TOPK_RUNS && !MRT_MEGA_TOPK_STOP && o.tk.kv <= o.tk.cache_keys)
#if defined(MRT_MEGA_TOPK_PROBE) && MRT_MEGA_TOPK_PROBE >= 2
                mrt_topk_tile_runs<T>(o.tk, (int)pl[0], (int)pl[1], smem, tid, mrt_mega_topk_hook{ph});
#else
                mrt_topk_tile_runs<T>(o.tk, (int)pl[0], (int)pl[1], smem, tid);
#endif
            else if (MRT_MEGA_TOPK_RUNS && !MRT_MEGA_TOPK_STOP && o.tk.cache24)
#if defined(MRT_MEGA_TOPK_PROBE) && MRT_MEGA_TOPK_PROBE >= 2
                mrt_topk_tile_runs24<T>(o.tk, (int)pl[0], (int)pl[1], smem, tid, mrt_mega_topk_hook{ph});
#else
                mrt_topk_tile_runs24<T>(o.tk, (int)pl[0], (int)pl[1], smem, tid);
#endif
            else
                mrt_topk_tile<T, MRT_MEGA_TOPK_STOP>(o.tk, (int)pl[0], (int)pl[1], smem, tid);
#ifdef MRT_MEGA_TOPK_PROBE
            if (ph && run == 0 && tid == 0 && MRT_MEGA_TOPK_PASSES == 2) ph[MRT_PH_WEIGHTS] = mrt_globaltimer();
#endif
        }
        return;
    }
    mrt_topk_slice<T>(o.tk, (int)pl[0], (int)pl[2], (int)pl[3], (int)pl[4], (int)pl[5], smem, tid);
    unsigned *ticket = tickets + (size_t)mrt_group_id(group) * MRT_MEGA_CTR_STRIDE;
    if (tid == 0) *last = mrt_atom_add_acq_rel(ticket, 1u) + 1u == mrt_group_members(group) * epoch;
    mrt_topk_bar<T>();
    if (*last) mrt_topk_merge<T>(o.tk, (int)pl[0], (int)pl[5], (int)pl[6], smem, tid);
}

#ifdef MRT_MEGA_A0_PROBE
/* -DMRT_MEGA_A0_PROBE (diagnostic builds): an A0 task's "weights issued" stamp becomes the
 * end of its row's loads and residual add (the first barrier), "visible" the end of the
 * cross-warp sum of squares (the second), so input -> weights -> visible -> computed splits a
 * row into its load round trip, its reduction, and the normalization, quantization and stores
 * (scripts/trace_phases.py). A task of several rows keeps its last row's stamps. */
struct mrt_mega_a0_probe : mrt_a0_local { /* its put(); its barriers, each followed by a stamp */
    unsigned long long *ph;
    __device__ __forceinline__ void before() const {
        mrt_a0_local::before();
        if (ph && threadIdx.x == 0) ph[MRT_PH_WEIGHTS] = mrt_globaltimer();
    }
    __device__ __forceinline__ void after() const {
        mrt_a0_local::after();
        if (ph && threadIdx.x == 0) ph[MRT_PH_VISIBLE] = mrt_globaltimer();
    }
};
#endif

/* Rows [pl[0], pl[1]), each one's 128-groups [pl[2], pl[3]) stored (a slice of the row:
 * add_rmsnorm_quant.c). Inlined: as a call, see mrt_mega_fin_job. Both publications are
 * signalled after the instruction: releasing x8 and sx (B0's and B1's input) before the x
 * stores, x staged in shared memory (session 29's -DMRT_MEGA_A0_EARLY_PUB), was slower (H200,
 * session 30 run 2: M=16 KV=8192 67.65 / 67.52 us against 66.98 / 66.93, M=64 +1.2, M=128
 * KV=1024 +1.0; an A0 row's input -> computed 7.7 us against 6.5, A0 done at 9.95 against
 * 8.96: the staging cost more than the earlier release saved). */
static __device__ __forceinline__ void mrt_mega_a0(const mrt_mega_op &o, const uint32_t *pl, double *scratch,
                                                   unsigned long long *ph) {
    const int ob = (int)pl[2] * 16, oe = (int)pl[3] * 16; /* 16 chunks of 8 a group */
#ifdef MRT_MEGA_A0_PROBE
    const mrt_mega_a0_probe x{{}, ph};
#else
    (void)ph;
    const mrt_a0_local x{};
#endif
    for (uint32_t row = pl[0]; row < pl[1]; row++) mrt_a0_part(o.a0, (int)row, 0, o.a0.H / 8, ob, oe, scratch, x);
}

/* The part of an operand row that goes to shared memory: from its first member after the TMA
 * descriptors (those stay in global memory: TMA reads them there). */
constexpr uint32_t mrt_mega_row_skip = (uint32_t)offsetof(mrt_mega_op, ga);
static_assert(mrt_mega_row_skip % 16 == 0 && sizeof(mrt_mega_op) % 16 == 0, "operand row copies in 16-byte pieces");

/* Copies an operand row into shared memory, all threads, 16 bytes each. The table does not
 * change while a kernel runs: non-coherent loads. */
static __device__ __forceinline__ void mrt_mega_row_copy(mrt_mega_op &dst, const mrt_mega_op &src) {
    constexpr int n = ((int)sizeof(mrt_mega_op) - (int)mrt_mega_row_skip) / 16;
    const uint4 *s = (const uint4 *)((const uint8_t *)&src + mrt_mega_row_skip);
    uint4 *d = (uint4 *)((uint8_t *)&dst + mrt_mega_row_skip);
    for (int i = (int)threadIdx.x; i < n; i += (int)blockDim.x) d[i] = __ldg(s + i);
}

/* -DMRT_MEGA_BARRIER_CHECK (diagnostic builds): whether every thread of a CTA passes the
 * instruction loop's barriers together, on the hardware rather than in racecheck's model
 * (docs/MEGAKERNEL.md, session 53). Thread 0 writes a value for the slot after one barrier
 * and every thread reads it after the next; a warp one barrier ahead of thread 0 (a barrier
 * count that differs between warps inside an instruction) reads the previous slot's value.
 * Two values, so each write is a barrier pair away from the last reads of the one before.
 * Every mismatch is printed and counted in mrt_mega_bchk_bad. */
#ifdef MRT_MEGA_BARRIER_CHECK
__device__ unsigned mrt_mega_bchk_bad;
__shared__ unsigned mrt_mega_bchk[2];
#define MRT_MEGA_BCHK_SET(i, v)                                                                                  \
    do {                                                                                                         \
        if (threadIdx.x == 0) mrt_mega_bchk[i] = (v);                                                            \
    } while (0)
#define MRT_MEGA_BCHK_SEE(i, v)                                                                                  \
    do {                                                                                                         \
        const unsigned seen_ = mrt_mega_bchk[i];                                                                 \
        if (seen_ != (v) && atomicAdd(&mrt_mega_bchk_bad, 1u) < 16u)                                             \
            printf("barrier check: block %d thread %d slot %d check %d saw %u, not %u\n", (int)blockIdx.x,      \
                   (int)threadIdx.x, slot, i, seen_, (unsigned)(v));                                             \
    } while (0)
#else
#define MRT_MEGA_BCHK_SET(i, v) ((void)0)
#define MRT_MEGA_BCHK_SEE(i, v) ((void)0)
#endif

/* -DMRT_MEGA_FIN_EVEN_BARS (racecheck diagnostic, session 55): racecheck's reports that remain
 * are on CTAs that ran a finalization, whose groups (GN threads each, named barriers 2 ..)
 * claim jobs until none is left, so each passes its barrier a different number of times
 * before the CTA meets again (test_barrier_pattern's P_GROUPS). After a finalization every
 * group passes its barrier, empty, until it has passed it as often as the group that passed
 * its own most (the counts: mrt_grp's sync), then the counts start again from 0. */
#ifdef MRT_MEGA_FIN_EVEN_BARS
static __device__ void mrt_mega_even_bars(int gn) {
    unsigned *passes = mrt_grp_passes();
    __syncthreads();
    const int groups = (int)blockDim.x / gn, gi = (int)threadIdx.x / gn;
    unsigned most = 0;
    for (int i = 0; i < groups; i++) most = max(most, passes[2 + i]);
    for (unsigned k = passes[2 + gi]; k < most; k++) asm volatile("bar.sync %0, %1;" ::"r"(2 + gi), "r"(gn) : "memory");
    __syncthreads();
    if (threadIdx.x < 16) passes[threadIdx.x] = 0; /* the caller's barrier orders this before the next counts */
}
#define MRT_MEGA_EVEN_BARS(gn) mrt_mega_even_bars(gn)
#else
#define MRT_MEGA_EVEN_BARS(gn) ((void)0)
#endif

/* TN: the plan's tokens per GEMM tile (wgmma N), a template parameter so each instantiation
 * holds one width of the GEMM roles: with all five inlined, ptxas spilled 17 KB a thread
 * (3 KB stack) and the step took 249 us instead of 195 (H200, 2026-11-29, GLM-5 M=16). */
template <bool TRACE, int TN>
__global__ void __launch_bounds__(MRT_MEGA_THREADS, 1) mrt_mega_kernel(mrt_mega_args a) {
    extern __shared__ uint8_t mrt_mega_smem_raw[];
    __shared__ uint32_t w_s[MRT_INSTR_WORDS];
    __shared__ __align__(64) mrt_mega_op op; /* the instruction's operand row, less its TMA descriptors */
    __shared__ int last; /* gemm_fp8 groups: this CTA takes part in the group's finalization; F1
                          * slices: this CTA merged the row */
    /* GEMM layouts and TMA boxes want 1024-byte alignment (128-byte swizzle atoms) */
    const uint32_t raw = mrt_smem_u32(mrt_mega_smem_raw);
    uint8_t *smem = mrt_mega_smem_raw + (((raw + 1023u) & ~1023u) - raw);
    /* The finalization's and A0's scratch share the dynamic shared memory with the
     * instructions' tiles: a finalization runs after its tile (every TMA into the stages
     * consumed, the CTA barrier passed) and A0 has no tile. As a static array its 7.3 KB
     * came off the GEMM ring, whose stage count moves in steps: GLM-5 M=128's QKV_A tile (48
     * K blocks, TN 128) had 1.3 KB to spare for its sixth stage and lost it to the 1.4 KB
     * of the instruction-slot experiment (session 17 run 3). */
    mrt_mega_fin_smem &fin = *(mrt_mega_fin_smem *)smem;
    const uint32_t *q = a.instr + (size_t)blockIdx.x * a.max_len * MRT_INSTR_WORDS;
    /* The step number (epoch, 1-based) comes from the device, not a launch argument, so a
     * CUDA graph of megakernel launches replays correctly: every launch has gridDim.x CTAs
     * and launches on a stream do not overlap, so the CTAs of step k draw tickets
     * (k-1)*gridDim.x .. k*gridDim.x-1. */
    __shared__ unsigned epoch_s;
    if (threadIdx.x == 0) epoch_s = atomicAdd(a.launches, 1u) / gridDim.x + 1u;
#ifdef MRT_MEGA_FIN_EVEN_BARS
    if (threadIdx.x < 16) mrt_grp_passes()[threadIdx.x] = 0;
#endif
    __syncthreads();
    const unsigned epoch = epoch_s;
    const int len = __ldg(a.queue_len + blockIdx.x);
    for (int slot = 0; slot < len; slot++) {
        __syncthreads(); /* the previous instruction is done with w and op */
        /* At TN <= 64 the kernel reaches the instruction's words through an offset (0) the
         * compiler cannot see. ptxas then allocates the called GEMM tile differently although
         * its PTX is the same (TN 16: 24 bytes of spill stores and 24 of loads instead of 68
         * and 304; the kernel's own stack 656 bytes instead of 800), found through session
         * 17's instruction slots, which reached the words through two alternating buffers.
         * H200, session 18 run 1: M=16 KV=8192 82.85 us against 86.60, M=1 KV=1024 62.7
         * against 67.2, M=64 143.3 against 145.5. Not at TN 128, where the same offset spilled
         * more (296 / 388 bytes instead of 192 / 452) and the slots lost 23 us at M=128
         * (-DMRT_MEGA_OPAQUE_TN=N: at TN <= N, for that A B). */
        unsigned zz = 0;
        if (TN <= MRT_MEGA_OPAQUE_TN) asm volatile("" : "+r"(zz));
        uint32_t *const w = w_s + zz;
        /* The instruction's words and its operand row, both into shared memory before one
         * barrier: every thread reads words 0-1 itself (one broadcast load), so the row's
         * copy needs no second barrier. The row leaves global memory because arguments read
         * from there are reloaded after every store the compiler cannot prove disjoint, and
         * each reload after an L1 invalidation is an L2 round trip (H200, 2026-11-29: ncu
         * showed the finalizations' argument loads in dependent chains). */
        const uint2 w01 = __ldg((const uint2 *)(q + slot * MRT_INSTR_WORDS));
        if (threadIdx.x < MRT_INSTR_WORDS) w[threadIdx.x] = q[slot * MRT_INSTR_WORDS + threadIdx.x];
        if ((w01.x & 0xFFu) != MRT_OPC_NOOP) mrt_mega_row_copy(op, a.ops[w01.y]);
        MRT_MEGA_BCHK_SET(0, 2u * slot);
        __syncthreads();
        MRT_MEGA_BCHK_SEE(0, 2u * slot);
        uint32_t opcode = w[0] & 0xFFu, nwait = (w[0] >> 16) & 0xFu, nsig = (w[0] >> 20) & 0xFu;
        if (opcode == MRT_OPC_NOOP) continue;
        MRT_MEGA_BCHK_SET(1, 2u * slot + 1u);
        mrt_mega_stamp<TRACE>(a, slot, MRT_PH_VISIBLE);
        /* GEMM tiles stream their weights first: only their activation loader (and store)
         * waits, inside the tile (mrt_mega_wait); every other op waits here, thread 0 for
         * the CTA. */
        const bool gemm = opcode == MRT_OPC_GEMM_FP8 || opcode == MRT_OPC_GEMM_BF16 || opcode == MRT_OPC_BMM_BF16;
        unsigned long long *ph = TRACE ? a.stamps + ((size_t)blockIdx.x * a.max_len + slot) * MRT_PH_COUNT : NULL;
        const mrt_mega_wait wait = {a.events, w, epoch, nwait, a.diag, (unsigned)slot, ph};
        if (!gemm) {
            mrt_mega_stamp<TRACE>(a, slot, MRT_PH_WEIGHTS); /* no weights to prefetch */
            if (threadIdx.x < 32) wait(threadIdx.x);
            __syncthreads(); /* acquire by thread 0, then the barrier: every thread reads after it */
        }
        const mrt_mega_op &o = op, &og = a.ops[w[1]]; /* og: the TMA descriptors (global memory) */
        const uint32_t *pl = w + 24;
        /* a gemm_fp8 group's split-0 member: each finalizer event its unit's correction,
         * increment * (1 - jobs) (mrt_mega_finalize_claimed says why), at its tile's start so
         * that it is long performed when the member's ticket releases it */
        if (opcode == MRT_OPC_GEMM_FP8 && w[3] != MRT_NO_GROUP && pl[6] == 0 && threadIdx.x == 0) {
            const unsigned jobs =
                (unsigned)mrt_mega_fin_unit_of(o, pl, mrt_mega_fin_rows<TN>::IQ, mrt_mega_fin_rows<TN>::QA).jobs;
            mrt_mega_each_signal(a.events, w, nsig, true,
                                 [jobs](unsigned *ctr, unsigned inc) { mrt_red_relaxed(ctr, inc * (1u - jobs)); });
        }
        switch (opcode) {
        case MRT_OPC_ADD_RMSNORM_QUANT: /* H / 128 <= 48 doubles (hidden <= 6144: mega_table.cu) of the 96 */
            mrt_mega_a0(o, pl, fin.ds, ph);
            break;
        case MRT_OPC_GEMM_FP8: mrt_mega_gemm<MRT_GEMM_FP8, TN>(o, og, pl, smem, wait, ph); break; /* tall too (-DMRT_MEGA_TALL=1): mega_gemm.cuh */
        case MRT_OPC_GEMM_BF16: mrt_mega_gemm<MRT_GEMM_BF16, TN>(o, og, pl, smem, wait, ph); break;
        case MRT_OPC_BMM_BF16: mrt_mega_gemm<MRT_GEMM_BF16_MN, TN>(o, og, pl, smem, wait, ph); break;
        case MRT_OPC_INDEX_LOGITS:
#ifndef MRT_E1_MMA_SYNC /* the mma.sync tile only as a call: no E1 code inlined in the kernel body */
            if (o.il.heads == 32 || o.il.heads == 64) {
                const mrt_ilw_maps maps = {&og.tw, &og.tx, a.diag}; /* mega_table.cu: E1's TMA maps */
#ifdef MRT_ILW_DIAG_FIRST_PASS
                mrt_mega_il_tile_wg(o, maps, pl, smem, ph);
#else
                mrt_mega_il_tile_wg(o, maps, pl, smem);
#endif
            } else mrt_mega_il_tile8(o, pl, smem);
#else
            if (o.il.heads <= 32) mrt_mega_il_tile<4>(o, pl, smem);
            else mrt_mega_il_tile8(o, pl, smem);
#endif
            break;
#ifdef MRT_MEGA_TOPK_PROBE
        case MRT_OPC_TOPK: mrt_mega_topk(o, pl, smem, a.tickets, w[3], epoch, &last, ph); break;
#else
        case MRT_OPC_TOPK: mrt_mega_topk(o, pl, smem, a.tickets, w[3], epoch, &last); break;
#endif
        default:
            if (threadIdx.x == 0) mrt_diag_trap(a.diag, MRT_DIAG_MEGA_UNSUPPORTED, blockIdx.x, (unsigned)slot, w[2], opcode);
        }
        __syncthreads(); /* every writer of this instruction is done */
        MRT_MEGA_BCHK_SEE(1, 2u * slot + 1u);
        mrt_mega_stamp<TRACE>(a, slot, MRT_PH_COMPUTED);
        const bool grouped = w[3] != MRT_NO_GROUP;
        const unsigned members = grouped ? mrt_group_members(w[3]) : 1u;
        const size_t gid = mrt_group_id(w[3]);
        unsigned *ticket = a.tickets + gid * MRT_MEGA_CTR_STRIDE;
        /* No __threadfence (fence.sc): the barrier orders every writer before thread 0, whose
         * release (the ticket's acq_rel, the signals' red.release) is cumulative. */
        if (opcode == MRT_OPC_GEMM_FP8 && grouped) {
            /* The group's finalization, by whichever members are there once it is complete:
             * the member completing the ticket always finalizes; a member that took its
             * ticket earlier waits a bounded moment (MRT_MEGA_HELP_NS) for the group and, if
             * it completes, helps. Jobs (row, piece) are claimed one at a time per group of
             * 32-128 threads, each job followed by the group's finalizer signals
             * (mrt_mega_finalize_claimed). (One finalizer for the whole unit held QKV_A's kv
             * unit on one SM for 33-39 us, H200 2026-11-29.) Waiting for the group unbounded deadlocks where two
             * members share a worker's queue (seen under critical-path placement). */
            if (threadIdx.x == 0) {
                const unsigned t = mrt_atom_add_acq_rel(ticket, 1u) + 1u;
                last = t == members * epoch || mrt_mega_group_ready(ticket, members * epoch);
            }
            __syncthreads();
#if defined(MRT_MEGA_FIN_PROBE) && MRT_MEGA_FIN_PROBE == 1 /* mega_gemm.cuh */
            if (ph && last && threadIdx.x == 0) ph[MRT_PH_WEIGHTS] = mrt_globaltimer();
#endif
            if (last) {
                const mrt_mega_fin_ctr ctr = {a.tickets + (a.groups + gid) * MRT_MEGA_CTR_STRIDE, epoch};
                const int gn = mrt_mega_fin_threads(o, pl), gi = (int)threadIdx.x >> (__ffs(gn) - 1); /* gn: 32, 64, 128 */
                const mrt_grp g = {(int)threadIdx.x - gi * gn, gn, 2 + gi};
                const mrt_mega_job_pub<mrt_mega_args> pub = {a, w, nsig};
                constexpr int riq = mrt_mega_fin_rows<TN>::IQ, rqa = mrt_mega_fin_rows<TN>::QA;
#ifdef MRT_MEGA_FIN_PROBE
                mrt_mega_finalize_claimed<riq, rqa>(o, pl, fin, ctr, g, gi, pub, ph);
#else
                mrt_mega_finalize_claimed<riq, rqa>(o, pl, fin, ctr, g, gi, pub);
#endif
                MRT_MEGA_EVEN_BARS(gn);
            }
            __syncthreads();
            if (threadIdx.x == 0) mrt_mega_signal(a, w, nsig, false);
        } else if (opcode == MRT_OPC_GEMM_FP8) { /* a lone tile finalizes its unit itself (or did in its store) */
            if (!o.fused_q_b) {
                mrt_mega_finalize(o, pl, fin);
                MRT_MEGA_EVEN_BARS(128);
            }
            __syncthreads();
            if (threadIdx.x == 0) mrt_mega_signal(a, w, nsig, false), mrt_mega_signal(a, w, nsig, true);
        } else if (threadIdx.x == 0) { /* a grouped F1 slice took its ticket itself (mrt_mega_topk) */
            const bool done = !grouped || (opcode == MRT_OPC_TOPK ? last != 0
                                                                   : mrt_atom_add_acq_rel(ticket, 1u) + 1u == members * epoch);
            mrt_mega_signal(a, w, nsig, false);
            if (done) mrt_mega_signal(a, w, nsig, true);
        }
        mrt_mega_stamp<TRACE>(a, slot, MRT_PH_PUBLISHED);
    }
}

/* ---- host ------------------------------------------------------------------------------ */

static const void *mega_kernel(bool trace, int tn) {
#define MRT_MEGA_K(T)                                                                                            \
    switch (tn) {                                                                                                \
    case 8: return (const void *)mrt_mega_kernel<T, 8>;                                                          \
    case 16: return (const void *)mrt_mega_kernel<T, 16>;                                                        \
    case 32: return (const void *)mrt_mega_kernel<T, 32>;                                                        \
    case 64: return (const void *)mrt_mega_kernel<T, 64>;                                                        \
    default: return (const void *)mrt_mega_kernel<T, 128>;                                                       \
    }
    if (trace) MRT_MEGA_K(true)
    MRT_MEGA_K(false)
#undef MRT_MEGA_K
}

/* Dynamic shared memory a CTA gets: the opt-in maximum less the kernel's static shared
 * memory (every instantiation has the same) and the 1024 bytes the alignment may skip (GEMM
 * layouts start 1024-aligned). */
static int mega_smem(int *dyn, char *why, size_t n) {
    int optin = mrt_gpu_smem_optin();
    cudaFuncAttributes fa;
    cudaError_t e = cudaFuncGetAttributes(&fa, mega_kernel(false, 16));
    if (e) return mrt_gpu_fail(why, n, "mega: kernel attributes: %s", cudaGetErrorString(e));
    *dyn = optin - (int)fa.sharedSizeBytes;
    if (*dyn - 1024 < (int)sizeof(mrt_mega_fin_smem)) /* the kernel's scratch lives there too */
        return mrt_gpu_fail(why, n, "mega: %d bytes of dynamic shared memory do not hold the finalization's %d", *dyn,
                            (int)sizeof(mrt_mega_fin_smem));
    for (int tn = 8; tn <= 128 && !e; tn *= 2)
        for (int t = 0; t < 2 && !e; t++)
            e = cudaFuncSetAttribute(mega_kernel(t, tn), cudaFuncAttributeMaxDynamicSharedMemorySize, *dyn);
    if (e) return mrt_gpu_fail(why, n, "mega: %d bytes of shared memory: %s", *dyn, cudaGetErrorString(e));
    return 0;
}

/* The instruction buffer: the queues' words, then each worker's queue length. The kernel
 * stops at a worker's length, not at max_len: each NoOp that pads a queue costs its CTA a slot
 * (the words' load from global memory, two CTA barriers) after its last instruction, which is
 * often among the step's last (at M=16 115 of 132 workers end on one pad); and racecheck
 * reported a NoOp's words read against the next slot's write (docs/MEGAKERNEL.md, session 53). */
static size_t mega_instr_words(const mrt_plan *p) { return (size_t)p->workers * p->max_len * MRT_INSTR_WORDS; }
static int *mega_queue_len(const mrt_gpu_mega *m, const mrt_plan *p) { return (int *)(m->instr + mega_instr_words(p)); }

static mrt_status mega_load(mrt_gpu_exec *x) {
    mrt_plan *p = x->p;
    mrt_gpu_mega *m = &x->mega;
    if (mega_smem(&m->smem, x->why, sizeof x->why)) return mrt_fail(x->ctx, MRT_ERR_INVALID, "%s", x->why);
    int sms = 0, per_sm = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, mega_kernel(false, 16), MRT_MEGA_THREADS, m->smem);
    if (p->workers > sms * per_sm)
        return mrt_fail(x->ctx, MRT_ERR_INVALID, "mega: %d workers cannot all be resident (%d SMs x %d)", p->workers, sms,
                        per_sm);
    size_t nrows = (size_t)x->copies * p->n_ops;
    mrt_mega_op *rows = (mrt_mega_op *)calloc(nrows, sizeof *rows);
    if (!rows) return mrt_fail(x->ctx, MRT_ERR_NOMEM, "mega: out of memory");
    mrt_status st = mrt_gpu_mega_table(x, m->smem - 1024, rows);
    /* one GEMM tile width for the whole plan: the kernel is instantiated per width */
    m->tn = 0;
    for (size_t i = 0; i < nrows && !st; i++) {
        if (!rows[i].tn) continue;
        if (m->tn && rows[i].tn != m->tn)
            st = mrt_fail(x->ctx, MRT_ERR_UNSUPPORTED, "mega: GEMM ops of this plan tile M by %d and %d tokens; the "
                          "megakernel takes one width a plan", m->tn, rows[i].tn);
        m->tn = rows[i].tn;
    }
    if (!m->tn) m->tn = 16;
    cudaError_t e = cudaSuccess;
    if (!st) {
        e = cudaMalloc(&m->instr, mega_instr_words(p) * 4 + (size_t)p->workers * sizeof(int));
        if (!e) e = cudaMalloc(&m->table, nrows * sizeof *rows);
        if (!e) e = cudaMalloc(&m->events, (size_t)(p->n_events + 1) * 4 * MRT_MEGA_CTR_STRIDE);
        if (!e) e = cudaMalloc(&m->tickets, 2 * (size_t)(p->n_groups + 1) * 4 * MRT_MEGA_CTR_STRIDE);
        if (!e) e = cudaMalloc(&m->launches, 4);
        if (!e) e = cudaMemcpyAsync(m->table, rows, nrows * sizeof *rows, cudaMemcpyHostToDevice, x->stream);
        if (!e) e = cudaStreamSynchronize(x->stream); /* rows is freed below */
        if (e) st = mrt_gpu_cuda_fail(x, e, "mega: buffers");
    }
    free(rows);
    if (!st) m->loaded = true;
    else { /* a later launch loads again from scratch: nothing of this attempt stays allocated */
        cudaFree(m->instr), cudaFree(m->table), cudaFree(m->events), cudaFree(m->tickets), cudaFree(m->launches);
        m->instr = NULL, m->table = NULL, m->events = NULL, m->tickets = NULL, m->launches = NULL;
    }
    return st;
}

mrt_status mrt_gpu_mega_launch(mrt_gpu_exec *x, int copy, int reload, unsigned long long *stamps) {
    if (!x) return MRT_ERR_INVALID;
    if (copy < 0 || copy >= x->copies) return mrt_fail(x->ctx, MRT_ERR_INVALID, "mega: copy %d of %d", copy, x->copies);
    mrt_plan *p = x->p;
    mrt_gpu_mega *m = &x->mega;
    if (!m->loaded) {
        mrt_status st = mega_load(x);
        if (st) return st;
        reload = 1;
    }
    if (reload) {
        /* a (re)loaded plan starts its own count of steps: thresholds scale with the epoch,
         * which holds only while every step since the counters' last reset ran this plan */
        /* on the step's stream, behind any step still running (the legacy stream would not wait) */
        cudaError_t e = cudaMemsetAsync(m->events, 0, (size_t)(p->n_events + 1) * 4 * MRT_MEGA_CTR_STRIDE, x->stream);
        if (!e) e = cudaMemsetAsync(m->tickets, 0, 2 * (size_t)(p->n_groups + 1) * 4 * MRT_MEGA_CTR_STRIDE, x->stream);
        if (!e) e = cudaMemsetAsync(m->launches, 0, 4, x->stream);
        if (!e) e = cudaMemcpyAsync(m->instr, p->instr, mega_instr_words(p) * 4, cudaMemcpyHostToDevice, x->stream);
        if (!e) e = cudaMemcpyAsync(mega_queue_len(m, p), p->queue_len, (size_t)p->workers * sizeof(int),
                                    cudaMemcpyHostToDevice, x->stream);
        if (!e) e = cudaStreamSynchronize(x->stream); /* p->instr is pageable host memory */
        if (e) return mrt_gpu_cuda_fail(x, e, "mega: upload");
    }
    mrt_mega_args a = {m->instr, mega_queue_len(m, p), p->max_len, (const mrt_mega_op *)m->table + (size_t)copy * p->n_ops, m->events,
                       m->tickets, (unsigned)p->n_groups + 1u, m->launches, mrt_gpu_diag(), stamps};
    void *args[1] = {&a};
    const void *fn = mega_kernel(stamps != NULL, m->tn);
    cudaError_t e = cudaLaunchCooperativeKernel(fn, dim3(p->workers), dim3(MRT_MEGA_THREADS), args, (size_t)m->smem,
                                                x->stream);
    return e ? mrt_gpu_cuda_fail(x, e, "mega: launch") : MRT_OK;
}

mrt_status mrt_gpu_mega_step(mrt_gpu_exec *x, int copy, int reload) { return mrt_gpu_mega_launch(x, copy, reload, NULL); }
