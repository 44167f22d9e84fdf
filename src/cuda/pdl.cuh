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

/* Launch with programmatic stream serialization when pdl is set. */
static inline cudaError_t mrt_pdl_launch(const void *fn, dim3 grid, dim3 block, size_t smem, void **args,
                                         cudaStream_t s, int pdl) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = grid, cfg.blockDim = block, cfg.dynamicSmemBytes = smem, cfg.stream = s;
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr.val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = pdl ? &attr : NULL, cfg.numAttrs = pdl ? 1 : 0;
    return cudaLaunchKernelExC(&cfg, fn, args);
}

#endif
