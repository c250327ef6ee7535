/*
 * conformance.c -- GASNet-1 API conformance test: framework, job control,
 * queries, errors, environment, wait modes, handler-safe locks.
 *
 * Usage: mpirun -np N conformance [SUBTEST...]   (no argument: all subtests)
 *        conformance --help                      (list subtests; no launcher)
 *
 * Each subtest prints "ok <name>" or "FAIL <name>: ..." (summary from node 0,
 * details from the failing node, "FAIL <name>: node N: ...").  The job exits
 * with gasnet_exit(1) on every node if any subtest failed anywhere.
 *
 * Environment: CONF_WATCHDOG=seconds per subtest (default 30; 0 = off),
 * CONF_TIMES=1 prints the time of every subtest, CONF_FLOOD=requests per peer
 * in am_flood, STP_TEST_GETENV (set by run-suite.sh) checked by "getenv".
 */
#define _GNU_SOURCE 1
#include "conf.h"
#include "pmpi_count.h"

#if defined(__has_include)
#if __has_include(<stageport.h>)
#include <stageport.h>
#endif
#endif

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <time.h>
#include <unistd.h>

gasnet_node_t conf_me, conf_nodes;
gasnet_seginfo_t *conf_seg;
const char *conf_cur = "startup";
long conf_fails;
volatile conf_counters_t conf_cnt;
gasnet_handlerentry_t conf_htable[HID_NUM];
conf_preattach_t conf_pre;
uint8_t conf_pat_table[65536];

#define STP_TEST_GETENV_VALUE "conformance value with spaces=1:2"

static const conf_subtest_t subtests[] = {
#define CONF_ENTRY(name, file, about) {#name, conf_test_##name, about},
    CONF_SUBTESTS(CONF_ENTRY)
#undef CONF_ENTRY
};
#define NSUBTESTS ((int)ARRAY_LEN(subtests))

/* ------------------------------------------------------------------ */
/* failures, checks, patterns                                          */
/* ------------------------------------------------------------------ */
#define MAX_SHOWN 8

void conf_fail(const char *fmt, ...) {
  va_list ap;
  conf_fails++;
  if (conf_fails > MAX_SHOWN) return;
  printf("FAIL %s: node %u: ", conf_cur, (unsigned)conf_me);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  if (conf_fails == MAX_SHOWN) printf(" (further failures of this subtest on this node not shown)");
  printf("\n");
  fflush(stdout);
}

void conf_fill(void *p, size_t n, uint32_t seed) {
  uint8_t *b = p;
  for (size_t i = 0; i < n; i++) b[i] = conf_pat(seed, i);
}

/* Shared body of the three byte checkers: exp(i) gives the expected byte. */
#define CHECK_BYTES_BODY(EXPECTED)                                                            \
  const uint8_t *g = p;                                                                       \
  size_t bad = 0, first = 0;                                                                  \
  for (size_t i = 0; i < n; i++)                                                              \
    if (g[i] != (EXPECTED)) {                                                                 \
      if (!bad++) first = i;                                                                  \
    }                                                                                         \
  if (!bad) return 1;                                                                         \
  {                                                                                           \
    char what[256];                                                                           \
    va_list ap;                                                                               \
    size_t i = first; /* EXPECTED may use i */                                                \
    (void)i;                                                                                  \
    va_start(ap, fmt);                                                                        \
    vsnprintf(what, sizeof(what), fmt, ap);                                                   \
    va_end(ap);                                                                               \
    conf_fail("%s: byte %zu of %zu: expected 0x%02x, got 0x%02x (%zu bad bytes)", what, first, \
              n, (unsigned)(EXPECTED), (unsigned)g[first], bad);                              \
  }                                                                                           \
  return 0;

int conf_check_pat(const void *p, size_t n, uint32_t seed, const char *fmt, ...) {
  CHECK_BYTES_BODY(conf_pat(seed, i))
}
int conf_check_byte(const void *p, size_t n, uint8_t val, const char *fmt, ...) {
  CHECK_BYTES_BODY(val)
}
int conf_check_mem(const void *p, const void *exp, size_t n, const char *fmt, ...) {
  const uint8_t *e = exp;
  CHECK_BYTES_BODY(e[i])
}

double conf_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void conf_poll_for(double seconds) {
  double end = conf_now() + seconds;
  while (conf_now() < end) {
    gasnet_AMPoll();
    sched_yield();
  }
}

