/* What E1's wgmma tile can reach on one SM without its loads (H200): one E1 task of the
 * megakernel at M=128 KV=65536 (512 keys of a request x 16 token groups of 4 tokens = 8
 * passes of 16 units; a unit = 64 keys x one group = a chain of 4 m64n128k32 e4m3 wgmmas from
 * shared memory), keys and queries resident in shared memory (no copies, no mbarriers), the
 * units dealt to NWG warpgroups as in mrt_index_logits_tile_wg, a CTA barrier a pass (or none:
 * BARS).
 * MODE 0: chain, wait, one accumulator read (the tile's -DMRT_MEGA_IL_STOP=2 without loads);
 * 1: + the tile's head sums (relu, times wI, the quad's shuffles: its STOP=3);
 * 2: + the logits' stores (the tile's work without its loads);
 * 5: the head sums alone (no wgmma); 6: warpgroup 0 only the chains, 1-2 only head sums.
 * (Two accumulators a warpgroup, its next chain issued before this unit's epilogue with
 * wait_group 1, compiled serialized here: C7514, then C7511 at 168 registers.)
 * 132 CTAs of 384 threads (one an SM, every SM busy as in the step), TASKS tasks a CTA in a
 * row; prints the median CTA's cycles and ns a task and the tensor rate they imply.
 * `wgmma_probe --epi` adds the head sums' other forms (relu_fma's EPI 1, 2).
 * A measurement, not part of the build (docs/MEGAKERNEL.md session 49):
 * nvcc -gencode=arch=compute_90a,code=sm_90a -O3 -std=c++17 -Iinclude -Isrc -Isrc/core -Isrc/ops
 *      -o build/wgmma_probe scripts/wgmma_probe.cu */
#include <algorithm>
#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

#include "gemm_core.cuh"
#include "index_logits_wg.cuh"

#define TASKS 4
#define PASSES 8     /* 4 passes of 128 keys x 2 chunks of 8 groups */
#define UNITS 16     /* a pass: 8 groups x 2 halves of 64 keys */
#define KV 65536
#define SMEM (16384 + 8 * 16384 + 8 * 512 + 2048) /* + 1024: EPI 4's padded layout */

static __device__ __forceinline__ unsigned long long gtime() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t)::"memory");
    return t;
}
static __device__ __forceinline__ void cta_bar() { asm volatile("bar.sync 0, 384;" ::: "memory"); }

/* w relu(x) added to s. EPI 0 (the tile's): fmax then fma, one ALU and one FMA-pipe
 * instruction; 1: w (x + |x|) = 2 w relu(x) as two fmas (|x| a free operand modifier), both
 * on the FMA pipe (the tile would fold the 1/2 into the key scale; the sum's rounding changes,
 * so bytes differ from the tile's within the reference's tolerance); 2: odd column blocks as 1,
 * even as 0 (the pipes balanced). The question for the next session: whether the head sums
 * are bound by fmax's pipe (if it issues at half the FMA rate: to be checked) rather than by
 * issue. */
template <int EPI> static __device__ __forceinline__ float relu_fma(float w, float x, float s, int c) {
    if (EPI == 1 || (EPI == 2 && (c & 1))) return fmaf(w, fabsf(x), fmaf(w, x, s));
    return fmaf(w, fmaxf(x, 0.0f), s);
}
/* the tile's epilogue: per token of the group, the thread's two keys; then the quad's sums */
/* How the head weights reach the registers: EPI 0-2 as the tile (wv_s[8 c + 2 quad + j], which
 * ptxas makes 16 generic 8-byte loads a unit: the probe's pointer, like the tile's, has lost its
 * address space); 3: none (literals: the loads' cost, logits wrong; alone (MODE 5) ptxas hoists
 * the sums out of the loop); 4: 8 shared 16-byte loads of a layout permuted per quad ([quad][c][j]
 * with the quads 36 floats apart: a thread's 32 weights in a row, 4 quads in other banks; run 2
 * had them 32 apart, a 4-way bank conflict: 108k cycles); 5: the tile's
 * 16 loads as ld.shared.v2 (the generic-to-shared path's cost). EPI 3-5 use the fmax form. */
