/* megartp: the command line. Every subcommand builds the GLM-5 prefix graph for the given
 * shape, plans it and then prints, runs or measures it. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "glm5_check.h"
#include "glm5_prefix.h"
#include "gpu.h"
#include "internal.h"
#include "megartp.h"

static const char *usage =
    "usage: megartp <command> glm5-prefix [options]\n"
    "       megartp bench gemm [--m LIST]\n"
    "       megartp bench pdl [--m LIST]\n"
    "\n"
    "commands:\n"
    "  plan     build the plan and print it (tiles, events, queues, build time)\n"
    "  run      run one decode step on an executor and compare every output with the\n"
    "           naive reference (--backend cpu; serial, cmp, mega need a GPU); prints the\n"
    "           outputs' digest: serial, cmp and mega give identical bytes, so the same\n"
    "           digest at the same shape and seed, as does any build that left them alone\n"
    "  bench    (needs a GPU) glm5-prefix: the step of each executor in --modes with weights\n"
    "           and caches rotating through --copies layer copies, per op and per step, beside\n"
    "           the same-bytes read kernel; gemm: every GLM-5 GEMM shape against cuBLASLt;\n"
    "           pdl: the PDL experiment, A0 -> FP8 GEMM (B0, and B1 as the negative case)\n"
    "           with the consumer's wait at entry / after the prologue / only before the\n"
    "           activation loads (weights prefetched), PDL off vs on: producer-start ->\n"
    "           consumer-end span, after checking PDL-on bytes = PDL-off bytes\n"
    "  trace    run one step with stamps and write a Chrome trace (-o FILE.json, opens in\n"
    "           Perfetto) and an HTML timeline (--html FILE.html); prints span, active ratio,\n"
    "           gaps, per-op times and the critical path. --backend cpu (tasks on worker\n"
    "           tracks, host time), serial or cmp (every CTA on its SM's track from in-kernel\n"
    "           %globaltimer stamps, a track per stream), mega (each instruction's phases on\n"
    "           its worker's track; per op its input -> published beside the cost model's\n"
    "           time for its tasks)\n"
    "  help     this text\n"
    "\n"
    "shape:\n"
    "  --m N            tokens in the step (default 16)\n"
    "  --batch N        requests; each has M/batch new tokens (default 2)\n"
    "  --kv N           context length of every request, new tokens included (default 8192)\n"
    "  --model NAME     glm5 (default), dsv32 (DeepSeek-V3.2 dimensions) or reduced\n"
    "                   (GLM-5 at hidden 1024, 4 heads, q_lora 512: the model of the\n"
    "                   GPU tests' --tiny cases, which compute-sanitizer runs)\n"
    "plan:\n"
    "  --workers N      queues, one per SM (default 132, an H200)\n"
    "  --policy P       placement: auto (default), roundrobin (the article's) or\n"
    "                   critical-path (list scheduling by longest remaining path under a\n"
    "                   cost model fitted to the megakernel's trace: an instruction's time\n"
    "                   from its kind, tokens, bytes and arithmetic). auto builds both and\n"
    "                   takes critical-path where the model puts its step more than 3% below\n"
    "                   roundrobin's, or no higher where no task has more than 16 tokens;\n"
    "                   above 16 tokens roundrobin where the index logits have more than\n"
    "                   1.5x as many tasks as workers (KV=65536 at M=24-96: 9-16 us faster\n"
    "                   than critical-path at four shapes, level at one, session 39);\n"
    "                   roundrobin with --place; for each tiling that tuning plans\n"
    "                   (--no-tune); every plan line says which it took.\n"
    "                   bench/RESULTS.md: both placements measured at the 12 shapes of\n"
    "                   M 1-128 x KV 1024-65536 (session 23), the picks of the refitted\n"
    "                   model (session 24)\n"
    "  --tiling T       default (ours, for a 132-SM H200) or seed (the article's tile counts;\n"
    "                   plans A0..E1 only, as the article did: top-k F1 was not in its plan)\n"
    "  --ops LIST       plan only these ops, e.g. A0,C0,B1 (what they read from left-out\n"
    "                   producers becomes inputs: the GPU executors hold those poisoned with\n"
    "                   NaN, so only data-independent timings mean anything; the cpu\n"
    "                   executor refuses workspace inputs it has no data for)\n"
    "  --order LIST     the planned ops in this order, producers first, e.g.\n"
    "                   A0,B0,C0,B1,D1,E1,D0,D2,F1: the order serial launches them in and\n"
    "                   roundrobin deals their tasks out in (default: the graph's for seed\n"
    "                   tiling, else the op starting the longest chain of consumers first)\n"
    "  --split LIST     split-K of the named GEMMs, e.g. D1=2,B0=6 (a divisor of each one's\n"
    "                   K blocks; serial and cmp take the plan's split too); for top-k, the\n"
    "                   slices a row, each a task, the row's last one merging, e.g. F1=4\n"
    "                   (1..16; default: slices of >= 16384 keys, at most 8, rows x slices\n"
    "                   at most the workers: on the H200 at M=16 KV=65536 104.5 us against\n"
    "                   131.6 in one task a row, M=64 182.6 against 208.9, M=128 (one task\n"
    "                   a row) 300 against 315 in two slices, slower at KV=8192:\n"
    "                   bench/RESULTS.md, sessions 22 and 46; serial and cmp run one kernel\n"
    "                   a row either way); for add-RMSNorm-quant, slices of a row's\n"
    "                   128-groups, e.g. A0=4, each a task that sums the whole row and\n"
    "                   stores its slice (default: up\n"
    "                   to 16 rows, 32 tasks in all, e.g. M=2 16 slices, M=16 2, M=1 16,\n"
    "                   else 1; the split-K GEMMs after A0 leave its slices their workers\n"
    "                   where they keep 3/4 of their tiles: M=2..16 B0 in 3 K splits, 4\n"
    "                   with A0=1; a slice\n"
    "                   across the GEMMs' K splits can need more than a task's 4 signals:\n"
    "                   GLM-5 takes 1, 2, 4, 8, 16, 48)\n"
    "  --place LIST     the named ops' tasks on a range of workers, e.g.\n"
    "                   D0=64-131,D2=64-131 (OP=W for one): roundrobin deals them over it\n"
    "                   (the other ops keep the rotation over all workers); critical-path\n"
    "                   lets only those workers take them; with auto it means roundrobin\n"
    "  --chunk LIST     keys a task of the named index-logits ops, e.g. E1=256 (a multiple\n"
    "                   of 128; default 128, doubled while there would be more than two\n"
    "                   tasks a worker). On the H200, M=16 KV=8192: --chunk E1=256 --split\n"
    "                   D1=2 --place D1=0-63,E1=0-63,F1=0-15,D0=64-131,D2=64-131 gives mega\n"
    "                   73.9-74.3 us against 79.7-79.8 (M=1 KV=8192 68.9 against 75.4, M=16\n"
    "                   KV=1024 70.8 against 72.2), but 6-876 us more at the other nine\n"
    "                   shapes of M 1-128, KV 1024-65536: bench/RESULTS.md, session 21\n"
    "  --block-n LIST   output columns (weight rows) a task of the named FP8 GEMMs, e.g.\n"
    "                   D0=256: 128 (default) or 256, the megakernel's tall tiles (two\n"
    "                   accumulators a warpgroup, up to 32 tokens a task, in a build with\n"
    "                   -DMRT_MEGA_TALL=1; serial, cmp and cpu run any; tuning still runs).\n"
    "                   On the H200 (bench/RESULTS.md sessions 44-45) D0=256 was 1.4-2.3\n"
    "                   us faster at M=16 KV=1024, 0.9-4.8 slower at KV=8192 and M=1\n"
    "  --pairing P      auto (registered tile-level strategies, default) or whole (every\n"
    "                   consumer waits for its whole producer)\n"
    "  --fuse-events    merge events whose producers are the same tasks (Mirage's fusion)\n"
    "  --no-tune        one plan: by default (--policy auto, no --split, --chunk or --place)\n"
    "                   the planner also plans the indexer branch in fewer, larger tasks\n"
    "                   (the split of the GEMM computing the index-logits queries halved,\n"
    "                   and that with the logits' chunk doubled up to 512 keys) and keeps\n"
    "                   the plan whose cost-model step is lowest; the plan line names\n"
    "                   what it changed, `plan` prints each tiling's step. Plans 2-3\n"
    "                   tilings, verifies one: warm (--builds) 1.5-1.7 ms against 0.9\n"
    "                   untuned at M=16 KV=8192 on a 2-core VM; a process's first build\n"
    "                   5-11 ms (docs/ARCHITECTURE.md, \"Plan build time\")\n"
    "  --json           print one JSON object instead of the table (with every worker's\n"
    "                   queue, task by task)\n"
    "  --builds N       plan: build the same plan N more times in this process (its graph\n"
    "                   too) and print their mean and fastest build; a process's first\n"
    "                   build also pays for its memory's first use (docs/ARCHITECTURE.md)\n"
    "trace:\n"
    "  -o FILE          Chrome trace-event JSON (Perfetto, chrome://tracing)\n"
    "  --html FILE      self-contained HTML timeline (wheel zooms, drag pans)\n"
    "run, trace:\n"
    "  --backend B      cpu (default), serial, cmp or mega\n"
    "  --seed S         seed of the random weights, inputs and cache history (default 1)\n"
    "  --interleavings N  cpu: run N seeded random interleavings and require identical\n"
    "                   bytes (default 1)\n"
    "  --threads N      cpu: run the queues on N real threads instead (default 0: the seeded\n"
    "                   interleaving scheduler)\n"
    "bench:\n"
    "  --modes LIST     executors to measure, a comma list of serial, cmp, mega (default\n"
    "                   all three; the per-op table is serial's)\n"
    "  --reps N         replays per figure (default 200)\n"
    "  --copies N       weight and cache copies to rotate through (default 6, at least 6\n"
    "                   keeps every replay out of the 60 MB L2)\n"
    "  --cumulative     the article's cumulative add: the step of A0+C0, then with B1, B0,\n"
    "                   D0, D1, D2, E1, F1 added one at a time; each addition's increment\n"
    "                   beside that op's standalone time\n"
    "  --m LIST         bench gemm: token counts, e.g. 1,16,64 (default 1,16,64,128,256);\n"
    "                   bench pdl: likewise (default 16,32,64,128,256)\n";

typedef struct cli {
    const char *cmd, *model, *backend, *modes, *m_list, *json_out, *html_out;
    int reps, copies, builds;
    glm5_shape shape;
    mrt_plan_opts plan;
    int json, interleavings, threads, cumulative;
    unsigned long long seed;
} cli;

/* --modes: a comma list of serial, cmp, mega, none twice. */
static bool modes_ok(const char *v) {
    static const char *known[] = {"serial", "cmp", "mega"};
    bool seen[3] = {false, false, false};
    if (!v || !*v) return false;
    for (const char *q = v; *q;) {
        size_t n = strcspn(q, ",");
        int k = -1;
        for (int j = 0; j < 3; j++)
            if (n == strlen(known[j]) && !strncmp(q, known[j], n)) k = j;
        if (k < 0 || seen[k]) return false;
        seen[k] = true;
        q += n;
        if (*q == ',' && !*++q) return false; /* a trailing comma */
    }
    return true;
}

