/*
 * ucx_am.c -- the UCX Core: Active Messages as UCX active messages, on the
 * `ucx` stage's network (net-ucx: the same worker, endpoints and progress
 * as the Extended API's RMA).
 *
 * Two paths:
 *
 * The mailbox (small Shorts and Mediums): every node has, in UCX-allocated
 * memory whose key every peer holds, a request ring and a reply ring of
 * MB_SLOT-byte slots per sender.  A message is written into the target's
 * ring with two RMA puts -- the slot image (header, arguments, payload),
 * then, after a fence, the slot's 8-byte sequence stamp -- and the target
 * finds it by reading the stamp of its ring heads when it polls.  An RMA
 * put is UCX's shortest path (measured here: a put's one-way latency is a
 * third of a UCX active message's), which is why AM round trips beat UCX's
 * own AMs.  A slot is reused only once its credit has come back (credits/,
 * one credit per slot, the rings' own instance); the target copies a
 * message out of its slot before the handler runs (but for the big box's
 * requests, below).  A reply to a mailbox
 * request goes into the requester's reply ring when it fits: every message
 * in a reply ring returns at least one slot credit (the request's, owed
 * from just before its handler ran, or a batch in a credit-only message),
 * so a reply ring of the share's size can never overflow and replies never
 * wait.  A request finding no slot credit takes the other path.
 *
 * Native negotiated-payload Mediums (uam_np_prepare) are written straight
 * into the target's slot where UCX maps the target's rings here (shared
 * memory): reserved at Prepare, the header and stamp written at Commit
 * with plain stores.  Those too large for a mailbox slot go through the big
 * box, rings of the same kind with fewer, MAX_MEDIUM-sized slots (only such
 * Mediums use its request rings; a reply to a request taken from it uses
 * its reply ring as above).  A big-box request is not copied out: its
 * handler runs on the slot, which is then marked done in its stamp
 * (MB_DONE), and a sender writes a request slot again only once the
 * request before it there is done -- else that Medium takes the reference
 * path (mb_req_slot_done).  Its credit alone would not do: it goes back in
 * the reply, which the handler may send before it has read its payload.
 *
 * Long payloads (STAGEPORT_AM_LONG=rma, the default with a mailbox): an RMA
 * put of the payload straight into its place in the target's segment, a
 * fence, and the message (its destination where a Medium's payload would
 * be) through the mailbox -- waiting for a slot credit if need be, as a
 * request waits for any credit.  (=am: the payload inside a UCX active
 * message, below.)
 *
 * UCX active messages (everything else): ucp_am_send_nbx with our header
 * (source node, returned credits, category, handler, [Long destination],
 * arguments) as UCX's user header and the payload as its data; requests
 * and replies under two UCX AM ids (net-ucx/ucx_conduit.h lists them).
 * UCX picks eager or rendezvous by size; a Long payload larger than
 * HELD_MAX is always sent by rendezvous.
 *
 * Receiving: UCX calls back from inside ucp_worker_progress, where nothing
 * may progress the worker again -- and a handler's reply may have to.  So
 * the callback only files the message: an eager Medium payload stays in
 * UCX's buffer (UCS_INPROGRESS, released after the handler) when UCX lets us
 * keep it, it is 8-byte aligned and large (HOLD_MIN, or the only one kept),
 * else it is copied (small ones into the message record); a Long's eager payload is copied to its destination at
 * once; a rendezvous payload is fetched by ucp_am_recv_data_nbx straight into
 * its place -- the segment for a Long, a pooled buffer for a Medium -- and
 * filed when that completes.  poll() progresses the worker and runs what was
 * filed, in arrival order.  Handlers therefore never run inside UCX, and a
 * reply's wait (progress only) never runs a handler.
 *
 * Sending returns once UCX no longer needs the source (at once for an
 * eager message UCX sent or copied; else the request is waited for): a
 * requester keeps the library progressing while it waits, a replier only
 * the worker.  A LongAsync is waited for like a Long (allowed: stricter).
 *
 * Flow control of this path (credits/, its own instance): a credit is UNIT bytes of payload held at the
 * target (UCX's receive buffers we keep, our pooled Medium buffers) plus the
 * message record; a request costs 1 + ceil(held / UNIT), held = its payload,
 * except a rendezvous-only Long (nothing held: the data lands in the
 * segment).  Equal shares per peer; every message carries the credits owed
 * to its receiver in a 16-bit header field, a handler that did not reply
 * leaves its credits to a later message or, once half a share is owed, a
 * credit-only message.  A requester out of credits keeps serving requests
 * (stp_wait_step) until they return; replies cost nothing and never wait
 * for credits.  stageport_am_recv_bytes() is the payload every peer may
 * have held here at once, nodes x share x UNIT, plus the mailbox and big-box rings.
 */
#include "ucx_conduit.h"

#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>

#include "amflow.h"

#define UNIT 1024u                   /* payload bytes held at the target per credit */
#define MAX_MEDIUM 65536u            /* >= the real ucx-conduit's (65456 by default) */
#define HELD_MAX MAX_MEDIUM          /* a larger Long goes by rendezvous only */
#define MAX_LONG ((size_t)INT_MAX - 128) /* the real ucx-conduit's order of magnitude */
#define MAX_ARGS 16
#define INLINE_BYTES 256             /* small unaligned or unkept payloads are copied into the record */
#define HOLD_MIN 4096                /* UCX's buffer is kept from this size on, and below it only when no other
                                      * is kept: measured here, keeping many 512-2048 B buffers slows a flood to
                                      * 1.2-2 us a message, where a copy costs 0.5-0.8; a lone one saves a
                                      * round trip 0.2-0.4 us */
#define CAT_CREDIT 3                 /* a credit-only message (reply id) */
#define CAT_NOP 4                    /* a mailbox slot reserved by a native NP Prepare, then cancelled */
#define DEFAULT_SHARE 256u           /* credits per peer: 256 KiB of held payload */
#define MIN_SHARE (2u * (1u + MAX_MEDIUM / UNIT)) /* two largest Mediums */

#define MB_SLOT 1024u                /* a mailbox slot: stamp, then the image (header, arguments, payload) */
#define MB_IMG_OFF 8u                /* the stamp (message number + 1, written last) comes first: a small
                                      * message's stamp and image share one cache line, one miss */
#define MB_IMG_MAX (MB_SLOT - MB_IMG_OFF)
#define MB_DEFAULT_SLOTS 32u         /* slots per ring */
#define BB_SLOT ((MB_IMG_OFF + 128u + MAX_MEDIUM + 63u) & ~63u) /* a big-box slot: a native NP Medium of up to MAX_MEDIUM bytes */
_Static_assert(MB_SLOT % 64 == 0 && BB_SLOT % 64 == 0, "slots start at cache lines (and 16-byte boundaries)");
#define BB_DEFAULT_SLOTS 2u          /* big-box slots per ring */
#define BB_MAX_BYTES (32u << 20)     /* the big box's default stays within this (else it is off) */
#define BB_POLL_EVERY 4u             /* the big box is scanned every 4th poll ... */
#define BB_HOT_POLLS 4096u           /* ... or at every poll for this many after it was used (uam_poll) */
enum { MB_REQ = 0, MB_REP = 1 };     /* the two rings per sender */

_Static_assert(CAT_CREDIT != STP_AM_SHORT && CAT_CREDIT != STP_AM_MEDIUM && CAT_CREDIT != STP_AM_LONG,
               "a credit-only message is no AM category");
_Static_assert(CAT_NOP > CAT_CREDIT && CAT_NOP > STP_AM_LONG, "a cancelled slot is no AM category");

/* The user header of every message; a Long's destination (8 bytes) and
 * then the arguments follow. */
typedef struct uam_hdr {
  uint32_t src;
  uint16_t credits; /* returned to the receiver */
  uint8_t cat;
  uint8_t handler;
} uam_hdr_t;
#define HDR_MAX (sizeof(uam_hdr_t) + 8 + 4 * MAX_ARGS)