/* allocations freed after each subtest */
static void *allocs[64];
static int nallocs;
static void *track(void *p, size_t n) {
  if (!p) {
    fprintf(stderr, "conformance: node %u: out of memory (%zu bytes)\n", (unsigned)conf_me, n);
    gasnet_exit(3);
  }
  if (nallocs == (int)ARRAY_LEN(allocs)) {
    fprintf(stderr, "conformance: too many allocations in one subtest\n");
    gasnet_exit(3);
  }
  allocs[nallocs++] = p;
  return p;
}
void *conf_malloc(size_t n) { return track(malloc(n ? n : 1), n); }
void *conf_malloc_aligned(size_t align, size_t n) {
  void *p = NULL;
  if (posix_memalign(&p, align, n ? n : 1)) p = NULL;
  return track(p, n);
}
static void free_allocs(void) {
  while (nallocs) free(allocs[--nallocs]);
}

void conf_barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  int rc = gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
  if (rc != GASNET_OK) conf_fail("anonymous barrier returned %d (%s)", rc, gasnet_ErrorName(rc));
}

void conf_allgather(const void *mine, size_t n, void *all) {
  memcpy(CTRL_SLOT(conf_me, conf_me), mine, n);
  conf_barrier();
  for (gasnet_node_t j = 0; j < conf_nodes; j++) gasnet_get_bulk((uint8_t *)all + j * n, j, CTRL_SLOT(j, j), n);
  conf_barrier();
}

/* ------------------------------------------------------------------ */
/* handlers owned by this file                                         */
/* ------------------------------------------------------------------ */
static int res_count[NSUBTESTS + 1];
static long res_fails[NSUBTESTS + 1];
static uint64_t res_nodes[NSUBTESTS + 1];
static volatile int verdict_received = 0, verdict = 0;

/* subtest result (to node 0); idx == -1: final verdict (from node 0) */
static void h_result(gasnet_token_t token, gasnet_handlerarg_t idx, gasnet_handlerarg_t fails) {
  gasnet_node_t src = 0;
  gasnet_AMGetMsgSource(token, &src);
  if (idx < 0) {
    verdict = fails;
    verdict_received = 1;
    return;
  }
  if (idx >= NSUBTESTS) return;
  res_count[idx]++;
  res_fails[idx] += fails;
  if (fails && src < 64) res_nodes[idx] |= (uint64_t)1 << src;
}

static void h_signal(gasnet_token_t token, gasnet_handlerarg_t which) {
  (void)token;
  if (which >= 0 && which < (gasnet_handlerarg_t)ARRAY_LEN(conf_cnt.signal)) conf_cnt.signal[which]++;
}

static void h_ping(gasnet_token_t token, gasnet_handlerarg_t a) {
  CHECK_OK(gasnet_AMReplyShort1(token, conf_h(HID_PONG), a ^ 0x5A5A5A5A));
}
static void h_pong(gasnet_token_t token, gasnet_handlerarg_t a) {
  gasnet_node_t src = 0;
  CHECK_OK(gasnet_AMGetMsgSource(token, &src));
  CHECK(a == (gasnet_handlerarg_t)(src ^ 0x5A5A5A5A), "pong from node %u carries %d", (unsigned)src, (int)a);
  conf_cnt.pong++;
}

static gasnet_hsl_t hsl_static = GASNET_HSL_INITIALIZER;
static gasnet_hsl_t *hsl_dyn;
static void h_hsl(gasnet_token_t token) {
  (void)token;
  gasnet_hold_interrupts(); /* ignored inside a handler */
  gasnet_resume_interrupts();
  gasnet_hsl_lock(&hsl_static);
  conf_cnt.hsl++;
  CHECK_OK(gasnet_hsl_trylock(hsl_dyn));
  gasnet_hsl_unlock(hsl_dyn);
  gasnet_hsl_unlock(&hsl_static);
}

static void build_table(void) {
  memset(conf_htable, 0, sizeof(conf_htable));
  conf_am_register(conf_htable);
  conf_htable[HID_PING].fnptr = (conf_handlerfn_t)h_ping;
  conf_htable[HID_PONG].fnptr = (conf_handlerfn_t)h_pong;
  conf_htable[HID_SIGNAL].fnptr = (conf_handlerfn_t)h_signal;
  conf_htable[HID_HSL].fnptr = (conf_handlerfn_t)h_hsl;
  conf_htable[HID_RESULT].fnptr = (conf_handlerfn_t)h_result;
  conf_htable[HID_RESULT].index = FIXED_RESULT;
  conf_htable[HID_FIXED_128].fnptr = (conf_handlerfn_t)h_signal;
  conf_htable[HID_FIXED_128].index = FIXED_A;
  conf_htable[HID_FIXED_200].fnptr = (conf_handlerfn_t)h_signal;
  conf_htable[HID_FIXED_200].index = FIXED_B;
  for (int i = 0; i < HID_NUM; i++)
    if (!conf_htable[i].fnptr) {
      fprintf(stderr, "conformance: internal error: handler %d has no function\n", i);
      exit(3);
    }
}

