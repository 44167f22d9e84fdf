/* The GLM-5 prefix plan: the article's seed plan exactly (issue [A], "What it must show"
 * 2), other shapes and both models through the verifier (3), build time (3). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "glm5_prefix.h"
#include "internal.h"
#include "testing.h"

static mrt_plan *build(mrt_context *ctx, const glm5_config *c, glm5_shape s, mrt_plan_opts o, mrt_graph **g) {
    *g = NULL;
    mrt_status st = glm5_prefix_graph(ctx, c, &s, g);
    if (!CHECK(st == MRT_OK, "graph M %d batch %d kv %d: %s", s.m, s.batch, s.kv, mrt_last_error(ctx))) return NULL;
    mrt_plan *p = NULL;
    st = mrt_plan_build(*g, &o, &p);
    CHECK(st == MRT_OK, "plan M %d batch %d kv %d workers %d: %s", s.m, s.batch, s.kv, o.workers, mrt_last_error(ctx));
    return p;
}

/* B0's default tasks in `avail` workers: its N tiles x the largest split of its 48 K blocks
 * that fits (at least 1) */
static int b0_fit(int tiles, int avail) {
    static const int splits[] = {48, 24, 16, 12, 8, 6, 4, 3, 2, 1};
    for (size_t i = 0; i < sizeof splits / sizeof splits[0]; i++)
        if (tiles * splits[i] <= avail) return tiles * splits[i];
    return tiles;
}

static int op_tiles(const mrt_plan *p, const char *name) {
    const mrt_op *op = mrt_graph_find_op(p->g, name);
    return op && p->op_row[op->id] >= 0 ? p->op_tasks[op->id] : -1;
}

/* Events whose producers are tasks of `prod` and that a task of `cons` waits for. */
static int events_between(const mrt_plan *p, const char *prod, const char *cons, uint32_t *thr, int cap) {
    int n = 0, po = mrt_graph_find_op(p->g, prod)->id, co = mrt_graph_find_op(p->g, cons)->id;
    for (int e = 0; e < p->n_events; e++) {
        if (p->events[e].producer_op != po) continue;
        bool waited = false;
        for (int t = p->op_first_task[co]; t < p->op_first_task[co] + p->op_tasks[co] && !waited; t++)
            for (int j = 0; j < p->tasks[t].n_wait; j++) waited |= (int)p->tasks[t].wait[j].event == e;
        if (waited && n < cap) thr[n++] = p->events[e].threshold;
    }
    return n;
}

/* Every task of `cons` waits on exactly these thresholds (order free). */
static bool all_wait(const mrt_plan *p, const char *cons, const uint32_t *want, int n) {
    int co = mrt_graph_find_op(p->g, cons)->id;
    for (int t = p->op_first_task[co]; t < p->op_first_task[co] + p->op_tasks[co]; t++) {
        const mrt_task *k = &p->tasks[t];
        if (k->n_wait != n) return false;
        for (int i = 0; i < n; i++) {
            bool hit = false;
            for (int j = 0; j < n; j++) hit |= k->wait[j].threshold == want[i];
            if (!hit) return false;
        }
    }
    return true;
}

static void test_seed_plan(mrt_context *ctx) {
    glm5_config c = glm5_config_glm5();
    mrt_plan_opts o = mrt_plan_opts_default();
    o.policy = MRT_POLICY_ROUNDROBIN; /* the article's placement */
    o.workers = 148;
    o.tiling = MRT_TILING_SEED;
    mrt_graph *g;
    mrt_plan *p = build(ctx, &c, (glm5_shape){16, 2, 8192}, o, &g);
    if (!p) return;
    CHECK(p->n_tasks == 732, "tasks %d, want 732", p->n_tasks);
    CHECK(p->n_events == 70, "events %d, want 70", p->n_events);
    CHECK(p->workers == 148 && p->max_len == 5, "queue shape [%d, %d, 32], want [148, 5, 32]", p->workers, p->max_len);
    int five = 0, four = 0;
    for (int w = 0; w < p->workers; w++) five += p->queue_len[w] == 5, four += p->queue_len[w] == 4;
    CHECK(five == 140 && four == 8, "queue lengths: %d of 5 and %d of 4, want 140 and 8", five, four);
    const char *names[] = {"A0", "B0", "C0", "B1", "D1", "D0", "D2", "E1"};
    int tiles[] = {16, 84, 48, 8, 128, 128, 256, 64};
    for (int i = 0; i < 8; i++) CHECK(op_tiles(p, names[i]) == tiles[i], "%s has %d tiles, want %d", names[i], op_tiles(p, names[i]), tiles[i]);
    CHECK(op_tiles(p, "F1") == -1, "F1 is not in the article's plan");
    uint32_t thr[80];
    /* A0 -> {B0, B1}: one shared event e0 >= 16; A0 -> C0: e1 >= 16 */
    CHECK(events_between(p, "A0", "B0", thr, 80) == 1 && thr[0] == 16, "A0 -> B0: one event >= 16");
    CHECK(events_between(p, "A0", "B1", thr, 80) == 1 && thr[0] == 16, "A0 -> B1: one event >= 16");
    CHECK(events_between(p, "A0", "C0", thr, 80) == 1 && thr[0] == 16, "A0 -> C0: one event >= 16");
    CHECK(p->events[0].threshold == 16 && p->events[1].threshold == 16, "e0, e1 >= 16");
    CHECK(p->events[0].n_cons == 92 && p->events[1].n_cons == 48, "e0 serves B0+B1 (92 tasks, has %d), e1 C0 (48, has %d)",
          p->events[0].n_cons, p->events[1].n_cons);
    /* D1 waits on two events: >= 16 (B0's final Q tiles) and >= 48 (C0's partials) */
    uint32_t d1[2] = {16, 48};
    CHECK(all_wait(p, "D1", d1, 2), "every D1 task waits e2 >= 16 and e3 >= 48");
    CHECK(p->events[2].threshold == 16 && p->events[3].threshold == 48, "e2 >= 16, e3 >= 48 (have %u, %u)",
          p->events[2].threshold, p->events[3].threshold);
    CHECK(p->events[3].strategy == MRT_STRAT_REDUCE, "C0 -> D1 is a tile_reduce");
    uint32_t d0[1] = {16};
    CHECK(all_wait(p, "D0", d0, 1), "every D0 task waits e2 >= 16");
    /* 64 per-head events of threshold 2 between D0 and D2 */
    int n = events_between(p, "D0", "D2", thr, 80), two = 0;
    for (int i = 0; i < n; i++) two += thr[i] == 2;
    CHECK(n == 64 && two == 64, "D0 -> D2: %d events (%d of threshold 2), want 64 of 2", n, two);
    uint32_t d2[1] = {2};
    CHECK(all_wait(p, "D2", d2, 1), "every D2 task waits its head's event >= 2");
    /* E1 waits e68 >= 32 (D1's final head tiles) and e69 >= 1 (B1's cache write) */
    CHECK(p->events[68].threshold == 32 && p->events[69].threshold == 1, "e68 >= 32, e69 >= 1 (have %u, %u)",
          p->events[68].threshold, p->events[69].threshold);
    CHECK(events_between(p, "D1", "E1", thr, 80) == 1 && thr[0] == 32, "D1 -> E1: one event >= 32");
    CHECK(events_between(p, "B1", "E1", thr, 80) == 1 && thr[0] == 1, "B1 -> E1: one event >= 1");
    /* the JSON the CLI prints (`megartp plan ... --json`) carries the same facts */
    FILE *f = tmpfile();
    static char json[1 << 18];
    json[0] = 0;
    if (f && mrt_plan_print(p, f, 1) == MRT_OK) {
        rewind(f);
        size_t n = fread(json, 1, sizeof json - 1, f);
        json[n] = 0;
    }
    if (f) fclose(f);
    const char *keys[] = {"\"tasks\": 732", "\"events\": 70", "\"queue_shape\": [148, 5, 32]", "\"queue_lengths\": [5, 5",
                          "\"ops\": [", "\"name\": \"D2\", \"kind\": \"bmm_bf16\", \"tiles\": 256", "\"event_list\": [",
                          "{\"id\": 69, \"threshold\": 1", "\"producers\": [\"B1[0-7]\"]", "\"build_us\": ",
                          /* roundrobin: worker 0 takes plan-order tasks 0, 148, 296, 444, 592 of A0 16,
                           * B0 84, C0 48, B1 8, D1 128, D0 128, D2 256, E1 64 */
                          "\"queues\": [[\"A0[0]\", \"B1[0]\", \"D0[12]\", \"D2[32]\", \"D2[180]\"], ",
                          /* the cost model's inputs: A0's row of 6144, tokens 1, bytes 9 a value, flops 8 */
                          "\"task_costs\": [[\"A0[0]\", 1, 55296, 49152, "};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) CHECK(strstr(json, keys[i]) != NULL, "JSON lacks %s", keys[i]);
    /* the worker's step in each task's cost, for scripts/fit_costs.py: what the model adds to
     * a task's time (any task's cost less its time) */
    const char *gap = strstr(json, "\"cost_gap_us\": ");
    const double want = mrt_task_cost_us(p, &p->tasks[0]) - mrt_task_time_us(p, &p->tasks[0]);
    const double got = gap ? atof(gap + strlen("\"cost_gap_us\": ")) : NAN;
    CHECK(fabs(got - want) < 5e-4, "JSON's cost_gap_us %.3f (nan: missing), want %.3f", got, want);
    /* build time: the median of 5 builds (the first in a process also pays its page faults) */
    double us[5];
    for (int i = 0; i < 5; i++) {
        mrt_graph *g2;
        mrt_plan *p2 = build(ctx, &c, (glm5_shape){16, 2, 8192}, o, &g2);
        us[i] = p2 ? p2->build_us : 1e9;
        mrt_plan_free(p2);
        mrt_graph_free(g2);
    }
    for (int i = 1; i < 5; i++)
        for (int j = i; j > 0 && us[j - 1] > us[j]; j--) {
            double t = us[j];
            us[j] = us[j - 1], us[j - 1] = t;
        }
    printf("seed plan build: median %.0f us (fastest %.0f, slowest %.0f)\n", us[2], us[0], us[4]);
    /* A bound for gross regressions (a quadratic pass, a lost memo), not the speed target: that
     * is a figure `megartp plan` prints (its "build:" line), not a timed test. On the 2-core CI
     * machine an unchanged planner measured medians of 918-1163 us here (session 33), so the
     * 1000 us this asserted before failed by load alone. */
    CHECK(us[2] < 5000, "seed plan built in %.0f us (median of 5), want < 5000", us[2]);
    /* the same plan with whole pairing and with Mirage-style fusion still verifies */
    mrt_plan_free(p);
    mrt_graph_free(g);
    o.pairing = MRT_PAIRING_WHOLE;
    p = build(ctx, &c, (glm5_shape){16, 2, 8192}, o, &g);
    /* whole: one event per producer publication: A0 x2, B0 q, C0, D0, D1, B1 */
    if (p) CHECK(p->n_events == 7, "whole pairing: %d events, want 7", p->n_events);
    mrt_plan_free(p);
    mrt_graph_free(g);
    o.pairing = MRT_PAIRING_AUTO;
    o.fuse_events = 1;
    p = build(ctx, &c, (glm5_shape){16, 2, 8192}, o, &g);
    if (p) CHECK(p->n_events == 69, "fused events: %d, want 69 (A0's two publications share one counter)", p->n_events);
    mrt_plan_free(p);
    mrt_graph_free(g);
}