static int parse_int(const char *flag, const char *v, long lo, long hi, int *out) {
    char *end;
    long x = v ? strtol(v, &end, 10) : 0;
    if (!v || *end || x < lo || x > hi) {
        fprintf(stderr, "megartp: %s needs an integer in %ld..%ld, got \"%s\"\n", flag, lo, hi, v ? v : "");
        return -1;
    }
    *out = (int)x;
    return 0;
}

/* --model's names and their configurations: one list for the option's check and the run */
static const struct {
    const char *name;
    glm5_config (*config)(void);
} models[] = {{"glm5", glm5_config_glm5}, {"dsv32", glm5_config_dsv32}, {"reduced", glm5_config_reduced}};

static int model_index(const char *name) {
    for (int i = 0; i < (int)(sizeof models / sizeof models[0]); i++)
        if (name && !strcmp(name, models[i].name)) return i;
    return -1;
}

static int parse(int argc, char **argv, cli *c) {
    c->shape = (glm5_shape){16, 2, 8192};
    c->plan = mrt_plan_opts_default();
    c->model = "glm5";
    c->backend = "cpu";
    c->interleavings = 1;
    c->seed = 1;
    c->modes = "serial,cmp,mega"; /* every executor, the megakernel included (serial,cmp until session 33) */
    c->reps = 200;
    c->copies = 6;
    if (argc < 2) return -1;
    c->cmd = argv[1];
    if (!strcmp(c->cmd, "help")) return 1;
    for (int i = 1; i < argc; i++) /* --help anywhere: the help, whatever else is there */
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return 1;
    bool pdl = !strcmp(c->cmd, "bench") && argc >= 3 && !strcmp(argv[2], "pdl");
    bool gemm = (!strcmp(c->cmd, "bench") && argc >= 3 && !strcmp(argv[2], "gemm")) || pdl; /* --m is a list */
    if (argc < 3 || (strcmp(argv[2], "glm5-prefix") && !gemm)) {
        fprintf(stderr, "megartp: %s needs a workload: glm5-prefix%s\n", c->cmd,
                strcmp(c->cmd, "bench") ? "" : ", gemm or pdl");
        return -1;
    }
    c->backend = pdl ? "pdl" : gemm ? "gemm" : c->backend;
    for (int i = 3; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int r = 0;
        if (!strcmp(a, "--m") && !gemm) r = parse_int(a, v, 0, 65536, &c->shape.m), i++;
        else if (!strcmp(a, "--batch")) r = parse_int(a, v, 1, 65536, &c->shape.batch), i++;
        else if (!strcmp(a, "--kv")) r = parse_int(a, v, 1, 1 << 24, &c->shape.kv), i++;
        else if (!strcmp(a, "--workers")) r = parse_int(a, v, 1, 4096, &c->plan.workers), i++;
        else if (!strcmp(a, "--interleavings")) r = parse_int(a, v, 1, 100000, &c->interleavings), i++;
        else if (!strcmp(a, "--threads")) r = parse_int(a, v, 0, 1024, &c->threads), i++;
        else if (!strcmp(a, "--reps")) r = parse_int(a, v, 10, 100000, &c->reps), i++;
        else if (!strcmp(a, "--copies")) r = parse_int(a, v, 1, 16, &c->copies), i++;
        else if (!strcmp(a, "--builds") && !strcmp(c->cmd, "plan")) r = parse_int(a, v, 1, 100000, &c->builds), i++;
        else if (!strcmp(a, "--modes")) {
            if (!modes_ok(v)) {
                fprintf(stderr, "megartp: --modes: \"%s\": a comma list of serial, cmp and mega, each at most once\n",
                        v ? v : "");
                return -1;
            }
            c->modes = v, i++;
        } else if (!strcmp(a, "--m") && gemm) {
            if (!v) r = -1;
            c->m_list = v, i++;
        }
        else if (!strcmp(a, "--seed")) {
            if (!v) r = -1;
            else c->seed = strtoull(v, NULL, 10);
            i++;
        } else if (!strcmp(a, "--policy")) {
            if (v && !strcmp(v, "roundrobin")) c->plan.policy = MRT_POLICY_ROUNDROBIN;
            else if (v && !strcmp(v, "critical-path")) c->plan.policy = MRT_POLICY_CRITICAL_PATH;
            else if (v && !strcmp(v, "auto")) c->plan.policy = MRT_POLICY_AUTO;
            else {
                fprintf(stderr, "megartp: --policy: unknown policy \"%s\" (auto, roundrobin, critical-path)\n",
                        v ? v : "");
                return -1;
            }
            i++;
        } else if (!strcmp(a, "--tiling")) {
            if (v && !strcmp(v, "default")) c->plan.tiling = MRT_TILING_DEFAULT;
            else if (v && !strcmp(v, "seed")) c->plan.tiling = MRT_TILING_SEED;
            else {
                fprintf(stderr, "megartp: --tiling: unknown tiling \"%s\" (default, seed)\n", v ? v : "");
                return -1;
            }
            i++;
        } else if (!strcmp(a, "--pairing")) {
            if (v && !strcmp(v, "auto")) c->plan.pairing = MRT_PAIRING_AUTO;
            else if (v && !strcmp(v, "whole")) c->plan.pairing = MRT_PAIRING_WHOLE;
            else {
                fprintf(stderr, "megartp: --pairing: unknown pairing \"%s\" (auto, whole)\n", v ? v : "");
                return -1;
            }
            i++;
        } else if (!strcmp(a, "--ops")) {
            if (!v) r = -1;
            c->plan.ops = v, i++;
        } else if (!strcmp(a, "--order")) {
            if (!v) r = -1;
            c->plan.order = v, i++;
        } else if (!strcmp(a, "--split")) {
            if (!v) r = -1;
            c->plan.split = v, i++;
        } else if (!strcmp(a, "--place")) {
            if (!v) r = -1;
            c->plan.place = v, i++;
        } else if (!strcmp(a, "--chunk")) {
            if (!v) r = -1;
            c->plan.chunk = v, i++;
        } else if (!strcmp(a, "--block-n")) {
            if (!v) r = -1;
            c->plan.block_n = v, i++;
        } else if (!strcmp(a, "--model")) {
            if (model_index(v) < 0) {
                fprintf(stderr, "megartp: --model: unknown model \"%s\" (glm5, dsv32, reduced)\n", v ? v : "");
                return -1;
            }
            c->model = v, i++;
        } else if (!strcmp(a, "--backend")) {
            if (!v) r = -1;
            c->backend = v, i++;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--html")) {
            if (!v) r = -1;
            if (!strcmp(a, "-o")) c->json_out = v;
            else c->html_out = v;
            i++;
        } else if (!strcmp(a, "--fuse-events")) c->plan.fuse_events = 1;
        else if (!strcmp(a, "--no-tune")) c->plan.tune = 0;
        else if (!strcmp(a, "--cumulative") && !strcmp(c->cmd, "bench") && !gemm) c->cumulative = 1;
        else if (!strcmp(a, "--json")) c->json = 1;
        else {
            fprintf(stderr, "megartp: unknown option \"%s\" (megartp help)\n", a);
            return -1;
        }
        if (r) {
            if (!v) fprintf(stderr, "megartp: %s needs a value\n", a);
            return -1;
        }
    }
    return 0;
}

