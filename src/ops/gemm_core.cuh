/* The skeleton shared by megartp's GEMMs on Hopper (sm_90a): PTX primitives (mbarrier,
 * TMA, wgmma), the tile context, the pipeline roles that do not depend on the element type
 * (controller init, activation loader, weight loader, store / split-K reduce), the wait
 * primitives and the default epilogue. gemm_fp8.cuh and gemm_bf16.cuh add the compute role
 * of each kind; src/cuda/gemm.cu holds the standalone kernels and the host planning.
 *
 * Decode M is weight streaming, so every kind is "swap-AB": the weights fill wgmma's M
 * (64 weight rows per consumer warpgroup, BLOCK_N = 128 or 256 rows per CTA) and the
 * tokens are wgmma's N (TN = 8..128 per tile; more tokens = more token chunks). The
 * accumulator therefore holds C^T; the compute role transposes it through shared memory
 * on the way out, so the store role writes rows of C[m, n].
 *
 * Roles (DESIGN.md section 3): warp 0 controller, warp 1 aload, warp 2 wload, warps 4..11
 * compute (two consumer warpgroups) then store. Only aload waits for its input (the Wait
 * template parameter: nothing, griddepcontrol.wait, or an event spin in the megakernel);
 * wload streams weights from the first cycle. The megakernel calls these same functions
 * with a tile context decoded from an instruction instead of blockIdx.
 *
 * Limits (checked on the host, gemm.cu): K-major operands with 128-byte rows per K block
 * (128 e4m3 or 64 bf16 values), N a multiple of 8 (fp8: of 64), K a multiple of the K block,
 * row strides multiples of 16 bytes, at most MRT_GEMM_MAX_STAGES pipeline stages. */
#ifndef MRT_GEMM_CORE_CUH
#define MRT_GEMM_CORE_CUH

#include <cuda.h> /* CUtensorMap */
#include <stdint.h>
#include <type_traits> /* std::integral_constant: mrt_gemm_kind_visit */

#include "cp_async.cuh"   /* mrt_cp_async4: the activation scales */
#include "split_sum.cuh" /* mrt_sum_splits */
#include "stamp.cuh"
#include "wgmma_ops.cuh"

#define MRT_GEMM_THREADS 384
#define MRT_GEMM_CONSUMERS 256 /* two consumer warpgroups: warps 4..11 */
/* -DMRT_GEMM_MAX_STAGES=N: a deeper ring where shared memory holds it. 12 measured slower in
 * every executor (serial +3, cmp +2.6, mega +2 us; H200, session 12 run 2): the k-loop is not
 * waiting for weights. */
#ifndef MRT_GEMM_MAX_STAGES
#define MRT_GEMM_MAX_STAGES 8
#endif
#define MRT_GEMM_KB_BYTES 128 /* one K block = one 128-byte swizzle row */

/* Every spin is bounded: past this many SM cycles (about 10 s, long enough for
 * compute-sanitizer's slowdown) the waiting thread records what it waited for (mrt_diag_trap)
 * and traps, so a pipeline bug costs seconds of shared GPU time, not a hang. */
/* Sanitizer runs slow kernels down 100x or more: scripts/device-d.sh builds them with
 * -DMRT_SPIN_LIMIT_CYCLES set 100x higher (still bounded). */
#ifndef MRT_SPIN_LIMIT_CYCLES
#define MRT_SPIN_LIMIT_CYCLES 20000000000LL
#endif

/* GEMM kinds; each has its compute role and its weight layout. */
enum {
    MRT_GEMM_FP8 = 0,     /* e4m3 x e4m3, 1x128 activation / 128x128 weight scales, W [N,K] */
    MRT_GEMM_BF16 = 1,    /* bf16, W [N,K] (K-major) */
    MRT_GEMM_BF16_MN = 2, /* bf16, W [batch][K][N] (MN-major, wgmma transposed A), batched */
    MRT_GEMM_FP8_TALL = 3, /* MRT_GEMM_FP8 in tiles of 256 weight rows (two 128-row scale blocks) */
};

template <int KIND> struct mrt_gemm_kind;
template <> struct mrt_gemm_kind<MRT_GEMM_FP8> {
    enum { KB = 128, BLOCK_N = 128, NBLK = 1, W_BYTES = 16384, SCALED = 1, ELEM = 1 };
};
/* Tall: each consumer warpgroup runs two accumulator chains, rows 64 wg and 128 + 64 wg, so a
 * K block moves 32 KB of weights for ~1.5x a 16-KB K block's time (bench/micro/kblock.cu,
 * H200 session 44 run 2: 82-90 GB/s a CTA against 54-68 with its stages resident); a K block
 * is two 128-row boxes. In the megakernel's step a tile streams at the rate its ring's bytes
 * in flight allow, so a tall D0 tile took 16.0 us with 2 stages, 13.4 with 4, against 8.5 for
 * 128 rows (runs 3-4; off by default there: gpu.h MRT_MEGA_TALL). Registers: two accumulators
 * and two register tiles a chain, so only at TN <= MRT_GEMM_TALL_TN. */
template <> struct mrt_gemm_kind<MRT_GEMM_FP8_TALL> {
    enum { KB = 128, BLOCK_N = 256, NBLK = 2, W_BYTES = 32768, SCALED = 1, ELEM = 1 };
};
#define MRT_GEMM_TALL_TN 32
template <> struct mrt_gemm_kind<MRT_GEMM_BF16> {
    enum { KB = 64, BLOCK_N = 128, NBLK = 1, W_BYTES = 16384, SCALED = 0, ELEM = 2 };
};
/* MN-major: a K block is 64 weight rows (K) x BLOCK_N columns (N), loaded as 64x64 boxes
 * (64 bf16 = one 128-byte row); each consumer warpgroup owns NBLK boxes = NBLK*64 of N. */
template <> struct mrt_gemm_kind<MRT_GEMM_BF16_MN> {
    enum { KB = 64, BLOCK_N = 256, NBLK = 2, W_BYTES = 32768, SCALED = 0, ELEM = 2 };
};
/* Host: f(std::integral_constant<int, KIND>) for a kind named at run time, the one list of
 * the kinds for the host's per-kind choices (gpu.cu's pipeline depths, mega_table.cu's ring
 * of weight bytes). */
template <class F> static inline auto mrt_gemm_kind_visit(int kind, F f) {
    switch (kind) {
    case MRT_GEMM_FP8: return f(std::integral_constant<int, MRT_GEMM_FP8>());
    case MRT_GEMM_FP8_TALL: return f(std::integral_constant<int, MRT_GEMM_FP8_TALL>());
    case MRT_GEMM_BF16: return f(std::integral_constant<int, MRT_GEMM_BF16>());
    default: return f(std::integral_constant<int, MRT_GEMM_BF16_MN>());
    }
}

/* Kernel parameters of one GEMM launch (by value). All pointers are device pointers. */
typedef struct mrt_gemm_args {
    int M, N, K;       /* tokens, output columns, reduction length (per batch) */
    int batches;       /* > 1 only for MRT_GEMM_BF16_MN */
    int ntiles;        /* ceil(N / BLOCK_N) */
    int nchunks;       /* ceil(M / TN) */
    int split;         /* K splits; each covers kb_per_split K blocks */
    int kb_per_split;
    int stages;        /* pipeline depth, <= MRT_GEMM_MAX_STAGES */
    int act_batch_col; /* activation column offset of batch b: b * act_batch_col */
    const float *sx;   /* fp8: [M][sx_ld] activation scales (1x128) */
    const float *sw;   /* fp8: [ceil(N/128)][sw_ld] weight scales (128x128) */
    int sx_ld, sw_ld;
    float *partial;    /* split > 1: [batches][split][M][N] fp32 partial sums */
    unsigned *tickets; /* split > 1: [batches][nchunks][ntiles] arrival counters, zero at rest */
    unsigned *diag;    /* host-mapped watchdog records, or NULL */
    mrt_cta_stamp *ts; /* trace stamps, one record per CTA, or NULL (src/core/stamp.h); only
                          the kernel's traced instantiation reads it (gemm_kernel.cuh) */
    int cluster;       /* split > 1 only: 1 = the split CTAs of a tile form a thread-block cluster
                          (cluster rank = split) and reduce through distributed shared memory;
                          0 = through `partial` and `tickets` in global memory */
    int partials_only; /* split > 1, global: every CTA writes its partial plane and ends; the
                          kernel's consumer sums the planes (no tickets, no last-CTA reduction) */
    int sx_tma;        /* fp8: 1 = the activation scales come by one TMA box a tile (the kernel's
                          sx map: mrt_gemm_sx_map), 0 = gathered by the activation loader's warp */
} mrt_gemm_args;

