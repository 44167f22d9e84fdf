/* The whole GLM-5 prefix on the GPU (issue [D], "What it must show" 1): the serial
 * executor's step against the CPU executor at every M in {1, 8, 16, 64, 128} and KV in
 * {1, 100, 8192, 65536} where a request's new tokens fit its context (20 shapes; the largest
 * CPU reference, M=128 KV=65536, takes ~32 s on 2 cores of the build machine, 2026-11-29),
 * outputs poisoned before the run, fresh random inputs per shape; identical bytes across
 * 100 replays, as kernels and as a CUDA graph. Prints "SKIP" without a GPU. */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "glm5_check.h"
#include "gpu.h"
#include "internal.h"
#include "testing.h"

static mrt_context *ctx;

static mrt_status upload_all(mrt_gpu_exec *x, const mrt_graph *g, const glm5_host *h) {
    return glm5_upload(x, g, h, 1);
}

static void one_shape(glm5_config c, glm5_shape s, int replays) {
    mrt_graph *g = NULL;
    mrt_plan *p = NULL;
    glm5_host in, cpu, gpu;
    memset(&in, 0, sizeof in), memset(&cpu, 0, sizeof cpu), memset(&gpu, 0, sizeof gpu);
    mrt_gpu_exec *x = NULL;
    void *bufs[MRT_MAX_TENSORS] = {};
    mrt_status st = glm5_prefix_graph(ctx, &c, &s, &g);
    if (!st) st = mrt_plan_build(g, NULL, &p);
    if (!st) st = glm5_host_random(ctx, &c, &s, 100 + (uint64_t)s.m * 7 + (uint64_t)s.kv, &in);
    if (!st) st = glm5_host_clone(ctx, &in, &cpu);
    if (!st) st = glm5_host_clone(ctx, &in, &gpu);
    if (!st) {
        glm5_bind(g, &cpu, bufs);
        mrt_cpu_opts o = mrt_cpu_opts_default();
        o.threads = 16; /* the reference's bytes do not depend on the interleaving */
        st = mrt_cpu_run(p, bufs, &o);
    }
    if (!st) st = mrt_gpu_exec_new(p, 1, &x);
    if (!st) st = upload_all(x, g, &in);
    if (!st) st = mrt_gpu_serial_step(x, 0, 0);
    if (!st) st = mrt_gpu_sync(x);
    if (!st) st = glm5_download(x, g, &gpu);
    if (CHECK(st == MRT_OK, "M %d batch %d kv %d: %s", s.m, s.batch, s.kv, mrt_last_error(ctx))) {
        printf("serial vs cpu executor, M %d batch %d kv %d:\n", s.m, s.batch, s.kv);
        glm5_check_summary sum;
        int fails = glm5_compare(&gpu, &cpu, GLM5_OUT_ALL, GLM5_TOL_DEVICE, stdout, &sum);
        CHECK(fails == 0, "M %d kv %d: %d outputs out of tolerance", s.m, s.kv, fails);
        /* cmp: the same kernels on several streams with PDL: the same bytes */
        uint64_t ds = glm5_digest(&gpu);
        /* the inputs come from a seed fixed per shape: two builds give the same bytes iff the same digest */
        printf("  serial digest M %d kv %d: %016llx\n", s.m, s.kv, (unsigned long long)ds);
        glm5_host cm;
        memset(&cm, 0, sizeof cm);
        mrt_status s2 = glm5_host_clone(ctx, &in, &cm);
        for (int t = 0; t < mrt_graph_num_tensors(g) && !s2; t++) /* fresh poison everywhere */
            if (!glm5_host_buffer(&in, mrt_tensor_name(mrt_graph_tensor(g, t))) ||
                mrt_tensor_role(mrt_graph_tensor(g, t)) == MRT_ROLE_OUTPUT)
                s2 = mrt_gpu_poison(x, t);
        if (!s2) s2 = upload_all(x, g, &in);
        if (!s2) s2 = mrt_gpu_cmp_step(x, 0);
        if (!s2) s2 = mrt_gpu_sync(x);
        if (!s2) s2 = glm5_download(x, g, &cm);
        if (CHECK(s2 == MRT_OK, "cmp M %d kv %d: %s", s.m, s.kv, mrt_last_error(ctx)))
            CHECK(glm5_digest(&cm) == ds, "cmp M %d kv %d: bytes differ from serial", s.m, s.kv);
        /* the cmp graph's edges: the cross-stream joins are programmatic edges (MRT_CMP_CROSS_PDL) */
        mrt_cmp_edges ce;
        if (CHECK(mrt_gpu_cmp_edges(x, 0, &ce) == MRT_OK, "cmp edges: %s", mrt_last_error(ctx))) {
            printf("  cmp graph: %d edges, %d programmatic, %d of them cross-stream joins (cross PDL %s)\n", ce.edges,
                   ce.prog, ce.joins, ce.cross_pdl ? "on" : "off");
            CHECK(ce.prog >= ce.joins && (!ce.cross_pdl || ce.joins > 0) && (ce.cross_pdl || ce.joins == 0),
                  "cmp graph: %d programmatic edges, %d programmatic joins, cross PDL %d", ce.prog, ce.joins, ce.cross_pdl);
        }
        glm5_host_free(&cm);
        if (replays) {
            uint64_t d0 = glm5_digest(&gpu);
            int same = 0;
            for (int r = 0; r < replays && !st; r++) {
                st = mrt_gpu_serial_step(x, 0, r & 1);
                if (!st) st = mrt_gpu_sync(x);
                if (!st) st = glm5_download(x, g, &gpu);
                same += !st && glm5_digest(&gpu) == d0;
            }
            CHECK(same == replays, "%d of %d replays (kernels and graph) gave identical bytes: %s", same, replays,
                  st ? mrt_last_error(ctx) : "");
            printf("  %d replays: %d identical\n", replays, same);
            /* 1000 cmp graph replays, then a slow producer (A0 holds its outputs 200 us):
             * PDL consumers must still read only finished data */
            int csame = 0;
            for (int r = 0; r < 1000 && !st; r++) {
                st = mrt_gpu_cmp_step(x, 0);
                if (r % 100 == 99 || r == 999) {
                    if (!st) st = mrt_gpu_sync(x);
                    if (!st) st = glm5_download(x, g, &gpu);
                    csame += !st && glm5_digest(&gpu) == d0;
                }
            }
            CHECK(csame == 10, "cmp: %d of 10 sampled replays (of 1000) identical: %s", csame, st ? mrt_last_error(ctx) : "");
            mrt_gpu_set_producer_delay(x, 200000);
            for (int t = 0; t < mrt_graph_num_tensors(g) && !st; t++)
                if (mrt_tensor_role(mrt_graph_tensor(g, t)) == MRT_ROLE_WORKSPACE ||
                    mrt_tensor_role(mrt_graph_tensor(g, t)) == MRT_ROLE_OUTPUT)
                    st = mrt_gpu_poison(x, t);
            if (!st) st = mrt_gpu_cmp_step(x, 0);
            if (!st) st = mrt_gpu_sync(x);
            if (!st) st = glm5_download(x, g, &gpu);
            CHECK(!st && glm5_digest(&gpu) == d0, "cmp with a slow producer: bytes differ (an early read?) %s",
                  st ? mrt_last_error(ctx) : "");
            mrt_gpu_set_producer_delay(x, 0);
            printf("  cmp: 1000 replays identical to serial (%d/10 sampled), slow producer exact\n", csame);
        }
    }
    mrt_gpu_exec_free(x);
    glm5_host_free(&in);
    glm5_host_free(&cpu);
    glm5_host_free(&gpu);
    mrt_plan_free(p);
    mrt_graph_free(g);
}

