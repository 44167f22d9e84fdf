/* Box arithmetic of the declared regions (src/core/region.c): mrt_boxes_disjoint against the
 * pairwise check it replaces in the planner's claim check, on the shapes producers write
 * (column tiles, row tiles, grids, in and out of order, 2..256 boxes) and on random boxes,
 * each set once as built and once with one box moved onto another; mrt_boxes_cover against a
 * cell-by-cell count on small random sets. Seeded; every set is fresh. */
#include <stdlib.h>

#include "internal.h"
#include "testing.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static int below(int n) { /* xorshift64*, uniform enough for test shapes */
    rng ^= rng >> 12, rng ^= rng << 25, rng ^= rng >> 27;
    return (int)((rng * 0x2545f4914f6cdd1dull >> 33) % (uint64_t)n);
}

static bool pairwise_disjoint(const mrt_box *b, int n) {
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (mrt_box_overlap(b[i], b[j])) return false;
    return true;
}

/* n boxes of one shape: 0 column tiles, 1 row tiles, 2 a grid, 3 random (may overlap) */
static int make(mrt_box *b, int shape, int n) {
    const int w = 1 + below(64), h = 1 + below(16), cols = 1 + below(16);
    for (int i = 0; i < n; i++) {
        if (shape == 0) b[i] = (mrt_box){0, h, i * w, (i + 1) * w};
        else if (shape == 1) b[i] = (mrt_box){i * h, (i + 1) * h, 0, w};
        else if (shape == 2) b[i] = (mrt_box){(i / cols) * h, (i / cols + 1) * h, (i % cols) * w, (i % cols + 1) * w};
        else {
            int r0 = below(200), c0 = below(200);
            b[i] = (mrt_box){r0, r0 + 1 + below(20), c0, c0 + 1 + below(20)};
        }
    }
    for (int i = n - 1; i > 0 && below(2); i--) { /* producers' order is not always the box order */
        int j = below(i + 1);
        mrt_box t = b[i];
        b[i] = b[j], b[j] = t;
    }
    return n;
}

static void test_disjoint(void) {
    static mrt_box b[256];
    int wrong = 0, runs = 0, overlapping = 0;
    for (int shape = 0; shape < 4; shape++)
        for (int rep = 0; rep < 300; rep++) {
            int n = make(b, shape, 2 + below(255));
            for (int moved = 0; moved < 2; moved++) {
                if (moved) { /* one box onto a part of another: they overlap now */
                    int i = below(n), j = below(n - 1);
                    j += j >= i;
                    b[i].r0 = b[j].r0, b[i].c0 = b[j].c0;
                    b[i].r1 = b[i].r0 + 1 + below(3), b[i].c1 = b[i].c0 + 1 + below(3);
                }
                const bool want = pairwise_disjoint(b, n), got = mrt_boxes_disjoint(b, n);
                wrong += want != got, runs++, overlapping += !want;
                if (want != got && wrong <= 3) printf("  shape %d, %d boxes: disjoint %d, want %d\n", shape, n, got, want);
            }
        }
    CHECK(wrong == 0, "mrt_boxes_disjoint wrong on %d of %d sets", wrong, runs);
    CHECK(overlapping > runs / 3 && overlapping < runs, "%d of %d sets overlap: both kinds tested", overlapping, runs);
}

static void test_cover(void) {
    mrt_box b[12];
    int wrong = 0, covered = 0, runs = 400;
    for (int rep = 0; rep < runs; rep++) {
        const int n = 1 + below(12);
        for (int i = 0; i < n; i++) {
            int r0 = below(10), c0 = below(10);
            b[i] = (mrt_box){r0, r0 + 1 + below(8), c0, c0 + 1 + below(8)};
        }
        const mrt_box t = {below(4), 4 + below(6), below(4), 4 + below(6)};
        bool want = true;
        for (int r = t.r0; r < t.r1; r++)
            for (int c = t.c0; c < t.c1; c++) {
                bool in = false;
                for (int i = 0; i < n && !in; i++) in = mrt_box_contains(b[i], (mrt_box){r, r + 1, c, c + 1});
                want &= in;
            }
        mrt_box gap = {0, 0, 0, 0};
        const bool got = mrt_boxes_cover(b, n, t, &gap);
        bool gap_ok = got || (mrt_box_contains(t, gap) && !mrt_box_empty(gap));
        for (int i = 0; !got && i < n; i++) gap_ok &= !mrt_box_overlap(b[i], gap);
        wrong += got != want || !gap_ok, covered += want;
    }
    CHECK(wrong == 0, "mrt_boxes_cover wrong (or its gap touched by a box) on %d of %d sets", wrong, runs);
    CHECK(covered > 0 && covered < runs, "%d of %d targets covered: both kinds tested", covered, runs);
}

/* Tiles that span the target's rows (the 1D path: sorted, shuffled, up to 200 of them),
 * with one tile left out or not: covered exactly when none is, and the gap is the missing
 * tile's columns. */
static void test_cover_tiles(void) {
    static mrt_box b[200];
    int wrong = 0, runs = 0;
    for (int rep = 0; rep < 400; rep++) {
        const int n = 2 + below(199), w = 1 + below(32), drop = below(2) ? below(n) : -1;
        int k = 0;
        for (int i = 0; i < n; i++)
            if (i != drop) b[k++] = (mrt_box){0, 4, i * w, (i + 1) * w};
        for (int i = k - 1; i > 0 && rep % 2; i--) { /* odd runs: shuffled */
            int j = below(i + 1);
            mrt_box t = b[i];
            b[i] = b[j], b[j] = t;
        }
        mrt_box gap = {0, 0, 0, 0};
        const bool got = mrt_boxes_cover(b, k, (mrt_box){1, 3, 0, n * w}, &gap);
        const bool ok = drop < 0 ? got : !got && gap.c0 == drop * w && gap.c1 == (drop + 1) * w;
        wrong += !ok, runs++;
    }
    CHECK(wrong == 0, "column tiles: coverage or gap wrong on %d of %d sets", wrong, runs);
}

int main(void) {
    test_disjoint();
    test_cover();
    test_cover_tiles();
    TEST_MAIN_END();
}