/* fp8: a tile's activation scales in shared memory are m-major (the layout of sx in global
 * memory, so one TMA box carries them): K block kb0 + j of row m_local at sxs[m_local * pitch +
 * mrt_gemm_sx_col(kb0) + j]. A TMA box starts on 16 bytes, so at the 4-aligned K block below
 * kb0 (a box at kb0 = 3, B1's second split of 3 K blocks, ended in "illegal instruction" on
 * the H200, session 42 run 3), and its rows hold the tile's K blocks after up to 3 before
 * them: pitch = kb_per_cta + 3 rounded up to 4 (a box row is a multiple of 16 bytes), then to
 * 4 or 12 modulo 16, so that the promotion's 4 distinct rows a load (2q, q = 0..3) fall in 4
 * different banks (2 * pitch = 8 or 24 modulo 32 words). */
static constexpr __host__ __device__ __forceinline__ int mrt_gemm_sx_pitch(int kb_per_cta) {
    const int p = (kb_per_cta + 3 + 3) & ~3;
    return p % 8 == 0 ? p + 4 : p;
}
static __host__ __device__ __forceinline__ int mrt_gemm_sx_col(int kb0) { return kb0 & 3; }
/* the pitch's three promises, for every tile the TMA box takes (pitch <= 256) */
static constexpr bool mrt_gemm_sx_pitch_holds(int kb) {
    return kb > 250 || (mrt_gemm_sx_pitch(kb) % 4 == 0 && mrt_gemm_sx_pitch(kb) >= kb + 3 &&
                        (2 * mrt_gemm_sx_pitch(kb) % 32 == 8 || 2 * mrt_gemm_sx_pitch(kb) % 32 == 24) &&
                        mrt_gemm_sx_pitch_holds(kb + 1));
}
static_assert(mrt_gemm_sx_pitch_holds(1), "mrt_gemm_sx_pitch: a multiple of 4, >= K blocks + 3, 4 or 12 mod 16");

/* What one CTA (or one megakernel instruction) computes: rows n0 .. n0+BLOCK_N of batch
 * `batch`, tokens m0 .. m0+TN, K blocks kb0 .. kb0+nkb (split number `split`). */
typedef struct mrt_gemm_tile {
    int batch, ntile, n0, chunk, m0, split, kb0, nkb;
} mrt_gemm_tile;

/* Standalone mapping of a linear CTA index: split fastest (the splits of a tile are one
 * cluster when they reduce through DSMEM), then token chunk (CTAs that share a weight tile
 * run side by side, so the second reads it from L2), then N tile, then batch. */
template <int KIND>
static __device__ __forceinline__ mrt_gemm_tile mrt_gemm_tile_of(const mrt_gemm_args &a, int idx) {
    mrt_gemm_tile t;
    t.split = idx % a.split;
    idx /= a.split;
    t.chunk = idx % a.nchunks;
    idx /= a.nchunks;
    t.ntile = idx % a.ntiles;
    t.batch = idx / a.ntiles;
    t.n0 = t.ntile * mrt_gemm_kind<KIND>::BLOCK_N;
    t.kb0 = t.split * a.kb_per_split;
    t.nkb = a.kb_per_split;
    t.m0 = 0; /* set by the caller, which knows TN */
    return t;
}

/* ---- PTX primitives ----------------------------------------------------------------- */

static __device__ __forceinline__ uint32_t mrt_smem_u32(const void *p) {
    return (uint32_t)__cvta_generic_to_shared(p);
}

static __device__ __forceinline__ void mrt_mbar_init(uint32_t bar, uint32_t count) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}
/* before an mbarrier's shared memory serves anything else (the megakernel's next instruction) */
static __device__ __forceinline__ void mrt_mbar_inval(uint32_t bar) {
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(bar) : "memory");
}
static __device__ __forceinline__ void mrt_mbar_arrive(uint32_t bar) {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}
static __device__ __forceinline__ void mrt_mbar_arrive_tx(uint32_t bar, uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
                 : "memory");
}
static __device__ __forceinline__ int mrt_mbar_try(uint32_t bar, uint32_t parity) {
    uint32_t ok;
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(ok)
        : "r"(bar), "r"(parity)
        : "memory");
    return (int)ok;
}
/* try_wait that lets the hardware suspend the thread until the phase completes or about
 * `ns` nanoseconds pass (a hint): no polling traffic, and a wake-up as soon as it is done. */
static __device__ __forceinline__ int mrt_mbar_try_suspend(uint32_t bar, uint32_t parity, uint32_t ns) {
    uint32_t ok;
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(ok)
        : "r"(bar), "r"(parity), "r"(ns)
        : "memory");
    return (int)ok;
}
/* Watchdog records. A device printf (a function call) anywhere in a kernel makes ptxas
 * serialize every wgmma of that kernel (C7510), so a thread whose wait runs past its bound
 * writes a record into host-mapped memory (`diag`, MRT_DIAG_SLOTS x MRT_DIAG_WORDS words; the
 * host prints it: mrt_gpu_watchdog_report) and traps. Without a diag buffer it just traps. */
#define MRT_DIAG_SLOTS 256
#define MRT_DIAG_WORDS 16
#define MRT_DIAG_MAGIC 0x6d727464u
enum {
    MRT_DIAG_EMPTY_WAIT = 1, /* a loader waited for a stage to be released: v = stage, parity, k block, role
                                (1 activations, 2 weights; 3 E1's keys, index_logits_wg.cuh: v2 its key pass) */
    MRT_DIAG_TILE_STUCK = 2, /* the watchdog: v = batch, n0, m0, split, kb0, nkb, progress[4] */
    MRT_DIAG_FULL_WAIT = 4,  /* a consumer waited for a stage / the scales: v = smem address, parity */
    MRT_DIAG_MEGA_WAIT = 5,  /* the megakernel's event wait: v = worker, slot, task, event, expected, seen */
    MRT_DIAG_MEGA_UNSUPPORTED = 6, /* the megakernel met an opcode it cannot run: v = worker, slot, task, opcode */
};
static __device__ __forceinline__ void mrt_diag_trap(unsigned *diag, unsigned code, unsigned v0, unsigned v1,
                                                     unsigned v2, unsigned v3, unsigned v4 = 0, unsigned v5 = 0,
                                                     unsigned v6 = 0, unsigned v7 = 0, unsigned v8 = 0,
                                                     unsigned v9 = 0) {
    if (diag) {
        volatile unsigned *d = diag + (blockIdx.x % MRT_DIAG_SLOTS) * MRT_DIAG_WORDS;
        d[1] = blockIdx.x, d[2] = threadIdx.x, d[3] = code;
        d[4] = v0, d[5] = v1, d[6] = v2, d[7] = v3, d[8] = v4, d[9] = v5, d[10] = v6, d[11] = v7, d[12] = v8,
        d[13] = v9;
        __threadfence_system();
        d[0] = MRT_DIAG_MAGIC;
        __threadfence_system();
    }
    __trap();
}