static __device__ __forceinline__ float2 lds2(const float *p) {
    float2 v;
    asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "r"(mrt_smem_u32(p)));
    return v;
}
static __device__ __forceinline__ float4 lds4(const float *p) {
    float4 v;
    asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "r"(mrt_smem_u32(p)));
    return v;
}
template <int EPI>
static __device__ __forceinline__ mrt_ilw_sums<4> head_sums(const float (&acc)[64], const float *wv_s, int quad) {
    float s[4][2];
#pragma unroll
    for (int tl = 0; tl < 4; tl++) s[tl][0] = s[tl][1] = 0.0f;
    float wr[32]; /* EPI 3-5: this thread's weights, wr[2 c + j] */
#pragma unroll
    for (int c = 0; c < 16; c++) {
        if (EPI == 3) wr[2 * c] = 0.01f * (float)(c - 8), wr[2 * c + 1] = 0.02f * (float)(c - 7);
        if (EPI == 4 && c % 2 == 0) {
            const float4 v = lds4(wv_s + 36 * quad + 2 * c); /* quads 144 bytes apart: other banks */
            wr[2 * c] = v.x, wr[2 * c + 1] = v.y, wr[2 * c + 2] = v.z, wr[2 * c + 3] = v.w;
        }
        if (EPI == 5) {
            const float2 v = lds2(wv_s + 8 * c + 2 * quad);
            wr[2 * c] = v.x, wr[2 * c + 1] = v.y;
        }
    }
#pragma unroll
    for (int c = 0; c < 16; c++) {
        const int tl = 8 * c / 32;
#pragma unroll
        for (int j = 0; j < 2; j++) {
            const float wv = EPI >= 3 ? wr[2 * c + j] : wv_s[8 * c + 2 * quad + j];
            s[tl][0] = relu_fma<EPI>(wv, acc[4 * c + j], s[tl][0], c);
            s[tl][1] = relu_fma<EPI>(wv, acc[4 * c + 2 + j], s[tl][1], c);
        }
    }
    return mrt_ilw_quad_sums<4>(s, quad);
}

static __device__ __forceinline__ void chain(float (&acc)[64], uint32_t a_addr, uint32_t b_addr) {
    mrt_wgmma_fence();
    const mrt_sdesc_k_at<> da(a_addr), db(b_addr);
#pragma unroll
    for (int kk = 0; kk < 4; kk++) mrt_wgmma<128>::e4m3(acc, da(kk * 32), db(kk * 32), kk != 0);
    mrt_wgmma_commit();
}

/* BARS: a CTA barrier a pass (the tile's: its key buffers are reused); without, each
 * warpgroup runs its units of all passes in a row (what the tile could do were a pass's
 * buffer released per unit). */
