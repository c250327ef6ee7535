/*
 * exconf.h -- shared parts of the GASNet-EX conformance tests (exconf.c,
 * and exconf_par.c, its GASNET_PAR companion): the subtest framework
 * (selection by name, "ok NAME" / "not ok NAME" lines from rank 0, the
 * summary, a watchdog), failure reporting, data patterns, and the AM
 * calls of every argument count 0..16 behind one function per form.
 *
 * Only the public GASNet-EX headers are used (gasnetex.h, gasnet_coll.h);
 * stageport.h, when the include path has it, only names the stage in the
 * first output line.
 */
#ifndef EXCONF_H
#define EXCONF_H

#include <gasnetex.h>
#include <gasnet_coll.h>

#if defined(__has_include)
#if __has_include(<stageport.h>)
#include <stageport.h>
#define EX_HAVE_STAGEPORT_H 1
#endif
#endif

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define EX_MAXN 16 /* ranks the tests support (control-area slots) */
#define EX_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------ */
/* job state                                                           */
/* ------------------------------------------------------------------ */
static gex_Client_t ex_client;
static gex_EP_t ex_ep;
static gex_TM_t ex_tm;
static gex_Segment_t ex_seg;
static gex_Rank_t ex_me, ex_n;
/* every rank's segment, as that rank's gex_Segment_QueryAddr/Size said
 * (exchanged by broadcasts, not by gex_EP_QueryBoundSegmentNB) */
static struct {
  void *addr;
  uintptr_t size;
} ex_segs[EX_MAXN];

static double ex_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* failures                                                            */
/* ------------------------------------------------------------------ */
static const char *ex_prog = "exconf";
static const char *volatile ex_cur = "startup"; /* the running subtest */
static long ex_fails;                           /* failures of the running subtest here (atomic) */
static long ex_checks;                          /* checks made by the running subtest here (atomic) */
static long ex_shown;                           /* failures of the running subtest printed here (atomic) */
static const char *ex_skip_reason;              /* set by a subtest that cannot run here */

static void ex_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void ex_fail(const char *fmt, ...) {
  char line[1024];
  int k;
  va_list ap;
  long f;
  __atomic_add_fetch(&ex_fails, 1, __ATOMIC_RELAXED);
  f = __atomic_add_fetch(&ex_shown, 1, __ATOMIC_RELAXED);
  if (f > 12) return;
  k = snprintf(line, sizeof(line), "FAIL %s: rank %u: ", ex_cur, (unsigned)ex_me);
  va_start(ap, fmt);
  vsnprintf(line + k, sizeof(line) - (size_t)k, fmt, ap);
  va_end(ap);
  printf("%s%s\n", line, f == 12 ? " (further failures of this subtest on this rank not shown)" : "");
  fflush(stdout);
}
#define CHECK(cond, ...)                                   \
  do {                                                     \
    __atomic_add_fetch(&ex_checks, 1, __ATOMIC_RELAXED);   \
    if (!(cond)) ex_fail(__VA_ARGS__);                     \
  } while (0)
/* the same, printed once per subtest from this call site (repeats are
 * counted, not shown: a failure that every call repeats must not hide the
 * others) */
#define CHECK_ONCE(cond, ...)                                                  \
  do {                                                                         \
    static const char *volatile _shown;                                       \
    __atomic_add_fetch(&ex_checks, 1, __ATOMIC_RELAXED);                       \
    if (!(cond)) {                                                             \
      if (_shown != ex_cur) {                                                  \
        _shown = ex_cur;                                                       \
        ex_fail(__VA_ARGS__);                                                  \
      } else {                                                                 \
        __atomic_add_fetch(&ex_fails, 1, __ATOMIC_RELAXED);                    \
      }                                                                        \
    }                                                                          \
  } while (0)
#define CHECK_EQ(got, want, what)                                                                          \
  do {                                                                                                     \
    uint64_t _g = (uint64_t)(got), _w = (uint64_t)(want);                                                  \
    CHECK(_g == _w, "%s: got %" PRIu64 " (0x%" PRIx64 "), expected %" PRIu64 " (line %d)", what, _g, _g, _w, \
          __LINE__);                                                                                       \
  } while (0)
