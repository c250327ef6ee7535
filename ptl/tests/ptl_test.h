/*
 * ptl_test.h -- what ptl's tests and benchmarks share: an MD descriptor
 * in one expression, and checks that report the call and the line.  A
 * program using CHECK/RC defines test_fail().
 */
#ifndef PTL_TEST_H
#define PTL_TEST_H

#include <stdint.h>
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

/* The model of ptl.h section 6: one element of type dt at t updated with x
 * and the operand o (ptl_unit and ptl_conf check ptl against it).  Written
 * apart from ptl's own (ptl_atomic.c), on values rather than bits. */
#define AM_MODEL(T)                                                                                                    \
  {                                                                                                                    \
    T tv, xv, ov, r;                                                                                                   \
    memcpy(&tv, t, sizeof(T));                                                                                         \
    memcpy(&xv, x, sizeof(T));                                                                                         \
    memcpy(&ov, o, sizeof(T));                                                                                         \
    switch (op) {                                                                                                      \
      case PTL_MIN: r = tv < xv ? tv : xv; break;                                                                      \
      case PTL_MAX: r = tv > xv ? tv : xv; break;                                                                      \
      case PTL_SUM: r = fp ? (T)(tv + xv) : (T)(uint64_t)((uint64_t)tv + (uint64_t)xv); break;                         \
      case PTL_PROD: r = fp ? (T)(tv * xv) : (T)(uint64_t)((uint64_t)tv * (uint64_t)xv); break;                        \
      case PTL_LOR: r = (T)(tv != 0 || xv != 0); break;                                                                \
      case PTL_LAND: r = (T)(tv != 0 && xv != 0); break;                                                               \
      case PTL_LXOR: r = (T)(!tv != !xv); break;                                                                       \
      case PTL_SWAP: r = xv; break;                                                                                    \
      case PTL_CSWAP: r = ov == tv ? xv : tv; break;                                                                   \
      case PTL_CSWAP_NE: r = ov != tv ? xv : tv; break;                                                                \
      case PTL_CSWAP_LE: r = ov <= tv ? xv : tv; break;                                                                \
      case PTL_CSWAP_LT: r = ov < tv ? xv : tv; break;                                                                 \
      case PTL_CSWAP_GE: r = ov >= tv ? xv : tv; break;                                                                \
      case PTL_CSWAP_GT: r = ov > tv ? xv : tv; break;                                                                 \
      default: r = tv; break;                                                                                          \
    }                                                                                                                  \
    memcpy(t, &r, sizeof(T));                                                                                          \
  }
static inline void am_model(ptl_op_t op, ptl_datatype_t dt, unsigned char *t, const unsigned char *x,
                     const unsigned char *o) {
  int fp = dt == PTL_FLOAT || dt == PTL_DOUBLE;
  if (op == PTL_BOR || op == PTL_BAND || op == PTL_BXOR || op == PTL_MSWAP) { /* bitwise: integers only */
    uint64_t a = 0, b = 0, m = 0;
    size_t n = dt == PTL_INT32_T || dt == PTL_UINT32_T ? 4 : 8;
    memcpy(&a, t, n), memcpy(&b, x, n), memcpy(&m, o, n);
    a = op == PTL_BOR ? a | b : op == PTL_BAND ? a & b : op == PTL_BXOR ? a ^ b : (a & ~m) | (b & m);
    memcpy(t, &a, n);
    return;
  }
  switch (dt) {
    case PTL_INT32_T: AM_MODEL(int32_t) break;
    case PTL_UINT32_T: AM_MODEL(uint32_t) break;
    case PTL_INT64_T: AM_MODEL(int64_t) break;
    case PTL_UINT64_T: AM_MODEL(uint64_t) break;
    case PTL_FLOAT: AM_MODEL(float) break;
    case PTL_DOUBLE: AM_MODEL(double) break;
    default: break;
  }
}
#endif /* PTL_TEST_H */