/* The plan's options as one line ("plan: 132 workers, roundrobin, tiling default, ..."), the
 * ones left at their defaults included where they name the placement, so every figure a
 * command prints says which plan it came from (auto: which placement it took). */
static void print_plan_opts(const cli *c, const mrt_plan *p) {
    const mrt_plan_opts *o = &c->plan;
    const mrt_plan_info info = mrt_plan_get_info(p);
    printf("plan: %d workers, %s%s, tiling %s, pairing %s%s", o->workers, o->policy == MRT_POLICY_AUTO ? "auto: " : "",
           mrt_policy_name(info.policy),
           o->tiling == MRT_TILING_SEED ? "seed" : "default", o->pairing == MRT_PAIRING_WHOLE ? "whole" : "auto",
           o->fuse_events ? ", fused events" : "");
    const char *names[] = {"ops", "order", "split", "place", "chunk"},
               *vals[] = {o->ops, o->order, o->split, o->place, o->chunk};
    for (int i = 0; i < 5; i++)
        if (vals[i] && *vals[i]) printf(", --%s %s", names[i], vals[i]);
    if (*info.tuned) printf(", tuned: %s", info.tuned);
    else if (!o->tune) printf(", --no-tune");
    printf("\n");
}

/* The command's graph at its shape and the plan of it under its options (*g and *p NULL-ed
 * first; on an error either may be left for the caller to free). */
