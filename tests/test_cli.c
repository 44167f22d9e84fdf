/* The command line (tools/megartp.c) as a user meets it: --help anywhere prints the help and
 * exits 0; bad commands, workloads, options and values exit 2 with a message naming them and
 * the help on stderr; `plan` prints a plan. Runs the built binary next to the tests folder. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "testing.h"

static char bin[600], errfile[620];

/* Runs `megartp ARGS`; returns its exit status, its stdout in out and its stderr in err. */
static int run(const char *args, char *out, size_t no, char *err, size_t ne) {
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "%s %s 2>%s", bin, args, errfile);
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    out[0] = 0;
    while (p && n + 1 < no) {
        size_t k = fread(out + n, 1, no - 1 - n, p);
        if (!k) break;
        n += k;
    }
    out[n] = 0;
    int st = p ? pclose(p) : -1;
    FILE *f = fopen(errfile, "r");
    n = f ? fread(err, 1, ne - 1, f) : 0;
    err[n] = 0;
    if (f) fclose(f);
    return st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int main(int argc, char **argv) {
    (void)argc;
    const char *slash = strrchr(argv[0], '/');
    snprintf(bin, sizeof bin, "%.*s/../megartp", slash ? (int)(slash - argv[0]) : 1, slash ? argv[0] : ".");
    snprintf(errfile, sizeof errfile, "%s.stderr", argv[0]);
    static char out[1 << 16], err[1 << 16];
    const char *helps[] = {"help", "--help", "-h", "plan --help", "plan glm5-prefix --help", "run glm5-prefix --m 4 -h",
                           "bench gemm --help", "trace glm5-prefix --backend cmp --help"};
    for (size_t i = 0; i < sizeof helps / sizeof helps[0]; i++) {
        int rc = run(helps[i], out, sizeof out, err, sizeof err);
        CHECK(rc == 0 && strstr(out, "usage: megartp") && strstr(out, "commands:"),
              "`megartp %s`: exit %d, the help on stdout (%.60s)", helps[i], rc, out);
    }
    struct {
        const char *args, *says;
    } bad[] = {
        {"", "usage: megartp"},
        {"plan", "needs a workload"},
        {"plan llama", "needs a workload"},
        {"plan glm5-prefix --bogus", "unknown option \"--bogus\""},
        {"plan glm5-prefix --m", "--m needs a value"},
        {"plan glm5-prefix --policy fastest", "unknown policy \"fastest\""},
        {"plan glm5-prefix --model gpt", "unknown model \"gpt\""},
        {"bench glm5-prefix --modes serial,serial", "--modes"},
        {"plan glm5-prefix --place", "--place needs a value"},
        {"plan glm5-prefix --builds 0", "--builds needs an integer in 1..100000"},
        {"run glm5-prefix --builds 2", "unknown option \"--builds\""}, /* plan's alone */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = run(bad[i].args, out, sizeof out, err, sizeof err);
        CHECK(rc == 2 && strstr(err, bad[i].says), "`megartp %s`: exit %d (want 2), stderr names it (\"%s\"): %.120s",
              bad[i].args, rc, bad[i].says, err);
    }
    int rc = run("plan glm5-prefix --m 16 --batch 2 --kv 1024", out, sizeof out, err, sizeof err);
    CHECK(rc == 0 && strstr(out, "gemm_bf16") && strstr(out, "topk"), "`megartp plan glm5-prefix`: exit %d, a plan (%.80s)",
          rc, out);
    /* the header names the plan's options, so a figure printed under it says which plan */
    rc = run("plan glm5-prefix --policy roundrobin --split D1=2 --place D0=64-131,D2=64-131", out, sizeof out, err, sizeof err);
    CHECK(rc == 0 && strstr(out, "plan: 132 workers, roundrobin") && strstr(out, "--split D1=2") &&
              strstr(out, "--place D0=64-131,D2=64-131"),
          "`megartp plan` with --split and --place: exit %d, header names them (%.160s)", rc, out);
    /* --builds: that many more builds, their mean and fastest (a time: only its form is checked) */
    rc = run("plan glm5-prefix --m 4 --kv 300 --builds 3", out, sizeof out, err, sizeof err);
    double mean = 0, fastest = 0;
    const char *b = strstr(out, "builds: 3 more in this process, graph and plan: mean ");
    CHECK(rc == 0 && b && sscanf(b, "builds: 3 more in this process, graph and plan: mean %lf us, fastest %lf us", &mean,
                                 &fastest) == 2 && fastest > 0 && fastest <= mean,
          "`megartp plan --builds 3`: exit %d, mean %.1f, fastest %.1f (%.120s)", rc, mean, fastest, b ? b : out);
    rc = run("plan glm5-prefix --place D0=9-3", out, sizeof out, err, sizeof err);
    CHECK(rc == 1 && strstr(err, "--place: D0: \"9-3\" is not LO-HI"), "`megartp plan --place D0=9-3`: exit %d, %.120s", rc, err);
    /* `run` prints the outputs' digest: the same seed the same digest (on another build too:
     * the bytes check between builds and executors), another seed another one */
    char digest[3][17] = {{0}};
    const char *runs[] = {"run glm5-prefix --m 1 --batch 1 --kv 64 --seed 5",
                          "run glm5-prefix --m 1 --batch 1 --kv 64 --seed 5 --interleavings 2",
                          "run glm5-prefix --m 1 --batch 1 --kv 64 --seed 6"};
    for (int i = 0; i < 3; i++) {
        rc = run(runs[i], out, sizeof out, err, sizeof err);
        const char *d = strstr(out, "output digest ");
        if (d) sscanf(d + 14, "%16[0-9a-f]", digest[i]);
        CHECK(rc == 0 && strlen(digest[i]) == 16, "`megartp %s`: exit %d, a 16-digit digest (%.16s)", runs[i], rc, digest[i]);
    }
    CHECK(!strcmp(digest[0], digest[1]) && strcmp(digest[0], digest[2]),
          "run digests: seed 5 twice %s %s (same), seed 6 %s (another)", digest[0], digest[1], digest[2]);
    /* --model reduced: the GPU tests' --tiny model (hidden 1024, q_lora 512), its plan and a
     * CPU step within tolerance, the step on 16 workers as those tests run it */
    rc = run("run glm5-prefix --model reduced --m 16 --kv 300 --workers 16 --policy roundrobin", out, sizeof out, err,
             sizeof err);
    CHECK(rc == 0 && strstr(out, "glm5-prefix (reduced)") && strstr(out, "all outputs within tolerance"),
          "`megartp run glm5-prefix --model reduced --workers 16`: exit %d, %.200s", rc, rc ? err : out);
    /* its plan is the reduced model's, not GLM-5's under another name: fewer tasks */
    int tasks[2] = {0, 0}, prc[2];
    const char *plans[2] = {"plan glm5-prefix --model reduced --m 4 --kv 300 --json", "plan glm5-prefix --m 4 --kv 300 --json"};
    for (int i = 0; i < 2; i++) {
        prc[i] = run(plans[i], out, sizeof out, err, sizeof err);
        const char *t = strstr(out, "\"tasks\": ");
        if (t) sscanf(t + 9, "%d", &tasks[i]);
    }
    CHECK(prc[0] == 0 && prc[1] == 0 && tasks[0] > 0 && tasks[0] < tasks[1],
          "`megartp plan --model reduced`: exit %d, %d tasks against GLM-5's %d (exit %d)", prc[0], tasks[0], tasks[1],
          prc[1]);
    remove(errfile);
    TEST_MAIN_END();
}