/* Tile counts follow the tiling rules at other shapes; every plan verifies (mrt_plan_build
 * runs the verifier). */
static void test_shapes(mrt_context *ctx) {
    glm5_config c = glm5_config_glm5();
    glm5_shape shapes[] = {{1, 1, 1},     {1, 1, 100},   {64, 2, 8192},  {256, 2, 8192}, {16, 2, 131072}, {2, 2, 100},
                           {256, 4, 131072}, {16, 2, 100}, {32, 2, 8192}, {48, 2, 1024}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        for (int tiling = 0; tiling < 2; tiling++)
            for (int workers = 132; workers <= 148; workers += 16) {
                mrt_plan_opts o = mrt_plan_opts_default();
                o.workers = workers;
                o.policy = workers == 148 ? MRT_POLICY_CRITICAL_PATH : MRT_POLICY_ROUNDROBIN;
                o.tiling = tiling ? MRT_TILING_SEED : MRT_TILING_DEFAULT;
                glm5_shape s = shapes[i];
                mrt_graph *g;
                mrt_plan *p = build(ctx, &c, s, o, &g);
                if (!p) continue;
                int mt16 = (s.m + 15) / 16;
                if (tiling) { /* the seed rules: blockM 16, 128-wide N tiles, fixed splits */
                    CHECK(op_tiles(p, "A0") == s.m, "seed A0 %d tiles at M %d", op_tiles(p, "A0"), s.m);
                    CHECK(op_tiles(p, "B0") == mt16 * 84, "seed B0 %d tiles at M %d", op_tiles(p, "B0"), s.m);
                    CHECK(op_tiles(p, "D0") == mt16 * 128 && op_tiles(p, "D2") == mt16 * 256, "seed D0/D2 at M %d", s.m);
                    CHECK(op_tiles(p, "E1") == s.batch * ((s.kv + 255) / 256), "seed E1 %d tiles at kv %d",
                          op_tiles(p, "E1"), s.kv);
                } else {
                    int mt = (s.m + 127) / 128;
                    /* split-K fills the workers once; B0 leaves its smaller siblings C0 and B1
                     * (16 tasks each, 32 at two M tiles) theirs: 21 N tiles x 4 (x 1 with two M
                     * tiles on 132 workers, x 2 on 148), D1 32 x 4 (x 2), D0 128 x 1; and A0's
                     * tasks too where its rows are in slices (M <= 16) and B0 keeps at least
                     * 3/4 of its tiles that way: M=2 and M=16 on 132 workers B0 21 x 3 (K
                     * splits divide its 48 K blocks; M=1's 16 slices leave it 84); rows whole
                     * (M=32, 48) not counted */
                    int b0 = op_tiles(p, "B0"), sib = op_tiles(p, "C0") + op_tiles(p, "B1"), a0 = op_tiles(p, "A0");
                    const int alone = b0_fit(21 * mt, workers - sib), beside = b0_fit(21 * mt, workers - sib - a0);
                    const int b0_want = s.m <= 16 && sib + a0 < workers && 4 * beside >= 3 * alone ? beside : alone;
                    if (workers == 132 && s.m >= 16 && s.m <= 64)
                        CHECK(b0_want == (s.m == 16 ? 63 : 84), "the rule's own B0 at M %d", s.m);
                    CHECK(b0 == b0_want && (b0 + sib + a0 <= workers || b0 == alone) &&
                              op_tiles(p, "D1") == 128 && op_tiles(p, "D0") == mt * 128,
                          "default B0 %d (siblings %d), D1 %d, D0 %d at M %d on %d workers", b0, sib,
                          op_tiles(p, "D1"), op_tiles(p, "D0"), s.m, workers);
                    /* F1: rows x slices at most the workers, slices of >= 16384 keys, at most 8
                     * (topk.c default_cfg): M=16 KV=131072 -> 8 a row, KV=8192 -> 1 */
                    const int by_keys = s.kv / 16384, by_w = workers / s.m;
                    int sl = by_keys < by_w ? by_keys : by_w;
                    if (sl > 8) sl = 8;
                    CHECK(op_tiles(p, "F1") == s.m * (sl > 1 ? sl : 1), "default F1 %d tasks at M %d kv %d on %d workers",
                          op_tiles(p, "F1"), s.m, s.kv, workers);
                    if (s.kv == 131072) /* the rule's figures: 8 slices of 16384 keys a row at M=16, 1 at M=256 */
                        CHECK(op_tiles(p, "F1") == (s.m == 16 ? 128 : s.m), "F1 %d tasks at M %d kv 131072",
                              op_tiles(p, "F1"), s.m);
                    /* A0: a row a task while the rows fit the workers, else the fewest rows a
                     * task that cover them (M=256: 2 rows, 128 tasks); up to 16 rows each in
                     * slices, 32 tasks in all (M=1: 16 slices, the most of a power of two its
                     * 48 groups take; M=2: 16, M=16: 2) */
                    const int a0_rows = s.m <= workers ? 1 : (s.m + workers - 1) / workers;
                    const int a0_slices = s.m == 1 ? 16 : s.m <= 16 ? 32 / s.m : 1;
                    CHECK(op_tiles(p, "A0") == (s.m + a0_rows - 1) / a0_rows * a0_slices,
                          "default A0 %d tasks at M %d on %d workers", op_tiles(p, "A0"), s.m, workers);
                }
                int real = 0, misplaced = 0;
                for (int w = 0; w < p->workers; w++) {
                    real += p->queue_len[w];
                    /* a queue's tasks fill its first queue_len slots, NoOp pads the rest (the
                     * megakernel stops at queue_len: GLM-5's plans have no NoOp tasks) */
                    for (int k = 0; k < p->max_len; k++) {
                        const uint32_t opc = p->instr[((size_t)w * p->max_len + k) * MRT_INSTR_WORDS] & 0xFFu;
                        misplaced += (k < p->queue_len[w]) == (opc == MRT_OPC_NOOP);
                    }
                }
                CHECK(real == p->n_tasks, "queues hold %d of %d tasks", real, p->n_tasks);
                CHECK(misplaced == 0, "%d queue slots hold a NoOp before their queue's length or a task after it",
                      misplaced);
                mrt_plan_free(p);
                mrt_graph_free(g);
            }
    /* DeepSeek-V3.2 dimensions build and verify too (192-wide heads straddle N tiles) */
    glm5_config d = glm5_config_dsv32();
    for (int tiling = 0; tiling < 2; tiling++) {
        mrt_plan_opts o = mrt_plan_opts_default();
        o.tiling = tiling ? MRT_TILING_SEED : MRT_TILING_DEFAULT;
        mrt_graph *g;
        mrt_plan *p = build(ctx, &d, (glm5_shape){16, 2, 8192}, o, &g);
        if (p) CHECK(op_tiles(p, "D2") == (tiling ? 128 * 4 : 128 * 2), "dsv32 D2 %d tiles", op_tiles(p, "D2"));
        /* A0 in 2 slices (32 tasks); B0 (17 N tiles, 56 K blocks) beside them would be 17 x 2 =
         * 34, half its 68: under the 3/4 share_workers asks, so it keeps 68 */
        if (p && !tiling)
            CHECK(op_tiles(p, "A0") == 32 && op_tiles(p, "B0") == 68, "dsv32 M=16: A0 %d, B0 %d tasks, want 32, 68",
                  op_tiles(p, "A0"), op_tiles(p, "B0"));
        mrt_plan_free(p);
        mrt_graph_free(g);
    }
    /* its 56 groups: A0's default 8 slices at M=1 (7 groups) cut across B0's K splits and need
     * more signals than a task has; the planner halves them to 4 (14 groups) */
    mrt_graph *g;
    mrt_plan *p = build(ctx, &d, (glm5_shape){1, 1, 8192}, mrt_plan_opts_default(), &g);
    if (p) CHECK(op_tiles(p, "A0") == 4, "dsv32 M=1: A0 in %d slices, want 4", op_tiles(p, "A0"));
    mrt_plan_free(p);
    mrt_graph_free(g);
}

/* The cost model's tokens: every task of a plan reports the rows it computes for (its op's
 * tokens()), here re-derived from the tiling (GEMM tiles 128 rows at M=128, an E1 tile its
 * request's 64, A0 and F1 one row), and the costs grow with them (a 128-row fp8 GEMM tile
 * costs more than a 16-row one with the same weights). */
static void test_cost_tokens(mrt_context *ctx) {
    glm5_config c = glm5_config_glm5();
    double b0_cost[2] = {0, 0};
    const int ms[2] = {16, 128};
    for (int i = 0; i < 2; i++) {
        mrt_graph *g;
        mrt_plan *p = build(ctx, &c, (glm5_shape){ms[i], 2, 8192}, mrt_plan_opts_default(), &g);
        if (!p) continue;
        int bad = 0;
        for (int t = 0; t < p->n_tasks; t++) {
            const mrt_task *k = &p->tasks[t];
            const char *name = p->g->ops[k->op].name;
            const int want = !strcmp(name, "A0") || !strcmp(name, "F1") ? 1 : !strcmp(name, "E1") ? ms[i] / 2 : ms[i];
            const mrt_op_class *oc = mrt_op_class_get(p->g->ops[k->op].kind);
            const int got = oc && oc->tokens ? oc->tokens(k->payload) : -1;
            if (got != want && bad++ < 3) printf("  %s task %d: %d tokens, want %d\n", name, k->index, got, want);
            if (!strcmp(name, "B0") && k->index == 0) b0_cost[i] = mrt_task_cost_us(p, k);
        }
        CHECK(bad == 0, "M=%d: %d tasks report the wrong token count", ms[i], bad);
        mrt_plan_free(p);
        mrt_graph_free(g);
    }
    CHECK(b0_cost[1] > b0_cost[0] + 10, "B0's first tile costs %.1f us at M=128, %.1f at M=16", b0_cost[1], b0_cost[0]);
}

/* The critical-path placement beats roundrobin under the cost model it schedules by. */
static void test_estimates(mrt_context *ctx) {
    glm5_config c = glm5_config_glm5();
    for (int tiling = 0; tiling < 2; tiling++) {
        double est[2] = {0, 0};
        for (int pol = 0; pol < 2; pol++) {
            mrt_plan_opts o = mrt_plan_opts_default();
            o.tiling = tiling ? MRT_TILING_SEED : MRT_TILING_DEFAULT;
            o.workers = tiling ? 148 : 132;
            o.policy = pol ? MRT_POLICY_CRITICAL_PATH : MRT_POLICY_ROUNDROBIN;
            mrt_graph *g;
            mrt_plan *p = build(ctx, &c, (glm5_shape){16, 2, 8192}, o, &g);
            if (p) est[pol] = p->estimate_us;
            mrt_plan_free(p);
            mrt_graph_free(g);
        }
        printf("cost-model estimate (%s tiling): roundrobin %.1f us, critical-path %.1f us\n", tiling ? "seed" : "default",
               est[0], est[1]);
        CHECK(est[0] > 0 && est[1] > 0 && est[1] <= est[0], "critical-path %.1f us vs roundrobin %.1f us", est[1], est[0]);
    }
}

/* [E]'s sweep: M 1, 16, 64, 128 x KV 1024, 8192, 65536 */
static const glm5_shape sweep_shapes[] = {{1, 1, 1024},   {1, 1, 8192},   {1, 1, 65536},  {16, 2, 1024},
                                          {16, 2, 8192},  {16, 2, 65536}, {64, 2, 1024},  {64, 2, 8192},
                                          {64, 2, 65536}, {128, 2, 1024}, {128, 2, 8192}, {128, 2, 65536}};

/* the sweep, M=96 KV=65536, where above 16 tokens critical-path's estimate is below 97% of
 * roundrobin's with E1 in waves (none of the sweep's is: their estimates tie there), and M=96
 * KV=49152, where E1's 192 tasks are 1.45x the workers: below the rule's 1.5x */
static const glm5_shape auto_shapes[] = {{1, 1, 1024},    {1, 1, 8192},   {1, 1, 65536},  {16, 2, 1024},
                                         {16, 2, 8192},   {16, 2, 65536}, {64, 2, 1024},  {64, 2, 8192},
                                         {64, 2, 65536},  {128, 2, 1024}, {128, 2, 8192}, {128, 2, 65536},
                                         {96, 2, 65536},  {96, 2, 49152}};

/* The same queues, task by task. */
static bool same_queues(const mrt_plan *a, const mrt_plan *b) {
    if (a->n_tasks != b->n_tasks || a->max_len != b->max_len) return false;
    for (int t = 0; t < a->n_tasks; t++)
        if (a->tasks[t].worker != b->tasks[t].worker || a->tasks[t].slot != b->tasks[t].slot) return false;
    return true;
}

/* E1's tasks more than 1.5 times the workers (counted here from the plan's tasks, apart from
 * schedule.c's mrt_plan_il_waves) */
static bool e1_in_waves(const mrt_plan *p) {
    int n = 0;
    for (int t = 0; t < p->n_tasks; t++) n += !strcmp(p->g->ops[p->tasks[t].op].name, "E1");
    return 2 * n > 3 * p->workers;
}

/* --policy auto (the default): at each of auto_shapes, exactly the queues of the policy
 * its rule picks (critical-path where that placement's estimate is below 97% of
 * roundrobin's, or up to 16 tokens a step, where no task has more, not above it; above 16
 * tokens never where E1's tasks are more than 1.5 times the workers), task by task, with that estimate;
 * each policy picked somewhere (else the rule is not being tested), a tie at up to 16 tokens
 * (critical-path) and above (roundrobin), and E1's waves deciding at a shape above 16 tokens
 * where critical-path's estimate is the lower by the margin and at one up to 16 (where they
 * do not decide); roundrobin when --place is given. */
static void test_auto_policy(mrt_context *ctx) {
    glm5_config c = glm5_config_glm5();
    int picked[2] = {0, 0}, ties[2] = {0, 0}, waves[2] = {0, 0};
    for (size_t i = 0; i < sizeof auto_shapes / sizeof auto_shapes[0]; i++) {
        mrt_plan *p[3] = {NULL, NULL, NULL};
        mrt_graph *g[3] = {NULL, NULL, NULL};
        const mrt_policy pol[3] = {MRT_POLICY_ROUNDROBIN, MRT_POLICY_CRITICAL_PATH, MRT_POLICY_AUTO};
        for (int k = 0; k < 3; k++) {
            mrt_plan_opts o = mrt_plan_opts_default();
            o.policy = pol[k], o.tune = 0; /* the placement alone (tuning: test_tuning) */
            p[k] = build(ctx, &c, auto_shapes[i], o, &g[k]);
        }
        if (p[0] && p[1] && p[2]) {
            const bool few = auto_shapes[i].m <= 16; /* every task then has at most 16 tokens */
            const bool margin = p[1]->estimate_us < 0.97 * p[0]->estimate_us, in_waves = e1_in_waves(p[0]);
            const int want = few ? p[1]->estimate_us <= p[0]->estimate_us : margin && !in_waves;
            if (in_waves && (few || margin)) waves[few]++;
            if (p[1]->estimate_us == p[0]->estimate_us) ties[few]++;
            const mrt_plan_info info = mrt_plan_get_info(p[2]);
            picked[want]++;
            CHECK(info.policy == pol[want] && same_queues(p[2], p[want]) && info.estimate_us == p[want]->estimate_us,
                  "M=%d KV=%d: auto took %s (estimate %.1f), want %s (roundrobin %.1f, critical-path %.1f)",
                  auto_shapes[i].m, auto_shapes[i].kv, mrt_policy_name(info.policy), info.estimate_us,
                  mrt_policy_name(pol[want]), p[0]->estimate_us, p[1]->estimate_us);
            CHECK(mrt_plan_get_info(p[0]).policy == MRT_POLICY_ROUNDROBIN &&
                      mrt_plan_get_info(p[1]).policy == MRT_POLICY_CRITICAL_PATH,
                  "M=%d KV=%d: a plan reports another policy than it was given", auto_shapes[i].m, auto_shapes[i].kv);
        }
        for (int k = 0; k < 3; k++) mrt_plan_free(p[k]), mrt_graph_free(g[k]);
    }
    CHECK(picked[0] > 0 && picked[1] > 0, "auto took roundrobin at %d shapes, critical-path at %d", picked[0],
          picked[1]);
    CHECK(ties[0] > 0 && ties[1] > 0, "estimates tied at %d shapes above 16 tokens, %d up to 16: the tie rule untested",
          ties[0], ties[1]);
    CHECK(waves[0] > 0 && waves[1] > 0,
          "E1 in waves where critical-path would be taken otherwise: %d shapes above 16 tokens, %d up to 16: the rule "
          "untested", waves[0], waves[1]);
    /* with --place: roundrobin over the ranges, at a shape where auto alone takes critical-path */
    mrt_plan *p[2] = {NULL, NULL};
    mrt_graph *g[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        mrt_plan_opts o = mrt_plan_opts_default();
        o.policy = k ? MRT_POLICY_AUTO : MRT_POLICY_ROUNDROBIN;
        o.place = "D0=64-131,D2=64-131";
        p[k] = build(ctx, &c, (glm5_shape){1, 1, 8192}, o, &g[k]);
    }
    if (p[0] && p[1])
        CHECK(mrt_plan_get_info(p[1]).policy == MRT_POLICY_ROUNDROBIN && same_queues(p[0], p[1]),
              "auto with --place: not roundrobin's queues over the ranges");
    for (int k = 0; k < 2; k++) mrt_plan_free(p[k]), mrt_graph_free(g[k]);
}

/* Tuning's options for candidate k (0 the default tiling, 1 the split halved, 2 and the chunk
 * doubled), as plan.c writes them. */
static void cand_opts(char *buf, size_t n, int k, const char *split, const char *chunk) {
    buf[0] = 0;
    if (k) snprintf(buf, n, "--split %s%s%s", split, k == 2 ? " --chunk " : "", k == 2 ? chunk : "");
}

/* Tuning (the default: auto, no split / chunk / place given): at each of the 12 shapes the
 * plan is exactly the candidate the rule picks, rebuilt here with explicit options and
 * tune = 0 (the default tiling, D1's split halved, and that with E1's chunk doubled while
 * <= 512 keys; the lowest estimate when below the default tiling's), task by task
 * and event by event, and says so in `tuned`, and records each tiling it compared with its
 * estimate; both outcomes occur; a given --split, or tune = 0, plans once. */
static void test_tuning(mrt_context *ctx) {
    glm5_config c = glm5_config_glm5();
    int tuned = 0, kept = 0;
    for (size_t i = 0; i < sizeof sweep_shapes / sizeof sweep_shapes[0]; i++) {
        mrt_plan *p[4] = {NULL, NULL, NULL, NULL};
        mrt_graph *g[4] = {NULL, NULL, NULL, NULL};
        char split[32], chunk[32];
        mrt_plan_opts o = mrt_plan_opts_default();
        o.tune = 0;
        p[0] = build(ctx, &c, sweep_shapes[i], o, &g[0]); /* the default tiling */
        if (!p[0]) continue;
        const mrt_op *d1 = mrt_graph_find_op(g[0], "D1"), *e1 = mrt_graph_find_op(g[0], "E1");
        snprintf(split, sizeof split, "D1=%d", p[0]->cfg[d1->id].split / 2);
        snprintf(chunk, sizeof chunk, "E1=%d", p[0]->cfg[e1->id].chunk * 2);
        o.split = split;
        p[1] = build(ctx, &c, sweep_shapes[i], o, &g[1]);
        if (p[0]->cfg[e1->id].chunk * 2 <= 512) {
            o.chunk = chunk;
            p[2] = build(ctx, &c, sweep_shapes[i], o, &g[2]);
        }
        p[3] = build(ctx, &c, sweep_shapes[i], mrt_plan_opts_default(), &g[3]);
        int want = 0;
        for (int k = 1; k < 3; k++)
            if (p[k] && p[k]->estimate_us < p[want]->estimate_us) want = k;
        if (p[3] && p[want]) {
            bool same = same_queues(p[3], p[want]) && p[3]->n_events == p[want]->n_events &&
                        p[3]->estimate_us == p[want]->estimate_us;
            char says[96];
            cand_opts(says, sizeof says, want, split, chunk);
            CHECK(same && !strcmp(mrt_plan_get_info(p[3]).tuned, says),
                  "M=%d KV=%d: the default plan is not candidate %d (estimates %.1f / %.1f / %.1f, it %.1f, tuned \"%s\")",
                  sweep_shapes[i].m, sweep_shapes[i].kv, want, p[0]->estimate_us, p[1] ? p[1]->estimate_us : 0,
                  p[2] ? p[2]->estimate_us : 0, p[3]->estimate_us, mrt_plan_get_info(p[3]).tuned);
            /* the plan records what tuning compared (`megartp plan`'s tuning line): each tiling
             * built here, in order, with its estimate */
            int n = 0;
            for (int k = 0; k < 3; k++) {
                if (!p[k]) continue;
                char want_opts[96];
                cand_opts(want_opts, sizeof want_opts, k, split, chunk);
                CHECK(n < p[3]->n_tune && !strcmp(p[3]->tune[n].opts, want_opts) &&
                          p[3]->tune[n].estimate_us == p[k]->estimate_us,
                      "M=%d KV=%d: tuning's record %d is not \"%s\" at %.3f us", sweep_shapes[i].m, sweep_shapes[i].kv, n,
                      want_opts, p[k]->estimate_us);
                n++;
            }
            CHECK(p[3]->n_tune == n, "M=%d KV=%d: tuning recorded %d tilings, built %d", sweep_shapes[i].m,
                  sweep_shapes[i].kv, p[3]->n_tune, n);
            /* `megartp plan`'s build line: the phases are parts of the build, each tiling's
             * counted once (plan.c build_phases), so together they are at most the whole */
            const double *ph = p[3]->phase_us;
            const double sum = ph[0] + ph[1] + ph[2] + ph[3] + ph[4];
            CHECK(ph[0] >= 0 && ph[1] > 0 && ph[2] > 0 && ph[3] >= 0 && ph[4] > 0 && sum <= p[3]->build_us,
                  "M=%d KV=%d: build phases %.1f + %.1f + %.1f + %.1f + %.1f = %.1f us of a %.1f-us build",
                  sweep_shapes[i].m, sweep_shapes[i].kv, ph[0], ph[1], ph[2], ph[3], ph[4], sum, p[3]->build_us);
            if (want) tuned++;
            else kept++;
        }
        for (int k = 0; k < 4; k++) mrt_plan_free(p[k]), mrt_graph_free(g[k]);
    }
    CHECK(tuned > 0 && kept > 0, "tuning changed the plan at %d shapes, kept it at %d", tuned, kept);
    /* a given split: one plan, as given */
    mrt_plan_opts o = mrt_plan_opts_default();
    o.split = "B0=2";
    mrt_graph *g = NULL;
    mrt_plan *p = build(ctx, &c, (glm5_shape){16, 2, 8192}, o, &g);
    if (p) {
        const mrt_op *d1 = mrt_graph_find_op(g, "D1");
        CHECK(!*mrt_plan_get_info(p).tuned && p->cfg[d1->id].split == 4 && p->n_tune == 0,
              "--split B0=2: tuned \"%s\", D1 split %d, %d tilings compared", mrt_plan_get_info(p).tuned,
              p->cfg[d1->id].split, p->n_tune);
    }
    mrt_plan_free(p), mrt_graph_free(g);
}

/* --ops: a subgraph plans only those ops; tensors of left-out producers become inputs. */
static void test_subgraph(mrt_context *ctx) {
    glm5_config c = glm5_config_glm5();
    mrt_plan_opts o = mrt_plan_opts_default();
    o.tiling = MRT_TILING_SEED;
    o.workers = 148;
    o.ops = "A0,C0,B1";
    mrt_graph *g;
    mrt_plan *p = build(ctx, &c, (glm5_shape){16, 2, 8192}, o, &g);
    if (p) {
        CHECK(p->n_ops == 3 && p->n_tasks == 16 + 48 + 8, "A0,C0,B1: %d ops, %d tasks", p->n_ops, p->n_tasks);
        CHECK(p->n_events == 2, "A0,C0,B1: %d events, want 2", p->n_events);
    }
    mrt_plan_free(p);
    mrt_graph_free(g);
    o.ops = "D2,E1";
    p = build(ctx, &c, (glm5_shape){16, 2, 8192}, o, &g);
    if (p) {
        CHECK(p->n_events == 0, "D2,E1 alone: no events (inputs), have %d", p->n_events);
        CHECK(p->tensors[mrt_graph_find_tensor(g, "q_nope")->id].planned_input, "q_nope becomes an input");
        /* only what a planned op reads: qr8 is written by B0 and read by D0, both left out */
        CHECK(!p->tensors[mrt_graph_find_tensor(g, "qr8")->id].planned_input, "qr8 (read by D0 only) is no input of D2,E1");
    }
    mrt_plan_free(p);
    mrt_graph_free(g);
    o.ops = "A0,Z9";
    glm5_prefix_graph(ctx, &c, &(glm5_shape){16, 2, 8192}, &g);
    mrt_plan *q = NULL;
    mrt_status st = mrt_plan_build(g, &o, &q);
    CHECK(st == MRT_ERR_INVALID && strstr(mrt_last_error(ctx), "Z9"), "unknown op in --ops named: %s", mrt_last_error(ctx));
    mrt_graph_free(g);
}

/* A plan build with these options is refused (no plan) with a message containing `says`. */
static void expect_refused(mrt_context *ctx, const glm5_config *c, glm5_shape s, mrt_plan_opts o, const char *what,
                           const char *says) {
    mrt_graph *g = NULL;
    glm5_prefix_graph(ctx, c, &s, &g);
    mrt_plan *p = NULL;
    mrt_status st = mrt_plan_build(g, &o, &p);
    CHECK(st == MRT_ERR_INVALID && !p && strstr(mrt_last_error(ctx), says), "%s refused: %s", what, mrt_last_error(ctx));
    mrt_plan_free(p);
    mrt_graph_free(g);
}

/* The plan's op order: by default, of the ready ops the one starting the longest chain of
 * consumers (GLM-5: E1 before D2); the seed tiling keeps the graph's; --order gives it,
 * refused with a message naming the op when it is not a producers-first order of exactly
 * the planned ops. */
static void order_names(const mrt_plan *p, char *out, size_t n) {
    out[0] = 0;
    for (int i = 0; i < p->n_ops; i++) {
        strncat(out, i ? "," : "", n - strlen(out) - 1);
        strncat(out, p->g->ops[p->ops[i]].name, n - strlen(out) - 1);
    }
}
static void test_order(mrt_context *ctx) {
    glm5_config c = glm5_config_glm5();
    const glm5_shape s = {16, 2, 8192};
    char got[128];
    struct {
        mrt_tiling tiling;
        const char *order, *want;
    } ok[] = {{MRT_TILING_DEFAULT, NULL, "A0,B0,C0,B1,D1,D0,E1,D2,F1"},
              {MRT_TILING_SEED, NULL, "A0,B0,C0,B1,D1,D0,D2,E1"},
              {MRT_TILING_DEFAULT, "A0,C0,B1,B0,D1,E1,D0,D2,F1", "A0,C0,B1,B0,D1,E1,D0,D2,F1"}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        mrt_plan_opts o = mrt_plan_opts_default();
        o.tiling = ok[i].tiling, o.order = ok[i].order;
        o.policy = MRT_POLICY_ROUNDROBIN; /* deals the tasks in the order */
        mrt_graph *g;
        mrt_plan *p = build(ctx, &c, s, o, &g);
        if (p) order_names(p, got, sizeof got);
        CHECK(p && !strcmp(got, ok[i].want), "order %s: have %s, want %s", ok[i].order ? ok[i].order : "(default)",
              p ? got : "no plan", ok[i].want);
        if (p && ok[i].order) { /* roundrobin deals tasks in it: A0's (32: 16 rows in 2 slices), then C0's first */
            const int at = op_tiles(p, "A0");
            const char *first = "none";
            for (int k = 0; k < p->n_tasks; k++)
                if (p->tasks[k].worker == at && p->tasks[k].slot == 0) first = p->g->ops[p->tasks[k].op].name;
            CHECK(at == 32 && !strcmp(first, "C0"), "order %s: worker %d's first task is %s's, want C0's", ok[i].order,
                  at, first);
        }
        mrt_plan_free(p);
        mrt_graph_free(g);
    }
    struct {
        const char *order, *says;
    } bad[] = {{"A0,B0,C0,B1,D1,D2,D0,E1,F1", "D2 comes before its producer D0"},
               {"A0,B0,C0,B1,D1,D0,E1,D2", "F1 is missing"},
               {"A0,B0,C0,B1,D1,D0,E1,D2,F1,A0", "A0 named twice"},
               {"A0,B0,C0,B1,D1,D0,E1,D2,X7", "no op named \"X7\""},
               {"A0,B0,,C0", "empty"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mrt_plan_opts o = mrt_plan_opts_default();
        o.order = bad[i].order;
        expect_refused(ctx, &c, s, o, bad[i].order, bad[i].says);
    }
    /* with --ops, the order lists exactly the planned ops */
    mrt_plan_opts o = mrt_plan_opts_default();
    o.ops = "A0,C0,B1", o.order = "A0,B1,C0";
    mrt_graph *g;
    mrt_plan *p = build(ctx, &c, s, o, &g);
    if (p) order_names(p, got, sizeof got);
    CHECK(p && !strcmp(got, "A0,B1,C0"), "--ops A0,C0,B1 --order A0,B1,C0: have %s", p ? got : "no plan");
    mrt_plan_free(p);
    mrt_graph_free(g);
    o.order = "A0,B1,C0,D1";
    glm5_prefix_graph(ctx, &c, &s, &g);
    mrt_status st = mrt_plan_build(g, &o, &p);
    CHECK(st == MRT_ERR_INVALID && strstr(mrt_last_error(ctx), "D1 is not a planned op"), "unplanned op in --order: %s",
          mrt_last_error(ctx));
    mrt_graph_free(g);
}

/* --split OP=N: the named GEMMs' split-K after the tiling's rules (tasks = tiles x N, the other
 * ops untouched), refused with the op named when it is not a planned split-K GEMM or N does
 * not divide its K blocks. */
static void test_split(mrt_context *ctx) {
    glm5_config c = glm5_config_glm5();
    const glm5_shape s = {16, 2, 8192};
    struct {
        const char *split;
        int d1, d0, b0, c0;
    } ok[] = {{NULL, 128, 128, 63, 16},         {"D1=2", 64, 128, 63, 16}, {"D1=1,B0=6,C0=48", 32, 128, 126, 48},
              {"A0=1", 128, 128, 84, 16}, /* A0's rows whole: B0 its 84 (share_workers sees the given A0) */
              {"A0=1,B0=3", 128, 128, 63, 16}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        mrt_plan_opts o = mrt_plan_opts_default();
        o.split = ok[i].split, o.tune = 0; /* (none): the default tiling, untuned */
        mrt_graph *g;
        mrt_plan *p = build(ctx, &c, s, o, &g);
        const char *w = ok[i].split ? ok[i].split : "(none)";
        CHECK(p && op_tiles(p, "D1") == ok[i].d1, "--split %s: D1 %d tasks, want %d", w, p ? op_tiles(p, "D1") : -1, ok[i].d1);
        CHECK(p && op_tiles(p, "D0") == ok[i].d0, "--split %s: D0 %d tasks, want %d", w, p ? op_tiles(p, "D0") : -1, ok[i].d0);
        CHECK(p && op_tiles(p, "B0") == ok[i].b0, "--split %s: B0 %d tasks, want %d", w, p ? op_tiles(p, "B0") : -1, ok[i].b0);
        CHECK(p && op_tiles(p, "C0") == ok[i].c0, "--split %s: C0 %d tasks, want %d", w, p ? op_tiles(p, "C0") : -1, ok[i].c0);
        mrt_plan_free(p);
        mrt_graph_free(g);
    }
    /* top-k: N slices a row of 8192 keys, each a task (slices of a multiple of 128 keys: 5 ->
     * 1664 keys, the last 1536; 16 -> 512), one reduce group a row */
    const int f1_split[] = {1, 2, 5, 16}, f1_tasks[] = {16, 32, 80, 256};
    for (int i = 0; i < 4; i++) {
        char sp[16];
        snprintf(sp, sizeof sp, "F1=%d", f1_split[i]);
        mrt_plan_opts o = mrt_plan_opts_default();
        o.split = sp;
        mrt_graph *g;
        mrt_plan *p = build(ctx, &c, s, o, &g);
        int groups = 0;
        for (int k = 0; p && k < p->n_groups; k++) groups += p->groups[k].op == mrt_graph_find_op(g, "F1")->id;
        CHECK(p && op_tiles(p, "F1") == f1_tasks[i] && groups == (f1_split[i] > 1 ? 16 : 0),
              "--split %s: F1 %d tasks in %d groups, want %d in %d", sp, p ? op_tiles(p, "F1") : -1, groups, f1_tasks[i],
              f1_split[i] > 1 ? 16 : 0);
        mrt_plan_free(p);
        mrt_graph_free(g);
    }
    struct {
        const char *ops, *split, *says;
    } bad[] = {{NULL, "D1=3", "D1=3 does not divide its 16 K blocks"},
               {NULL, "D2=2", "D2 does not split (only the split-K GEMMs, top-k's and add-RMSNorm's rows do)"},
               {NULL, "A0=49", "A0=49: a row has 48 128-groups to slice"},
               {NULL, "F1=17", "F1=17: top-k splits a row into 1..16 slices"},
               {NULL, "F1=0", "\"0\" is not a split of 1..4096"},
               {NULL, "X7=1", "X7 is not a planned op"},
               {"A0,C0,B1", "D1=1", "D1 is not a planned op"},
               {NULL, "D1", "\"D1\" is not OP=N"},
               {NULL, "D1=0", "\"0\" is not a split of 1..4096"},
               {NULL, "D1=2x", "\"2x\" is not a split"},
               {NULL, "D1=2,,B0=6", "\"\" is not OP=N"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mrt_plan_opts o = mrt_plan_opts_default();
        o.ops = bad[i].ops, o.split = bad[i].split;
        expect_refused(ctx, &c, s, o, bad[i].split, bad[i].says);
    }
    { /* A0's rows in 3 slices of 16 groups cut across B0's K splits of 12: more signals than a
       * task has, refused (no default to halve) with the slices named */
        mrt_graph *g = NULL;
        glm5_prefix_graph(ctx, &c, &s, &g);
        mrt_plan_opts o = mrt_plan_opts_default();
        o.split = "A0=3";
        mrt_plan *p = NULL;
        mrt_status st = mrt_plan_build(g, &o, &p);
        CHECK(st == MRT_ERR_LIMIT && !p && strstr(mrt_last_error(ctx), "A0's rows in 3 slices"), "A0=3 refused: %s",
              mrt_last_error(ctx));
        mrt_plan_free(p);
        mrt_graph_free(g);
    }
}

/* --chunk OP=N: the named index-logits ops' keys a task after the tiling's rules (tasks =
 * requests x ceil(kv / N), the other ops untouched), refused with the op named when it takes
 * no chunks or N is not a multiple of 128. */
static void test_chunk(mrt_context *ctx) {
    glm5_config c = glm5_config_glm5();
    const glm5_shape s = {16, 2, 8192};
    struct {
        const char *chunk;
        int e1, d1, e1_chunk;
    } ok[] = {{NULL, 128, 128, 128}, {"E1=256", 64, 128, 256}, {"E1=3072", 6, 128, 3072}, {"E1=16384", 2, 128, 16384}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        mrt_plan_opts o = mrt_plan_opts_default();
        o.chunk = ok[i].chunk, o.tune = 0; /* (none): the default tiling, untuned */
        mrt_graph *g;
        mrt_plan *p = build(ctx, &c, s, o, &g);
        const char *w = ok[i].chunk ? ok[i].chunk : "(none)";
        const int e1 = p ? op_tiles(p, "E1") : -1, id = p ? mrt_graph_find_op(g, "E1")->id : 0;
        CHECK(p && e1 == ok[i].e1, "--chunk %s: E1 %d tasks, want %d", w, e1, ok[i].e1);
        CHECK(p && p->cfg[id].chunk == ok[i].e1_chunk, "--chunk %s: E1 chunk %d, want %d", w, p ? p->cfg[id].chunk : -1,
              ok[i].e1_chunk);
        CHECK(p && op_tiles(p, "D1") == ok[i].d1, "--chunk %s: D1 %d tasks, want %d", w, p ? op_tiles(p, "D1") : -1, ok[i].d1);
        mrt_plan_free(p);
        mrt_graph_free(g);
    }
    struct {
        const char *ops, *chunk, *says;
    } bad[] = {{NULL, "E1=100", "\"100\" is not a multiple of 128 keys"},
               {NULL, "E1=0", "\"0\" is not a multiple of 128 keys"},
               {NULL, "E1=-128", "\"-128\" is not a multiple of 128 keys"},
               {NULL, "D1=256", "D1 takes no chunks (only index logits do)"},
               {NULL, "X7=256", "X7 is not a planned op"},
               {"A0,C0,B1", "E1=256", "E1 is not a planned op"},
               {NULL, "E1", "\"E1\" is not OP=N"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mrt_plan_opts o = mrt_plan_opts_default();
        o.ops = bad[i].ops, o.chunk = bad[i].chunk;
        expect_refused(ctx, &c, s, o, bad[i].chunk, bad[i].says);
    }
}

/* --block-n OP=N: the named FP8 GEMMs' output columns a task (128 or 256) after the tiling's
 * rules: D0's 16384 in 64 tasks instead of 128, and the events D2 waits for on one D0 task a
 * head instead of two; refused with the op named when it is no FP8 GEMM, N is not 128 or 256,
 * or its epilogue's units do not take it (INDEX_Q: a head of 128). */
static void test_block_n(mrt_context *ctx) {
    glm5_config c = glm5_config_glm5();
    const glm5_shape s = {16, 2, 8192};
    struct {
        const char *block_n;
        int d0, d0_bn, b0_bn;
    } ok[] = {{NULL, 128, 128, 128}, {"D0=256", 64, 256, 128}, {"D0=128", 128, 128, 128}, {"D0=256,B0=256", 64, 256, 256}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        mrt_plan_opts o = mrt_plan_opts_default();
        o.block_n = ok[i].block_n, o.tune = 0;
        mrt_graph *g;
        mrt_plan *p = build(ctx, &c, s, o, &g);
        const char *w = ok[i].block_n ? ok[i].block_n : "(none)";
        const int d0 = p ? mrt_graph_find_op(g, "D0")->id : 0, b0 = p ? mrt_graph_find_op(g, "B0")->id : 0;
        CHECK(p && op_tiles(p, "D0") == ok[i].d0, "--block-n %s: D0 %d tasks, want %d", w, p ? op_tiles(p, "D0") : -1,
              ok[i].d0);
        CHECK(p && p->cfg[d0].block_n == ok[i].d0_bn && p->cfg[b0].block_n == ok[i].b0_bn,
              "--block-n %s: D0 / B0 block_n %d / %d, want %d / %d", w, p ? p->cfg[d0].block_n : -1,
              p ? p->cfg[b0].block_n : -1, ok[i].d0_bn, ok[i].b0_bn);
        if (p) { /* a D2 task waits for the D0 tasks of its head: 256 / block_n of them */
            uint32_t thr[256];
            const int n = events_between(p, "D0", "D2", thr, 256);
            int want = 0;
            for (int e = 0; e < n; e++) want += thr[e] == (uint32_t)(256 / ok[i].d0_bn);
            CHECK(n == 64 && want == n, "--block-n %s: %d D0 -> D2 events, %d of them of %d tasks (want 64 of %d)", w,
                  n, want, n, 256 / ok[i].d0_bn);
        }
        mrt_plan_free(p);
        mrt_graph_free(g);
    }
    struct {
        const char *block_n, *says;
    } bad[] = {{"D2=256", "D2 is not an FP8 GEMM"},
               {"C0=256", "C0 is not an FP8 GEMM"},
               {"D0=192", "\"192\" is not 128 or 256 columns"},
               {"D0=512", "\"512\" is not 128 or 256 columns"},
               {"D0=x", "\"x\" is not 128 or 256 columns"},
               {"D1=256", "block_n 256 does not fit its epilogue"},
               {"X7=256", "X7 is not a planned op"},
               {"D0", "\"D0\" is not OP=N"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mrt_plan_opts o = mrt_plan_opts_default();
        o.block_n = bad[i].block_n;
        expect_refused(ctx, &c, s, o, bad[i].block_n, bad[i].says);
    }
}

/* --place OP=LO-HI: roundrobin deals the named ops' tasks over LO..HI in their own rotation,
 * the other ops rotate over all workers as if the placed ops were not there, every queue keeps
 * plan order (its slots 0, 1, ... in task order); refused with the op or the range named. */
typedef struct place_case {
    const char *place;
    const char *ops[3];
    int lo[3], hi[3];
} place_case;

/* The tasks of p not where that rule puts them under the ranges of pc (-1: no memory). */
static int misplaced(const mrt_plan *p, const mrt_graph *g, const place_case *pc) {
    int next = 0, dealt[MRT_MAX_OPS] = {0}, wrong = 0, *len = calloc((size_t)p->workers, sizeof(int));
    if (!len) return -1;
    for (int t = 0; t < p->n_tasks; t++) {
        const mrt_task *k = &p->tasks[t];
        int lo = -1, hi = -1;
        for (int j = 0; j < 3 && pc->ops[j]; j++)
            if (k->op == mrt_graph_find_op(g, pc->ops[j])->id) lo = pc->lo[j], hi = pc->hi[j];
        const int want = lo >= 0 ? lo + dealt[k->op]++ % (hi - lo + 1) : next++ % p->workers;
        wrong += k->worker != want || k->slot != len[k->worker]++;
    }
    free(len);
    return wrong;
}

/* Tasks of op `name` placed outside workers lo..hi (-1: the op is not in the plan). */
static int outside(const mrt_plan *p, const mrt_graph *g, const char *name, int lo, int hi) {
    const mrt_op *op = mrt_graph_find_op(g, name);
    if (!op) return -1;
    int n = 0;
    for (int i = 0; i < p->n_tasks; i++)
        if (p->tasks[i].op == op->id && (p->tasks[i].worker < lo || p->tasks[i].worker > hi)) n++;
    return n;
}

/* --place under critical-path: only the workers of an op's range take its tasks, at shapes
 * from M=1 to 128 (a range of one worker too), and every plan verifies (mrt_plan_build runs
 * the verifier: each queue in one topological order); a range of every worker places as no
 * range does (the same queues, task by task). */
static void test_place_critical_path(mrt_context *ctx) {
    glm5_config c = glm5_config_glm5();
    const glm5_shape shapes[] = {{16, 2, 8192}, {1, 1, 1024}, {64, 2, 65536}, {128, 2, 8192}};
    const struct {
        const char *place, *op[3];
        int lo[3], hi[3];
    } cases[] = {{"D0=64-131,D2=64-131", {"D0", "D2"}, {64, 64}, {131, 131}},
                 {"D0=40-131,E1=0-39,F1=0-15", {"D0", "E1", "F1"}, {40, 0, 0}, {131, 39, 15}},
                 {"E1=7,B0=100-131", {"E1", "B0"}, {7, 100}, {7, 131}}};
    for (size_t si = 0; si < sizeof shapes / sizeof shapes[0]; si++)
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            mrt_graph *g;
            mrt_plan_opts o = mrt_plan_opts_default();
            o.place = cases[i].place, o.policy = MRT_POLICY_CRITICAL_PATH;
            mrt_plan *p = build(ctx, &c, shapes[si], o, &g);
            for (int k = 0; p && k < 3 && cases[i].op[k]; k++) {
                const int n = outside(p, g, cases[i].op[k], cases[i].lo[k], cases[i].hi[k]);
                CHECK(n == 0, "critical-path --place %s at M=%d KV=%d: %d %s tasks outside %d-%d", cases[i].place,
                      shapes[si].m, shapes[si].kv, n, cases[i].op[k], cases[i].lo[k], cases[i].hi[k]);
            }
            CHECK(p && mrt_plan_get_info(p).policy == MRT_POLICY_CRITICAL_PATH,
                  "critical-path --place %s at M=%d: no critical-path plan", cases[i].place, shapes[si].m);
            mrt_plan_free(p);
            mrt_graph_free(g);
        }
    mrt_plan *p[2];
    mrt_graph *g[2];
    for (int k = 0; k < 2; k++) {
        mrt_plan_opts o = mrt_plan_opts_default();
        o.policy = MRT_POLICY_CRITICAL_PATH, o.split = "D1=2", o.chunk = "E1=128";
        o.place = k ? "D0=0-131,E1=0-131,D2=0-131" : NULL;
        p[k] = build(ctx, &c, (glm5_shape){16, 2, 8192}, o, &g[k]);
    }
    if (p[0] && p[1]) CHECK(same_queues(p[0], p[1]), "critical-path with ranges of every worker: other queues");
    for (int k = 0; k < 2; k++) mrt_plan_free(p[k]), mrt_graph_free(g[k]);
}

static void test_place(mrt_context *ctx) {
    glm5_config c = glm5_config_glm5();
    const glm5_shape s = {16, 2, 8192};
    const place_case ok[] = {{NULL, {NULL}, {0}, {0}},
                             {"D0=64-131,D2=64-131,D1=0-63", {"D0", "D2", "D1"}, {64, 64, 0}, {131, 131, 63}},
                             {"E1=7,F1=100-103", {"E1", "F1"}, {7, 100}, {7, 103}}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        mrt_graph *g;
        mrt_plan_opts o = mrt_plan_opts_default();
        o.place = ok[i].place, o.policy = MRT_POLICY_ROUNDROBIN; /* (none): the plain rotation */
        mrt_plan *p = build(ctx, &c, s, o, &g);
        const int wrong = p ? misplaced(p, g, &ok[i]) : -1;
        CHECK(wrong == 0, "--place %s: %d tasks not where roundrobin with the ranges puts them",
              ok[i].place ? ok[i].place : "(none)", wrong);
        mrt_plan_free(p);
        mrt_graph_free(g);
    }
    struct {
        const char *place, *says;
        mrt_policy policy;
    } bad[] = {{"D0=5-3", "D0: \"5-3\" is not LO-HI", MRT_POLICY_ROUNDROBIN},
               {"D0=0-132", "< 132 workers", MRT_POLICY_ROUNDROBIN},
               {"D0=1-", "\"1-\" is not LO-HI", MRT_POLICY_ROUNDROBIN},
               {"D0=-1", "\"-1\" is not LO-HI", MRT_POLICY_ROUNDROBIN},
               {"D0", "\"D0\" is not OP=LO-HI", MRT_POLICY_ROUNDROBIN},
               {"D0=1,D0=2", "D0 named twice", MRT_POLICY_ROUNDROBIN},
               {"X7=1", "X7 is not a planned op", MRT_POLICY_ROUNDROBIN},
               {"D0=0-132", "< 132 workers", MRT_POLICY_CRITICAL_PATH}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mrt_plan_opts o = mrt_plan_opts_default();
        o.place = bad[i].place, o.policy = bad[i].policy;
        expect_refused(ctx, &c, s, o, bad[i].place, bad[i].says);
    }
    test_place_critical_path(ctx);
}

int main(void) {
    mrt_context *ctx = mrt_context_new();
    test_seed_plan(ctx);
    test_shapes(ctx);
    test_subgraph(ctx);
    test_order(ctx);
    test_split(ctx);
    test_chunk(ctx);
    test_block_n(ctx);
    test_place(ctx);
    test_estimates(ctx);
    test_auto_policy(ctx);
    test_tuning(ctx);
    test_cost_tokens(ctx);
    mrt_context_free(ctx);
    TEST_MAIN_END();
}