static mrt_status build_plan(const cli *c, mrt_context *ctx, const glm5_config *cfg, mrt_graph **g, mrt_plan **p) {
    *g = NULL, *p = NULL;
    mrt_status s = glm5_prefix_graph(ctx, cfg, &c->shape, g);
    return s ? s : mrt_plan_build(*g, &c->plan, p);
}

/* One step on a GPU executor (serial, cmp or mega) against the naive reference, with the
 * device tolerances (docs/NUMERICS.md). */
static int cmd_run_gpu(const cli *c, mrt_context *ctx, const glm5_config *cfg) {
    char why[256];
    if (!mrt_gpu_available(why, sizeof why)) {
        fprintf(stderr, "megartp run: --backend %s needs a GPU: %s\n", c->backend, why);
        return 1;
    }
    mrt_graph *g = NULL;
    mrt_plan *p = NULL;
    mrt_gpu_exec *x = NULL;
    glm5_host in = {0}, ref = {0}, out = {0};
    int rc = 1;
    mrt_status s = build_plan(c, ctx, cfg, &g, &p);
    if (!s) s = glm5_host_random(ctx, cfg, &c->shape, c->seed, &in);
    if (!s) s = glm5_host_clone(ctx, &in, &ref);
    if (!s) s = glm5_host_clone(ctx, &in, &out);
    if (!s) s = glm5_naive(ctx, &ref);
    if (!s) s = mrt_gpu_exec_new(p, 1, &x);
    if (!s) s = glm5_upload(x, g, &in, 1);
    if (!s) {
        if (!strcmp(c->backend, "serial")) s = mrt_gpu_serial_step(x, 0, 0);
        else if (!strcmp(c->backend, "cmp")) s = mrt_gpu_cmp_step(x, 0);
        else s = mrt_gpu_mega_step(x, 0, 0);
    }
    if (!s) s = mrt_gpu_sync(x);
    if (!s) s = glm5_download(x, g, &out);
    if (!s) {
        mrt_plan_info info = mrt_plan_get_info(p);
        printf("glm5-prefix (%s) on the %s executor: M %d, batch %d, kv %d; %d tasks, %d events, %d workers, seed %llu\n",
               c->model, c->backend, c->shape.m, c->shape.batch, c->shape.kv, info.tasks, info.events, info.workers,
               c->seed);
        print_plan_opts(c, p);
        int fails = glm5_compare(&out, &ref, glm5_plan_outputs(p), GLM5_TOL_DEVICE, stdout, NULL);
        printf("  output digest %016llx\n", (unsigned long long)glm5_digest(&out));
        printf("%s\n", fails ? "FAIL" : "all outputs within the device tolerances");
        rc = fails ? 1 : 0;
    }
    if (s) fprintf(stderr, "megartp run: %s: %s\n", mrt_status_name(s), mrt_last_error(ctx));
    mrt_gpu_exec_free(x);
    glm5_host_free(&in), glm5_host_free(&ref), glm5_host_free(&out);
    mrt_plan_free(p);
    mrt_graph_free(g);
    return rc;
}

