/*
 * ptl_fault.c -- what ptl cannot survive ends the job with a message naming
 * it.  A revocation lost to a failed allocation would let peers write into
 * an entry that is gone; a control message dropped (malformed, or early
 * with nowhere to keep it) would stall the ordered control stream of its
 * sender for ever, and with it an owner waiting for acknowledgements.
 * Each mode provokes one such fault in an offload NI:
 *
 *   mpirun -np 1 ptl_fault MODE        (ptl_fault --list: the modes)
 *
 * Allocation failures come from ptl's test fault (ptl_fault_what /
 * ptl_fault_nth: the nth allocation of the named kind fails, on a
 * countdown); the one-process job publishes to itself, its own offload
 * peer.  Control messages are handed to the control stream's receiver as
 * if they had arrived (from rank 0, this process; no real control traffic
 * runs meanwhile).  Each mode prints "ptl_fault: MODE: expect fatal:
 * FRAGMENT" first; the job must then end non-zero with a line "ptl (rank
 * 0): fatal: ...FRAGMENT...".  A mode that ptl survives prints
 * "ptl_fault: MODE: ptl went on: ..." (what it did instead) and exits 0,
 * which the runner (run-ptl-tests.sh) reports as a failure.
 */
#include <mpi.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptl_ucx.h"
#include "tests/ptl_test.h"

#define PT 12
#define SEGN 65536

static int fails;
static ptl_handle_ni_t ni;
static const ptl_process_id_t ANY = {PTL_NID_ANY, PTL_PID_ANY}, ME = {0, 0};
static const char *mode = "init";