/* The start of a mailbox slot's image; the arguments follow, then the
 * payload where it falls 16-byte aligned in the slot (MB_IMG_OFF + the
 * offset: a native NP payload is written in place, and a GASNet-allocated
 * buffer is aligned for any type). */
typedef struct mb_hdr {
  uam_hdr_t h; /* credits: slot credits */
  uint32_t nbytes;
  uint8_t nargs;
  uint8_t pad[3];
} mb_hdr_t;
static inline size_t mb_payload_off(unsigned nargs) {
  return ((MB_IMG_OFF + sizeof(mb_hdr_t) + 4 * (size_t)nargs + 15) & ~(size_t)15) - MB_IMG_OFF;
}
static inline int mb_fits(unsigned nargs, size_t nbytes) { return mb_payload_off(nargs) + nbytes <= MB_IMG_MAX; }

/* An arrived message, filed by the callback for poll() to run. */
typedef struct uam_msg {
  struct uam_msg *next;
  void *buf;    /* the payload as the handler sees it */
  void *held;   /* UCX's data to release after the handler, or NULL */
  void *own;    /* a pooled Medium buffer to return, or NULL */
  size_t nbytes;
  uint32_t src;
  uint8_t cat, handler, nargs, is_request;
  gex_AM_Arg_t args[MAX_ARGS];
  uint64_t inl[INLINE_BYTES / 8];
} uam_msg_t;

typedef struct medbuf {
  struct medbuf *next;
} medbuf_t;

/* A box of rings (the mailbox; the big box): per sender a request and a
 * reply ring of `slots` slots of slot_bytes each, in UCX-allocated memory
 * whose key every peer holds.  token->core of a request taken from a box
 * is the box: its reply may take the box's reply ring. */
typedef struct mbox {
  const char *name;
  uint32_t slots;        /* per ring; 0: no box */
  uint32_t slot_bytes;   /* MB_SLOT or BB_SLOT */
  credits_t mc;          /* one credit per slot */
  stp_ucx_region_t mb;   /* my rings: [sender][MB_REQ, MB_REP][slot] */
  stp_ucx_remote_t *rmb; /* every node's rings */
  char **map;            /* every node's rings mapped here (ucp_rkey_ptr: shared memory), or NULL */
  uint64_t *sent;        /* [node * 2 + ring]: messages put into node's ring for me */
  uint64_t *got;         /* [node * 2 + ring]: messages taken from my ring for node */
  int req_in_place;      /* its requests run in their slots (the big box: no copy out); each marks its stamp
                          * MB_DONE when its handler has returned, and a sender reuses a request slot only then */
} mbox_t;
#define MB_DONE (1ull << 63) /* in a stamp: the message's handler has returned (a box whose requests run in place) */

static struct {
  ucp_worker_h worker;
  ucp_ep_h *ep;
  credits_t cr;
  uint32_t share;
  uam_msg_t *head, *tail; /* filed, in arrival order */
  uam_msg_t *free_msg;
  medbuf_t *free_buf;
  int detached; /* after detach: arrivals are dropped */
  unsigned nheld; /* UCX buffers kept */
  mbox_t mbx;            /* the mailbox */
  mbox_t bbx;            /* the big box: native NP Mediums too large for the mailbox, where mapped */
  unsigned bb_polls;     /* polls, for the big box's turn */
  unsigned bb_hot;       /* polls left that scan the big box every time (BB_HOT_POLLS) */
  int long_rma;          /* STAGEPORT_AM_LONG=rma: Long payloads by RMA, the message through the mailbox */
} uam;

static void malformed(int is_request, uint32_t src, size_t hlen, size_t length, const char *why) STP_NORETURN;

/* ------------------------------------------------------------------ */
/* records and buffers                                                 */
/* ------------------------------------------------------------------ */
static uam_msg_t *msg_get(void) {
  uam_msg_t *m = uam.free_msg;
  if (STP_LIKELY(m)) {
    uam.free_msg = m->next;
    return m;
  }
  if (posix_memalign((void **)&m, 64, sizeof(*m))) stp_fatal("UCX Core: out of memory for a message record");
  return m;
}

static void msg_put(uam_msg_t *m) {
  m->next = uam.free_msg;
  uam.free_msg = m;
}

static void *medbuf_get(void) {
  medbuf_t *b = uam.free_buf;
  if (STP_LIKELY(b)) {
    uam.free_buf = b->next;
    return b;
  }
  if (posix_memalign((void **)&b, 64, MAX_MEDIUM)) stp_fatal("UCX Core: out of memory for a Medium buffer");
  return b;
}

static void medbuf_put(void *p) {
  medbuf_t *b = p;
  b->next = uam.free_buf;
  uam.free_buf = b;
}

/* the record's resources, after its handler or when it is dropped */
static void msg_release(uam_msg_t *m) {
  if (m->held) {
    ucp_am_data_release(uam.worker, m->held);
    uam.nheld--;
  }
  if (m->own) medbuf_put(m->own);
  msg_put(m);
}

static void file(uam_msg_t *m) {
  m->next = NULL;
  if (uam.tail) uam.tail->next = m;
  else uam.head = m;
  uam.tail = m;
}

/* ------------------------------------------------------------------ */
/* flow control                                                        */
/* ------------------------------------------------------------------ */
/* what a request holds at its target (both sides compute it alike) */
static inline size_t held_bytes(int cat, size_t nbytes) { return cat == STP_AM_LONG && nbytes > HELD_MAX ? 0 : nbytes; }

/* ------------------------------------------------------------------ */
/* sending                                                             */
/* ------------------------------------------------------------------ */
static void send_failed(ucs_status_t st, const char *what, gex_Rank_t dest) STP_NORETURN;
static void send_failed(ucs_status_t st, const char *what, gex_Rank_t dest) {
  stp_ucx_report(&stp_uc.u, st, "sending an AM %s to node %u", what, (unsigned)dest);
  stp_fatal("UCX Core: an AM %s to node %u failed: %s", what, (unsigned)dest, ucs_status_string(st));
}

/* What a send returned, until UCX no longer needs the source: done (NULL),
 * failed, or a request to wait for -- a requester keeps the library
 * progressing (serving requests), a replier only the worker. */
static void wait_sent(ucs_status_ptr_t r, int serve, gex_Rank_t dest) {
  const char *what = serve ? "request" : "reply";
  unsigned spins = 0;
  ucs_status_t st;
  if (STP_LIKELY(r == NULL)) return;
  if (STP_UNLIKELY(UCS_PTR_IS_ERR(r))) {
    if (!stp_uc.closing) send_failed(UCS_PTR_STATUS(r), what, dest);
    return;
  }
  while ((st = ucp_request_check_status(r)) == UCS_INPROGRESS) {
    if (serve) {
      stp_wait_step(&spins);
    } else {
      ucp_worker_progress(uam.worker);
      if (STP_UNLIKELY(stp.wait_slow)) stp_wait_step_slow(&spins);
    }
  }
  ucp_request_free(r);
  if (STP_UNLIKELY(st != UCS_OK) && !stp_uc.closing) send_failed(st, what, dest);
}

/* A message with lc (send_msg): its header, kept until UCX completes the
 * send, when the lc count is finished (stp_uc_ev_done with the user data
 * stp_uc_ev_param made). */
typedef struct lc_hdr {
  void *ud;
  gex_Rank_t dest;
  uint64_t hb[HDR_MAX / 8];
} lc_hdr_t;

static void lc_sent(void *req, ucs_status_t st, void *p) {
  lc_hdr_t *c = p;
  stp_uc_queued_done(c->dest);
  stp_uc_ev_done(req, st, c->ud);
  free(c);
}