/* send a Short to every node on handler id with arg, wait until each node
 * counted it (every node calls this: each receives `nodes` signals) */
static void signal_all_and_wait(int hid, int which) {
  for (gasnet_node_t t = 0; t < conf_nodes; t++) CHECK_OK(gasnet_AMRequestShort1(t, conf_h(hid), which));
  CONF_WAIT(conf_cnt.signal[which] >= (int)conf_nodes);
  CHECK(conf_cnt.signal[which] == (int)conf_nodes, "handler %d (index %d) ran %d times, expected %u", hid,
        conf_h(hid), conf_cnt.signal[which], (unsigned)conf_nodes);
}

static void ping_all(void) {
  int before = conf_cnt.pong;
  for (gasnet_node_t t = 0; t < conf_nodes; t++) CHECK_OK(gasnet_AMRequestShort1(t, conf_h(HID_PING), t));
  CONF_WAIT(conf_cnt.pong == before + (int)conf_nodes);
}

/* ------------------------------------------------------------------ */
/* subtests: job control and queries                                   */
/* ------------------------------------------------------------------ */
void conf_test_preattach(void) {
  CHECK(conf_pre.init_rc == GASNET_OK, "gasnet_init returned %d", conf_pre.init_rc);
  CHECK(conf_pre.init2_rc != GASNET_OK, "second gasnet_init returned GASNET_OK (must return an error)");
  CHECK(conf_pre.me_before == conf_me && conf_pre.nodes_before == conf_nodes,
        "before attach mynode/nodes = %u/%u, after %u/%u", (unsigned)conf_pre.me_before,
        (unsigned)conf_pre.nodes_before, (unsigned)conf_me, (unsigned)conf_nodes);
  CHECK(conf_nodes >= 1 && conf_me < conf_nodes, "mynode %u not below nodes %u", (unsigned)conf_me,
        (unsigned)conf_nodes);
  const char *np = getenv("OMPI_COMM_WORLD_SIZE");
  if (np) CHECK((unsigned)atoi(np) == conf_nodes, "gasnet_nodes() = %u but the launcher started %s", (unsigned)conf_nodes, np);
  CHECK(conf_pre.max_local > 0 && conf_pre.max_local % GASNET_PAGESIZE == 0,
        "gasnet_getMaxLocalSegmentSize() = %ju: not a positive multiple of GASNET_PAGESIZE",
        (uintmax_t)conf_pre.max_local);
  CHECK(conf_pre.max_global > 0 && conf_pre.max_global % GASNET_PAGESIZE == 0,
        "gasnet_getMaxGlobalSegmentSize() = %ju: not a positive multiple of GASNET_PAGESIZE",
        (uintmax_t)conf_pre.max_global);
  CHECK(conf_pre.max_global <= conf_pre.max_local, "max global segment %ju > max local %ju",
        (uintmax_t)conf_pre.max_global, (uintmax_t)conf_pre.max_local);
  CHECK(conf_pre.getenv_path_ok, "gasnet_getenv(\"PATH\") before attach differs from getenv");
  /* the global maximum is the minimum of the local ones: same everywhere,
   * and no node's local maximum is below it */
  uintptr_t mine[2] = {conf_pre.max_local, conf_pre.max_global};
  uintptr_t *all = conf_malloc(sizeof(mine) * conf_nodes);
  conf_allgather(mine, sizeof(mine), all);
  uintptr_t minlocal = UINTPTR_MAX;
  for (gasnet_node_t j = 0; j < conf_nodes; j++) {
    CHECK(all[2 * j + 1] == conf_pre.max_global, "node %u reports max global segment %ju, this node %ju",
          (unsigned)j, (uintmax_t)all[2 * j + 1], (uintmax_t)conf_pre.max_global);
    if (all[2 * j] < minlocal) minlocal = all[2 * j];
  }
  CHECK(minlocal == conf_pre.max_global, "max global segment %ju is not the minimum of the local maxima (%ju)",
        (uintmax_t)conf_pre.max_global, (uintmax_t)minlocal);
}

