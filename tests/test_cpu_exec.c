/* The CPU executor against the naive reference (issue [B], "What it must show" 1, 2, 4):
 * full GLM-5 size in both tilings, DeepSeek-V3.2 dimensions, 50 interleavings and real
 * threads with identical bytes, the race detector on a plan with one wait removed, and
 * bad runtime inputs refused before anything is written. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glm5_check.h"
#include "internal.h"
#include "testing.h"

static mrt_context *ctx;

typedef struct setup {
    mrt_graph *g;
    mrt_plan *p;
    glm5_host in, ref;
} setup;

static bool make(setup *s, const glm5_config *c, glm5_shape sh, mrt_tiling tiling, uint64_t seed, const char *split) {
    memset(s, 0, sizeof *s);
    mrt_plan_opts o = mrt_plan_opts_default();
    o.tiling = tiling, o.split = split;
    mrt_status st = glm5_prefix_graph(ctx, c, &sh, &s->g);
    if (!st) st = mrt_plan_build(s->g, &o, &s->p);
    if (!st) st = glm5_host_random(ctx, c, &sh, seed, &s->in);
    if (!st) st = glm5_host_clone(ctx, &s->in, &s->ref);
    if (!st) st = glm5_naive(ctx, &s->ref);
    return CHECK(st == MRT_OK, "set-up M %d kv %d: %s", sh.m, sh.kv, mrt_last_error(ctx));
}

static void drop(setup *s) {
    glm5_host_free(&s->in);
    glm5_host_free(&s->ref);
    mrt_plan_free(s->p);
    mrt_graph_free(s->g);
}

/* Runs the executor on a fresh copy of the inputs; returns its status. */
static mrt_status run(setup *s, glm5_host *out, mrt_cpu_opts o) {
    if (glm5_host_clone(ctx, &s->in, out)) return MRT_ERR_NOMEM;
    void *bufs[MRT_MAX_TENSORS] = {0};
    glm5_bind(s->g, out, bufs);
    return mrt_cpu_run(s->p, bufs, &o);
}

static void against_reference(const char *what, const glm5_config *c, glm5_shape sh, mrt_tiling tiling,
                              const char *split) {
    setup s;
    if (!make(&s, c, sh, tiling, 7, split)) return;
    glm5_host out = {0};
    double t0 = mrt_now_us();
    mrt_status st = run(&s, &out, mrt_cpu_opts_default());
    double t = (mrt_now_us() - t0) * 1e-6;
    if (CHECK(st == MRT_OK, "%s: %s", what, mrt_last_error(ctx))) {
        printf("%s (M %d, batch %d, kv %d, %s tiling%s%s, %d tasks) in %.2f s:\n", what, sh.m, sh.batch, sh.kv,
               tiling == MRT_TILING_SEED ? "seed" : "default", split ? ", --split " : "", split ? split : "",
               s.p->n_tasks, t);
        glm5_check_summary sum;
        int fails = glm5_compare(&out, &s.ref, glm5_plan_outputs(s.p), GLM5_TOL_REFERENCE, stdout, &sum);
        CHECK(fails == 0, "%s: %d outputs out of tolerance", what, fails);
        CHECK(t < 60, "%s took %.1f s, want < 60", what, t);
    }
    glm5_host_free(&out);
    drop(&s);
}

