/* Trace records of the stream executors (internal to src/cuda). A traced step installs a
 * sink on its thread; while it is installed every standalone launcher reserves one record
 * per CTA of its launch with mrt_gpu_stamps_take and passes them to its kernel, and the sink
 * remembers which op, stream and kernel each launch was. Without a sink (every untraced
 * launch) mrt_gpu_stamps_take returns NULL and the kernels stamp nothing. */
#ifndef MRT_TRACE_GPU_H
#define MRT_TRACE_GPU_H

#include "stamp.h"

#ifdef __cplusplus
extern "C" {
#endif

#define MRT_STAMP_LAUNCHES 256 /* kernel launches a traced step may make */
#define MRT_STAMP_CTAS 65536   /* CTA records a traced step may use */

typedef struct mrt_gpu_stamp_launch {
    int op, stream, first, ctas; /* graph op, stream index, first record, records */
    const char *kernel;          /* a string literal of the launcher */
} mrt_gpu_stamp_launch;

typedef struct mrt_gpu_stamps {
    mrt_cta_stamp *dev;  /* MRT_STAMP_CTAS device records */
    int used, overflow;  /* overflow: a launch found no room (the step's trace is refused) */
    int op, stream;      /* set by the executor before each op's launches */
    int n_launch;
    mrt_gpu_stamp_launch launch[MRT_STAMP_LAUNCHES];
} mrt_gpu_stamps;

/* Installs s as this thread's sink (NULL removes it). */
void mrt_gpu_stamps_install(mrt_gpu_stamps *s);
/* Records for a launch of `ctas` CTAs of `kernel` (a string literal): NULL without a sink,
 * or when the sink is full (then the sink's overflow is set). */
mrt_cta_stamp *mrt_gpu_stamps_take(int ctas, const char *kernel);

#ifdef __cplusplus
}
#endif

#endif
