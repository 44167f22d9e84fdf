/* OpGraph validation: each bad input gets an error that names the problem. */
#include <string.h>

#include "glm5_prefix.h"
#include "megartp.h"
#include "testing.h"

static mrt_tensor *T(mrt_graph *g, const char *name, mrt_dtype dt, mrt_role role, int64_t d0, int64_t d1) {
    int64_t dims[2] = {d0, d1};
    return mrt_tensor_new(g, name, dt, role, 2, dims);
}

static void expect(mrt_context *ctx, mrt_status got, mrt_status want, const char *what, const char *needle) {
    CHECK(got == want, "%s: status %s, want %s (%s)", what, mrt_status_name(got), mrt_status_name(want), mrt_last_error(ctx));
    CHECK(strstr(mrt_last_error(ctx), needle) != NULL, "%s: message \"%s\" does not name \"%s\"", what, mrt_last_error(ctx),
          needle);
}

int main(void) {
    mrt_context *ctx = mrt_context_new();
    /* shape mismatch: a GEMM whose weight's K differs from its input's */
    mrt_graph *g = mrt_graph_new(ctx);
    mrt_tensor *x = T(g, "x", MRT_BF16, MRT_ROLE_INPUT, 16, 6144), *w = T(g, "W_gate", MRT_BF16, MRT_ROLE_WEIGHT, 32, 6016);
    mrt_tensor *o = T(g, "gate", MRT_F32, MRT_ROLE_OUTPUT, 16, 32);
    CHECK(mrt_op_new(g, "gemm_bf16", "C0", 2, (mrt_tensor *[]){x, w}, 1, (mrt_tensor *[]){o}, NULL) != NULL, "op made");
    expect(ctx, mrt_graph_validate(g), MRT_ERR_SHAPE, "K mismatch", "x has 6144 columns, weight W_gate has 6016");
    mrt_graph_free(g);
    /* dtype mismatch */
    g = mrt_graph_new(ctx);
    x = T(g, "x", MRT_E4M3, MRT_ROLE_INPUT, 16, 6144), w = T(g, "W_gate", MRT_BF16, MRT_ROLE_WEIGHT, 32, 6144);
    o = T(g, "gate", MRT_F32, MRT_ROLE_OUTPUT, 16, 32);
    mrt_op_new(g, "gemm_bf16", "C0", 2, (mrt_tensor *[]){x, w}, 1, (mrt_tensor *[]){o}, NULL);
    expect(ctx, mrt_graph_validate(g), MRT_ERR_DTYPE, "dtype", "tensor x is e4m3, expected bf16");
    /* wrong output shape */
    mrt_graph_free(g);
    g = mrt_graph_new(ctx);
    x = T(g, "x", MRT_BF16, MRT_ROLE_INPUT, 16, 6144), w = T(g, "W_gate", MRT_BF16, MRT_ROLE_WEIGHT, 32, 6144);
    o = T(g, "gate", MRT_F32, MRT_ROLE_OUTPUT, 8, 32);
    mrt_op_new(g, "gemm_bf16", "C0", 2, (mrt_tensor *[]){x, w}, 1, (mrt_tensor *[]){o}, NULL);
    expect(ctx, mrt_graph_validate(g), MRT_ERR_SHAPE, "output rows", "tensor gate has 8 in dim 0, expected 16");
    mrt_graph_free(g);
    /* a cycle: a -> b -> a */
    g = mrt_graph_new(ctx);
    mrt_tensor *a = T(g, "a", MRT_BF16, MRT_ROLE_WORKSPACE, 16, 128), *b = T(g, "b", MRT_BF16, MRT_ROLE_WORKSPACE, 16, 128);
    w = T(g, "w", MRT_BF16, MRT_ROLE_WEIGHT, 128, 128);
    mrt_op_new(g, "gemm_bf16", "X", 2, (mrt_tensor *[]){a, w}, 1, (mrt_tensor *[]){b}, NULL);
    mrt_op_new(g, "gemm_bf16", "Y", 2, (mrt_tensor *[]){b, w}, 1, (mrt_tensor *[]){a}, NULL);
    expect(ctx, mrt_graph_validate(g), MRT_ERR_GRAPH, "cycle", "cycle through ops: X Y");
    mrt_graph_free(g);
    /* an unknown op kind */
    g = mrt_graph_new(ctx);
    a = T(g, "a", MRT_BF16, MRT_ROLE_INPUT, 16, 128), b = T(g, "b", MRT_BF16, MRT_ROLE_OUTPUT, 16, 128);
    CHECK(mrt_op_new(g, "conv2d", "K", 1, (mrt_tensor *[]){a}, 1, (mrt_tensor *[]){b}, NULL) == NULL, "unknown kind refused");
    expect(ctx, MRT_ERR_UNKNOWN_OP, MRT_ERR_UNKNOWN_OP, "unknown op", "unknown op kind \"conv2d\"");
    /* a tensor with two producers; an op writing an input */
    mrt_tensor *ww = T(g, "w", MRT_BF16, MRT_ROLE_WEIGHT, 128, 128);
    mrt_op_new(g, "gemm_bf16", "P", 2, (mrt_tensor *[]){a, ww}, 1, (mrt_tensor *[]){b}, NULL);
    mrt_op_new(g, "gemm_bf16", "Q", 2, (mrt_tensor *[]){a, ww}, 1, (mrt_tensor *[]){b}, NULL);
    expect(ctx, mrt_graph_validate(g), MRT_ERR_GRAPH, "two producers", "b is written by two ops: P and Q");
    mrt_graph_free(g);
    g = mrt_graph_new(ctx);
    a = T(g, "a", MRT_BF16, MRT_ROLE_INPUT, 16, 128), ww = T(g, "w", MRT_BF16, MRT_ROLE_WEIGHT, 128, 128);
    mrt_op_new(g, "gemm_bf16", "P", 2, (mrt_tensor *[]){a, ww}, 1, (mrt_tensor *[]){a}, NULL);
    expect(ctx, mrt_graph_validate(g), MRT_ERR_GRAPH, "writes an input", "op P writes tensor a, whose role is input");
    mrt_graph_free(g);
    /* M = 0: in the model builder and in a raw graph */
    glm5_config c = glm5_config_glm5();
    mrt_graph *gg = NULL;
    glm5_shape s0 = {0, 2, 8192};
    mrt_status st = glm5_prefix_graph(ctx, &c, &s0, &gg);
    CHECK(st != MRT_OK && gg == NULL, "M = 0 refused");
    CHECK(strstr(mrt_last_error(ctx), "m") != NULL || strstr(mrt_last_error(ctx), "M") != NULL, "M = 0 message: %s",
          mrt_last_error(ctx));
    printf("M = 0: %s\n", mrt_last_error(ctx));
    g = mrt_graph_new(ctx);
    a = T(g, "h", MRT_BF16, MRT_ROLE_INPUT, 0, 128), b = T(g, "o", MRT_BF16, MRT_ROLE_OUTPUT, 0, 128);
    ww = T(g, "w", MRT_BF16, MRT_ROLE_WEIGHT, 128, 128);
    mrt_op_new(g, "gemm_bf16", "P", 2, (mrt_tensor *[]){a, ww}, 1, (mrt_tensor *[]){b}, NULL);
    expect(ctx, mrt_graph_validate(g), MRT_ERR_SHAPE, "M = 0 raw", "tensor h: dimension 0 is 0");
    mrt_graph_free(g);
    /* more bad shapes through the builder: context shorter than the new tokens, M not a
     * multiple of batch */
    glm5_shape s1 = {16, 2, 4}, s2 = {15, 2, 8192};
    expect(ctx, glm5_prefix_graph(ctx, &c, &s1, &gg), MRT_ERR_SHAPE, "kv < new tokens", "shorter than the 8 new tokens");
    CHECK(glm5_prefix_graph(ctx, &c, &s2, &gg) == MRT_ERR_SHAPE, "M 15 with batch 2 refused: %s", mrt_last_error(ctx));
    /* bad plan options */
    glm5_shape ok = {16, 2, 8192};
    glm5_prefix_graph(ctx, &c, &ok, &gg);
    mrt_plan_opts po = mrt_plan_opts_default();
    po.workers = 0;
    mrt_plan *p = NULL;
    expect(ctx, mrt_plan_build(gg, &po, &p), MRT_ERR_INVALID, "0 workers", "--workers 0");
    CHECK(p == NULL, "no plan on error");
    mrt_graph_free(gg);
    mrt_context_free(ctx);
    TEST_MAIN_END();
}