#define CHECK_RC(call, want)                                                                                 \
  do {                                                                                                       \
    int _rc = (call);                                                                                        \
    CHECK(_rc == (want), "%s returned %d (%s), expected %s (line %d)", #call, _rc,                            \
          gasnet_ErrorName(_rc) ? gasnet_ErrorName(_rc) : "?", #want, __LINE__);                             \
  } while (0)

/* ------------------------------------------------------------------ */
/* data patterns                                                       */
/* ------------------------------------------------------------------ */
static uint8_t ex_pat_table[65536];
static inline uint32_t ex_seed(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  uint32_t x = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA6Bu;
  x ^= (c + 0x165667B1u) * 0xC2B2AE35u;
  x ^= (d + 0x27D4EB2Fu) * 0x9E3779B1u;
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 12;
  return x;
}
/* byte i of the pattern `seed`: neighbouring bytes differ, shifts and
 * other seeds are detected */
static inline uint8_t ex_pat(uint32_t seed, size_t i) {
  return (uint8_t)(ex_pat_table[(i + seed) & 0xFFFF] ^ (uint8_t)(seed >> 24) ^ (uint8_t)(i >> 16));
}
static void ex_pat_init(void) {
  for (size_t i = 0; i < sizeof(ex_pat_table); i++) {
    uint32_t x = ex_seed((uint32_t)i, 0x5eed, 1, 2);
    ex_pat_table[i] = (uint8_t)(x ^ (x >> 8) ^ (x >> 16));
  }
}
static void ex_fill(void *p, size_t n, uint32_t seed) {
  uint8_t *b = p;
  for (size_t i = 0; i < n; i++) b[i] = ex_pat(seed, i);
}
/* 1 if n bytes at p hold the pattern (from its byte `start` on); else
 * one failure naming the first bad byte and how many are bad */
static int ex_vcheck_pat(const void *p, size_t n, uint32_t seed, size_t start, const char *fmt, va_list ap) {
  const uint8_t *g = p;
  size_t bad = 0, first = 0;
  __atomic_add_fetch(&ex_checks, 1, __ATOMIC_RELAXED);
  for (size_t i = 0; i < n; i++)
    if (g[i] != ex_pat(seed, start + i) && !bad++) first = i;
  if (!bad) return 1;
  {
    char what[512];
    vsnprintf(what, sizeof(what), fmt, ap);
    ex_fail("%s: byte %zu of %zu is 0x%02x, expected 0x%02x (%zu bad bytes)", what, first, n, g[first],
            ex_pat(seed, start + first), bad);
  }
  return 0;
}
static int ex_check_pat(const void *p, size_t n, uint32_t seed, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int ex_check_pat(const void *p, size_t n, uint32_t seed, const char *fmt, ...) {
  va_list ap;
  int ok;
  va_start(ap, fmt);
  ok = ex_vcheck_pat(p, n, seed, 0, fmt, ap);
  va_end(ap);
  return ok;
}
__attribute__((unused, format(printf, 5, 6))) static int ex_check_pat_from(const void *p, size_t n, uint32_t seed,
                                                                          size_t start, const char *fmt, ...) {
  va_list ap;
  int ok;
  va_start(ap, fmt);
  ok = ex_vcheck_pat(p, n, seed, start, fmt, ap);
  va_end(ap);
  return ok;
}
__attribute__((unused)) static int ex_check_byte(const void *p, size_t n, uint8_t v, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int ex_check_byte(const void *p, size_t n, uint8_t v, const char *fmt, ...) {
  const uint8_t *g = p;
  size_t bad = 0, first = 0;
  __atomic_add_fetch(&ex_checks, 1, __ATOMIC_RELAXED);
  for (size_t i = 0; i < n; i++)
    if (g[i] != v && !bad++) first = i;
  if (!bad) return 1;
  {
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    ex_fail("%s: byte %zu of %zu is 0x%02x, expected 0x%02x (%zu bad bytes)", what, first, n, g[first], v, bad);
  }
  return 0;
}

/* ------------------------------------------------------------------ */
/* the AM forms of every argument count                                */
/* ------------------------------------------------------------------ */
/* f(args), with args macro-expanded first (so that ", a[0], ..." counts as
 * arguments of the numbered form) */
#define EX_APPLY(f, args) f args
#define EX_M_LIST(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)
/* ", a[0], a[1], ..." */
#define EX_V0
#define EX_V1 EX_V0, a[0]
#define EX_V2 EX_V1, a[1]
#define EX_V3 EX_V2, a[2]
#define EX_V4 EX_V3, a[3]
#define EX_V5 EX_V4, a[4]
#define EX_V6 EX_V5, a[5]
#define EX_V7 EX_V6, a[6]
#define EX_V8 EX_V7, a[7]
#define EX_V9 EX_V8, a[8]
#define EX_V10 EX_V9, a[9]
#define EX_V11 EX_V10, a[10]
#define EX_V12 EX_V11, a[11]
#define EX_V13 EX_V12, a[12]
#define EX_V14 EX_V13, a[13]
#define EX_V15 EX_V14, a[14]
#define EX_V16 EX_V15, a[15]
/* parameter lists ", gex_AM_Arg_t a0, ..." and the names ", a0, ..." */
#define EX_P0
#define EX_P1 EX_P0, gex_AM_Arg_t a0
#define EX_P2 EX_P1, gex_AM_Arg_t a1
#define EX_P3 EX_P2, gex_AM_Arg_t a2
#define EX_P4 EX_P3, gex_AM_Arg_t a3
#define EX_P5 EX_P4, gex_AM_Arg_t a4
#define EX_P6 EX_P5, gex_AM_Arg_t a5
#define EX_P7 EX_P6, gex_AM_Arg_t a6
#define EX_P8 EX_P7, gex_AM_Arg_t a7
#define EX_P9 EX_P8, gex_AM_Arg_t a8
#define EX_P10 EX_P9, gex_AM_Arg_t a9
#define EX_P11 EX_P10, gex_AM_Arg_t a10
#define EX_P12 EX_P11, gex_AM_Arg_t a11
#define EX_P13 EX_P12, gex_AM_Arg_t a12
#define EX_P14 EX_P13, gex_AM_Arg_t a13
#define EX_P15 EX_P14, gex_AM_Arg_t a14
#define EX_P16 EX_P15, gex_AM_Arg_t a15
#define EX_N0
#define EX_N1 EX_N0, a0
#define EX_N2 EX_N1, a1
#define EX_N3 EX_N2, a2
#define EX_N4 EX_N3, a3
#define EX_N5 EX_N4, a4
#define EX_N6 EX_N5, a5
#define EX_N7 EX_N6, a6
#define EX_N8 EX_N7, a7
#define EX_N9 EX_N8, a8
#define EX_N10 EX_N9, a9
#define EX_N11 EX_N10, a10
#define EX_N12 EX_N11, a11
#define EX_N13 EX_N12, a12
#define EX_N14 EX_N13, a13
#define EX_N15 EX_N14, a14
#define EX_N16 EX_N15, a15

__attribute__((unused)) static int ex_req_short(gex_TM_t tm, gex_Rank_t r, gex_AM_Index_t h, gex_Flags_t f, unsigned m,
                                                const gex_AM_Arg_t *a) {
  switch (m) {
#define C(n) \
  case n: return EX_APPLY(gex_AM_RequestShort##n, (tm, r, h, f EX_V##n));
    EX_M_LIST(C)
#undef C
  }
  return -1;
}
__attribute__((unused)) static int ex_req_medium(gex_TM_t tm, gex_Rank_t r, gex_AM_Index_t h, const void *src, size_t n,
                                                 gex_Event_t *lc, gex_Flags_t f, unsigned m, const gex_AM_Arg_t *a) {
  switch (m) {
#define C(k) \
  case k: return EX_APPLY(gex_AM_RequestMedium##k, (tm, r, h, src, n, lc, f EX_V##k));
    EX_M_LIST(C)
#undef C
  }
  return -1;
}
__attribute__((unused)) static int ex_req_long(gex_TM_t tm, gex_Rank_t r, gex_AM_Index_t h, const void *src, size_t n,
                                               void *dst, gex_Event_t *lc, gex_Flags_t f, unsigned m,
                                               const gex_AM_Arg_t *a) {
  switch (m) {
#define C(k) \
  case k: return EX_APPLY(gex_AM_RequestLong##k, (tm, r, h, src, n, dst, lc, f EX_V##k));
    EX_M_LIST(C)
#undef C
  }
  return -1;
}
__attribute__((unused)) static int ex_rep_short(gex_Token_t t, gex_AM_Index_t h, gex_Flags_t f, unsigned m,
                                                const gex_AM_Arg_t *a) {
  switch (m) {
#define C(n) \
  case n: return EX_APPLY(gex_AM_ReplyShort##n, (t, h, f EX_V##n));
    EX_M_LIST(C)
#undef C
  }
  return -1;
}
__attribute__((unused)) static int ex_rep_medium(gex_Token_t t, gex_AM_Index_t h, const void *src, size_t n,
                                                 gex_Event_t *lc, gex_Flags_t f, unsigned m, const gex_AM_Arg_t *a) {
  switch (m) {
#define C(k) \
  case k: return EX_APPLY(gex_AM_ReplyMedium##k, (t, h, src, n, lc, f EX_V##k));
    EX_M_LIST(C)
#undef C
  }
  return -1;
}
__attribute__((unused)) static int ex_rep_long(gex_Token_t t, gex_AM_Index_t h, const void *src, size_t n, void *dst,
                                               gex_Event_t *lc, gex_Flags_t f, unsigned m, const gex_AM_Arg_t *a) {
  switch (m) {
#define C(k) \
  case k: return EX_APPLY(gex_AM_ReplyLong##k, (t, h, src, n, dst, lc, f EX_V##k));
    EX_M_LIST(C)
#undef C
  }
  return -1;
}
/* Commits: the plain forms (void in the description: 0 is returned here),
 * and the _v2 forms with commit_flags */
__attribute__((unused)) static int ex_commit_req_medium(gex_AM_SrcDesc_t sd, gex_AM_Index_t h, size_t n, unsigned m,
                                                        const gex_AM_Arg_t *a) {
  switch (m) {
#define C(k) \
  case k: EX_APPLY(gex_AM_CommitRequestMedium##k, (sd, h, n EX_V##k)); return 0;
    EX_M_LIST(C)
#undef C
  }
  return -1;
}
__attribute__((unused)) static int ex_commit_req_medium_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t h, size_t n,
                                                           gex_Flags_t cf, unsigned m, const gex_AM_Arg_t *a) {
  switch (m) {
#define C(k) \
  case k: return EX_APPLY(gex_AM_CommitRequestMedium##k##_v2, (sd, h, n, cf EX_V##k));
    EX_M_LIST(C)
#undef C
  }
  return -1;
}
__attribute__((unused)) static int ex_commit_req_long(gex_AM_SrcDesc_t sd, gex_AM_Index_t h, size_t n, void *dst,
                                                      unsigned m, const gex_AM_Arg_t *a) {
  switch (m) {
#define C(k) \
  case k: EX_APPLY(gex_AM_CommitRequestLong##k, (sd, h, n, dst EX_V##k)); return 0;
    EX_M_LIST(C)
#undef C
  }
  return -1;
}
__attribute__((unused)) static int ex_commit_req_long_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t h, size_t n, void *dst,
                                                         gex_Flags_t cf, unsigned m, const gex_AM_Arg_t *a) {
  switch (m) {
#define C(k) \
  case k: return EX_APPLY(gex_AM_CommitRequestLong##k##_v2, (sd, h, n, dst, cf EX_V##k));
    EX_M_LIST(C)
#undef C
  }
  return -1;
}
__attribute__((unused)) static int ex_commit_rep_medium(gex_AM_SrcDesc_t sd, gex_AM_Index_t h, size_t n, unsigned m,
                                                        const gex_AM_Arg_t *a) {
  switch (m) {
#define C(k) \
  case k: EX_APPLY(gex_AM_CommitReplyMedium##k, (sd, h, n EX_V##k)); return 0;
    EX_M_LIST(C)
#undef C
  }
  return -1;
}
__attribute__((unused)) static int ex_commit_rep_medium_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t h, size_t n,
                                                           gex_Flags_t cf, unsigned m, const gex_AM_Arg_t *a) {
  switch (m) {
#define C(k) \
  case k: return EX_APPLY(gex_AM_CommitReplyMedium##k##_v2, (sd, h, n, cf EX_V##k));
    EX_M_LIST(C)
#undef C
  }
  return -1;
}
__attribute__((unused)) static int ex_commit_rep_long(gex_AM_SrcDesc_t sd, gex_AM_Index_t h, size_t n, void *dst,
                                                      unsigned m, const gex_AM_Arg_t *a) {
  switch (m) {
#define C(k) \
  case k: EX_APPLY(gex_AM_CommitReplyLong##k, (sd, h, n, dst EX_V##k)); return 0;
    EX_M_LIST(C)
#undef C
  }
  return -1;
}
__attribute__((unused)) static int ex_commit_rep_long_v2(gex_AM_SrcDesc_t sd, gex_AM_Index_t h, size_t n, void *dst,
                                                         gex_Flags_t cf, unsigned m, const gex_AM_Arg_t *a) {
  switch (m) {
#define C(k) \
  case k: return EX_APPLY(gex_AM_CommitReplyLong##k##_v2, (sd, h, n, dst, cf EX_V##k));
    EX_M_LIST(C)
#undef C
  }
  return -1;
}

/* ------------------------------------------------------------------ */
/* the framework                                                       */
/* ------------------------------------------------------------------ */
typedef struct {
  const char *name;
  void (*fn)(void);
  const char *about;
} ex_subtest_t;

/* the result handler (a fixed index, Short REQUEST, 3 arguments): each
 * rank's result of a subtest to rank 0 */
#define EX_H_RESULT 128
static int ex_res_count[128];
static long ex_res_fails[128], ex_res_checks[128];
static uint64_t ex_res_ranks[128];
static void ex_h_result(gex_Token_t t, gex_AM_Arg_t idx, gex_AM_Arg_t fails, gex_AM_Arg_t checks) {
  gex_Token_Info_t info;
  gex_Token_Info(t, &info, GEX_TI_SRCRANK);
  if (idx < 0 || idx >= 128) return;
  __atomic_add_fetch(&ex_res_fails[idx], fails, __ATOMIC_RELAXED);
  __atomic_add_fetch(&ex_res_checks[idx], checks, __ATOMIC_RELAXED);
  if (fails && info.gex_srcrank < 64) __atomic_or_fetch(&ex_res_ranks[idx], (uint64_t)1 << info.gex_srcrank, __ATOMIC_RELAXED);
  __atomic_add_fetch(&ex_res_count[idx], 1, __ATOMIC_RELEASE);
}

static char ex_watchdog_msg[256];
static size_t ex_watchdog_len;
static void ex_watchdog(int sig) {
  (void)sig;
  if (write(1, ex_watchdog_msg, ex_watchdog_len) < 0) _exit(4);
  _exit(4);
}

static void ex_usage(FILE *f, const ex_subtest_t *st, int n) {
  fprintf(f, "usage: mpirun -np N %s [SUBTEST...]   (%s --list: the subtests)\nsubtests (run in this order):\n",
          ex_prog, ex_prog);
  for (int i = 0; i < n; i++) fprintf(f, "  %-22s %s\n", st[i].name, st[i].about);
}

/* The options of a program with bad-call modes (exatomic, exteam):
 * --list/--help/-h (the subtests) and --bad-list print and exit; --bad
 * MODE is returned (NULL: none). */
__attribute__((unused)) static const char *ex_bad_options(int argc, char **argv, const ex_subtest_t *st, int n,
                                  const char *const (*bad_modes)[2], size_t nbad) {
  const char *bad = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--list") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      ex_usage(stdout, st, n);
      exit(0);
    }
    if (!strcmp(argv[i], "--bad-list")) {
      for (size_t k = 0; k < nbad; k++) printf("  %-22s %s\n", bad_modes[k][0], bad_modes[k][1]);
      exit(0);
    }
    if (!strcmp(argv[i], "--bad") && i + 1 < argc) bad = argv[i + 1];
  }
  return bad;
}

/* the subtests' own waits poll through this (exconf.c also drains its
 * reply events there) */
static void (*ex_poll_hook)(void);
__attribute__((unused)) static void ex_poll(void) {
  gasnet_AMPoll();
  if (ex_poll_hook) ex_poll_hook();
}
/* Poll until cond holds, or fail after `secs` seconds naming what. */
#define EX_WAIT(cond, secs, ...)                             \
  do {                                                       \
    double _dl = ex_now() + (secs);                          \
    while (!(cond)) {                                        \
      ex_poll();                                             \
      if (ex_now() > _dl) {                                  \
        ex_fail("timed out waiting for " __VA_ARGS__);     \
        break;                                               \
      }                                                      \
    }                                                        \
  } while (0)

static void ex_barrier(void) { gex_Coll_BarrierBlocking(ex_tm, 0); }

/* Run the selected subtests (argv names them; none: all); returns the exit
 * code (0: every subtest passed on every rank).  reset(): before the
 * barrier that starts each subtest; after(): after the subtest, before its
 * closing barrier; final(): on every rank, before the summary line. */
static int ex_run(int argc, char **argv, const ex_subtest_t *st, int n, void (*reset)(void), void (*after)(void),
                  void (*final)(void)) {
  char sel[128] = {0};
  int nsel = 0, nrun = 0, nfailed = 0, watchdog_secs;
  const char *w = getenv("EXCONF_WATCHDOG"), *times = getenv("EXCONF_TIMES");
  double t_all = ex_now();
  if (n > 128) n = 128;
  for (int i = 1; i < argc; i++) {
    int found = 0;
    for (int j = 0; j < n; j++)
      if (!strcmp(argv[i], st[j].name)) sel[j] = 1, found = 1;
    if (!found) {
      if (ex_me == 0) {
        fprintf(stderr, "%s: unknown subtest \"%s\"\n", ex_prog, argv[i]);
        ex_usage(stderr, st, n);
      }
      return 2;
    }
    nsel++;
  }
  if (!nsel) memset(sel, 1, sizeof(sel));
  watchdog_secs = w ? atoi(w) : 60;
  signal(SIGALRM, ex_watchdog);
  if (ex_me == 0) {
#ifdef EX_HAVE_STAGEPORT_H
    printf("# %s: stage=%s ranks=%u\n", ex_prog, stageport_stage(), (unsigned)ex_n);
#else
    printf("# %s: ranks=%u\n", ex_prog, (unsigned)ex_n);
#endif
    fflush(stdout);
  }
  for (int i = 0; i < n; i++) {
    double t0;
    if (!sel[i]) continue;
    ex_cur = st[i].name;
    __atomic_store_n(&ex_fails, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&ex_checks, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&ex_shown, 0, __ATOMIC_RELAXED);
    ex_skip_reason = NULL;
    if (reset) reset();
    ex_watchdog_len = (size_t)snprintf(ex_watchdog_msg, sizeof(ex_watchdog_msg),
                                       "not ok %s: rank %u: still running after %d s (hang?): the watchdog ends the job\n",
                                       ex_cur, (unsigned)ex_me, watchdog_secs);
    if (watchdog_secs > 0) alarm((unsigned)watchdog_secs);
    ex_barrier();
    t0 = ex_now();
    st[i].fn();
    if (after) after();
    ex_barrier();
    alarm(0);
    /* a subtest that ran must have checked something (unless it said why not) */
    if (!ex_skip_reason && __atomic_load_n(&ex_checks, __ATOMIC_RELAXED) == 0)
      ex_fail("the subtest made no check on this rank");
    fflush(stdout);
    {
      long f = __atomic_load_n(&ex_fails, __ATOMIC_RELAXED), c = __atomic_load_n(&ex_checks, __ATOMIC_RELAXED);
      int rc = gex_AM_RequestShort3(ex_tm, 0, EX_H_RESULT, 0, i, f > 0x7fffffff ? 0x7fffffff : (int)f,
                                    c > 0x7fffffff ? 0x7fffffff : (int)c);
      if (rc) ex_fail("the result AM returned %d", rc);
    }
    if (ex_me == 0) {
      while (__atomic_load_n(&ex_res_count[i], __ATOMIC_ACQUIRE) < (int)ex_n) gasnet_AMPoll();
      nrun++;
      if (ex_res_fails[i]) {
        nfailed++;
        printf("not ok %s: %ld failure(s) on rank(s)", ex_cur, ex_res_fails[i]);
        for (gex_Rank_t j = 0; j < ex_n && j < 64; j++)
          if (ex_res_ranks[i] >> j & 1) printf(" %u", (unsigned)j);
        printf("\n");
      } else if (ex_skip_reason) {
        printf("ok %s # SKIP %s\n", ex_cur, ex_skip_reason);
      } else {
        printf("ok %s (%ld checks)\n", ex_cur, ex_res_checks[i]);
      }
      if (times) printf("# %s: %.3f s\n", ex_cur, ex_now() - t0);
      fflush(stdout);
    }
  }
  ex_cur = "finish";
  {
    /* rank 0's verdict to everybody */
    int32_t verdict = nfailed;
    gex_Event_Wait(gex_Coll_BroadcastNB(ex_tm, 0, &verdict, &verdict, sizeof(verdict), 0));
    nfailed = verdict;
  }
  if (final) final();
  if (ex_me == 0) {
    printf("# %s: %d subtests, %d failed, %.2f s\n", ex_prog, nrun, nfailed, ex_now() - t_all);
    fflush(stdout);
  }
  ex_barrier();
  return nfailed ? 1 : 0;
}

/* Every rank's segment by broadcasts from each root (what the root's own
 * gex_Segment_QueryAddr/Size says). */
static void ex_exchange_segments(void) {
  for (gex_Rank_t r = 0; r < ex_n; r++) {
    uint64_t mine[2] = {0, 0}, got[2] = {0, 0};
    if (r == ex_me) {
      mine[0] = (uint64_t)(uintptr_t)gex_Segment_QueryAddr(ex_seg);
      mine[1] = (uint64_t)gex_Segment_QuerySize(ex_seg);
    }
    gex_Event_Wait(gex_Coll_BroadcastNB(ex_tm, r, got, mine, sizeof(got), 0));
    ex_segs[r].addr = (void *)(uintptr_t)got[0];
    ex_segs[r].size = (uintptr_t)got[1];
  }
}

/* A test's start-up: the client (named client), at most EX_MAXN ranks, its
 * handler table, a segment of segsz bytes (rounded up to a page) and every
 * rank's segment; a failure ends the job ("not ok startup" lines). */
__attribute__((unused)) static void ex_startup(int *argc, char ***argv, const char *client, gex_AM_Entry_t *table,
                                               size_t ntable, uintptr_t segsz) {
  int rc = gex_Client_Init(&ex_client, &ex_ep, &ex_tm, client, argc, argv, 0);
  if (rc != GASNET_OK) {
    fprintf(stderr, "%s: gex_Client_Init returned %d (%s)\n", ex_prog, rc, gasnet_ErrorName(rc));
    exit(1);
  }
  ex_me = gex_System_QueryJobRank();
  ex_n = gex_System_QueryJobSize();
  if (ex_n > EX_MAXN) {
    if (ex_me == 0) fprintf(stderr, "%s: at most %d ranks\n", ex_prog, EX_MAXN);
    gasnet_exit(2);
  }
  rc = gex_EP_RegisterHandlers(ex_ep, table, ntable);
  if (rc != GASNET_OK) {
    printf("not ok startup: rank %u: gex_EP_RegisterHandlers returned %d\n", (unsigned)ex_me, rc);
    gasnet_exit(1);
  }
  rc = gex_Segment_Attach(&ex_seg, ex_tm, (segsz + GASNET_PAGESIZE - 1) & ~(uintptr_t)(GASNET_PAGESIZE - 1));
  if (rc != GASNET_OK) {
    printf("not ok startup: rank %u: gex_Segment_Attach returned %d\n", (unsigned)ex_me, rc);
    gasnet_exit(1);
  }
  ex_exchange_segments();
}

#endif /* EXCONF_H */
