/* Built instead of src/cuda/ where nvcc is absent: every GPU entry point answers
 * MRT_ERR_UNSUPPORTED, so the CPU build never needs CUDA. */
#include <stdio.h>

#include "gpu.h"

int mrt_gpu_available(char *why, size_t n) {
    snprintf(why, n, "megartp was built without CUDA (no nvcc found)");
    return 0;
}
