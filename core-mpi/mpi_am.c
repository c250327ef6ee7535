/*
 * mpi_am.c -- the MPI Core: Active Messages over MPI two-sided.
 *
 * One MPI message per AM on a communicator of our own, in the format of
 * mpi_wire.h (header, [Long destination], arguments, payload), decoded and
 * bounded there.  Requests travel with tag REQ, replies and credit returns
 * with tag REP.
 *
 * Receiving: persistent receives are pre-posted into fixed buffers, one ring
 * for replies and one for requests.  All receives of a ring are identical
 * wildcards, and MPI matches a message to the earliest posted receive that
 * fits, so a ring's receives are filled in posting order: a poll only needs
 * to test the head of each ring -- one MPI_Testsome over two requests,
 * however deep the rings are -- and handles what arrived there.  The handled
 * receive is re-posted at the tail at the start of the next poll, so no MPI
 * call stands between a handler and the caller waiting for it.  Replies are
 * served before requests.  A Medium handler reads its payload in place; a
 * Long payload is copied to its destination before the handler runs.
 *
 * A message at the head may be long in arriving while later ones are in:
 * a large one (MPI's rendezvous) whose sender has stopped calling MPI
 * cannot complete until it calls again.  So a ring whose head has not
 * completed for SCAN_AFTER polls is tested whole; what completed behind
 * the head is handled at once and marked `early`, and re-posted in ring
 * order when the head passes it (the posting order stays the ring order).
 *
 * Sending: the message is packed into a pooled send buffer and MPI_Isend
 * returns at once, so every send returns at local completion.  Finished
 * sends are reaped in batches (MPI progress does not need us to test them).
 *
 * Flow control (the accounting is credits/'s, one credit per message): a
 * node may have at most `window` requests to a peer whose credit has not
 * come back.  Every request's credit returns -- in the header of its reply,
 * or, when the handler did not reply, batched into the header of any later
 * message to that peer or into a credit-only message once half a window is
 * owed.  So the traffic in flight to a node, and what MPI must buffer for
 * it, is bounded by nodes x window messages whatever the client does.  A
 * requester out of credits polls everything, running incoming request
 * handlers, until its credits return; replies never wait for credits and
 * never run request handlers, so replies cannot deadlock.
 */
#include "stp_internal.h"

#include <mpi.h>
#include <stdlib.h>

#include "boot_mpi.h"
#include "amflow.h"
#include "mpi_wire.h"

#define TAG_REQ 1
#define TAG_REP 2

#define MAX_PAYLOAD STP_MW_MAX_PAYLOAD
#define MAX_MSG STP_MW_MAX_MSG
#define REAP_AT 32    /* reap finished sends once this many are in flight */
#define SMALL_MSG 256

/* Every MPI call that can fail.  The Core's communicator has the launcher's
 * fatal error handler (whatever the client set on MPI_COMM_WORLD); a call
 * that returns an error anyway ends the job naming it, never a lost AM. */
static void mpi_failed(const char *call, int rc) STP_NORETURN;
static void mpi_failed(const char *call, int rc) {
  char msg[MPI_MAX_ERROR_STRING] = "";
  int n = 0;
  MPI_Error_string(rc, msg, &n);
  stp_fatal("MPI Core: %s failed: %s (error %d)", call, msg, rc);
}
#define MPI_OK(name, call)                                    \
  do {                                                        \
    int rc_ = (call);                                         \
    if (STP_UNLIKELY(rc_ != MPI_SUCCESS)) mpi_failed(name, rc_); \
  } while (0)

_Static_assert((int)STP_AM_SHORT == (int)STP_MW_SHORT && (int)STP_AM_MEDIUM == (int)STP_MW_MEDIUM &&
                   (int)STP_AM_LONG == (int)STP_MW_LONG,
               "the wire's kinds are the Core's categories");

typedef struct sbuf {
  struct sbuf *next;
  size_t cap;
  uint64_t data[]; /* 8-byte aligned message */
} sbuf_t;

/* a ring of identical pre-posted persistent receives */
typedef struct {
  MPI_Request *req;
  char **buf;
  char *early;    /* handled ahead of the head; inactive until the head passes */
  MPI_Status *st; /* for a test of the whole ring */
  int *idx;
  int n, head, is_request;
  int unposted; /* handled receives before head, to re-post */
  int stalls;   /* polls since the head last completed */
} rring_t;
#define SCAN_AFTER 256

