/*
 * stress.c -- seeded random multi-process stress test of the GASNet-1 API.
 *
 * Usage: mpirun -np N stress [--seed N] [--ops N | --seconds S]
 *                            [--sizes-max BYTES] [--timeout S] [-v]
 *        stress --help      (no launcher needed)
 *
 * Every node runs a random mix (its stream derived from the seed and its
 * node id) of every Put/Get flavour, every synchronization call family and
 * every Active Message category, and checks the result of every one of
 * them byte by byte.  Success: node 0 prints exactly one line
 *     ok stress: nodes=N ops=N bytes=N ams=N seed=N (T s)
 * Failure: the failing node prints "FAIL stress: node N: <what>" lines (with
 * offsets, expected and actual bytes) and the job ends with gasnet_exit(1).
 * Only gasnet.h is used (stageport.h only when it exists), so the binary
 * also builds against a real GASNet-1.
 *
 * Ownership (what makes verification exact under concurrency)
 * -----------------------------------------------------------
 * Segment of every node (identical layout everywhere, see layout()):
 *
 *   [CTRL]   count announcements and totals, written by Puts at the end
 *   [DIGEST] hashes of this node's shadows, published at phase ends
 *   [LPOOL]  in-segment local buffers of this node's Puts/Gets
 *   [AMSRC]  in-segment source of this node's AM requests
 *   [REPSRC] in-segment source of this node's AM replies
 *   [SLICE 0] ... [SLICE nodes-1]
 *
 * SLICE i of node t is written only by node i:
 *   PA  Puts, memsets and value Puts of node i; node i keeps a shadow copy
 *       of PA for every target t and checks every Get against it
 *   LA  landing area of node i's Long requests to t (checked in place by
 *       t's handler); node i reuses it only after t has run every handler
 *   RA  on node t, the landing area of node i's Long *replies* to t: node t
 *       picks the offset (an AM argument) and reuses it only after every
 *       Long reply it asked node i for has arrived
 * Within one batch of non-blocking operations no two outstanding
 * operations on the same target overlap when one of them writes, so the
 * shadow is exact at every completion.  Other writers' slices are read only
 * between two barriers of a phase end, after every owner published the
 * hashes of its shadows (DIGEST); the reads are checked against those.
 *
 * Active Messages
 * ---------------
 * A request with M >= 1 arguments is "keyed": a0 carries a sequence number
 * (plus a 7-bit check), every other argument and the payload are derived
 * from (source, destination, sequence), so the handler recomputes and
 * checks all of them, and the payload size too.  With M >= 2, a1 carries
 * the reply plan (category, argument count, Long reply offset); with M == 1
 * the plan is derived from the key.  A Long request with M >= 3 carries its
 * landing offset in a2, so the handler checks where the payload landed.  A
 * request with M == 0 is "anonymous": its payload pattern is derived from
 * (source, destination, category, size), and so is its reply plan (none, or
 * a Short or Medium reply without arguments).  Replies with arguments echo
 * the key and are matched with the requester's table of outstanding
 * requests (category, argument count, size, Long landing address, every
 * argument, payload); replies without arguments carry an anonymous pattern.
 * LongAsync requests always ask for a reply with arguments; that reply's
 * handler checks the source buffer untouched and releases it.  Handlers
 * never block and never send anything but their one reply.
 *
 * Run
 * ---
 * NPHASES phases of random operations: about 30% AM requests, the rest
 * Puts/Gets in batches of up to 48 (an access region in a third of them),
 * each batch completed by a random explicit and a random implicit
 * synchronization family, with a few try calls in between.  Sizes run
 * from 1 byte to --sizes-max; bulk transfers and memsets use any byte
 * offset, the non-bulk ("aligned data") Puts and Gets 8-byte aligned
 * addresses, value operations natural alignment; local buffers are in the
 * segment or malloc'd, at random.  Each phase ends with every operation
 * and reply complete, the digests published, a named barrier, reads of
 * other writers' slices, and another named barrier.  Then every node reads
 * all of its slices back, and the counts of requests and replies sent (per
 * peer and category, plus a sum over the sequence numbers) are exchanged
 * through Puts and compared with what every node received.
 */
#define _GNU_SOURCE 1
#include <gasnet.h>

#if defined(__has_include)
#if __has_include(<stageport.h>)
#include <stageport.h>
#endif
#endif

#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "am_arglists.h"

#define KIB ((size_t)1024)
#define MIB (KIB * 1024)
#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

#define DEFAULT_SEED 12345
#define DEFAULT_OPS 50000
#define DEFAULT_SIZES_MAX (4 * MIB)
#define DEFAULT_TIMEOUT 120.0
#define NPHASES 4

static const char usage_text[] =
    "usage: mpirun -np N stress [--seed N] [--ops N | --seconds S] [--sizes-max BYTES]\n"
    "                           [--timeout S] [-v]\n"
    "  --seed N            random seed (default 12345); node i's stream is derived from N and i\n"
    "  --ops N             operations per node (default 50000), in 4 phases\n"
    "  --seconds S         run for S seconds instead of a number of operations\n"
    "  --sizes-max BYTES   largest Put/Get size (default 4194304; K/M suffixes); also caps AM payloads\n"
    "  --timeout S         a bounded wait or a blocking call that makes no progress for S seconds\n"
    "                      is a failure (default 120)\n"
    "  -v                  print the layout, the maxima and what was exercised (lines start with #)\n"
    "Prints \"ok stress: nodes=... ops=... bytes=... ams=... seed=... (T s)\" from node 0 when every\n"
    "check passed, else \"FAIL stress: node N: ...\" lines, and exits with code 1.\n";

/* ------------------------------------------------------------------ */
/* options, job state, failures                                        */
/* ------------------------------------------------------------------ */
static struct {
  uint64_t seed;
  long ops;
  double seconds;
  size_t sizes_max;
  double timeout;
  int verbose;
} opt = {DEFAULT_SEED, DEFAULT_OPS, 0, DEFAULT_SIZES_MAX, DEFAULT_TIMEOUT, 0};

static gasnet_node_t me, nnodes;
static gasnet_seginfo_t *seg;
static uint64_t salt; /* mixed into every derived key: differs with the seed */

#define MAX_SHOWN 20
static long nfails;

static void vfail(const char *fmt, va_list ap) {
  nfails++;
  if (nfails > MAX_SHOWN) return;
  printf("FAIL stress: node %u: ", (unsigned)me);
  vprintf(fmt, ap);
  if (nfails == MAX_SHOWN) printf(" (further failures on this node not shown)");
  printf("\n");
  fflush(stdout);
}
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfail(fmt, ap);
  va_end(ap);
}
/* a failure after which the run cannot go on (timeouts, lost state) */
static void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  nfails = 0; /* always shown */
  vfail(fmt, ap);
  va_end(ap);
  gasnet_exit(1);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Watchdog: a backstop for blocking library calls that never return (the
 * test's own waits have their own deadline).  progress() re-arms it. */
static const char *volatile where = "startup";
static char wd_prefix[64];
static size_t wd_prefix_len;
static unsigned wd_secs;
static void on_alarm(int sig) {
  static const char mid[] = ": no progress for the watchdog's time (hang?) in ";
  const char *w = where;
  (void)sig;
  if (write(1, wd_prefix, wd_prefix_len) < 0 || write(1, mid, sizeof(mid) - 1) < 0 ||
      write(1, w, strlen(w)) < 0 || write(1, "\n", 1) < 0)
    _exit(1);
  _exit(1);
}
static void progress(const char *w) {
  where = w;
  alarm(wd_secs);
}

/* Bounded waits: poll through GASNet (GASNET_BLOCKUNTIL yields the CPU as the
 * library decides) until cond holds; give up after opt.timeout seconds. */
static double deadline;
static int timed_out(void) { return now() > deadline; }
#define WAIT_UNTIL(cond, fmt, ...)                                                           \
  do {                                                                                       \
    deadline = now() + opt.timeout;                                                          \
    GASNET_BLOCKUNTIL((cond) || timed_out());                                                \
    if (!(cond)) fatal("timeout after %.0f s waiting for " fmt, opt.timeout, ##__VA_ARGS__); \
  } while (0)
/* one step of a try-loop: poll explicitly for the _nopoll variants, yield
 * now and then (oversubscribed runs), and give up at the deadline */
static char pending_what[200]; /* what a try-loop waits for (set by the caller) */
static void spin_step(long *spins, int nopoll, const char *what) {
  if (nopoll) gasnet_AMPoll();
  if (++*spins % 16 == 0) {
    sched_yield();
    if (timed_out())
      fatal("timeout after %.0f s in a %s loop%s%s", opt.timeout, what, *pending_what ? ": " : "", pending_what);
  }
}

/* ------------------------------------------------------------------ */
/* random numbers, derived keys, data patterns                         */
/* ------------------------------------------------------------------ */
static uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static uint64_t rng; /* this node's stream (splitmix64) */
static uint64_t rnd(void) { return mix64(rng += 0x9E3779B97F4A7C15ull); }
static uint64_t rnd_below(uint64_t n) { return n ? rnd() % n : 0; }
static uint64_t rnd_range(uint64_t lo, uint64_t hi) { return lo + rnd_below(hi - lo + 1); }
static uint64_t hash4(uint64_t a, uint64_t b, uint64_t c, uint64_t d) {
  return mix64(mix64(mix64(mix64(a ^ salt) ^ b) ^ c) ^ d);
}

/* Pattern named by a 64-bit seed: 8-byte word w of a buffer holds
 * pat_word(seed, w) in host byte order; neighbouring words differ and a
 * shift by any amount is detected. */
static inline uint64_t pat_word(uint64_t seed, size_t w) { return mix64(seed ^ ((uint64_t)w * 0xD1342543DE82EF95ull)); }
static uint8_t pat_byte(uint64_t seed, size_t i) {
  uint64_t v = pat_word(seed, i >> 3);
  uint8_t b[8];
  memcpy(b, &v, 8);
  return b[i & 7];
}
static void pat_fill(void *p, size_t n, uint64_t seed) {
  uint8_t *b = p;
  size_t w = 0;
  for (; 8 * w + 8 <= n; w++) {
    uint64_t v = pat_word(seed, w);
    memcpy(b + 8 * w, &v, 8);
  }
  if (8 * w < n) {
    uint64_t v = pat_word(seed, w);
    memcpy(b + 8 * w, &v, n - 8 * w);
  }
}

/* Report a byte mismatch: what, the first bad byte (index, expected, got),
 * how many are bad, and up to 8 bytes expected/got from the first. */
static void report_bytes(const char *what, const uint8_t *got, const uint8_t *want, size_t n, size_t first,
                         size_t nbad) {
  char e[40] = "", g[40] = "";
  for (size_t i = first, k = 0; i < n && k < 8; i++, k++) {
    snprintf(e + 3 * k, sizeof(e) - 3 * k, "%02x ", want[i - first]);
    snprintf(g + 3 * k, sizeof(g) - 3 * k, "%02x ", got[i]);
  }
  fail("%s: %zu of %zu bytes wrong, first at byte %zu: expected 0x%02x, got 0x%02x (from there expected [%s] got [%s])",
       what, nbad, n, first, want[0], got[first], e, g);
}
/* got[0..n) == exp[0..n)?  Reports and returns 0 if not. */
static int check_mem(const void *gotp, const void *expp, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int check_mem(const void *gotp, const void *expp, size_t n, const char *fmt, ...) {
  const uint8_t *got = gotp, *want = expp;
  if (!memcmp(got, want, n)) return 1;
  size_t first = SIZE_MAX, nbad = 0;
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      if (first == SIZE_MAX) first = i;
      nbad++;
    }
  char what[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof(what), fmt, ap);
  va_end(ap);
  report_bytes(what, got, want + first, n, first, nbad);
  return 0;
}
/* p[0..n) holds the pattern of seed?  Reports and returns 0 if not. */
static int check_pat(const void *p, size_t n, uint64_t seed, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int check_pat(const void *p, size_t n, uint64_t seed, const char *fmt, ...) {
  const uint8_t *b = p;
  size_t w = 0;
  int bad = 0;
  for (; 8 * w + 8 <= n && !bad; w++) {
    uint64_t v = pat_word(seed, w);
    bad = memcmp(b + 8 * w, &v, 8) != 0;
  }
  if (!bad && 8 * w < n) {
    uint64_t v = pat_word(seed, w);
    bad = memcmp(b + 8 * w, &v, n - 8 * w) != 0;
  }
  if (!bad) return 1;
  size_t first = SIZE_MAX, nbad = 0;
  for (size_t i = 0; i < n; i++)
    if (b[i] != pat_byte(seed, i)) {
      if (first == SIZE_MAX) first = i;
      nbad++;
    }
  uint8_t want[8];
  for (size_t k = 0; k < 8 && first + k < n; k++) want[k] = pat_byte(seed, first + k);
  char what[320];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof(what), fmt, ap);
  va_end(ap);
  report_bytes(what, b, want, n, first, nbad);
  return 0;
}

/* 64-bit hash of a block (the published digests) */
static uint64_t blk_hash(const uint8_t *p, size_t n) {
  uint64_t h = 0x84222325CBF29CE4ull ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, p + i, 8);
    h = (h ^ w) * 0x100000001B3ull;
    h ^= h >> 29;
  }
  for (; i < n; i++) h = (h ^ p[i]) * 0x100000001B3ull;
  return mix64(h);
}

