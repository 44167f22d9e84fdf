/* The megakernel runs the whole GLM-5 prefix (issue [E], criterion 1): for the same inputs
 * its outputs and workspaces equal the serial executor's byte for byte (same tile code, the
 * plan's split-K summed in split order by both), under both placement policies, at the 12
 * decode shapes M in {1, 16, 64, 128} x KV in {1024, 8192, 65536}, and under a roundrobin plan
 * with worker ranges and a split (--place, --split); 1000 replays (never-reset
 * counters, epochs from the device) give the same bytes. A difference is reported per tensor: count of
 * differing bytes and the first one.
 * Run: test_mega_prefix [--quick | --tiny | --tiny-place PLACE[/SPLIT]...]   (--quick: one small shape,
 * for compute-sanitizer; --tiny: the same shape of the reduced-size model, glm5_config_reduced,
 * for racecheck; --tiny-place: that model at 16 tokens under each --place PLACE, with
 * --split SPLIT where given) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glm5_fixture.h"
#include "gpu.h"
#include "internal.h"
#include "testing.h"

static mrt_context *ctx;
/* everything both executors write, except q_pe and gate: both rope q_pe straight into qmla
 * (mrt_gpu_q_b_query), leaving the q_pe workspace unwritten, and the serial executor reduces
 * the gate in its GEMM, where the plan (mega) keeps its split partials as a workspace */
static const char *names[] = {"r_new", "x", "x8", "sx", "qr8", "sqr", "ssq", "mla_cache", "idx_cache",
                              "q_nope", "q8i", "wI", "qmla", "logits", "topk"};
enum { NT = sizeof names / sizeof names[0] };

typedef struct snap {
    unsigned char *b[NT];
    size_t n[NT];
} snap;

static mrt_status take(mrt_gpu_exec *x, const mrt_graph *g, snap *s) {
    for (int i = 0; i < NT; i++) {
        const mrt_tensor *t = mrt_graph_find_tensor(g, names[i]);
        s->n[i] = mrt_tensor_bytes(t);
        if (!s->b[i] && !(s->b[i] = (unsigned char *)malloc(s->n[i]))) return MRT_ERR_NOMEM;
        mrt_status st = mrt_gpu_download(x, mrt_tensor_id(t), 0, s->b[i]);
        if (st) return st;
    }
    return MRT_OK;
}

static void snap_free(snap *s) {
    for (int i = 0; i < NT; i++) free(s->b[i]);
    memset(s, 0, sizeof *s);
}

/* Number of tensors that differ; each one printed with its differing bytes. */
static int diff(const snap *a, const snap *b, const char *what) {
    int bad = 0;
    for (int i = 0; i < NT; i++) {
        size_t first = 0, count = 0;
        for (size_t k = 0; k < a->n[i]; k++)
            if (a->b[i][k] != b->b[i][k]) first = count++ ? first : k;
        if (count) {
            printf("  %s: %s differs in %zu of %zu bytes, first at byte %zu (%02x vs %02x)\n", what, names[i], count,
                   a->n[i], first, a->b[i][first], b->b[i][first]);
            bad++;
        }
    }
    return bad;
}

/* Fresh inputs and caches (the step writes new cache slots), poisoned outputs. */
static mrt_status reset(glm5_fixture *f) {
    mrt_status st = glm5_upload(f->x, f->g, &f->h, 1);
    for (int i = 0; i < NT && !st; i++)
        if (mrt_graph_find_tensor(f->g, names[i])->role != MRT_ROLE_CACHE)
            st = mrt_gpu_poison(f->x, mrt_graph_find_tensor(f->g, names[i])->id);
    return st;
}

