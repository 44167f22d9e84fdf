/* Programmatic dependent launch (PDL) in the standalone kernels, and their launch.
 * A kernel launched with programmatic stream serialization may start before its
 * predecessor ends; griddepcontrol.wait (every thread, before touching any memory the
 * predecessor reads or writes) waits for it to complete with its memory visible, and is a
 * no-op without the attribute. launch_dependents right after lets the next kernel start its
 * own prologue: it waits for us the same way. */
#ifndef MRT_PDL_CUH
#define MRT_PDL_CUH

#include <cuda_runtime.h>

#include "stamp.cuh"

template <bool TRACE> static __device__ __forceinline__ void mrt_pdl_entry(mrt_cta_stamp *ts) {
    asm volatile("griddepcontrol.wait;" ::: "memory");
    if (threadIdx.x == 0) mrt_stamp_ready_if<TRACE>(ts);
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}

/* The scheduling priority (cudaLaunchAttributePriority: lower = sooner; 0 = the stream's own)
 * of the kernels this host thread launches next. The cmp executor sets it per op, from the
 * op's longest remaining path, so that when kernels of parallel branches wait for SMs the
 * critical path's CTAs are dispatched first; everyone else leaves it at 0. (gpu.cu) */
void mrt_gpu_set_launch_priority(int priority);
int mrt_gpu_launch_priority(void);

/* Appends the priority attribute to attr[*n] when a priority is set. */
static inline void mrt_launch_attr_priority(cudaLaunchAttribute *attr, unsigned *n) {
    const int pr = mrt_gpu_launch_priority();
    if (!pr) return;
    attr[*n].id = cudaLaunchAttributePriority;
    attr[(*n)++].val.priority = pr;
}

/* Launch with programmatic stream serialization when pdl is set. */
static inline cudaError_t mrt_pdl_launch(const void *fn, dim3 grid, dim3 block, size_t smem, void **args,
                                         cudaStream_t s, int pdl) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid, cfg.blockDim = block, cfg.dynamicSmemBytes = smem, cfg.stream = s;
    cudaLaunchAttribute attr[2];
    unsigned na = 0;
    if (pdl) {
        attr[na].id = cudaLaunchAttributeProgrammaticStreamSerialization;
        attr[na++].val.programmaticStreamSerializationAllowed = 1;
    }
    mrt_launch_attr_priority(attr, &na);
    cfg.attrs = na ? attr : NULL, cfg.numAttrs = na;
    return cudaLaunchKernelExC(&cfg, fn, args);
}

#endif
