/*
 * ptl_test.h -- what ptl's tests and benchmarks share: an MD descriptor
 * in one expression, and checks that report the call and the line.  A
 * program using CHECK/RC defines test_fail().
 */
#ifndef PTL_TEST_H
#define PTL_TEST_H

#include <string.h>

#include "ptl.h"

static inline ptl_md_t test_md(void *start, ptl_size_t len, int threshold, unsigned options, ptl_handle_eq_t eq,
                               void *user_ptr) {
  ptl_md_t d;
  memset(&d, 0, sizeof(d));
  d.start = start;
  d.length = len;
  d.threshold = threshold;
  d.options = options;
  d.eq_handle = eq;
  d.user_ptr = user_ptr;
  return d;
}

/* Report a failed check (printf-style) at `line`. */
void test_fail(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define CHECK(c)                                                                                                       \
  do {                                                                                                                 \
    if (!(c)) test_fail(__LINE__, "%s", #c);                                                                           \
  } while (0)
#define RC(call, want)                                                                                                 \
  do {                                                                                                                 \
    int rc_ = (call), want_ = (want);                                                                                  \
    if (rc_ != want_) test_fail(__LINE__, "%s = %s, wanted %s", #call, PtlErrorStr(rc_), PtlErrorStr(want_));          \
  } while (0)
#define OK(call) RC(call, PTL_OK)

#endif /* PTL_TEST_H */
