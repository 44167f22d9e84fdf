/* In-kernel trace stamps of the stream executors (serial, cmp), shared by the device code
 * that writes them and the host code that reads them: one record per CTA of a traced kernel
 * launch. Kernels take a record array (NULL when tracing is off: one uniform branch) and
 * stamp %globaltimer at their start, when their producer wait returns, and as each warp
 * leaves. src/ops/stamp.cuh writes them; src/cuda/trace_gpu.cu reserves and reads them. */
#ifndef MRT_STAMP_H
#define MRT_STAMP_H

typedef struct mrt_cta_stamp {
    unsigned long long start; /* ns, %globaltimer, thread 0 on entry */
    unsigned long long ready; /* ns, the first producer wait to return; 0: none waited */
    unsigned long long end;   /* ns, the last warp to leave */
    unsigned sm, reserved;    /* %smid */
} mrt_cta_stamp;

#endif