/* An IMMEDIATE request's copy (send_msg): freed when UCX is done with it. */
typedef struct imm_copy {
  gex_Rank_t dest;
  uint64_t bytes[]; /* header, then payload */
} imm_copy_t;

static void imm_sent(void *req, ucs_status_t st, void *p) {
  imm_copy_t *c = p;
  ucp_request_free(req);
  stp_uc_queued_done(c->dest);
  free(c);
  if (STP_UNLIKELY(st != UCS_OK) && !stp_uc.closing)
    stp_fatal("UCX Core: an IMMEDIATE AM request failed: %s", ucs_status_string(st));
}

/* Send am (NULL: credit-only) by the UCX AM path, waiting until UCX no
 * longer reads the payload -- except with lc (counted there) and for an
 * IMMEDIATE request, which must not wait for dest to progress (a full
 * transport queue completes only then): its header and payload are copied
 * and sent from the copy, freed at completion.  (UCX's
 * UCP_OP_ATTR_FLAG_FORCE_IMM_CMPL would refuse instead, but UCX 1.13 sends
 * part of a multi-fragment message before it refuses.) */
static void send_msg(gex_Rank_t dest, unsigned id, int cat, const stp_am_t *am) {
  uint64_t hb[HDR_MAX / 8];
  uam_hdr_t *h = (uam_hdr_t *)hb;
  char *p = (char *)hb + sizeof(*h);
  ucp_request_param_t prm;
  ucs_status_ptr_t r;
  const void *src = NULL;
  size_t nbytes = 0;
  h->src = stp.mynode;
  h->credits = (uint16_t)credits_piggyback(&uam.cr, dest, UINT16_MAX);
  h->cat = (uint8_t)cat;
  prm.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  prm.flags = 0;
  if (am) {
    /* the header's bound, checks on or off (the API layer reports the
     * client's error with checks on; this keeps memory safe without them) */
    if (STP_UNLIKELY(am->nargs > MAX_ARGS)) stp_fatal("AM to node %u: %u arguments, over %d", (unsigned)dest, am->nargs, MAX_ARGS);
    h->handler = am->handler;
    if (cat == STP_AM_LONG) {
      uint64_t dst = (uint64_t)(uintptr_t)am->dst;
      memcpy(p, &dst, 8);
      p += 8;
      if (am->nbytes > HELD_MAX) prm.flags = UCP_AM_SEND_FLAG_RNDV;
    }
    memcpy(p, am->args, 4 * (size_t)am->nargs);
    p += 4 * (size_t)am->nargs;
    src = am->src;
    nbytes = am->nbytes;
  } else {
    h->handler = 0;
  }
  if (am && am->lc) { /* local completion counted when UCX no longer reads the payload, not waited for */
    int lcat = stp_am_lc_cat(am->lc);
    lc_hdr_t *c = malloc(sizeof(*c)); /* (the header outlives this frame: UCX may read it later) */
    if (!c) stp_fatal("UCX Core: out of memory for an AM header");
    memcpy(c->hb, hb, (size_t)(p - (char *)hb));
    c->dest = dest;
    stp_uc_ev_param(&prm, am->lc, lcat);
    c->ud = prm.user_data;
    prm.user_data = c;
    prm.cb.send = lc_sent;
    if (stp_uc_ev_track(ucp_am_send_nbx(uam.ep[dest], id, c->hb, (size_t)(p - (char *)hb), src, nbytes, &prm), am->lc,
                        lcat, id == STP_UC_AM_REQUEST ? "an AM request to" : "an AM reply to", dest))
      free(c); /* (complete already, or failed while closing: no callback) */
    else
      stp_uc_queued_start(dest);
    return;
  }
  if (am && id == STP_UC_AM_REQUEST && (am->flags & GEX_FLAG_IMMEDIATE)) {
    size_t hlen = (size_t)(p - (char *)hb);
    imm_copy_t *c = malloc(sizeof(*c) + hlen + nbytes);
    char *copy;
    if (!c) stp_fatal("UCX Core: out of memory for an IMMEDIATE AM request's %zu bytes", hlen + nbytes);
    copy = (char *)c->bytes;
    c->dest = dest;
    memcpy(copy, hb, hlen);
    if (nbytes) memcpy(copy + hlen, src, nbytes);
    prm.op_attr_mask |= UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    prm.cb.send = imm_sent;
    prm.user_data = c;
    r = ucp_am_send_nbx(uam.ep[dest], id, copy, hlen, copy + hlen, nbytes, &prm);
    if (r == NULL) free(c);
    else if (UCS_PTR_IS_ERR(r)) send_failed(UCS_PTR_STATUS(r), "request", dest);
    else stp_uc_queued_start(dest);
    return;
  }
  r = ucp_am_send_nbx(uam.ep[dest], id, hb, (size_t)(p - (char *)hb), src, nbytes, &prm);
  wait_sent(r, id == STP_UC_AM_REQUEST, dest);
}

/* ------------------------------------------------------------------ */
/* the mailbox                                                         */
/* ------------------------------------------------------------------ */
/* What was put to any node lands before what is put next: the order the
 * payload, image and stamp depend on. */
static void mb_fence(gex_Rank_t dest, const char *what) {
  ucs_status_t st = ucp_worker_fence(uam.worker);
  if (STP_UNLIKELY(st != UCS_OK)) {
    stp_ucx_report(&stp_uc.u, st, "fencing the AM mailbox");
    stp_fatal("UCX Core: ucp_worker_fence failed (%s) between %s of a message to node %u: its order cannot be kept",
              ucs_status_string(st), what, (unsigned)dest);
  }
}

static void mb_put1(gex_Rank_t dest, const void *buf, size_t len, uint64_t raddr, ucp_rkey_h rkey, int serve) {
  ucp_request_param_t prm;
  ucs_status_ptr_t r;
  prm.op_attr_mask = 0;
  r = ucp_put_nbx(uam.ep[dest], buf, len, raddr, rkey, &prm);
  wait_sent(r, serve, dest);
}

/* A native NP reservation (uam_np_prepare; am->np and np->hold point to
 * it): the calling thread's (the Core's per-thread memory,
 * stp_thread()->core: no TLS lookup), one Prepare at a time, one for
 * requests and one for replies (a request's Commit may poll and run a
 * handler that prepares its reply).  Either a slot of the target's ring
 * in a box mapped here (slot: the payload is written into the target's
 * memory, and Commit writes the header and the stamp -- no copy, no UCX
 * call), or the thread's mailbox image (slot NULL), which mb_send puts.
 * The image sits 8 bytes past a 16-byte boundary, as an image does in a
 * slot, so the payload is 16-byte aligned in both. */
typedef struct np_resv {
  char *slot;      /* the mapped slot (its stamp first), or NULL */
  uint64_t stamp;  /* the slot's sequence stamp */
  uint8_t ring;
  uint64_t img[(MB_IMG_MAX / 8 + 2) & ~1u] __attribute__((aligned(16)));
} np_resv_t;
_Static_assert(sizeof(((np_resv_t *)0)->img) >= MB_IMG_MAX + 8, "an image, 8 bytes in");
static inline uint64_t *np_resv_img(np_resv_t *r) { return r->img + 1; }

/* The Core's per-thread memory: the NP reservations, [0] requests, [1]
 * replies, and where a big-box reply is copied out of its slot. */
typedef struct uam_thr {
  np_resv_t resv[2];
  uint64_t *bb_img; /* BB_SLOT bytes, on first use */
} uam_thr_t;

/* freed never: a thread's state outlives it (stp_thread_slow) */
static uam_thr_t *uam_thr(void) {
  stp_thread_t *t = stp_thread();
  if (STP_UNLIKELY(!t->core)) {
    void *p = NULL;
    if (posix_memalign(&p, 16, sizeof(uam_thr_t))) stp_fatal("UCX Core: out of memory (per-thread state)");
    ((uam_thr_t *)p)->bb_img = NULL;
    t->core = p;
  }
  return t->core;
}
static inline np_resv_t *np_resv(int is_req) { return &uam_thr()->resv[is_req ? 0 : 1]; }

