/* The public API alone (megartp.h): an engineer's own subgraph — add + RMSNorm + quant,
 * then a bf16 projection of its output — built with mrt_tensor_new / mrt_op_new, planned,
 * verified and run on the CPU executor, checked against a hand computation in double. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "megartp.h"
#include "testing.h"

static uint16_t bf16(float f) { /* round to nearest even */
    uint32_t u;
    memcpy(&u, &f, 4);
    u += 0x7FFFu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}
static float f32(uint16_t h) {
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

int main(void) {
    enum { M = 4, H = 256, N = 32 };
    mrt_context *ctx = mrt_context_new();
    mrt_graph *g = mrt_graph_new(ctx);
    int64_t mh[2] = {M, H}, hh[1] = {H}, mk[2] = {M, H / 128}, nh[2] = {N, H}, mn[2] = {M, N};
    mrt_tensor *h = mrt_tensor_new(g, "h", MRT_BF16, MRT_ROLE_INPUT, 2, mh);
    mrt_tensor *res = mrt_tensor_new(g, "res", MRT_BF16, MRT_ROLE_INPUT, 2, mh);
    mrt_tensor *w = mrt_tensor_new(g, "w", MRT_BF16, MRT_ROLE_WEIGHT, 1, hh);
    mrt_tensor *r = mrt_tensor_new(g, "r", MRT_BF16, MRT_ROLE_OUTPUT, 2, mh);
    mrt_tensor *x = mrt_tensor_new(g, "x", MRT_BF16, MRT_ROLE_OUTPUT, 2, mh);
    mrt_tensor *x8 = mrt_tensor_new(g, "x8", MRT_E4M3, MRT_ROLE_WORKSPACE, 2, mh);
    mrt_tensor *sx = mrt_tensor_new(g, "sx", MRT_F32, MRT_ROLE_WORKSPACE, 2, mk);
    mrt_tensor *wp = mrt_tensor_new(g, "w_proj", MRT_BF16, MRT_ROLE_WEIGHT, 2, nh);
    mrt_tensor *y = mrt_tensor_new(g, "y", MRT_F32, MRT_ROLE_OUTPUT, 2, mn);
    mrt_op_params norm = {.f = {1e-5f}};
    mrt_op *a0 = mrt_op_new(g, "add_rmsnorm_quant", "norm", 3, (mrt_tensor *[]){h, res, w}, 4,
                            (mrt_tensor *[]){r, x, x8, sx}, &norm);
    mrt_op *pj = mrt_op_new(g, "gemm_bf16", "proj", 2, (mrt_tensor *[]){x, wp}, 1, (mrt_tensor *[]){y}, NULL);
    CHECK(a0 && pj, "ops made: %s", mrt_last_error(ctx));
    mrt_plan *p = NULL;
    mrt_plan_opts o = mrt_plan_opts_default();
    o.workers = 8;
    mrt_status st = mrt_plan_build(g, &o, &p);
    if (!CHECK(st == MRT_OK, "plan: %s", mrt_last_error(ctx))) TEST_MAIN_END();
    mrt_plan_info info = mrt_plan_get_info(p);
    CHECK(info.ops == 2 && info.tasks >= 2 && info.events >= 1, "%d ops, %d tasks, %d events", info.ops, info.tasks,
          info.events);
    /* fresh random inputs, poisoned outputs */
    uint16_t hb[M * H], rb[M * H], wb[H], wpb[N * H], rout[M * H], xout[M * H];
    float yout[M * N];
    srand(12345);
    for (int i = 0; i < M * H; i++) hb[i] = bf16((float)rand() / RAND_MAX * 4 - 2), rb[i] = bf16((float)rand() / RAND_MAX - 0.5f);
    for (int i = 0; i < H; i++) wb[i] = bf16(0.8f + 0.4f * (float)rand() / RAND_MAX);
    for (int i = 0; i < N * H; i++) wpb[i] = bf16(((float)rand() / RAND_MAX - 0.5f) / 8);
    memset(rout, 0xFF, sizeof rout), memset(xout, 0xFF, sizeof xout), memset(yout, 0xFF, sizeof yout);
    void *bufs[16] = {0};
    bufs[mrt_tensor_id(h)] = hb, bufs[mrt_tensor_id(res)] = rb, bufs[mrt_tensor_id(w)] = wb;
    bufs[mrt_tensor_id(wp)] = wpb, bufs[mrt_tensor_id(r)] = rout, bufs[mrt_tensor_id(x)] = xout;
    bufs[mrt_tensor_id(y)] = yout;
    mrt_cpu_opts co = mrt_cpu_opts_default();
    st = mrt_cpu_run(p, bufs, &co);
    CHECK(st == MRT_OK, "cpu run: %s", mrt_last_error(ctx));
    /* the hand computation */
    double err_x = 0, ref_x = 0, err_y = 0, ref_y = 0;
    int r_exact = 1;
    for (int m = 0; m < M; m++) {
        double xs[H], ss = 0;
        for (int k = 0; k < H; k++) {
            float rv = f32(bf16(f32(hb[m * H + k]) + f32(rb[m * H + k])));
            r_exact &= rout[m * H + k] == bf16(rv);
            xs[k] = rv, ss += (double)rv * rv;
        }
        double rs = 1 / sqrt(ss / H + 1e-5);
        for (int k = 0; k < H; k++) {
            xs[k] = f32(wb[k]) * xs[k] * rs;
            err_x += pow(f32(xout[m * H + k]) - xs[k], 2), ref_x += xs[k] * xs[k];
        }
        for (int n = 0; n < N; n++) {
            double acc = 0;
            for (int k = 0; k < H; k++) acc += (double)f32(bf16((float)xs[k])) * f32(wpb[n * H + k]);
            err_y += pow(yout[m * N + n] - acc, 2), ref_y += acc * acc;
        }
    }
    CHECK(r_exact, "the new residual is bf16(h + res) exactly");
    CHECK(sqrt(err_x / ref_x) < 1e-2, "x rel err %.3g (bf16 rounding, < 1e-2)", sqrt(err_x / ref_x));
    CHECK(sqrt(err_y / ref_y) < 1e-2, "y rel err %.3g (< 1e-2)", sqrt(err_y / ref_y));
    printf("public API: %d tasks, %d events; x rel err %.2e, y rel err %.2e\n", info.tasks, info.events,
           sqrt(err_x / ref_x), sqrt(err_y / ref_y));
    /* the plan prints, and frees cleanly */
    FILE *f = tmpfile();
    CHECK(f && mrt_plan_print(p, f, 1) == MRT_OK, "plan prints as JSON");
    if (f) fclose(f);
    mrt_plan_free(p);
    mrt_graph_free(g);
    /* an output the tiling splits over K is refused, not overrun: its partials need the
     * executor's workspace */
    g = mrt_graph_new(ctx);
    int64_t big[2] = {M, 2048}, wbig[2] = {N, 2048};
    mrt_tensor *xi = mrt_tensor_new(g, "xi", MRT_BF16, MRT_ROLE_INPUT, 2, big);
    mrt_tensor *wi = mrt_tensor_new(g, "wi", MRT_BF16, MRT_ROLE_WEIGHT, 2, wbig);
    mrt_tensor *yo = mrt_tensor_new(g, "yo", MRT_F32, MRT_ROLE_OUTPUT, 2, mn);
    mrt_op_new(g, "gemm_bf16", "proj", 2, (mrt_tensor *[]){xi, wi}, 1, (mrt_tensor *[]){yo}, NULL);
    st = mrt_plan_build(g, &o, &p);
    static uint16_t xib[M * 2048], wib[N * 2048];
    float yob[M * N];
    void *b2[4] = {xib, wib, yob, NULL};
    if (!st) st = mrt_cpu_run(p, b2, &co);
    CHECK(st == MRT_ERR_INVALID && strstr(mrt_last_error(ctx), "yo is written as ") &&
              strstr(mrt_last_error(ctx), " split-K partials"),
          "a split output given a caller's buffer is refused: %s", mrt_last_error(ctx));
    mrt_plan_free(p);
    mrt_graph_free(g);
    mrt_context_free(ctx);
    TEST_MAIN_END();
}
