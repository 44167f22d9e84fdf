/* The instruction ABI: encode/decode round trip for every opcode with random fields,
 * and the rejections (fields that do not fit, another ABI version). */
#include <stdbool.h>
#include <string.h>

#include "megartp.h"
#include "testing.h"

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint32_t rnd(void) {
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return (uint32_t)(rng >> 11);
}

static bool same(const mrt_instr *a, const mrt_instr *b) {
    if (a->opcode != b->opcode || a->spec != b->spec || a->wait_count != b->wait_count ||
        a->signal_count != b->signal_count || a->operand_row != b->operand_row || a->task != b->task ||
        a->group != b->group)
        return false;
    for (uint32_t i = 0; i < a->wait_count; i++)
        if (a->waits[i].event != b->waits[i].event || a->waits[i].threshold != b->waits[i].threshold) return false;
    for (uint32_t i = 0; i < a->signal_count; i++)
        if (a->signals[i].event != b->signals[i].event || a->signals[i].increment != b->signals[i].increment ||
            a->signals[i].publication != b->signals[i].publication)
            return false;
    return !memcmp(a->payload, b->payload, sizeof a->payload);
}

int main(void) {
    CHECK(sizeof(uint32_t) * MRT_INSTR_WORDS == 128, "an instruction is 128 bytes");
    for (uint32_t op = 0; op < MRT_OPC_COUNT; op++)
        for (int trial = 0; trial < 200; trial++) {
            mrt_instr in = {0}, out;
            in.opcode = op;
            in.spec = rnd() & 0xFF;
            in.wait_count = trial % (MRT_MAX_WAITS + 1);
            in.signal_count = (trial / 5) % (MRT_MAX_SIGNALS + 1);
            in.operand_row = rnd();
            in.task = rnd();
            in.group = trial % 3 ? mrt_group_pack(rnd() % MRT_MAX_GROUPS, 1 + rnd() % MRT_MAX_GROUP_MEMBERS) : MRT_NO_GROUP;
            for (uint32_t i = 0; i < in.wait_count; i++) in.waits[i] = (mrt_wait){rnd(), rnd()};
            for (uint32_t i = 0; i < in.signal_count; i++)
                in.signals[i] = (mrt_signal){rnd(), rnd(), rnd() & (0xFFu | MRT_PUB_BY_FINALIZER)};
            for (int i = 0; i < MRT_PAYLOAD_WORDS; i++) in.payload[i] = rnd();
            uint32_t w[MRT_INSTR_WORDS];
            memset(w, 0xAB, sizeof w);
            int enc = mrt_instr_encode(&in, w), dec = mrt_instr_decode(w, &out);
            if (!CHECK(enc == 0 && dec == 0, "opcode %u trial %d: encode %d decode %d", op, trial, enc, dec)) continue;
            CHECK(same(&in, &out), "opcode %u trial %d: the round trip changed a field", op, trial);
            for (uint32_t i = in.wait_count; i < MRT_MAX_WAITS; i++)
                CHECK(out.waits[i].event == 0 && out.waits[i].threshold == 0, "unused waits encode as zero");
        }
    uint32_t g = mrt_group_pack(12345, 4096);
    CHECK(mrt_group_id(g) == 12345 && mrt_group_members(g) == 4096, "group word round trip");
    mrt_instr bad = {0};
    uint32_t w[MRT_INSTR_WORDS];
    bad.opcode = 256;
    CHECK(mrt_instr_encode(&bad, w) == -1, "opcode 256 does not fit");
    bad.opcode = 1, bad.wait_count = MRT_MAX_WAITS + 1;
    CHECK(mrt_instr_encode(&bad, w) == -1, "%d waits do not fit", MRT_MAX_WAITS + 1);
    bad.wait_count = 0, bad.signal_count = MRT_MAX_SIGNALS + 1;
    CHECK(mrt_instr_encode(&bad, w) == -1, "%d signals do not fit", MRT_MAX_SIGNALS + 1);
    bad.signal_count = 0;
    CHECK(mrt_instr_encode(&bad, w) == 0, "a plain instruction encodes");
    w[0] = (w[0] & 0x00FFFFFFu) | ((MRT_ISA_VERSION + 1) << 24);
    mrt_instr out;
    CHECK(mrt_instr_decode(w, &out) == -1, "another ABI version is refused");
    memset(w, 0, sizeof w);
    CHECK(mrt_instr_decode(w, &out) == -1, "an all-zero word (unwritten memory) is refused");
    TEST_MAIN_END();
}
