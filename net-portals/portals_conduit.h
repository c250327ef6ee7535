/*
 * portals_conduit.h -- the Portals conduit: the network of the stages built
 * on ptl (hybrid, portals, firehose), the state they share with one owner
 * (portals_conduit.c).  The Extended API (ext-portals/portals_ext.c, seed
 * 000 stage 1) and the native AM Core (core-portals/portals_am.c, stage 2)
 * sit side by side on it without reaching into each other: they read its
 * state here and change it only through the functions below.
 *
 * What it holds (seed 000 Table 1, the parts common to the stages):
 *   NI        one ptl network interface, host or offload mode;
 *   SAFE_EQ   the event queue of every initiator-side event (SEND_END, ACK,
 *             REPLY_END), drained by the network's poll;
 *   RAR       the segment, posted on RAR_PTE with selector 0x0: remotely
 *             managed, Put and Get, persistent, no events -- what every
 *             remote Put lands in and every remote Get reads (in offload
 *             mode ptl publishes it: initiators then use RMA directly);
 *   RARSRC    the same memory bound as a free-floating MD with events to
 *             SAFE_EQ: the local side of transfers from/into the segment;
 *             the segment itself is the job's table's (stp.seg: address and
 *             size, range checks with stp_in_my_segment), not kept here;
 *   ReqSB     bounce buffers for small out-of-segment local data (a copy is
 *             local completion at once), one bound MD over a pool;
 *   TMPMD     for larger out-of-segment local data: an MD bound over
 *             exactly the caller's range (pinning and registering it, as a
 *             real NIC must) and unlinked when its operation is done; and
 *             for a VIS run's local pieces, a scatter/gather MD over them
 *             (stp_pc_iov_hold);
 *   firehose  instead of TMPMDs in the `firehose` stage (seed 000 section
 *             5): a cache of MDs bound over page-aligned regions, kept
 *             after their operation and reused by the next one inside
 *             (firehose/firehose.h), invalidated when the memory is
 *             unmapped (ptl's unmap notices, UCX's memory hooks);
 *   ops       the conduit's operation records (stp_pc_op_t), one per
 *             operation in flight, named by its index in the match bits
 *             (portals_bits.h: seed 000's "eop addr"), so each event finds
 *             its record without a search; an op holds its bounce buffer or
 *             TMPMD until every event it expects has arrived;
 *   scratch   STP_PC_SCRATCH registered bytes per op record, bound as one
 *             MD (events to SAFE_EQ): the local side of an operation whose
 *             data is a value, not client memory (a remote atomic's operand
 *             and the old value it fetches: stp_pc_op_scratch) -- no bounce
 *             buffer to wait for, nothing to pin;
 *   SYS       the library's own control traffic (seed 000 Table 1): a
 *             locally managed MD on AM_PTE, selector 0x5, with its own EQ;
 *             today the exit protocol's notices, so that a running job
 *             makes no MPI call;
 *   tokens    send tokens (seed 000 section 3.4): SAFE_EQ's capacity; no
 *             operation is issued without a token for each event it will
 *             generate, and a user short of tokens (or ops, or bounce
 *             buffers) drains SAFE_EQ until enough are back.  SAFE_EQ can
 *             therefore never overflow; PTL_EQ_DROPPED is a fatal error.
 *
 * Completion (seed 000 Table 2): SEND_END clears an op's local-completion
 * need (what a non-bulk put waits for); ACK or REPLY_END is its remote
 * completion.  Each is handed to the callback the op's user registered for
 * the op's type (stp_pc_on_op).
 */
#ifndef STP_PORTALS_CONDUIT_H
#define STP_PORTALS_CONDUIT_H

#include "firehose.h"
#include "portals_bits.h"
#include "ptl.h"
#include "stp_internal.h"

#define STP_PC_RAR_PTE 1u
#define STP_PC_AM_PTE 2u
#define STP_PC_NO_BOUNCE 0xffffffffu
enum { STP_PC_NEED_SEND = 1u, STP_PC_NEED_DONE = 2u }; /* events an op still expects */

/* The out-of-segment MD an operation holds until it completes: a TMPMD or
 * a firehose region (or neither). */
typedef struct stp_pc_oos {
  ptl_handle_md_t tmpmd; /* or PTL_INVALID_HANDLE */
  struct fh_region *fhr; /* or NULL */
} stp_pc_oos_t;

