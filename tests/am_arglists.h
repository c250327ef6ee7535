/*
 * am_arglists.h -- the argument lists of the 17 forms of every GASNet AM
 * call (M = 0..16 arguments), for tests that generate a handler and a
 * sender per M with one macro (conformance, stress).  Test code only.
 */
#ifndef STP_TEST_AM_ARGLISTS_H
#define STP_TEST_AM_ARGLISTS_H

#include <gasnet.h>

/* X(0) ... X(16) */
#define M_LIST(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)

/* parameter declarations ", gasnet_handlerarg_t a0, ..." */
#define PL0
#define PL1 PL0, gasnet_handlerarg_t a0
#define PL2 PL1, gasnet_handlerarg_t a1
#define PL3 PL2, gasnet_handlerarg_t a2
#define PL4 PL3, gasnet_handlerarg_t a3
#define PL5 PL4, gasnet_handlerarg_t a4
#define PL6 PL5, gasnet_handlerarg_t a5
#define PL7 PL6, gasnet_handlerarg_t a6
#define PL8 PL7, gasnet_handlerarg_t a7
#define PL9 PL8, gasnet_handlerarg_t a8
#define PL10 PL9, gasnet_handlerarg_t a9
#define PL11 PL10, gasnet_handlerarg_t a10
#define PL12 PL11, gasnet_handlerarg_t a11
#define PL13 PL12, gasnet_handlerarg_t a12
#define PL14 PL13, gasnet_handlerarg_t a13
#define PL15 PL14, gasnet_handlerarg_t a14
#define PL16 PL15, gasnet_handlerarg_t a15
/* the parameters as an initializer tail ", a0, a1, ..." */
#define AL0
#define AL1 AL0, a0
#define AL2 AL1, a1
#define AL3 AL2, a2
#define AL4 AL3, a3
#define AL5 AL4, a4
#define AL6 AL5, a5
#define AL7 AL6, a6
#define AL8 AL7, a7
#define AL9 AL8, a8
#define AL10 AL9, a9
#define AL11 AL10, a10
#define AL12 AL11, a11
#define AL13 AL12, a12
#define AL14 AL13, a13
#define AL15 AL14, a14
#define AL16 AL15, a15
/* an array as call arguments ", v[0], v[1], ..." */
#define VL0
#define VL1 VL0, v[0]
#define VL2 VL1, v[1]
#define VL3 VL2, v[2]
#define VL4 VL3, v[3]
#define VL5 VL4, v[4]
#define VL6 VL5, v[5]
#define VL7 VL6, v[6]
#define VL8 VL7, v[7]
#define VL9 VL8, v[8]
#define VL10 VL9, v[9]
#define VL11 VL10, v[10]
#define VL12 VL11, v[11]
#define VL13 VL12, v[12]
#define VL14 VL13, v[13]
#define VL15 VL14, v[14]
#define VL16 VL15, v[15]

/* expand the argument list before the GASNet macro counts its arguments */
#define CALL(f, args) f args

typedef const gasnet_handlerarg_t *argv_t;

#endif
