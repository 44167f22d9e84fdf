/* Thread-block clusters in the megakernel (src/cuda/mega.cu, -DMRT_MEGA_CLUSTER=C): the
 * workers 4c .. 4c+3 (C = 4) are one cluster, and a gemm_fp8 reduce group whose members are
 * exactly those CTAs (MRT_GROUP_CLUSTER, set by the loader) finalizes through cluster
 * barriers instead of global tickets, job claims and done counts.
 *
 * Why: from the last member's tile computed to the group's event published took 7.2 us for
 * B0's q units and 8.3 for D1's heads (H200, session 20 run 6's trace, medians), twice on the
 * critical path; that chain is five or six dependent global atomics and polls (ticket, help
 * poll, claim, done count, last claim) around one job. In a cluster the members meet at a
 * barrier, split the unit's jobs by rank with no claim, and meet again before rank 0
 * publishes.
 *
 * The barrier is an mbarrier in each CTA with one arrival per cluster CTA: thread 0 arrives
 * remotely (mapa + mbarrier.arrive.release.cluster) on every CTA's barrier, its own included,
 * then waits for its own barrier's phase (try_wait.acquire.cluster), bounded like every spin
 * of the megakernel: past the bound a watchdog record names the worker, the instruction, the
 * task and the phase, then a trap. (barrier.cluster has no bounded form.)
 *
 * Deadlock freedom: every CTA of a cluster meets the same cluster groups in the same order
 * (each such group holds all of the cluster's CTAs, and every queue follows the plan's one
 * topological order), so the k-th meeting of each CTA is the same group's; and a member
 * waiting at a meeting waits only for peers whose earlier instructions cannot depend on
 * anything after the group in its own queue (the verifier's argument for events). */
#ifndef MRT_MEGA_CLUSTER_CUH
#define MRT_MEGA_CLUSTER_CUH

#include "gemm_core.cuh" /* mrt_diag_trap, MRT_SPIN_LIMIT_CYCLES, mrt_mbar_init */

static __device__ __forceinline__ unsigned mrt_cluster_rank() {
    unsigned r;
    asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
    return r;
}

/* All threads of every CTA of the cluster, once at the kernel's start: thread 0 makes the
 * meeting barrier (n arrivals a phase), then one hardware cluster barrier so no peer arrives
 * on it before it exists. All CTAs of a cluster are scheduled together, so that one
 * unbounded barrier cannot hang on an absent peer. */
static __device__ __forceinline__ void mrt_cluster_meet_init(uint32_t bar, unsigned n) {
    if (threadIdx.x == 0) {
        mrt_mbar_init(bar, n);
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
}

/* One thread (thread 0 of each CTA): the cluster's next meeting. phase: this CTA's count of
 * meetings so far (its parity picks the phase waited for). Every write this CTA's threads
 * made before the caller's CTA barrier is visible to every peer after its meet, at gpu scope
 * too: the caller fences (fence.acq_rel.gpu) before and after. */
static __device__ __forceinline__ void mrt_cluster_meet(uint32_t bar, unsigned n, unsigned &phase, unsigned *diag,
                                                        unsigned slot, unsigned task) {
    for (unsigned r = 0; r < n; r++) {
        uint32_t remote;
        asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(bar), "r"(r));
        asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote) : "memory");
    }
    const uint32_t parity = phase & 1u;
    const long long t0 = clock64();
    for (;;) {
        uint32_t ok;
        asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
                     "selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(ok)
                     : "r"(bar), "r"(parity)
                     : "memory");
        if (ok) break;
        if (clock64() - t0 > MRT_SPIN_LIMIT_CYCLES / 2)
            mrt_diag_trap(diag, MRT_DIAG_MEGA_CLUSTER_WAIT, blockIdx.x, slot, task, phase, mrt_cluster_rank(), n);
    }
    phase++;
}

#endif