/* An operation in flight: the conduit's record of it.  owner, lc and tag
 * are its user's, what the user's callbacks know the operation by
 * (stp_pc_op_take sets owner and tag and clears lc; the user sets lc
 * before it issues the operation when it counts a local completion); the
 * conduit never reads them.  The rest is the conduit's. */
typedef struct stp_pc_op {
  void *owner;           /* what the user completes (the RMA backend: its rc event) */
  void *lc;              /* the RMA backend's lc event (a put's local completion), or NULL */
  uint8_t need;          /* STP_PC_NEED_* still to come */
  uint8_t type;          /* the op type of its match bits (STP_POP_*): whose callbacks run */
  uint32_t peer;         /* the node it goes to (for failure reports) */
  uint32_t bounce;       /* bounce buffer index, or STP_PC_NO_BOUNCE */
  uint32_t tag;          /* the user's name for the operation, for its callbacks to check (the AM Core: the
                          * request a Long payload belongs to) */
  stp_pc_oos_t oos;      /* a TMPMD or firehose region, when neither segment nor bounce buffer */
  void *copy_to;         /* a get through a bounce buffer (or the scratch): the caller's buffer */
  size_t len;
  uint32_t next; /* free list */
} stp_pc_op_t;

/* Remote completion of an op (its ACK or REPLY_END), or its SEND_END. */
typedef void (*stp_pc_op_fn)(stp_pc_op_t *o);
/* A SAFE_EQ event that is not an op's: an arrival (PUT_END), or the
 * SEND_END of an AM header or ReplyLong payload (selectors RARSRC and up). */
typedef void (*stp_pc_event_fn)(const ptl_event_t *ev);

typedef struct stp_pc {
  ptl_handle_ni_t ni;
  ptl_handle_eq_t safe_eq;
  ptl_handle_md_t rarsrc, reqsb;
  ptl_handle_me_t rar_me, rarsrc_me;
  ptl_handle_eq_t sys_eq; /* SYS: the library's control traffic (exit notices) */
  ptl_handle_md_t sys_src;
  int nodes, rank;
  int open;
  /* the operation records */
  stp_pc_op_t *op;
  uint32_t free_op, nops;
  long tokens; /* send tokens */
  /* per-op scratch (stp_pc_op_scratch) */
  char *scratch;
  ptl_handle_md_t scratch_md;
  /* bounce buffers */
  char *bounce;
  size_t bounce_size;
  uint32_t nbounce, *bfree, nbfree;
  /* the firehose cache (the firehose stage), or NULL: TMPMDs */
  struct fh *fh;
  size_t xfer_max;          /* the most one operation's local MD may cover (firehose: a region's worth) */
  unsigned long long fh_fallbacks; /* replies that found the cache full and took a TMPMD */
  int fh_unmap_events;      /* unmapped memory is reported: idle regions may be kept */
  /* remote completion, per op type (STP_POP_*); local completion (SEND_END)
   * for op types that want it (stp_pc_on_op) */
  stp_pc_op_fn done[STP_PBITS_MAX_OP + 1];
  stp_pc_op_fn sent[STP_PBITS_MAX_OP + 1];
  /* the native AM Core's SAFE_EQ events (NULL without one: such an event
   * is then a fatal error; stp_pc_on_am_event) */
  stp_pc_event_fn am_event;
  /* a test knob's (STAGEPORT_AM_LATE_SEND_END, core-portals/portals_am.c),
   * NULL but in that test: an op's event it returns 1 for is kept back by
   * it and handed in again later through stp_pc_op_event, as late as a NIC
   * may deliver it (its send token stays taken until then; stp_pc_on_hold) */
  int (*hold)(const ptl_event_t *ev);
} stp_pc_t;

extern stp_pc_t stp_pc;
extern const stp_net_ops_t stp_net_portals_ops;

static inline void stp_pc_check(int rc, const char *what) {
  if (STP_UNLIKELY(rc != PTL_OK)) stp_fatal("Portals conduit: %s: %s", what, PtlErrorStr(rc));
}

/* ------------------------------------------------------------------ */
/* the users' callbacks (set at their attach, cleared at their detach)  */
/* ------------------------------------------------------------------ */
/* Operations of op type `type` (STP_POP_*; each user registers its own
 * types): done runs at remote completion (ACK, REPLY_END), sent at local
 * completion (SEND_END; NULL: nothing to do then). */