void conf_test_attach(void) {
  CHECK(conf_pre.attach_rc == GASNET_OK, "gasnet_attach returned %d", conf_pre.attach_rc);
  /* handler indices: client range, distinct, fixed ones kept */
  int seen[256] = {0};
  for (int i = 0; i < HID_NUM; i++) {
    int idx = conf_htable[i].index;
    CHECK(idx >= 128 && idx <= 255, "handler table entry %d got index %d, outside 128..255", i, idx);
    CHECK(!seen[idx], "handler index %d assigned to entries %d and %d", idx, seen[idx] - 1, i);
    seen[idx] = i + 1;
  }
  CHECK(conf_h(HID_RESULT) == FIXED_RESULT && conf_h(HID_FIXED_128) == FIXED_A && conf_h(HID_FIXED_200) == FIXED_B,
        "fixed handler indices changed by attach: %d %d %d", conf_h(HID_RESULT), conf_h(HID_FIXED_128),
        conf_h(HID_FIXED_200));
  /* the same table gives the same assignment on every node */
  uint8_t mine[HID_NUM], *all = conf_malloc((size_t)HID_NUM * conf_nodes);
  for (int i = 0; i < HID_NUM; i++) mine[i] = conf_htable[i].index;
  conf_allgather(mine, sizeof(mine), all);
  for (gasnet_node_t j = 0; j < conf_nodes; j++)
    conf_check_mem(all + (size_t)j * HID_NUM, mine, HID_NUM, "handler indices assigned on node %u vs this node",
                   (unsigned)j);
  /* fixed indices reach the right function */
  signal_all_and_wait(HID_FIXED_128, 1);
  signal_all_and_wait(HID_FIXED_200, 2);
  signal_all_and_wait(HID_SIGNAL, 3);

  /* segment table */
  gasnet_seginfo_t *tab = conf_malloc(sizeof(*tab) * (conf_nodes + 1));
  memset(tab, 0xA5, sizeof(*tab) * (conf_nodes + 1));
  CHECK_OK(gasnet_getSegmentInfo(tab, (int)conf_nodes + 1));
  gasnet_seginfo_t sentinel;
  memset(&sentinel, 0xA5, sizeof(sentinel));
  CHECK(!memcmp(&tab[conf_nodes], &sentinel, sizeof(sentinel)), "getSegmentInfo wrote entry %u beyond gasnet_nodes()",
        (unsigned)conf_nodes);
  for (gasnet_node_t j = 0; j < conf_nodes; j++) {
    CHECK(tab[j].addr != NULL && (uintptr_t)tab[j].addr % GASNET_PAGESIZE == 0,
          "segment of node %u at %p: not GASNET_PAGESIZE aligned", (unsigned)j, tab[j].addr);
    CHECK(tab[j].size % GASNET_PAGESIZE == 0, "segment size of node %u = %ju: not a multiple of GASNET_PAGESIZE",
          (unsigned)j, (uintmax_t)tab[j].size);
    if (conf_pre.segsize_requested <= conf_pre.max_global)
      CHECK(tab[j].size >= conf_pre.segsize_requested, "segment of node %u has %ju bytes, %ju requested (max %ju)",
            (unsigned)j, (uintmax_t)tab[j].size, (uintmax_t)conf_pre.segsize_requested,
            (uintmax_t)conf_pre.max_global);
    CHECK(tab[j].addr == conf_seg[j].addr && tab[j].size == conf_seg[j].size,
          "two calls of getSegmentInfo disagree on node %u", (unsigned)j);
  }
  /* fewer entries than nodes: the rest untouched */
  if (conf_nodes > 1) {
    memset(tab, 0xA5, sizeof(*tab) * 2);
    CHECK_OK(gasnet_getSegmentInfo(tab, 1));
    CHECK(tab[0].addr == conf_seg[0].addr && tab[0].size == conf_seg[0].size, "getSegmentInfo(t, 1): wrong entry 0");
    CHECK(!memcmp(&tab[1], &sentinel, sizeof(sentinel)), "getSegmentInfo(t, 1) wrote entry 1");
  }
  /* every node's view of node j equals node j's own view */
  gasnet_seginfo_t *views = conf_malloc(sizeof(*views) * conf_nodes);
  conf_allgather(&conf_seg[conf_me], sizeof(gasnet_seginfo_t), views);
  for (gasnet_node_t j = 0; j < conf_nodes; j++)
    CHECK(views[j].addr == conf_seg[j].addr && views[j].size == conf_seg[j].size,
          "node %u says its segment is %p+%ju, this node's table says %p+%ju", (unsigned)j, views[j].addr,
          (uintmax_t)views[j].size, conf_seg[j].addr, (uintmax_t)conf_seg[j].size);
  /* the whole local segment is usable memory */
  uint8_t *base = SEGBASE(conf_me);
  for (uintptr_t off = 0; off < conf_seg[conf_me].size; off += GASNET_PAGESIZE) base[off] = (uint8_t)off;
  base[conf_seg[conf_me].size - 1] = 0x5C;
  CHECK(base[conf_seg[conf_me].size - 1] == 0x5C, "last byte of the segment not writable");
  conf_barrier();
}