/* Waits for phase `parity` of an mbarrier (producer side: a loader waiting for a stage to be
 * released); past the bound, records and traps. */
static __device__ __forceinline__ void mrt_mbar_wait_empty(uint32_t bar, uint32_t parity, unsigned *diag, int stage,
                                                           int kb, int role) {
    if (mrt_mbar_try(bar, parity)) return;
    long long t0 = clock64();
    while (!mrt_mbar_try(bar, parity))
        if (clock64() - t0 > MRT_SPIN_LIMIT_CYCLES)
            mrt_diag_trap(diag, MRT_DIAG_EMPTY_WAIT, (unsigned)stage, parity, (unsigned)kb, (unsigned)role);
}
/* Consumer side (a stage to fill, the scales to arrive). Bound twice the others', so the
 * CTA's watchdog, which knows the whole pipeline's progress, reports first. */
static __device__ __forceinline__ void mrt_mbar_wait_full(uint32_t bar, uint32_t parity, unsigned *diag) {
    if (mrt_mbar_try(bar, parity)) return;
    long long t0 = clock64();
    while (!mrt_mbar_try(bar, parity))
        if (clock64() - t0 > 2 * MRT_SPIN_LIMIT_CYCLES) mrt_diag_trap(diag, MRT_DIAG_FULL_WAIT, bar, parity, 0, 0);
    __syncwarp(); /* lanes leave the spin at different times; wgmma needs the warp converged */
}

static __device__ __forceinline__ uint64_t mrt_policy_evict_first() {
    uint64_t p;
    asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
    return p;
}
static __device__ __forceinline__ uint64_t mrt_policy_evict_last() {
    uint64_t p;
    asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
    return p;
}
static __device__ __forceinline__ void mrt_tma_prefetch_desc(const CUtensorMap *m) {
    asm volatile("prefetch.tensormap [%0];" ::"l"((uint64_t)m) : "memory");
}
/* A plain (1D) bulk copy of `bytes` (a multiple of 16) from global memory to shared memory,
 * completing on mbarrier `bar` (whose expect_tx the caller made). */
static __device__ __forceinline__ void mrt_bulk_load(uint32_t dst, const void *src, uint32_t bytes, uint32_t bar) {
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                 "l"(src), "r"(bytes), "r"(bar)
                 : "memory");
}
/* 2D tiled TMA load into shared memory, completing `bar` with the box's bytes. c0 is the
 * innermost (contiguous) coordinate in elements, c1 the row. Out-of-bounds elements are
 * written as zeros and still count towards the transaction bytes. */
static __device__ __forceinline__ void mrt_tma_load_2d(uint32_t dst, const CUtensorMap *m, int c0, int c1,
                                                       uint32_t bar, uint64_t policy) {
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint"
        " [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst),
        "l"((uint64_t)m), "r"(c0), "r"(c1), "r"(bar), "l"(policy)
        : "memory");
}

/* 3D tiled TMA load (box of one plane), completing `bar`; no cache hint. */
static __device__ __forceinline__ void mrt_tma_load_3d(uint32_t dst, const CUtensorMap *m, int c0, int c1, int c2,
                                                       uint32_t bar) {
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4}], [%5];" ::"r"(dst),
                 "l"((uint64_t)m), "r"(c0), "r"(c1), "r"(c2), "r"(bar)
                 : "memory");
}

static __device__ __forceinline__ void mrt_wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
static __device__ __forceinline__ void mrt_wgmma_commit() {
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}
template <int N> static __device__ __forceinline__ void mrt_wgmma_wait() {
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}
/* Keeps the compiler from moving accumulator reads/writes across wgmma boundaries. */
template <int R> static __device__ __forceinline__ void mrt_reg_fence(float (&d)[R]) {
#pragma unroll
    for (int i = 0; i < R; i++) asm volatile("" : "+f"(d[i])::"memory");
}

/* Named barrier among the two consumer warpgroups (id 1; 0 is __syncthreads). */
static __device__ __forceinline__ void mrt_consumer_sync() {
    asm volatile("bar.sync 1, %0;" ::"n"(MRT_GEMM_CONSUMERS) : "memory");
}

/* Shared-memory matrix descriptors for 128-byte-swizzled tiles whose 8-row groups are 1024
 * bytes apart (the layout TMA writes with CU_TENSOR_MAP_SWIZZLE_128B and a 128-byte inner
 * box). Tiles start 1024-aligned; a K step inside the 128-byte row moves the start address
 * by its byte offset (the hardware applies the swizzle to the final address).
 * K-major: SBO = 1024 (next 8 rows of M/N); LBO unused (1).
 * MN-major: SBO = 1024 (next 8 rows of K); LBO = next 64-wide MN atom, unused for m64. */
static __device__ __forceinline__ uint64_t mrt_sdesc(uint32_t addr, uint32_t lbo_bytes) {
    return (uint64_t)((addr & 0x3FFFFu) >> 4) | ((uint64_t)(lbo_bytes >> 4) << 16) |
           ((uint64_t)(1024u >> 4) << 32) | (1ull << 62);
}
static __device__ __forceinline__ uint64_t mrt_sdesc_k(uint32_t addr) { return mrt_sdesc(addr, 16); }
static __device__ __forceinline__ uint64_t mrt_sdesc_mn(uint32_t addr) { return mrt_sdesc(addr, 1024); }
/* A k-loop's descriptors at byte offsets from one tile start (LBO as mrt_sdesc): with ADD the
 * start's descriptor made once, then offset >> 4 added to it; exact while the address stays
 * below 256 KB (shared memory does), since the 14-bit start field (address >> 4) then never
 * carries into the LBO. Without, each made from its address. Why: making each from its
 * address was ~40 dependent instructions of the TN-16 fp8 K block's ~120 in SASS; added
 * everywhere, H200 session 19 run 1: mega M=16 KV=8192 81.45 / 81.66 us against 83.12 /
 * 82.73, cmp 50.81 / 50.68 against 51.47 / 51.48, M=64 142.0 against 143.1, the GEMM probe's
 * B0 K block 0 -> last 4.26 against 4.51 us; serial, M=16 KV=65536 level; but M=128 226.4
 * against 224.7 (run 2: 227.4 / 227.6 against 225.2 / 224.9). MRT_GEMM_DESC_ADD=N: the GEMM
 * loops add at TN <= N (their ADD argument), the E1 loop whenever N > 0; 64 (run 3): M=128
 * 223.5 / 223.7 against 226.9 / 225.5 with every TN adding. */
#ifndef MRT_GEMM_DESC_ADD
#define MRT_GEMM_DESC_ADD 64
#endif
template <uint32_t LBO, bool ADD> struct mrt_sdesc_at {
    uint32_t addr;
    uint64_t desc;
    __device__ __forceinline__ explicit mrt_sdesc_at(uint32_t a) : addr(a), desc(mrt_sdesc(a, LBO)) {}
    __device__ __forceinline__ uint64_t operator()(uint32_t off) const {
        return ADD ? desc + (off >> 4) : mrt_sdesc(addr + off, LBO);
    }
};
template <bool ADD = (MRT_GEMM_DESC_ADD > 0)> using mrt_sdesc_k_at = mrt_sdesc_at<16, ADD>; /* K-major (mrt_sdesc_k) */
template <int TN> using mrt_sdesc_mn_at = mrt_sdesc_at<1024, (TN <= MRT_GEMM_DESC_ADD)>;    /* MN-major (mrt_sdesc_mn) */
/* A GEMM loop's K-major descriptors at tile width TN */
template <int TN> using mrt_sdesc_k_tn = mrt_sdesc_k_at<(TN <= MRT_GEMM_DESC_ADD)>;

/* ---- wait primitives (the only thing that differs between executors) ------------------- */

