/* FP8 block-scaled GEMM on the GPU against an fp64 CPU reference, for every GLM-5 fp8
 * shape (B0 6144->2624, B1 6144->128, D0 2048->16384, D1 2048->4096) and M in
 * {1, 3, 8, 16, 64, 128, 256}, plus forced-split cases. Per case: fresh random inputs
 * (quantized like the real ones: 1x128 activation scales, 128x128 weight scales), output
 * poisoned with 0xFF before every run, rel err <= 1e-2, and identical bytes over --reps
 * runs (default 100; alternating the plain and the PDL / griddepcontrol.wait kernels).
 * fp32 cases with a global split-K also run with partials_out (check_partials_out).
 * Build: make (build/tests/gpu/test_gemm_fp8) or scripts/gpu-check.sh. */
#include "gemm_test_util.h"

struct fp8_case {
    const char *name;
    int N, K;
    int out_f32;
    int split; /* 0: planner's */
    int reduce_cluster;
};

/* Decoded e4m3 values (exact in fp32). */
static float e4m3_lut[256];

struct fp8_data {
    int M, N, K;
    std::vector<uint8_t> x8, w8;
    std::vector<float> sx, sw;
};

static void gen_fp8(fp8_data &d, uint64_t seed) {
    const int M = d.M, N = d.N, K = d.K, nkb = K / 128, nnb = (N + 127) / 128;
    d.x8.assign((size_t)M * K, 0), d.w8.assign((size_t)N * K, 0);
    d.sx.assign((size_t)M * nkb, 0), d.sw.assign((size_t)nnb * nkb, 0);
    /* activations: per row an amplitude; per 1x128 group the block scale of its amax */
    test_parallel_for(M, [&](long m) {
        test_rng r(seed * 1000003 + m);
        float amp = 0.25f + 4.0f * r.uniform(), v[128];
        for (int kb = 0; kb < nkb; kb++) {
            float amax = 0;
            for (int i = 0; i < 128; i++) {
                v[i] = (r.sym() + r.sym()) * amp;
                if (r.uniform() < 0.01f) v[i] *= 8.0f; /* a few outliers, as real activations have */
                amax = fmaxf(amax, fabsf(v[i]));
            }
            float s = mrt_block_scale(amax);
            d.sx[(size_t)m * nkb + kb] = s;
            for (int i = 0; i < 128; i++) d.x8[(size_t)m * K + kb * 128 + i] = mrt_f32_to_e4m3(v[i] / s);
        }
    });
    /* weights: per 128x128 block a magnitude (2^-4 .. 2^2) and the block scale of its amax */
    test_parallel_for((long)nnb * nkb, [&](long b) {
        int nb = (int)(b / nkb), kb = (int)(b % nkb);
        test_rng r(seed * 7919 + 17 + b);
        float mag = ldexpf(1.0f, (int)(r.uniform() * 7) - 4), amax = 0;
        int rows = N - nb * 128 < 128 ? N - nb * 128 : 128;
        std::vector<float> v((size_t)rows * 128);
        for (auto &e : v) e = r.sym() * mag, amax = fmaxf(amax, fabsf(e));
        float s = mrt_block_scale(amax);
        d.sw[(size_t)nb * nkb + kb] = s;
        for (int i = 0; i < rows; i++)
            for (int k = 0; k < 128; k++)
                d.w8[(size_t)(nb * 128 + i) * K + kb * 128 + k] = mrt_f32_to_e4m3(v[(size_t)i * 128 + k] / s);
    });
}

/* ref[m, n] = sum_kb sx[m,kb] * sw[n/128,kb] * sum_k x[m,k] W[n,k], in fp64. */
static void ref_fp8(const fp8_data &d, std::vector<double> &ref) {
    const int M = d.M, N = d.N, K = d.K, nkb = K / 128;
    std::vector<float> xf((size_t)M * K), wf((size_t)N * K);
    for (size_t i = 0; i < xf.size(); i++) xf[i] = e4m3_lut[d.x8[i]];
    test_parallel_for(N, [&](long n) {
        for (int k = 0; k < K; k++) wf[(size_t)n * K + k] = e4m3_lut[d.w8[(size_t)n * K + k]];
    });
    ref.assign((size_t)M * N, 0);
    test_parallel_for(N, [&](long n) {
        const float *w = &wf[(size_t)n * K];
        for (int m = 0; m < M; m++) {
            const float *x = &xf[(size_t)m * K];
            double acc = 0;
            for (int kb = 0; kb < nkb; kb++) {
                double dot = 0;
                for (int k = kb * 128; k < kb * 128 + 128; k++) dot += (double)x[k] * (double)w[k];
                acc += dot * (double)d.sx[(size_t)m * nkb + kb] * (double)d.sw[(size_t)(n / 128) * nkb + kb];
            }
            ref[(size_t)m * N + n] = acc;
        }
    });
}

