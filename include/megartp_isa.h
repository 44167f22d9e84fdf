/* megartp instruction ABI: one instruction = 32 x uint32 = 128 bytes.
 *
 * Shared by host C (planner, verifier, CPU executor) and device CUDA (megakernel
 * interpreter), so it holds only plain integer layout and inline encode/decode.
 * Article section 4 ("KernelPlan"): opcode, wait count, signal count, operand row,
 * waits (event, threshold), signals (event, increment, publication id), payload.
 *
 * Word layout (version MRT_ISA_VERSION):
 *   [0]      opcode (bits 0..7) | spec id (8..15) | wait count (16..19) |
 *            signal count (20..23) | ABI version (24..31)
 *   [1]      operand row (row of the OperandPtrTable, one per op)
 *   [2]      task id (plan-wide; diagnostics and traces name tasks by it)
 *   [3]      reduce group: ticket counter id (bits 0..19) | (members - 1) << 20,
 *            or MRT_NO_GROUP
 *   [4..11]  waits:   MRT_MAX_WAITS   x (event, threshold)
 *   [12..23] signals: MRT_MAX_SIGNALS x (event, increment, publication id)
 *   [24..31] payload: MRT_PAYLOAD_WORDS op-defined words (tile coordinates...)
 *
 * Thresholds are per step; an executor replaying step number `epoch` (1-based) waits
 * for threshold * epoch, so counters are never reset between replays. */
#ifndef MEGARTP_ISA_H
#define MEGARTP_ISA_H

#include <stdint.h>

#ifdef __CUDACC__
#define MRT_ISA_FN static __host__ __device__ __forceinline__
#else
#define MRT_ISA_FN static inline
#endif

#define MRT_ISA_VERSION 1u
#define MRT_INSTR_WORDS 32
#define MRT_MAX_WAITS 4
#define MRT_MAX_SIGNALS 4
#define MRT_PAYLOAD_WORDS 8
#define MRT_OPERAND_SLOTS 16
#define MRT_NO_GROUP 0xFFFFFFFFu
/* Set in a signal's publication id when the publication belongs to the task's reduce
 * group: only the group's finalizer (the member whose ticket is last) performs it. */
#define MRT_PUB_BY_FINALIZER 0x80000000u
#define MRT_MAX_GROUPS (1u << 20)
#define MRT_MAX_GROUP_MEMBERS 4096u

MRT_ISA_FN uint32_t mrt_group_pack(uint32_t id, uint32_t members) {
    return id | ((members - 1u) << 20);
}
MRT_ISA_FN uint32_t mrt_group_id(uint32_t w) { return w & (MRT_MAX_GROUPS - 1u); }
MRT_ISA_FN uint32_t mrt_group_members(uint32_t w) { return (w >> 20) + 1u; }

/* Opcodes: one per op kind; 0 is the NoOp used to pad queues. */
enum {
    MRT_OPC_NOOP = 0,
    MRT_OPC_ADD_RMSNORM_QUANT = 1,
    MRT_OPC_GEMM_FP8 = 2,
    MRT_OPC_GEMM_BF16 = 3,
    MRT_OPC_BMM_BF16 = 4,
    MRT_OPC_INDEX_LOGITS = 5,
    MRT_OPC_TOPK = 6,
    MRT_OPC_COUNT = 7
};

typedef struct mrt_wait {
    uint32_t event, threshold;
} mrt_wait;

typedef struct mrt_signal {
    uint32_t event, increment, publication;
} mrt_signal;

typedef struct mrt_instr {
    uint32_t opcode, spec, wait_count, signal_count;
    uint32_t operand_row, task, group;
    mrt_wait waits[MRT_MAX_WAITS];
    mrt_signal signals[MRT_MAX_SIGNALS];
    uint32_t payload[MRT_PAYLOAD_WORDS];
} mrt_instr;

/* Returns 0, or -1 if a field does not fit its bits (nothing is written then). */
MRT_ISA_FN int mrt_instr_encode(const mrt_instr *in, uint32_t w[MRT_INSTR_WORDS]) {
    if (in->opcode > 0xFFu || in->spec > 0xFFu || in->wait_count > MRT_MAX_WAITS ||
        in->signal_count > MRT_MAX_SIGNALS)
        return -1;
    for (int i = 0; i < MRT_INSTR_WORDS; i++) w[i] = 0;
    w[0] = in->opcode | (in->spec << 8) | (in->wait_count << 16) | (in->signal_count << 20) |
           (MRT_ISA_VERSION << 24);
    w[1] = in->operand_row;
    w[2] = in->task;
    w[3] = in->group;
    for (uint32_t i = 0; i < in->wait_count; i++) {
        w[4 + 2 * i] = in->waits[i].event;
        w[5 + 2 * i] = in->waits[i].threshold;
    }
    for (uint32_t i = 0; i < in->signal_count; i++) {
        w[12 + 3 * i] = in->signals[i].event;
        w[13 + 3 * i] = in->signals[i].increment;
        w[14 + 3 * i] = in->signals[i].publication;
    }
    for (int i = 0; i < MRT_PAYLOAD_WORDS; i++) w[24 + i] = in->payload[i];
    return 0;
}

/* Returns 0, or -1 for a word of another ABI version or impossible counts. */
MRT_ISA_FN int mrt_instr_decode(const uint32_t w[MRT_INSTR_WORDS], mrt_instr *out) {
    if ((w[0] >> 24) != MRT_ISA_VERSION) return -1;
    out->opcode = w[0] & 0xFFu;
    out->spec = (w[0] >> 8) & 0xFFu;
    out->wait_count = (w[0] >> 16) & 0xFu;
    out->signal_count = (w[0] >> 20) & 0xFu;
    if (out->wait_count > MRT_MAX_WAITS || out->signal_count > MRT_MAX_SIGNALS) return -1;
    out->operand_row = w[1];
    out->task = w[2];
    out->group = w[3];
    for (int i = 0; i < MRT_MAX_WAITS; i++) {
        out->waits[i].event = w[4 + 2 * i];
        out->waits[i].threshold = w[5 + 2 * i];
    }
    for (int i = 0; i < MRT_MAX_SIGNALS; i++) {
        out->signals[i].event = w[12 + 3 * i];
        out->signals[i].increment = w[13 + 3 * i];
        out->signals[i].publication = w[14 + 3 * i];
    }
    for (int i = 0; i < MRT_PAYLOAD_WORDS; i++) out->payload[i] = w[24 + i];
    return 0;
}

#endif
