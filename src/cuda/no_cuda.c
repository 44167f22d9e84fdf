/* Built instead of src/cuda/ where nvcc is absent: every GPU entry point answers
 * MRT_ERR_UNSUPPORTED, so the CPU build never needs CUDA. */
#include <stdio.h>

#include "bench.h"
#include "gpu.h"
#include "internal.h"
#include "megartp.h"

int mrt_gpu_available(char *why, size_t n) {
    snprintf(why, n, "megartp was built without CUDA (no nvcc found)");
    return 0;
}

static mrt_status no_gpu(void) { return MRT_ERR_UNSUPPORTED; }

mrt_status mrt_gpu_exec_new(mrt_plan *p, int copies, mrt_gpu_exec **out) {
    (void)copies;
    if (out) *out = NULL;
    return p ? mrt_fail(p->ctx, MRT_ERR_UNSUPPORTED, "megartp was built without CUDA (no nvcc found)") : no_gpu();
}
void mrt_gpu_exec_free(mrt_gpu_exec *x) { (void)x; }
mrt_status mrt_gpu_upload(mrt_gpu_exec *x, int tensor, int copy, const void *host) {
    (void)x, (void)tensor, (void)copy, (void)host;
    return no_gpu();
}
mrt_status mrt_gpu_download(mrt_gpu_exec *x, int tensor, int copy, void *host) {
    (void)x, (void)tensor, (void)copy, (void)host;
    return no_gpu();
}
mrt_status mrt_gpu_poison(mrt_gpu_exec *x, int tensor) {
    (void)x, (void)tensor;
    return no_gpu();
}
mrt_status mrt_gpu_serial_step(mrt_gpu_exec *x, int copy, int graph) {
    (void)x, (void)copy, (void)graph;
    return no_gpu();
}
mrt_status mrt_gpu_sync(mrt_gpu_exec *x) {
    (void)x;
    return no_gpu();
}
void *mrt_gpu_exec_stream(mrt_gpu_exec *x) {
    (void)x;
    return NULL;
}
mrt_status mrt_gpu_serial_op(mrt_gpu_exec *x, int i, int copy) {
    (void)x, (void)i, (void)copy;
    return no_gpu();
}
int mrt_bench_prefix(mrt_plan *p, void *host_glm5, int copies, int reps, const char *modes, int per_op, FILE *out,
                     mrt_bench_prefix_result *res) {
    (void)p, (void)host_glm5, (void)copies, (void)reps, (void)modes, (void)per_op, (void)res;
    fprintf(out ? out : stderr, "bench: megartp was built without CUDA (no nvcc found)\n");
    return -1;
}
int mrt_bench_gemm(const int *ms, int n_ms, FILE *out) {
    (void)ms, (void)n_ms;
    fprintf(out, "bench gemm: megartp was built without CUDA (no nvcc found)\n");
    return -1;
}
mrt_status mrt_gpu_cmp_step(mrt_gpu_exec *x, int copy) {
    (void)x, (void)copy;
    return no_gpu();
}
mrt_status mrt_gpu_cmp_launch(mrt_gpu_exec *x, int copy) {
    (void)x, (void)copy;
    return no_gpu();
}
void mrt_gpu_set_producer_delay(mrt_gpu_exec *x, unsigned ns) { (void)x, (void)ns; }
int mrt_bench_pdl(const int *ms, int n_ms, FILE *out) {
    (void)ms, (void)n_ms;
    fprintf(out, "bench pdl: megartp was built without CUDA (no nvcc found)\n");
    return -1;
}
mrt_status mrt_gpu_mega_step(mrt_gpu_exec *x, int copy, int reload) {
    (void)x, (void)copy, (void)reload;
    return no_gpu();
}
mrt_status mrt_gpu_trace_step(mrt_gpu_exec *x, const char *executor, int copy, mrt_trace *t) {
    (void)x, (void)executor, (void)copy, (void)t;
    return no_gpu();
}