/* register values: the nbytes bytes a value put writes are the low-order
 * bytes of the value as an nbytes integer in this machine's byte order */
static int little_endian(void) {
  const uint16_t one = 1;
  return *(const uint8_t *)&one == 1;
}
static void value_to_bytes(uint8_t *out, gasnet_register_value_t v, size_t nb) {
  for (size_t i = 0; i < nb; i++) out[i] = (uint8_t)(v >> (8 * (little_endian() ? i : nb - 1 - i)));
}
static gasnet_register_value_t bytes_to_value(const uint8_t *b, size_t nb) {
  gasnet_register_value_t v = 0;
  for (size_t i = 0; i < nb; i++) v |= (gasnet_register_value_t)b[i] << (8 * (little_endian() ? i : nb - 1 - i));
  return v;
}

/* ------------------------------------------------------------------ */
/* segment layout                                                      */
/* ------------------------------------------------------------------ */
#define CSLOT 128            /* bytes per node in each CTRL table */
#define BLK ((size_t)16384)  /* digest block */
#define NREPBUF 4            /* reply source buffers (by handler nesting depth) */

static struct {
  uintptr_t size;                      /* bytes of the segment used */
  uintptr_t ctrl, dig, lpool, amsrc, repsrc, slices; /* offsets */
  size_t lpool_size, amsrc_size, repsrc_each;
  size_t slice, pa, la, ra, la_off, ra_off; /* within a slice */
  size_t nblk;                         /* digest blocks of a PA */
} L;
static size_t med_max, lreq_max, lrep_max; /* AM payload maxima used */
static size_t xfer_max;                    /* largest Put/Get */

static uintptr_t page_up(uintptr_t x) { return (x + GASNET_PAGESIZE - 1) & ~(uintptr_t)(GASNET_PAGESIZE - 1); }
static uintptr_t page_down(uintptr_t x) { return x & ~(uintptr_t)(GASNET_PAGESIZE - 1); }
static size_t min_sz(size_t a, size_t b) { return a < b ? a : b; }
static size_t max_sz(size_t a, size_t b) { return a > b ? a : b; }

#define SEGB(n) ((uint8_t *)seg[n].addr)
/* slice of `owner` in node `node`'s segment */
static uint8_t *slice_at(gasnet_node_t node, gasnet_node_t owner) {
  return SEGB(node) + L.slices + (uintptr_t)owner * L.slice;
}
#define ANN(node, src) (SEGB(node) + L.ctrl + (uintptr_t)(src)*CSLOT)
#define TOT(node, src) (SEGB(node) + L.ctrl + ((uintptr_t)nnodes + (src)) * CSLOT)
#define DIG(node) ((uint64_t *)(SEGB(node) + L.dig))

/* returns NULL when it fits, else what is missing */
static const char *layout(uintptr_t segsize) {
  size_t mmed = min_sz(gasnet_AMMaxMedium(), MIB), mlong = 256 * KIB;
  L.size = segsize;
  L.ctrl = 0;
  uintptr_t o = page_up((uintptr_t)2 * nnodes * CSLOT);
  L.dig = o;
  o += page_up((uintptr_t)nnodes * ((segsize + BLK - 1) / BLK) * 8);
  L.lpool = o;
  L.lpool_size = page_down(min_sz(8 * MIB, segsize / 8));
  o += L.lpool_size;
  L.amsrc = o;
  L.amsrc_size = page_up(max_sz(mmed, mlong) + 4096);
  o += L.amsrc_size;
  L.repsrc = o;
  L.repsrc_each = page_up(max_sz(mmed, mlong) + 64);
  o += NREPBUF * L.repsrc_each;
  L.slices = o;
  if (o >= segsize) return "no room for the slices";
  L.slice = page_down((segsize - o) / nnodes);
  L.la = L.ra = page_down(min_sz(MIB, L.slice / 8));
  if (L.la < 16 * KIB) return "slices too small for the AM landing areas";
  L.pa = L.slice - L.la - L.ra;
  if (L.pa < 64 * KIB) return "slices too small for the Put/Get areas";
  L.la_off = L.pa;
  L.ra_off = L.pa + L.la;
  L.nblk = (L.pa + BLK - 1) / BLK;
  if (L.lpool_size < 64 * KIB) return "local pool too small";
  return NULL;
}

/* ------------------------------------------------------------------ */
/* statistics                                                          */
/* ------------------------------------------------------------------ */
typedef enum {
  K_PUT, K_PUT_BULK, K_GET, K_GET_BULK,
  K_PUT_NB, K_PUT_NB_BULK, K_GET_NB, K_GET_NB_BULK,
  K_PUT_NBI, K_PUT_NBI_BULK, K_GET_NBI, K_GET_NBI_BULK,
  K_MEMSET, K_MEMSET_NB, K_MEMSET_NBI,
  K_PUT_VAL, K_PUT_NB_VAL, K_PUT_NBI_VAL, K_GET_VAL, K_GET_NB_VAL,
  NKIND
} kind_t;
enum { SY_BLOCKING, SY_EXPLICIT, SY_IMPLICIT, SY_VALGET };
static const struct {
  const char *name;
  char write, sync, bulk, val;
} kinfo[NKIND] = {
    [K_PUT] = {"gasnet_put", 1, SY_BLOCKING, 0, 0},
    [K_PUT_BULK] = {"gasnet_put_bulk", 1, SY_BLOCKING, 1, 0},
    [K_GET] = {"gasnet_get", 0, SY_BLOCKING, 0, 0},
    [K_GET_BULK] = {"gasnet_get_bulk", 0, SY_BLOCKING, 1, 0},
    [K_PUT_NB] = {"gasnet_put_nb", 1, SY_EXPLICIT, 0, 0},
    [K_PUT_NB_BULK] = {"gasnet_put_nb_bulk", 1, SY_EXPLICIT, 1, 0},
    [K_GET_NB] = {"gasnet_get_nb", 0, SY_EXPLICIT, 0, 0},
    [K_GET_NB_BULK] = {"gasnet_get_nb_bulk", 0, SY_EXPLICIT, 1, 0},
    [K_PUT_NBI] = {"gasnet_put_nbi", 1, SY_IMPLICIT, 0, 0},
    [K_PUT_NBI_BULK] = {"gasnet_put_nbi_bulk", 1, SY_IMPLICIT, 1, 0},
    [K_GET_NBI] = {"gasnet_get_nbi", 0, SY_IMPLICIT, 0, 0},
    [K_GET_NBI_BULK] = {"gasnet_get_nbi_bulk", 0, SY_IMPLICIT, 1, 0},
    [K_MEMSET] = {"gasnet_memset", 1, SY_BLOCKING, 0, 0},
    [K_MEMSET_NB] = {"gasnet_memset_nb", 1, SY_EXPLICIT, 0, 0},
    [K_MEMSET_NBI] = {"gasnet_memset_nbi", 1, SY_IMPLICIT, 0, 0},
    [K_PUT_VAL] = {"gasnet_put_val", 1, SY_BLOCKING, 0, 1},
    [K_PUT_NB_VAL] = {"gasnet_put_nb_val", 1, SY_EXPLICIT, 0, 1},
    [K_PUT_NBI_VAL] = {"gasnet_put_nbi_val", 1, SY_IMPLICIT, 0, 1},
    [K_GET_VAL] = {"gasnet_get_val", 0, SY_BLOCKING, 0, 1},
    [K_GET_NB_VAL] = {"gasnet_get_nb_val", 0, SY_VALGET, 0, 1},
};
static const char *const xsync_name[] = {
    "wait_syncnb",     "try_syncnb",     "try_syncnb_nopoll",     "wait_syncnb_all",        "try_syncnb_all",
    "try_syncnb_all_nopoll", "wait_syncnb_some", "try_syncnb_some", "try_syncnb_some_nopoll",
};
#define NXSYNC ((int)ARRAY_LEN(xsync_name))
static const char *const nsync_name[] = {"wait_syncnbi_all", "wait_syncnbi_puts+gets", "try_syncnbi_all",
                                         "try_syncnbi_puts+gets"};
#define NNSYNC ((int)ARRAY_LEN(nsync_name))
static const char *const cat_name[3] = {"Short", "Medium", "Long"};

static struct {
  uint64_t ops, bytes, ams;
  uint64_t kind[NKIND], xsync[NXSYNC], nsync[NNSYNC];
  uint64_t regions, peeks, inseg, outseg, big, crossreads;
  uint64_t amreq[4][17], amrep[4][17], async, fences;
} st;

/* ------------------------------------------------------------------ */
/* Active Messages: state                                              */
/* ------------------------------------------------------------------ */
enum { CS = 0, CM = 1, CL = 2 };                          /* categories */
enum { RK_NONE = 0, RK_SHORT = 1, RK_MEDIUM = 2, RK_LONG = 3 }; /* reply kinds (category + 1) */

typedef struct {
  uint64_t req_sent[3], req_recv[3], rep_sent[3], rep_recv[3];
  uint64_t seqsum_sent, seqsum_recv;  /* sum of mix64(seq) of keyed requests */
  uint64_t exp_rep, exp_long_rep;     /* replies this node asked the peer for */
  uint64_t long_req_sent, long_req_recv, long_rep_recv;
  size_t la_cur, ra_cur;              /* landing-area cursors (as sender / requester) */
} peer_t;
static peer_t *peer;

/* outstanding keyed requests whose reply has arguments, by seq % NSLOT */
#define NSLOT 4096
typedef struct {
  int busy;
  uint32_t seq;
  gasnet_node_t dst;
  int kind, nargs;
  size_t rsize;
  uint8_t *rdest;    /* Long reply: where it must land */
  uint8_t *abuf;     /* LongAsync: the source, released by the reply */
  size_t an;
  uint64_t aseed;
} slot_t;
static slot_t slots[NSLOT];
static uint32_t next_seq;

/* landing-area fence query (Short request / Short reply) */
static int q_pending;
static int32_t q_token, q_count;

static int hdepth; /* handler nesting (reply buffers) */
static uint8_t *repsrc_mal[NREPBUF];
static uint8_t *amsrc_mal;

typedef struct {
  int kind, nargs;
  size_t rsize;
  uint32_t off; /* Long reply: offset in the requester's RA of the replier's slice */
} plan_t;