static struct {
  MPI_Comm comm;
  rring_t rep, req;         /* pre-posted receives */
  int nslots, send_hi, nsend; /* send slots; highest used + 1; in flight */
  MPI_Request *sreq;        /* per send slot */
  sbuf_t **sbuf;            /* per send slot */
  int *free_slot, nfree;
  int *idx;
  credits_t cr;             /* flow control: one credit per message */
  sbuf_t *pool_small, *pool_large;
  int backlog;              /* the last poll found something (mpi_poll) */
} m;

/* ------------------------------------------------------------------ */
/* send buffers and slots                                              */
/* ------------------------------------------------------------------ */
static sbuf_t *sbuf_get(size_t len) {
  sbuf_t **pool = len <= SMALL_MSG ? &m.pool_small : &m.pool_large;
  sbuf_t *b = *pool;
  if (STP_LIKELY(b)) {
    *pool = b->next;
    return b;
  }
  size_t cap = len <= SMALL_MSG ? SMALL_MSG : MAX_MSG;
  b = malloc(sizeof(sbuf_t) + cap);
  if (!b) stp_fatal("AM send: out of memory for a %zu-byte send buffer", cap);
  b->cap = cap;
  return b;
}

static void sbuf_put(sbuf_t *b) {
  sbuf_t **pool = b->cap == SMALL_MSG ? &m.pool_small : &m.pool_large;
  b->next = *pool;
  *pool = b;
}

static void grow_slots(void) {
  int old = m.nslots, n = old ? 2 * old : 64;
  m.sreq = realloc(m.sreq, (size_t)n * sizeof(*m.sreq));
  m.sbuf = realloc(m.sbuf, (size_t)n * sizeof(*m.sbuf));
  m.free_slot = realloc(m.free_slot, (size_t)n * sizeof(*m.free_slot));
  m.idx = realloc(m.idx, (size_t)n * sizeof(*m.idx));
  if (!m.sreq || !m.sbuf || !m.free_slot || !m.idx) stp_fatal("AM send: out of memory for send slots");
  for (int i = n - 1; i >= old; i--) {
    m.sreq[i] = MPI_REQUEST_NULL;
    m.sbuf[i] = NULL;
    m.free_slot[m.nfree++] = i;
  }
  m.nslots = n;
}

/* Return the buffers of sends that have finished. */
static void reap_sends(void) {
  int n = 0;
  MPI_OK("MPI_Testsome (sends)", MPI_Testsome(m.send_hi, m.sreq, &n, m.idx, MPI_STATUSES_IGNORE));
  if (n == MPI_UNDEFINED) return;
  for (int i = 0; i < n; i++) {
    int slot = m.idx[i];
    sbuf_put(m.sbuf[slot]);
    m.sbuf[slot] = NULL;
    m.free_slot[m.nfree++] = slot;
  }
  m.nsend -= n;
  while (m.send_hi > 0 && !m.sbuf[m.send_hi - 1]) m.send_hi--;
}

static void send_msg(gex_Rank_t dest, int tag, sbuf_t *b, size_t len) {
  int slot;
  if (STP_UNLIKELY(m.nsend >= REAP_AT)) reap_sends();
  if (STP_UNLIKELY(!m.nfree)) grow_slots();
  slot = m.free_slot[--m.nfree];
  m.sbuf[slot] = b;
  m.nsend++;
  if (slot >= m.send_hi) m.send_hi = slot + 1;
  MPI_OK("MPI_Isend", MPI_Isend(b->data, (int)len, MPI_BYTE, (int)dest, tag, m.comm, &m.sreq[slot]));
}

/* ------------------------------------------------------------------ */
/* packing                                                             */
/* ------------------------------------------------------------------ */
/* Every message to a peer carries the credits owed to it (a header byte). */
static inline uint8_t owed_to(gex_Rank_t peer) { return (uint8_t)credits_piggyback(&m.cr, peer, UINT8_MAX); }

