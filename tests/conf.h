/*
 * conf.h -- shared declarations of the conformance test (conformance.c,
 * conf_am.c, conf_xfer.c, conf_barrier.c).
 *
 * Only the GASNet-1 API (gasnet.h) is used, so the binary also builds
 * against a real GASNet-1 for comparison.
 *
 * Segment layout on every node (all offsets page aligned):
 *
 *   [0, CTRL_SIZE)                    control area: small per-node slots
 *   AREA(node, src) = base + CTRL_SIZE + src * AREA_SIZE
 *                                     written only by node `src`; the first
 *                                     HALF is the destination of requests and
 *                                     puts, the second HALF the destination of
 *                                     Long replies and node-local scratch.
 */
#ifndef CONF_H
#define CONF_H

#include <gasnet.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CTRL_SIZE ((uintptr_t)64 * 1024)
#define AREA_SIZE ((uintptr_t)4 << 20)
#define HALF (AREA_SIZE / 2)

#define SEGBASE(node) ((uint8_t *)conf_seg[node].addr)
#define CTRL(node) SEGBASE(node)
#define AREA(node, src) (SEGBASE(node) + CTRL_SIZE + (uintptr_t)(src)*AREA_SIZE)
/* node-local scratch inside my own segment: the second half of the area
 * for my own writes (only Long replies from myself land there) */
#define MYSCRATCH (AREA(conf_me, conf_me) + HALF)
/* a part of the control area no message ever targets (node-local use) */
#define CTRL_SCRATCH(node) (CTRL(node) + 16 * 1024)
#define CTRL_SCRATCH_SIZE (CTRL_SIZE - 16 * 1024)

/* control area slots (offsets into CTRL) */
#define CTRL_SLOT_BYTES 256 /* per node; slots use the first 16 KiB: up to 64 nodes */
#define CTRL_SLOT(node, who) (CTRL(node) + (uintptr_t)(who)*CTRL_SLOT_BYTES)

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* the handler function type of the table (the specification writes it
 * void (*)(); gasnet_handlerfn_t is not part of GASNet-1) */
typedef __typeof__(((gasnet_handlerentry_t *)0)->fnptr) conf_handlerfn_t;

/* ------------------------------------------------------------------ */
/* job state (conformance.c)                                           */
/* ------------------------------------------------------------------ */
extern gasnet_node_t conf_me, conf_nodes;
extern gasnet_seginfo_t *conf_seg;
extern const char *conf_cur;   /* name of the running subtest */
extern long conf_fails;        /* failures of the running subtest on this node */

/* Report one failure of the running subtest on this node (printed as
 * "FAIL <subtest>: node N: ..."; the first few per subtest only). */
void conf_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
#define CHECK(cond, ...)                    \
  do {                                      \
    if (!(cond)) conf_fail(__VA_ARGS__);    \
  } while (0)