/* handler indices: fixed, so the table is the same for every GASNet */
#define H_BASE 128
#define H_REQ(c, m) ((gasnet_handler_t)(H_BASE + (c)*17 + (m)))
#define H_REP(c, m) ((gasnet_handler_t)(H_BASE + 51 + (c)*17 + (m)))
#define H_QUERY ((gasnet_handler_t)(H_BASE + 102))
#define H_QREPLY ((gasnet_handler_t)(H_BASE + 103))
#define NHANDLERS 104

/* everything a keyed message carries is derived from (src, dst, seq) */
static size_t am_size(uint64_t h, size_t max) {
  unsigned r = (unsigned)(h % 100);
  uint64_t x = h >> 8;
  size_t lo, hi;
  if (r < 8 || !max) return 0;
  if (r < 45) lo = 1, hi = 64;
  else if (r < 75) lo = 65, hi = 4096;
  else lo = 4097, hi = max;
  if (hi > max) hi = max;
  if (lo > hi) lo = 1;
  return lo + (size_t)(x % (hi - lo + 1));
}
static size_t req_size(gasnet_node_t src, gasnet_node_t dst, uint32_t seq, int cat) {
  if (cat == CS) return 0;
  return am_size(hash4(src, dst, seq, 0x5100 + cat), cat == CM ? med_max : lreq_max);
}
static size_t rep_size(gasnet_node_t requester, gasnet_node_t replier, uint32_t seq, int kind) {
  if (kind == RK_MEDIUM) return am_size(hash4(requester, replier, seq, 0x5200 + kind), med_max);
  if (kind == RK_LONG) return am_size(hash4(requester, replier, seq, 0x5200 + kind), lrep_max);
  return 0;
}
static gasnet_handlerarg_t seq_encode(gasnet_node_t src, gasnet_node_t dst, uint32_t seq) {
  seq &= 0xFFFFFF;
  return (gasnet_handlerarg_t)(seq | (uint32_t)(hash4(src, dst, seq, 0x5600) & 0x7F) << 24);
}
static int seq_decode(gasnet_node_t src, gasnet_node_t dst, gasnet_handlerarg_t a, uint32_t *seq) {
  uint32_t u = (uint32_t)a;
  *seq = u & 0xFFFFFF;
  return u == (uint32_t)seq_encode(src, dst, *seq);
}
static gasnet_handlerarg_t argval(gasnet_node_t src, gasnet_node_t dst, uint32_t seq, int k) {
  return (gasnet_handlerarg_t)(uint32_t)hash4(src, dst, seq, 0x5700 + (uint64_t)k);
}
static uint64_t key_seed(gasnet_node_t src, gasnet_node_t dst, uint32_t seq, int tag) {
  return hash4(src, dst, seq, 0x5800 + (uint64_t)tag);
}
static uint64_t anon_seed(gasnet_node_t src, gasnet_node_t dst, int cat, size_t n, int reply) {
  return hash4(src, dst, n, 0x5900 + (uint64_t)(cat + 4 * reply));
}
static void derive_plan1(gasnet_node_t src, gasnet_node_t dst, uint32_t seq, int cat, plan_t *p) {
  uint64_t h = hash4(src, dst, seq, 0x5A00 + (uint64_t)cat);
  if (cat == CL) { /* could be LongAsync: a reply with arguments */
    p->kind = 1 + (int)(h % 2);
    p->nargs = 1 + (int)((h >> 8) % 16);
  } else {
    p->kind = (int)(h % 3);
    p->nargs = (int)((h >> 8) % 17);
  }
  p->rsize = rep_size(src, dst, seq, p->kind);
  p->off = 0;
}
static void derive_plan0(gasnet_node_t src, gasnet_node_t dst, int cat, size_t n, plan_t *p) {
  uint64_t h = hash4(src, dst, n, 0x5B00 + (uint64_t)cat);
  p->kind = (int)(h % 3);
  p->nargs = 0;
  p->rsize = p->kind == RK_MEDIUM ? am_size(h >> 16, med_max) : 0;
  p->off = 0;
}
static gasnet_handlerarg_t plan_encode(const plan_t *p) {
  return (gasnet_handlerarg_t)((uint32_t)p->kind | (uint32_t)p->nargs << 2 | p->off << 7);
}

/* ------------------------------------------------------------------ */
/* Active Messages: handlers and senders for every M (macros)          */
/* ------------------------------------------------------------------ */
static void am_request(gasnet_token_t tok, int cat, int m, argv_t a, void *buf, size_t n);
static void am_reply(gasnet_token_t tok, int cat, int m, argv_t a, void *buf, size_t n);

#define GEN(M)                                                                                          \
  static void hq_s##M(gasnet_token_t t PL##M) {                                                         \
    gasnet_handlerarg_t a[] = {0 AL##M};                                                                \
    am_request(t, CS, M, a + 1, NULL, 0);                                                               \
  }                                                                                                     \
  static void hq_m##M(gasnet_token_t t, void *buf, size_t n PL##M) {                                    \
    gasnet_handlerarg_t a[] = {0 AL##M};                                                                \
    am_request(t, CM, M, a + 1, buf, n);                                                                \
  }                                                                                                     \
  static void hq_l##M(gasnet_token_t t, void *buf, size_t n PL##M) {                                    \
    gasnet_handlerarg_t a[] = {0 AL##M};                                                                \
    am_request(t, CL, M, a + 1, buf, n);                                                                \
  }                                                                                                     \
  static void hr_s##M(gasnet_token_t t PL##M) {                                                         \
    gasnet_handlerarg_t a[] = {0 AL##M};                                                                \
    am_reply(t, CS, M, a + 1, NULL, 0);                                                                 \
  }                                                                                                     \
  static void hr_m##M(gasnet_token_t t, void *buf, size_t n PL##M) {                                    \
    gasnet_handlerarg_t a[] = {0 AL##M};                                                                \
    am_reply(t, CM, M, a + 1, buf, n);                                                                  \
  }                                                                                                     \
  static void hr_l##M(gasnet_token_t t, void *buf, size_t n PL##M) {                                    \
    gasnet_handlerarg_t a[] = {0 AL##M};                                                                \
    am_reply(t, CL, M, a + 1, buf, n);                                                                  \
  }                                                                                                     \
  static int sq_s##M(gasnet_node_t d, argv_t v) {                                                       \
    (void)v;                                                                                            \
    return CALL(gasnet_AMRequestShort##M, (d, H_REQ(CS, M) VL##M));                                     \
  }                                                                                                     \
  static int sq_m##M(gasnet_node_t d, void *s, size_t n, argv_t v) {                                    \
    (void)v;                                                                                            \
    return CALL(gasnet_AMRequestMedium##M, (d, H_REQ(CM, M), s, n VL##M));                              \
  }                                                                                                     \
  static int sq_l##M(gasnet_node_t d, void *s, size_t n, void *dst, argv_t v) {                         \
    (void)v;                                                                                            \
    return CALL(gasnet_AMRequestLong##M, (d, H_REQ(CL, M), s, n, dst VL##M));                           \
  }                                                                                                     \
  static int sq_a##M(gasnet_node_t d, void *s, size_t n, void *dst, argv_t v) {                         \
    (void)v;                                                                                            \
    return CALL(gasnet_AMRequestLongAsync##M, (d, H_REQ(CL, M), s, n, dst VL##M));                      \
  }                                                                                                     \
  static int sr_s##M(gasnet_token_t t, argv_t v) {                                                      \
    (void)v;                                                                                            \
    return CALL(gasnet_AMReplyShort##M, (t, H_REP(CS, M) VL##M));                                       \
  }                                                                                                     \
  static int sr_m##M(gasnet_token_t t, void *s, size_t n, argv_t v) {                                   \
    (void)v;                                                                                            \
    return CALL(gasnet_AMReplyMedium##M, (t, H_REP(CM, M), s, n VL##M));                                \
  }                                                                                                     \
  static int sr_l##M(gasnet_token_t t, void *s, size_t n, void *dst, argv_t v) {                        \
    (void)v;                                                                                            \
    return CALL(gasnet_AMReplyLong##M, (t, H_REP(CL, M), s, n, dst VL##M));                             \
  }
M_LIST(GEN)
#undef GEN

typedef int (*sq_short_t)(gasnet_node_t, argv_t);
typedef int (*sq_medium_t)(gasnet_node_t, void *, size_t, argv_t);
typedef int (*sq_long_t)(gasnet_node_t, void *, size_t, void *, argv_t);
typedef int (*sr_short_t)(gasnet_token_t, argv_t);
typedef int (*sr_medium_t)(gasnet_token_t, void *, size_t, argv_t);
typedef int (*sr_long_t)(gasnet_token_t, void *, size_t, void *, argv_t);
#define E_SQS(M) sq_s##M,
#define E_SQM(M) sq_m##M,
#define E_SQL(M) sq_l##M,
#define E_SQA(M) sq_a##M,
#define E_SRS(M) sr_s##M,
#define E_SRM(M) sr_m##M,
#define E_SRL(M) sr_l##M,
static const sq_short_t send_short[17] = {M_LIST(E_SQS)};
static const sq_medium_t send_medium[17] = {M_LIST(E_SQM)};
static const sq_long_t send_long[17] = {M_LIST(E_SQL)};
static const sq_long_t send_longasync[17] = {M_LIST(E_SQA)};
static const sr_short_t reply_short[17] = {M_LIST(E_SRS)};
static const sr_medium_t reply_medium[17] = {M_LIST(E_SRM)};
static const sr_long_t reply_long[17] = {M_LIST(E_SRL)};

/* the landing-area fence: "how many Long requests from me have you run?" */
static void h_query(gasnet_token_t tok, gasnet_handlerarg_t token) {
  gasnet_node_t src = 0;
  int rc = gasnet_AMGetMsgSource(tok, &src);
  if (rc != GASNET_OK || src >= nnodes) {
    fail("query handler: gasnet_AMGetMsgSource returned %d, node %u", rc, (unsigned)src);
    return;
  }
  peer[src].req_recv[CS]++;
  rc = gasnet_AMReplyShort2(tok, H_QREPLY, token, (gasnet_handlerarg_t)(peer[src].long_req_recv & 0x7FFFFFFF));
  if (rc != GASNET_OK) fail("query handler: gasnet_AMReplyShort2 returned %d", rc);
  peer[src].rep_sent[CS]++;
  st.ams++;
}
static void h_qreply(gasnet_token_t tok, gasnet_handlerarg_t token, gasnet_handlerarg_t count) {
  gasnet_node_t src = 0;
  int rc = gasnet_AMGetMsgSource(tok, &src);
  if (rc != GASNET_OK || src >= nnodes) {
    fail("query reply handler: gasnet_AMGetMsgSource returned %d, node %u", rc, (unsigned)src);
    return;
  }
  peer[src].rep_recv[CS]++;
  if (!q_pending || token != q_token) {
    fail("query reply from node %u with token %d: none outstanding (pending %d, token %d)", (unsigned)src, (int)token,
         q_pending, (int)q_token);
    return;
  }
  q_count = count;
  q_pending = 0;
}