/* the offset of node `from`'s ring `ring`, slot of message n, in a box */
static inline uint64_t mb_slot_off(const mbox_t *b, gex_Rank_t from, int ring, uint64_t n) {
  return ((((uint64_t)from * 2 + (uint64_t)ring) * b->slots) + n % b->slots) * b->slot_bytes;
}
/* a message of nargs arguments and nbytes of payload fits one of b's slots */
static inline int mb_fits_in(const mbox_t *b, unsigned nargs, size_t nbytes) {
  return mb_payload_off(nargs) + nbytes <= b->slot_bytes - MB_IMG_OFF;
}

/* Put a message (am NULL: credit-only) into ring `ring` of dest's box b:
 * the image (at most MB_IMG_MAX bytes: mb_fits_am), a fence, the stamp.  A
 * Long (STAGEPORT_AM_LONG=rma) first puts its payload into place and
 * fences, and its image carries the destination where a Medium's payload
 * would be.  The caller holds the slot's credit (a request), or a reply
 * ring's slot is free by construction. */
static void mb_send(mbox_t *b, gex_Rank_t dest, int ring, int cat, const stp_am_t *am) {
  uint64_t stack_img[MB_IMG_MAX / 8],
      *img = am && am->np ? np_resv_img((np_resv_t *)am->np) : stack_img; /* (NP: the payload is in place) */
  mb_hdr_t *mh = (mb_hdr_t *)img;
  uint64_t n = b->sent[2 * (size_t)dest + ring]++, stamp = n + 1;
  uint64_t roff = mb_slot_off(b, stp.mynode, ring, n);
  uint64_t raddr = b->rmb[dest].addr + roff;
  ucp_rkey_h rkey = b->rmb[dest].rkey;
  if (STP_UNLIKELY(roff + b->slot_bytes > b->rmb[dest].len)) /* (checks on or off: a put lands wherever the key reaches) */
    stp_fatal("AM %s: slot %" PRIu64 " of ring %d at node %u lies outside its %" PRIu64 "-byte box", b->name,
              n % b->slots, ring, (unsigned)dest, b->rmb[dest].len);
  size_t len = sizeof(*mh);
  int serve = ring == MB_REQ;
  if (am && cat == STP_AM_LONG && am->nbytes) {
    /* bounded here, checks on or off: an RMA put outside the target's
     * segment would land in whatever the key reaches */
    if (STP_UNLIKELY(!stp_seg_contains(dest, am->dst, am->nbytes)))
      stp_fatal("AM Long to node %u: destination %p + %zu bytes outside its segment [%p, +%zu)", (unsigned)dest,
                am->dst, am->nbytes, stp.seg[dest].addr, (size_t)stp.seg[dest].size);
    if (am->lc) { /* local completion counted when UCX no longer reads the payload, not waited for */
      ucp_request_param_t prm;
      int lcat = stp_am_lc_cat(am->lc);
      prm.op_attr_mask = 0;
      stp_uc_ev_param(&prm, am->lc, lcat);
      (void)stp_uc_ev_track(ucp_put_nbx(uam.ep[dest], am->src, am->nbytes, (uint64_t)(uintptr_t)am->dst,
                                        stp_uc_rkey(dest), &prm),
                            am->lc, lcat, "an AM Long payload to", dest);
    } else {
      mb_put1(dest, am->src, am->nbytes, (uint64_t)(uintptr_t)am->dst, stp_uc_rkey(dest), serve);
    }
    mb_fence(dest, "the Long payload and the image"); /* the payload lands before the message */
  }
  mh->h.src = stp.mynode;
  mh->h.credits = (uint16_t)credits_piggyback(&b->mc, dest, UINT16_MAX);
  mh->h.cat = (uint8_t)cat;
  mh->h.handler = am ? am->handler : 0;
  mh->nbytes = am ? (uint32_t)am->nbytes : 0;
  mh->nargs = am ? am->nargs : 0;
  if (am) {
    size_t off = mb_payload_off(am->nargs);
    memcpy(mh + 1, am->args, 4 * (size_t)am->nargs);
    if (cat == STP_AM_LONG) {
      uint64_t dst = (uint64_t)(uintptr_t)am->dst;
      memcpy((char *)img + off, &dst, 8);
      len = off + 8;
    } else {
      if (am->nbytes && !am->np) memcpy((char *)img + off, am->src, am->nbytes);
      len = off + am->nbytes;
    }
  }
  mb_put1(dest, img, len, raddr + MB_IMG_OFF, rkey, serve);
  mb_fence(dest, "the image and the stamp"); /* the image lands before the stamp */
  mb_put1(dest, &stamp, 8, raddr, rkey, serve);
}

/* A native NP reservation of the next slot of dest's ring in box b, mapped
 * here: its stamp, and the header's source and returned credits written
 * now (the credits go with this message whether it is committed or
 * cancelled: a reply-ring message always returns what was owed when it
 * was taken).  The caller holds the slot's credit (a request), or the
 * reply ring's slot is free by construction. */
static void mb_reserve(mbox_t *b, np_resv_t *r, gex_Rank_t dest, int ring) {
  uint64_t n = b->sent[2 * (size_t)dest + ring]++;
  mb_hdr_t *mh;
  r->slot = b->map[dest] + mb_slot_off(b, stp.mynode, ring, n); /* (inside: every node's box has the agreed length) */
  r->stamp = n + 1;
  r->ring = (uint8_t)ring;
  mh = (mb_hdr_t *)(r->slot + MB_IMG_OFF);
  mh->h.src = stp.mynode;
  mh->h.credits = (uint16_t)credits_piggyback(&b->mc, dest, UINT16_MAX);
}

/* Commit a reserved slot (am NULL: a Cancel, which leaves CAT_NOP there so
 * the target's ring moves on): the rest of the header, the arguments, then
 * the stamp, released after them. */
static void mb_commit(np_resv_t *r, int cat, const stp_am_t *am) {
  mb_hdr_t *mh = (mb_hdr_t *)(r->slot + MB_IMG_OFF);
  mh->h.cat = (uint8_t)(am ? cat : CAT_NOP);
  mh->h.handler = am ? am->handler : 0;
  mh->nbytes = am ? (uint32_t)am->nbytes : 0;
  mh->nargs = am ? am->nargs : 0;
  if (am) memcpy(mh + 1, am->args, 4 * (size_t)am->nargs);
  __atomic_store_n((uint64_t *)r->slot, r->stamp, __ATOMIC_RELEASE);
  r->slot = NULL;
}

/* A native NP Medium in its reserved slot: committed there (1), else 0. */
static inline int np_committed(const stp_am_t *am) {
  np_resv_t *r = (np_resv_t *)am->np;
  if (!r || !r->slot) return 0;
  mb_commit(r, am->cat, am);
  return 1;
}

/* the bytes of a message's slot image after its header: arguments and
 * payload, or a Long's destination */
static inline size_t mb_image_bytes(const mb_hdr_t *mh) {
  return mb_payload_off(mh->nargs) + (mh->h.cat == STP_AM_LONG ? 8 : mh->nbytes);
}
/* an AM whose image mb_send can build (the mailbox's slot image) */
static inline int mb_fits_am(const stp_am_t *am) { return mb_fits(am->nargs, am->cat == STP_AM_LONG ? 8 : am->nbytes); }

/* Run one message copied out of its slot of box b (img: 8-byte aligned;
 * what its header does not bound is refused here). */
