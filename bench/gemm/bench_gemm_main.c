/* Stand-alone driver of mrt_bench_gemm (what `megartp bench gemm` calls), for
 * scripts/gpu-check.sh while the CLI is being wired: bench_gemm [M ...] */
#include <stdio.h>
#include <stdlib.h>

#include "cuda/gpu.h"

int main(int argc, char **argv) {
    int ms[16], n = 0;
    for (int i = 1; i < argc && n < 16; i++) ms[n++] = atoi(argv[i]);
    char why[256];
    if (!mrt_gpu_available(why, sizeof why)) {
        printf("SKIP: %s\n", why);
        return 0;
    }
    return mrt_bench_gemm(n ? ms : NULL, n, stdout) ? 1 : 0;
}
