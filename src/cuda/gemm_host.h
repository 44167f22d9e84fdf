/* Host-side helpers shared by src/cuda/gemm*.cu (C++; internal to src/cuda). */
#ifndef MRT_GEMM_HOST_H
#define MRT_GEMM_HOST_H

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdint.h>

#include "../ops/gemm_core.cuh"
#include "gpu.h"

/* printf-style message into why; returns -1 (so callers `return mrt_gpu_fail(...)`). */
int mrt_gpu_fail(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* cuTensorMapEncodeTiled through the runtime's driver entry point (no link-time libcuda,
 * so binaries still start, and say "SKIP", on machines without a driver). 2D, 128-byte
 * swizzle, zero fill out of bounds. inner/rows in elements, row_bytes the row stride. */
int mrt_tmap_2d(void *tmap, const void *base, CUtensorMapDataType dt, int elem_bytes, uint64_t inner,
                uint64_t rows, uint64_t row_bytes, uint32_t box_inner, uint32_t box_rows, char *why, size_t n);
/* The same without swizzle (shared memory gets the box row by row, box_inner elements a row):
 * the fp8 activation scales (mrt_gemm_sx_map). */
int mrt_tmap_2d_flat(void *tmap, const void *base, CUtensorMapDataType dt, uint64_t inner, uint64_t rows,
                     uint64_t row_bytes, uint32_t box_inner, uint32_t box_rows, char *why, size_t n);
/* The fp8 activation scales sx [M][sx_ld] fp32 as tiles of tn rows x mrt_gemm_sx_pitch(kb_per_cta)
 * K blocks, into *tmap (128 bytes); 1 when made, 0 when sx does not allow one (a row not a
 * multiple of 16 bytes, sx not 16-byte aligned, a box wider than 256, -DMRT_GEMM_SX_TMA=0):
 * then the tiles gather their scales (gemm_core.cuh), the same values in the same layout. */
int mrt_gemm_sx_map(void *tmap, const float *sx, int M, int sx_ld, int tn, int kb_per_cta);
/* The same in 3D: planes of `rows` rows (row_bytes, plane_bytes apart), box box_inner x box_rows
 * x 1 (E1's key cache in the megakernel: blocks of block_tokens 128-byte keys, then scales). */
int mrt_tmap_3d(void *tmap, const void *base, CUtensorMapDataType dt, uint64_t inner, uint64_t rows, uint64_t planes,
                uint64_t row_bytes, uint64_t plane_bytes, uint32_t box_inner, uint32_t box_rows, char *why, size_t n);

/* Device pointer of the host-mapped watchdog buffer (allocated on first use; NULL if mapped
 * memory is unavailable, then a stuck kernel traps without a record). */
unsigned *mrt_gpu_diag(void);

/* Raises a kernel's dynamic shared memory attribute to at least `bytes`, never lowers it: an
 * earlier plan's launches, captured in a graph, keep their shared memory (lowering it made
 * them fail with "invalid argument", H200 2026-11-29). Every launcher sets it this way. */
cudaError_t mrt_gpu_raise_smem(const void *kernel, int bytes);

/* Lets both kernel variants of a planned GEMM use its shared memory (and clusters above 8
 * CTAs); returns 0 or -1 with a message naming `what`. */
int mrt_gemm_allow(const mrt_gpu_gemm *g, const char *what, char *why, size_t n);

/* "## megartp bench <what> — device, SMs, L2, driver, date" and a blank line. */
void mrt_bench_heading(FILE *out, const char *what);

/* Device facts the planner needs (cached after the first call). */
int mrt_gpu_num_sms(void);
int mrt_gpu_smem_optin(void);

/* Tokens per tile for M tokens: the smallest supported wgmma N >= min(M, 128). */
int mrt_gemm_pick_tn(int M);
/* Split-K by a small cost model (ns): streaming time per wave at the per-CTA share of HBM
 * bandwidth, a fixed ramp per wave, and the reduction's cost: through a cluster (when the
 * kernel's clusters of that size fit on the GPU: `kernel`, cudaOccupancyMaxActiveClusters)
 * or through global memory. Only divisors of nkb; split > 0 is taken as given (its
 * reduction path still chosen). units = CTAs per split (tiles x chunks x batches).
 * allow_cluster: 0 never, 1 wherever it fits, 2 only when units == 1 (the whole GEMM is one
 * cluster). Returns the split; *cluster = split when the cluster path wins, else 1. */
int mrt_gemm_pick_split(int kind, int tn, const void *kernel, int units, int nkb, double wbytes_per_kb,
                        double out_bytes_per_tile, int split, int allow_cluster, int *cluster);
/* Max co-resident clusters of `size` CTAs of kernel with smem bytes (0: cannot launch). */
int mrt_gemm_cluster_capacity(const void *kernel, int size, int smem);
/* Pipeline depth that fits shared memory; 0 if even one stage does not. */
int mrt_gemm_pick_stages(int kind, int tn, int kb_per_split, int *smem_bytes);
/* The same within `cap` bytes from the 1024-aligned base (the megakernel's budget). */
int mrt_gemm_pick_stages_in(int kind, int tn, int kb_per_split, int cap, int *smem_bytes);

/* Split of a bf16 GEMM (mn = MN-major weights: always 1); split > 0 is taken as given. */
int mrt_bf16_split(int M, int N, int K, int batches, int mn, int split, int allow_cluster, int *cluster);

size_t mrt_gemm_ws_bytes(int batches, int nchunks, int ntiles, int split, int M, int N);
void mrt_gemm_ws_split(void *ws, int batches, int nchunks, int ntiles, unsigned **tickets, float **partial);

#endif