/* One step on the CPU executor against the naive reference; with --interleavings N, N
 * seeded interleavings that must all give identical bytes. */
static int cmd_run(const cli *c, mrt_context *ctx, const glm5_config *cfg) {
    if (!strcmp(c->backend, "serial") || !strcmp(c->backend, "cmp") || !strcmp(c->backend, "mega"))
        return cmd_run_gpu(c, ctx, cfg);
    if (strcmp(c->backend, "cpu")) {
        fprintf(stderr, "megartp run: unknown backend \"%s\" (cpu, serial, cmp, mega)\n", c->backend);
        return 2;
    }
    mrt_graph *g = NULL;
    mrt_plan *p = NULL;
    glm5_host in = {0}, ref = {0}, out = {0};
    void *bufs[MRT_MAX_TENSORS] = {0};
    int rc = 1;
    double t0 = mrt_now_us(), t_ref = 0, t_exec = 0;
    mrt_status s = build_plan(c, ctx, cfg, &g, &p);
    if (!s) s = glm5_host_random(ctx, cfg, &c->shape, c->seed, &in);
    if (!s) s = glm5_host_clone(ctx, &in, &ref);
    if (!s) {
        double t = mrt_now_us();
        s = glm5_naive(ctx, &ref);
        t_ref = mrt_now_us() - t;
    }
    if (s) goto done;
    mrt_plan_info info = mrt_plan_get_info(p);
    printf("glm5-prefix (%s) on the cpu executor: M %d, batch %d, kv %d; %d tasks, %d events, %d workers, seed %llu\n",
           c->model, c->shape.m, c->shape.batch, c->shape.kv, info.tasks, info.events, info.workers, c->seed);
    print_plan_opts(c, p);
    uint64_t first = 0;
    for (int run = 0; run < c->interleavings; run++) {
        glm5_host_free(&out);
        if ((s = glm5_host_clone(ctx, &in, &out))) goto done;
        glm5_bind(g, &out, bufs);
        mrt_cpu_opts o = mrt_cpu_opts_default();
        o.seed = c->seed * 1000003ull + (unsigned long long)run;
        o.threads = c->threads;
        double t = mrt_now_us();
        if ((s = mrt_cpu_run(p, bufs, &o))) goto done;
        t_exec += mrt_now_us() - t;
        uint64_t d = glm5_digest(&out);
        if (run == 0) first = d;
        else if (d != first) {
            fprintf(stderr, "megartp run: interleaving %d (seed %llu) gave different bytes than interleaving 0\n", run,
                    (unsigned long long)o.seed);
            goto done;
        }
    }
    int fails = glm5_compare(&out, &ref, glm5_plan_outputs(p), GLM5_TOL_REFERENCE, stdout, NULL);
    if (c->interleavings > 1) printf("  %d interleavings: identical bytes\n", c->interleavings);
    printf("  output digest %016llx\n", (unsigned long long)first);
    printf("naive reference %.2f s, cpu executor %.2f s per run, total %.2f s: %s\n", t_ref * 1e-6,
           t_exec * 1e-6 / c->interleavings, (mrt_now_us() - t0) * 1e-6, fails ? "FAIL" : "all outputs within tolerance");
    rc = fails ? 1 : 0;
done:
    if (s) fprintf(stderr, "megartp run: %s: %s\n", mrt_status_name(s), mrt_last_error(ctx));
    glm5_host_free(&in);
    glm5_host_free(&ref);
    glm5_host_free(&out);
    mrt_plan_free(p);
    mrt_graph_free(g);
    return rc;
}

