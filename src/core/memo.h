/* A small open-addressing memo from fixed 8 x int32 keys to an int. Planning repeats the
 * same questions (the same region of the same tensor under the same waits) for every
 * tile of an op; memoizing them keeps a GLM-5 plan build well under a millisecond. */
#ifndef MRT_MEMO_H
#define MRT_MEMO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct mrt_memo_slot {
    int32_t k[8];
    int val;
} mrt_memo_slot;

typedef struct mrt_memo {
    mrt_memo_slot *s;
    uint8_t *used; /* kept apart so that only it needs zeroing */
    int cap, n;
} mrt_memo;

static inline uint64_t mrt_memo_hash(const int32_t *k) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < 8; i++) h = (h ^ (uint32_t)k[i]) * 1099511628211ull;
    return h ^ (h >> 29);
}

static inline bool mrt_memo_init(mrt_memo *m, int expect) {
    m->cap = 64;
    while (m->cap < 2 * expect) m->cap *= 2;
    m->n = 0;
    m->s = malloc((size_t)m->cap * sizeof(mrt_memo_slot));
    m->used = calloc((size_t)m->cap, 1);
    return m->s && m->used;
}

static inline void mrt_memo_free(mrt_memo *m) {
    free(m->s);
    free(m->used);
}

/* The slot for key k; *found says whether it holds k (else fill it with mrt_memo_put). */
static inline mrt_memo_slot *mrt_memo_find(mrt_memo *m, const int32_t *k, bool *found) {
    uint64_t i = mrt_memo_hash(k) & (uint64_t)(m->cap - 1);
    while (m->used[i] && memcmp(m->s[i].k, k, sizeof m->s[i].k)) i = (i + 1) & (uint64_t)(m->cap - 1);
    *found = m->used[i];
    return &m->s[i];
}

/* Stores val under k, unless the memo is half full (then it only forgets: still correct). */
static inline void mrt_memo_put(mrt_memo *m, mrt_memo_slot *slot, const int32_t *k, int val) {
    if (2 * (m->n + 1) > m->cap) return;
    memcpy(slot->k, k, sizeof slot->k);
    slot->val = val;
    m->used[slot - m->s] = 1;
    m->n++;
}

#endif
