/* index_logits (E1) on warpgroup MMA (wgmma): the same tile as index_logits.cuh (request b,
 * keys [j0, j1), 256 threads), computed as D[keys x (token, head)] = K Q^T by the two
 * warpgroups, 64 keys each, with both operands in shared memory.
 *
 * Why: the mma.sync tile is issue-bound (index_logits.cuh); at long context E1 is most of
 * the step (H200, session 6: 136 us of 280 at M=64 KV=65536, ~250 TFLOP/s). wgmma takes its
 * operands from shared memory and runs at the tensor cores' full rate.
 *
 * Layout: rows = keys (wgmma M = 64 per warpgroup), columns = (token, head) of a group of
 * TPG = 128 / heads tokens (wgmma N = 128), K = the 128 dims in eight k16 steps. Codes are
 * converted to f16 (exact: e4m3 is a subset of f16) and stored K-major with the 128-byte
 * swizzle TMA would write: per operand two regions (dims 0-63, 64-127), a 128-byte row per
 * key / column, 16-byte chunk c of row r at chunk c ^ (r & 7). Products are exact; sums fp32.
 *
 * Per pass of 128 keys: stage them (cp.async, index_logits.cuh), convert into A; then per
 * token group: convert its queries into B, its head weights and positions into shared
 * memory, one wgmma chain per warpgroup (8 x m64n128k16), and the epilogue from the
 * accumulator fragment (wgmma_ops.cuh: d[4c + 2i + j] = row 16w + l/4 + 8i, column
 * 8c + 2(l%4) + j): relu, times wI, summed over the token's heads (a thread's 8c-columns in
 * order, then the quad's lanes by xor 1, 2), times the key's scale, -inf past the token's
 * position. The summation order differs from the mma.sync tile's, so the logits differ from
 * variant 0's in the last bits (both within the reference's tolerance).
 *
 * STATUS: written 2026-11-29 (session 6) without a GPU run: compile-checked only, on branch
 * e1-wgmma. tests/gpu/test_index_ops checks it (variant 4) against the reference. */
#ifndef MRT_INDEX_LOGITS_WG_CUH
#define MRT_INDEX_LOGITS_WG_CUH

#include "gemm_core.cuh" /* mrt_sdesc_k, mrt_wgmma_fence / commit / wait, mrt_reg_fence */
#include "index_logits.cuh"

#define MRT_ILW_KEYS 128 /* keys a pass: 64 a warpgroup */

/* Shared memory (from a 1024-aligned base): A keys [2 wg][2 regions][64 rows][128 B],
 * B queries [2 regions][128 rows][128 B], raw staging, scales, wI and positions of a group. */
struct mrt_ilw_layout {
    static constexpr int A_OFF = 0, A_BYTES = 2 * 2 * 64 * 128;
    static constexpr int B_OFF = A_OFF + A_BYTES, B_BYTES = 2 * 128 * 128;
    static constexpr int RAW_OFF = B_OFF + B_BYTES, RAW_BYTES = MRT_ILW_KEYS * MRT_IL_DIM;
    static constexpr int RAWKS_OFF = RAW_OFF + RAW_BYTES;
    static constexpr int KS_OFF = RAWKS_OFF + MRT_ILW_KEYS * 4;
    static constexpr int WI_OFF = KS_OFF + MRT_ILW_KEYS * 4;
    static constexpr int POS_OFF = WI_OFF + 128 * 4;
    static constexpr int BYTES = POS_OFF + 16 * 4;
    static constexpr int SMEM_BYTES = BYTES + 1024; /* the caller's pointer is 16-byte aligned */
};

/* 16 e4m3 codes (dims 16p .. 16p+15 of row r) -> f16 into the swizzled K-major operand whose
 * two regions start at `ops` and `ops + region` bytes. */
static __device__ __forceinline__ void mrt_ilw_put16(uint8_t *ops, int region, int r, int p, uint4 codes) {
    uint4 lo, hi;
    mrt_il_e4m3x4_to_f16(codes.x, lo.x, lo.y);
    mrt_il_e4m3x4_to_f16(codes.y, lo.z, lo.w);
    mrt_il_e4m3x4_to_f16(codes.z, hi.x, hi.y);
    mrt_il_e4m3x4_to_f16(codes.w, hi.z, hi.w);
    uint8_t *row = ops + (p >> 2) * region + r * 128;
    const int c0 = (p & 3) * 2;
    *(uint4 *)(row + ((c0 ^ (r & 7)) << 4)) = lo;
    *(uint4 *)(row + (((c0 + 1) ^ (r & 7)) << 4)) = hi;
}