/* The article's cumulative add (section 6, analysis (b)): the step of A0+C0, then with B1,
 * B0, D0, D1, D2, E1 (and F1) added one at a time, each addition's increment beside the
 * op's standalone time (serial, from the whole plan). Every op's producers are in the set
 * before it, so each partial step computes real data. */
static int bench_cumulative(const cli *c, mrt_context *ctx, mrt_graph *g, glm5_host *h) {
    static const char *order[] = {"A0", "C0", "B1", "B0", "D0", "D1", "D2", "E1", "F1"};
    char ops[64] = "";
    mrt_plan *p = NULL;
    mrt_bench_prefix_result all, r, prev;
    memset(&prev, 0, sizeof prev);
    mrt_status s = mrt_plan_build(g, &c->plan, &p);
    if (!s && mrt_bench_prefix(p, h, c->copies, c->reps, c->modes, 1, NULL, &all)) s = MRT_ERR_INVALID;
    if (s) {
        if (s != MRT_ERR_INVALID) fprintf(stderr, "megartp bench: %s: %s\n", mrt_status_name(s), mrt_last_error(ctx));
        mrt_plan_free(p);
        return 1;
    }
    bool cmp = strstr(c->modes, "cmp") != NULL, mega = strstr(c->modes, "mega") != NULL;
    printf("\n| ops | MB | read us | serial us | +serial |%s%s added op alone (serial) |\n|---|---|---|---|---|%s%s---|\n",
           cmp ? " cmp us | +cmp |" : "", mega ? " mega us | +mega |" : "", cmp ? "---|---|" : "", mega ? "---|---|" : "");
    int rc = 0;
    for (int i = 0; i < 9 && !rc; i++) {
        mrt_op *op = mrt_graph_find_op(g, order[i]);
        int row = -1;
        for (int k = 0; op && k < p->n_ops; k++)
            if (p->ops[k] == op->id) row = k;
        if (row < 0) continue; /* not in this plan (the seed tiling has no F1) */
        snprintf(ops + strlen(ops), sizeof ops - strlen(ops), "%s%s", ops[0] ? "," : "", order[i]);
        if (i == 0) continue; /* A0 alone is not a step of the article's table: A0+C0 is */
        mrt_plan_opts o = c->plan;
        o.ops = ops, o.order = NULL; /* a subset of the ops: the default order of them */
        mrt_plan *q = NULL;
        s = mrt_plan_build(g, &o, &q);
        if (s || mrt_bench_prefix(q, h, c->copies, c->reps, c->modes, 0, NULL, &r)) {
            if (s) fprintf(stderr, "megartp bench: %s: %s\n", mrt_status_name(s), mrt_last_error(ctx));
            rc = 1;
        } else {
            printf("| %s | %.1f | %.2f | %.2f | %+.2f |", ops, r.step_mb, r.read_us, r.serial_us,
                   prev.serial_us ? r.serial_us - prev.serial_us : 0.0);
            if (cmp) printf(" %.2f | %+.2f |", r.cmp_us, prev.cmp_us ? r.cmp_us - prev.cmp_us : 0.0);
            if (mega) printf(" %.2f | %+.2f |", r.mega_us, prev.mega_us ? r.mega_us - prev.mega_us : 0.0);
            printf(" %s %.2f", order[i], all.op_us[row]);
            for (int k = 0; k < p->n_ops && i == 1; k++) /* the first row adds two ops */
                if (!strcmp(g->ops[p->ops[k]].name, "A0")) printf(", A0 %.2f", all.op_us[k]);
            printf(" |\n");
            prev = r;
        }
        mrt_plan_free(q);
    }
    printf("\nWhole plan: serial %.2f us", all.serial_us);
    if (cmp) printf(", cmp %.2f us", all.cmp_us);
    if (mega) printf(", mega %.2f us", all.mega_us);
    printf(", read kernel %.2f us. Increments: a step minus the step before it (same run, %d replays, weights and "
           "caches rotating through %d copies).\n", all.read_us, c->reps, c->copies);
    mrt_plan_free(p);
    return rc;
}

