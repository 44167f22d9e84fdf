/* Split-K partial planes summed in split order, shared by the GEMM's last-CTA reduction
 * (gemm_core.cuh), the finalization kernels that sum a GEMM's planes themselves
 * (gemm_fp8_epilogues.cuh) and the megakernel's group finalization: whoever sums, the order is
 * the same, so every executor gets the same bytes. */
#ifndef MRT_SPLIT_SUM_CUH
#define MRT_SPLIT_SUM_CUH

/* V float4s at src summed over `nsplit` fp32 planes `plane` floats apart, in split order
 * 0 + p0 + p1 + ... (deterministic: the same order whoever sums), B splits' loads in flight
 * at a time (8; fewer where V is large: B * V float4s of registers), from L2 (other CTAs
 * wrote them). */
template <int V, int B = 8>
static __device__ __forceinline__ void mrt_sum_splits(const float *src, long long plane, int nsplit, float4 (&v)[V]) {
#pragma unroll
    for (int k = 0; k < V; k++) v[k] = make_float4(0.f, 0.f, 0.f, 0.f);
    for (int s0 = 0; s0 < nsplit; s0 += B) {
        float4 u[B][V];
#pragma unroll
        for (int j = 0; j < B; j++)
            if (s0 + j < nsplit)
#pragma unroll
                for (int k = 0; k < V; k++) u[j][k] = __ldcg((const float4 *)(src + (s0 + j) * plane) + k);
#pragma unroll
        for (int j = 0; j < B; j++)
            if (s0 + j < nsplit)
#pragma unroll
                for (int k = 0; k < V; k++) v[k].x += u[j][k].x, v[k].y += u[j][k].y, v[k].z += u[j][k].z, v[k].w += u[j][k].w;
    }
}

#endif