static void mb_run(mbox_t *b, const uint64_t *img, int ring, gex_Rank_t from) {
  mb_hdr_t mh;
  stp_token_t tok;
  void *buf = NULL;
  int is_request = ring == MB_REQ;
  memcpy(&mh, img, sizeof(mh));
  if (STP_UNLIKELY(mh.h.src != from || mh.nargs > MAX_ARGS || mh.h.cat > CAT_NOP ||
                   (mh.h.cat == CAT_CREDIT && is_request) || mb_image_bytes(&mh) > b->slot_bytes - MB_IMG_OFF ||
                   ((mh.h.cat == STP_AM_SHORT || mh.h.cat >= CAT_CREDIT) && mh.nbytes) ||
                   (mh.h.cat == CAT_NOP && mh.nargs) || (mh.h.cat == STP_AM_MEDIUM && mh.nbytes > MAX_MEDIUM) ||
                   (mh.h.cat == STP_AM_LONG && mh.nbytes > MAX_LONG)))
    malformed(is_request, from, sizeof(mh) + 4 * (size_t)mh.nargs, mh.nbytes, "a bad mailbox slot");
  if (mh.h.credits && STP_UNLIKELY(credits_returned(&b->mc, from, mh.h.credits) != CREDITS_OK))
    stp_fatal("AM flow control: node %u returned %s credits it was not owing: %s", (unsigned)from, b->name,
              credits_error(&b->mc));
  if (mh.h.cat == CAT_CREDIT) return;
  if (is_request && STP_UNLIKELY(credits_arrived(&b->mc, from, 1) != CREDITS_OK))
    stp_fatal("AM flow control: node %u sent more %s requests than its credits allow: %s", (unsigned)from, b->name,
              credits_error(&b->mc));
  if (mh.h.cat == CAT_NOP) { /* a cancelled reservation: a request's slot credit is owed back all the same */
    if (is_request && credits_flush_due(&b->mc, from)) mb_send(b, from, MB_REP, CAT_CREDIT, NULL);
    return;
  }
  tok.src = from;
  tok.is_request = (uint8_t)is_request;
  tok.replied = 0;
  tok.core = b;
  if (mh.h.cat == STP_AM_LONG) { /* the payload is in place: the fence put it there before this message */
    uint64_t d;
    memcpy(&d, (const char *)img + mb_payload_off(mh.nargs), 8);
    buf = (void *)(uintptr_t)d;
    if (STP_UNLIKELY(!stp_in_my_segment(buf, mh.nbytes))) stp_bad_address("AM Long destination", from, buf, mh.nbytes);
  } else if (mh.nbytes) {
    buf = (void *)((const char *)img + mb_payload_off(mh.nargs));
  }
  stp_am_run(&tok, mh.h.handler, mh.h.cat, (const gex_AM_Arg_t *)((const char *)img + sizeof(mh)), mh.nargs,
             buf, mh.nbytes);
  /* the slot credits the reply did not carry (no reply, or one too large
   * for the box, sent as a UCX AM) go back once a batch is owed */
  if (is_request && credits_flush_due(&b->mc, from)) mb_send(b, from, MB_REP, CAT_CREDIT, NULL);
}

/* Take what has arrived in box b's rings: replies, then requests, per
 * sender, each copied into img (a slot's image bytes) before it runs. */
static int mb_scan(mbox_t *b, uint64_t *img) {
  int n = 0;
  size_t max = b->slot_bytes - MB_IMG_OFF;
  for (gex_Rank_t p = 0; p < stp.nodes; p++) {
    for (int ring = MB_REP; ring >= MB_REQ; ring--) {
      uint64_t *got = &b->got[2 * (size_t)p + ring];
      for (uint32_t k = 0; k < b->slots; k++) {
        uint64_t g = *got;
        char *slot = (char *)b->mb.addr + mb_slot_off(b, p, ring, g);
        mb_hdr_t *mh = (mb_hdr_t *)img;
        size_t len;
        uint64_t stamp = __atomic_load_n((uint64_t *)slot, __ATOMIC_ACQUIRE);
        if (stamp != g + 1) {
          /* (stamps only grow: a later lap wrote over an untaken message) */
          if (STP_UNLIKELY((stamp & ~MB_DONE) > g + 1))
            stp_fatal("AM %s: node %u overran its %s ring here (message %" PRIu64 " found where %" PRIu64
                      " was due): the slot credits are broken", b->name, (unsigned)p,
                      ring == MB_REQ ? "request" : "reply", stamp, g + 1);
          break;
        }
        if (ring == MB_REQ && b->req_in_place) {
          /* run where it lies: its slot credit may go back in the reply, but
           * its sender writes the slot again only once it is marked done */
          *got = g + 1;
          mb_run(b, (const uint64_t *)(slot + MB_IMG_OFF), ring, p);
          __atomic_store_n((uint64_t *)slot, (g + 1) | MB_DONE, __ATOMIC_RELEASE);
          n++;
          continue;
        }
        /* out of the slot first (its credit may go back in the reply): the
         * header, then what it says follows, bounded to the slot */
        memcpy(img, slot + MB_IMG_OFF, sizeof(*mh));
        len = mh->nargs <= MAX_ARGS && mb_image_bytes(mh) <= max ? mb_image_bytes(mh) : 0;
        if (len > sizeof(*mh)) memcpy(img + sizeof(*mh) / 8, slot + MB_IMG_OFF + sizeof(*mh), len - sizeof(*mh));
        *got = g + 1;
        mb_run(b, img, ring, p);
        n++;
      }
    }
  }
  return n;
}

/* the calling thread's buffer a big-box message is copied into */
static uint64_t *bb_img(void) {
  uam_thr_t *t = uam_thr();
  if (STP_UNLIKELY(!t->bb_img)) {
    void *p = NULL;
    if (posix_memalign(&p, 16, BB_SLOT)) stp_fatal("UCX Core: out of memory (a big-box image)");
    t->bb_img = p;
  }
  return t->bb_img;
}

static int uam_request_am(gex_Rank_t dest, const stp_am_t *am);
static int uam_request(gex_Rank_t dest, const stp_am_t *am) {
  if (np_committed(am)) return GASNET_OK; /* (credit taken at Prepare) */
  if (am->cat == STP_AM_LONG && uam.long_rma) { /* the payload by RMA, the message through the mailbox */
    if (STP_UNLIKELY(stp_am_pay(&uam.mbx.mc, dest, 1, am->flags, NULL))) return 1; /* (IMMEDIATE: refused) */
    mb_send(&uam.mbx, dest, MB_REQ, am->cat, am);
    return GASNET_OK;
  }
  if (uam.mbx.slots && am->cat != STP_AM_LONG && mb_fits_am(am) && credits_charge(&uam.mbx.mc, dest, 1) == CREDITS_OK) {
    mb_send(&uam.mbx, dest, MB_REQ, am->cat, am);
    return GASNET_OK;
  }
  return uam_request_am(dest, am);
}

/* the UCX active-message path */
static int uam_request_am(gex_Rank_t dest, const stp_am_t *am) {
  uint32_t cost = credits_cost(&uam.cr, held_bytes(am->cat, am->nbytes));
  /* IMMEDIATE: refused, nothing taken, behind sends UCX still holds for dest */
  if (STP_UNLIKELY(am->flags & GEX_FLAG_IMMEDIATE) && stp_uc_queued(dest)) return 1;
  if (STP_UNLIKELY(stp_am_pay(&uam.cr, dest, cost, am->flags, NULL))) return 1; /* (IMMEDIATE: refused) */
  send_msg(dest, STP_UC_AM_REQUEST, am->cat, am);
  return GASNET_OK;
}

/* May dest's request ring of box b, mapped here, take my next message: has
 * the request that last used its slot returned from its handler (a box
 * whose requests run in place; the slot's credit alone says it was taken)? */
static inline int mb_req_slot_done(const mbox_t *b, gex_Rank_t dest) {
  uint64_t n = b->sent[2 * (size_t)dest + MB_REQ];
  if (!b->req_in_place || n < b->slots) return 1;
  return __atomic_load_n((const uint64_t *)(b->map[dest] + mb_slot_off(b, stp.mynode, MB_REQ, n)), __ATOMIC_ACQUIRE) ==
         ((n - b->slots + 1) | MB_DONE);
}