/* partials_out (what the serial executor's fp8 GEMMs use): the same plan leaves its split
 * partials unsummed and does not write out; summed on the host in split order (0 + p0 + p1
 * ...), they must give the bytes the kernel's own reduction gave (`reduced`). Planes and out
 * are poisoned first, both kernel variants run. */
static void check_partials_out(const fp8_case &c, mrt_gpu_gemm_fp8_args a, const std::vector<uint8_t> &reduced,
                               void *out, size_t out_bytes, size_t ws_bytes, int M) {
    const int N = a.N;
    a.partials_out = 1;
    mrt_gpu_gemm g;
    char why[512];
    if (!CHECK(mrt_gpu_gemm_fp8_plan(&g, &a, why, sizeof why) == 0, "%s M=%d partials_out: plan failed: %s", c.name, M,
               why))
        return;
    if (!CHECK(g.partials && g.split > 1 && g.cluster == 1 && g.workspace_need <= ws_bytes,
               "%s M=%d partials_out: plan has no planes (split %d, cluster %d)", c.name, M, g.split, g.cluster))
        return;
    const size_t plane = (size_t)M * N, pbytes = plane * g.split * 4;
    std::vector<float> planes(plane * g.split), sum(plane);
    for (int pdl = 0; pdl < 2; pdl++) {
        CUDA_OK(cudaMemset(out, 0xFF, out_bytes));
        CUDA_OK(cudaMemset((void *)g.partials, 0xFF, pbytes));
        if (!CHECK(mrt_gpu_gemm_run(&g, NULL, pdl, why, sizeof why) == 0, "%s partials_out: %s", c.name, why)) return;
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(planes.data(), g.partials, pbytes, cudaMemcpyDeviceToHost));
        std::vector<uint8_t> o(out_bytes);
        CUDA_OK(cudaMemcpy(o.data(), out, out_bytes, cudaMemcpyDeviceToHost));
        long written = 0;
        for (size_t i = 0; i < out_bytes; i++) written += o[i] != 0xFF;
        for (size_t i = 0; i < plane; i++) {
            float v = 0.0f;
            for (int sp = 0; sp < g.split; sp++) v += planes[sp * plane + i];
            sum[i] = v;
        }
        const bool same = memcmp(sum.data(), reduced.data(), plane * 4) == 0;
        printf("fp8 %-3s K=%-5d N=%-5d M=%-3d partials_out split=%-2d pdl=%d: host sum of the planes %s the kernel's "
               "reduction; out bytes written %ld\n",
               c.name, a.K, N, M, g.split, pdl, same ? "equals" : "DIFFERS FROM", written);
        CHECK(same, "%s M=%d partials_out: summed planes differ from the kernel's reduction", c.name, M);
        CHECK(written == 0, "%s M=%d partials_out: %ld bytes of out written", c.name, M, written);
    }
}

