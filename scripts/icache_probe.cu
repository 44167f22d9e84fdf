/* What running cold code costs on one SM (H200): a noinline function of straight-line
 * independent FMAs (8 chains, 16 bytes an instruction), run twice in a row by every CTA of a
 * launch, each run timed with %globaltimer. Run 1 fetches the code into the SM (from L2, or
 * from HBM on the launch after an L2 flush); run 2 finds it in the SM's instruction caches if
 * it fits. Sizes (the cubin's symbols: 32 bytes an FMA as compiled) 16, 64, 256 KB; 1 CTA
 * and 132 CTAs (every SM fetching the same lines).
 * A measurement, not part of the build (docs/MEGAKERNEL.md session 25; scripts/device-s25a.sh):
 * nvcc -arch=sm_90a -O3 -o icache_probe scripts/icache_probe.cu */
#include <cstdio>
#include <cuda_runtime.h>

#define FM8                                                                                                   \
    asm volatile("fma.rn.f32 %0,%0,%8,%9;\n\tfma.rn.f32 %1,%1,%8,%9;\n\tfma.rn.f32 %2,%2,%8,%9;\n\t"             \
                 "fma.rn.f32 %3,%3,%8,%9;\n\tfma.rn.f32 %4,%4,%8,%9;\n\tfma.rn.f32 %5,%5,%8,%9;\n\t"             \
                 "fma.rn.f32 %6,%6,%8,%9;\n\tfma.rn.f32 %7,%7,%8,%9;"                                           \
                 : "+f"(a[0]), "+f"(a[1]), "+f"(a[2]), "+f"(a[3]), "+f"(a[4]), "+f"(a[5]), "+f"(a[6]), "+f"(a[7]) \
                 : "f"(x), "f"(y));
#define R4(s) s s s s
#define R16(s) R4(R4(s))
#define R64(s) R4(R16(s))

/* code8 / 32 / 128: 16.4 / 64.4 / 256 KB of SASS (readelf -s of the cubin) */
__device__ __noinline__ void code8(float *a, float x, float y) { R64(FM8) }
__device__ __noinline__ void code32(float *a, float x, float y) { R4(R64(FM8)) }
__device__ __noinline__ void code128(float *a, float x, float y) { R16(R64(FM8)) }

static __device__ __forceinline__ unsigned long long gt() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t)::"memory");
    return t;
}

template <int KB> __global__ void probe(float *out, unsigned long long *ns, float x, float y) {
    float a[8];
    for (int i = 0; i < 8; i++) a[i] = threadIdx.x + i;
    unsigned long long t[3];
    __syncthreads();
    t[0] = gt();
    for (int r = 0; r < 2; r++) {
        if (KB == 8) code8(a, x, y);
        else if (KB == 32) code32(a, x, y);
        else code128(a, x, y);
        __syncthreads();
        t[r + 1] = gt();
    }
    float s = 0;
    for (int i = 0; i < 8; i++) s += a[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
    if (threadIdx.x == 0) ns[2 * blockIdx.x] = t[1] - t[0], ns[2 * blockIdx.x + 1] = t[2] - t[1];
}

template <int KB> static void run(int ctas, float *out, unsigned long long *ns, char *flush, size_t flush_bytes) {
    unsigned long long h[2 * 132];
    for (int rep = 0; rep < 3; rep++) {
        if (rep == 0) cudaMemset(flush, rep + 1, flush_bytes); /* evicts the code from L2 */
        probe<KB><<<ctas, 128>>>(out, ns, 1.0001f, 0.5f);
        cudaMemcpy(h, ns, sizeof(unsigned long long) * 2 * ctas, cudaMemcpyDeviceToHost);
        double c = 0, w = 0, cmax = 0;
        for (int i = 0; i < ctas; i++) {
            c += h[2 * i], w += h[2 * i + 1];
            if (h[2 * i] > cmax) cmax = h[2 * i];
        }
        printf("%3d KB of SASS, %3d CTAs, launch %d%s: first run %7.2f us (max %7.2f), second %7.2f us\n",
               2 * KB, ctas, rep, rep == 0 ? " (L2 flushed)" : "             ", c / ctas / 1e3, cmax / 1e3, w / ctas / 1e3);
    }
}

int main() {
    float *out;
    unsigned long long *ns;
    char *flush;
    const size_t fb = 256u << 20;
    cudaMalloc(&out, 132 * 128 * 4), cudaMalloc(&ns, 2 * 132 * 8), cudaMalloc(&flush, fb);
    for (int ctas : {1, 132}) {
        run<8>(ctas, out, ns, flush, fb);
        run<32>(ctas, out, ns, flush, fb);
        run<128>(ctas, out, ns, flush, fb);
    }
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return e != cudaSuccess;
}
