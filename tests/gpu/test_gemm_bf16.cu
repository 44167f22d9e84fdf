/* BF16 GEMMs on the GPU against an fp64 CPU reference: the head gate C0 (x [M,6144] bf16 .
 * W_gate [32,6144]^T, split-K, fp32 out [M,32]) and the batched W_UK absorption D2
 * (q_nope [M,64,192] inside q [M,64,256] . W_uk [64][192][512] -> bf16 [M,64,576] at column
 * h*576, the rope columns 512..575 left untouched), for M in {1, 3, 8, 16, 64, 128, 256}.
 * Fresh random inputs, output poisoned with 0xFF before every run, rel err <= 1e-2,
 * identical bytes over --reps runs (default 100; plain and PDL kernels alternating). */
#include "gemm_test_util.h"

static uint16_t rand_bf16(test_rng &r, float amp) { return mrt_f32_to_bf16((r.sym() + r.sym()) * amp); }

struct bf16_case {
    const char *name;
    int mn; /* 0: C0 (K-major W, fp32 out); 1: D2 (MN-major batched W, bf16 out into [M,64,576]) */
    int split;
    int reduce_cluster;
};

static void run_case(const bf16_case &c, int M, const test_opts &o, uint64_t seed) {
    /* shapes */
    const int H = c.mn ? 64 : 1, K = c.mn ? 192 : 6144, N = c.mn ? 512 : 32;
    const long x_ld = c.mn ? 64 * 256 : 6144, x_bcol = c.mn ? 256 : 0;
    const long out_ld = c.mn ? 64 * 576 : 32, out_bstride = c.mn ? 576 : 0;
    const int esz = c.mn ? 2 : 4;
    std::vector<uint16_t> x((size_t)M * x_ld), w((size_t)H * K * N);
    test_parallel_for(M, [&](long m) {
        test_rng r(seed * 31 + m);
        float amp = 0.25f + 2.0f * r.uniform();
        for (long j = 0; j < x_ld; j++) x[(size_t)m * x_ld + j] = rand_bf16(r, amp);
    });
    test_parallel_for((long)H * K, [&](long row) {
        test_rng r(seed * 131 + 7 + row);
        for (int j = 0; j < N; j++) w[(size_t)row * N + j] = rand_bf16(r, 0.05f);
    });
    /* reference: C0 W is [N][K]; D2 W is [h][K][N] */
    std::vector<double> ref((size_t)M * H * N);
    test_parallel_for((long)H * N, [&](long hn) {
        int h = (int)(hn / N), n = (int)(hn % N);
        for (int m = 0; m < M; m++) {
            double acc = 0;
            for (int k = 0; k < K; k++) {
                double xv = mrt_bf16_to_f32(x[(size_t)m * x_ld + h * x_bcol + k]);
                double wv = c.mn ? mrt_bf16_to_f32(w[((size_t)h * K + k) * N + n]) : mrt_bf16_to_f32(w[(size_t)n * K + k]);
                acc += xv * wv;
            }
            ref[((size_t)m * H + h) * N + n] = acc;
        }
    });

    const size_t out_bytes = (size_t)M * out_ld * esz;
    void *dx, *dw, *dout, *ws = NULL;
    CUDA_OK(cudaMalloc(&dx, x.size() * 2));
    CUDA_OK(cudaMalloc(&dw, w.size() * 2));
    CUDA_OK(cudaMalloc(&dout, out_bytes));
    CUDA_OK(cudaMemcpy(dx, x.data(), x.size() * 2, cudaMemcpyHostToDevice));
    CUDA_OK(cudaMemcpy(dw, w.data(), w.size() * 2, cudaMemcpyHostToDevice));
    const int kind = c.mn ? 2 : 1;
    size_t ws_bytes = mrt_gpu_gemm_workspace_bytes(kind, M, N, K, H, c.split);
    if (ws_bytes) {
        CUDA_OK(cudaMalloc(&ws, ws_bytes));
        CUDA_OK(cudaMemset(ws, 0, ws_bytes));
    }
    mrt_gpu_gemm_bf16_args a;
    memset(&a, 0, sizeof a);
    a.M = M, a.N = N, a.K = K, a.batches = H, a.x = dx, a.x_ld = x_ld, a.x_batch_col = x_bcol;
    a.w = dw, a.w_mn_major = c.mn, a.out = dout, a.out_ld = out_ld, a.out_batch_stride = out_bstride;
    a.out_f32 = !c.mn, a.split = c.split, a.reduce_cluster = c.reduce_cluster, a.workspace = ws, a.workspace_bytes = ws_bytes;
    mrt_gpu_gemm g;
    char why[512];
    if (!CHECK(mrt_gpu_gemm_bf16_plan(&g, &a, why, sizeof why) == 0, "%s M=%d: plan failed: %s", c.name, M, why))
        return;

    std::vector<uint8_t> first(out_bytes), again(out_bytes);
    int identical = 1, runs = 0;
    for (int rep = 0; rep < o.reps; rep++) {
        CUDA_OK(cudaMemset(dout, 0xFF, out_bytes));
        if (!CHECK(mrt_gpu_gemm_run(&g, NULL, rep & 1, why, sizeof why) == 0, "%s: %s", c.name, why)) break;
        CUDA_OK(cudaGetLastError());
        CUDA_OK(cudaDeviceSynchronize());
        CUDA_OK(cudaMemcpy(rep ? again.data() : first.data(), dout, out_bytes, cudaMemcpyDeviceToHost));
        if (rep && memcmp(first.data(), again.data(), out_bytes)) identical = 0;
        runs++;
    }
    /* gather the written region; everything else must still be poison */
    std::vector<float> of((size_t)M * H * N);
    long poisoned = 0, clobbered = 0;
    for (int m = 0; m < M; m++)
        for (long j = 0; j < out_ld; j++) {
            size_t off = (size_t)m * out_ld + j;
            int h = c.mn ? (int)(j / 576) : 0, n = c.mn ? (int)(j % 576) : (int)j;
            int is_poison;
            float v;
            if (esz == 4) {
                uint32_t u;
                memcpy(&u, &first[off * 4], 4);
                is_poison = u == 0xFFFFFFFFu, v = mrt_bits_f32(u);
            } else {
                uint16_t u;
                memcpy(&u, &first[off * 2], 2);
                is_poison = u == 0xFFFF, v = mrt_bf16_to_f32(u);
            }
            if (n < N) {
                of[((size_t)m * H + h) * N + n] = v;
                poisoned += is_poison;
            } else {
                clobbered += !is_poison;
            }
        }
    double rel = test_rel_err(of.data(), ref.data(), (long)of.size());
    int ok = rel <= 1e-2 && !poisoned && !clobbered && identical;
    printf("bf16 %-2s K=%-4d N=%-3d batches=%-2d M=%-3d tn=%-3d split=%-2d %s stages=%d grid=%-4d: rel err %.3e, "
           "unwritten %ld, clobbered %ld, %s over %d runs: %s\n",
           c.name, K, N, H, M, g.tn, g.split, g.split == 1 ? "(none)  " : g.cluster > 1 ? "(cluster)" : "(global)",
           g.stages, g.grid, rel, poisoned, clobbered,
           identical ? "identical" : "DIFFERENT", runs, ok ? "ok" : "FAIL");
    if (!ok) test_describe_errors(of.data(), ref.data(), M, H * N, H * N);
    CHECK(!poisoned, "%s M=%d: %ld outputs never written", c.name, M, poisoned);
    CHECK(!clobbered, "%s M=%d: %ld elements outside the output region written", c.name, M, clobbered);
    CHECK(rel <= 1e-2, "%s M=%d: rel err %.3e > 1e-2", c.name, M, rel);
    CHECK(identical, "%s M=%d: outputs differ between runs", c.name, M);
    cudaFree(dx), cudaFree(dw), cudaFree(dout);
    if (ws) cudaFree(ws);
}

int main(int argc, char **argv) {
    if (test_gpu_skip()) return 0;
    test_opts o = test_parse(argc, argv);
    const bf16_case cases[] = {{"C0", 0, 0, 0}, {"D2", 1, 0, 0}};
    const int ms_all[] = {1, 3, 8, 16, 64, 128, 256}, ms_quick[] = {1, 16, 256};
    const int *ms = o.quick ? ms_quick : ms_all;
    const int nms = o.quick ? 3 : 7;
    uint64_t seed = 1000;
    for (const bf16_case &c : cases)
        for (int i = 0; i < nms; i++)
            if (!o.only || !strcmp(o.only, c.name)) run_case(c, ms[i], o, seed++);
    const bf16_case extra[] = {{"C0", 0, 1, 0}, {"C0", 0, 24, 0}, {"C0", 0, 16, -1}};
    for (const bf16_case &c : extra)
        if (!o.only || !strcmp(o.only, "C0")) run_case(c, 16, o, seed++), run_case(c, 200, o, seed++);
    TEST_MAIN_END();
}