static int cmd_bench(const cli *c, mrt_context *ctx, const glm5_config *cfg) {
    char why[256];
    if (!mrt_gpu_available(why, sizeof why)) {
        fprintf(stderr, "megartp bench: needs a GPU: %s\n", why);
        return 1;
    }
    if (!strcmp(c->backend, "gemm") || !strcmp(c->backend, "pdl")) {
        int ms[16], n = 0;
        for (const char *s = c->m_list; s && *s && n < 16;) {
            ms[n++] = atoi(s);
            s = strchr(s, ',');
            s = s ? s + 1 : NULL;
        }
        if (!strcmp(c->backend, "pdl")) return mrt_bench_pdl(n ? ms : NULL, n, stdout) ? 1 : 0;
        return mrt_bench_gemm(n ? ms : NULL, n, stdout) ? 1 : 0;
    }
    mrt_graph *g = NULL;
    mrt_plan *p = NULL;
    glm5_host h = {0};
    mrt_status s = build_plan(c, ctx, cfg, &g, &p);
    if (!s) s = glm5_host_random(ctx, cfg, &c->shape, c->seed, &h);
    int rc = 1;
    if (s) fprintf(stderr, "megartp bench: %s: %s\n", mrt_status_name(s), mrt_last_error(ctx));
    else if (c->cumulative) {
        printf("glm5-prefix (%s) cumulative add: M %d, batch %d, kv %d, modes %s, %d replays, %d copies\n", c->model,
               c->shape.m, c->shape.batch, c->shape.kv, c->modes, c->reps, c->copies);
        print_plan_opts(c, p);
        rc = bench_cumulative(c, ctx, g, &h);
    } else {
        printf("glm5-prefix (%s) bench: M %d, batch %d, kv %d, modes %s, %d replays, %d copies\n", c->model, c->shape.m,
               c->shape.batch, c->shape.kv, c->modes, c->reps, c->copies);
        print_plan_opts(c, p);
        rc = mrt_bench_prefix(p, &h, c->copies, c->reps, c->modes, 1, stdout, NULL) ? 1 : 0;
    }
    glm5_host_free(&h);
    mrt_plan_free(p);
    mrt_graph_free(g);
    return rc;
}

/* One traced step: cpu (the interpreter's order, in host time) or a GPU executor (in-kernel
 * %globaltimer stamps: src/cuda/trace_gpu.cu). */