/* serial executor: stream order already guarantees the inputs. */
struct mrt_wait_none {
    __device__ __forceinline__ void operator()(int lane) const { (void)lane; }
};
/* cmp executor (PDL): wait until the prerequisite grids completed and their memory is
 * visible. Blocks only the executing thread, so every thread that reads producer data (or
 * overwrites memory a predecessor may still read) calls it. */
struct mrt_wait_griddep {
    __device__ __forceinline__ void operator()(int lane) const {
        (void)lane;
        asm volatile("griddepcontrol.wait;" ::: "memory");
    }
};
/* Where a GEMM waits for its producer (the Wait functor's placement; mrt_wait_place below):
 *   LOADER   (default, every functor above): the split loader. wload streams the weights
 *            from the first cycle; only aload and the store wait.
 *   ENTRY    every thread executes griddepcontrol.wait first thing in the kernel, before any
 *            prologue; one loader (mrt_gemm_load_unified) then loads weights and activations.
 *   PROLOGUE descriptor prefetch, mbarrier init and the CTA barrier first, then every thread
 *            waits; the same unified loader loads both operands after the wait.
 * ENTRY and PROLOGUE exist for the PDL experiment (`megartp bench pdl`, src/cuda/bench_pdl.cu),
 * which compares them with LOADER; the executors use LOADER. */
enum { MRT_WAIT_PLACE_LOADER = 0, MRT_WAIT_PLACE_ENTRY = 1, MRT_WAIT_PLACE_PROLOGUE = 2 };
struct mrt_wait_griddep_entry : mrt_wait_griddep {};
struct mrt_wait_griddep_prologue : mrt_wait_griddep {};
template <class Wait> struct mrt_wait_place {
    enum { value = MRT_WAIT_PLACE_LOADER };
};
template <> struct mrt_wait_place<mrt_wait_griddep_entry> {
    enum { value = MRT_WAIT_PLACE_ENTRY };
};
template <> struct mrt_wait_place<mrt_wait_griddep_prologue> {
    enum { value = MRT_WAIT_PLACE_PROLOGUE };
};

/* ---- epilogues ---------------------------------------------------------------------- */

/* An epilogue receives 8 consecutive fp32 outputs C[m, n .. n+7] (n a multiple of 8, all
 * of them < N) of batch t.batch, final values (split-K already reduced). Ops fuse their
 * finalization here (bias, RoPE, quantization...). The default writes bf16 or fp32 with a
 * row stride and a per-batch column offset (D2 writes head h at column h*576). */
struct mrt_epi_store {
    void *out;
    long long ld;           /* elements between rows */
    long long batch_stride; /* elements between batches */
    int f32;                /* 1: fp32 output, 0: bf16 */
    __device__ __forceinline__ void operator()(const mrt_gemm_tile &t, int m, int n, const float (&v)[8]) const {
        long long off = (long long)m * ld + (long long)t.batch * batch_stride + n;
        if (f32) {
            float4 *p = (float4 *)((float *)out + off);
            p[0] = make_float4(v[0], v[1], v[2], v[3]);
            p[1] = make_float4(v[4], v[5], v[6], v[7]);
        } else {
            uint4 u;
            u.x = mrt_pack_bf16(v[0], v[1]);
            u.y = mrt_pack_bf16(v[2], v[3]);
            u.z = mrt_pack_bf16(v[4], v[5]);
            u.w = mrt_pack_bf16(v[6], v[7]);
            *(uint4 *)((uint16_t *)out + off) = u;
        }
    }
    /* round to nearest even (cvt.rn.bf16x2.f32), NaN preserved: the bf16 rounding of
     * docs/NUMERICS.md. */
    static __device__ __forceinline__ uint32_t mrt_pack_bf16(float lo, float hi) {
        uint32_t r;
        asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(r) : "f"(hi), "f"(lo));
        return r;
    }
};

/* ---- shared-memory layout of one GEMM CTA (or instruction slot) ---------------------- */

template <int KIND, int TN> struct mrt_gemm_layout {
    typedef mrt_gemm_kind<KIND> K_;
    enum {
        X_BYTES = TN * MRT_GEMM_KB_BYTES,
        STAGE_BYTES = K_::W_BYTES + X_BYTES,
        PITCH = K_::BLOCK_N + 4, /* fp32 staging row pitch: +4 breaks the 4-way bank conflict */
        STAGING_BYTES = TN * PITCH * 4,
    };
    /* byte offsets from the 1024-aligned base */
    uint32_t pipe_bytes, sx_off, sw_off, bar_off, flag_off, total;
    __host__ __device__ mrt_gemm_layout(int stages, int kb_per_cta) {
        pipe_bytes = (uint32_t)stages * STAGE_BYTES;
        if (pipe_bytes < (uint32_t)STAGING_BYTES) pipe_bytes = (STAGING_BYTES + 1023) & ~1023u;
        sx_off = pipe_bytes;
        uint32_t sx_bytes = K_::SCALED ? (uint32_t)(TN * mrt_gemm_sx_pitch(kb_per_cta) * 4) : 0;
        sw_off = sx_off + ((sx_bytes + 15) & ~15u);
        uint32_t sw_bytes = K_::SCALED ? (uint32_t)(K_::NBLK * kb_per_cta * 4) : 0; /* a row block's K blocks */
        bar_off = sw_off + ((sw_bytes + 15) & ~15u);
        flag_off = bar_off + (2 * MRT_GEMM_MAX_STAGES + 4) * 8;
        total = flag_off + 32; /* flag, then progress[4] (see mrt_gemm_watchdog) */
#ifdef MRT_GEMM_PROBE
        total += 16; /* the probe's two stamps (mrt_gemm_progress::stamp) */
#endif
    }
};

/* mbarriers of the pipeline (shared-memory addresses). */
struct mrt_gemm_bars {
    uint32_t base;
    /* stage s holds both operands: one full barrier for the two (a wait per K block, not two) */
    __device__ __forceinline__ uint32_t full(int s) const { return base + 8u * s; }
    __device__ __forceinline__ uint32_t empty(int s) const { return base + 8u * (MRT_GEMM_MAX_STAGES + s); }
    __device__ __forceinline__ uint32_t scales() const { return base + 8u * (2 * MRT_GEMM_MAX_STAGES); }
    __device__ __forceinline__ uint32_t done() const { return base + 8u * (2 * MRT_GEMM_MAX_STAGES + 1); }
    /* cluster reduction: every split's tile is staged / every peer has finished reading */
    __device__ __forceinline__ uint32_t ready() const { return base + 8u * (2 * MRT_GEMM_MAX_STAGES + 2); }
    __device__ __forceinline__ uint32_t drained() const { return base + 8u * (2 * MRT_GEMM_MAX_STAGES + 3); }
};

/* A position in the stage ring: stage s and the parity of that stage's current fill, stepped
 * without the division by the run-time stage count (i % stages, i / stages cost a ~20
 * instruction chain per K block on the consumers' critical path). */
struct mrt_ring {
    int s, n;
    uint32_t ph;
    __device__ __forceinline__ void next() {
        if (++s == n) s = 0, ph ^= 1u;
    }
};

/* Pipeline progress in shared memory, written by the roles as they go and read only by the
 * watchdog: K blocks issued by wload / aload, K blocks consumed by consumer warpgroups 0 / 1.
 * Written with volatile stores, not atomicExch: the watchdog reads them (an atomic read) only
 * to report a stuck tile, and an atomic a K block a warpgroup cost: with one full barrier a
 * stage (above), serial 77.3-77.6 -> 74.1-74.4 us, cmp 54.5-54.8 -> 52.4, mega 96.5-96.7 ->
 * 95.0-95.6 (H200, session 13 runs 1-2; racecheck 0 hazards on the reduced-size step). */