/* pol: the plan's options in words, for the messages */
static void one_plan(glm5_config c, glm5_shape s, const mrt_plan_opts &o, const char *pol, int replays) {
    /* each case named before it runs: a sanitizer's reports of its kernels come after it */
    printf("case: M %d batch %d kv %d %s\n", s.m, s.batch, s.kv, pol);
    fflush(stdout);
    glm5_fixture f;
    mrt_status st = glm5_fixture_new_cfg(ctx, c, s, &o, 11 + s.m + s.kv, &f);
    if (!CHECK(st == MRT_OK, "M %d kv %d %s: set-up: %s", s.m, s.kv, pol, mrt_last_error(ctx))) return;
    snap ser, meg;
    memset(&ser, 0, sizeof ser), memset(&meg, 0, sizeof meg);
    /* mega first: under compute-sanitizer a failure of the other executor's kernels then
     * comes after the megakernel was checked */
    if (!(st = reset(&f)) && !(st = mrt_gpu_mega_step(f.x, 0, 0)) && !(st = mrt_gpu_sync(f.x))) st = take(f.x, f.g, &meg);
    if (!st && !(st = reset(&f)) && !(st = mrt_gpu_serial_step(f.x, 0, 0)) && !(st = mrt_gpu_sync(f.x)))
        st = take(f.x, f.g, &ser);
    char what[160];
    snprintf(what, sizeof what, "M %d batch %d kv %d %s", s.m, s.batch, s.kv, pol);
    int bad = st ? -1 : diff(&ser, &meg, what);
    CHECK(st == MRT_OK && bad == 0, "%s: mega = serial byte for byte in all %d tensors (%d differ) %s", what, NT, bad,
          st ? mrt_last_error(ctx) : "");
    if (replays && !st) {
        int same = 0, samples = 0;
        for (int r = 0; r < replays && !st; r++) {
            if (r % 100 == 99) st = reset(&f);
            if (!st) st = mrt_gpu_mega_step(f.x, 0, 0);
            if (!st && r % 100 == 99) {
                snap again;
                memset(&again, 0, sizeof again);
                if (!(st = mrt_gpu_sync(f.x)) && !(st = take(f.x, f.g, &again))) same += diff(&meg, &again, what) == 0;
                samples++;
                snap_free(&again);
            }
        }
        CHECK(st == MRT_OK && same == samples, "%s: %d replays, %d of %d samples identical %s", what, replays, same,
              samples, st ? mrt_last_error(ctx) : "");
    }
    snap_free(&ser), snap_free(&meg);
    glm5_fixture_free(&f);
}

static void one_cfg(glm5_config c, glm5_shape s, mrt_policy policy, int replays) {
    mrt_plan_opts o = mrt_plan_opts_default();
    o.policy = policy;
    one_plan(c, s, o, mrt_policy_name(policy), replays);
}

static void one(glm5_shape s, mrt_policy policy, int replays) { one_cfg(glm5_config_glm5(), s, policy, replays); }

