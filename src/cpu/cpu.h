/* The CPU executor's view of one task, handed to an op's reference tile function. */
#ifndef MRT_CPU_H
#define MRT_CPU_H

#include "internal.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { MRT_PHASE_MAIN = 0, MRT_PHASE_FINAL = 1 };

struct mrt_cpu_tile {
    const mrt_plan *plan;
    const mrt_op *op;
    mrt_tile_cfg cfg;
    const uint32_t *payload;
    void *const *slot;  /* the op's OperandPtrTable row: inputs, outputs, then scratch */
    const int *partials; /* physical partial count of each slot's tensor */
    int phase;           /* MAIN: the task's own work; FINAL: its group's finalization */
};

#ifdef __cplusplus
}
#endif

#endif