struct mrt_gemm_progress {
    volatile int *p;
    __device__ __forceinline__ void set(int i, int v) const { p[i] = v; }
    __device__ __forceinline__ int get(int i) const { return atomicAdd((int *)p + i, 0); }
#ifdef MRT_GEMM_PROBE /* probe builds: %globaltimer into stamp k (0, 1), after progress[4] */
    __device__ __forceinline__ unsigned long long *stamps() const { return (unsigned long long *)(p + 4); }
    __device__ __forceinline__ void stamp(int k) const {
        unsigned long long t;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        stamps()[k] = t;
    }
#endif
};

/* ---- role: controller (barrier init) ------------------------------------------------- */

/* One thread. full: two arrivals (the weight and the activation loader's expect_tx) plus
 * both TMAs' bytes; empty: one arrival per consumer warp after its wgmmas read the stage; scales:
 * aload and wload each arrive once their scales are in shared memory. */
template <int KIND>
static __device__ __forceinline__ void mrt_gemm_controller_init(const mrt_gemm_bars &b, int stages, int cluster_size) {
    for (int s = 0; s < stages; s++) {
        mrt_mbar_init(b.full(s), 2);
        mrt_mbar_init(b.empty(s), MRT_GEMM_CONSUMERS / 32);
    }
    mrt_mbar_init(b.scales(), 64); /* every lane of the two scale-writing warps (mrt_gemm_scales_written) */
    mrt_mbar_init(b.done(), 2); /* one arrival per consumer warpgroup, after its store */
    if (cluster_size > 1) { /* one (remote) arrival from every CTA of the cluster */
        mrt_mbar_init(b.ready(), cluster_size);
        mrt_mbar_init(b.drained(), cluster_size);
    }
    /* makes the inits visible to the async proxy and, with the cluster barrier that
     * follows when clustered, to the peers' remote arrivals (fence.proxy.async.shared::cta
     * instead, in the megakernel's one-CTA tiles: the init no shorter, steps level or up to
     * 2.4 us slower; H200, session 28 run 2) */
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

/* ---- role: controller (watchdog) ------------------------------------------------------ */

/* One thread of an otherwise idle warp: waits (bounded) for the tile to finish; past the
 * bound it records where the pipeline stands (what each role has issued / consumed) and
 * traps. This is what names a stuck GEMM tile. */
static __device__ __forceinline__ void mrt_gemm_watchdog(const mrt_gemm_tile &t, const mrt_gemm_args &a,
                                                         const mrt_gemm_bars &b, const mrt_gemm_progress &pr) {
    long long t0 = clock64();
    /* The suspended try_wait wakes when the tile is done (a __nanosleep(1000) between polls
     * used to hold the CTA's end, and the megakernel's next instruction, up to ~1 us). */
    while (!mrt_mbar_try_suspend(b.done(), 0, 20000))
        if (clock64() - t0 > MRT_SPIN_LIMIT_CYCLES)
            mrt_diag_trap(a.diag, MRT_DIAG_TILE_STUCK, t.batch, t.n0, t.m0, t.split, t.kb0, t.nkb, pr.get(0), pr.get(1),
                          pr.get(2), pr.get(3));
}

/* A warp's lanes have stored their scales (sws or sxs): each lane arrives on the scales
 * barrier itself (n times: the unified loader writes both), a release of its own stores that
 * the consumers' wait acquires. One arrival by lane 0 after __syncwarp orders them too (PTX),
 * but compute-sanitizer racecheck does not carry __syncwarp's ordering into the arrival: it
 * reported every consumer read of the scales as a race with the stores (H200, 2026-11-30,
 * session 10 run 4, the reduced-size step). 64 arrivals a tile. */
static __device__ __forceinline__ void mrt_gemm_scales_written(const mrt_gemm_bars &b, int n) {
    for (int i = 0; i < n; i++) mrt_mbar_arrive(b.scales());
}

/* -DMRT_GEMM_SX_TMA=0 (A B builds): every tile gathers its activation scales (below), as
 * until session 42; by default a plan whose scales allow it (mrt_gemm_sx_map) has them come by
 * one TMA box a tile. */
#ifndef MRT_GEMM_SX_TMA
#define MRT_GEMM_SX_TMA 1
#endif
/* -DMRT_GEMM_SX_ASYNC=N: where gathered, at TN <= N the activation scales are copied by
 * cp.async (below); wider tiles keep the loads in rounds. Measured (H200, session 41 runs 3-4,
 * docs/MEGAKERNEL.md): by cp.async at every TN, mega M=1 1.3-1.8 us faster, M=16 1.2-2.6, M=64
 * (TN 64) 0.5-2.8, but M=128 (TN 128) 0.4-2.0 slower and serial at M=128 +4.8 (M=16 -1.2). */
#ifndef MRT_GEMM_SX_ASYNC
#define MRT_GEMM_SX_ASYNC 64
#endif
/* The gather, for plans without the scales' TMA map (a row of sx not a multiple of 16 bytes,
 * e.g. K = 128, or -DMRT_GEMM_SX_TMA=0): one warp copies sx[m, kb] for this tile's tokens and K
 * range where the TMA box puts them (sxs[m_local * P + mrt_gemm_sx_col(kb0) + kb_local], P =
 * mrt_gemm_sx_pitch of the layout's K blocks); rows past M are 0 (their outputs are never
 * stored), as the box's zero fill makes them. At TN <= MRT_GEMM_SX_ASYNC every copy is a
 * 4-byte cp.async, so a lane has all of its copies in flight at once without holding registers
 * (the loads below went in rounds of 16 a lane, each a round trip under the step's load); lanes
 * are R = 32 / nkb rows of nkb K blocks (coalesced: a row's scales are contiguous), or one row
 * striding its K blocks where nkb > 32; one division a lane. Wider tiles: lanes walk kb fastest
 * (coalesced), 16 loads in flight per lane. Ends with this lane's scales in shared memory. */
template <int TN>
static __device__ __forceinline__ void mrt_gemm_gather_sx(const mrt_gemm_tile &t, const mrt_gemm_args &a, float *sxs,
                                                          int lane) {
    /* a's and t's fields read once, into registers: each cp.async's memory clobber would have
     * the compiler re-read them from memory (the megakernel's `a` is shared memory) before
     * every copy (session 41 run 3, re-read: M=128 +6 us against the loads, serial +6.8) */
    const int nkb = t.nkb, P = mrt_gemm_sx_pitch(a.kb_per_split);
    const int rows = a.M - t.m0; /* rows of the tile that exist */
    const long long ld = a.sx_ld;
    sxs += mrt_gemm_sx_col(t.kb0); /* where the TMA box puts K block kb0 */
    if constexpr (TN <= MRT_GEMM_SX_ASYNC) {
        const int R = nkb < 32 ? 32 / nkb : 1, r0 = lane / nkb, k0 = lane - r0 * nkb;
        const float *src = a.sx + (long long)(t.m0 + r0) * ld + t.kb0;
        if (r0 < R)
            for (int ml = r0; ml < TN; ml += R, src += R * ld)
                for (int kl = k0; kl < nkb; kl += 32) {
                    if (ml < rows) mrt_cp_async4(sxs + ml * P + kl, src + kl);
                    else sxs[ml * P + kl] = 0.0f;
                }
        mrt_cp_async_wait_all();
    } else {
        const int total = TN * nkb;
        const float *src = a.sx + (long long)t.m0 * ld + t.kb0;
        for (int base = lane; base < total; base += 32 * 16) {
            float v[16];
#pragma unroll
            for (int u = 0; u < 16; u++) {
                int idx = base + 32 * u, ml = idx / nkb, kl = idx - ml * nkb;
                v[u] = idx < total && ml < rows ? src[(long long)ml * ld + kl] : 0.0f;
            }
#pragma unroll
            for (int u = 0; u < 16; u++) {
                int idx = base + 32 * u, ml = idx / nkb, kl = idx - ml * nkb;
                if (idx < total) sxs[ml * P + kl] = v[u];
            }
        }
    }
}

/* The activation loader's scales (fp8, after its wait): with the plan's sx map, lane 0 expects
 * the box's bytes on the scales barrier (its arrival) and issues one TMA of TN rows x P K
 * blocks from (kb0 rounded down to 4, m0) (rows past M and columns past the row's end
 * zero-filled; columns outside the tile's K blocks are read and never used), the other lanes
 * arrive; without, the gather. Measured (H200, session 42 runs 2 and 4, docs/MEGAKERNEL.md):
 * gathered, a TN-128 tile waited 3-9 us from its input to its scales landed (M=16 ~1.5); by
 * TMA, mega M=128 KV=1024 157.6 -> 147.7 us, M=64 KV=8192 98.1 -> 94.5, M=16 KV=8192 57.2 ->
 * 56.6, M=1 -0.4. */
template <int TN>
static __device__ __forceinline__ void mrt_gemm_load_sx(const mrt_gemm_tile &t, const mrt_gemm_args &a,
                                                        const CUtensorMap *tsx, float *sxs, const mrt_gemm_bars &b,
                                                        uint64_t pol, int lane) {
    if (MRT_GEMM_SX_TMA && a.sx_tma) {
        if (lane == 0) {
            const uint32_t bytes = (uint32_t)(TN * mrt_gemm_sx_pitch(a.kb_per_split) * 4);
            mrt_mbar_arrive_tx(b.scales(), bytes);
            mrt_tma_load_2d(mrt_smem_u32(sxs), tsx, t.kb0 - mrt_gemm_sx_col(t.kb0), t.m0, b.scales(), pol);
        } else {
            mrt_mbar_arrive(b.scales());
        }
    } else {
        mrt_gemm_gather_sx<TN>(t, a, sxs, lane);
        mrt_gemm_scales_written(b, 1);
    }
}

/* ---- role: aload (activations and their scales; the only role that waits) ------------ */

template <int KIND, int TN, class Wait>
static __device__ __forceinline__ void mrt_gemm_aload(const mrt_gemm_tile &t, const mrt_gemm_args &a,
                                                      const CUtensorMap *tx, const CUtensorMap *tsx, uint32_t smem,
                                                      float *sxs, const mrt_gemm_bars &b, const mrt_gemm_progress &pr,
                                                      const Wait &wait, int lane) {
    typedef mrt_gemm_kind<KIND> K_;
    typedef mrt_gemm_layout<KIND, TN> L;
#ifndef MRT_GEMM_DIAG_X_EARLY
    wait(lane); /* everything below reads the producer's output */
#endif
    const int first = t.nkb < a.stages ? t.nkb : a.stages;
    const int col0 = t.batch * a.act_batch_col + t.kb0 * K_::KB;
    uint64_t pol = 0;
    if (lane == 0) {
        mrt_tma_prefetch_desc(tx);
        pol = mrt_policy_evict_last(); /* activations are re-read by every N tile */
        for (int i = 0; i < first; i++) {
            mrt_mbar_arrive_tx(b.full(i), L::X_BYTES);
            mrt_tma_load_2d(smem + i * L::STAGE_BYTES + K_::W_BYTES, tx, col0 + i * K_::KB, t.m0, b.full(i), pol);
            pr.set(1, i + 1);
        }
    }
    if (K_::SCALED) {
        mrt_gemm_load_sx<TN>(t, a, tsx, sxs, b, pol, lane);
#ifdef MRT_GEMM_PROBE_SX /* probe builds (gemm_fp8.cuh): stamp 1 = the scales landed (the scales
                            barrier's phase: both loaders' scales). The whole warp waits:
                            mrt_mbar_wait_full ends in __syncwarp, which lane 0 alone must not
                            reach (session 43 run 1: with the scales by TMA, where the other
                            lanes leave at once, lane 0's wait hung the step) */
        mrt_mbar_wait_full(b.scales(), 0, a.diag);
        if (lane == 0) pr.stamp(1);
#endif
    }
#ifdef MRT_GEMM_DIAG_X_EARLY /* diagnostic builds, results wrong: the ring's activations and the
                                scales before the wait, so the GEMM probe shows a K block with
                                its operands long in shared memory */
    wait(lane);
#endif
    if (lane == 0) {
        /* i >= first = stages here: the refill of stage s waits for its fill's previous phase */
        mrt_ring r = {0, a.stages, 0u};
        for (int i = first; i < t.nkb; i++, r.next()) {
            const int s = r.s;
            mrt_mbar_wait_empty(b.empty(s), r.ph, a.diag, s, t.kb0 + i, 1);
            mrt_mbar_arrive_tx(b.full(s), L::X_BYTES);
            mrt_tma_load_2d(smem + s * L::STAGE_BYTES + K_::W_BYTES, tx, col0 + i * K_::KB, t.m0, b.full(s), pol);
            pr.set(1, i + 1);
        }
    }
}

/* ---- role: wload (weights and weight scales; never waits on producers) -------------- */

/* The weight boxes of the tile's K block i (K: the reduction length per batch): f(j, c0, c1)
 * for box j (mrt_gemm_boxes<KIND>::BYTES apart in shared memory) at TMA coordinates (c0, c1). */
template <int KIND> struct mrt_gemm_boxes {
    enum { N = KIND == MRT_GEMM_BF16_MN ? 2 * mrt_gemm_kind<KIND>::NBLK : mrt_gemm_kind<KIND>::NBLK,
           BYTES = mrt_gemm_kind<KIND>::W_BYTES / N };
};
template <int KIND, class F>
static __device__ __forceinline__ void mrt_gemm_wboxes(const mrt_gemm_tile &t, int K, int i, F f) {
    typedef mrt_gemm_kind<KIND> K_;
    if (KIND == MRT_GEMM_BF16_MN) {
        /* W [batch*K rows][N cols]: K block i = 64 rows; 2*NBLK boxes of 64 columns. */
        const int row = t.batch * K + (t.kb0 + i) * K_::KB;
#pragma unroll
        for (int j = 0; j < 2 * K_::NBLK; j++) f(j, t.n0 + 64 * j, row);
    } else {
        /* W [N rows][K cols]: NBLK boxes of 128 rows x 128 bytes; rows past N read as zeros. */
#pragma unroll
        for (int j = 0; j < K_::NBLK; j++) f(j, (t.kb0 + i) * K_::KB, t.n0 + 128 * j);
    }
}

/* The tile's weight scales, by one warp: row block j's K blocks at sws[j * kb_per_split + kl]
 * (a tall tile's second block, j = 1, past N, its rows zero-filled, gets 0). */
template <int KIND>
static __device__ __forceinline__ void mrt_gemm_load_sw(const mrt_gemm_tile &t, const mrt_gemm_args &a, float *sws,
                                                        int lane) {
    for (int kl = lane; kl < t.nkb; kl += 32) sws[kl] = __ldg(a.sw + (long long)(t.n0 / 128) * a.sw_ld + t.kb0 + kl);
    if constexpr (mrt_gemm_kind<KIND>::NBLK > 1) {
        const bool in = t.n0 + 128 < a.N;
        for (int kl = lane; kl < t.nkb; kl += 32)
            sws[a.kb_per_split + kl] = in ? __ldg(a.sw + (long long)(t.n0 / 128 + 1) * a.sw_ld + t.kb0 + kl) : 0.0f;
    }
}

template <int KIND, int TN>
static __device__ __forceinline__ void mrt_gemm_wload_issue(const mrt_gemm_tile &t, const mrt_gemm_args &a,
                                                            const CUtensorMap *tw, uint32_t dst, uint32_t bar,
                                                            int i, uint64_t pol) {
    mrt_mbar_arrive_tx(bar, mrt_gemm_kind<KIND>::W_BYTES);
    mrt_gemm_wboxes<KIND>(t, a.K, i,
                          [&](int j, int c0, int c1) {
                              mrt_tma_load_2d(dst + j * mrt_gemm_boxes<KIND>::BYTES, tw, c0, c1, bar, pol);
                          });
}

template <int KIND, int TN>
static __device__ __forceinline__ void mrt_gemm_wload(const mrt_gemm_tile &t, const mrt_gemm_args &a,
                                                      const CUtensorMap *tw, uint32_t smem, float *sws,
                                                      const mrt_gemm_bars &b, const mrt_gemm_progress &pr,
                                                      int lane) {
    typedef mrt_gemm_kind<KIND> K_;
    typedef mrt_gemm_layout<KIND, TN> L;
    const int first = t.nkb < a.stages ? t.nkb : a.stages;
    uint64_t pol = 0;
    if (lane == 0) {
        mrt_tma_prefetch_desc(tw);
        pol = mrt_policy_evict_first(); /* each weight byte is read once per step */
        for (int i = 0; i < first; i++) { /* the ring's first fill */
            mrt_gemm_wload_issue<KIND, TN>(t, a, tw, smem + i * L::STAGE_BYTES, b.full(i), i, pol);
            pr.set(0, i + 1);
        }
    }
    if (K_::SCALED) {
        mrt_gemm_load_sw<KIND>(t, a, sws, lane);
        mrt_gemm_scales_written(b, 1);
    }
    /* Dependent grids may be scheduled now: this CTA's weight stream is in flight. (Data
     * readiness is griddepcontrol.wait's job on their side.) Tried (H200, session 7): the
     * trigger after the main loop, so that B0's finalization CTAs do not fill the SMs the
     * head gate C0 (another stream) waits for: cmp 70.26 / 70.11 us against 64.63 / 64.53
     * (bench/RESULTS.md); removed. */
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
    if (lane == 0) {
        /* i >= first = stages here: the refill of stage s waits for its fill's previous phase */
        mrt_ring r = {0, a.stages, 0u};
        for (int i = first; i < t.nkb; i++, r.next()) {
            const int s = r.s;
            mrt_mbar_wait_empty(b.empty(s), r.ph, a.diag, s, t.kb0 + i, 2);
            mrt_gemm_wload_issue<KIND, TN>(t, a, tw, smem + s * L::STAGE_BYTES, b.full(s), i, pol);
            pr.set(0, i + 1);
        }
    }
}

/* ---- role: unified loader (ENTRY / PROLOGUE placements only) ----------------------- */

/* One warp loads both operands and both scale sets, after its wait (DeepGEMM's single TMA
 * loader): for the PDL experiment, where the weights must not be fetched before the wait.
 * Same barriers, boxes and cache policies as aload + wload; the scales barrier gets both of
 * its arrivals from here. */
template <int KIND, int TN, class Wait>
static __device__ __forceinline__ void mrt_gemm_load_unified(const mrt_gemm_tile &t, const mrt_gemm_args &a,
                                                             const CUtensorMap *tw, const CUtensorMap *tx,
                                                             const CUtensorMap *tsx, uint32_t smem, float *sxs, float *sws,
                                                             const mrt_gemm_bars &b, const mrt_gemm_progress &pr,
                                                             const Wait &wait, int lane) {
    typedef mrt_gemm_kind<KIND> K_;
    typedef mrt_gemm_layout<KIND, TN> L;
    wait(lane); /* everything below comes after the wait, weights included */
    const int first = t.nkb < a.stages ? t.nkb : a.stages;
    const int col0 = t.batch * a.act_batch_col + t.kb0 * K_::KB;
    uint64_t polw = 0, polx = 0;
    if (lane == 0) {
        mrt_tma_prefetch_desc(tw);
        mrt_tma_prefetch_desc(tx);
        polw = mrt_policy_evict_first();
        polx = mrt_policy_evict_last();
        for (int i = 0; i < first; i++) {
            const uint32_t st = smem + i * L::STAGE_BYTES;
            mrt_gemm_wload_issue<KIND, TN>(t, a, tw, st, b.full(i), i, polw);
            mrt_mbar_arrive_tx(b.full(i), L::X_BYTES);
            mrt_tma_load_2d(st + K_::W_BYTES, tx, col0 + i * K_::KB, t.m0, b.full(i), polx);
            pr.set(0, i + 1);
            pr.set(1, i + 1);
        }
    }
    if (K_::SCALED) {
        mrt_gemm_load_sw<KIND>(t, a, sws, lane);
        mrt_gemm_scales_written(b, 1);
        mrt_gemm_load_sx<TN>(t, a, tsx, sxs, b, polx, lane);
    }
    asm volatile("griddepcontrol.launch_dependents;" ::: "memory"); /* as wload does */
    if (lane == 0) {
        mrt_ring r = {0, a.stages, 0u}; /* as in wload */
        for (int i = first; i < t.nkb; i++, r.next()) {
            const int s = r.s;
            const uint32_t st = smem + s * L::STAGE_BYTES;
            mrt_mbar_wait_empty(b.empty(s), r.ph, a.diag, s, t.kb0 + i, 1);
            mrt_gemm_wload_issue<KIND, TN>(t, a, tw, st, b.full(s), i, polw);
            mrt_mbar_arrive_tx(b.full(s), L::X_BYTES);
            mrt_tma_load_2d(st + K_::W_BYTES, tx, col0 + i * K_::KB, t.m0, b.full(s), polx);
            pr.set(0, i + 1);
            pr.set(1, i + 1);
        }
    }
}

/* ---- compute -> staging hand-off (shared by every kind) ------------------------------ */

/* Writes a warpgroup's m64 x TN accumulator block (rows = weight rows n, columns = tokens m)
 * transposed into the fp32 staging tile stg[m][n_local] (pitch L::PITCH floats). */
template <int KIND, int TN>
static __device__ __forceinline__ void mrt_gemm_stage_acc(float *stg, const float (&acc)[TN / 2], int nbase,
                                                          int ctid) {
    typedef mrt_gemm_layout<KIND, TN> L;
    const int w = (ctid >> 5) & 3, lane = ctid & 31;
    const int r = nbase + 16 * w + (lane >> 2), q = lane & 3;
#pragma unroll
    for (int c = 0; c < TN / 8; c++)
#pragma unroll
        for (int i = 0; i < 2; i++)
#pragma unroll
            for (int j = 0; j < 2; j++) stg[(8 * c + 2 * q + j) * L::PITCH + r + 8 * i] = acc[4 * c + 2 * i + j];
}

/* ---- role: store (final values, or a split-K partial and the deterministic reduce) --- */

/* Run by `nthr` threads (tid 0..nthr-1) after the staging tile is complete and visible to
 * them; `sync` is a barrier among exactly those threads. With split > 1 (and REDUCE) every CTA writes its
 * partial; the last of the tile's `split` CTAs to arrive (ticket) sums all partials in split
 * order 0..split-1 (the same order whoever is last: deterministic) and runs the epilogue.
 * With a.partials_only every CTA ends after writing its partial: the consumer sums them. */
template <int KIND, int TN, class Epi, class Wait, class Sync, bool REDUCE = true>
static __device__ __forceinline__ void mrt_gemm_store(const mrt_gemm_tile &t, const mrt_gemm_args &a,
                                                      const float *stg, int *flag, const Epi &epi,
                                                      const Wait &wait, const Sync &sync, int tid, int nthr) {
    typedef mrt_gemm_kind<KIND> K_;
    typedef mrt_gemm_layout<KIND, TN> L;
    const int nvec = K_::BLOCK_N / 8;
    wait(tid & 31); /* PDL: do not overwrite memory a predecessor may still read */
    if (!REDUCE || a.split == 1) { /* REDUCE = false (the megakernel): no reduction code at all */
        for (int it = tid; it < TN * nvec; it += nthr) {
            int ml = it / nvec, nl = (it - ml * nvec) * 8, m = t.m0 + ml, n = t.n0 + nl;
            if (m >= a.M || n >= a.N) continue;
            const float4 *s = (const float4 *)(stg + ml * L::PITCH + nl);
            float4 v0 = s[0], v1 = s[1];
            float v[8] = {v0.x, v0.y, v0.z, v0.w, v1.x, v1.y, v1.z, v1.w};
            epi(t, m, n, v);
        }
        return;
    }
    const long long plane = (long long)a.M * a.N; /* one split's partial */
    float *mine = a.partial + ((long long)t.batch * a.split + t.split) * plane;
    for (int it = tid; it < TN * nvec; it += nthr) {
        int ml = it / nvec, nl = (it - ml * nvec) * 8, m = t.m0 + ml, n = t.n0 + nl;
        if (m >= a.M || n >= a.N) continue;
        const float4 *s = (const float4 *)(stg + ml * L::PITCH + nl);
        float4 *d = (float4 *)(mine + (long long)m * a.N + n);
        __stcg(d, s[0]);
        __stcg(d + 1, s[1]);
    }
    if (a.partials_only) return; /* the consumer sums the planes (mrt_gpu_gemm_fp8_args.partials_out) */
    __threadfence(); /* each writer's partial is visible gpu-wide before its ticket */
    sync();
    unsigned *ticket = a.tickets + ((long long)t.batch * a.nchunks + t.chunk) * a.ntiles + t.ntile;
    if (tid == 0) {
        unsigned prev = atomicAdd(ticket, 1u);
        int last = prev == (unsigned)(a.split - 1);
        if (last) atomicExch(ticket, 0u); /* every split has arrived: rearm for the next run */
        *flag = last;
    }
    sync();
    if (!*flag) return;
    __threadfence(); /* acquire side of the ticket: see every split's partial */
    const float *p0 = a.partial + (long long)t.batch * a.split * plane;
    for (int it = tid; it < TN * nvec; it += nthr) {
        int ml = it / nvec, nl = (it - ml * nvec) * 8, m = t.m0 + ml, n = t.n0 + nl;
        if (m >= a.M || n >= a.N) continue;
        float4 s[2];
        mrt_sum_splits<2>(p0 + (long long)m * a.N + n, plane, a.split, s);
        float v[8] = {s[0].x, s[0].y, s[0].z, s[0].w, s[1].x, s[1].y, s[1].z, s[1].w};
        epi(t, m, n, v);
    }
}

/* ---- role: store through the cluster (split-K reduce in distributed shared memory) ---- */

static __device__ __forceinline__ uint32_t mrt_mapa(uint32_t addr, uint32_t rank) {
    uint32_t r;
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(addr), "r"(rank));
    return r;
}
static __device__ __forceinline__ void mrt_mbar_arrive_remote(uint32_t cluster_addr) {
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(cluster_addr) : "memory");
}
static __device__ __forceinline__ int mrt_mbar_try_cluster(uint32_t bar, uint32_t parity) {
    uint32_t ok;
    asm volatile(
        "{\n.reg .pred p;\nmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n"
        "selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(ok)
        : "r"(bar), "r"(parity)
        : "memory");
    return (int)ok;
}
static __device__ __forceinline__ void mrt_mbar_wait_cluster(uint32_t bar, uint32_t parity, unsigned *diag) {
    if (mrt_mbar_try_cluster(bar, parity)) return;
    long long t0 = clock64();
    while (!mrt_mbar_try_cluster(bar, parity))
        if (clock64() - t0 > MRT_SPIN_LIMIT_CYCLES) mrt_diag_trap(diag, MRT_DIAG_FULL_WAIT, bar, parity, 1, 0);
}
static __device__ __forceinline__ float4 mrt_ld_cluster_f4(uint32_t addr) {
    float4 v;
    asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "r"(addr)
                 : "memory");
    return v;
}
/* Every thread of a clustered CTA: arrive right after the barrier inits (relaxed; the init
 * fence orders them), wait before the first remote arrival / before exiting. */