static void send_am(gex_Rank_t dest, int tag, const stp_am_t *am) {
  size_t off, len;
  sbuf_t *b;
  char *p;
  stp_mw_hdr_t *h;
  /* the send buffer's bound, checks on or off (the API layer reports the
   * client's error with checks on; this keeps memory safe without them) */
  if (STP_UNLIKELY(am->nbytes > MAX_PAYLOAD || am->nargs > STP_MW_MAX_ARGS))
    stp_fatal("AM %s to node %u: %zu bytes and %u arguments, over the maximum (%d bytes, %d arguments)",
              tag == TAG_REQ ? "request" : "reply", (unsigned)dest, am->nbytes, (unsigned)am->nargs, MAX_PAYLOAD,
              STP_MW_MAX_ARGS);
  off = am->cat == STP_AM_SHORT ? stp_mw_args_end(STP_AM_SHORT, am->nargs) : stp_mw_payload_off(am->cat, am->nargs);
  len = off + am->nbytes;
  b = sbuf_get(len);
  p = (char *)b->data;
  h = (stp_mw_hdr_t *)p;
  h->kind = am->cat;
  h->handler = am->handler;
  h->nargs = am->nargs;
  h->credits = owed_to(dest);
  h->nbytes = (uint32_t)am->nbytes;
  p += STP_MW_HDR;
  if (am->cat == STP_AM_LONG) {
    uint64_t dst = (uint64_t)(uintptr_t)am->dst;
    memcpy(p, &dst, 8);
    p += 8;
  }
  memcpy(p, am->args, 4 * (size_t)am->nargs);
  if (am->nbytes) memcpy((char *)b->data + off, am->src, am->nbytes);
  send_msg(dest, tag, b, len);
}

static void send_credits(gex_Rank_t dest) {
  sbuf_t *b = sbuf_get(STP_MW_HDR);
  stp_mw_hdr_t *h = (stp_mw_hdr_t *)b->data;
  h->kind = STP_MW_CREDIT;
  h->handler = 0;
  h->nargs = 0;
  h->credits = owed_to(dest);
  h->nbytes = 0;
  send_msg(dest, TAG_REP, b, STP_MW_HDR);
}

/* ------------------------------------------------------------------ */
/* receiving                                                           */
/* ------------------------------------------------------------------ */
static void handle_msg(char *p, int is_request, const MPI_Status *st) {
  gex_Rank_t src = (gex_Rank_t)st->MPI_SOURCE;
  stp_token_t tok;
  stp_mw_msg_t msg;
  void *buf;
  const char *bad;
  int len = 0;
  gex_AM_Arg_t args[STP_MW_MAX_ARGS];

  MPI_Get_count(st, MPI_BYTE, &len);
  if (STP_UNLIKELY((bad = stp_mw_decode(p, (size_t)len, &msg)) != NULL))
    stp_fatal("AM %s from node %u: a malformed message of %d bytes (%s)", is_request ? "request" : "reply",
              (unsigned)src, len, bad);
  if (msg.h.credits && STP_UNLIKELY(credits_returned(&m.cr, src, msg.h.credits) != CREDITS_OK))
    stp_fatal("AM flow control: node %u returned credits it was not owing: %s", (unsigned)src, credits_error(&m.cr));
  if (msg.h.kind == STP_MW_CREDIT) return;
  if (is_request && STP_UNLIKELY(credits_arrived(&m.cr, src, 1) != CREDITS_OK))
    stp_fatal("AM flow control: node %u sent more requests than its credits allow: %s", (unsigned)src,
              credits_error(&m.cr));

  buf = (void *)msg.payload;
  if (msg.h.kind == STP_AM_LONG) { /* the payload goes into place before the handler runs */
    buf = (void *)(uintptr_t)msg.dst;
    if (STP_UNLIKELY(!stp_in_my_segment(buf, msg.h.nbytes))) stp_bad_address("AM Long destination", src, buf, msg.h.nbytes);
    if (msg.h.nbytes) memcpy(buf, msg.payload, msg.h.nbytes);
  }
  memcpy(args, msg.args, 4 * (size_t)msg.h.nargs);

  tok.src = src;
  tok.is_request = (uint8_t)is_request;
  tok.replied = 0;
  tok.core = NULL;
  stp_am_run(&tok, msg.h.handler, msg.h.kind, args, msg.h.nargs, buf, msg.h.nbytes);
  /* a reply carried the credit back; otherwise it waits for a later message */
  if (tok.is_request && !tok.replied && credits_flush_due(&m.cr, src)) send_credits(src);
}

/* Re-post the receives handled since the last poll, oldest first (the ring
 * keeps its posting order). */
static void repost(rring_t *r) {
  for (; r->unposted; r->unposted--) {
    int k = r->head - r->unposted;
    MPI_OK("MPI_Start", MPI_Start(&r->req[k < 0 ? k + r->n : k]));
  }
}

/* Move the head past the receives handled already (it stops at one still
 * posted, or after a full turn). */
static void advance(rring_t *r) {
  do {
    r->early[r->head] = 0;
    r->head = r->head + 1 == r->n ? 0 : r->head + 1;
    r->unposted++;
  } while (r->early[r->head] && r->unposted < r->n);
}