void conf_test_nodeinfo(void) {
  gasnet_nodeinfo_t *ni = conf_malloc(sizeof(*ni) * (conf_nodes + 1)), sentinel;
  memset(ni, 0xA5, sizeof(*ni) * (conf_nodes + 1));
  memset(&sentinel, 0xA5, sizeof(sentinel));
  CHECK_OK(gasnet_getNodeInfo(ni, (int)conf_nodes + 1));
  CHECK(!memcmp(&ni[conf_nodes], &sentinel, sizeof(sentinel)), "getNodeInfo wrote entry %u beyond gasnet_nodes()",
        (unsigned)conf_nodes);
  char host[64] = {0}, *hosts = conf_malloc(sizeof(host) * conf_nodes);
  gethostname(host, sizeof(host) - 1);
  conf_allgather(host, sizeof(host), hosts);
  for (gasnet_node_t i = 0; i < conf_nodes; i++) {
    CHECK(ni[i].host < conf_nodes && ni[i].supernode < conf_nodes, "node %u: host %u supernode %u out of range",
          (unsigned)i, (unsigned)ni[i].host, (unsigned)ni[i].supernode);
    for (gasnet_node_t j = 0; j < i; j++) {
      int same_host = !strcmp(hosts + i * sizeof(host), hosts + j * sizeof(host));
      CHECK(same_host == (ni[i].host == ni[j].host),
            "nodes %u and %u: host names \"%s\"/\"%s\" but nodeinfo host %u/%u", (unsigned)j, (unsigned)i,
            hosts + j * sizeof(host), hosts + i * sizeof(host), (unsigned)ni[j].host, (unsigned)ni[i].host);
    }
  }
  if (conf_nodes > 1) {
    gasnet_nodeinfo_t two[2];
    memset(two, 0xA5, sizeof(two));
    CHECK_OK(gasnet_getNodeInfo(two, 1));
    CHECK(!memcmp(&two[0], &ni[0], sizeof(two[0])), "getNodeInfo(t, 1): entry 0 differs");
    CHECK(!memcmp(&two[1], &sentinel, sizeof(sentinel)), "getNodeInfo(t, 1) wrote entry 1");
  }
}

void conf_test_errors(void) {
  static const struct {
    int code;
    const char *name;
  } codes[] = {
      {GASNET_OK, "OK"},
      {GASNET_ERR_RESOURCE, "ERR_RESOURCE"},
      {GASNET_ERR_BAD_ARG, "ERR_BAD_ARG"},
      {GASNET_ERR_NOT_INIT, "ERR_NOT_INIT"},
      {GASNET_ERR_BARRIER_MISMATCH, "ERR_BARRIER_MISMATCH"},
      {GASNET_ERR_NOT_READY, "ERR_NOT_READY"},
  };
  for (size_t i = 0; i < ARRAY_LEN(codes); i++) {
    const char *n = gasnet_ErrorName(codes[i].code), *d = gasnet_ErrorDesc(codes[i].code);
    CHECK(n && strstr(n, codes[i].name), "gasnet_ErrorName(%d) = \"%s\", expected the name GASNET_%s", codes[i].code,
          n ? n : "(null)", codes[i].name);
    CHECK(d && *d, "gasnet_ErrorDesc(%d) is empty", codes[i].code);
    for (size_t j = 0; j < i; j++) {
      CHECK(codes[i].code != codes[j].code, "error codes %s and %s are equal", codes[i].name, codes[j].name);
      const char *d2 = gasnet_ErrorDesc(codes[j].code);
      CHECK(!d || !d2 || strcmp(d, d2), "gasnet_ErrorDesc gives \"%s\" for both %s and %s", d, codes[i].name,
            codes[j].name);
    }
  }
  CHECK(GASNET_OK == 0, "GASNET_OK is %d", GASNET_OK);
  CHECK(gasnet_ErrorName(12345) != NULL && gasnet_ErrorDesc(12345) != NULL, "unknown error code gives NULL");
}