int main(int argc, char **argv) {
    char why[256];
    if (!mrt_gpu_available(why, sizeof why)) {
        printf("SKIP: %s\n0 passed, 0 failed\n", why);
        return 0;
    }
    ctx = mrt_context_new();
    if (argc > 1 && !strcmp(argv[1], "--quick")) { /* one small step, 2 replays, 1000 cmp replays */
        one_shape(glm5_config_glm5(), (glm5_shape){16, 2, 300}, 2);
        mrt_context_free(ctx);
        TEST_MAIN_END();
    }
    if (argc > 1 && !strcmp(argv[1], "--tiny")) { /* racecheck: the step of a reduced-size model (hidden
                                                  * 1024, 4 heads, q_lora 512), whose kernels have
                                                  * the GLM-5 kernels' code and a fraction of their
                                                  * shared-memory traffic; one serial and cmp step */
        one_shape(glm5_config_reduced(), (glm5_shape){4, 2, 300}, 0);
        mrt_context_free(ctx);
        TEST_MAIN_END();
    }
    if (argc > 1 && !strcmp(argv[1], "--sanitize")) { /* one small serial and cmp step, no replays:
                                                       * racecheck runs each launch ~1000x slower */
        one_shape(glm5_config_glm5(), (glm5_shape){4, 2, 300}, 0);
        mrt_context_free(ctx);
        TEST_MAIN_END();
    }
    one_shape(glm5_config_glm5(), (glm5_shape){16, 2, 8192}, 100);
    int ms[] = {1, 8, 16, 64, 128}, kvs[] = {1, 100, 8192, 65536};
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 4; j++) {
            int m = ms[i], kv = kvs[j], batch = kv == 1 ? m : m >= 2 ? 2 : 1;
            if (m / batch > kv) continue;
            if (m == 16 && kv == 8192) continue; /* done above */
            one_shape(glm5_config_glm5(), (glm5_shape){m, batch, kv}, 0);
        }
    mrt_context_free(ctx);
    TEST_MAIN_END();
}