/* 50 seeded interleavings and a 4-thread run: identical bytes every time. */
static void interleavings(void) {
    glm5_config c = glm5_config_glm5();
    setup s;
    if (!make(&s, &c, (glm5_shape){4, 2, 300}, MRT_TILING_DEFAULT, 11, NULL)) return;
    uint64_t first = 0;
    int same = 0;
    for (int i = 0; i < 50; i++) {
        glm5_host out = {0};
        mrt_cpu_opts o = mrt_cpu_opts_default();
        o.seed = 1000 + (uint64_t)i;
        if (CHECK(run(&s, &out, o) == MRT_OK, "interleaving %d: %s", i, mrt_last_error(ctx))) {
            uint64_t d = glm5_digest(&out);
            if (i == 0) {
                first = d;
                CHECK(glm5_compare(&out, &s.ref, GLM5_OUT_ALL, GLM5_TOL_REFERENCE, NULL, NULL) == 0, "interleaving 0 matches the reference");
            }
            same += d == first;
        }
        glm5_host_free(&out);
    }
    CHECK(same == 50, "%d of 50 interleavings gave identical bytes", same);
    /* other placements of the same graph: other queues, the same bytes; E1 in other chunks
     * (--chunk: 256 keys, two tasks a request here, and one of 2048): other tasks, the same
     * logits, so the same bytes; A0's rows in slices (--split A0: 4 of 12 groups each, 8 of
     * 6): every slice sums the whole row, so the same factor and the same bytes */
    for (int k = 0; k < 8; k++) {
        mrt_plan_opts o = mrt_plan_opts_default();
        const char *what[] = {"critical-path", "roundrobin --place D0=64-131,D2=64-131,D1=0-63,E1=0-63",
                              "--chunk E1=256 --split D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131",
                              "--chunk E1=2048", "--split A0=4", "--split A0=8,D1=2 critical-path",
                              "critical-path --place D0=64-131,D2=64-131,E1=0-63", "--block-n D0=256,B0=256"};
        if (k == 0) o.policy = MRT_POLICY_CRITICAL_PATH;
        if (k == 1) o.place = "D0=64-131,D2=64-131,D1=0-63,E1=0-63";
        if (k == 2) o.chunk = "E1=256", o.split = "D1=2", o.place = "D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131";
        if (k == 3) o.chunk = "E1=2048";
        if (k == 4) o.split = "A0=4";
        if (k == 5) o.split = "A0=8,D1=2", o.policy = MRT_POLICY_CRITICAL_PATH;
        if (k == 6) o.place = "D0=64-131,D2=64-131,E1=0-63", o.policy = MRT_POLICY_CRITICAL_PATH;
        if (k == 7) o.block_n = "D0=256,B0=256"; /* tasks of 256 output columns */
        mrt_plan *other = NULL;
        if (CHECK(mrt_plan_build(s.g, &o, &other) == MRT_OK, "%s plan: %s", what[k], mrt_last_error(ctx))) {
            mrt_plan *keep = s.p;
            s.p = other;
            glm5_host out = {0};
            if (CHECK(run(&s, &out, mrt_cpu_opts_default()) == MRT_OK, "%s run: %s", what[k], mrt_last_error(ctx)))
                CHECK(glm5_digest(&out) == first, "%s gave the same bytes as roundrobin", what[k]);
            glm5_host_free(&out);
            s.p = keep;
            mrt_plan_free(other);
        }
    }
    for (int th = 2; th <= 4; th += 2) {
        glm5_host out = {0};
        mrt_cpu_opts o = mrt_cpu_opts_default();
        o.threads = th;
        if (CHECK(run(&s, &out, o) == MRT_OK, "%d threads: %s", th, mrt_last_error(ctx)))
            CHECK(glm5_digest(&out) == first, "%d real threads gave the same bytes", th);
        glm5_host_free(&out);
    }
    printf("50 interleavings and 2/4 real threads: identical bytes (%d of 50)\n", same);
    drop(&s);
}

/* Top-k with a row over several workers (--split F1=P: slices, each a task, the group's last
 * member merges): the same indices as the one-task row (the reference tile function) for
 * logits full of ties, infinities, NaN and signed zeros, rows with fewer finite logits than k
 * and none at all, k from 1 to beyond the row; seeded interleavings, real threads and the
 * critical-path placement. */
