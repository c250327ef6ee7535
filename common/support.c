/*
 * support.c -- the runtime: errors, environment knobs, the operation pool,
 * waiting, and running AM handlers for the Cores.
 */
#include "stp_internal.h"

#if defined(__SANITIZE_THREAD__)
int stp_fence_word; /* (stp_fence under ThreadSanitizer) */
#endif

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct stp_globals stp;

/* ------------------------------------------------------------------ */
/* client threads (GASNET_PAR, GASNET_PARSYNC): the one library lock     */
/* ------------------------------------------------------------------ */
int stp_par;
static pthread_mutex_t par_lock = PTHREAD_MUTEX_INITIALIZER;
static __thread int par_depth;            /* this thread's nesting (a handler's reply enters again) */
static __thread stp_thread_t *par_thread; /* this thread's implicit-handle state */
static atomic_int par_waiters;            /* threads blocked on the lock */

void stp_par_lock(void) {
  if (par_depth++) return;
  if (pthread_mutex_trylock(&par_lock)) {
    atomic_fetch_add_explicit(&par_waiters, 1, memory_order_relaxed);
    pthread_mutex_lock(&par_lock);
    atomic_fetch_sub_explicit(&par_waiters, 1, memory_order_relaxed);
  }
}

int stp_par_lock_within(unsigned ms) {
  struct timespec ts;
  int rc;
  if (par_depth) {
    par_depth++;
    return 1;
  }
  if (!pthread_mutex_trylock(&par_lock)) {
    par_depth = 1;
    return 1;
  }
  clock_gettime(CLOCK_REALTIME, &ts); /* (pthread_mutex_timedlock's clock) */
  ts.tv_sec += (time_t)(ms / 1000);
  ts.tv_nsec += (long)(ms % 1000) * 1000000L;
  if (ts.tv_nsec >= 1000000000L) {
    ts.tv_sec++;
    ts.tv_nsec -= 1000000000L;
  }
  atomic_fetch_add_explicit(&par_waiters, 1, memory_order_relaxed); /* (so that API waits hand it over) */
  rc = pthread_mutex_timedlock(&par_lock, &ts);
  atomic_fetch_sub_explicit(&par_waiters, 1, memory_order_relaxed);
  if (rc) return 0;
  par_depth = 1;
  return 1;
}

int stp_par_held(void) { return par_depth > 0; }

void stp_par_unlock(void) {
  if (--par_depth == 0) pthread_mutex_unlock(&par_lock);
}

/* Hand the lock over if a thread waits for it (a mutex does not queue: the
 * thread that lets go must give up the CPU, or it takes the lock again
 * before the waiter wakes).  Only where nothing of this thread's is half
 * done: the API layer's waits, outside handlers. */
void stp_par_yield(void) {
  if (par_depth != 1 || !atomic_load_explicit(&par_waiters, memory_order_relaxed)) return;
  pthread_mutex_unlock(&par_lock);
  sched_yield();
  pthread_mutex_lock(&par_lock);
}

stp_thread_t *stp_thread_slow(void) {
  static atomic_int thr0_taken;
  if (STP_UNLIKELY(!par_thread)) {
    if (!atomic_exchange(&thr0_taken, 1)) { /* the first thread to ask: gasnet_init's */
      par_thread = &stp.thr0;
      return par_thread;
    }
    /* freed never: a thread's operations may outlive it */
    if (!(par_thread = calloc(1, sizeof(*par_thread)))) stp_fatal("out of memory (per-thread state)");
    stp_ev_init(&par_thread->nbi, STP_EV_NBI);
  }
  return par_thread;
}

/* ------------------------------------------------------------------ */
/* errors                                                              */
/* ------------------------------------------------------------------ */
static void stp_vreport(const char *what, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof(msg), fmt, ap);
  if (stp.inited)
    fprintf(stderr, "stageport: node %u: %s: %s\n", (unsigned)stp.mynode, what, msg);
  else
    fprintf(stderr, "stageport: %s: %s\n", what, msg);
  fflush(stderr);
}

void stp_abort(int code) {
  fflush(stdout);
  fflush(stderr);
  if (stp.boot.abort) stp.boot.abort(stp.boot.ctx, code);
  exit(code);
}

void stp_vfatal(const char *fmt, va_list ap) {
  stp_vreport("fatal error", fmt, ap);
  stp_abort(1);
}

void stp_fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  stp_vfatal(fmt, ap);
}

void stp_bad_address(const char *what, gex_Rank_t from, const void *addr, size_t n) {
  stp_fatal("%s from node %u: [%p, +%zu) is outside this node's segment [%p, +%" PRIuPTR ")", what, (unsigned)from, addr,
            n, stp.seg[stp.mynode].addr, stp.seg[stp.mynode].size);
}

