/* Encoding a placed plan into the dense [workers, max_len, 32] instruction tensor. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* Spec id: the GEMM-family configurations a plan needs, de-duplicated (DESIGN.md
 * section 3): ops of the same kind with the same epilogue and tile shape share one. */
static void assign_specs(const mrt_plan *p, uint32_t *spec) {
    int keys[MRT_MAX_OPS][4], n = 0;
    for (int i = 0; i < p->n_ops; i++) {
        const mrt_op *op = &p->g->ops[p->ops[i]];
        const mrt_tile_cfg *c = &p->cfg[op->id];
        int key[4] = {op->kind, op->p.i[0], c->block_m, c->block_n};
        int j = 0;
        while (j < n && memcmp(keys[j], key, sizeof key)) j++;
        if (j == n) memcpy(keys[n++], key, sizeof key);
        spec[op->id] = (uint32_t)j;
    }
}

mrt_status mrt_encode(mrt_plan *p) {
    size_t words = (size_t)p->workers * (size_t)p->max_len * MRT_INSTR_WORDS;
    p->instr = malloc(words * sizeof(uint32_t));
    if (!p->instr) return mrt_fail(p->ctx, MRT_ERR_NOMEM, "plan: out of memory for %zu instruction words", words);
    mrt_instr noop = {0};
    noop.group = MRT_NO_GROUP;
    for (size_t q = 0; q < (size_t)p->workers * (size_t)p->max_len; q++)
        mrt_instr_encode(&noop, p->instr + q * MRT_INSTR_WORDS);
    uint32_t spec[MRT_MAX_OPS] = {0};
    assign_specs(p, spec);
    for (int i = 0; i < p->n_tasks; i++) {
        const mrt_task *k = &p->tasks[i];
        const mrt_op *op = &p->g->ops[k->op];
        mrt_instr in = {0};
        in.opcode = (uint32_t)mrt_op_class_get(op->kind)->opcode;
        in.spec = spec[op->id];
        in.wait_count = (uint32_t)k->n_wait;
        in.signal_count = (uint32_t)k->n_sig;
        in.operand_row = (uint32_t)p->op_row[op->id];
        in.task = (uint32_t)i;
        in.group = k->group >= 0 ? mrt_group_pack((uint32_t)k->group, (uint32_t)p->groups[k->group].members)
                                 : MRT_NO_GROUP;
        memcpy(in.waits, k->wait, sizeof in.waits);
        memcpy(in.signals, k->sig, sizeof in.signals);
        memcpy(in.payload, k->payload, sizeof in.payload);
        uint32_t *w = p->instr + ((size_t)k->worker * p->max_len + k->slot) * MRT_INSTR_WORDS;
        if (mrt_instr_encode(&in, w))
            return mrt_fail(p->ctx, MRT_ERR_LIMIT, "task %s[%d]: instruction fields exceed the ABI", op->name, k->index);
    }
    return MRT_OK;
}