static __device__ __forceinline__ void mrt_cluster_arrive() { asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory"); }
static __device__ __forceinline__ void mrt_cluster_wait() { asm volatile("barrier.cluster.wait;" ::: "memory"); }

/* Split-K reduction without global memory: the split CTAs of a tile are one cluster (rank =
 * split). Each announces its staged fp32 tile to every peer (remote mbarrier arrive, release
 * at cluster scope), waits for all of them, then reduces its 1/split share of the tile's
 * outputs by reading every peer's staging in split order 0..split-1 (deterministic, the same
 * sums as the global path) and runs the epilogue on it; finally it waits until every peer
 * has finished reading its own staging before its shared memory may go away. */
template <int KIND, int TN, class Epi, class Wait, class Sync>
static __device__ __forceinline__ void mrt_gemm_store_cluster(const mrt_gemm_tile &t, const mrt_gemm_args &a,
                                                              const float *stg, const mrt_gemm_bars &b,
                                                              const Epi &epi, const Wait &wait, const Sync &sync,
                                                              int tid, int nthr) {
    typedef mrt_gemm_kind<KIND> K_;
    typedef mrt_gemm_layout<KIND, TN> L;
    const int nvec = K_::BLOCK_N / 8, S = a.split;
    wait(tid & 31);
    /* every thread's staging stores, ordered at cluster scope before the announcement below */
    asm volatile("fence.acq_rel.cluster;" ::: "memory");
    sync();
    /* one thread per peer: remote arrivals from one thread go one after another (measured:
     * ~0.15-0.3 us each) */
    if (tid < S) mrt_mbar_arrive_remote(mrt_mapa(b.ready(), (uint32_t)tid));
    mrt_mbar_wait_cluster(b.ready(), 0, a.diag);
    const uint32_t stg_u32 = mrt_smem_u32(stg);
    const int items = TN * nvec, per = (items + S - 1) / S, lo = t.split * per;
    const int hi = lo + per < items ? lo + per : items;
    for (int it = lo + tid; it < hi; it += nthr) {
        int ml = it / nvec, nl = (it - ml * nvec) * 8, m = t.m0 + ml, n = t.n0 + nl;
        if (m >= a.M || n >= a.N) continue;
        const uint32_t off = stg_u32 + (uint32_t)(ml * L::PITCH + nl) * 4u;
        float v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (int s0 = 0; s0 < S; s0 += 8) {
            float4 u[8][2];
#pragma unroll
            for (int j = 0; j < 8; j++)
                if (s0 + j < S) {
                    uint32_t r = mrt_mapa(off, (uint32_t)(s0 + j));
                    u[j][0] = mrt_ld_cluster_f4(r), u[j][1] = mrt_ld_cluster_f4(r + 16);
                }
#pragma unroll
            for (int j = 0; j < 8; j++)
                if (s0 + j < S) {
                    v[0] += u[j][0].x, v[1] += u[j][0].y, v[2] += u[j][0].z, v[3] += u[j][0].w;
                    v[4] += u[j][1].x, v[5] += u[j][1].y, v[6] += u[j][1].z, v[7] += u[j][1].w;
                }
        }
        epi(t, m, n, v);
    }
    sync(); /* all of this CTA's reads of peer memory are done */
    if (tid < S) mrt_mbar_arrive_remote(mrt_mapa(b.drained(), (uint32_t)tid));
    mrt_mbar_wait_cluster(b.drained(), 0, a.diag);
}

struct mrt_consumer_barrier {
    __device__ __forceinline__ void operator()() const { mrt_consumer_sync(); }
};

#endif