void stp_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  stp_vreport("warning", fmt, ap);
  va_end(ap);
}

uint64_t stp_env_u64(const char *name, uint64_t dflt) {
  const char *s = getenv(name);
  char *end;
  uint64_t v;
  unsigned shift = 0;
  if (!s || !*s) return dflt;
  while (*s == ' ' || *s == '\t') s++;
  errno = 0;
  v = strtoull(s, &end, 0);
  if (errno == ERANGE || (*s == '-' && v)) stp_fatal("environment: %s=\"%s\" is out of range", name, getenv(name));
  if (errno || end == s || *s == '-') stp_fatal("environment: %s=\"%s\" is not a number", name, getenv(name));
  switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
  }
  if (*end) stp_fatal("environment: %s=\"%s\" has trailing characters", name, getenv(name));
  if (v > (UINT64_MAX >> shift)) stp_fatal("environment: %s=\"%s\" is too large", name, getenv(name));
  return v << shift;
}

static void setting_show(char *buf, size_t len, const stp_setting_t *s, uint64_t v) {
  size_t i = 0;
  if (s->labels)
    for (; s->labels[i] && i < v; i++) {
    }
  if (s->labels && s->labels[i]) snprintf(buf, len, "%s", s->labels[i]);
  else snprintf(buf, len, "%" PRIu64, v);
}

void stp_settings_agree(const char *who, const stp_setting_t *set, int n) {
  uint64_t *mine = calloc((size_t)n, sizeof(*mine)), *all = calloc((size_t)n * stp.nodes, sizeof(*all));
  if (n <= 0 || !mine || !all) stp_fatal("%s: out of memory", who);
  for (int i = 0; i < n; i++) mine[i] = set[i].value;
  stp.boot.allgather(stp.boot.ctx, mine, all, (size_t)n * sizeof(*mine));
  for (int i = 0; i < n; i++)
    for (gex_Rank_t p = 0; p < stp.nodes; p++) {
      uint64_t v0 = all[i], vp = all[(size_t)p * (size_t)n + (size_t)i];
      char a[32], b[32];
      if (vp == v0) continue;
      setting_show(a, sizeof(a), &set[i], v0);
      setting_show(b, sizeof(b), &set[i], vp);
      stp_fatal("%s: %s differs between nodes (node 0: %s, node %u: %s); every node must run with the same "
                "setting (mpirun -x %s, or gasnetrun_<stage>, which passes it)",
                who, set[i].name, a, (unsigned)p, b, set[i].name);
    }
  free(mine);
  free(all);
}

/* ------------------------------------------------------------------ */
/* handler invocation                                                  */
/* ------------------------------------------------------------------ */
typedef gex_AM_Arg_t A;
typedef gex_Token_t T;

#define STP_A0
#define STP_A1 , a[0]
#define STP_A2 STP_A1, a[1]
#define STP_A3 STP_A2, a[2]
#define STP_A4 STP_A3, a[3]
#define STP_A5 STP_A4, a[4]
#define STP_A6 STP_A5, a[5]
#define STP_A7 STP_A6, a[6]
#define STP_A8 STP_A7, a[7]
#define STP_A9 STP_A8, a[8]
#define STP_A10 STP_A9, a[9]
#define STP_A11 STP_A10, a[10]
#define STP_A12 STP_A11, a[11]
#define STP_A13 STP_A12, a[12]
#define STP_A14 STP_A13, a[13]
#define STP_A15 STP_A14, a[14]
#define STP_A16 STP_A15, a[15]
#define STP_T0
#define STP_T1 , A
#define STP_T2 STP_T1, A
#define STP_T3 STP_T2, A
#define STP_T4 STP_T3, A
#define STP_T5 STP_T4, A
#define STP_T6 STP_T5, A
#define STP_T7 STP_T6, A
#define STP_T8 STP_T7, A
#define STP_T9 STP_T8, A
#define STP_T10 STP_T9, A
#define STP_T11 STP_T10, A
#define STP_T12 STP_T11, A
#define STP_T13 STP_T12, A
#define STP_T14 STP_T13, A
#define STP_T15 STP_T14, A
#define STP_T16 STP_T15, A

