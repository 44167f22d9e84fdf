/* The verifier and the CPU executor's race detector agree: random single edits of a valid
 * plan's encoded instructions (drop a wait, lower or raise a threshold, drop a signal, swap
 * two queue slots, move a task to another queue) are either rejected by the verifier, or run
 * on the CPU executor without a race or a deadlock and give the unedited plan's bytes. */
#include <string.h>

#include "glm5_check.h"
#include "internal.h"
#include "testing.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(uint32_t n) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 11) % n;
}

static uint32_t *slot(mrt_plan *p, int w, int s) { return p->instr + ((size_t)w * p->max_len + s) * MRT_INSTR_WORDS; }

int main(void) {
    mrt_context *ctx = mrt_context_new();
    glm5_config c = glm5_config_glm5();
    glm5_shape s = {4, 2, 300};
    mrt_graph *g = NULL;
    glm5_host in = {0}, out = {0};
    mrt_plan_opts o = mrt_plan_opts_default();
    o.tiling = MRT_TILING_SEED;
    o.workers = 40; /* queues several deep, so order edits matter */
    mrt_status st = glm5_prefix_graph(ctx, &c, &s, &g);
    if (!st) st = glm5_host_random(ctx, &c, &s, 9, &in);
    if (!CHECK(st == MRT_OK, "set-up: %s", mrt_last_error(ctx))) TEST_MAIN_END();
    void *bufs[MRT_MAX_TENSORS] = {0};
    /* the unedited plan's bytes */
    mrt_plan *p0 = NULL;
    st = mrt_plan_build(g, &o, &p0);
    glm5_host_clone(ctx, &in, &out);
    glm5_bind(g, &out, bufs);
    mrt_cpu_opts co = mrt_cpu_opts_default();
    if (!st) st = mrt_cpu_run(p0, bufs, &co);
    uint64_t want = glm5_digest(&out);
    glm5_host_free(&out);
    CHECK(st == MRT_OK, "unedited plan runs: %s", mrt_last_error(ctx));
    int rejected = 0, accepted = 0, bad = 0, kinds[6] = {0};
    for (int trial = 0; trial < 120 && p0; trial++) {
        mrt_plan *p = NULL;
        if (mrt_plan_build(g, &o, &p)) break;
        int kind = (int)rnd(6), w = (int)rnd((uint32_t)p->workers), k = (int)rnd((uint32_t)p->max_len);
        mrt_instr in1 = {0};
        mrt_instr_decode(slot(p, w, k), &in1);
        kinds[kind]++;
        switch (kind) {
        case 0: if (in1.wait_count) in1.wait_count--; break;
        case 1: if (in1.wait_count) in1.waits[0].threshold--; break;
        case 2: if (in1.wait_count) in1.waits[0].threshold++; break;
        case 3: if (in1.signal_count) in1.signal_count--; break;
        }
        if (kind <= 3) mrt_instr_encode(&in1, slot(p, w, k));
        else { /* 4: swap two slots of a queue; 5: swap slots of two queues */
            int w2 = kind == 4 ? w : (int)rnd((uint32_t)p->workers), k2 = (int)rnd((uint32_t)p->max_len);
            uint32_t tmp[MRT_INSTR_WORDS];
            memcpy(tmp, slot(p, w, k), sizeof tmp);
            memcpy(slot(p, w, k), slot(p, w2, k2), sizeof tmp);
            memcpy(slot(p, w2, k2), tmp, sizeof tmp);
        }
        if (mrt_plan_verify(p) != MRT_OK) {
            rejected++;
            mrt_plan_free(p);
            continue;
        }
        accepted++;
        glm5_host_clone(ctx, &in, &out);
        glm5_bind(g, &out, bufs);
        co.seed = (uint64_t)trial;
        st = mrt_cpu_run(p, bufs, &co);
        if (!CHECK(st == MRT_OK && glm5_digest(&out) == want,
                   "trial %d (edit %d at worker %d slot %d): the verifier accepted it but the executor says %s (%s)",
                   trial, kind, w, k, mrt_status_name(st), st ? mrt_last_error(ctx) : "other bytes"))
            bad++;
        glm5_host_free(&out);
        mrt_plan_free(p);
    }
    printf("120 edits (drop wait %d, threshold -1 %d, threshold +1 %d, drop signal %d, swap in queue %d, swap across "
           "queues %d): %d rejected, %d accepted and run clean, %d disagreements\n",
           kinds[0], kinds[1], kinds[2], kinds[3], kinds[4], kinds[5], rejected, accepted - bad, bad);
    CHECK(rejected > 0 && accepted > 0, "both outcomes occur (%d rejected, %d accepted)", rejected, accepted);
    mrt_plan_free(p0);
    glm5_host_free(&in);
    mrt_graph_free(g);
    mrt_context_free(ctx);
    TEST_MAIN_END();
}
