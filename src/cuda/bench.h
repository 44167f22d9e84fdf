/* Benchmarks and executor internals they need (C header, no CUDA types). */
#ifndef MRT_BENCH_H
#define MRT_BENCH_H

#include <stdio.h>

#include "megartp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The executor's stream (a cudaStream_t). */
void *mrt_gpu_exec_stream(mrt_gpu_exec *x);
/* Launches the plan's i-th op alone (serial executor), on weight/cache copy `copy`. */
mrt_status mrt_gpu_serial_op(mrt_gpu_exec *x, int i, int copy);

/* Issues one cmp step into the executor's stream (and side streams joined back), e.g.
 * inside a stream capture of several steps. */
mrt_status mrt_gpu_cmp_launch(mrt_gpu_exec *x, int copy);
/* The edges of one cmp step's captured graph: all, programmatic (PDL), and the cross-stream
 * joins made programmatic (cross_pdl: the build's MRT_CMP_CROSS_PDL). Tests. */
typedef struct mrt_cmp_edges {
    int edges, prog, joins, cross_pdl;
} mrt_cmp_edges;
mrt_status mrt_gpu_cmp_edges(mrt_gpu_exec *x, int copy, mrt_cmp_edges *out);
/* Tests: A0 holds its outputs back ns nanoseconds (a slow producer); drops captured graphs. */
void mrt_gpu_set_producer_delay(mrt_gpu_exec *x, unsigned ns);

/* Medians of one `megartp bench glm5-prefix` run, in us. */
typedef struct mrt_bench_prefix_result {
    double read_us;             /* the same-bytes read kernel */
    double serial_us, cmp_us;   /* the step (cmp_us 0: not measured) */
    double mega_us;             /* the megakernel's step (0: not measured) */
    double op_us[MRT_MAX_OPS];  /* each plan op alone (serial); 0 when per_op is 0 */
    double step_mb;             /* bytes a step must move */
} mrt_bench_prefix_result;

/* `megartp bench glm5-prefix`: host_glm5 is the glm5_host whose contents are uploaded to
 * every copy. per_op = 0 skips the per-op figures. Prints a markdown table to out (NULL:
 * nothing) and fills *res (NULL: not wanted); returns 0 or -1 (message on out or stderr). */
int mrt_bench_prefix(mrt_plan *p, void *host_glm5, int copies, int reps, const char *modes, int per_op, FILE *out,
                     mrt_bench_prefix_result *res);

/* `megartp bench pdl`: the PDL experiment (src/cuda/bench_pdl.cu). Producer A0 (add + RMSNorm
 * + quant, hidden 6144) -> consumer FP8 GEMM B0 (6144 -> 2624; and B1, 6144 -> 128, the
 * negative case) in three wait placements (entry, prologue, prefetch), each with PDL off and
 * on, at each M of ms (NULL / 0: 16,32,64,128,256). Checks PDL-on bytes = PDL-off bytes, then
 * prints a markdown table of the producer-start -> consumer-end span (%globaltimer, median of
 * the pairs of a CUDA graph, rotating weights). Returns 0, or -1 with a message on out. */
int mrt_bench_pdl(const int *ms, int n_ms, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