/* The most of a reserved slot np_warm asks for at once: past 8 KiB (128
 * lines) more requests in flight only queue behind the first (measured,
 * warmed whole: 16 KiB 8 % slower, 64 KiB 4 %). */
#define NP_WARM_MAX 8192u

/* Ask now for the cache lines of a slot reserved in another process's box
 * (the target's CPU read them last), in a state to be written: all of them
 * at once, while the client is still to write its payload, instead of one
 * line per store as it writes them.  A hint (prefetchw; a no-op on a CPU
 * without it).  Where the two CPUs are far apart (another socket, or this
 * project's VM when its CPUs sit 380-430 ns apart) it is what makes a
 * payload written in place beat one copied into the slot at 2-8 KiB, and
 * near it still takes a fifth off a 512 B round trip (DESIGN-NOTES, the
 * GASNet-EX API's negotiated payload). */
static inline void np_warm(const char *p, size_t n) {
  const char *q = (const char *)((uintptr_t)p & ~(uintptr_t)63), *end = p + STP_MIN(n, (size_t)NP_WARM_MAX);
  for (; q < end; q += 64) {
#if defined(__x86_64__) || defined(__i386__)
    __asm__ volatile("prefetchw %0" ::"m"(*q));
#else
    __builtin_prefetch(q, 1, 3);
#endif
  }
}

/* Negotiated payload, native, for a Medium that fits a mailbox slot, or else
 * a big-box slot: where the target's box is mapped here (shared memory) and
 * a slot is free -- a request's slot credit (and, in the big box, the
 * request before it in that slot done), or a reply to a request taken from
 * that box -- the payload is written straight into the target's slot
 * (reserved now, committed or cancelled later: np_resv_t).  Else a
 * mailbox-sized one goes into the thread's slot image, which mb_send puts
 * without a copy or, should the request find no slot credit, the UCX AM
 * path sends from; a larger one takes the reference buffer. */
static int uam_np_prepare(stp_np_t *np) {
  mbox_t *b;
  if (np->cat != STP_AM_MEDIUM) return 0;
  if (uam.mbx.slots && mb_fits(np->nargs, np->most)) b = &uam.mbx;
  else if (uam.bbx.slots && mb_fits_in(&uam.bbx, np->nargs, np->most)) b = &uam.bbx;
  else return 0;
  np_resv_t *r = np_resv(np->is_req);
  gex_Rank_t dest = np->is_req ? np->dest : np->token->src;
  r->slot = NULL;
  if (b->map[dest] &&
      (np->is_req ? mb_req_slot_done(b, dest) && credits_charge(&b->mc, dest, 1) == CREDITS_OK : np->token->core == b))
    mb_reserve(b, r, dest, np->is_req ? MB_REQ : MB_REP);
  if (b == &uam.bbx) {
    if (!r->slot) return 0; /* (no image that large: the reference buffer) */
    uam.bb_hot = BB_HOT_POLLS; /* (a request's reply, or a reply's next request, comes through it) */
  }
  np->addr = (r->slot ? r->slot + MB_IMG_OFF : (char *)np_resv_img(r)) + mb_payload_off(np->nargs);
  np->size = np->most;
  if (r->slot) np_warm(np->addr, np->most);
  np->hold = (uintptr_t)r;
  return 0;
}

static void uam_np_cancel(const stp_np_t *np) {
  np_resv_t *r = (np_resv_t *)np->hold;
  if (!r->slot) return;
  /* a reply's slot is spent with the credits it carries: the handler's
   * reply, if it still sends one, goes as a UCX AM (a second reply-ring
   * message would carry none, and the ring's room rests on every message
   * carrying some) */
  if (r->ring == MB_REP) np->token->core = NULL;
  mb_commit(r, 0, NULL);
}

static int uam_reply(stp_token_t *token, const stp_am_t *am) {
  mbox_t *b = token->core; /* the box the request came through, or NULL */
  if (np_committed(am)) return GASNET_OK;
  if (b && (am->cat == STP_AM_LONG ? uam.long_rma : mb_fits_am(am))) {
    mb_send(b, token->src, MB_REP, am->cat, am); /* a slot is free: see the top of the file */
    return GASNET_OK;
  }
  send_msg(token->src, STP_UC_AM_REPLY, am->cat, am); /* replies are free: never wait for credits */
  return GASNET_OK;
}

/* ------------------------------------------------------------------ */
/* receiving                                                           */
/* ------------------------------------------------------------------ */
static void malformed(int is_request, uint32_t src, size_t hlen, size_t length, const char *why) {
  stp_fatal("AM %s from node %u: a malformed message (%zu header + %zu payload bytes: %s)",
            is_request ? "request" : "reply", (unsigned)src, hlen, length, why);
}

static void recv_done(void *req, ucs_status_t st, size_t length, void *user_data) {
  uam_msg_t *m = user_data;
  (void)length;
  ucp_request_free(req);
  if (STP_UNLIKELY(uam.detached || st != UCS_OK)) {
    if (!uam.detached && !stp_uc.closing)
      stp_fatal("UCX Core: receiving the payload of an AM from node %u failed: %s", (unsigned)m->src, ucs_status_string(st));
    if (m->own) free(m->own); /* (the pools are gone) */
    free(m);
    return;
  }
  file(m);
}

static ucs_status_t am_arrived(void *arg, const void *header, size_t hlen, void *data, size_t length,
                               const ucp_am_recv_param_t *param) {
  int is_request = arg != NULL;
  const char *p = header;
  uam_hdr_t h;
  uam_msg_t *m;
  size_t off;
  void *dst = NULL;

  if (STP_UNLIKELY(uam.detached)) return UCS_OK; /* every peer agreed to exit: nothing more runs */
  if (STP_UNLIKELY(hlen < sizeof(h))) malformed(is_request, UINT32_MAX, hlen, length, "no header");
  memcpy(&h, p, sizeof(h));
  if (STP_UNLIKELY(h.src >= stp.nodes)) malformed(is_request, h.src, hlen, length, "no such node");
  if (h.credits && STP_UNLIKELY(credits_returned(&uam.cr, h.src, h.credits) != CREDITS_OK))
    stp_fatal("AM flow control: node %u returned credits it was not owing: %s", (unsigned)h.src, credits_error(&uam.cr));
  if (h.cat == CAT_CREDIT) {
    if (STP_UNLIKELY(is_request || hlen != sizeof(h) || length)) malformed(is_request, h.src, hlen, length, "a bad credit message");
    return UCS_OK;
  }
  if (STP_UNLIKELY(h.cat > STP_AM_LONG)) malformed(is_request, h.src, hlen, length, "no such category");
  off = sizeof(h) + (h.cat == STP_AM_LONG ? 8 : 0);
  if (STP_UNLIKELY(hlen < off || (hlen - off) % 4 || (hlen - off) / 4 > MAX_ARGS))
    malformed(is_request, h.src, hlen, length, "bad argument bytes");
  if (STP_UNLIKELY((h.cat == STP_AM_SHORT && length) || (h.cat == STP_AM_MEDIUM && length > MAX_MEDIUM) ||
                   (h.cat == STP_AM_LONG && length > MAX_LONG)))
    malformed(is_request, h.src, hlen, length, "payload over the category's maximum");
  if (is_request &&
      STP_UNLIKELY(credits_arrived(&uam.cr, h.src, credits_cost(&uam.cr, held_bytes(h.cat, length))) != CREDITS_OK))
    stp_fatal("AM flow control: node %u sent more requests than its credits allow: %s", (unsigned)h.src,
              credits_error(&uam.cr));

  m = msg_get();
  m->src = h.src;
  m->cat = h.cat;
  m->handler = h.handler;
  m->is_request = (uint8_t)is_request;
  m->nargs = (uint8_t)((hlen - off) / 4);
  memcpy(m->args, p + off, hlen - off);
  m->nbytes = length;
  m->held = NULL;
  m->own = NULL;
  m->buf = NULL;
  if (h.cat == STP_AM_LONG) {
    uint64_t d;
    memcpy(&d, p + sizeof(h), 8);
    dst = (void *)(uintptr_t)d;
    if (STP_UNLIKELY(!stp_in_my_segment(dst, length))) stp_bad_address("AM Long destination", h.src, dst, length);
    m->buf = dst;
  }

  if (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) { /* fetch the payload into its place */
    ucp_request_param_t prm;
    ucs_status_ptr_t r;
    if (!dst) dst = m->buf = m->own = medbuf_get();
    prm.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    prm.cb.recv_am = recv_done;
    prm.user_data = m;
    r = ucp_am_recv_data_nbx(uam.worker, data, dst, length, &prm);
    if (r == NULL) file(m);
    else if (STP_UNLIKELY(UCS_PTR_IS_ERR(r)))
      stp_fatal("UCX Core: receiving the payload of an AM from node %u failed: %s", (unsigned)h.src,
                ucs_status_string(UCS_PTR_STATUS(r)));
    return UCS_OK; /* (the receive owns the descriptor now) */
  }

  file(m);
  if (!length) return UCS_OK;
  if (h.cat == STP_AM_LONG) {
    memcpy(dst, data, length);
    return UCS_OK;
  }
  /* a Medium: handlers read it in place, 8-byte aligned */
  if ((param->recv_attr & UCP_AM_RECV_ATTR_FLAG_DATA) && ((uintptr_t)data & 7) == 0 &&
      (length >= HOLD_MIN || (length > INLINE_BYTES && !uam.nheld))) {
    uam.nheld++;
    m->buf = m->held = data;
    return UCS_INPROGRESS;
  }
  m->buf = length <= INLINE_BYTES ? (void *)m->inl : (m->own = medbuf_get());
  memcpy(m->buf, data, length);
  return UCS_OK;
}

