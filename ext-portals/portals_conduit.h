/*
 * portals_conduit.h -- the Portals conduit: the state every stage built on
 * ptl shares, with one owner (portals_conduit.c, the stage's network), so
 * the Extended API (portals_ext.c, stage 1) and a native AM Core (stage 2)
 * sit side by side on it without reaching into each other.
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
 *   ReqSB     bounce buffers for small out-of-segment local data (a copy is
 *             local completion at once), one bound MD over a pool;
 *   TMPMD     for larger out-of-segment local data: an MD bound over
 *             exactly the caller's range (pinning and registering it, as a
 *             real NIC must) and unlinked when its operation is done;
 *   firehose  instead of TMPMDs in the `firehose` stage (seed 000 section
 *             5): a cache of MDs bound over page-aligned regions, kept
 *             after their operation and reused by the next one inside
 *             (firehose/firehose.h), invalidated when the memory is
 *             unmapped (ptl's unmap notices, UCX's memory hooks);
 *   slots     the operations in flight, named by their index in the match
 *             bits (portals_bits.h), so each event finds its slot without a
 *             search; a slot holds its bounce buffer or TMPMD until every
 *             event it expects has arrived;
 *   SYS       the library's own control traffic (seed 000 Table 1): a
 *             locally managed MD on AM_PTE, selector 0x5, with its own EQ;
 *             today the exit protocol's notices, so that a running job
 *             makes no MPI call;
 *   tokens    send tokens (seed 000 section 3.4): SAFE_EQ's capacity; no
 *             operation is issued without a token for each event it will
 *             generate, and a user short of tokens (or slots, or bounce
 *             buffers) drains SAFE_EQ until enough are back.  SAFE_EQ can
 *             therefore never overflow; PTL_EQ_DROPPED is a fatal error.
 *
 * Completion (seed 000 Table 2): SEND_END clears a slot's local-completion
 * need (what a non-bulk put waits for); ACK or REPLY_END is its remote
 * completion, handed to the callback the slot's user registered for the
 * slot's op type (stp_pc.done[op]).
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
enum { STP_PC_NEED_SEND = 1u, STP_PC_NEED_DONE = 2u }; /* events a slot still expects */

/* The out-of-segment MD an operation holds until it completes: a TMPMD or
 * a firehose region (or neither). */
typedef struct stp_pc_oos {
  ptl_handle_md_t tmpmd; /* or PTL_INVALID_HANDLE */
  struct fh_region *fhr; /* or NULL */
} stp_pc_oos_t;

typedef struct stp_pc_slot {
  void *owner;           /* what the user completes (the Extended API: its stp_op_t) */
  uint8_t need;          /* STP_PC_NEED_* still to come */
  uint8_t op;            /* the op type of its match bits: whose done() runs */
  uint32_t peer;         /* the node it goes to (for failure reports) */
  uint32_t bounce;       /* bounce buffer index, or STP_PC_NO_BOUNCE */
  uint32_t tag;          /* the user's name for the operation, for its callbacks to check (the AM Core: the
                          * request a Long payload belongs to) */
  stp_pc_oos_t oos;      /* a TMPMD or firehose region, when neither segment nor bounce buffer */
  void *copy_to;         /* a get through a bounce buffer: the caller's buffer */
  size_t len;
  uint32_t next; /* free list */
} stp_pc_slot_t;

/* Remote completion of a slot (its ACK or REPLY_END), or its SEND_END. */
typedef void (*stp_pc_done_fn)(stp_pc_slot_t *s);
/* A SAFE_EQ event that is not a slot's: an arrival (PUT_END), or the
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
  char *seg; /* this node's segment (RAR, RARSRC), or NULL */
  size_t seglen;
  /* slots */
  stp_pc_slot_t *slot;
  uint32_t free_slot, nslots;
  long tokens; /* send tokens */
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
   * for op types that want it */
  stp_pc_done_fn done[STP_PBITS_MAX_OP + 1];
  stp_pc_done_fn sent[STP_PBITS_MAX_OP + 1];
  /* the native AM Core's SAFE_EQ events (NULL without one: such an event
   * is then a fatal error) */
  stp_pc_event_fn am_event;
  /* a test knob's (STAGEPORT_AM_LATE_SEND_END, portals_am.c), NULL but in
   * that test: a slot's event it returns 1 for is kept back by it and
   * handed in again later through stp_pc_slot_event, as late as a NIC may
   * deliver it (its send token stays taken until then) */
  int (*hold)(const ptl_event_t *ev);
} stp_pc_t;

extern stp_pc_t stp_pc;
extern const stp_net_ops_t stp_net_portals_ops;