typedef __typeof__(((gasnet_handlerentry_t *)0)->fnptr) handler_fn_t;
static gasnet_handlerentry_t htable[NHANDLERS];
static void build_table(void) {
  int i = 0;
#define REG(M)                                                                      \
  htable[i++] = (gasnet_handlerentry_t){H_REQ(CS, M), (handler_fn_t)hq_s##M};       \
  htable[i++] = (gasnet_handlerentry_t){H_REQ(CM, M), (handler_fn_t)hq_m##M};       \
  htable[i++] = (gasnet_handlerentry_t){H_REQ(CL, M), (handler_fn_t)hq_l##M};       \
  htable[i++] = (gasnet_handlerentry_t){H_REP(CS, M), (handler_fn_t)hr_s##M};       \
  htable[i++] = (gasnet_handlerentry_t){H_REP(CM, M), (handler_fn_t)hr_m##M};       \
  htable[i++] = (gasnet_handlerentry_t){H_REP(CL, M), (handler_fn_t)hr_l##M};
  M_LIST(REG)
#undef REG
  htable[i++] = (gasnet_handlerentry_t){H_QUERY, (handler_fn_t)h_query};
  htable[i++] = (gasnet_handlerentry_t){H_QREPLY, (handler_fn_t)h_qreply};
  if (i != NHANDLERS) {
    fprintf(stderr, "stress: internal error: %d handlers, expected %d\n", i, NHANDLERS);
    exit(3);
  }
}

/* Request handler (every category, every M): checks the source, the key,
 * every argument, the payload size and bytes (Long: in place, inside the
 * sender's landing area), then replies as planned. */
static void am_request(gasnet_token_t tok, int cat, int m, argv_t a, void *buf, size_t n) {
  gasnet_node_t src = 0;
  int rc = gasnet_AMGetMsgSource(tok, &src);
  if (rc != GASNET_OK || src >= nnodes) {
    fail("%s request handler (%d args): gasnet_AMGetMsgSource returned %d, node %u", cat_name[cat], m, rc,
         (unsigned)src);
    return;
  }
  hdepth++;
  peer[src].req_recv[cat]++;
  plan_t pl;
  uint32_t seq = 0;
  uint64_t pseed;
  int keyed = m >= 1;
  if (keyed) {
    if (!seq_decode(src, me, a[0], &seq)) {
      fail("%s request from node %u (%d args): arg 0 = %#x is not a valid key", cat_name[cat], (unsigned)src, m,
           (unsigned)a[0]);
      goto out;
    }
    peer[src].seqsum_recv += mix64(seq);
    size_t want = req_size(src, me, seq, cat);
    if (n != want)
      fail("%s request seq %u from node %u (%d args): payload of %zu bytes, expected %zu", cat_name[cat],
           (unsigned)seq, (unsigned)src, m, n, want);
    for (int k = m >= 2 ? 2 : 1; k < m; k++)
      if (a[k] != argval(src, me, seq, k) && !(cat == CL && k == 2))
        fail("%s request seq %u from node %u (%d args): arg %d = %#x, expected %#x", cat_name[cat], (unsigned)seq,
             (unsigned)src, m, k, (unsigned)a[k], (unsigned)argval(src, me, seq, k));
    pseed = key_seed(src, me, seq, 1);
    if (m >= 2) {
      uint32_t u = (uint32_t)a[1];
      pl.kind = (int)(u & 3);
      pl.nargs = (int)(u >> 2 & 31);
      pl.off = u >> 7;
      pl.rsize = rep_size(src, me, seq, pl.kind);
      if (pl.nargs > 16 || (pl.kind == RK_LONG && pl.off + pl.rsize > L.ra)) {
        fail("%s request seq %u from node %u (%d args): arg 1 = %#x is not a valid reply plan (%d args, offset %u)",
             cat_name[cat], (unsigned)seq, (unsigned)src, m, (unsigned)u, pl.nargs, (unsigned)pl.off);
        goto out;
      }
    } else {
      derive_plan1(src, me, seq, cat, &pl);
    }
  } else {
    pseed = anon_seed(src, me, cat, n, 0);
    derive_plan0(src, me, cat, n, &pl);
  }
  if (cat == CM && n) {
    if ((uintptr_t)buf % 8)
      fail("Medium request from node %u (%d args, %zu bytes): payload buffer %p not 8-byte aligned", (unsigned)src,
           m, n, buf);
    check_pat(buf, n, pseed, "Medium request payload from node %u (%d args, seq %u)", (unsigned)src, m,
              (unsigned)seq);
  } else if (cat == CL && n) {
    uint8_t *lo = slice_at(me, src) + L.la_off, *p = buf;
    if (p < lo || p + n > lo + L.la)
      fail("Long request from node %u (%d args, %zu bytes) landed at %p, outside the sender's landing area [%p, %p)",
           (unsigned)src, m, n, buf, (void *)lo, (void *)(lo + L.la));
    else if (m >= 3 && p != lo + (uint32_t)a[2]) /* a2: where the sender asked it to land */
      fail("Long request seq %u from node %u (%d args, %zu bytes) landed at landing offset %zu, sent to offset %u",
           (unsigned)seq, (unsigned)src, m, n, (size_t)(p - lo), (unsigned)a[2]);
    else
      check_pat(buf, n, pseed, "Long request payload from node %u (%d args, seq %u) at landing offset %zu",
                (unsigned)src, m, (unsigned)seq, (size_t)(p - lo));
  }
  if (pl.kind == RK_NONE) goto out;

  /* the reply: arguments and payload derived from the key (or anonymous) */
  gasnet_handlerarg_t v[16];
  uint64_t rseed;
  int rcat = pl.kind - 1;
  if (pl.nargs >= 1) {
    v[0] = seq_encode(me, src, seq);
    for (int k = 1; k < pl.nargs; k++) v[k] = argval(me, src, seq, 64 + k);
    rseed = key_seed(me, src, seq, 2);
  } else {
    rseed = anon_seed(me, src, rcat, pl.rsize, 1);
  }
  int d = hdepth - 1 < NREPBUF ? hdepth - 1 : NREPBUF - 1;
  uint8_t *rs = (rseed >> 40 & 1) ? SEGB(me) + L.repsrc + (uintptr_t)d * L.repsrc_each : repsrc_mal[d];
  rs += (rseed >> 48) % 64;
  pat_fill(rs, pl.rsize, rseed);
  switch (pl.kind) {
    case RK_SHORT: rc = reply_short[pl.nargs](tok, v); break;
    case RK_MEDIUM: rc = reply_medium[pl.nargs](tok, rs, pl.rsize, v); break;
    default: rc = reply_long[pl.nargs](tok, rs, pl.rsize, slice_at(src, me) + L.ra_off + pl.off, v); break;
  }
  if (rc != GASNET_OK)
    fail("gasnet_AMReply%s%d to node %u (%zu bytes) returned %d", cat_name[rcat], pl.nargs, (unsigned)src, pl.rsize,
         rc);
  memset(rs, 0xE7, pl.rsize); /* the source may be reused once the reply returns */
  peer[src].rep_sent[rcat]++;
  st.amrep[rcat][pl.nargs]++;
  st.ams++;
  st.bytes += pl.rsize;
out:
  /* counted when done with the landing area (the fence query reads it) */
  if (cat == CL) peer[src].long_req_recv++;
  hdepth--;
}

/* Reply handler: replies with arguments are matched with the outstanding
 * request (kind, argument count, size, Long landing address, arguments,
 * payload); replies without arguments carry an anonymous pattern. */
static void am_reply(gasnet_token_t tok, int cat, int m, argv_t a, void *buf, size_t n) {
  gasnet_node_t src = 0;
  int rc = gasnet_AMGetMsgSource(tok, &src);
  if (rc != GASNET_OK || src >= nnodes) {
    fail("%s reply handler (%d args): gasnet_AMGetMsgSource returned %d, node %u", cat_name[cat], m, rc,
         (unsigned)src);
    return;
  }
  peer[src].rep_recv[cat]++;
  if (cat == CL) peer[src].long_rep_recv++;
  uint8_t *ra = slice_at(me, src) + L.ra_off, *p = buf;
  uint64_t pseed;
  uint32_t seq = 0;
  if (m >= 1) {
    if (!seq_decode(src, me, a[0], &seq)) {
      fail("%s reply from node %u (%d args): arg 0 = %#x is not a valid key", cat_name[cat], (unsigned)src, m,
           (unsigned)a[0]);
      return;
    }
    slot_t *s = &slots[seq % NSLOT];
    if (!s->busy || s->seq != seq || s->dst != src) {
      fail("%s reply from node %u (%d args) for seq %u: no such request outstanding", cat_name[cat], (unsigned)src, m,
           (unsigned)seq);
      return;
    }
    if (s->kind != cat + 1 || s->nargs != m || s->rsize != n)
      fail("reply from node %u for seq %u: %s with %d args and %zu bytes, expected %s with %d args and %zu bytes",
           (unsigned)src, (unsigned)seq, cat_name[cat], m, n, s->kind ? cat_name[s->kind - 1] : "none", s->nargs,
           s->rsize);
    for (int k = 1; k < m; k++)
      if (a[k] != argval(src, me, seq, 64 + k))
        fail("%s reply seq %u from node %u (%d args): arg %d = %#x, expected %#x", cat_name[cat], (unsigned)seq,
             (unsigned)src, m, k, (unsigned)a[k], (unsigned)argval(src, me, seq, 64 + k));
    if (cat == CL && n && p != s->rdest)
      fail("Long reply seq %u from node %u landed at %p, asked for %p", (unsigned)seq, (unsigned)src, buf,
           (void *)s->rdest);
    if (s->abuf) { /* LongAsync: the library must not have touched the source */
      check_pat(s->abuf, s->an, s->aseed, "source of LongAsync request seq %u to node %u, checked at its reply",
                (unsigned)seq, (unsigned)src);
      free(s->abuf);
      s->abuf = NULL;
    }
    s->busy = 0;
    pseed = key_seed(src, me, seq, 2);
  } else {
    pseed = anon_seed(src, me, cat, n, 1);
  }
  if (cat == CM && n) {
    if ((uintptr_t)buf % 8)
      fail("Medium reply from node %u (%d args, %zu bytes): payload buffer %p not 8-byte aligned", (unsigned)src, m,
           n, buf);
    check_pat(buf, n, pseed, "Medium reply payload from node %u (%d args, seq %u)", (unsigned)src, m, (unsigned)seq);
  } else if (cat == CL && n) {
    if (p < ra || p + n > ra + L.ra)
      fail("Long reply from node %u (%d args, %zu bytes) landed at %p, outside its landing area [%p, %p)",
           (unsigned)src, m, n, buf, (void *)ra, (void *)(ra + L.ra));
    else
      check_pat(buf, n, pseed, "Long reply payload from node %u (%d args, seq %u) at landing offset %zu",
                (unsigned)src, m, (unsigned)seq, (size_t)(p - ra));
  }
}

/* ------------------------------------------------------------------ */
/* Active Messages: the sending side                                   */
/* ------------------------------------------------------------------ */
static uint64_t rep_recv_total(gasnet_node_t t) {
  return peer[t].rep_recv[CS] + peer[t].rep_recv[CM] + peer[t].rep_recv[CL];
}

/* Wait until node t has run every Long request this node sent it (so its
 * landing area can be reused): query until its count matches. */
static void fence_long_requests(gasnet_node_t t) {
  st.fences++;
  for (int tries = 0;; tries++) {
    q_pending = 1;
    q_token = (q_token + 1) & 0x3FFFFFFF;
    int rc = gasnet_AMRequestShort1(t, H_QUERY, q_token);
    if (rc != GASNET_OK) fatal("gasnet_AMRequestShort1 (landing-area query) to node %u returned %d", (unsigned)t, rc);
    peer[t].req_sent[CS]++;
    peer[t].exp_rep++;
    st.ams++;
    WAIT_UNTIL(!q_pending, "the landing-area query reply from node %u", (unsigned)t);
    int64_t want = (int64_t)(peer[t].long_req_sent & 0x7FFFFFFF);
    if (q_count == want) return;
    if (q_count > want)
      fatal("node %u says it ran %d Long requests from this node, only %" PRId64 " were sent", (unsigned)t,
            (int)q_count, want);
    if (tries > 0) sched_yield();
  }
}
/* n bytes at a random misalignment in this node's landing area on node t */
static size_t la_alloc(gasnet_node_t t, size_t n) {
  size_t mis = (size_t)rnd_below(16);
  if (peer[t].la_cur + mis + n > L.la) {
    fence_long_requests(t);
    peer[t].la_cur = 0;
  }
  size_t off = peer[t].la_cur + mis;
  peer[t].la_cur = off + n;
  return off;
}
/* n bytes in node t's reply landing area on this node */
static size_t ra_alloc(gasnet_node_t t, size_t n) {
  size_t mis = (size_t)rnd_below(16);
  if (peer[t].ra_cur + mis + n > L.ra) {
    WAIT_UNTIL(peer[t].long_rep_recv == peer[t].exp_long_rep,
               "the Long replies from node %u (%" PRIu64 " of %" PRIu64 ")", (unsigned)t, peer[t].long_rep_recv,
               peer[t].exp_long_rep);
    peer[t].ra_cur = 0;
  }
  size_t off = peer[t].ra_cur + mis;
  peer[t].ra_cur = off + n;
  return off;
}

/* One random AM request: category, argument count, payload size and place,
 * reply plan; everything the handlers check is derived as described above. */
static void am_op(void) {
  gasnet_node_t t = (gasnet_node_t)rnd_below(nnodes);
  int r = (int)rnd_below(7), cat = r < 2 ? CS : r < 4 ? CM : CL, async = r == 6;
  int m = async ? 1 + (int)rnd_below(16) : (int)rnd_below(17);
  plan_t pl;
  uint32_t seq = 0;
  size_t n;
  uint64_t pseed;
  gasnet_handlerarg_t v[16];
  slot_t *s = NULL;
  progress("an AM request");
  if (m >= 1) {
    seq = next_seq++ & 0xFFFFFF;
    n = req_size(me, t, seq, cat);
    if (m >= 2) {
      pl.kind = async ? 1 + (int)rnd_below(3) : (int)rnd_below(4);
      pl.nargs = async ? 1 + (int)rnd_below(16) : (int)rnd_below(17);
      pl.rsize = rep_size(me, t, seq, pl.kind);
      pl.off = pl.kind == RK_LONG ? (uint32_t)ra_alloc(t, pl.rsize) : 0;
    } else {
      derive_plan1(me, t, seq, cat, &pl);
    }
    v[0] = seq_encode(me, t, seq);
    if (m >= 2) v[1] = plan_encode(&pl);
    for (int k = m >= 2 ? 2 : 1; k < m; k++) v[k] = argval(me, t, seq, k);
    pseed = key_seed(me, t, seq, 1);
    if (pl.kind != RK_NONE && pl.nargs >= 1) { /* the reply will be matched with this entry */
      s = &slots[seq % NSLOT];
      WAIT_UNTIL(!s->busy, "the reply to request seq %u to node %u (to reuse its table entry)", (unsigned)s->seq,
                 (unsigned)s->dst);
      *s = (slot_t){1, seq, t, pl.kind, pl.nargs, pl.rsize, NULL, NULL, 0, 0};
      if (pl.kind == RK_LONG) s->rdest = slice_at(me, t) + L.ra_off + pl.off;
    }
    peer[t].seqsum_sent += mix64(seq);
  } else {
    n = cat == CS ? 0 : am_size(rnd(), cat == CM ? med_max : lreq_max);
    pseed = anon_seed(me, t, cat, n, 0);
    derive_plan0(me, t, cat, n, &pl);
  }
  if (pl.kind != RK_NONE) peer[t].exp_rep++;
  if (pl.kind == RK_LONG) peer[t].exp_long_rep++;

  /* the source: in the segment or not; LongAsync: its own buffer, kept
   * until the reply */
  uint8_t *src;
  if (async) {
    src = malloc(n ? n : 1);
    if (!src) fatal("out of memory (%zu bytes)", n);
    s->abuf = src;
    s->an = n;
    s->aseed = pseed;
    st.async++;
  } else {
    src = (rnd() & 1 ? SEGB(me) + L.amsrc : amsrc_mal) + rnd_below(64);
  }
  pat_fill(src, n, pseed);
  int rc;
  uint8_t *dst = NULL;
  if (cat == CL) {
    size_t la = la_alloc(t, n);
    dst = slice_at(t, me) + L.la_off + la;
    if (m >= 3) v[2] = (gasnet_handlerarg_t)la; /* the handler checks the landing address */
  }
  switch (cat) {
    case CS: rc = send_short[m](t, v); break;
    case CM: rc = send_medium[m](t, src, n, v); break;
    default: rc = (async ? send_longasync : send_long)[m](t, src, n, dst, v); break;
  }
  if (rc != GASNET_OK)
    fatal("gasnet_AMRequest%s%s%d to node %u (%zu bytes) returned %d", cat_name[cat], async ? "Async" : "", m,
          (unsigned)t, n, rc);
  if (!async) memset(src, 0xC3, n); /* the source may be reused at once */
  peer[t].req_sent[cat]++;
  if (cat == CL) peer[t].long_req_sent++;
  st.amreq[async ? 3 : cat][m]++;
  st.ams++;
  st.bytes += n;
}

/* ------------------------------------------------------------------ */
/* Put/Get: batches of operations                                      */
/* ------------------------------------------------------------------ */
#define BATCH_MAX 64
typedef struct {
  kind_t kind;
  gasnet_node_t t;
  size_t off, n;   /* range in this node's PA on node t */
  uint8_t *loc;    /* local buffer: Put source / Get destination */
  uint64_t seed;   /* Put source pattern */
  int region;      /* implicit op inside the access region */
  int done;
  gasnet_valget_handle_t vh;
  gasnet_register_value_t val; /* value Get: the expected value */
} xop_t;

static struct {
  xop_t op[BATCH_MAX];
  int nop, target, issued;
  gasnet_handle_t h[BATCH_MAX + 1];
  int hop[BATCH_MAX + 1]; /* op index, or -1: the access region */
  char hseen[BATCH_MAX + 1];
  int nh;
  int region_at, region_len, region_open, region_used;
  size_t mused, lused;
} B;
static uint8_t *shadow_base, **shadow; /* shadow[t]: this node's PA on node t */
static uint8_t *mpool;                 /* out-of-segment local buffers */
static size_t mpool_size;

static const char *loc_kind(const uint8_t *p) {
  return p >= SEGB(me) && p < SEGB(me) + L.size ? "in the segment" : "outside the segment";
}
static uint8_t *remote_addr(const xop_t *o) { return slice_at(o->t, me) + o->off; }

/* n bytes of local buffer at a random offset that is a multiple of align
 * (the pools themselves are page aligned) */
static void *pool_alloc(size_t n, int inseg, size_t align) {
  size_t *used = inseg ? &B.lused : &B.mused, size = inseg ? L.lpool_size : mpool_size;
  uint8_t *base = inseg ? SEGB(me) + L.lpool : mpool;
  size_t at = (*used + (size_t)rnd_below(64) + align - 1) / align * align;
  if (at + n > size) return NULL;
  *used = at + n;
  return base + at;
}
/* Address alignment an operation needs: the non-bulk Puts and Gets want
 * addresses "aligned for objects of size nbytes" (8 bytes here, as the
 * conformance test does), value operations natural alignment for 1, 2 and
 * 4 bytes and 8 otherwise; bulk transfers and memsets none at all. */
static size_t kind_align(kind_t k, size_t n) {
  if (kinfo[k].val) return n == 1 || n == 2 || n == 4 ? n : 8;
  if (kinfo[k].bulk || k == K_MEMSET || k == K_MEMSET_NB || k == K_MEMSET_NBI) return 1;
  return 8;
}

static void batch_start(void) {
  B.nop = B.nh = B.issued = 0;
  B.target = 1 + (int)rnd_below(48);
  B.region_at = rnd_below(3) == 0 ? (int)rnd_below((uint64_t)B.target) : -1;
  B.region_len = 1 + (int)rnd_below((uint64_t)B.target);
  B.region_open = B.region_used = 0;
  B.mused = B.lused = 0;
}

/* An operation is complete: check what it produced.  Gets: the local
 * buffer against the shadow (no write to that range was outstanding since
 * the Get started).  Bulk Puts: the source untouched by the library. */
static void complete_op(int i) {
  xop_t *o = &B.op[i];
  if (o->done) return;
  o->done = 1;
  const char *name = kinfo[o->kind].name;
  if (o->kind == K_GET_NB || o->kind == K_GET_NB_BULK || o->kind == K_GET_NBI || o->kind == K_GET_NBI_BULK ||
      o->kind == K_GET || o->kind == K_GET_BULK) {
    check_mem(o->loc, shadow[o->t] + o->off, o->n,
              "%s%s of %zu bytes from node %u (my slice, offset %zu) into local memory %s", name,
              o->region ? " (access region)" : "", o->n, (unsigned)o->t, o->off, loc_kind(o->loc));
  } else if (kinfo[o->kind].bulk && kinfo[o->kind].write) {
    check_pat(o->loc, o->n, o->seed, "source of %s of %zu bytes to node %u (offset %zu) changed by the library", name,
              o->n, (unsigned)o->t, o->off);
  }
}
/* handles that turned GASNET_INVALID_HANDLE: their operations are complete */
static void scan_handles(void) {
  for (int i = 0; i < B.nh; i++)
    if (!B.hseen[i] && B.h[i] == GASNET_INVALID_HANDLE) {
      B.hseen[i] = 1;
      if (B.hop[i] >= 0)
        complete_op(B.hop[i]);
      else
        for (int j = 0; j < B.nop; j++)
          if (B.op[j].region) complete_op(j);
    }
}
static void add_handle(gasnet_handle_t h, int opi) {
  B.h[B.nh] = h;
  B.hop[B.nh] = opi;
  B.hseen[B.nh] = 0;
  B.nh++;
  scan_handles(); /* GASNET_INVALID_HANDLE: completed at once */
}
static int count_valid(void) {
  int c = 0;
  for (int i = 0; i < B.nh; i++) c += B.h[i] != GASNET_INVALID_HANDLE;
  return c;
}
/* for timeout messages: the batch's incomplete operations */
static void describe_batch(void) {
  int n = 0, first = -1;
  for (int i = 0; i < B.nop; i++)
    if (!B.op[i].done) n += 1, first = first < 0 ? i : first;
  if (first < 0) {
    snprintf(pending_what, sizeof(pending_what), "no incomplete operation in the batch");
    return;
  }
  const xop_t *o = &B.op[first];
  snprintf(pending_what, sizeof(pending_what),
           "%d incomplete operations (%d valid handles), the first %s%s of %zu bytes, node %u, offset %zu, "
           "local memory %s",
           n, count_valid(), kinfo[o->kind].name, o->region ? " (access region)" : "", o->n, (unsigned)o->t, o->off,
           o->loc ? loc_kind(o->loc) : "none");
}
/* implicit-handle operations outside the region: puts (and memsets, value
 * puts) and/or gets */
static void complete_implicit(int puts, int gets) {
  for (int i = 0; i < B.nop; i++) {
    xop_t *o = &B.op[i];
    if (kinfo[o->kind].sync != SY_IMPLICIT || o->region || o->done) continue;
    if (kinfo[o->kind].write ? puts : gets) complete_op(i);
  }
}

static void region_end(void) {
  gasnet_handle_t h = gasnet_end_nbi_accessregion();
  B.region_open = 0;
  add_handle(h, -1);
}

/* the try/wait families on the explicit handles of the batch */
static int try_list(int m, int some) {
  gasnet_handle_t *h = B.h;
  size_t n = (size_t)B.nh;
  if (some) return m ? gasnet_try_syncnb_some_nopoll(h, n) : gasnet_try_syncnb_some(h, n);
  return m ? gasnet_try_syncnb_all_nopoll(h, n) : gasnet_try_syncnb_all(h, n);
}
static void sync_explicit(int method) {
  long spins = 0;
  int rc;
  deadline = now() + opt.timeout;
  describe_batch();
  where = pending_what;
  st.xsync[method]++;
  switch (method) {
    case 0: /* wait_syncnb, one at a time (forward or backward) */
    case 1: /* try_syncnb until OK */
    case 2: /* try_syncnb_nopoll + gasnet_AMPoll until OK */ {
      int back = (int)rnd_below(2);
      for (int k = 0; k < B.nh; k++) {
        int i = back ? B.nh - 1 - k : k;
        if (method == 0) {
          gasnet_wait_syncnb(B.h[i]);
        } else {
          while ((rc = method == 1 ? gasnet_try_syncnb(B.h[i]) : gasnet_try_syncnb_nopoll(B.h[i])) ==
                 GASNET_ERR_NOT_READY)
            spin_step(&spins, method == 2, xsync_name[method]);
          if (rc != GASNET_OK) fail("%s returned %d", xsync_name[method], rc);
        }
        B.h[i] = GASNET_INVALID_HANDLE;
        scan_handles();
      }
      break;
    }
    case 3:
      gasnet_wait_syncnb_all(B.h, (size_t)B.nh);
      if (count_valid()) fail("wait_syncnb_all left %d of %d handles valid", count_valid(), B.nh);
      break;
    case 4:
    case 5: /* try_syncnb_all(_nopoll): NOT_READY may complete some */
      while ((rc = try_list(method == 5, 0)) == GASNET_ERR_NOT_READY) {
        scan_handles();
        spin_step(&spins, method == 5, xsync_name[method]);
      }
      if (rc != GASNET_OK) fail("%s returned %d", xsync_name[method], rc);
      if (count_valid()) fail("%s returned GASNET_OK with %d handles valid", xsync_name[method], count_valid());
      break;
    case 6: /* wait_syncnb_some: at least one per call */
      while (count_valid()) {
        int before = count_valid();
        gasnet_wait_syncnb_some(B.h, (size_t)B.nh);
        int after = count_valid();
        scan_handles();
        if (after >= before) {
          fail("wait_syncnb_some returned with no handle completed (%d valid)", after);
          gasnet_wait_syncnb_all(B.h, (size_t)B.nh);
        }
      }
      break;
    default: /* try_syncnb_some(_nopoll): OK = at least one more, NOT_READY = none */
      while (count_valid()) {
        int before = count_valid();
        rc = try_list(method == 8, 1);
        int after = count_valid();
        if (rc == GASNET_OK) {
          if (after >= before) {
            fail("%s returned GASNET_OK but no handle completed (%d valid)", xsync_name[method], after);
            gasnet_wait_syncnb_all(B.h, (size_t)B.nh);
          }
          scan_handles();
        } else if (rc == GASNET_ERR_NOT_READY) {
          if (after != before)
            fail("%s returned NOT_READY but changed the handles (%d -> %d valid)", xsync_name[method], before, after);
          scan_handles();
          spin_step(&spins, method == 8, xsync_name[method]);
        } else {
          fail("%s returned %d", xsync_name[method], rc);
          gasnet_wait_syncnb_all(B.h, (size_t)B.nh);
        }
      }
      break;
  }
  scan_handles();
}
static void try_nbi_loop(int which) {
  long spins = 0;
  int rc;
  static const char *const nm[3] = {"try_syncnbi_puts", "try_syncnbi_gets", "try_syncnbi_all"};
  deadline = now() + opt.timeout;
  describe_batch();
  where = pending_what;
  for (;;) {
    rc = which == 0 ? gasnet_try_syncnbi_puts() : which == 1 ? gasnet_try_syncnbi_gets() : gasnet_try_syncnbi_all();
    if (rc != GASNET_ERR_NOT_READY) break;
    spin_step(&spins, 0, nm[which]);
  }
  if (rc != GASNET_OK) fail("%s returned %d", nm[which], rc);
  complete_implicit(which != 1, which != 0);
}
static void sync_nbi(int method) {
  int gets_first = (int)rnd_below(2);
  st.nsync[method]++;
  switch (method) {
    case 0:
      gasnet_wait_syncnbi_all();
      complete_implicit(1, 1);
      break;
    case 1:
      for (int k = 0; k < 2; k++) {
        if ((k == 0) == gets_first) {
          gasnet_wait_syncnbi_gets();
          complete_implicit(0, 1);
        } else {
          gasnet_wait_syncnbi_puts();
          complete_implicit(1, 0);
        }
      }
      break;
    case 2: try_nbi_loop(2); break;
    default:
      try_nbi_loop(gets_first ? 1 : 0);
      try_nbi_loop(gets_first ? 0 : 1);
      break;
  }
}

/* Complete the batch: close the access region, synchronize explicit and
 * implicit operations (random family, random order), then the value gets. */
static void batch_flush(void) {
  progress("synchronizing a batch");
  if (B.region_open) region_end();
  int xm = (int)rnd_below(NXSYNC), nm = (int)rnd_below(NNSYNC);
  if (rnd_below(2)) {
    sync_explicit(xm);
    sync_nbi(nm);
  } else {
    sync_nbi(nm);
    sync_explicit(xm);
  }
  int back = (int)rnd_below(2);
  for (int k = 0; k < B.nop; k++) {
    int i = back ? B.nop - 1 - k : k;
    xop_t *o = &B.op[i];
    if (o->kind != K_GET_NB_VAL) continue;
    gasnet_register_value_t got = gasnet_wait_syncnb_valget(o->vh);
    if (got != o->val)
      fail("gasnet_get_nb_val of %zu bytes from node %u (my slice, offset %zu): got %#" PRIx64 ", expected %#" PRIx64,
           o->n, (unsigned)o->t, o->off, (uint64_t)got, (uint64_t)o->val);
    o->done = 1;
  }
  for (int i = 0; i < B.nop; i++)
    if (!B.op[i].done) fatal("internal: %s #%d of the batch was never completed", kinfo[B.op[i].kind].name, i);
  batch_start();
}

/* Mid-batch: one try call, completing whatever it reports complete. */
static void peek_sync(void) {
  int r = (int)rnd_below(5);
  st.peeks++;
  if (B.region_open || r >= 3) {
    int rc = r & 1 ? gasnet_try_syncnb_some(B.h, (size_t)B.nh) : gasnet_try_syncnb_all_nopoll(B.h, (size_t)B.nh);
    if (rc != GASNET_OK && rc != GASNET_ERR_NOT_READY)
      fail("try_syncnb_%s returned %d", r & 1 ? "some" : "all_nopoll", rc);
    scan_handles();
    return;
  }
  int rc = r == 0 ? gasnet_try_syncnbi_all() : r == 1 ? gasnet_try_syncnbi_puts() : gasnet_try_syncnbi_gets();
  if (rc == GASNET_OK)
    complete_implicit(r != 2, r != 1);
  else if (rc != GASNET_ERR_NOT_READY)
    fail("try_syncnbi_%s returned %d", r == 0 ? "all" : r == 1 ? "puts" : "gets", rc);
}

static size_t xfer_size(void) {
  unsigned r = (unsigned)rnd_below(100);
  size_t lo, hi;
  if (r < 30) lo = 1, hi = 64;
  else if (r < 55) lo = 65, hi = 2048;
  else if (r < 75) lo = 2049, hi = 64 * KIB;
  else if (r < 90) lo = 64 * KIB + 1, hi = 256 * KIB;
  else if (r < 97) lo = 256 * KIB + 1, hi = MIB;
  else lo = MIB + 1, hi = xfer_max;
  if (hi > xfer_max) hi = xfer_max;
  if (lo > hi) lo = 1;
  return (size_t)rnd_range(lo, hi);
}
/* a non-blocking operation of the batch overlaps [off, off+n) on t, and
 * one of the two writes.  Operations completed early (by a try call or an
 * invalid handle) still count until the batch is flushed, so the random
 * stream does not depend on the timing of completions: a seed replays. */
static int conflicts(gasnet_node_t t, size_t off, size_t n, int write) {
  for (int i = 0; i < B.nop; i++) {
    const xop_t *o = &B.op[i];
    if (kinfo[o->kind].sync == SY_BLOCKING || o->t != t || (!write && !kinfo[o->kind].write)) continue;
    if (off < o->off + o->n && o->off < off + n) return 1;
  }
  return 0;
}

/* One random Put/Get/memset/value operation; 0 when the batch must be
 * flushed first (no room, or no free range). */
static int issue_xop(void) {
  kind_t k = (kind_t)rnd_below(NKIND);
  gasnet_node_t t = (gasnet_node_t)rnd_below(nnodes);
  int w = kinfo[k].write, needbuf = !kinfo[k].val && k != K_MEMSET && k != K_MEMSET_NB && k != K_MEMSET_NBI;
  size_t n = kinfo[k].val ? 1 + (size_t)rnd_below(8) : xfer_size(), off = 0, al = 1;
  int inseg = (int)rnd_below(2), found = 0;
  if (B.nop == BATCH_MAX) return 0;
  for (int tries = 0; tries < 8 && !found; tries++) {
    if (tries >= 4 && n > 1 && !kinfo[k].val) n = 1 + n / 2;
    al = kind_align(k, n);
    off = (size_t)rnd_below((L.pa - n) / al + 1) * al;
    found = !conflicts(t, off, n, w);
  }
  if (!found) return 0;
  uint8_t *loc = NULL;
  if (needbuf && !(loc = pool_alloc(n, inseg, al))) return 0;

  /* the access region, if this batch has one, spans ops [at, at+len) */
  if (B.issued == B.region_at && !B.region_used) {
    gasnet_begin_nbi_accessregion();
    B.region_open = B.region_used = 1;
    st.regions++;
  } else if (B.region_open && B.issued >= B.region_at + B.region_len) {
    region_end();
  }
  B.issued++;

  int i = B.nop++;
  xop_t *o = &B.op[i];
  *o = (xop_t){k, t, off, n, loc, 0, kinfo[k].sync == SY_IMPLICIT && B.region_open, 0, 0, 0};
  uint8_t *rp = remote_addr(o), *sh = shadow[t] + off;
  gasnet_handle_t h = GASNET_INVALID_HANDLE;
  progress(kinfo[k].name);
  st.kind[k]++;
  st.bytes += n;
  if (needbuf) {
    if (inseg) st.inseg++; else st.outseg++;
  }
  if (n > 64 * KIB) st.big++;
  switch (k) {
    case K_PUT: case K_PUT_BULK: case K_PUT_NB: case K_PUT_NB_BULK: case K_PUT_NBI: case K_PUT_NBI_BULK:
      o->seed = rnd();
      pat_fill(loc, n, o->seed);
      memcpy(sh, loc, n);
      switch (k) {
        case K_PUT: gasnet_put(t, rp, loc, n); break;
        case K_PUT_BULK: gasnet_put_bulk(t, rp, loc, n); break;
        case K_PUT_NB: h = gasnet_put_nb(t, rp, loc, n); break;
        case K_PUT_NB_BULK: h = gasnet_put_nb_bulk(t, rp, loc, n); break;
        case K_PUT_NBI: gasnet_put_nbi(t, rp, loc, n); break;
        default: gasnet_put_nbi_bulk(t, rp, loc, n); break;
      }
      if (!kinfo[k].bulk) memset(loc, 0x5A, n); /* non-bulk: the source may be reused at once */
      break;
    case K_GET: case K_GET_BULK: case K_GET_NB: case K_GET_NB_BULK: case K_GET_NBI: case K_GET_NBI_BULK:
      memset(loc, (int)(0x80 | rnd_below(128)), n);
      switch (k) {
        case K_GET: gasnet_get(loc, t, rp, n); break;
        case K_GET_BULK: gasnet_get_bulk(loc, t, rp, n); break;
        case K_GET_NB: h = gasnet_get_nb(loc, t, rp, n); break;
        case K_GET_NB_BULK: h = gasnet_get_nb_bulk(loc, t, rp, n); break;
        case K_GET_NBI: gasnet_get_nbi(loc, t, rp, n); break;
        default: gasnet_get_nbi_bulk(loc, t, rp, n); break;
      }
      break;
    case K_MEMSET: case K_MEMSET_NB: case K_MEMSET_NBI: {
      int val = (int)rnd_below(256);
      memset(sh, val, n);
      if (k == K_MEMSET) gasnet_memset(t, rp, val, n);
      else if (k == K_MEMSET_NB) h = gasnet_memset_nb(t, rp, val, n);
      else gasnet_memset_nbi(t, rp, val, n);
      break;
    }
    case K_PUT_VAL: case K_PUT_NB_VAL: case K_PUT_NBI_VAL: {
      gasnet_register_value_t val = rnd();
      if (n < 8) val &= ((gasnet_register_value_t)1 << (8 * n)) - 1;
      value_to_bytes(sh, val, n);
      if (k == K_PUT_VAL) gasnet_put_val(t, rp, val, n);
      else if (k == K_PUT_NB_VAL) h = gasnet_put_nb_val(t, rp, val, n);
      else gasnet_put_nbi_val(t, rp, val, n);
      break;
    }
    case K_GET_VAL: {
      gasnet_register_value_t want = bytes_to_value(sh, n), got = gasnet_get_val(t, rp, n);
      if (got != want)
        fail("gasnet_get_val of %zu bytes from node %u (my slice, offset %zu): got %#" PRIx64 ", expected %#" PRIx64, n,
             (unsigned)t, off, (uint64_t)got, (uint64_t)want);
      break;
    }
    default: /* K_GET_NB_VAL */
      o->val = bytes_to_value(sh, n);
      o->vh = gasnet_get_nb_val(t, rp, n);
      break;
  }
  if (kinfo[k].sync == SY_BLOCKING) complete_op(i);
  else if (kinfo[k].sync == SY_EXPLICIT) add_handle(h, i);
  return 1;
}

/* ------------------------------------------------------------------ */
/* Gets of any flavour, completed before returning (phase-end checks)  */
/* ------------------------------------------------------------------ */
static const char *const getf_name[] = {
    "gasnet_get", "gasnet_get_bulk", "gasnet_get_nb+wait_syncnb", "gasnet_get_nb_bulk+try_syncnb",
    "gasnet_get_nbi+wait_syncnbi_gets", "gasnet_get_nbi_bulk+try_syncnbi_all",
    "gasnet_get_nbi_bulk in an access region"};
static void get_any(void *dst, gasnet_node_t t, void *src, size_t n, int f) {
  long spins = 0;
  int rc = GASNET_OK;
  gasnet_handle_t h;
  deadline = now() + opt.timeout;
  snprintf(pending_what, sizeof(pending_what), "%s of %zu bytes from node %u into local memory %s", getf_name[f], n,
           (unsigned)t, loc_kind(dst));
  switch (f) {
    case 0: gasnet_get(dst, t, src, n); break;
    case 1: gasnet_get_bulk(dst, t, src, n); break;
    case 2: gasnet_wait_syncnb(gasnet_get_nb(dst, t, src, n)); break;
    case 3:
      h = gasnet_get_nb_bulk(dst, t, src, n);
      while ((rc = gasnet_try_syncnb(h)) == GASNET_ERR_NOT_READY) spin_step(&spins, 0, "try_syncnb");
      break;
    case 4:
      gasnet_get_nbi(dst, t, src, n);
      gasnet_wait_syncnbi_gets();
      break;
    case 5:
      gasnet_get_nbi_bulk(dst, t, src, n);
      while ((rc = gasnet_try_syncnbi_all()) == GASNET_ERR_NOT_READY) spin_step(&spins, 0, "try_syncnbi_all");
      break;
    default:
      gasnet_begin_nbi_accessregion();
      gasnet_get_nbi_bulk(dst, t, src, n);
      gasnet_wait_syncnb(gasnet_end_nbi_accessregion());
      break;
  }
  if (rc != GASNET_OK) fail("%s returned %d", getf_name[f], rc);
}
#define NGETF ((int)ARRAY_LEN(getf_name))

/* ------------------------------------------------------------------ */
/* phases                                                              */
/* ------------------------------------------------------------------ */
/* Named barrier (wait or try loop); a result other than GASNET_OK fails. */
static void barrier(int id, const char *what) {
  int rc;
  progress(what);
  gasnet_barrier_notify(id, 0);
  if (rnd_below(2)) {
    rc = gasnet_barrier_wait(id, 0);
  } else {
    long spins = 0;
    deadline = now() + opt.timeout;
    snprintf(pending_what, sizeof(pending_what), "barrier %#x (%s)", (unsigned)id, what);
    while ((rc = gasnet_barrier_try(id, 0)) == GASNET_ERR_NOT_READY) spin_step(&spins, 0, "gasnet_barrier_try");
  }
  if (rc != GASNET_OK) fail("named barrier %#x (%s) returned %d (%s)", (unsigned)id, what, rc, gasnet_ErrorName(rc));
}

/* every reply this node asked for has arrived */
static void wait_replies(void) {
  for (gasnet_node_t t = 0; t < nnodes; t++)
    WAIT_UNTIL(rep_recv_total(t) == peer[t].exp_rep, "the replies from node %u (%" PRIu64 " of %" PRIu64 ")",
               (unsigned)t, rep_recv_total(t), peer[t].exp_rep);
}

/* Publish the hashes of my shadows (my slices on every node) in DIGEST. */
static void publish_digests(void) {
  uint64_t *d = DIG(me);
  for (gasnet_node_t t = 0; t < nnodes; t++)
    for (size_t b = 0; b < L.nblk; b++)
      d[t * L.nblk + b] = blk_hash(shadow[t] + b * BLK, min_sz(BLK, L.pa - b * BLK));
}

/* Read other writers' slices (any flavour) and check them against the
 * digests their owners published (fetched with a Get from the owner). */
static void cross_read(int count) {
  if (nnodes < 2) return;
  uint64_t dg[4];
  for (int i = 0; i < count; i++) {
    progress("cross-reading other nodes' slices");
    gasnet_node_t o = (gasnet_node_t)rnd_below(nnodes - 1), t = (gasnet_node_t)rnd_below(nnodes);
    if (o >= me) o++;
    size_t b0 = (size_t)rnd_below(L.nblk), nb = 1 + (size_t)rnd_below(min_sz(4, L.nblk - b0));
    size_t off = b0 * BLK, len = min_sz(L.pa, (b0 + nb) * BLK) - off;
    int inseg = len <= L.lpool_size && rnd_below(2);
    uint8_t *buf = inseg ? SEGB(me) + L.lpool : mpool;
    int f = (int)rnd_below(NGETF);
    memset(buf, 0xD5, len);
    get_any(buf, t, slice_at(t, o) + off, len, f);
    gasnet_get(dg, o, DIG(o) + (size_t)t * L.nblk + b0, nb * 8);
    for (size_t b = 0; b < nb; b++) {
      size_t bl = min_sz(BLK, len - b * BLK);
      uint64_t hsh = blk_hash(buf + b * BLK, bl);
      const uint8_t *q = buf + b * BLK;
      if (hsh != dg[b])
        fail("%s of node %u's slice on node %u, block %zu (offset %zu, %zu bytes): hash %016" PRIx64
             ", its owner published %016" PRIx64 " (first bytes read: %02x %02x %02x %02x)",
             getf_name[f], (unsigned)o, (unsigned)t, b0 + b, off + b * BLK, bl, hsh, dg[b], q[0], q[1], q[2], q[3]);
    }
    st.crossreads++;
    st.bytes += len;
  }
}

/* Read all of my slices back and compare with the shadows. */
static void final_verify(void) {
  const size_t chunk = min_sz(MIB, mpool_size / 2);
  for (gasnet_node_t t = 0; t < nnodes; t++)
    for (size_t off = 0; off < L.pa; off += chunk) {
      progress("the final read-back");
      size_t len = min_sz(chunk, L.pa - off);
      int f = (int)rnd_below(NGETF), inseg = len <= L.lpool_size && rnd_below(2);
      uint8_t *buf = inseg ? SEGB(me) + L.lpool : mpool;
      memset(buf, 0xB9, len);
      get_any(buf, t, slice_at(t, me) + off, len, f);
      check_mem(buf, shadow[t] + off, len, "final read-back (%s) of my slice on node %u, offset %zu", getf_name[f],
                (unsigned)t, off);
    }
}

typedef struct {
  uint64_t magic, req[3], rep[3], seqsum;
} ann_t;
typedef struct {
  uint64_t magic, ops, bytes, ams, fails;
} tot_t;
#define ANN_MAGIC 0x53545245535341ull

/* Every request and reply was received exactly once: each node announces
 * (by a Put into the receiver's CTRL) what it sent; receivers wait for
 * that many and compare. */
static void check_counts(void) {
  ann_t a;
  wait_replies();
  /* requests sent */
  for (gasnet_node_t t = 0; t < nnodes; t++) {
    memset(&a, 0, sizeof(a));
    a.magic = ANN_MAGIC;
    memcpy(a.req, peer[t].req_sent, sizeof(a.req));
    a.seqsum = peer[t].seqsum_sent;
    gasnet_put(t, ANN(t, me), &a, sizeof(a));
  }
  barrier(0x7001, "announcing requests sent");
  for (gasnet_node_t s = 0; s < nnodes; s++) {
    ann_t *an = (ann_t *)ANN(me, s);
    if (an->magic != ANN_MAGIC) {
      fail("count announcement of node %u missing (magic %#" PRIx64 ")", (unsigned)s, an->magic);
      continue;
    }
    WAIT_UNTIL(peer[s].req_recv[CS] >= an->req[CS] && peer[s].req_recv[CM] >= an->req[CM] &&
                   peer[s].req_recv[CL] >= an->req[CL],
               "the requests node %u sent: received %" PRIu64 "/%" PRIu64 "/%" PRIu64 " of %" PRIu64 "/%" PRIu64
               "/%" PRIu64 " (Short/Medium/Long)",
               (unsigned)s, peer[s].req_recv[CS], peer[s].req_recv[CM], peer[s].req_recv[CL], an->req[CS], an->req[CM],
               an->req[CL]);
    for (int c = 0; c < 3; c++)
      if (peer[s].req_recv[c] != an->req[c])
        fail("node %u sent %" PRIu64 " %s requests here, %" PRIu64 " were received", (unsigned)s, an->req[c],
             cat_name[c], peer[s].req_recv[c]);
    if (peer[s].seqsum_recv != an->seqsum)
      fail("keyed requests from node %u: sum over sequence numbers %#" PRIx64 ", node %u sent %#" PRIx64
           " (lost or duplicated requests)",
           (unsigned)s, peer[s].seqsum_recv, (unsigned)s, an->seqsum);
  }
  barrier(0x7002, "requests received");
  /* replies sent (every request here has run, so they are final) */
  for (gasnet_node_t t = 0; t < nnodes; t++) {
    memset(&a, 0, sizeof(a));
    a.magic = ANN_MAGIC;
    memcpy(a.rep, peer[t].rep_sent, sizeof(a.rep));
    gasnet_put(t, ANN(t, me), &a, sizeof(a));
  }
  barrier(0x7003, "announcing replies sent");
  for (gasnet_node_t s = 0; s < nnodes; s++) {
    ann_t *an = (ann_t *)ANN(me, s);
    for (int c = 0; c < 3; c++)
      if (peer[s].rep_recv[c] != an->rep[c])
        fail("node %u sent %" PRIu64 " %s replies here, %" PRIu64 " were received", (unsigned)s, an->rep[c],
             cat_name[c], peer[s].rep_recv[c]);
    if (rep_recv_total(s) != peer[s].exp_rep)
      fail("asked node %u for %" PRIu64 " replies, received %" PRIu64, (unsigned)s, peer[s].exp_rep,
           rep_recv_total(s));
    if (peer[s].long_rep_recv != peer[s].exp_long_rep)
      fail("asked node %u for %" PRIu64 " Long replies, received %" PRIu64, (unsigned)s, peer[s].exp_long_rep,
           peer[s].long_rep_recv);
  }
  for (int i = 0; i < NSLOT; i++)
    if (slots[i].busy)
      fail("request seq %u to node %u never got its reply", (unsigned)slots[i].seq, (unsigned)slots[i].dst);
}

static void print_verbose(void) {
  printf("# node %u: ops %" PRIu64 " bytes %" PRIu64 " ams %" PRIu64 " regions %" PRIu64 " peeks %" PRIu64
         " in/out-segment buffers %" PRIu64 "/%" PRIu64 " >64KiB %" PRIu64 " cross-reads %" PRIu64
         " LongAsync %" PRIu64 " fences %" PRIu64 "\n",
         (unsigned)me, st.ops, st.bytes, st.ams, st.regions, st.peeks, st.inseg, st.outseg, st.big, st.crossreads,
         st.async, st.fences);
  printf("# node %u: xfers:", (unsigned)me);
  for (int k = 0; k < NKIND; k++) printf(" %s=%" PRIu64, kinfo[k].name + 7, st.kind[k]);
  printf("\n# node %u: explicit syncs:", (unsigned)me);
  for (int k = 0; k < NXSYNC; k++) printf(" %s=%" PRIu64, xsync_name[k], st.xsync[k]);
  printf("\n# node %u: implicit syncs:", (unsigned)me);
  for (int k = 0; k < NNSYNC; k++) printf(" %s=%" PRIu64, nsync_name[k], st.nsync[k]);
  static const char *const rq[4] = {"Short", "Medium", "Long", "LongAsync"};
  for (int c = 0; c < 4; c++) {
    printf("\n# node %u: %s requests by args:", (unsigned)me, rq[c]);
    for (int m = 0; m < 17; m++) printf(" %" PRIu64, st.amreq[c][m]);
  }
  for (int c = 0; c < 3; c++) {
    printf("\n# node %u: %s replies by args:", (unsigned)me, rq[c]);
    for (int m = 0; m < 17; m++) printf(" %" PRIu64, st.amrep[c][m]);
  }
  printf("\n");
  fflush(stdout);
}

static size_t parse_size(const char *s) {
  char *end;
  double v = strtod(s, &end);
  if (*end == 'k' || *end == 'K') v *= 1024, end++;
  else if (*end == 'm' || *end == 'M') v *= 1024 * 1024, end++;
  else if (*end == 'g' || *end == 'G') v *= 1024.0 * 1024 * 1024, end++;
  if (*end || v < 1) return 0;
  return (size_t)v;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      fputs(usage_text, stdout);
      return 0;
    }
  int rc = gasnet_init(&argc, &argv);
  if (rc != GASNET_OK) {
    fprintf(stderr, "FAIL stress: gasnet_init returned %d\n", rc);
    return 1;
  }
  me = gasnet_mynode();
  nnodes = gasnet_nodes();
  int bad = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "-v")) opt.verbose = 1;
    else if (!strcmp(a, "--seed") && v) opt.seed = strtoull(v, NULL, 0), i++;
    else if (!strcmp(a, "--ops") && v) opt.ops = atol(v), opt.seconds = 0, i++;
    else if (!strcmp(a, "--seconds") && v) opt.seconds = atof(v), i++;
    else if (!strcmp(a, "--sizes-max") && v) opt.sizes_max = parse_size(v), i++;
    else if (!strcmp(a, "--timeout") && v) opt.timeout = atof(v), i++;
    else bad = 1;
  }
  if (bad || opt.ops < 1 || opt.seconds < 0 || !opt.sizes_max || opt.timeout <= 0) {
    if (me == 0) fputs(usage_text, stderr);
    gasnet_exit(2);
  }
  salt = mix64(opt.seed * 0x2545F4914F6CDD1Dull);
  rng = mix64(opt.seed ^ mix64(0x100000000ull + me));
  snprintf(wd_prefix, sizeof(wd_prefix), "FAIL stress: node %u", (unsigned)me);
  wd_prefix_len = strlen(wd_prefix);
  wd_secs = (unsigned)opt.timeout + 30;
  signal(SIGALRM, on_alarm);

  /* segment: at most 64 MiB, at most what every node can have */
  uintptr_t segsize = page_down(min_sz(gasnet_getMaxGlobalSegmentSize(), 64 * MIB));
  const char *why = layout(segsize);
  if (why) {
    if (me == 0)
      printf("FAIL stress: node 0: segment of %ju bytes at %u nodes: %s\n", (uintmax_t)segsize, (unsigned)nnodes, why);
    gasnet_exit(1);
  }
  build_table();
  gasnet_handler_t asked[NHANDLERS];
  for (int i = 0; i < NHANDLERS; i++) asked[i] = htable[i].index;
  progress("gasnet_attach");
  rc = gasnet_attach(htable, NHANDLERS, segsize, (uintptr_t)1 << 20);
  if (rc != GASNET_OK) fatal("gasnet_attach(%ju bytes) returned %d (%s)", (uintmax_t)segsize, rc, gasnet_ErrorName(rc));
  for (int i = 0; i < NHANDLERS; i++)
    if (htable[i].index != asked[i])
      fatal("gasnet_attach changed the fixed handler index of entry %d to %d", i, htable[i].index);
  seg = calloc(nnodes, sizeof(*seg));
  peer = calloc(nnodes, sizeof(*peer));
  if (!seg || !peer) fatal("out of memory");
  rc = gasnet_getSegmentInfo(seg, (int)nnodes);
  if (rc != GASNET_OK) fatal("gasnet_getSegmentInfo returned %d", rc);
  for (gasnet_node_t j = 0; j < nnodes; j++)
    if (seg[j].size < segsize) fatal("segment of node %u has %ju bytes, %ju requested", (unsigned)j,
                                     (uintmax_t)seg[j].size, (uintmax_t)segsize);

  /* maxima (the same on every node) */
  med_max = min_sz(gasnet_AMMaxMedium(), opt.sizes_max);
  med_max = min_sz(med_max, L.repsrc_each - 64);
  lreq_max = min_sz(min_sz(gasnet_AMMaxLongRequest(), opt.sizes_max), L.la / 4);
  lrep_max = min_sz(min_sz(gasnet_AMMaxLongReply(), opt.sizes_max), L.ra / 4);
  mpool_size = 8 * MIB;
  xfer_max = min_sz(min_sz(opt.sizes_max, L.pa), min_sz(L.lpool_size, mpool_size) / 2);

  /* local memory: shadows of my slices (the segments start zeroed) */
  shadow = calloc(nnodes, sizeof(*shadow));
  shadow_base = calloc(nnodes, L.pa);
  mpool = malloc(mpool_size);
  amsrc_mal = malloc(L.amsrc_size);
  for (int d = 0; d < NREPBUF; d++) repsrc_mal[d] = malloc(L.repsrc_each);
  if (!shadow || !shadow_base || !mpool || !amsrc_mal) fatal("out of memory for the shadows and buffers");
  for (int d = 0; d < NREPBUF; d++)
    if (!repsrc_mal[d]) fatal("out of memory");
  for (gasnet_node_t t = 0; t < nnodes; t++) shadow[t] = shadow_base + (size_t)t * L.pa;
  memset(SEGB(me), 0, segsize);

  if (me == 0 && opt.verbose) {
#ifdef STAGEPORT
    printf("# stress: stage=%s ", stageport_stage());
#else
    printf("# stress: ");
#endif
    printf("nodes=%u seed=%" PRIu64 " segment=%ju slice=%zu put/get area=%zu landing=%zu+%zu local pool=%zu\n",
           (unsigned)nnodes, opt.seed, (uintmax_t)segsize, L.slice, L.pa, L.la, L.ra, L.lpool_size);
    printf("# stress: AMMaxMedium=%zu AMMaxLongRequest=%zu AMMaxLongReply=%zu; used: medium<=%zu long request<=%zu "
           "long reply<=%zu put/get<=%zu\n",
           gasnet_AMMaxMedium(), gasnet_AMMaxLongRequest(), gasnet_AMMaxLongReply(), med_max, lreq_max, lrep_max,
           xfer_max);
    fflush(stdout);
  }
  batch_start();
  barrier(0x1000, "the start barrier");
  double t0 = now();

  /* phases: random mix, then quiesce, publish, cross-read */
  long per = opt.ops / NPHASES, extra = opt.ops % NPHASES;
  for (int p = 0; p < NPHASES; p++) {
    long nops = per + (p < extra);
    double tend = t0 + opt.seconds * (p + 1) / NPHASES;
    for (long i = 0; opt.seconds > 0 ? now() < tend : i < nops; i++) {
      progress("the mixed phase");
      if (rnd_below(100) < 3) peek_sync();
      if (rnd_below(100) < 30) {
        am_op();
      } else {
        if (!issue_xop()) {
          batch_flush();
          if (!issue_xop()) fatal("internal: an operation does not fit in an empty batch");
        }
        if (B.issued >= B.target) batch_flush();
      }
      st.ops++;
    }
    batch_flush();
    wait_replies();
    publish_digests();
    barrier(0x2000 + 2 * p, "the end of a phase (digests published)");
    cross_read(8 + (int)rnd_below(8));
    barrier(0x2001 + 2 * p, "the end of the cross-reads");
    if (me == 0 && opt.verbose) {
      printf("# stress: phase %d done at %.2f s\n", p, now() - t0);
      fflush(stdout);
    }
  }
  final_verify();
  check_counts();

  /* totals to node 0; every node learns whether anybody failed */
  tot_t tot = {ANN_MAGIC, st.ops, st.bytes, st.ams, (uint64_t)nfails};
  progress("the totals");
  gasnet_put(0, TOT(0, me), &tot, sizeof(tot));
  barrier(0x7004, "the totals");
  tot_t *all = calloc(nnodes, CSLOT);
  if (!all) fatal("out of memory");
  gasnet_get_bulk(all, 0, TOT(0, 0), (size_t)nnodes * CSLOT);
  uint64_t sum_ops = 0, sum_bytes = 0, sum_ams = 0, sum_fails = 0;
  for (gasnet_node_t j = 0; j < nnodes; j++) {
    tot_t *x = (tot_t *)((uint8_t *)all + (size_t)j * CSLOT);
    if (x->magic != ANN_MAGIC) fail("totals of node %u missing", (unsigned)j), sum_fails++;
    sum_ops += x->ops;
    sum_bytes += x->bytes;
    sum_ams += x->ams;
    sum_fails += x->fails;
  }
  double dt = now() - t0;
  if (opt.verbose) print_verbose();
  int failed = sum_fails || nfails;
  if (me == 0) {
    if (failed)
      printf("FAIL stress: node 0: %" PRIu64 " failure(s) in all (seed %" PRIu64 ", %u nodes)\n", sum_fails, opt.seed,
             (unsigned)nnodes);
    else
      printf("ok stress: nodes=%u ops=%" PRIu64 " bytes=%" PRIu64 " ams=%" PRIu64 " seed=%" PRIu64 " (%.1f s)\n",
             (unsigned)nnodes, sum_ops, sum_bytes, sum_ams, opt.seed, dt);
  }
  fflush(stdout);
  /* gasnet_exit on one node may end the others wherever they are: node 0
   * prints the verdict before anybody can leave this barrier */
  barrier(0x7005, "the verdict");
  alarm(0);
  gasnet_exit(failed ? 1 : 0);
  return 0;
}