/* Run one filed message's handler; then give its credits back if due. */
static void run(uam_msg_t *m) {
  stp_token_t tok;
  gex_Rank_t src = m->src;
  tok.src = src;
  tok.is_request = m->is_request;
  tok.replied = 0;
  tok.core = NULL;
  stp_am_run(&tok, m->handler, m->cat, m->args, m->nargs, m->buf, m->nbytes);
  msg_release(m);
  if (tok.is_request && !tok.replied && credits_flush_due(&uam.cr, src))
    send_msg(src, STP_UC_AM_REPLY, CAT_CREDIT, NULL);
}

static int uam_poll(void) {
  int n = 0;
  if (uam.mbx.slots) {
    uint64_t img[MB_IMG_MAX / 8];
    n += mb_scan(&uam.mbx, img);
  }
  /* the big box every BB_POLL_EVERY-th poll: a scan costs every AM's poll
   * (measured: 1.5-3 % of an AM Short round trip at 2 nodes, every poll),
   * a message in it takes microseconds -- but at every poll for a while
   * after a big-box message came or went: its reply, or the next one, is
   * then likely on its way, and a 1-4 KiB one takes under a microsecond */
  if (uam.bbx.slots && (uam.bb_hot ? (uam.bb_hot--, 1) : (++uam.bb_polls % BB_POLL_EVERY) == 0)) {
    int k = mb_scan(&uam.bbx, bb_img());
    if (k) uam.bb_hot = BB_HOT_POLLS;
    n += k;
  }
  ucp_worker_progress(uam.worker);
  while (uam.head) { /* (taken off first: a handler's reply may file more behind it) */
    uam_msg_t *m = uam.head;
    uam.head = m->next;
    if (!uam.head) uam.tail = NULL;
    run(m);
    n++;
  }
  return n;
}

/* ------------------------------------------------------------------ */
/* setup and teardown                                                  */
/* ------------------------------------------------------------------ */
static void set_handler(unsigned id, void *arg) {
  ucp_am_handler_param_t hp;
  ucs_status_t st;
  hp.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_ARG |
                  UCP_AM_HANDLER_PARAM_FIELD_FLAGS;
  hp.id = id;
  hp.cb = am_arrived;
  hp.arg = arg;
  hp.flags = UCP_AM_FLAG_WHOLE_MSG;
  st = ucp_worker_set_am_recv_handler(uam.worker, &hp);
  if (st != UCS_OK) {
    stp_ucx_report(&stp_uc.u, st, "setting the AM handler %u", id);
    stp_fatal("gasnet_attach: the UCX Core could not set its UCX active-message handlers");
  }
}

/* A box (the settings agreed already): my rings (UCX-allocated, so that
 * shared-memory transports write them with plain stores; zeroed: no stamp
 * matches), every node's key (collective), the rings this process may
 * write with plain stores (STAGEPORT_AM_MAILBOX_MAP), the slot credits. */
static void box_attach(mbox_t *b, const char *name, uint32_t slots, uint32_t slot_bytes, const char *knob) {
  credits_cfg_t cfg = {0};
  size_t bytes = (size_t)stp.nodes * 2 * slots * slot_bytes;
  b->name = name;
  b->slots = slots;
  b->slot_bytes = slot_bytes;
  if (!slots) return;
  if (stp_ucx_region_map(&stp_uc.u, NULL, bytes, STP_UCX_ALLOCATE | STP_UCX_RKEY, &b->mb) != UCS_OK)
    stp_fatal("gasnet_attach: the UCX Core could not allocate its %zu-byte %s (see the message above)", bytes, name);
  memset(b->mb.addr, 0, bytes);
  b->rmb = calloc(stp.nodes, sizeof(*b->rmb));
  b->sent = calloc(2 * (size_t)stp.nodes, sizeof(uint64_t));
  b->got = calloc(2 * (size_t)stp.nodes, sizeof(uint64_t));
  b->map = calloc(stp.nodes, sizeof(*b->map));
  if (!b->rmb || !b->sent || !b->got || !b->map) stp_fatal("gasnet_attach: out of memory");
  if (stp_ucx_exchange(&stp_uc.u, &b->mb, b->rmb) != UCS_OK)
    stp_fatal("gasnet_attach: the UCX Core could not exchange %s keys (see the message above)", name);
  for (gex_Rank_t p = 0; p < stp.nodes; p++) /* (mb_send bounds every slot address by these) */
    if (b->rmb[p].len != bytes)
      stp_fatal("gasnet_attach: node %u published a %" PRIu64 "-byte %s, %zu expected (%s)", (unsigned)p,
                b->rmb[p].len, name, bytes, knob);
  /* native NP payloads go straight into the rings UCX lets this process
   * write with plain stores (shared memory; not over a network) */
  if (stp_env_u64("STAGEPORT_AM_MAILBOX_MAP", 1))
    for (gex_Rank_t p = 0; p < stp.nodes; p++) {
      void *q = NULL;
      if (p == stp.mynode) b->map[p] = b->mb.addr;
      else if (ucp_rkey_ptr(b->rmb[p].rkey, b->rmb[p].addr, &q) == UCS_OK) b->map[p] = q;
    }
  cfg.npeers = stp.nodes;
  cfg.mode = CREDITS_STATIC;
  cfg.grant = slots;
  cfg.max_grant = UINT16_MAX;
  cfg.unit_bytes = 0; /* one slot per message */
  if (credits_init(&b->mc, &cfg) != CREDITS_OK)
    stp_fatal("gasnet_attach: AM %s flow control: %s", name, credits_error(&b->mc));
}

