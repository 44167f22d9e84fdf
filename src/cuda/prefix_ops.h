/* Standalone launchers of the GLM-5 prefix's non-GEMM device code (the .cuh files of src/ops):
 * A0 and the four finalizations that follow the FP8 GEMMs. C header, no CUDA types;
 * pointers are device pointers, stream a cudaStream_t (NULL: the default stream).
 * Each returns 0, or -1 with a message in why. */
#ifndef MRT_PREFIX_OPS_H
#define MRT_PREFIX_OPS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* pdl = 1: launched with programmatic serialization (the kernels wait for their
 * predecessor with griddepcontrol.wait). delay_ns: tests hold A0's outputs back. */
int mrt_gpu_a0(const uint16_t *h, const uint16_t *res, const uint16_t *w, uint16_t *r_new, uint16_t *x, uint8_t *x8,
               float *sx, int M, int H, float eps, unsigned delay_ns, void *stream, int pdl, char *why, size_t n);

/* The finalization of a gemm_fp8 op with epilogue `epi` (MRT_EPI_*), reading its reduced
 * fp32 output c [M, N]. Tensor pointers are those of the op's graph inputs and outputs in
 * its slot order (src/ops/gemm_fp8.c); params are the op's integer and float params. */
typedef struct mrt_gpu_epi {
    int epi;
    float *c; /* the GEMM output [M, N] the epilogue reads (and, with part, first sums into) */
    int M, N, K;
    const void *in[12];
    void *out[4];
    const int32_t *ip; /* op params i[0..7] */
    float eps;
    int gate_partials;                 /* INDEX_Q */
    uint16_t *qmla; int qmla_width, qmla_rope_at; /* Q_B writes roped q_pe into the query */
    const float *part; /* non-NULL: the GEMM left nsplit partial planes [nsplit][M][N] unsummed
                          (mrt_gpu_gemm.partials); each CTA first sums its unit's columns into c */
    int nsplit;
} mrt_gpu_epi;

int mrt_gpu_epilogue(const mrt_gpu_epi *e, void *stream, int pdl, char *why, size_t n);

#ifdef __cplusplus
}
#endif

#endif
