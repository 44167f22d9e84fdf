/* Box arithmetic for declared regions: does a set of boxes cover a target box? */
#include <stdlib.h>

#include "internal.h"

static int cmp_i64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int uniq(int64_t *v, int n) {
    qsort(v, n, sizeof *v, cmp_i64);
    int k = 0;
    for (int i = 0; i < n; i++)
        if (k == 0 || v[k - 1] != v[i]) v[k++] = v[i];
    return k;
}

typedef struct span {
    int64_t a, b;
} span;

static int cmp_span(const void *x, const void *y) {
    int64_t a = ((const span *)x)->a, b = ((const span *)y)->a;
    return (a > b) - (a < b);
}

/* 1D sweep when every box spans the target's whole extent in the other dimension (the
 * common case: GEMM K blocks, row tiles). Returns 1 covered, 0 gap (written), -1 n/a. */
static int cover_1d(const mrt_box *boxes, int n, mrt_box target, bool by_cols, mrt_box *gap) {
    span buf[64], *v = n <= 64 ? buf : malloc(sizeof(span) * (size_t)n);
    if (!v) return -1;
    int k = 0;
    int64_t lo = by_cols ? target.c0 : target.r0, hi = by_cols ? target.c1 : target.r1;
    for (int i = 0; i < n; i++) {
        const mrt_box *b = &boxes[i];
        bool spans = by_cols ? b->r0 <= target.r0 && b->r1 >= target.r1 : b->c0 <= target.c0 && b->c1 >= target.c1;
        int64_t a = by_cols ? b->c0 : b->r0, e = by_cols ? b->c1 : b->r1;
        if (e <= lo || a >= hi) continue; /* no part of the target */
        if (!spans) {
            if (v != buf) free(v);
            return -1;
        }
        v[k].a = a, v[k++].b = e;
    }
    bool sorted = true; /* producers' writes mostly come in order: then no sort at all */
    for (int i = 1; i < k && sorted; i++) sorted = v[i - 1].a <= v[i].a;
    if (!sorted && k > 64) qsort(v, (size_t)k, sizeof(span), cmp_span);
    else if (!sorted) /* few spans: insertion sort */
        for (int i = 1; i < k; i++)
            for (int j = i; j > 0 && v[j - 1].a > v[j].a; j--) {
                span t = v[j];
                v[j] = v[j - 1], v[j - 1] = t;
            }
    int64_t at = lo, next = hi; /* the gap: from the covered prefix's end to the next span */
    for (int i = 0; i < k && at < hi; i++) {
        if (v[i].a > at) {
            next = v[i].a < hi ? v[i].a : hi;
            break;
        }
        if (v[i].b > at) at = v[i].b;
    }
    if (v != buf) free(v);
    if (at >= hi) return 1;
    if (gap) {
        *gap = target;
        if (by_cols) gap->c0 = (int32_t)at, gap->c1 = (int32_t)next;
        else gap->r0 = (int32_t)at, gap->r1 = (int32_t)next;
    }
    return 0;
}

/* Pairwise for a few boxes; else a sweep along columns when more boxes share box 0's rows
 * than its columns (column tiles), else along rows: boxes in order of their start (insertion
 * sort: producers' writes come mostly in order), each compared with the earlier ones still
 * open at it. Column- or row-partitioned sets keep one box open, so a read of a row that 128
 * tasks wrote costs ~128 comparisons instead of 8128 pairs (the pairwise check was 30% of a
 * GLM-5 M=128 KV=65536 plan build). */
bool mrt_boxes_disjoint(const mrt_box *boxes, int n) {
    if (n > 256) n = 256; /* the caller's limit */
    if (n <= 8) {
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++)
                if (mrt_box_overlap(boxes[i], boxes[j])) return false;
        return true;
    }
    int same_rows = 0, same_cols = 0;
    for (int i = 0; i < n; i++) {
        same_rows += boxes[i].r0 == boxes[0].r0 && boxes[i].r1 == boxes[0].r1;
        same_cols += boxes[i].c0 == boxes[0].c0 && boxes[i].c1 == boxes[0].c1;
    }
    const bool cols = same_rows >= same_cols;
    int order[256], open[256], nopen = 0;
    for (int i = 0; i < n; i++) {
        const int32_t at = cols ? boxes[i].c0 : boxes[i].r0;
        int j = i;
        for (; j > 0 && (cols ? boxes[order[j - 1]].c0 : boxes[order[j - 1]].r0) > at; j--) order[j] = order[j - 1];
        order[j] = i;
    }
    for (int s = 0; s < n; s++) {
        const mrt_box *b = &boxes[order[s]];
        const int32_t at = cols ? b->c0 : b->r0;
        int k = 0;
        for (int j = 0; j < nopen; j++) { /* keep the boxes still open at `at` */
            const mrt_box *o = &boxes[open[j]];
            if ((cols ? o->c1 : o->r1) > at) open[k++] = open[j];
        }
        nopen = k;
        for (int j = 0; j < nopen; j++)
            if (mrt_box_overlap(*b, boxes[open[j]])) return false;
        open[nopen++] = order[s];
    }
    return true;
}

/* Coordinate compression: cut the target at every box edge inside it; each resulting
 * cell is either inside some box or a gap. Boxes per check are few (tens), so the
 * quadratic cell walk is cheap; the 1D sweep above takes the common cases first. */
bool mrt_boxes_cover(const mrt_box *boxes, int n, mrt_box target, mrt_box *gap) {
    if (mrt_box_empty(target)) return true;
    for (int i = 0; i < n; i++)
        if (mrt_box_contains(boxes[i], target)) return true;
    int r = cover_1d(boxes, n, target, true, gap);
    if (r < 0) r = cover_1d(boxes, n, target, false, gap);
    if (r >= 0) return r == 1;
    int64_t *rs = malloc(sizeof(int64_t) * (2 * n + 2));
    int64_t *cs = malloc(sizeof(int64_t) * (2 * n + 2));
    int nr = 0, nc = 0;
    rs[nr++] = target.r0, rs[nr++] = target.r1;
    cs[nc++] = target.c0, cs[nc++] = target.c1;
    for (int i = 0; i < n; i++) {
        if (boxes[i].r0 > target.r0 && boxes[i].r0 < target.r1) rs[nr++] = boxes[i].r0;
        if (boxes[i].r1 > target.r0 && boxes[i].r1 < target.r1) rs[nr++] = boxes[i].r1;
        if (boxes[i].c0 > target.c0 && boxes[i].c0 < target.c1) cs[nc++] = boxes[i].c0;
        if (boxes[i].c1 > target.c0 && boxes[i].c1 < target.c1) cs[nc++] = boxes[i].c1;
    }
    nr = uniq(rs, nr), nc = uniq(cs, nc);
    bool ok = true;
    for (int i = 0; i + 1 < nr && ok; i++)
        for (int j = 0; j + 1 < nc && ok; j++) {
            mrt_box cell = {rs[i], rs[i + 1], cs[j], cs[j + 1]};
            bool in = false;
            for (int k = 0; k < n && !in; k++) in = mrt_box_contains(boxes[k], cell);
            if (!in) {
                ok = false;
                if (gap) *gap = cell;
            }
        }
    free(rs);
    free(cs);
    return ok;
}