/* At detach (what was put has completed): keys and rings go. */
static void box_detach(mbox_t *b) {
  if (!b->slots) return;
  stp_ucx_remote_release(&stp_uc.u, b->rmb);
  stp_ucx_region_unmap(&stp_uc.u, &b->mb);
  free(b->rmb);
  free(b->sent);
  free(b->got);
  free(b->map);
  b->rmb = NULL;
  b->sent = b->got = NULL;
  b->map = NULL;
  credits_fini(&b->mc);
  b->slots = 0;
}

/* The mailbox and the big box: their settings, agreed by every node, then
 * each attached. */
static void mb_attach(void) {
  /* 32 slots per ring, fewer past 512 nodes: the rings stay within 32 MiB */
  uint64_t dflt = STP_MIN(MB_DEFAULT_SLOTS, 16384 / (stp.nodes ? stp.nodes : 1)), slots, bslots;
  slots = stp_env_u64("STAGEPORT_AM_MAILBOX", dflt < 2 ? 2 : dflt);
  if (slots == 1 || slots > UINT16_MAX)
    stp_fatal("STAGEPORT_AM_MAILBOX=%" PRIu64 ": slots per mailbox ring, 2..%u (0: no mailbox)", slots, UINT16_MAX);
  /* the big box: 2 slots per ring while the rings stay within BB_MAX_BYTES (up to 63 nodes), else none */
  dflt = (uint64_t)stp.nodes * 2 * BB_DEFAULT_SLOTS * BB_SLOT <= BB_MAX_BYTES ? BB_DEFAULT_SLOTS : 0;
  bslots = stp_env_u64("STAGEPORT_AM_BIGBOX", dflt);
  if (bslots > 256 || (uint64_t)stp.nodes * 2 * bslots * BB_SLOT > ((uint64_t)1 << 32))
    stp_fatal("STAGEPORT_AM_BIGBOX=%" PRIu64 ": big-box slots per ring, 0..256, within 4 GiB for %u nodes (a slot is "
              "%u bytes)", bslots, (unsigned)stp.nodes, BB_SLOT);
  const char *lp = getenv("STAGEPORT_AM_LONG");
  uam.long_rma = 0;
  if (lp && *lp && strcmp(lp, "rma") && strcmp(lp, "am"))
    stp_fatal("STAGEPORT_AM_LONG=%s: the UCX Core's Long protocols are rma (payload by RMA put, message through the "
              "mailbox) and am (payload inside a UCX active message)", lp);
  uam.long_rma = !(lp && !strcmp(lp, "am")); /* rma: measured faster at every size (DESIGN-NOTES) */
  if (!slots) {
    if (lp && !strcmp(lp, "rma")) stp_fatal("STAGEPORT_AM_LONG=rma needs the AM mailbox (STAGEPORT_AM_MAILBOX=0)");
    uam.long_rma = 0;
  }
  {
    /* a sender places its messages by its own settings: every node's must be the same (a larger ring count
     * would write past a peer's box; 0 would skip the key exchange the others enter) */
    static const char *const long_labels[] = {"am", "rma", NULL};
    const stp_setting_t set[] = {{"STAGEPORT_AM_MAILBOX", slots, NULL},
                                 {"STAGEPORT_AM_BIGBOX", bslots, NULL},
                                 {"STAGEPORT_AM_LONG", (uint64_t)uam.long_rma, long_labels},
                                 {"STAGEPORT_AM_CREDITS", uam.share, NULL}};
    stp_settings_agree("gasnet_attach (the UCX Core)", set, (int)(sizeof(set) / sizeof(set[0])));
  }
  box_attach(&uam.mbx, "mailbox", (uint32_t)slots, MB_SLOT, "STAGEPORT_AM_MAILBOX");
  box_attach(&uam.bbx, "big box", (uint32_t)bslots, BB_SLOT, "STAGEPORT_AM_BIGBOX");
  uam.bbx.req_in_place = 1; /* (only native NP Prepares write its request rings: mb_req_slot_done) */
}

/* At detach: what was put completes, then keys and rings go. */
static void mb_detach(void) {
  uam.long_rma = 0;
  if (uam.mbx.slots || uam.bbx.slots) stp_ucx_flush(&stp_uc.u);
  box_detach(&uam.mbx);
  box_detach(&uam.bbx);
}

static int uam_attach(void) {
  credits_cfg_t cfg = {0};
  ucp_worker_attr_t wa;
  uint64_t share = stp_env_u64("STAGEPORT_AM_CREDITS", 0);
  if (!share) { /* 256 KiB per peer, less in large jobs, never under two largest Mediums */
    share = 131072 / (stp.nodes ? stp.nodes : 1);
    share = share > DEFAULT_SHARE ? DEFAULT_SHARE : share < MIN_SHARE ? MIN_SHARE : share;
  }
  if (share < 1 + MAX_MEDIUM / UNIT || share > UINT16_MAX)
    stp_fatal("STAGEPORT_AM_CREDITS=%" PRIu64 ": the UCX Core takes %u..%u credits per peer (a credit is %u bytes; the "
              "largest Medium costs %u)", share, 1 + MAX_MEDIUM / UNIT, UINT16_MAX, UNIT, 1 + MAX_MEDIUM / UNIT);
  uam.share = (uint32_t)share;
  uam.worker = stp_uc.u.worker;
  uam.ep = stp_uc.u.ep;
  uam.detached = 0;
  wa.field_mask = UCP_WORKER_ATTR_FIELD_MAX_AM_HEADER;
  if (ucp_worker_query(uam.worker, &wa) != UCS_OK || wa.max_am_header < HDR_MAX)
    stp_fatal("gasnet_attach: the UCX Core needs AM headers of %zu bytes; this UCX worker takes %zu", (size_t)HDR_MAX,
              (size_t)wa.max_am_header);
  cfg.npeers = stp.nodes;
  cfg.mode = CREDITS_STATIC;
  cfg.grant = uam.share;
  cfg.max_grant = UINT16_MAX; /* what a header field returns at once */
  cfg.unit_bytes = UNIT;
  cfg.max_cost = 1 + MAX_MEDIUM / UNIT;
  if (credits_init(&uam.cr, &cfg) != CREDITS_OK) stp_fatal("gasnet_attach: AM flow control: %s", credits_error(&uam.cr));
  mb_attach();
  set_handler(STP_UC_AM_REQUEST, (void *)1);
  set_handler(STP_UC_AM_REPLY, NULL);
  stp_uc_core_progresses(1);
  return GASNET_OK;
}

/* Every peer has agreed to exit: nothing more runs.  Drop what is filed;
 * payloads still arriving by rendezvous free themselves (recv_done). */
static void uam_detach(void) {
  uam.detached = 1;
  stp_uc_core_progresses(0);
  while (uam.head) {
    uam_msg_t *m = uam.head;
    uam.head = m->next;
    msg_release(m);
  }
  uam.tail = NULL;
  while (uam.free_msg) {
    uam_msg_t *m = uam.free_msg;
    uam.free_msg = m->next;
    free(m);
  }
  while (uam.free_buf) {
    medbuf_t *b = uam.free_buf;
    uam.free_buf = b->next;
    free(b);
  }
  credits_fini(&uam.cr);
  mb_detach();
}

static size_t uam_recv_bytes(void) {
  return (size_t)stp.nodes * uam.share * UNIT + (size_t)stp.nodes * 2 * uam.mbx.slots * MB_SLOT +
         (size_t)stp.nodes * 2 * uam.bbx.slots * BB_SLOT;
}

const stp_core_ops_t stp_core_ucx_ops = {
    .name = "core-ucx",
    .attach = uam_attach,
    .detach = uam_detach,
    .max_medium = MAX_MEDIUM,
    .max_long_request = MAX_LONG,
    .max_long_reply = MAX_LONG,
    .request = uam_request,
    .reply = uam_reply,
    .poll = uam_poll,
    .np_prepare = uam_np_prepare,
    .np_cancel = uam_np_cancel,
    .recv_bytes = uam_recv_bytes,
};
