/* A tiny test harness: CHECK counts every check, prints file:line and a message for each
 * failure, and TEST_MAIN_END() prints one summary line "N passed, N failed" and makes main
 * return nonzero when anything failed. One test program = one translation unit. */
#ifndef MRT_TESTING_H
#define MRT_TESTING_H

#include <stdarg.h>
#include <stdio.h>

static int test_passed_, test_failed_;

static inline int test_check_(int ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline int test_check_(int ok, const char *file, int line, const char *fmt, ...) {
    if (ok) {
        test_passed_++;
        return 1;
    }
    test_failed_++;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s:%d: FAIL: ", file, line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 0;
}

/* CHECK(cond, fmt, ...): the format and its arguments describe the failure. Evaluates to
 * 1 when cond holds, so a test can stop early: `if (!CHECK(p != NULL, "...")) return;` */
#define CHECK(cond, ...) test_check_((cond) ? 1 : 0, __FILE__, __LINE__, __VA_ARGS__)

static inline int test_end_(void) {
    printf("%d passed, %d failed\n", test_passed_, test_failed_);
    return test_failed_ != 0;
}

#define TEST_MAIN_END() return test_end_()

#endif