int main(int argc, char **argv) {
    if (!gpu_or_skip()) return 0;
    ctx = mrt_context_new();
    if (argc > 1 && !strcmp(argv[1], "--tiny")) { /* the reduced-size model, for racecheck and synccheck */
        one_cfg(glm5_config_reduced(), (glm5_shape){4, 2, 300}, MRT_POLICY_ROUNDROBIN, 0);
        mrt_plan_opts o = mrt_plan_opts_default(); /* F1 rows in 3 slices (128, 128, 44 keys) */
        o.split = "F1=3", o.policy = MRT_POLICY_ROUNDROBIN;
        one_plan(glm5_config_reduced(), (glm5_shape){4, 2, 300}, o, "roundrobin --split F1=3", 0);
        o.split = "A0=2"; /* A0's rows in two slices */
        one_plan(glm5_config_reduced(), (glm5_shape){4, 2, 300}, o, "roundrobin --split A0=2", 0);
        /* critical-path's queues, named (auto's pick at these 4 tokens unless its estimate is
         * above roundrobin's: schedule.c, since session 31) */
        one_cfg(glm5_config_reduced(), (glm5_shape){4, 2, 300}, MRT_POLICY_CRITICAL_PATH, 0);
        /* 8 tokens a request: E1's 2 token groups are 4 units a pass, so its third
         * warpgroup multiplies too (MRT_MEGA_ILW_WGS, mega.cu) */
        one_cfg(glm5_config_reduced(), (glm5_shape){16, 2, 300}, MRT_POLICY_ROUNDROBIN, 0);
        /* Every CTA above runs one instruction (queues of length 1: `megartp plan glm5-prefix
         * --model reduced`), so these two are the sanitizers' cases of CTAs running several:
         * 16 workers, 7-8 instructions of every kind a CTA; and the 16 F1 rows on 2 workers,
         * one CTA running F1 rows one after another */
        o.split = NULL, o.workers = 16;
        one_plan(glm5_config_reduced(), (glm5_shape){16, 2, 300}, o, "roundrobin --workers 16, 16 tokens", 0);
        o.workers = mrt_plan_opts_default().workers, o.place = "F1=0-1";
        one_plan(glm5_config_reduced(), (glm5_shape){16, 2, 300}, o, "roundrobin --place F1=0-1, 16 tokens", 0);
        o.place = NULL;
        /* 64 tokens a tile, D1 in 2 splits: 64 rows a unit against 24 one-warp groups, so
         * D1's finalization jobs take 2 rows each (mrt_mega_iq_rows_job, mega_gemm.cuh) */
        o.split = "D1=2";
        one_plan(glm5_config_reduced(), (glm5_shape){64, 2, 300}, o, "roundrobin --split D1=2, 64 tokens", 0);
        /* 128 tokens a tile, B0 in 4 splits too: D1's and B0's q jobs take 4 rows each
         * (mrt_mega_qa_rows_job) */
        o.split = "D1=2,B0=4";
        one_plan(glm5_config_reduced(), (glm5_shape){128, 2, 300}, o, "roundrobin --split D1=2,B0=4, 128 tokens", 0);
        o.split = NULL;
#if MRT_MEGA_TALL
        o.split = NULL, o.block_n = "D0=256"; /* tall tiles */
        one_plan(glm5_config_reduced(), (glm5_shape){4, 2, 300}, o, "roundrobin --block-n D0=256", 0);
#endif
        TEST_MAIN_END();
    }
    if (argc > 2 && !strcmp(argv[1], "--tiny-place")) {
        /* the reduced model at 16 tokens under each --place given: sanitizer bisection of
         * which instruction sequences a CTA runs (`--place X=0` puts every task of X on worker
         * 0, after its A0 task; `megartp plan glm5-prefix --model reduced --json` shows the
         * queues). PLACE/SPLIT adds --split SPLIT (e.g. B0=0/B0=1: B0's tiles unsplit, no groups) */
        for (int i = 2; i < argc; i++) {
            char place[160], pol[200];
            snprintf(place, sizeof place, "%s", argv[i]);
            char *slash = strchr(place, '/');
            if (slash) *slash = '\0';
            mrt_plan_opts o = mrt_plan_opts_default();
            o.policy = MRT_POLICY_ROUNDROBIN, o.place = place, o.split = slash ? slash + 1 : NULL;
            snprintf(pol, sizeof pol, "roundrobin --place %s%s%s, 16 tokens", place, slash ? " --split " : "", slash ? slash + 1 : "");
            one_plan(glm5_config_reduced(), (glm5_shape){16, 2, 300}, o, pol, 0);
        }
        TEST_MAIN_END();
    }
    if (argc > 1 && !strcmp(argv[1], "--quick")) {
        one((glm5_shape){4, 2, 300}, MRT_POLICY_ROUNDROBIN, 0);
        TEST_MAIN_END();
    }
    one((glm5_shape){16, 2, 8192}, MRT_POLICY_ROUNDROBIN, 1000);
    one((glm5_shape){16, 2, 8192}, MRT_POLICY_CRITICAL_PATH, 100);
    /* the default plan (policy auto, tuned: here D1 in 2 splits a unit, E1 in 256-key tasks,
     * critical-path's queues) */
    one_plan(glm5_config_glm5(), (glm5_shape){16, 2, 8192}, mrt_plan_opts_default(), "default (auto, tuned)", 100);
    { /* roundrobin with worker ranges and a split (--place, --split): other queues, the same bytes */
        mrt_plan_opts o = mrt_plan_opts_default();
        o.split = "D1=2", o.place = "D1=0-63,E1=0-63,D0=64-131,D2=64-131";
        one_plan(glm5_config_glm5(), (glm5_shape){16, 2, 8192}, o,
                 "roundrobin --split D1=2 --place D1=0-63,E1=0-63,D0=64-131,D2=64-131", 100);
    }
    { /* E1 in 256-key tasks on the indexer branch's own workers (--chunk): other tasks, the same bytes */
        mrt_plan_opts o = mrt_plan_opts_default();
        o.chunk = "E1=256", o.split = "D1=2", o.place = "D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131";
        one_plan(glm5_config_glm5(), (glm5_shape){16, 2, 8192}, o,
                 "roundrobin --chunk E1=256 --split D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131", 100);
    }
    { /* F1 rows in 16 slices, all 256 on 4 workers: a row's slices share workers (no slice
       * waits for another; the last to finish merges), and in one slice each (--split F1=1) */
        mrt_plan_opts o = mrt_plan_opts_default();
        o.split = "F1=16", o.place = "F1=0-3";
        one_plan(glm5_config_glm5(), (glm5_shape){16, 2, 8192}, o, "roundrobin --split F1=16 --place F1=0-3", 100);
        o.split = "F1=1", o.place = NULL, o.policy = MRT_POLICY_ROUNDROBIN;
        one_plan(glm5_config_glm5(), (glm5_shape){16, 2, 8192}, o, "roundrobin --split F1=1", 0);
    }
    { /* A0's rows in slices (--split A0; up to M=16 the default): every slice sums the whole
       * row and stores its own groups; B0's K splits each wait for their own slice. M=1 and
       * M=16 whole (M=16's plan before session 30). */
        mrt_plan_opts o = mrt_plan_opts_default();
        o.split = "A0=4,D1=2", o.chunk = "E1=256";
        one_plan(glm5_config_glm5(), (glm5_shape){16, 2, 8192}, o, "--split A0=4,D1=2 --chunk E1=256", 100);
        o.split = "A0=1", o.chunk = NULL, o.policy = MRT_POLICY_ROUNDROBIN;
        one_plan(glm5_config_glm5(), (glm5_shape){1, 1, 8192}, o, "roundrobin --split A0=1", 0);
        o.split = "A0=1,D1=2", o.policy = MRT_POLICY_CRITICAL_PATH;
        one_plan(glm5_config_glm5(), (glm5_shape){16, 2, 1024}, o, "critical-path --split A0=1,D1=2", 0);
        one((glm5_shape){4, 1, 8192}, MRT_POLICY_CRITICAL_PATH, 0); /* 8 slices a row by default, B0 in 3 K splits */
    }
    { /* D1's finalization jobs of several rows (mega_gemm.cuh, mrt_mega_iq_rows_job: 2 rows a
       * job in the 64-token kernel, 4 in the 128-token one; B0's q jobs 4 rows in the
       * 128-token kernel, mrt_mega_qa_rows_job), with a last job whose rows run past the
       * unit's (33 rows in jobs of 2, 66 in jobs of 4); the 64- and 128-token shapes below
       * take them too */
        mrt_plan_opts o = mrt_plan_opts_default();
        o.split = "D1=2";
        one_plan(glm5_config_glm5(), (glm5_shape){33, 1, 1024}, o, "--split D1=2, 33 tokens", 0);
        one_plan(glm5_config_glm5(), (glm5_shape){66, 1, 1024}, o, "--split D1=2, 66 tokens", 0);
    }
    { /* E1's TMA loads (index_logits_wg.cuh): cache blocks of 16 keys (8 boxes a pass) and of
       * 256 (boxes of 128 keys inside a block), a context that ends inside a block */
        glm5_config c = glm5_config_glm5();
        c.block_tokens = 16;
        one_cfg(c, (glm5_shape){16, 2, 8192}, MRT_POLICY_ROUNDROBIN, 0);
        c.block_tokens = 256;
        one_cfg(c, (glm5_shape){16, 2, 1000}, MRT_POLICY_CRITICAL_PATH, 0);
    }
    { /* cache blocks the megakernel's E1 cannot load as whole TMA boxes (96 keys): serial
       * runs them, mega refuses with a message naming the op and the block size */
        glm5_config c = glm5_config_glm5();
        c.block_tokens = 96;
        mrt_plan_opts o = mrt_plan_opts_default();
        glm5_fixture f;
        mrt_status st = glm5_fixture_new_cfg(ctx, c, (glm5_shape){16, 2, 8192}, &o, 5, &f);
        if (CHECK(st == MRT_OK, "block_tokens 96: set-up: %s", st ? mrt_last_error(ctx) : "")) {
            st = mrt_gpu_serial_step(f.x, 0, 0);
            if (!st) st = mrt_gpu_sync(f.x);
            CHECK(st == MRT_OK, "block_tokens 96: serial runs %s", st ? mrt_last_error(ctx) : "");
            st = mrt_gpu_mega_step(f.x, 0, 0);
            const char *e = st ? mrt_last_error(ctx) : "";
            CHECK(st == MRT_ERR_UNSUPPORTED && strstr(e, "E1") && strstr(e, "block_tokens"),
                  "block_tokens 96: mega refuses (%d: %s)", (int)st, e);
            glm5_fixture_free(&f);
        }
    }
#if MRT_MEGA_TALL
    { /* tall tiles (--block-n: 256 output columns a tile, two accumulators a warpgroup): D0
       * (fused Q_B store) and B0 (3 K splits, its finalization; its last kv tile 64 rows, a
       * 128-row tile) at 16 tokens, 32 (TN 32) and 1; the same bytes as serial's 128-row tiles */
        mrt_plan_opts o = mrt_plan_opts_default();
        o.block_n = "D0=256";
        one_plan(glm5_config_glm5(), (glm5_shape){16, 2, 8192}, o, "--block-n D0=256", 100);
        o.block_n = "D0=256,B0=256";
        one_plan(glm5_config_glm5(), (glm5_shape){16, 2, 8192}, o, "--block-n D0=256,B0=256", 100);
        one_plan(glm5_config_glm5(), (glm5_shape){32, 2, 1024}, o, "--block-n D0=256,B0=256", 0);
        one_plan(glm5_config_glm5(), (glm5_shape){1, 1, 1024}, o, "--block-n D0=256,B0=256", 0);
        o.policy = MRT_POLICY_ROUNDROBIN;
        one_plan(glm5_config_glm5(), (glm5_shape){16, 2, 1024}, o, "roundrobin --block-n D0=256,B0=256", 0);
    }
#endif
    { /* tall tiles the megakernel does not run: more than 32 tokens a tile, or any without
       * -DMRT_MEGA_TALL=1; refused with the op named */
        glm5_fixture f;
        mrt_plan_opts o = mrt_plan_opts_default();
        o.block_n = "D0=256";
        const glm5_shape s = {MRT_MEGA_TALL ? 64 : 16, 2, 1024};
        const char *says = MRT_MEGA_TALL ? "at most 32 tokens" : "-DMRT_MEGA_TALL=1";
        mrt_status st = glm5_fixture_new_cfg(ctx, glm5_config_glm5(), s, &o, 5, &f);
        if (CHECK(st == MRT_OK, "M %d --block-n D0=256: set-up: %s", s.m, st ? mrt_last_error(ctx) : "")) {
            st = mrt_gpu_mega_step(f.x, 0, 0);
            const char *e = st ? mrt_last_error(ctx) : "";
            CHECK(st == MRT_ERR_UNSUPPORTED && strstr(e, "D0") && strstr(e, says),
                  "M %d --block-n D0=256: mega refuses (%d: %s)", s.m, (int)st, e);
            glm5_fixture_free(&f);
        }
    }
    /* the rest of [E]'s shapes: M in {1, 16, 64, 128} x KV in {1024, 8192, 65536} */
    const glm5_shape shapes[] = {{1, 1, 1024},   {1, 1, 8192},    {1, 1, 65536},  {16, 2, 1024},
                                 {16, 2, 65536}, {64, 2, 1024},   {64, 2, 8192},  {64, 2, 65536},
                                 {128, 2, 1024}, {128, 2, 8192}, {128, 2, 65536}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        one(shapes[i], MRT_POLICY_ROUNDROBIN, 0);
        one(shapes[i], MRT_POLICY_CRITICAL_PATH, 0);
        one_plan(glm5_config_glm5(), shapes[i], mrt_plan_opts_default(), "default (auto, tuned)", 0);
    }
    TEST_MAIN_END();
}