static void run_case(const fp8_case &c, int M, const test_opts &o, uint64_t seed) {
    fp8_data d;
    d.M = M, d.N = c.N, d.K = c.K;
    gen_fp8(d, seed);
    std::vector<double> ref;
    ref_fp8(d, ref);

    const int N = c.N, K = c.K, esz = c.out_f32 ? 4 : 2;
    const size_t out_bytes = (size_t)M * N * esz;
    void *x8, *w8, *out;
    float *sx, *sw;
    CUDA_OK(cudaMalloc(&x8, d.x8.size()));
    CUDA_OK(cudaMalloc(&w8, d.w8.size()));
    CUDA_OK(cudaMalloc((void **)&sx, d.sx.size() * 4));
    CUDA_OK(cudaMalloc((void **)&sw, d.sw.size() * 4));
    CUDA_OK(cudaMalloc(&out, out_bytes));
    CUDA_OK(cudaMemcpy(x8, d.x8.data(), d.x8.size(), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(w8, d.w8.data(), d.w8.size(), cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(sx, d.sx.data(), d.sx.size() * 4, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(sw, d.sw.data(), d.sw.size() * 4, cudaMemcpyHostToDevice));

    mrt_gpu_gemm_fp8_args a;
    memset(&a, 0, sizeof a);
    a.M = M, a.N = N, a.K = K, a.x8 = x8, a.sx = sx, a.w = w8, a.sw = sw;
    a.out = out, a.out_ld = N, a.out_f32 = c.out_f32, a.split = c.split, a.reduce_cluster = c.reduce_cluster;
    size_t ws_bytes = mrt_gpu_gemm_workspace_bytes(0, M, N, K, 1, c.split);
    void *ws = NULL;
    if (ws_bytes) {
        CUDA_OK(cudaMalloc(&ws, ws_bytes));
        CUDA_OK(cudaMemset(ws, 0, ws_bytes));
    }
    a.workspace = ws, a.workspace_bytes = ws_bytes;
    mrt_gpu_gemm g;
    char why[512];
    if (!CHECK(mrt_gpu_gemm_fp8_plan(&g, &a, why, sizeof why) == 0, "%s M=%d: plan failed: %s", c.name, M, why))
        return;
    CHECK(g.workspace_need <= ws_bytes, "%s M=%d: workspace_bytes says %zu, plan needs %zu", c.name, M, ws_bytes,
          g.workspace_need);
    /* the scales by TMA wherever sx's rows are a multiple of 16 bytes (K a multiple of 512;
     * the T0 smoke case, K = 128, covers the gather) */
    CHECK(g.sx_tma == (K % 512 == 0), "%s M=%d K=%d: activation scales by %s", c.name, M, K,
          g.sx_tma ? "TMA" : "the gather");

    std::vector<uint8_t> first(out_bytes), again(out_bytes);
    int identical = 1, runs = 0;
    for (int rep = 0; rep < o.reps; rep++) {
        CUDA_OK(cudaMemset(out, 0xFF, out_bytes));
        if (!CHECK(mrt_gpu_gemm_run(&g, NULL, rep & 1, why, sizeof why) == 0, "%s: %s", c.name, why)) break;
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(rep ? again.data() : first.data(), out, out_bytes, cudaMemcpyDeviceToHost));
        if (rep && memcmp(first.data(), again.data(), out_bytes)) identical = 0;
        runs++;
    }
    std::vector<float> of((size_t)M * N);
    long poisoned = 0;
    for (size_t i = 0; i < of.size(); i++) {
        if (c.out_f32) {
            uint32_t u;
            memcpy(&u, &first[i * 4], 4);
            poisoned += u == 0xFFFFFFFFu;
            of[i] = mrt_bits_f32(u);
        } else {
            uint16_t h;
            memcpy(&h, &first[i * 2], 2);
            poisoned += h == 0xFFFF;
            of[i] = mrt_bf16_to_f32(h);
        }
    }
    double rel = test_rel_err(of.data(), ref.data(), (long)of.size());
    int ok = rel <= 1e-2 && poisoned == 0 && identical;
    printf("fp8 %-3s K=%-5d N=%-5d M=%-3d %s tn=%-3d split=%-2d %s stages=%d grid=%-4d sx=%s: rel err %.3e, unwritten %ld, "
           "%s over %d runs: %s\n",
           c.name, K, N, M, c.out_f32 ? "f32 " : "bf16", g.tn, g.split,
           g.split == 1 ? "(none)  " : g.cluster > 1 ? "(cluster)" : "(global)", g.stages, g.grid,
           g.sx_tma ? "tma   " : "gather", rel, poisoned,
           identical ? "identical" : "DIFFERENT", runs, ok ? "ok" : "FAIL");
    if (!ok) test_describe_errors(of.data(), ref.data(), M, N, N);
    CHECK(poisoned == 0, "%s M=%d: %ld outputs never written", c.name, M, poisoned);
    CHECK(rel <= 1e-2, "%s M=%d: rel err %.3e > 1e-2", c.name, M, rel);
    CHECK(identical, "%s M=%d: outputs differ between runs", c.name, M);
    if (c.out_f32 && g.split > 1) check_partials_out(c, a, first, out, out_bytes, ws_bytes, M);
    cudaFree(x8), cudaFree(w8), cudaFree(sx), cudaFree(sw), cudaFree(out);
    if (ws) cudaFree(ws);
}

/* Bad shapes are refused with a message naming the problem. */
static void check_refusals(void) {
    mrt_gpu_gemm g;
    mrt_gpu_gemm_fp8_args a;
    char why[512];
    memset(&a, 0, sizeof a);
    a.M = 4, a.N = 100, a.K = 256, a.x8 = a.w = a.out = (void *)256, a.sx = a.sw = (const float *)256, a.out_ld = 104;
    CHECK(mrt_gpu_gemm_fp8_plan(&g, &a, why, sizeof why) != 0 && strstr(why, "N = 100"), "N=100 accepted: %s", why);
    a.N = 128, a.K = 200, a.out_ld = 128;
    CHECK(mrt_gpu_gemm_fp8_plan(&g, &a, why, sizeof why) != 0 && strstr(why, "K = 200"), "K=200 accepted: %s", why);
    a.K = 256, a.M = 0;
    CHECK(mrt_gpu_gemm_fp8_plan(&g, &a, why, sizeof why) != 0 && strstr(why, "M = 0"), "M=0 accepted: %s", why);
    a.M = 4, a.split = 2, a.reduce_cluster = -1; /* the global reduction needs a workspace */
    CHECK(mrt_gpu_gemm_fp8_plan(&g, &a, why, sizeof why) != 0 && strstr(why, "workspace"), "no workspace accepted: %s",
          why);
    a.split = 3;
    CHECK(mrt_gpu_gemm_fp8_plan(&g, &a, why, sizeof why) != 0 && strstr(why, "split 3"), "split 3 of 2 accepted: %s",
          why);
}

int main(int argc, char **argv) {
    if (test_gpu_skip()) return 0;
    test_opts o = test_parse(argc, argv);
    for (int i = 0; i < 256; i++) e4m3_lut[i] = mrt_e4m3_to_f32((uint8_t)i);
    const fp8_case cases[] = {
        {"T0", 128, 128, 0, 0, 0}, /* smoke: one tile, one K block */
        {"B0", 2624, 6144, 0, 0, 0},
        {"B1", 128, 6144, 1, 0, 0},
        {"D0", 16384, 2048, 0, 0, 0},
        {"D1", 4096, 2048, 0, 0, 0}};
    const int ms_all[] = {1, 3, 8, 16, 64, 128, 256}, ms_quick[] = {1, 16, 256};
    const int *ms = o.quick ? ms_quick : ms_all;
    const int nms = o.quick ? 3 : 7;
    uint64_t seed = 1;
    check_refusals();
    for (const fp8_case &c : cases)
        for (int i = 0; i < nms; i++)
            if (!o.only || !strcmp(o.only, c.name)) run_case(c, ms[i], o, seed++);
    /* forced splits: no split where the planner splits, splits where it does not, and the
     * cluster (distributed shared memory) reduction next to the global one; fp32 outputs with
     * the serial executor's splits (B0 6, D1 4, B1 16, global), whose partials_out planes
     * check_partials_out sums against the kernel's reduction */
    const fp8_case forced[] = {{"D0", 16384, 2048, 0, 4, 0}, {"D0", 16384, 2048, 0, 4, 1},
                               {"B0", 2624, 6144, 0, 1, 0},  {"B0", 2624, 6144, 0, 6, 1},
                               {"B1", 128, 6144, 0, 48, 0},  {"B1", 128, 6144, 0, 16, -1},
                               {"D1", 4096, 2048, 0, 2, 1},  {"B0", 2624, 6144, 1, 6, -1},
                               {"D1", 4096, 2048, 1, 4, -1}, {"B1", 128, 6144, 1, 16, -1}};
    for (const fp8_case &c : forced) {
        if (o.only && strcmp(o.only, "forced")) continue;
        run_case(c, 16, o, seed++);
        run_case(c, 200, o, seed++);
    }
    TEST_MAIN_END();
}