void conf_test_getenv(void) {
  CHECK(gasnet_getenv("STP_TEST_SURELY_UNSET_4711") == NULL, "gasnet_getenv of an unset variable is not NULL");
  const char *p = gasnet_getenv("PATH"), *q = getenv("PATH");
  CHECK(p && q && !strcmp(p, q), "gasnet_getenv(\"PATH\") = \"%s\", getenv = \"%s\"", p ? p : "(null)", q ? q : "(null)");
  const char *v = gasnet_getenv("STP_TEST_GETENV");
  if (v || getenv("STP_TEST_GETENV"))
    CHECK(v && !strcmp(v, STP_TEST_GETENV_VALUE), "gasnet_getenv(\"STP_TEST_GETENV\") = \"%s\", expected \"%s\"",
          v ? v : "(null)", STP_TEST_GETENV_VALUE);
  /* every node sees the same spawning environment */
  char mine[128] = {0}, *all = conf_malloc(sizeof(mine) * conf_nodes);
  snprintf(mine, sizeof(mine), "%s", v ? v : "(unset)");
  conf_allgather(mine, sizeof(mine), all);
  for (gasnet_node_t j = 0; j < conf_nodes; j++)
    CHECK(!strcmp(all + j * sizeof(mine), mine), "node %u sees STP_TEST_GETENV=\"%s\", this node \"%s\"", (unsigned)j,
          all + j * sizeof(mine), mine);
}

void conf_test_waitmode(void) {
  static const int modes[] = {GASNET_WAIT_SPIN, GASNET_WAIT_BLOCK, GASNET_WAIT_SPINBLOCK};
  for (size_t m = 0; m < ARRAY_LEN(modes); m++) {
    CHECK_OK(gasnet_set_waitmode(modes[m]));
    for (int r = 0; r < 20; r++) ping_all();
    conf_barrier();
  }
}

#ifdef STAGEPORT
/* "held by another thread": stageport's HSL is a real mutex, so a helper
 * thread can hold it.  (Under GASNET_SEQ the specification only lets the
 * client thread call GASNet, so this part runs against stageport only.) */
static gasnet_hsl_t *thr_hsl;
static volatile int thr_state;
static void *hsl_holder(void *arg) {
  (void)arg;
  gasnet_hsl_lock(thr_hsl);
  __atomic_store_n(&thr_state, 1, __ATOMIC_SEQ_CST);
  while (__atomic_load_n(&thr_state, __ATOMIC_SEQ_CST) != 2) sched_yield();
  gasnet_hsl_unlock(thr_hsl);
  return NULL;
}
#endif

void conf_test_hsl(void) {
  /* statically initialised */
  gasnet_hsl_lock(&hsl_static);
  gasnet_hsl_unlock(&hsl_static);
  CHECK_OK(gasnet_hsl_trylock(&hsl_static));
  gasnet_hsl_unlock(&hsl_static);
  /* dynamically initialised, nested in the right order, destroyed */
  gasnet_hsl_t *h = conf_malloc(sizeof(*h));
  gasnet_hsl_init(h);
  gasnet_hsl_lock(&hsl_static);
  gasnet_hsl_lock(h);
  gasnet_hsl_unlock(h);
  gasnet_hsl_unlock(&hsl_static);
  CHECK_OK(gasnet_hsl_trylock(h));
  gasnet_hsl_unlock(h);
#ifdef STAGEPORT
  pthread_t th;
  thr_hsl = h;
  thr_state = 0;
  CHECK(pthread_create(&th, NULL, hsl_holder, NULL) == 0, "pthread_create failed");
  while (__atomic_load_n(&thr_state, __ATOMIC_SEQ_CST) != 1) {
    gasnet_AMPoll();
    sched_yield();
  }
  CHECK_RC(gasnet_hsl_trylock(h), GASNET_ERR_NOT_READY);
  __atomic_store_n(&thr_state, 2, __ATOMIC_SEQ_CST);
  pthread_join(th, NULL);
  CHECK_OK(gasnet_hsl_trylock(h));
  gasnet_hsl_unlock(h);
#endif
  gasnet_hsl_destroy(h);
  /* handlers take the locks; the client reads the counter under the lock
   * and inside a no-interrupt section */
  const int K = 50;
  for (int k = 0; k < K; k++)
    for (gasnet_node_t t = 0; t < conf_nodes; t++) CHECK_OK(gasnet_AMRequestShort0(t, conf_h(HID_HSL)));
  for (;;) {
    gasnet_hold_interrupts();
    gasnet_hsl_lock(&hsl_static);
    int c = conf_cnt.hsl;
    gasnet_hsl_unlock(&hsl_static);
    gasnet_resume_interrupts();
    if (c >= K * (int)conf_nodes) {
      CHECK(c == K * (int)conf_nodes, "HSL handler ran %d times, expected %d", c, K * (int)conf_nodes);
      break;
    }
    gasnet_AMPoll();
  }
}