/* Handle the completed head of a ring. */
static void take(rring_t *r, const MPI_Status *st) {
  int k = r->head;
  r->stalls = 0;
  advance(r);
  handle_msg(r->buf[k], r->is_request, st);
}

/* Test every posted receive of a ring (its head has been stalled): handle
 * what completed, in any order.  Returns how many. */
static int scan(rring_t *r) {
  int n = 0;
  r->stalls = 0;
  MPI_OK("MPI_Testsome (receive ring)", MPI_Testsome(r->n, r->req, &n, r->idx, r->st));
  if (n == MPI_UNDEFINED || n == 0) return 0;
  for (int i = 0; i < n; i++) r->early[r->idx[i]] = 1; /* all marked before the head moves */
  for (int i = 0; i < n; i++) handle_msg(r->buf[r->idx[i]], r->is_request, &r->st[i]);
  if (r->early[r->head]) advance(r);
  return n;
}

/* One test of the two heads (and of a stalled ring whole): how many were
 * handled. */
static int poll_once(void) {
  MPI_Request heads[2];
  MPI_Status st[2];
  int idx[2], n = 0;
  if (m.rep.unposted) repost(&m.rep);
  if (m.req.unposted) repost(&m.req);
  heads[0] = m.rep.req[m.rep.head];
  heads[1] = m.req.req[m.req.head];
  m.rep.stalls++; /* (a head that completes resets its count) */
  m.req.stalls++;
  MPI_OK("MPI_Testsome (receives)", MPI_Testsome(2, heads, &n, idx, st));
  if (n == MPI_UNDEFINED) n = 0;
  for (int i = 0; i < n; i++) take(idx[i] == 0 ? &m.rep : &m.req, &st[i]);
  if (STP_UNLIKELY(m.rep.stalls >= SCAN_AFTER)) n += scan(&m.rep);
  if (STP_UNLIKELY(m.req.stalls >= SCAN_AFTER)) n += scan(&m.req);
  return n;
}

/* Where waits yield (stp.wait_slow: processes outnumber cores, or the wait
 * mode asks for it), a poll that finds a backlog handles what has arrived,
 * up to POLL_ROUNDS tests that find something: one head per ring per poll
 * would leave a process that gets the CPU rarely (its cores shared with
 * busy processes) serving one message per time slice, and every requester
 * behind it waiting that long for each credit (conformance nb_many across
 * two emulated hosts beside two CPU hogs: over 150 s, 13-62 s draining).
 * A backlog is a hit right after a hit; a hit after an empty poll (a
 * ping-pong's message, the common case) makes no further test.  Where
 * waits spin, the caller polls again at once: one test per poll, no empty
 * test after each hit (that cost the AM Short round trip ~7 %, and ~10 %
 * on hybrid, whose waits yield for ptl's progress thread). */
#define POLL_ROUNDS 32
static int mpi_poll(void) {
  int n = poll_once(), k;
  if (STP_UNLIKELY(stp.wait_slow) && n) {
    if (m.backlog)
      for (int r = 1; r < POLL_ROUNDS && (k = poll_once()) > 0; r++) n += k;
    m.backlog = 1;
  } else {
    m.backlog = 0;
  }
  return n;
}

/* ------------------------------------------------------------------ */
/* requests and replies                                                */
/* ------------------------------------------------------------------ */
static int mpi_request(gex_Rank_t dest, const stp_am_t *am) {
  if (STP_UNLIKELY(stp_am_pay(&m.cr, dest, 1, am->flags, NULL))) return 1; /* (IMMEDIATE: refused) */
  send_am(dest, TAG_REQ, am);
  return GASNET_OK;
}

static int mpi_reply(stp_token_t *token, const stp_am_t *am) {
  send_am(token->src, TAG_REP, am); /* replies are free: never wait */
  return GASNET_OK;
}