static inline void stp_pc_on_op(unsigned type, stp_pc_op_fn done, stp_pc_op_fn sent) {
  stp_pc.done[type] = done;
  stp_pc.sent[type] = sent;
}
/* The native AM Core's SAFE_EQ events (stp_pc_event_fn), or NULL. */
static inline void stp_pc_on_am_event(stp_pc_event_fn fn) { stp_pc.am_event = fn; }
/* The late-event test knob's hook (stp_pc.hold), or NULL. */
static inline void stp_pc_on_hold(int (*hold)(const ptl_event_t *ev)) { stp_pc.hold = hold; }

/* ------------------------------------------------------------------ */
/* send tokens                                                         */
/* ------------------------------------------------------------------ */
/* An operation whose events are not an op record's (the AM Core's
 * requests and replies) takes a token for each SAFE_EQ event it may
 * generate before it is issued, and gives each back when that event is
 * taken (or known never to come).  stp_pc_op_take takes an op's own. */
static inline int stp_pc_tokens_have(long n) { return stp_pc.tokens >= n; }
static inline void stp_pc_tokens_take(long n) { stp_pc.tokens -= n; }
static inline void stp_pc_tokens_give(long n) { stp_pc.tokens += n; }

/* ------------------------------------------------------------------ */
/* operation records                                                   */
/* ------------------------------------------------------------------ */
static inline void stp_pc_oos_clear(stp_pc_oos_t *o) {
  o->tmpmd = PTL_INVALID_HANDLE;
  o->fhr = NULL;
}

/* An op record is free (stp_pc_op_take would not wait for one). */
static inline int stp_pc_op_available(void) { return stp_pc.free_op < stp_pc.nops; }

/* An op for an operation of type `type` to peer that will generate the
 * SAFE_EQ events in `need` (STP_PC_NEED_*: a put SEND|DONE, a get DONE, a
 * put without ACK SEND), with a token for each, named tag for its user's
 * callbacks; its index, which the operation's match bits carry.  Drains
 * SAFE_EQ (retiring operations, polling the library) while either is
 * short -- or, without may_wait (an IMMEDIATE initiation), returns
 * STP_PC_NO_OP having taken nothing. */
#define STP_PC_NO_OP UINT32_MAX
static inline uint32_t stp_pc_op_take(void *owner, uint32_t tag, unsigned type, uint32_t peer, unsigned need,
                                      int may_wait) {
  unsigned spins = 0, events = (need & STP_PC_NEED_SEND ? 1u : 0u) + (need & STP_PC_NEED_DONE ? 1u : 0u);
  uint32_t oi;
  stp_pc_op_t *o;
  while (STP_UNLIKELY(!stp_pc_tokens_have((long)events) || !stp_pc_op_available())) {
    if (!may_wait) return STP_PC_NO_OP;
    stp_wait_step(&spins);
  }
  stp_pc_tokens_take((long)events);
  oi = stp_pc.free_op;
  o = &stp_pc.op[oi];
  stp_pc.free_op = o->next;
  o->owner = owner;
  o->lc = NULL;
  o->need = (uint8_t)need;
  o->type = (uint8_t)type;
  o->peer = peer;
  o->bounce = STP_PC_NO_BOUNCE;
  o->tag = tag;
  stp_pc_oos_clear(&o->oos);
  o->copy_to = NULL;
  return oi;
}

/* Op oi's record. */
static inline stp_pc_op_t *stp_pc_op(uint32_t oi) { return &stp_pc.op[oi]; }

/* An op's data went through a bounce buffer (a Put's was copied there:
 * locally complete at once). */
static inline int stp_pc_op_bounced(const stp_pc_op_t *o) { return o->bounce != STP_PC_NO_BOUNCE; }

/* ------------------------------------------------------------------ */
/* the segment and local memory                                        */
/* ------------------------------------------------------------------ */
/* Op oi's scratch, STP_PC_SCRATCH bytes at *off in stp_pc.scratch_md: the
 * first 8 what the operation sends (the pointer returned), the 8 at
 * *off + 8 what comes back -- copied to `to` (n <= 8 bytes) when the
 * operation completes (ACK or REPLY_END), before its done callback; to
 * NULL: left there.  Held with the op; taking it never waits. */
#define STP_PC_SCRATCH 16u
static inline void *stp_pc_op_scratch(uint32_t oi, void *to, size_t n, ptl_size_t *off) {
  stp_pc_op_t *o = &stp_pc.op[oi];
  *off = (ptl_size_t)oi * STP_PC_SCRATCH;
  o->copy_to = to;
  o->len = n;
  return stp_pc.scratch + *off;
}