static void topk_slices(void) {
    static const int kvs[] = {1000, 4099, 300}, ks[] = {1, 100, 2048, 5000};
    uint64_t rng = 0x9E3779B97F4A7C15ull;
    int runs = 0, same = 0;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 4; b++) {
            const int64_t m = 5, kv = kvs[a], k = ks[b], dl[2] = {m, kv}, dk[2] = {m, k};
            mrt_graph *g = mrt_graph_new(ctx);
            mrt_tensor *l = mrt_tensor_new(g, "logits", MRT_F32, MRT_ROLE_INPUT, 2, dl);
            mrt_tensor *o = mrt_tensor_new(g, "idx", MRT_I32, MRT_ROLE_OUTPUT, 2, dk);
            mrt_op_params pr = {.i = {(int32_t)k}};
            if (!CHECK(mrt_op_new(g, "topk", "F1", 1, &l, 1, &o, &pr) != NULL, "topk op: %s", mrt_last_error(ctx))) {
                mrt_graph_free(g);
                return;
            }
            float *L = malloc(sizeof(float) * (size_t)(m * kv));
            int32_t *ref = malloc(sizeof(int32_t) * (size_t)(m * k)), *out = malloc(sizeof(int32_t) * (size_t)(m * k));
            for (int64_t i = 0; i < m * kv; i++) { /* 40 values: ties everywhere */
                rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
                const int v = (int)(rng >> 40) % 64, r = (int)(i / kv);
                L[i] = v < 40 ? (float)(v - 20) * 0.375f : v < 44 ? INFINITY : v < 48 ? -INFINITY : v < 52 ? NAN
                                                          : v < 56 ? -0.0f : 0.0f;
                if (r == 3) L[i] = (i % kv) % 7 ? NAN : L[i]; /* few finite logits */
                if (r == 4) L[i] = -INFINITY;                   /* none */
            }
            void *bufs[MRT_MAX_TENSORS] = {0};
            bufs[l->id] = L;
            for (int split = 1; split <= 16; split += split < 3 ? 1 : split) { /* 1 2 3 6 12 */
                char sp[16];
                snprintf(sp, sizeof sp, "F1=%d", split);
                mrt_plan_opts po = mrt_plan_opts_default();
                po.workers = 7, po.split = sp;
                mrt_plan *p = NULL, *cp = NULL;
                if (!CHECK(mrt_plan_build(g, &po, &p) == MRT_OK, "kv %lld --split %s: %s", (long long)kv, sp,
                           mrt_last_error(ctx)))
                    continue;
                po.policy = MRT_POLICY_CRITICAL_PATH; /* run 4: the other placement policy */
                if (split > 1 && !CHECK(mrt_plan_build(g, &po, &cp) == MRT_OK, "kv %lld --split %s critical-path: %s",
                                        (long long)kv, sp, mrt_last_error(ctx))) {
                    mrt_plan_free(p);
                    continue;
                }
                for (int t = 0; t < (split == 1 ? 1 : 5); t++) {
                    int32_t *dst = split == 1 ? ref : out;
                    memset(dst, 0x5A, sizeof(int32_t) * (size_t)(m * k)); /* poison */
                    bufs[o->id] = dst;
                    mrt_cpu_opts co = mrt_cpu_opts_default();
                    co.seed = 77 + (uint64_t)t, co.threads = t == 3 ? 3 : 0;
                    if (!CHECK(mrt_cpu_run(t == 4 ? cp : p, bufs, &co) == MRT_OK, "kv %lld k %lld --split %s (run %d): %s",
                               (long long)kv, (long long)k, sp, t, mrt_last_error(ctx)))
                        continue;
                    if (split == 1) continue;
                    runs++;
                    same += CHECK(memcmp(ref, out, sizeof(int32_t) * (size_t)(m * k)) == 0,
                                  "kv %lld k %lld --split %s (run %d): other indices than one task a row", (long long)kv,
                                  (long long)k, sp, t);
                }
                mrt_plan_free(p), mrt_plan_free(cp);
            }
            /* the reference itself: ascending, -1 after min(k, finite logits) */
            for (int64_t r = 0; r < m; r++) {
                int64_t fin = 0, bad = 0;
                for (int64_t j = 0; j < kv; j++) fin += isfinite(L[r * kv + j]) != 0;
                const int64_t want = fin < k ? fin : k;
                for (int64_t i = 0; i < k; i++) {
                    const int32_t j = ref[r * k + i];
                    bad += i < want ? j < 0 || j >= kv || (i > 0 && j <= ref[r * k + i - 1]) : j != -1;
                }
                CHECK(bad == 0, "kv %lld k %lld row %lld: %lld bad reference entries", (long long)kv, (long long)k,
                      (long long)r, (long long)bad);
            }
            free(L), free(ref), free(out);
            mrt_graph_free(g);
        }
    printf("top-k in slices: %d of %d runs gave the one-task row's indices\n", same, runs);
}

/* One wait removed (the verifier bypassed): the executor reports the unprotected read
 * under every interleaving, whether the producer happened to run first or not. */
static void race_detection(void) {
    glm5_config c = glm5_config_glm5();
    setup s;
    if (!make(&s, &c, (glm5_shape){4, 2, 300}, MRT_TILING_SEED, 3, NULL)) return;
    const mrt_op *d0 = mrt_graph_find_op(s.g, "D0");
    int t = s.p->op_first_task[d0->id] + 9;
    uint32_t *w = s.p->instr + ((size_t)s.p->tasks[t].worker * s.p->max_len + s.p->tasks[t].slot) * MRT_INSTR_WORDS;
    mrt_instr in = {0};
    CHECK(mrt_instr_decode(w, &in) == 0 && in.wait_count == 1, "D0[9] waits once");
    in.wait_count = 0;
    mrt_instr_encode(&in, w);
    int caught = 0;
    for (int i = 0; i < 10; i++) {
        glm5_host out = {0};
        mrt_cpu_opts o = mrt_cpu_opts_default();
        o.seed = (uint64_t)i;
        mrt_status st = run(&s, &out, o);
        const char *msg = mrt_last_error(ctx);
        if (st == MRT_ERR_RACE && strstr(msg, "D0[9]") && strstr(msg, "qr8") && strstr(msg, "unprotected read")) caught++;
        if (i == 0) printf("one wait removed -> %s\n", msg);
        glm5_host_free(&out);
    }
    CHECK(caught == 10, "the unprotected read of D0[9] was reported in %d of 10 interleavings", caught);
    drop(&s);
}