template <int TPG>
static __device__ void mrt_index_logits_tile_wg(const mrt_index_logits_args &a, int b, int j0, int j1, uint8_t *smem_in,
                                                int tid) {
    typedef mrt_ilw_layout L;
    static_assert(TPG * 8 <= 128 && 128 % TPG == 0, "wgmma E1: 128 / TPG heads a token, a multiple of 8");
    constexpr int H = 128 / TPG;
    uint8_t *smem = (uint8_t *)(((uintptr_t)smem_in + 1023) & ~(uintptr_t)1023);
    uint8_t *A = smem + L::A_OFF, *B = smem + L::B_OFF, *raw = smem + L::RAW_OFF;
    float *raw_ks = (float *)(smem + L::RAWKS_OFF), *ks_s = (float *)(smem + L::KS_OFF);
    float *wI_s = (float *)(smem + L::WI_OFF);
    int *pos_s = (int *)(smem + L::POS_OFF);
    const int wg = tid >> 7, w = (tid >> 5) & 3, lane = tid & 31, quad = lane & 3;
    const int t0 = b * a.n, ngroups = (a.n + TPG - 1) / TPG;
    const uint32_t a_desc0 = mrt_smem_u32(A + wg * (2 * 64 * 128)), b_desc0 = mrt_smem_u32(B);

    for (int js = j0; js < j1; js += MRT_ILW_KEYS) {
        /* keys: raw copy (rows past j1 are zeros), then f16 into A; warpgroup wg owns rows 64 wg.. */
        mrt_il_stage_issue(a, b, js, j1, MRT_ILW_KEYS, tid, raw, raw_ks);
        asm volatile("cp.async.wait_group 0;" ::: "memory");
        mrt_il_bar(); /* raw complete (every thread's copies) */
#pragma unroll
        for (int q = 0; q < 4; q++) {
            const int u = tid + q * MRT_IL_THREADS, r = u >> 3, p = u & 7; /* key r, dims 16p.. */
            mrt_ilw_put16(A + (r >> 6) * (2 * 64 * 128), 64 * 128, r & 63, p, *(const uint4 *)(raw + u * 16));
        }
        if (tid < MRT_ILW_KEYS) ks_s[tid] = raw_ks[tid];
        for (int g = 0; g < ngroups; g++) {
            /* queries of tokens t0 + g TPG + tl: column tl * H + h; tokens past n are zeros */
#pragma unroll
            for (int q = 0; q < 4; q++) {
                const int u = tid + q * MRT_IL_THREADS, col = u >> 3, p = u & 7;
                const int tl = col / H, h = col % H, t = g * TPG + tl;
                uint4 codes = make_uint4(0, 0, 0, 0);
                if (t < a.n) codes = *(const uint4 *)(a.q8 + ((long long)(t0 + t) * a.heads + h) * MRT_IL_DIM + 16 * p);
                mrt_ilw_put16(B, 128 * 128, col, p, codes);
            }
            if (tid < 128) {
                const int tl = tid / H, h = tid % H, t = g * TPG + tl;
                wI_s[tid] = t < a.n ? a.wI[(long long)(t0 + t) * a.heads + h] : 0.0f;
            }
            if (tid < TPG) pos_s[tid] = g * TPG + tid < a.n ? a.pos[t0 + g * TPG + tid] : -1;
            asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); /* generic writes -> wgmma reads */
            mrt_il_bar();
            float acc[64];
            mrt_wgmma_fence();
#pragma unroll
            for (int kk = 0; kk < 8; kk++) {
                const uint32_t off = (uint32_t)(kk & 3) * 32; /* the k16 step inside the 128-byte row */
                const uint64_t da = mrt_sdesc_k(a_desc0 + (kk >> 2) * (64 * 128) + off);
                const uint64_t db = mrt_sdesc_k(b_desc0 + (kk >> 2) * (128 * 128) + off);
                mrt_wgmma<128>::f16(acc, da, db, kk != 0);
            }
            mrt_wgmma_commit();
            mrt_wgmma_wait<0>();
            mrt_reg_fence(acc);
            /* per token of the group, this thread's two keys (i = 0, 1): its 8 head columns a
             * token, in column order, then the quad's lanes */
            float s[TPG][2];
#pragma unroll
            for (int tl = 0; tl < TPG; tl++) s[tl][0] = s[tl][1] = 0.0f;
#pragma unroll
            for (int c = 0; c < 16; c++) {
                const int tl = 8 * c / H;
#pragma unroll
                for (int j = 0; j < 2; j++) {
                    const float wv = wI_s[8 * c + 2 * quad + j];
                    s[tl][0] = fmaf(wv, fmaxf(acc[4 * c + j], 0.0f), s[tl][0]);
                    s[tl][1] = fmaf(wv, fmaxf(acc[4 * c + 2 + j], 0.0f), s[tl][1]);
                }
            }
#pragma unroll
            for (int tl = 0; tl < TPG; tl++)
#pragma unroll
                for (int i = 0; i < 2; i++) {
                    s[tl][i] += __shfl_xor_sync(0xffffffffu, s[tl][i], 1);
                    s[tl][i] += __shfl_xor_sync(0xffffffffu, s[tl][i], 2);
                }
#pragma unroll
            for (int tl = 0; tl < TPG; tl++) {
                const int t = g * TPG + tl;
                if ((tl & 3) != quad || t >= a.n) continue;
                float *out = a.logits + (long long)(t0 + t) * a.kv;
#pragma unroll
                for (int i = 0; i < 2; i++) {
                    const int r = 64 * wg + 16 * w + (lane >> 2) + 8 * i, j = js + r;
                    if (j < j1) out[j] = j <= pos_s[tl] ? s[tl][i] * ks_s[r] : -INFINITY;
                }
            }
            mrt_il_bar(); /* B, wI_s, pos_s (next group) and A, raw (next pass) are rewritten */
        }
    }
}

#endif