#define CHECK_RC(call, want)                                                            \
  do {                                                                                  \
    int _rc = (call);                                                                   \
    if (_rc != (want))                                                                  \
      conf_fail("%s returned %d (%s), expected %s (line %d)", #call, _rc,               \
                gasnet_ErrorName(_rc) ? gasnet_ErrorName(_rc) : "?", #want, __LINE__);   \
  } while (0)
#define CHECK_OK(call) CHECK_RC(call, GASNET_OK)

/* Anonymous barrier; a non-OK result is a failure of the running subtest. */
void conf_barrier(void);

/* ------------------------------------------------------------------ */
/* data patterns                                                       */
/* ------------------------------------------------------------------ */
extern uint8_t conf_pat_table[65536];
/* Seeds: mix of small integers (source, target, case, variant...). */
static inline uint32_t conf_seed(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
  uint32_t x = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA6Bu;
  x ^= (c + 0x165667B1u) * 0xC2B2AE35u;
  x ^= (d + 0x27D4EB2Fu) * 0x9E3779B1u;
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 12;
  return x;
}
/* byte i of the pattern named by seed: neighbouring bytes differ, a shift
 * by any amount below 64 KiB is detected, different seeds differ */
static inline uint8_t conf_pat(uint32_t seed, size_t i) {
  return (uint8_t)(conf_pat_table[(i + seed) & 0xFFFF] ^ (uint8_t)(seed >> 24) ^ (uint8_t)(i >> 16));
}
void conf_fill(void *p, size_t n, uint32_t seed);
/* Compare n bytes at p with the pattern; on mismatch report the first bad
 * byte (index, expected, got) and the number of bad bytes.  Returns 1 if ok. */
int conf_check_pat(const void *p, size_t n, uint32_t seed, const char *what, ...)
    __attribute__((format(printf, 4, 5)));
/* Same for a constant byte value. */
int conf_check_byte(const void *p, size_t n, uint8_t val, const char *what, ...)
    __attribute__((format(printf, 4, 5)));
/* Same against an expected buffer. */
int conf_check_mem(const void *got, const void *exp, size_t n, const char *what, ...)
    __attribute__((format(printf, 4, 5)));

/* ------------------------------------------------------------------ */
/* handlers                                                            */
/* ------------------------------------------------------------------ */
/* Index of each client handler in the handler table; after gasnet_attach
 * conf_h(id) is the (possibly assigned) index. */
enum {
  /* argument tests: [category][M] request and reply handlers */
  HID_SHORT_REQ = 0,                 /* 17 */
  HID_MEDIUM_REQ = HID_SHORT_REQ + 17,
  HID_LONG_REQ = HID_MEDIUM_REQ + 17,
  HID_SHORT_REP = HID_LONG_REQ + 17,
  HID_MEDIUM_REP = HID_SHORT_REP + 17,
  HID_LONG_REP = HID_MEDIUM_REP + 17,
  HID_ARGS_END = HID_LONG_REP + 17,
  HID_PING = HID_ARGS_END,  /* Short request, replies Short to HID_PONG */
  HID_PONG,
  HID_COUNT,                /* Medium/Long request (2 args), no reply: counts */
  HID_MED_SIZE_REQ,         /* Medium sizes test */
  HID_MED_SIZE_REP,
  HID_LONG_SIZE_REQ,        /* Long sizes test */
  HID_LONG_SIZE_REP,
  HID_FLOOD_REQ_S,
  HID_FLOOD_REQ_M,
  HID_FLOOD_REQ_L,
  HID_FLOOD_REP,
  HID_SRC_REQ,              /* gasnet_AMGetMsgSource */
  HID_SRC_REP,
  HID_HSL,                  /* HSL from a handler */
  HID_SIGNAL,               /* Short(1 arg), no reply: conf_cnt.signal[arg0]++ */
  HID_BIG_REQ,              /* am_flood_big: Medium/Long request, replies Medium */
  HID_BIG_REP,
  HID_HOL_BIG,              /* am_no_hol: the slow sender's Long, no reply */
  HID_HOL_PING,             /* am_no_hol: Short request, replies HID_HOL_PONG */
  HID_HOL_PONG,
  HID_REUSE_REQ,            /* am_long_reuse: Long request, every byte checked, replies HID_REUSE_REP */
  HID_REUSE_REP,
  /* fixed indices, deliberately placed after the don't-care entries */
  HID_FIXED_FIRST,
  HID_RESULT = HID_FIXED_FIRST, /* subtest result to node 0 (fixed 255) */
  HID_FIXED_128,                /* fixed 128: same fn as HID_SIGNAL */
  HID_FIXED_200,                /* fixed 200: same fn as HID_SIGNAL */
  HID_NUM
};
#define FIXED_RESULT 255
#define FIXED_A 128
#define FIXED_B 200
extern gasnet_handlerentry_t conf_htable[HID_NUM];
#define conf_h(id) (conf_htable[(id)].index)

/* Counters bumped by handlers.  The framework zeroes them before the
 * barrier that starts every subtest (a peer may already send to us while
 * we wait in that barrier), and every subtest waits for all the messages
 * it caused before it ends. */
typedef struct {
  int req[3][17], rep[3][17]; /* args tests: [category][M] */
  int signal[64];             /* HID_SIGNAL and the fixed handlers: [arg0] */
  int count;                  /* HID_COUNT */
  int med_req, med_rep, long_req, long_rep;
  int flood_req, flood_rep;
  int big_req, big_rep;
  int hol_big, hol_ping, hol_pong;
  int reuse_req, reuse_rep;
  uint32_t flood_sum;
  int src_req, src_rep;
  int hsl;
  int pong;
} conf_counters_t;
extern volatile conf_counters_t conf_cnt;
enum { CAT_SHORT = 0, CAT_MEDIUM = 1, CAT_LONG = 2 };

/* ------------------------------------------------------------------ */
/* subtests                                                            */
/* ------------------------------------------------------------------ */
typedef struct {
  const char *name;
  void (*fn)(void);
  const char *about;
} conf_subtest_t;

/* conf_am.c fills in the function pointers of the handlers it owns */
void conf_am_register(gasnet_handlerentry_t *table);

/* the subtests, defined in the files named */
#define CONF_SUBTESTS(X)                                                                                   \
  X(preattach, "conformance.c", "init twice, max segment sizes, getenv before attach")                    \
  X(attach, "conformance.c", "handler table indices (fixed, don't care, deterministic), segment info")    \
  X(nodeinfo, "conformance.c", "gasnet_getNodeInfo vs host names")                                         \
  X(errors, "conformance.c", "gasnet_ErrorName/ErrorDesc for every code")                                 \
  X(getenv, "conformance.c", "gasnet_getenv")                                                              \
  X(hsl, "conformance.c", "handler-safe locks, no-interrupt sections")                                     \
  X(am_limits, "conf_am.c", "AM size limits")                                                              \
  X(am_short_args, "conf_am.c", "Short request/reply with 0..16 args, every node incl. self")             \
  X(am_medium_args, "conf_am.c", "Medium request/reply with 0..16 args")                                  \
  X(am_long_args, "conf_am.c", "Long request/reply with 0..16 args")                                      \
  X(am_longasync_args, "conf_am.c", "LongAsync request with 0..16 args, Long reply")                     \
  X(am_medium_sizes, "conf_am.c", "Medium payload sizes, alignment, sources")                             \
  X(am_medium_crowd, "conf_am.c", "every node sends every node the Medium sizes, round after round: no stall")  \
  X(am_long_sizes, "conf_am.c", "Long/LongAsync payload sizes, unaligned and page-crossing destinations")  \
  X(am_long_reuse, "conf_am.c", "blocking Long sources overwritten on return, between Longs nobody waits for")  \
  X(am_loopback, "conf_am.c", "every AM category to self")                                                 \
  X(am_noreply, "conf_am.c", "request handlers that do not reply")                                         \
  X(am_msgsource, "conf_am.c", "gasnet_AMGetMsgSource in request and reply handlers")                     \
  X(am_poll, "conf_am.c", "gasnet_AMPoll and GASNET_BLOCKUNTIL")                                           \
  X(am_flood, "conf_am.c", "every node floods every other node with replying requests")                   \
  X(am_flood_big, "conf_am.c", "flood of maximum-size Medium and large Long requests with Medium replies")  \
  X(am_no_hol, "conf_am.c", "a large AM whose sender stops polling does not hold up other nodes' AMs")     \
  X(am_credits, "conf_am.c", "AM credits: a flood to a neighbour borrows, a flood to self after it reclaims")    \
  X(am_recv_bytes, "conf_am.c", "stageport_am_recv_bytes: the AM receive memory is reported")                  \
  X(put_blocking, "conf_xfer.c", "gasnet_put: sizes, buffers, every node")                                 \
  X(put_bulk, "conf_xfer.c", "gasnet_put_bulk: sizes, unaligned, page-crossing, every node")               \
  X(put_nb, "conf_xfer.c", "gasnet_put_nb, source reused at once")                                         \
  X(put_nb_bulk, "conf_xfer.c", "gasnet_put_nb_bulk")                                                      \
  X(put_nbi, "conf_xfer.c", "gasnet_put_nbi, source reused at once")                                       \
  X(put_nbi_bulk, "conf_xfer.c", "gasnet_put_nbi_bulk")                                                    \
  X(get_blocking, "conf_xfer.c", "gasnet_get")                                                             \
  X(get_bulk, "conf_xfer.c", "gasnet_get_bulk")                                                            \
  X(get_nb, "conf_xfer.c", "gasnet_get_nb")                                                                \
  X(get_nb_bulk, "conf_xfer.c", "gasnet_get_nb_bulk")                                                      \
  X(get_nbi, "conf_xfer.c", "gasnet_get_nbi")                                                              \
  X(get_nbi_bulk, "conf_xfer.c", "gasnet_get_nbi_bulk")                                                    \
  X(memset_all, "conf_xfer.c", "gasnet_memset, _nb, _nbi")                                                 \
  X(val_put, "conf_xfer.c", "gasnet_put_val, _nb_val, _nbi_val, nbytes 1..8")                             \
  X(val_get, "conf_xfer.c", "gasnet_get_val, gasnet_get_nb_val + wait_syncnb_valget")                     \
  X(sync_nb, "conf_xfer.c", "wait/try_syncnb, _all, _some, _nopoll, invalid handles")                     \
  X(sync_nbi, "conf_xfer.c", "wait/try_syncnbi_gets/puts/all")                                             \
  X(accessregion, "conf_xfer.c", "begin/end_nbi_accessregion")                                             \
  X(nb_many, "conf_xfer.c", "more than 65535 outstanding nb, nbi and access-region operations")           \
  X(xfer_flood, "conf_xfer.c", "every node keeps large puts and gets to every node outstanding at once")    \
  X(seg_edges, "conf_xfer.c", "transfers and Long AMs touching the first and last bytes of a segment")      \
  X(put_reuse, "conf_xfer.c", "non-bulk puts: source overwritten after return")                           \
  X(visibility, "conf_xfer.c", "nbi puts + sync + barrier visible to gets and loads everywhere")          \
  X(oos_reuse, "conf_xfer.c", "out-of-segment memory unmapped (or freed) and mapped again at the same address")  \
  X(barrier_anon, "conf_barrier.c", "anonymous barriers synchronize")                                      \
  X(barrier_named, "conf_barrier.c", "named barriers with matching ids")                                   \
  X(barrier_mismatch, "conf_barrier.c", "different ids: every node gets a mismatch")                       \
  X(barrier_flag_mismatch, "conf_barrier.c", "GASNET_BARRIERFLAG_MISMATCH on one node")                    \
  X(barrier_mixed, "conf_barrier.c", "anonymous on some nodes, named on others")                           \
  X(barrier_wait_differs, "conf_barrier.c", "wait id/flags differ from this node's notify")                \
  X(barrier_try, "conf_barrier.c", "gasnet_barrier_try until ready")                                       \
  X(barrier_many, "conf_barrier.c", "1000 consecutive barriers")                                           \
  X(barrier_split, "conf_barrier.c", "work between notify and wait")                                      \
  X(waitmode, "conformance.c", "gasnet_set_waitmode with AM traffic in every mode (last: changes the mode)")

#define CONF_DECLARE(name, file, about) void conf_test_##name(void);
CONF_SUBTESTS(CONF_DECLARE)
#undef CONF_DECLARE

/* results of what main() did before gasnet_attach (checked by "preattach") */
typedef struct {
  int init_rc, init2_rc;
  uintptr_t max_local, max_global;
  gasnet_node_t nodes_before, me_before;
  int getenv_path_ok;
  uintptr_t segsize_requested;
  int attach_rc;
} conf_preattach_t;
extern conf_preattach_t conf_pre;

/* Every node contributes n <= CTRL_SLOT_BYTES bytes; all[j*n ..] receives
 * node j's (local store + barrier + gasnet_get + barrier). */
void conf_allgather(const void *mine, size_t n, void *all);

/* small helpers */
double conf_now(void);
/* Wait (polling) for a counter written by handlers to reach a value. */
#define CONF_WAIT(cond) GASNET_BLOCKUNTIL(cond)
/* Poll for at least `seconds` (used to delay a node without busy-waiting
 * on memory). */
void conf_poll_for(double seconds);
/* Per-test scratch allocations that are freed by the framework. */
void *conf_malloc(size_t n);
void *conf_malloc_aligned(size_t align, size_t n);

#endif /* CONF_H */