/* Where node's segment address addr lies in its segment's entries (RAR,
 * RARSRC, RARAM: offsets from the segment's base in stp.seg). */
static inline ptl_size_t stp_pc_seg_off(gex_Rank_t node, const void *addr) {
  return (ptl_size_t)((const char *)addr - (const char *)stp.seg[node].addr);
}
/* This node's segment address at offset off (an arrival's, in RARAM or
 * RARSRC). */
static inline void *stp_pc_seg_at(ptl_size_t off) { return (char *)stp.seg[stp.mynode].addr + off; }

/* An MD over out-of-segment [p, p+n), n <= stp_pc.xfer_max, held in *o
 * until stp_pc_oos_drop: a TMPMD bound over exactly the range (pinned and
 * registered), or in the firehose stage a cached region around it (*off:
 * where p is in it).  may_wait: when every region is in use, drain (the
 * library's poll) until one comes back; else (a reply, which must not run
 * request handlers) take a TMPMD.  Events go to SAFE_EQ.  *o starts
 * cleared (stp_pc_oos_clear). */
ptl_handle_md_t stp_pc_oos_hold(const void *p, size_t n, ptl_size_t *off, stp_pc_oos_t *o, int may_wait);
void stp_pc_oos_drop(stp_pc_oos_t *o);
/* A scatter/gather MD (ptl's PTL_MD_IOVEC) over n local pieces, held in *o
 * until stp_pc_oos_drop as a TMPMD is: one operation gathers from or
 * scatters into all of them, in order.  ptl copies the list and does not
 * register the pieces ahead (UCX registers what it moves).  Events go to
 * SAFE_EQ; n <= PTLX_MD_IOVECS_MAX. */
ptl_handle_md_t stp_pc_iov_hold(const ptl_md_iovec_t *v, size_t n, stp_pc_oos_t *o);
/* The upper word of the match bits of an operation from *o (seed 000
 * section 5: the firehose region to release when it completes): the low
 * word of the region's MD handle; 0 with a TMPMD or none.  Every event of
 * the operation brings it back and is checked against its op's. */
static inline uint32_t stp_pc_oos_name(const stp_pc_oos_t *o) {
  return o->fhr ? (uint32_t)fh_region_handle(o->fhr) : 0u;
}

/* Which side of op o the local memory [p, p+n) is: a Put's source, or a
 * Get's destination. */
enum { STP_PC_SRC = 0, STP_PC_DST = 1 };
ptl_handle_md_t stp_pc_local_md_slow(stp_pc_op_t *o, void *p, size_t n, ptl_size_t *off, int side);
/* The local MD and offset of op o for [p, p+n): RARSRC inside the
 * segment; else a bounce buffer -- a source's bytes are copied into it
 * now (stp_pc_op_bounced), a destination's are copied to p when the
 * operation completes, before its done callback -- or stp_pc_oos_hold's. */
static inline ptl_handle_md_t stp_pc_local_md(stp_pc_op_t *o, void *p, size_t n, ptl_size_t *off, int side) {
  if (STP_LIKELY(stp_in_my_segment(p, n))) {
    *off = stp_pc_seg_off(stp.mynode, p);
    return stp_pc.rarsrc;
  }
  return stp_pc_local_md_slow(o, p, n, off, side);
}

/* ------------------------------------------------------------------ */
/* events                                                              */
/* ------------------------------------------------------------------ */
/* Drain SAFE_EQ (the network's poll): what a reply that stalls polls, so
 * that it never runs request handlers. */
int stp_pc_poll(void);
/* An op's SAFE_EQ event (SEND_END, ACK, REPLY_END), as stp_pc_poll
 * handles it past stp_pc.hold. */
void stp_pc_op_event(const ptl_event_t *ev);
/* Take up to max events of eq, each to handle; a lost event (EQ overflow)
 * is a fatal error naming eq and saying what `lost` means.  How many. */
int stp_pc_drain(ptl_handle_eq_t eq, int max, void (*handle)(const ptl_event_t *ev), const char *name,
                 const char *lost);

static inline ptl_process_id_t stp_pc_target(gex_Rank_t node) {
  ptl_process_id_t id = {(ptl_nid_t)node, 0};
  return id;
}

#endif /* STP_PORTALS_CONDUIT_H */