void test_fail(int line, const char *fmt, ...) {
  va_list ap;
  printf("FAIL ptl_fault %s line %d: ", mode, line);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
  fflush(stdout);
  fails++;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static ptl_sr_value_t status(ptl_sr_index_t i) {
  ptl_sr_value_t v = 0;
  PtlNIStatus(ni, i, &v);
  return v;
}

static void expect_fatal(const char *fragment) {
  printf("ptl_fault: %s: expect fatal: %s\n", mode, fragment);
  fflush(stdout);
}

/* ptl survived the fault: say what it did instead */
static void went_on(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void went_on(const char *fmt, ...) {
  va_list ap;
  printf("ptl_fault: %s: ptl went on: ", mode);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
  fflush(stdout);
}

/* the nth allocation of kind `what` (a prefix of its message) fails */
static void fault_alloc(const char *what, long nth) {
  atomic_store(&ptl_fault_what, what);
  atomic_store(&ptl_fault_nth, nth);
}

/* ---------------------------------------------------------------- real traffic */
/* A Put of 64 bytes to this process's PT entry (bits 0): whether it took
 * the shortcut (RMA into a published entry). */
static int put_shortcut(ptl_handle_md_t smd, ptl_handle_eq_t eq) {
  ptl_sr_value_t sc0 = status(PTLX_SR_SHORTCUT_PUT);
  ptl_event_t ev;
  OK(PtlPutRegion(smd, 0, 64, PTL_NO_ACK_REQ, ME, PT, 0, 0, 0, 0));
  for (double t0 = now_s(); PtlEQGet(eq, &ev) != PTL_OK && now_s() - t0 < 10;) sched_yield(); /* its SEND_END */
  return status(PTLX_SR_SHORTCUT_PUT) > sc0;
}

/* Post a publishable entry (the RAR of GASNet: persistent, remotely
 * managed, no events) over seg; 1 once a Put to it takes the shortcut
 * (the publication reached this process), 0 if none did within `secs`. */
static int post_published(void *seg, ptl_handle_me_t *me, ptl_handle_md_t *smd, ptl_handle_eq_t *eq, double secs) {
  static unsigned char sbuf[64];
  ptl_handle_md_t mdh;
  OK(PtlEQAlloc(ni, 16, PTL_EQ_HANDLER_NONE, eq));
  OK(PtlMDBind(ni, test_md(sbuf, sizeof(sbuf), PTL_MD_THRESH_INF, PTL_MD_EVENT_START_DISABLE, *eq, NULL), PTL_RETAIN,
               smd));
  OK(PtlPost(ni, PT, ANY, 0, 0, PTL_RETAIN, PTL_INS_AFTER,
             test_md(seg, SEGN, PTL_MD_THRESH_INF, PTL_MD_OP_PUT | PTL_MD_OP_GET | PTL_MD_MANAGE_REMOTE, PTL_EQ_NONE,
                     NULL),
             PTL_RETAIN, me, &mdh));
  for (double t0 = now_s(); now_s() - t0 < secs;)
    if (put_shortcut(*smd, *eq)) return 1;
  return 0;
}

/* The revocation of an entry being unlinked cannot be allocated: lost, a
 * peer would go on writing into the entry after PtlMEUnlink returned. */
static void m_revoke_nomem(void) {
  void *seg;
  ptl_handle_me_t me;
  ptl_handle_md_t smd;
  ptl_handle_eq_t eq;
  OK(PtlXMemAlloc(ni, SEGN, &seg));
  if (!post_published(seg, &me, &smd, &eq, 5)) {
    test_fail(__LINE__, "the entry was never published (no Put took the shortcut in 5 s)");
    return;
  }
  expect_fatal("revoking a publication (peers would keep writing into an unlinked entry): out of memory");
  fault_alloc("revoking a publication", 1);
  OK(PtlMEUnlink(me));
  if (put_shortcut(smd, eq))
    went_on("PtlMEUnlink returned, and a Put then went into the unlinked entry by RMA: its revocation was lost");
  else
    went_on("PtlMEUnlink returned, the entry revoked after all");
}

/* The initiator cannot allocate room to file a publication. */
static void m_file_nomem(void) {
  void *seg;
  ptl_handle_me_t me;
  ptl_handle_md_t smd;
  ptl_handle_eq_t eq;
  OK(PtlXMemAlloc(ni, SEGN, &seg));
  expect_fatal("filing a publication from rank 0: out of memory");
  fault_alloc("filing a publication", 1);
  if (post_published(seg, &me, &smd, &eq, 2))
    went_on("the publication was filed all the same");
  else
    went_on("the publication was never filed, and nothing said why (no Put took the shortcut in 2 s)");
}

/* ---------------------------------------------------------------- fed control messages */
static ptl_peer_t *self_peer(void) { return &ptl_x(ptl_the_ni)->peer[0]; }

/* A control message from rank 0 (this process), sequence seq, as ptl's
 * sender makes it: a publication that files nothing (no keys). */
static ptl_wctl_t ctl(uint64_t seq) {
  ptl_wctl_t w;
  memset(&w, 0, sizeof(w));
  w.seq = seq;
  w.id = 0x1234;
  w.kind = PTL_CTL_PUBLISH;
  w.src = 0;
  w.match_id = ANY;
  w.pt = PT;
  w.options = PTL_MD_OP_PUT | PTL_MD_MANAGE_REMOTE;
  w.order = seq;
  return w;
}

static void feed(const ptl_wctl_t *w, size_t hlen, const void *data, size_t len) {
  ucp_am_recv_param_t p;
  memset(&p, 0, sizeof(p));
  ptl_pub_ctl_cb(ptl_the_ni, w, hlen, (void *)data, len, &p);
}

/* Early, and no room to keep it for its turn: dropped, the stream would
 * wait for it for ever. */
static void m_early_nomem(void) {
  uint64_t in = self_peer()->ctl_in;
  ptl_wctl_t a = ctl(in + 1), b = ctl(in + 2);
  char frag[96];
  snprintf(frag, sizeof(frag), "keeping control message %llu from rank 0 for its turn (%llu is due): out of memory",
           (unsigned long long)(in + 2), (unsigned long long)(in + 1));
  expect_fatal(frag);
  fault_alloc("keeping control message", 1);
  feed(&b, sizeof(b), NULL, 0);
  feed(&a, sizeof(a), NULL, 0);
  if (self_peer()->ctl_in != in + 2)
    went_on("control message %llu, early, was dropped: the stream stopped at %llu and would wait for it for ever",
            (unsigned long long)(in + 2), (unsigned long long)self_peer()->ctl_in);
  else
    went_on("both control messages were taken");
}

/* A sequence number already taken: kept for a turn that never comes. */
static void m_ctl_stale(void) {
  uint64_t in = self_peer()->ctl_in;
  ptl_wctl_t a = ctl(in + 1);
  feed(&a, sizeof(a), NULL, 0);
  expect_fatal("is taken already");
  feed(&a, sizeof(a), NULL, 0);
  went_on("control message %llu came again and was %s", (unsigned long long)(in + 1),
          self_peer()->early ? "kept for a turn that never comes" : "dropped");
}

/* A header of the wrong length: whose it is cannot even be known. */
static void m_ctl_header(void) {
  uint64_t in = self_peer()->ctl_in;
  ptl_wctl_t a = ctl(in + 1);
  expect_fatal("a malformed control message: ");
  feed(&a, sizeof(a) - 8, NULL, 0);
  went_on("the message was dropped: the stream stopped at %llu", (unsigned long long)self_peer()->ctl_in);
}

/* A payload (key bytes) of another length than its header says. */
static void m_ctl_payload(void) {
  uint64_t in = self_peer()->ctl_in;
  ptl_wctl_t a = ctl(in + 1);
  char keys[16] = {0};
  a.rkey_len = sizeof(keys);
  expect_fatal("8 payload bytes, its header says 16");
  feed(&a, sizeof(a), keys, 8);
  went_on("the message was dropped: the stream stopped at %llu", (unsigned long long)self_peer()->ctl_in);
}

/* A publication of an event entry whose fields do not hold together (its
 * EQ's key as long as all the keys). */
static void m_ctl_publication(void) {
  uint64_t in = self_peer()->ctl_in;
  ptl_wctl_t a = ctl(in + 1);
  char keys[16] = {0};
  a.rkey_len = sizeof(keys);
  a.flags = PTL_CTL_EVENTS;
  a.rkey2_len = sizeof(keys);
  expect_fatal("a publication whose event-entry fields do not hold together");
  feed(&a, sizeof(a), keys, sizeof(keys));
  went_on("the publication was dropped without a word (the stream went on at %llu)",
          (unsigned long long)self_peer()->ctl_in);
}

/* A revocation acknowledgement of the wrong length: the owner it was for
 * would wait for it for ever. */
static void m_ack_header(void) {
  ptl_wctl_t a = ctl(1);
  ucp_am_recv_param_t p;
  memset(&p, 0, sizeof(p));
  a.kind = PTL_CTL_REVOKE;
  expect_fatal("a malformed revocation acknowledgement");
  ptl_pub_ctl_ack_cb(ptl_the_ni, &a, sizeof(a) + 8, NULL, 0, &p);
  went_on("the acknowledgement was dropped: its owner would wait for it for ever");
}

static const struct {
  const char *name;
  void (*fn)(void);
  const char *about;
} modes[] = {
    {"revoke_nomem", m_revoke_nomem, "the revocation of an unlinked entry cannot be allocated"},
    {"file_nomem", m_file_nomem, "an initiator cannot file a publication"},
    {"early_nomem", m_early_nomem, "a control message that came early cannot be kept for its turn"},
    {"ctl_stale", m_ctl_stale, "a control message whose sequence number was taken already"},
    {"ctl_header", m_ctl_header, "a control message header of the wrong length"},
    {"ctl_payload", m_ctl_payload, "a control message with fewer key bytes than its header says"},
    {"ctl_publication", m_ctl_publication, "a publication whose fields do not hold together"},
    {"ack_header", m_ack_header, "a revocation acknowledgement of the wrong length"},
};
#define NMODES (sizeof(modes) / sizeof(modes[0]))

int main(int argc, char **argv) {
  int maxif;
  size_t i;
  if (argc == 2 && !strcmp(argv[1], "--list")) {
    printf("ptl_fault modes (mpirun -np 1 ptl_fault MODE: each must end the job with ptl's fatal error):\n");
    for (i = 0; i < NMODES; i++) printf("  %-16s %s\n", modes[i].name, modes[i].about);
    return 0;
  }
  for (i = 0; i < NMODES && (argc != 2 || strcmp(argv[1], modes[i].name)); i++) {}
  if (i == NMODES) {
    fprintf(stderr, "usage: ptl_fault MODE (ptl_fault --list)\n");
    return 2;
  }
  mode = modes[i].name;
  setvbuf(stdout, NULL, _IOLBF, 0);
  MPI_Init(&argc, &argv);
  OK(PtlInit(&maxif));
  OK(PtlNIInit(PTLX_IFACE_OFFLOAD, PTL_PID_ANY, NULL, NULL, &ni));
  if (!fails) modes[i].fn();
  PtlNIFini(ni);
  PtlFini();
  MPI_Finalize();
  return fails ? 1 : 0;
}