/* ------------------------------------------------------------------ */
/* setup and teardown                                                  */
/* ------------------------------------------------------------------ */
static void ring_open(rring_t *r, int n, int tag, int is_request) {
  if (n < 1 || n > 4096) stp_fatal("STAGEPORT_MPI_RECV_%s=%d: use 1..4096 pre-posted receives", is_request ? "REQUEST" : "REPLY", n);
  r->n = n;
  r->head = 0;
  r->unposted = 0;
  r->is_request = is_request;
  r->stalls = 0;
  r->req = malloc((size_t)n * sizeof(*r->req));
  r->buf = malloc((size_t)n * sizeof(*r->buf));
  r->early = calloc((size_t)n, 1);
  r->st = malloc((size_t)n * sizeof(*r->st));
  r->idx = malloc((size_t)n * sizeof(*r->idx));
  if (!r->req || !r->buf || !r->early || !r->st || !r->idx) stp_fatal("gasnet_attach: out of memory");
  for (int i = 0; i < n; i++) {
    if (posix_memalign((void **)&r->buf[i], 64, MAX_MSG)) stp_fatal("gasnet_attach: out of memory");
    MPI_OK("MPI_Recv_init", MPI_Recv_init(r->buf[i], MAX_MSG, MPI_BYTE, MPI_ANY_SOURCE, tag, m.comm, &r->req[i]));
  }
  MPI_OK("MPI_Startall", MPI_Startall(n, r->req));
}

static void ring_close(rring_t *r) {
  repost(r); /* every receive active again but the early ones: each is cancelled the same way */
  for (int i = 0; i < r->n; i++) {
    if (!r->early[i]) {
      MPI_Cancel(&r->req[i]);
      MPI_Wait(&r->req[i], MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&r->req[i]);
    free(r->buf[i]);
  }
  free(r->req);
  free(r->buf);
  free(r->early);
  free(r->st);
  free(r->idx);
}

static int mpi_attach(void) {
  uint64_t w = stp_env_u64("STAGEPORT_AM_CREDITS", 0);
  credits_cfg_t cfg = {0};
  if (!w) w = STP_MIN(64, 16384 / (stp.nodes ? stp.nodes : 1)); /* bound nodes x window x 64 KiB */
  if (w < 2) w = 2;
  if (w > UINT8_MAX) stp_fatal("STAGEPORT_AM_CREDITS=%" PRIu64 ": at most %d", w, UINT8_MAX);
  {
    const stp_setting_t set[] = {{"STAGEPORT_AM_CREDITS", w, NULL}}; /* (a peer's window is this node's receives) */
    stp_settings_agree("gasnet_attach (the MPI Core)", set, 1);
  }
  cfg.npeers = stp.nodes;
  cfg.mode = CREDITS_STATIC;
  cfg.grant = (uint32_t)w;
  cfg.max_grant = UINT8_MAX; /* what a header byte can return at once */
  cfg.unit_bytes = 0;        /* every message costs 1: one pre-posted receive of the largest size */
  cfg.batch = (uint32_t)w / 2;
  if (credits_init(&m.cr, &cfg) != CREDITS_OK) stp_fatal("gasnet_attach: AM flow control: %s", credits_error(&m.cr));
  MPI_OK("MPI_Comm_dup", MPI_Comm_dup(MPI_COMM_WORLD, &m.comm));
  MPI_OK("MPI_Comm_set_errhandler", MPI_Comm_set_errhandler(m.comm, stp_boot_mpi_errhandler()));
  grow_slots();
  ring_open(&m.rep, (int)stp_env_u64("STAGEPORT_MPI_RECV_REPLY", 16), TAG_REP, 0);
  ring_open(&m.req, (int)stp_env_u64("STAGEPORT_MPI_RECV_REQUEST", 32), TAG_REQ, 1);
  return GASNET_OK;
}

static void mpi_detach(void) {
  /* Every peer has agreed to exit: nothing more will be handled.  Withdraw
   * the receives; give sends a moment to drain (they are local copies). */
  ring_close(&m.rep);
  ring_close(&m.req);
  for (int s = 0; s < m.send_hi; s++) {
    MPI_Request *r = &m.sreq[s];
    int flag = 0;
    if (*r == MPI_REQUEST_NULL) continue;
    MPI_Test(r, &flag, MPI_STATUS_IGNORE);
    if (!flag) {
      MPI_Cancel(r);
      MPI_Request_free(r);
    }
  }
  MPI_Comm_free(&m.comm);
  credits_fini(&m.cr);
}

/* the pre-posted receives, each of the largest message */
static size_t mpi_recv_bytes(void) { return (size_t)(m.rep.n + m.req.n) * MAX_MSG; }

const stp_core_ops_t stp_core_mpi_ops = {
    .name = "core-mpi",
    .attach = mpi_attach,
    .detach = mpi_detach,
    .max_medium = MAX_PAYLOAD,
    .max_long_request = MAX_PAYLOAD,
    .max_long_reply = MAX_PAYLOAD,
    .request = mpi_request,
    .reply = mpi_reply,
    .poll = mpi_poll,
    .recv_bytes = mpi_recv_bytes,
};