template <int NWG, int MODE, bool BARS, int EPI>
__global__ void __launch_bounds__(384, 1) probe(float *logits, float *sinks, unsigned long long *cyc,
                                               unsigned long long *ns, unsigned long long *wgc) {
    extern __shared__ __align__(16) uint8_t smem_in[];
    uint8_t *smem = (uint8_t *)(((uintptr_t)smem_in + 1023) & ~(uintptr_t)1023);
    uint8_t *A = smem, *B = smem + 16384;
    float *wI_s = (float *)(smem + 16384 + 8 * 16384);
    const int tid = threadIdx.x, wg = tid >> 7, w = (tid >> 5) & 3, lane = tid & 31, quad = lane & 3;
    /* e4m3 codes of small magnitude, never NaN (0x7f / 0xff) */
    for (int i = tid; i < 9 * 16384; i += 384) smem[i] = (uint8_t)((i * 37 + blockIdx.x) & 0x37) | ((i & 64) << 1);
    for (int i = tid; i < 8 * 128; i += 384) wI_s[i] = 0.01f * (float)((i * 13) % 17 - 8);
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    cta_bar();
    float sink = 0.0f;
    const int jt = (int)(blockIdx.x % 128) * 512; /* this CTA's keys (one request's task) */
    /* unit U of the stream (TASKS x PASSES x UNITS): pass p = U / UNITS % PASSES, u = U % UNITS */
    auto issue = [&](float(&a)[64], int U) {
        const int u = U % UNITS;
        chain(a, mrt_smem_u32(A + (u & 1) * 8192), mrt_smem_u32(B + (u >> 1) * 16384));
    };
    auto epi = [&](float(&a)[64], int U) {
        mrt_reg_fence(a);
        if (MODE == 0) {
            sink += a[0];
            return;
        }
        const int u = U % UNITS, p = U / UNITS % PASSES, kh = u & 1, gi = u >> 1;
        const mrt_ilw_sums<4> o = head_sums<EPI>(a, wI_s + gi * 128, quad);
        if (MODE == 1 || MODE >= 5) {
            sink += o.v[0] + o.v[1];
            return;
        }
        const int t = ((p / 4) * 8 + gi) * 4 + o.tl, krow = mrt_ilw_key_row<4>(kh, w, lane);
        float *out = logits + (long long)t * KV + jt + (p % 4) * 128 + krow;
#pragma unroll
        for (int i = 0; i < 2; i++) out[8 * i] = o.v[i];
    };
    const int total = TASKS * PASSES * UNITS;
    unsigned long long c0 = clock64(), t0 = gtime();
    if (BARS) {
        for (int P = 0; P < TASKS * PASSES; P++) {
            if (wg < NWG) {
                float a[64];
#pragma unroll 1
                for (int U = P * UNITS + (wg - P * UNITS % NWG + NWG) % NWG; U < (P + 1) * UNITS; U += NWG) {
                    issue(a, U);
                    mrt_wgmma_wait<0>();
                    epi(a, U);
                }
            }
            cta_bar();
        }
    } else if (wg < NWG) {
        float a[64];
        /* MODE 5: the epilogue alone (accumulators from shared memory once, no wgmma); MODE 6:
         * warpgroup 0 only chains (MODE 0's read), the others only epilogues (MODE 5's): a
         * unit's halves side by side, each warpgroup a third of the units */
        const bool mma = MODE == 6 ? wg == 0 : MODE != 5, math = MODE == 6 ? wg != 0 : true;
        if (!mma)
            for (int i = 0; i < 64; i++) a[i] = (float)(int8_t)smem[tid * 64 + i];
#pragma unroll 1
        for (int U = wg; U < total; U += NWG) {
            if (mma) {
                issue(a, U);
                mrt_wgmma_wait<0>();
            }
            if (math) epi(a, U);
            else sink += a[0];
        }
    }
    if ((tid & 127) == 0) wgc[blockIdx.x * 3 + wg] = (clock64() - c0) / TASKS; /* this warpgroup done */
    cta_bar();
    unsigned long long c1 = clock64(), t1 = gtime();
    if (tid == 0) cyc[blockIdx.x] = (c1 - c0) / TASKS, ns[blockIdx.x] = (t1 - t0) / TASKS;
    if (sink == -1.25e-37f) sinks[tid] = sink; /* never true; keeps the chains */
}