static inline void stp_pc_check(int rc, const char *what) {
  if (STP_UNLIKELY(rc != PTL_OK)) stp_fatal("Portals conduit: %s: %s", what, PtlErrorStr(rc));
}

/* A slot for an operation of type op to peer that will generate the SAFE_EQ
 * events in `need` (STP_PC_NEED_*: a put SEND|DONE, a get DONE, a put
 * without ACK SEND), with a token for each; drains SAFE_EQ (retiring
 * operations, polling the library) while either is short. */
static inline uint32_t stp_pc_slot_get(void *owner, unsigned op, uint32_t peer, unsigned need) {
  unsigned spins = 0, events = (need & STP_PC_NEED_SEND ? 1u : 0u) + (need & STP_PC_NEED_DONE ? 1u : 0u);
  uint32_t si;
  stp_pc_slot_t *s;
  while (STP_UNLIKELY(stp_pc.tokens < (long)events || stp_pc.free_slot >= stp_pc.nslots)) stp_wait_step(&spins);
  stp_pc.tokens -= events;
  si = stp_pc.free_slot;
  s = &stp_pc.slot[si];
  stp_pc.free_slot = s->next;
  s->owner = owner;
  s->need = (uint8_t)need;
  s->op = (uint8_t)op;
  s->peer = peer;
  s->bounce = STP_PC_NO_BOUNCE;
  s->oos.tmpmd = PTL_INVALID_HANDLE;
  s->oos.fhr = NULL;
  s->copy_to = NULL;
  return si;
}

static inline int stp_pc_in_segment(const void *p, size_t n) {
  uintptr_t a = (uintptr_t)p, b = (uintptr_t)stp_pc.seg;
  return a >= b && n <= stp_pc.seglen && a - b <= stp_pc.seglen - n;
}

/* An MD over out-of-segment [p, p+n), n <= stp_pc.xfer_max, held in *o
 * until stp_pc_oos_drop: a TMPMD bound over exactly the range (pinned and
 * registered), or in the firehose stage a cached region around it (*off:
 * where p is in it).  may_wait: when every region is in use, drain (the
 * library's poll) until one comes back; else (a reply, which must not run
 * request handlers) take a TMPMD.  Events go to SAFE_EQ. */
ptl_handle_md_t stp_pc_oos_hold(const void *p, size_t n, ptl_size_t *off, stp_pc_oos_t *o, int may_wait);
void stp_pc_oos_drop(stp_pc_oos_t *o);
/* The upper word of the match bits of an operation from *o (seed 000
 * section 5: the firehose region to release when it completes): the low
 * word of the region's MD handle; 0 with a TMPMD or none.  Every event of
 * the operation brings it back and is checked against its slot's. */
static inline uint32_t stp_pc_oos_name(const stp_pc_oos_t *o) {
  return o->fhr ? (uint32_t)fh_region_handle(o->fhr) : 0u;
}
/* The local MD and offset of slot s for [p, p+n): RARSRC inside the
 * segment, else a bounce buffer (small: the caller copies into
 * stp_pc.bounce + *off) or stp_pc_oos_hold's. */
ptl_handle_md_t stp_pc_local_md_slow(stp_pc_slot_t *s, void *p, size_t n, ptl_size_t *off);
static inline ptl_handle_md_t stp_pc_local_md(stp_pc_slot_t *s, void *p, size_t n, ptl_size_t *off) {
  if (STP_LIKELY(stp_pc_in_segment(p, n))) {
    *off = (ptl_size_t)((char *)p - stp_pc.seg);
    return stp_pc.rarsrc;
  }
  return stp_pc_local_md_slow(s, p, n, off);
}

/* Drain SAFE_EQ (the network's poll): what a reply that stalls polls, so
 * that it never runs request handlers. */
int stp_pc_poll(void);
/* A slot's SAFE_EQ event (SEND_END, ACK, REPLY_END), as stp_pc_poll
 * handles it past stp_pc.hold. */
void stp_pc_slot_event(const ptl_event_t *ev);
/* Take up to max events of eq, each to handle; a lost event (EQ overflow)
 * is a fatal error naming eq and saying what `lost` means.  How many. */
int stp_pc_drain(ptl_handle_eq_t eq, int max, void (*handle)(const ptl_event_t *ev), const char *name,
                 const char *lost);

/* Where node's segment address addr lies in its RAR entry. */
static inline ptl_size_t stp_pc_roff(gasnet_node_t node, const void *addr) {
  return (ptl_size_t)((const char *)addr - (const char *)stp.seg[node].addr);
}

static inline ptl_process_id_t stp_pc_target(gasnet_node_t node) {
  ptl_process_id_t id = {(ptl_nid_t)node, 0};
  return id;
}

#endif /* STP_PORTALS_CONDUIT_H */
