/*
 * support.c -- the runtime: errors, environment knobs, the operation pool,
 * waiting, and running AM handlers for the Cores.
 */
#include "stp_internal.h"

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
    stp_op_init(&par_thread->iop, STP_OP_IMPLICIT);
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

void stp_fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  stp_vreport("fatal error", fmt, ap);
  va_end(ap);
  stp_abort(1);
}

void stp_bad_address(const char *what, gasnet_node_t from, const void *addr, size_t n) {
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
    for (gasnet_node_t p = 0; p < stp.nodes; p++) {
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
/* operation pool: no malloc per operation after warm-up               */
/* ------------------------------------------------------------------ */
static stp_op_t *op_free_list;
static stp_op_t **op_chunk; /* every chunk of records, in index order */
static uint32_t op_nchunks;
#define OP_CHUNK 256u

stp_op_t *stp_op_alloc(int kind) {
  stp_op_t *op = op_free_list;
  if (STP_UNLIKELY(!op)) {
    stp_op_t *chunk = calloc(OP_CHUNK, sizeof(*chunk));
    stp_op_t **tab = realloc(op_chunk, (op_nchunks + 1) * sizeof(*tab));
    if (!chunk || !tab || op_nchunks >= UINT32_MAX / OP_CHUNK - 1)
      stp_fatal("out of memory allocating operation records (%u in use)", op_nchunks * OP_CHUNK);
    op_chunk = tab;
    op_chunk[op_nchunks] = chunk;
    for (uint32_t i = 0; i < OP_CHUNK; i++) {
      chunk[i].index = op_nchunks * OP_CHUNK + i;
      chunk[i].next = i + 1 < OP_CHUNK ? &chunk[i + 1] : NULL;
    }
    op_nchunks++;
    op = chunk;
  }
  op_free_list = op->next;
  uint32_t index = op->index, gen = op->gen;
  stp_op_init(op, kind);
  op->index = index;
  op->gen = gen;
  return op;
}

void stp_op_free(stp_op_t *op) {
  op->kind = STP_OP_FREE;
  op->gen++; /* every handle to this use is stale now */
  op->next = op_free_list;
  op_free_list = op;
}

stp_op_t *stp_op_lookup(const void *handle) {
  uint64_t h = (uint64_t)(uintptr_t)handle;
  uint32_t index = (uint32_t)h - 1, gen = (uint32_t)(h >> 32);
  stp_op_t *op;
  if (!(uint32_t)h || index / OP_CHUNK >= op_nchunks) return NULL;
  op = &op_chunk[index / OP_CHUNK][index % OP_CHUNK];
  return op->gen == gen && op->kind != STP_OP_FREE ? op : NULL;
}

void stp_op_wait(stp_op_t *op, int which) {
  unsigned spins = 0;
  if (stp_op_test(op, which)) return;
  /* the network's own progress first (an RMA backend's completion events
   * are often already there), then the full poll */
  if (stp.net_poll) {
    stp.net_poll();
    if (stp_op_test(op, which)) return;
  }
  while (!stp_op_test(op, which)) stp_api_wait_step(&spins);
}

/* ------------------------------------------------------------------ */
/* handler invocation                                                  */
/* ------------------------------------------------------------------ */
typedef gasnet_handlerarg_t A;
typedef gasnet_token_t T;

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

void stp_am_run(stp_token_t *token, gasnet_handler_t handler, int cat, const gasnet_handlerarg_t *a, int nargs,
                void *buf, size_t nbytes) {
  stp_handlerfn_t fn = stp.handler[handler];
  T tok = (T)token;
  if (STP_UNLIKELY(!fn))
    stp_fatal("AM %s %s from node %u names handler %u, which is not registered on node %u",
              cat_name[cat], token->is_request ? "request" : "reply", (unsigned)token->src, (unsigned)handler,
              (unsigned)stp.mynode);
  stp.in_handler++;
  if (cat == STP_AM_SHORT) {
    switch (nargs) { STP_ALL_CASES(STP_SHORT_CASE) default: stp_fatal("AM with %d arguments", nargs); }
  } else {
    switch (nargs) { STP_ALL_CASES(STP_PAYLOAD_CASE) default: stp_fatal("AM with %d arguments", nargs); }
  }
  stp.in_handler--;
}