#define STP_SHORT_CASE(n) \
  case n: ((void (*)(T STP_T##n))fn)(tok STP_A##n); break;
#define STP_PAYLOAD_CASE(n) \
  case n: ((void (*)(T, void *, size_t STP_T##n))fn)(tok, buf, nbytes STP_A##n); break;
#define STP_ALL_CASES(X) \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16)

static const char *const cat_name[] = {"Short", "Medium", "Long"};

#if STP_CHECKS
/* An invocation that breaks its handler's registration: undefined in the
 * description; reported here, naming the handler. */
static void check_registration(const stp_handler_t *h, const stp_token_t *t, gex_AM_Index_t handler, int cat,
                               int nargs) {
  static const gex_Flags_t cat_flag[] = {GEX_FLAG_AM_SHORT, GEX_FLAG_AM_MEDIUM, GEX_FLAG_AM_LONG};
  const gex_AM_Entry_t *e = &h->entry;
  const char *why = NULL;
  if (!(e->gex_flags & cat_flag[cat])) why = "its category";
  else if (!(e->gex_flags & (t->is_request ? GEX_FLAG_AM_REQUEST : GEX_FLAG_AM_REPLY))) why = "request or reply";
  else if ((unsigned)nargs != e->gex_nargs) why = "its argument count";
  if (why)
    stp_fatal("an AM %s %s from node %u with %d arguments invokes handler %u%s%s%s, registered as %s %s with %u "
              "arguments: %s differs",
              cat_name[cat], t->is_request ? "request" : "reply", (unsigned)t->src, nargs, (unsigned)handler,
              e->gex_name ? " (" : "", e->gex_name ? e->gex_name : "", e->gex_name ? ")" : "",
              (e->gex_flags & GEX_FLAG_AM_MEDLONG) == GEX_FLAG_AM_MEDLONG ? "MEDLONG"
              : (e->gex_flags & GEX_FLAG_AM_SHORT)                        ? "SHORT"
              : (e->gex_flags & GEX_FLAG_AM_MEDIUM)                       ? "MEDIUM"
                                                                           : "LONG",
              (e->gex_flags & GEX_FLAG_AM_REQREP) == GEX_FLAG_AM_REQREP ? "REQREP"
              : (e->gex_flags & GEX_FLAG_AM_REQUEST)                     ? "REQUEST"
                                                                         : "REPLY",
              e->gex_nargs, why);
}
#endif

/* A message naming a handler not registered here: out of stp_am_run's line */
static void __attribute__((noinline, cold)) am_run_unregistered(const stp_token_t *token, gex_AM_Index_t handler,
                                                                  int cat) STP_NORETURN;
static void am_run_unregistered(const stp_token_t *token, gex_AM_Index_t handler, int cat) {
  stp_fatal("AM %s %s from node %u names handler %u, which is not registered on node %u", cat_name[cat],
            token->is_request ? "request" : "reply", (unsigned)token->src, (unsigned)handler, (unsigned)stp.mynode);
}

/* Run fn, registered for handler, on a message (its checks done). */
static inline __attribute__((always_inline)) void am_dispatch(gex_AM_Fn_t fn, stp_token_t *token,
                                                              gex_AM_Index_t handler, int cat, const gex_AM_Arg_t *a,
                                                              int nargs, void *buf, size_t nbytes) {
  /* a 0-byte Medium's payload still at a valid address: a client may reply
   * with it as a client buffer (testam -np-cb), where NULL means
   * GASNet-allocated */
  static uint64_t empty_payload[2] __attribute__((aligned(16)));
  T tok = (T)token;
  token->cat = (uint8_t)cat;
  token->handler = handler;
  stp.in_handler++;
  if (cat == STP_AM_SHORT) {
    switch (nargs) { STP_ALL_CASES(STP_SHORT_CASE) default: stp_fatal("AM with %d arguments", nargs); }
  } else {
    if (cat == STP_AM_MEDIUM && !buf) buf = empty_payload;
    switch (nargs) { STP_ALL_CASES(STP_PAYLOAD_CASE) default: stp_fatal("AM with %d arguments", nargs); }
  }
  stp.in_handler--;
}

/* stp_am_run for a handler not registered, or registered with flags to
 * check (gex_EP_RegisterHandlers), out of the hot path's line */
static void __attribute__((noinline)) am_run_checked(stp_token_t *token, gex_AM_Index_t handler, int cat,
                                                     const gex_AM_Arg_t *a, int nargs, void *buf, size_t nbytes) {
  const stp_handler_t *h = &stp.handler[handler];
  if (!h->fn) am_run_unregistered(token, handler, cat);
#if STP_CHECKS
  check_registration(h, token, handler, cat, nargs);
#endif
  am_dispatch(h->fn, token, handler, cat, a, nargs, buf, nbytes);
}

void stp_am_run(stp_token_t *token, gex_AM_Index_t handler, int cat, const gex_AM_Arg_t *a, int nargs, void *buf,
                size_t nbytes) {
  const stp_handler_t *h = &stp.handler[handler];
#if STP_CHECKS
  if (STP_UNLIKELY(!h->fn || h->entry.gex_flags)) {
#else
  if (STP_UNLIKELY(!h->fn)) {
#endif
    am_run_checked(token, handler, cat, a, nargs, buf, nbytes);
    return;
  }
  am_dispatch(h->fn, token, handler, cat, a, nargs, buf, nbytes);
}