/* ------------------------------------------------------------------ */
/* framework                                                           */
/* ------------------------------------------------------------------ */
static char watchdog_msg[256];
static size_t watchdog_len;
static void watchdog(int sig) {
  (void)sig;
  if (write(1, watchdog_msg, watchdog_len) < 0) _exit(4);
  _exit(4);
}

static void usage(FILE *f) {
  fprintf(f, "usage: mpirun -np N conformance [SUBTEST...]\nsubtests (run in this order):\n");
  for (int i = 0; i < NSUBTESTS; i++) fprintf(f, "  %-24s %s\n", subtests[i].name, subtests[i].about);
}

int main(int argc, char **argv) {
  /* --help before gasnet_init so it works without a launcher */
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h") || !strcmp(argv[i], "--list")) {
      usage(stdout);
      return 0;
    }

  conf_pre.init_rc = gasnet_init(&argc, &argv);
  if (conf_pre.init_rc != GASNET_OK) {
    fprintf(stderr, "conformance: gasnet_init failed: %d\n", conf_pre.init_rc);
    return 1;
  }
#ifdef STAGEPORT
  /* spec 2.1.1: a second call returns an error.  (GASNet-EX, whose legacy
   * API this test can also be built against, makes it a fatal error.) */
  conf_pre.init2_rc = gasnet_init(&argc, &argv);
#else
  conf_pre.init2_rc = GASNET_ERR_RESOURCE;