template <int NWG, int MODE, bool BARS = true, int EPI = 0>
static void run(float *logits, float *sinks, unsigned long long *cyc, unsigned long long *ns) {
    auto k = probe<NWG, MODE, BARS, EPI>;
    cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);
    std::vector<unsigned long long> c(132), t(132);
    for (int rep = 0; rep < 3; rep++) k<<<132, 384, SMEM>>>(logits, sinks, cyc, ns, cyc + 132); /* the last one counts */
    cudaError_t e = cudaDeviceSynchronize();
    if (e != cudaSuccess) {
        printf("NWG %d MODE %d EPI %d%s: %s\n", NWG, MODE, EPI, BARS ? "" : " no pass barriers", cudaGetErrorString(e));
        return;
    }
    cudaMemcpy(c.data(), cyc, 132 * 8, cudaMemcpyDeviceToHost);
    cudaMemcpy(t.data(), ns, 132 * 8, cudaMemcpyDeviceToHost);
    std::vector<unsigned long long> g(3 * 132);
    cudaMemcpy(g.data(), cyc + 132, 3 * 132 * 8, cudaMemcpyDeviceToHost);
    std::sort(c.begin(), c.end()), std::sort(t.begin(), t.end());
    const double flop = 2.0 * 64 * 128 * 32 * 4 * UNITS * PASSES; /* a task's */
    printf("NWG %d MODE %d EPI %d%s: a task %7.0f cycles (p10 %7.0f p90 %7.0f), %6.2f us; %5.2f cycles an m64n128k32; "
           "%6.0f TFLOP/s over 132 SMs; clock %.2f GHz\n",
           NWG, MODE, EPI, BARS ? "" : " no pass barriers", (double)c[66], (double)c[13], (double)c[118], t[66] / 1e3,
           (double)c[66] / (4 * UNITS * PASSES), flop * 132 / (t[66] * 1e-9) / 1e12, (double)c[66] / t[66]);
    printf("    CTA 0's warpgroups done after %llu / %llu / %llu cycles a task\n", g[0], g[1], g[2]);
}

int main(int argc, char **argv) {
    float *logits, *sinks;
    unsigned long long *cyc, *ns;
    cudaMalloc(&logits, 64ull * KV * 4);
    cudaMalloc(&sinks, 384 * 4);
    cudaMalloc(&cyc, 4 * 132 * 8);
    cudaMalloc(&ns, 132 * 8);
    run<1, 0>(logits, sinks, cyc, ns);
    run<2, 0>(logits, sinks, cyc, ns);
    run<3, 0>(logits, sinks, cyc, ns);
    run<3, 0, false>(logits, sinks, cyc, ns);
    run<2, 1>(logits, sinks, cyc, ns);
    run<3, 1>(logits, sinks, cyc, ns);
    run<3, 2>(logits, sinks, cyc, ns);
    run<3, 2, false>(logits, sinks, cyc, ns);
    run<3, 1, false>(logits, sinks, cyc, ns);
    run<1, 1, false>(logits, sinks, cyc, ns);
    run<1, 5, false>(logits, sinks, cyc, ns);
    run<3, 5, false>(logits, sinks, cyc, ns);
    run<3, 6, false>(logits, sinks, cyc, ns);
    if (argc > 1 && argv[1][2] == 'e') { /* --epi: the head sums' forms (relu_fma), alone and with the chains */
        run<3, 5, false, 1>(logits, sinks, cyc, ns);
        run<3, 5, false, 2>(logits, sinks, cyc, ns);
        run<3, 1, false, 1>(logits, sinks, cyc, ns);
        run<3, 1, false, 2>(logits, sinks, cyc, ns);
    }
    if (argc > 1 && argv[1][2] == 'w') { /* --wv: how the head weights are loaded (head_sums' EPI 3-5) */
        for (int r = 0; r < 2; r++) {
            run<3, 1, false, 0>(logits, sinks, cyc, ns);
            run<3, 1, false, 3>(logits, sinks, cyc, ns);
            run<3, 1, false, 4>(logits, sinks, cyc, ns);
            run<3, 1, false, 5>(logits, sinks, cyc, ns);
        }
        run<3, 5, false, 3>(logits, sinks, cyc, ns);
        run<3, 5, false, 4>(logits, sinks, cyc, ns);
        run<3, 5, false, 5>(logits, sinks, cyc, ns);
        run<3, 6, false, 3>(logits, sinks, cyc, ns);
        run<3, 6, false, 4>(logits, sinks, cyc, ns);
        run<3, 1, true, 4>(logits, sinks, cyc, ns);
    }
    return 0;
}