static int cmd_trace(const cli *c, mrt_context *ctx, const glm5_config *cfg) {
    bool cpu = !strcmp(c->backend, "cpu");
    if (!cpu && strcmp(c->backend, "serial") && strcmp(c->backend, "cmp") && strcmp(c->backend, "mega")) {
        fprintf(stderr, "megartp trace: unknown backend \"%s\" (cpu, serial, cmp, mega)\n", c->backend);
        return 2;
    }
    if (!c->json_out && !c->html_out) {
        fprintf(stderr, "megartp trace: give -o FILE.json and/or --html FILE.html\n");
        return 2;
    }
    char why[256];
    if (!cpu && !mrt_gpu_available(why, sizeof why)) {
        fprintf(stderr, "megartp trace: --backend %s needs a GPU: %s\n", c->backend, why);
        return 1;
    }
    mrt_graph *g = NULL;
    mrt_plan *p = NULL;
    glm5_host h = {0};
    mrt_trace *tr = NULL;
    mrt_gpu_exec *x = NULL;
    int rc = 1;
    mrt_status s = build_plan(c, ctx, cfg, &g, &p);
    if (!s) s = glm5_host_random(ctx, cfg, &c->shape, c->seed, &h);
    if (!s && !(tr = mrt_trace_new(p, c->backend))) s = MRT_ERR_NOMEM;
    if (!s && cpu) {
        void *bufs[MRT_MAX_TENSORS] = {0};
        glm5_bind(g, &h, bufs);
        mrt_cpu_opts o = mrt_cpu_opts_default();
        o.seed = c->seed, o.trace = tr;
        s = mrt_cpu_run(p, bufs, &o);
    } else if (!s) {
        s = mrt_gpu_exec_new(p, 1, &x);
        if (!s) s = glm5_upload(x, g, &h, 1);
        if (!s) s = mrt_gpu_trace_step(x, c->backend, 0, tr);
    }
    if (s) fprintf(stderr, "megartp trace: %s: %s\n", mrt_status_name(s), mrt_last_error(ctx));
    else {
        printf("glm5-prefix (%s): M %d, batch %d, kv %d, %s executor\n", c->model, c->shape.m, c->shape.batch,
               c->shape.kv, c->backend);
        print_plan_opts(c, p);
        mrt_trace_print(tr, stdout);
        rc = 0;
        const char *paths[2] = {c->json_out, c->html_out};
        for (int k = 0; k < 2; k++) {
            if (!paths[k]) continue;
            FILE *f = fopen(paths[k], "w");
            if (!f || (k ? mrt_trace_write_html(tr, f) : mrt_trace_write_json(tr, f))) {
                fprintf(stderr, "megartp trace: cannot write %s\n", paths[k]);
                rc = 1;
            } else
                printf("wrote %s\n", paths[k]);
            if (f) fclose(f);
        }
    }
    mrt_gpu_exec_free(x);
    mrt_trace_free(tr);
    glm5_host_free(&h);
    mrt_plan_free(p);
    mrt_graph_free(g);
    return rc;
}

static int cmd_plan(const cli *c, mrt_context *ctx, const glm5_config *cfg) {
    mrt_graph *g = NULL;
    mrt_plan *p = NULL;
    mrt_status s = build_plan(c, ctx, cfg, &g, &p);
    if (s) {
        fprintf(stderr, "megartp plan: %s: %s\n", mrt_status_name(s), mrt_last_error(ctx));
        mrt_graph_free(g);
        return 1;
    }
    if (!c->json) {
        printf("glm5-prefix (%s): M %d, batch %d, kv %d; ", c->model, c->shape.m, c->shape.batch, c->shape.kv);
        print_plan_opts(c, p);
    }
    mrt_plan_print(p, stdout, c->json);
    mrt_plan_free(p);
    mrt_graph_free(g);
    double sum = 0, best = 0;
    for (int i = 0; i < c->builds; i++) { /* warm builds, the graph too (an engine rebuilds both) */
        const double t = mrt_now_us();
        s = build_plan(c, ctx, cfg, &g, &p);
        const double us = mrt_now_us() - t;
        mrt_plan_free(p);
        mrt_graph_free(g);
        if (s) {
            fprintf(stderr, "megartp plan: --builds, build %d: %s: %s\n", i + 1, mrt_status_name(s), mrt_last_error(ctx));
            return 1;
        }
        sum += us, best = i && best < us ? best : us;
    }
    if (c->builds && !c->json)
        printf("builds: %d more in this process, graph and plan: mean %.1f us, fastest %.1f us\n", c->builds,
               sum / c->builds, best);
    return 0;
}

int main(int argc, char **argv) {
    cli c = {0};
    int r = parse(argc, argv, &c);
    if (r) {
        fputs(usage, r > 0 ? stdout : stderr);
        return r > 0 ? 0 : 2;
    }
    glm5_config cfg = models[model_index(c.model)].config();
    mrt_context *ctx = mrt_context_new();
    if (!ctx) return 1;
    int rc;
    if (!strcmp(c.cmd, "plan")) rc = cmd_plan(&c, ctx, &cfg);
    else if (!strcmp(c.cmd, "run")) rc = cmd_run(&c, ctx, &cfg);
    else if (!strcmp(c.cmd, "bench")) rc = cmd_bench(&c, ctx, &cfg);
    else if (!strcmp(c.cmd, "trace")) rc = cmd_trace(&c, ctx, &cfg);
    else {
        fprintf(stderr, "megartp: unknown command \"%s\"\n%s", c.cmd, usage);
        rc = 2;
    }
    mrt_context_free(ctx);
    return rc;
}