#endif
  conf_me = conf_pre.me_before = gasnet_mynode();
  conf_nodes = conf_pre.nodes_before = gasnet_nodes();
  conf_pre.max_local = gasnet_getMaxLocalSegmentSize();
  conf_pre.max_global = gasnet_getMaxGlobalSegmentSize();
  {
    const char *p = gasnet_getenv("PATH"), *q = getenv("PATH");
    conf_pre.getenv_path_ok = p && q && !strcmp(p, q);
  }

  if (conf_nodes > 64) { /* control-area slots and result bitmaps */
    if (conf_me == 0) fprintf(stderr, "conformance: at most 64 nodes\n");
    gasnet_exit(2);
  }

  /* subtest selection */
  char *selected = calloc(NSUBTESTS, 1);
  int nsel = 0;
  for (int i = 1; i < argc; i++) {
    int found = 0;
    for (int j = 0; j < NSUBTESTS; j++)
      if (!strcmp(argv[i], subtests[j].name)) selected[j] = 1, found = 1;
    if (!found) {
      if (conf_me == 0) {
        fprintf(stderr, "conformance: unknown subtest \"%s\"\n", argv[i]);
        usage(stderr);
      }
      gasnet_exit(2);
    }
    nsel++;
  }
  if (!nsel) memset(selected, 1, NSUBTESTS);

  build_table();
  conf_pre.segsize_requested = (CTRL_SIZE + (uintptr_t)conf_nodes * AREA_SIZE + GASNET_PAGESIZE - 1) &
                               ~(uintptr_t)(GASNET_PAGESIZE - 1);
  stp_pmpi_mark("attach"); /* MPI traffic phases (pmpi_count.h; nothing without the counter) */
  conf_pre.attach_rc = gasnet_attach(conf_htable, HID_NUM, conf_pre.segsize_requested, (uintptr_t)1 << 20);
  stp_pmpi_mark("run");
  if (conf_pre.attach_rc != GASNET_OK) {
    printf("FAIL attach: node %u: gasnet_attach returned %d (%s)\n", (unsigned)conf_me, conf_pre.attach_rc,
           gasnet_ErrorName(conf_pre.attach_rc));
    gasnet_exit(1);
  }
  conf_seg = calloc(conf_nodes, sizeof(*conf_seg));
  if (gasnet_getSegmentInfo(conf_seg, (int)conf_nodes) != GASNET_OK) {
    printf("FAIL attach: node %u: gasnet_getSegmentInfo failed\n", (unsigned)conf_me);
    gasnet_exit(1);
  }
  for (gasnet_node_t j = 0; j < conf_nodes; j++)
    if (conf_seg[j].size < conf_pre.segsize_requested) {
      printf("FAIL attach: node %u: segment of node %u has %ju bytes, the tests need %ju (max global %ju)\n",
             (unsigned)conf_me, (unsigned)j, (uintmax_t)conf_seg[j].size, (uintmax_t)conf_pre.segsize_requested,
             (uintmax_t)conf_pre.max_global);
      gasnet_exit(1);
    }
  hsl_dyn = malloc(sizeof(*hsl_dyn));
  gasnet_hsl_init(hsl_dyn);
  for (size_t i = 0; i < sizeof(conf_pat_table); i++) {
    uint32_t x = conf_seed((uint32_t)i, 0x5eed, 1, 2);
    conf_pat_table[i] = (uint8_t)(x ^ (x >> 8) ^ (x >> 16));
  }

  const char *w = getenv("CONF_WATCHDOG");
  int watchdog_secs = w ? atoi(w) : 30;
  const char *times = getenv("CONF_TIMES");
  signal(SIGALRM, watchdog);
  if (conf_me == 0) {
#ifdef STAGEPORT
    printf("# conformance: stage=%s nodes=%u\n", stageport_stage(), (unsigned)conf_nodes);
#else
    printf("# conformance: nodes=%u\n", (unsigned)conf_nodes);
#endif
    fflush(stdout);
  }

  int nfailed = 0, nrun = 0;
  double t_all = conf_now();
  for (int i = 0; i < NSUBTESTS; i++) {
    if (!selected[i]) continue;
    conf_cur = subtests[i].name;
    conf_fails = 0;
    memset((void *)&conf_cnt, 0, sizeof(conf_cnt));
    watchdog_len = (size_t)snprintf(watchdog_msg, sizeof(watchdog_msg),
                                    "FAIL %s: node %u: still running after %d s (hang?); watchdog ends the job\n",
                                    conf_cur, (unsigned)conf_me, watchdog_secs);
    if (watchdog_secs > 0) alarm((unsigned)watchdog_secs);
    conf_barrier();
    double t0 = conf_now();
    subtests[i].fn();
    conf_barrier();
    double dt = conf_now() - t0;
    alarm(0);
    free_allocs();
    fflush(stdout);
    CHECK_OK(gasnet_AMRequestShort2(0, FIXED_RESULT, i, conf_fails > 0x7fffffff ? 0x7fffffff : (int)conf_fails));
    if (conf_me == 0) {
      CONF_WAIT(res_count[i] == (int)conf_nodes);
      nrun++;
      if (res_fails[i]) {
        nfailed++;
        printf("FAIL %s: %ld failure(s) on node(s)", conf_cur, res_fails[i]);
        for (gasnet_node_t j = 0; j < conf_nodes && j < 64; j++)
          if (res_nodes[i] >> j & 1) printf(" %u", (unsigned)j);
        printf("\n");
      } else {
        printf("ok %s\n", conf_cur);
      }
      if (times) printf("# %s: %.3f s\n", conf_cur, dt);
      fflush(stdout);
    }
  }
  conf_cur = "finish";
  if (conf_me == 0) {
    for (gasnet_node_t t = 0; t < conf_nodes; t++) gasnet_AMRequestShort2(t, FIXED_RESULT, -1, nfailed);
    printf("# conformance: %d subtests, %d failed, %.2f s\n", nrun, nfailed, conf_now() - t_all);
    fflush(stdout);
  }
  CONF_WAIT(verdict_received);
  conf_barrier();
  /* Every node enters the exit phase before any node exits: a node that
   * left the barrier first and exited at once could end a slower one from
   * inside the barrier (adopting its exit notice), its exit counted as
   * run-phase MPI traffic (seen under ASan, ucx stage, 4 processes). */
  stp_pmpi_mark("exit");
  conf_barrier();
  gasnet_exit(verdict || conf_fails ? 1 : 0);
  return 0;
}