/* Positions that disagree with the plan, or a block table pointing outside the cache,
 * are refused before any write: caches and outputs stay as they were. */
static void bad_inputs(void) {
    glm5_config c = glm5_config_glm5();
    setup s;
    if (!make(&s, &c, (glm5_shape){4, 2, 300}, MRT_TILING_DEFAULT, 5, NULL)) return;
    for (int k = 0; k < 2; k++) {
        glm5_host out = {0};
        glm5_host_clone(ctx, &s.in, &out);
        if (k == 0) out.pos[3] += 1;
        else out.block_table[1] = out.num_blocks + 7;
        uint64_t before = glm5_digest(&out);
        void *bufs[MRT_MAX_TENSORS] = {0};
        glm5_bind(s.g, &out, bufs);
        mrt_cpu_opts o = mrt_cpu_opts_default();
        mrt_status st = mrt_cpu_run(s.p, bufs, &o);
        const char *want = k == 0 ? "pos[3]" : "block_table[0][1]";
        CHECK(st == MRT_ERR_INVALID && strstr(mrt_last_error(ctx), want), "bad %s: %s", want, mrt_last_error(ctx));
        CHECK(glm5_digest(&out) == before, "bad %s: outputs and caches untouched", want);
        printf("bad input -> %s\n", mrt_last_error(ctx));
        glm5_host_free(&out);
    }
    /* a missing buffer is named */
    void *bufs[MRT_MAX_TENSORS] = {0};
    glm5_bind(s.g, &s.in, bufs);
    bufs[mrt_graph_find_tensor(s.g, "W_qb")->id] = NULL;
    mrt_cpu_opts o = mrt_cpu_opts_default();
    CHECK(mrt_cpu_run(s.p, bufs, &o) == MRT_ERR_INVALID && strstr(mrt_last_error(ctx), "W_qb"), "missing buffer: %s",
          mrt_last_error(ctx));
    drop(&s);
}

int main(void) {
    ctx = mrt_context_new();
    glm5_config c = glm5_config_glm5(), d = glm5_config_dsv32(), r = glm5_config_reduced();
    against_reference("GLM-5", &c, (glm5_shape){16, 2, 8192}, MRT_TILING_DEFAULT, NULL);
    against_reference("GLM-5", &c, (glm5_shape){16, 2, 8192}, MRT_TILING_SEED, NULL);
    against_reference("GLM-5", &c, (glm5_shape){64, 4, 2000}, MRT_TILING_SEED, NULL);
    against_reference("GLM-5", &c, (glm5_shape){1, 1, 1}, MRT_TILING_DEFAULT, NULL);
    against_reference("DeepSeek-V3.2", &d, (glm5_shape){8, 2, 1000}, MRT_TILING_DEFAULT, NULL);
    against_reference("DeepSeek-V3.2", &d, (glm5_shape){8, 2, 1000}, MRT_TILING_SEED, NULL);
    /* the sanitizer runs' model (test_serial / test_mega_prefix --tiny) and shape */
    against_reference("GLM-5 reduced", &r, (glm5_shape){4, 2, 300}, MRT_TILING_DEFAULT, NULL);
    /* A0's rows in two slices at the reduced size (test_mega_prefix --tiny's sanitized plan) */
    against_reference("GLM-5 reduced", &r, (glm5_shape){4, 2, 300}, MRT_TILING_DEFAULT, "A0=2");
    /* --split: D1 unsplit (its lone task finalizes), B0 and the head gate at other splits */
    against_reference("GLM-5", &c, (glm5_shape){4, 2, 300}, MRT_TILING_DEFAULT, "D1=1,B0=2,C0=3");
    /* F1 rows in 3 slices (128, 128 and 44 keys) */
    against_reference("GLM-5", &c, (glm5_shape){4, 2, 300}, MRT_TILING_DEFAULT, "F1=3");
    topk_slices();
    interleavings();
    race_detection();
    bad_inputs();
    mrt_context_free(ctx);
    TEST_MAIN_END();
}
