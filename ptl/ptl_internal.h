/*
 * ptl_internal.h -- ptl's object model, shared by its .c files.
 *
 * Two layers.  The pure layer (ptl_obj.c, ptl_eq.c, ptl_match.c, ptl_me.c,
 * ptl_md.c, ptl_atomic.c) is the Portals semantics: handles, EQs, match lists, matching,
 * MD bookkeeping, events.  It uses neither MPI nor UCX and is unit-tested on
 * its own.  The transport (ptl_ni.c, ptl_xport.c, ptl_pub.c, ptl_mem.c)
 * plugs into it through ptl_hooks_t.
 *
 * Threads.  The client thread ("app side") and, in offload mode, the
 * progress thread ("rx side": it runs every handler of incoming traffic;
 * in host mode the client thread runs them inside ptl calls; in offload
 * mode a waiting client may run them too, holding the main-worker token
 * instead of the progress thread).  All object state is guarded by
 * ni->lock, with exceptions the client thread takes lock-free: the offload
 * shortcut (ptl_put.c) reads MDs of infinite threshold, which nothing but
 * the client thread changes, and handles are validated with single-word
 * reads (PTL_RD); EQs are rings with one producer each (ptl_eq.c).
 * Statistics are per side, each written by one thread at a time.
 */
#ifndef PTL_INTERNAL_H
#define PTL_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <time.h>

#include "ptl.h"

/* The monotonic clock, in ns (waits and their deadlines). */
static inline uint64_t ptl_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

#define PTL_LIKELY(x) __builtin_expect(!!(x), 1)
/* Fields the client thread reads without the lock while the progress
 * thread may write them (handle validation, statistics, an MD's threshold
 * and inactive flag): single-word relaxed accesses. */
#define PTL_RD(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define PTL_WR(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#define PTL_UNLIKELY(x) __builtin_expect(!!(x), 0)

enum { PTL_SIDE_APP = 0, PTL_SIDE_RX = 1 };
#define PTL_MD_EVENTS_OFF (PTL_MD_EVENT_START_DISABLE | PTL_MD_EVENT_END_DISABLE)
/* what an incoming message asks (ptl_req_t.op): an atomic is matched as a
 * Put (PTL_MD_OP_PUT), a fetching one needs PTL_MD_OP_PUT and _GET; atomics
 * never truncate (ptl.h section 6) */
enum { PTL_OP_PUT = 1, PTL_OP_GET = 2, PTL_OP_ATOMIC = 3, PTL_OP_FETCH = 4 };

/* ---------------------------------------------------------------- handles */
/* handle = kind:8 | generation:32 | slot:24 */
enum { PTL_KIND_NI = 1, PTL_KIND_EQ = 2, PTL_KIND_MD = 3, PTL_KIND_ME = 4, PTL_KIND_OP = 5 };
#define PTL_SLOT_BITS 24
#define PTL_CHUNK_BITS 10
#define PTL_CHUNK (1u << PTL_CHUNK_BITS)
#define PTL_MAX_CHUNKS (1u << (PTL_SLOT_BITS - PTL_CHUNK_BITS))

static inline ptl_handle_any_t ptl_handle_make(unsigned kind, uint32_t gen, uint32_t slot) {
  return ((uint64_t)kind << 56) | ((uint64_t)gen << PTL_SLOT_BITS) | slot;
}
static inline unsigned ptl_handle_kind(ptl_handle_any_t h) { return (unsigned)(h >> 56); }

/* Every pooled object starts with this. */
typedef struct ptl_obj {
  uint32_t gen; /* bumped at each allocation of the slot */
  uint32_t slot;
  uint32_t live;
  uint32_t next_free; /* slot + 1 of the next free object, 0 = none */
} ptl_obj_t;

/* Objects in fixed chunks: a pointer to an object stays valid while live. */
typedef struct ptl_pool {
  unsigned kind;
  size_t objsize;
  uint32_t count; /* slots created */
  uint32_t max;   /* limit (ptl_ni_limits_t) */
  uint32_t live;
  uint32_t free_head; /* slot + 1 */
  char *chunk0;       /* == chunk[0], one memory access less in the common case */
  char **chunk;       /* PTL_MAX_CHUNKS pointers */
} ptl_pool_t;

int ptl_pool_init(ptl_pool_t *p, unsigned kind, size_t objsize, uint32_t max);
void ptl_pool_fini(ptl_pool_t *p);
void *ptl_pool_alloc(ptl_pool_t *p); /* zeroed but for the header; NULL: full */
void ptl_pool_free(ptl_pool_t *p, void *obj);
/* The slot'th object, live or not (slot < count). */
static inline void *ptl_pool_at(const ptl_pool_t *p, uint32_t slot) {
  return (PTL_LIKELY(slot < PTL_CHUNK) ? p->chunk0 : p->chunk[slot >> PTL_CHUNK_BITS]) +
         (size_t)(slot & (PTL_CHUNK - 1)) * p->objsize;
}
/* The live object a handle names, or NULL. */
static inline void *ptl_pool_get(const ptl_pool_t *p, ptl_handle_any_t h) {
  uint32_t slot = (uint32_t)(h & ((1u << PTL_SLOT_BITS) - 1));
  ptl_obj_t *o;
  if (PTL_UNLIKELY(ptl_handle_kind(h) != p->kind || slot >= p->count)) return NULL;
  o = ptl_pool_at(p, slot);
  if (PTL_UNLIKELY(!PTL_RD(o->live) || PTL_RD(o->gen) != (uint32_t)(h >> PTL_SLOT_BITS))) return NULL;
  return o;
}
static inline ptl_handle_any_t ptl_obj_handle(const ptl_pool_t *p, const void *obj) {
  const ptl_obj_t *o = obj;
  return ptl_handle_make(p->kind, PTL_RD(o->gen), o->slot);
}

/* ---------------------------------------------------------------- objects */
typedef struct ptl_ni ptl_ni_t;
typedef struct ptl_meo ptl_meo_t;

/* Memory registration of an MD (filled by the transport). */
typedef struct ptl_reg {
  void *memh;   /* ucp_mem_h, or NULL */
  void *region; /* the transport's registration (owned: this MD's own, else an extension region's) */
  int owned;    /* this MD registered (and pinned) it */
} ptl_reg_t;

/* One piece of an IOVEC MD: its memory and where its bytes start in the MD. */
typedef struct ptl_piece {
  char *base;
  ptl_size_t len, off;
} ptl_piece_t;

/* An IOVEC MD's piece array, with room for cap pieces (an NI keeps a few
 * spares, so binding and unlinking scatter/gather MDs per operation
 * allocates nothing once they are big enough). */
typedef struct ptl_pieces {
  struct ptl_pieces *next; /* among the spares */
  uint32_t cap;
  ptl_piece_t p[];
} ptl_pieces_t;
#define PTL_PIECES_SPARES 16

/* An MD between ptl_md_prepare and ptl_md_build: its registration, or an
 * IOVEC MD's copied pieces (owned until built or abandoned). */
typedef struct ptl_mdprep {
  ptl_reg_t reg;
  ptl_pieces_t *pieces;
  uint32_t niov;
  ptl_size_t len;
} ptl_mdprep_t;


typedef struct ptl_mdo {
  ptl_obj_t o;
  struct ptl_xmd *xmd; /* locally managed event entry: its reservation state (the running offset is there) */
  ptl_md_t d; /* as the client gave it (d.threshold is the live threshold) */
  ptl_size_t len;    /* its length in bytes (d.length, or an IOVEC MD's total) */
  ptl_piece_t *iov;  /* an IOVEC MD's pieces (pieces->p; NULL: contiguous) */
  uint32_t niov;
  ptl_pieces_t *pieces; /* (owned) */
  ptl_unlink_t unlink_op;
  ptl_size_t loffset; /* locally managed: next append offset */
  uint32_t pending;   /* operations in progress */
  uint8_t inactive;
  uint8_t unlink_pending; /* inactive + PTL_UNLINK: unlink when pending drains */
  uint8_t drain_owed;     /* inactive + PTLX_MD_REARM, no xmd: PTLX_EVENT_DRAINED when pending drains (with an
                           * xmd: the operation that drains it posts it, ptl_xmd_end) */
  ptl_meo_t *me;          /* attached to, or NULL (bound) */
  ptl_reg_t reg;
  /* for posting events quickly (set when built) */
  ptl_handle_md_t self;
  unsigned ev_mask;    /* bit per event kind this MD posts (0: no EQ) */
  struct ptl_eqo *eqo; /* its EQ, valid while eqo->o.gen == eq_gen */
  uint32_t eq_gen;
  /* published as an event entry: compact records in its EQ's ring may name
   * it, so once unlinked it waits in the NI's limbo (its slot not reused)
   * until the consumer has taken every position below limbo_pos */
  uint8_t xev;
  uint64_t limbo_pos;
  struct ptl_mdo *limbo_next;
} ptl_mdo_t;

enum { PTL_PUB_NO = 0, PTL_PUB_YES = 1 };
/* ptl_me_publishable: how an ME may be published */
enum { PTL_PUB_PLAIN = 1, PTL_PUB_EVENTS = 2 };

struct ptl_meo {
  ptl_obj_t o;
  ptl_meo_t *prev, *next;
  ptl_pt_index_t pt;
  int linked; /* in its list */
  ptl_process_id_t match_id;
  ptl_match_bits_t bits;
  ptl_match_bits_t mask; /* ~ignore_bits */
  ptl_unlink_t unlink;
  ptl_mdo_t *md;
  int pub; /* PTL_PUB_*: published to peers (ptl_pub.c) */
  /* published: its place in the owner's publication order, and the order
   * of the request buffer it follows (0: none; ptl.h section 5) */
  uint64_t pub_order, pub_after;
  /* an event entry with a locally managed MD: the reservation state it
   * took in its EQ's shared part (xslot1 = index + 1; 0: none) */
  struct ptl_eqo *xeq;
  unsigned xslot1;
};

typedef struct ptl_list {
  ptl_meo_t *head, *tail;
  uint32_t len;
  int ever_used; /* for PtlMEAttachAny */
} ptl_list_t;

/* A slot of the nic ring holds an event in one of two forms.  The full
 * form (`ev`: the progress thread's events, matched, with the MD as it was
 * then) spans three cache lines.  The compact form (`rec`: what one-sided
 * writers post for an event entry) fits in the slot's first line with its
 * stamp, so a writer moves one line to the consumer instead of three: it
 * leaves out what the consumer knows -- the MD snapshot, taken from the MD
 * itself (an event entry's description does not change, and its MD is
 * freed only once the consumer is past its events: ptl_md_unlink_now),
 * and the fields that are zero.  `kind` is where the full form has its
 * type (< PTL_REC_COMPACT). */
#define PTL_REC_COMPACT 0x80u
typedef struct ptl_rec {
  uint32_t kind; /* PTL_REC_COMPACT | type | pt << 8 */
  uint32_t nid;  /* the initiator's */
  uint64_t bits, rlength, mlength, offset, md_handle, hdr;
} ptl_rec_t;
typedef struct ptl_eq_slot {
  _Atomic uint64_t seq; /* position + 1 once filled (the stamp) */
  union {
    ptl_event_t ev;
    ptl_rec_t rec;
  };
} __attribute__((aligned(64))) ptl_eq_slot_t; /* whole cache lines: no slot shares one with the next */
_Static_assert(offsetof(ptl_eq_slot_t, rec) + sizeof(ptl_rec_t) == 64 && offsetof(ptl_event_t, type) == 0,
               "a compact record fills one line, its kind where the full form has its type");

/* Write the compact form of a PUT_END/GET_END of an event entry. */
static inline __attribute__((always_inline)) void ptl_rec_put(ptl_eq_slot_t *s, ptl_event_kind_t type, uint32_t nid,
                                                             ptl_pt_index_t pt, ptl_match_bits_t bits,
                                                             ptl_size_t rlength, ptl_size_t mlength,
                                                             ptl_size_t offset, ptl_handle_md_t mdh,
                                                             ptl_hdr_data_t hdr) {
  ptl_rec_t *r = &s->rec;
  r->kind = PTL_REC_COMPACT | (uint32_t)type | (uint32_t)pt << 8;
  r->nid = nid;
  r->bits = bits;
  r->rlength = rlength;
  r->mlength = mlength;
  r->offset = offset;
  r->md_handle = mdh;
  r->hdr = hdr;
}

/* The reservation state of a locally managed MD that is an event entry
 * (ptl.h section 5): in the shared part of its EQ, so that initiators
 * append one-sidedly.  `word` packs the operations begun (upper 24 bits)
 * and the running offset (lower 40); an operation that has placed its data
 * and posted its event adds one to `done`; the one that made the MD
 * inactive stores the count of operations begun (itself included) in
 * `final`, so the MD is unlinked once `done` has caught up with it.  A
 * PTLX_MD_REARM buffer keeps its state when PtlXMERearm empties it: `final`
 * back to 0, the offset back to 0 and the count of operations going on
 * (so a stale word never compares equal again), and `order` -- its place in
 * the owner's publication order, which the initiators read here rather
 * than from the publication, and the entry it follows now -- written first
 * (ptl_pub.c). */
#define PTL_XMD_OFF_BITS 40
#define PTL_XMD_OFF_MASK ((1ull << PTL_XMD_OFF_BITS) - 1)
typedef struct ptl_xmd {
  _Atomic uint64_t word;
  _Atomic uint64_t done;
  _Atomic uint64_t final; /* 0: still active */
  _Atomic uint64_t order;    /* (published) */
  _Atomic uint64_t after_id; /* re-armed: the ME it follows now (its handle; 0: none) */
  uint64_t pad[3];
} ptl_xmd_t;
#define PTL_XMD_PER_EQ 64

/* The progress thread's ring of an EQ (offload mode), with what may be
 * shared with peers: a bounded multi-producer queue.  Every producer --
 * the progress thread, and initiators writing one-sidedly to an event
 * entry -- reserves its position with a compare-and-swap on `tail`, fills
 * the slot, and stamps it (seq = position + 1); the one consumer takes
 * slots in position order by their stamps and publishes how far it has
 * taken in `head`.  The consumer never writes a slot, and a producer looks
 * at `head` only when the copy it keeps says the ring may be full: a
 * message costs the producer's one line and nothing else (tail, head and
 * the flags are lines of their own). */
typedef struct ptl_eq_shared {
  _Atomic uint64_t tail;
  uint64_t pad0[7];
  _Atomic uint64_t xdropped; /* events one-sided writers found no room for */
  _Atomic uint64_t sleeping; /* the owner may be blocked: a one-sided writer wakes it */
  uint64_t pad1[6];
  _Atomic uint64_t head; /* positions below are taken (the consumer) */
  uint64_t pad2[7];
  ptl_xmd_t xmd[PTL_XMD_PER_EQ];
  ptl_eq_slot_t slot[];
} ptl_eq_shared_t;

/* A free slot at the tail of sh's ring (capacity mask + 1), reserved: its
 * position in *pos; NULL when the ring is full.  *head: the caller's copy
 * of sh->head (refreshed here when it says full; any older value is safe).
 * Any thread of any process that maps the ring. */
static inline ptl_eq_slot_t *ptl_eq_reserve(ptl_eq_shared_t *sh, uint64_t mask, uint64_t *pos, uint64_t *head) {
  uint64_t p = atomic_load_explicit(&sh->tail, memory_order_relaxed);
  for (;;) {
    /* signed: p may be older than the head just read (the CAS then fails
     * and brings the current tail) */
    if (PTL_UNLIKELY((int64_t)(p - *head) > (int64_t)mask)) {
      /* acquire: the consumer has read the slot before it says so */
      *head = atomic_load_explicit(&sh->head, memory_order_acquire);
      if ((int64_t)(p - *head) > (int64_t)mask) return NULL; /* the slot still holds an event not taken */
    }
    if (atomic_compare_exchange_weak_explicit(&sh->tail, &p, p + 1, memory_order_relaxed, memory_order_relaxed)) {
      *pos = p;
      return &sh->slot[p & mask];
    }
  }
}

/* An EQ is two rings.  `own` holds the events the client thread posts (in
 * host mode: all of them); it is written and read by that thread only.
 * `nic` (offload mode) receives the progress thread's events, and those
 * of one-sided writers; the client thread moves them into `own`, in
 * order, before it posts or takes anything, so `own` is the queue's order.
 * Sequence numbers are given on entering `own`. */
typedef struct ptl_eqo {
  ptl_obj_t o;
  ptl_event_t *own;
  uint64_t own_head, own_tail, own_dropped;
  ptl_eq_shared_t *sh; /* NULL in host mode */
  ptl_eq_slot_t *nic;  /* sh->slot */
  void *region;        /* the transport's registration of sh (NULL: plain memory) */
  uint64_t nic_head;   /* client thread */
  uint64_t nic_hcopy;  /* producers here (lock held): their copy of sh->head */
  _Atomic uint64_t nic_dropped;
  ptl_seq_t *nic_seq; /* sequence given to each nic position (for END events' link) */
  uint64_t mask;      /* capacity - 1, both rings */
  ptl_seq_t next_seq;
  ptl_eq_handler_t handler;
  struct ptl_mdo *xmd_md[PTL_XMD_PER_EQ]; /* the MD each sh->xmd[] serves, or NULL (owner, lock held) */
  uint8_t xmd_busy[PTL_XMD_PER_EQ];       /* sh->xmd[i] taken: until its entry's revocation is done */
  uint8_t dying;                          /* PtlEQFree: no entry posting here may be published any more */
  uint8_t took;                           /* PtlEQGet's last look found an event (client thread) */
} ptl_eqo_t;

/* Reserve room for a message of rlength in a locally managed MD (length,
 * max_size, options) whose running offset is in xm: 1 with the offset,
 * the length taken, and whether this message made the MD inactive (*ops:
 * the operations begun, this one included, modulo 2^24); 0 when the MD is
 * inactive or cannot hold the message, or (order != 0) when its place in
 * the publication order is no longer `order` (re-armed since the caller
 * chose it).  Any thread of any process that maps xm. */
static inline int ptl_xmd_reserve(ptl_xmd_t *xm, uint64_t length, uint64_t max_size, unsigned opts,
                                  uint64_t rlength, uint64_t *off, uint64_t *mlen, int *crossed, uint64_t *ops,
                                  uint64_t order) {
  /* acquire: a word that PtlXMERearm reset comes with its new order */
  uint64_t w = atomic_load_explicit(&xm->word, memory_order_acquire);
  for (;;) {
    uint64_t o = w & PTL_XMD_OFF_MASK, ml, n = (w >> PTL_XMD_OFF_BITS) + 1;
    if (o > length || ((opts & PTL_MD_MAX_SIZE) && length - o < max_size)) return 0;
    if (order && atomic_load_explicit(&xm->order, memory_order_relaxed) != order) return 0;
    if (rlength <= length - o)
      ml = rlength;
    else if (opts & PTL_MD_TRUNCATE)
      ml = length - o;
    else
      return 0;
    if (atomic_compare_exchange_weak_explicit(&xm->word, &w, n << PTL_XMD_OFF_BITS | (o + ml), memory_order_acq_rel,
                                              memory_order_acquire)) {
      *off = o;
      *mlen = ml;
      *crossed = (opts & PTL_MD_MAX_SIZE) && length - (o + ml) < max_size;
      *ops = n & ((1u << 24) - 1);
      return 1;
    }
  }
}
/* The operation that made the MD inactive marks it; every operation marks
 * its end after its data and event are in place. */
static inline void ptl_xmd_full(ptl_xmd_t *xm, uint64_t ops) {
  atomic_store_explicit(&xm->final, ops | 1ull << 63, memory_order_release);
}
/* 1 if this was the last operation of the MD full now (the only one that
 * sees `done` catch up with `final`: it posts a re-armed buffer's DRAINED). */
static inline int ptl_xmd_end(ptl_xmd_t *xm, int crossed, uint64_t ops) {
  if (crossed) ptl_xmd_full(xm, ops);
  uint64_t d = atomic_fetch_add_explicit(&xm->done, 1, memory_order_acq_rel) + 1;
  uint64_t f = atomic_load_explicit(&xm->final, memory_order_acquire);
  return f && ((d ^ f) & ((1u << 24) - 1)) == 0;
}
/* Has every operation begun on an inactive MD ended? */
static inline int ptl_xmd_drained(ptl_xmd_t *xm) {
  uint64_t f = atomic_load_explicit(&xm->final, memory_order_acquire);
  return f && ((atomic_load_explicit(&xm->done, memory_order_acquire) ^ f) & ((1u << 24) - 1)) == 0;
}

/* What the transport provides to the pure layer (any may be NULL). */
typedef struct ptl_hooks {
  /* app side, lock NOT held: pin + register [start, +len) for a new MD */
  int (*md_register)(ptl_ni_t *ni, void *start, ptl_size_t len, ptl_reg_t *reg);
  void (*md_deregister)(ptl_ni_t *ni, ptl_reg_t *reg); /* either side */
  /* app side, lock NOT held: list pt changed; `gone` (or NULL) was just
   * taken out of it and is freed after this returns.  Revocations finish
   * before it returns. */
  void (*list_changed)(ptl_ni_t *ni, ptl_pt_index_t pt, ptl_meo_t *gone);
  /* app side, lock NOT held: make progress once (host mode: match); nonzero
   * if anything happened */
  unsigned (*progress)(ptl_ni_t *ni);
  /* app side, lock NOT held: block until something may have arrived, at
   * most timeout_ms (< 0: forever).  seen: ni->posted read before the EQs
   * were last found empty (return at once if it moved). */
  void (*block)(ptl_ni_t *ni, uint64_t seen, int timeout_ms);
  /* rx side, offload mode: an event was posted while ni->sleepers: wake */
  void (*wake)(ptl_ni_t *ni);
  /* app side, lock NOT held: memory for an EQ's shared part (offload
   * mode), that peers may map; *region: the transport's handle of it */
  void *(*eq_mem)(ptl_ni_t *ni, size_t len, void **region);
  void (*eq_mem_free)(ptl_ni_t *ni, void *region);
  /* lock held, either side: md is about to be unlinked, and it is a
   * locally managed event entry's, or its published ME goes with it
   * (without list_changed: the MD unlinked itself): stop watching it,
   * revoke the ME later */
  void (*md_gone)(ptl_ni_t *ni, ptl_mdo_t *md);
  /* lock held, app side: me (a PTLX_MD_REARM buffer's) has just moved in
   * its list; its MD is about to take messages again: give a published
   * one its new place in the order */
  void (*me_rearmed)(ptl_ni_t *ni, ptl_meo_t *me);
} ptl_hooks_t;

struct ptl_ni {
  ptl_handle_ni_t handle;
  ptl_interface_t mode; /* PTLX_IFACE_HOST / _OFFLOAD */
  int refs;
  ptl_process_id_t id;
  int size;
  pthread_mutex_t lock;
  ptl_pool_t eqs, mds, mes;
  ptl_mdo_t *limbo; /* unlinked MDs whose slots wait for their EQ's consumer (ptl_mdo_t.xev) */
  ptl_pieces_t *pieces_spare; /* IOVEC piece arrays to reuse (lock held; ptl_md.c) */
  int npieces_spare;
  ptl_list_t pt[PTLX_PT_INDEX_MAX + 1];
  ptl_sr_value_t sr[2][PTLX_SR_MAX]; /* per side */
  _Atomic uint64_t pub_dirty;        /* bit pt: the rx side changed that list (re-publish, app side) */
  _Atomic uint64_t posted;           /* events posted by the rx side (when hooks->wake) */
  _Atomic int sleepers;              /* the client thread is (about to be) blocked */
  /* the two EQs last looked up and their handles, the latest first (client
   * thread; PtlEQFree forgets them): a client polling two EQs in turn
   * (seed 000's AM_EQ and SAFE_EQ) looks neither up */
  ptl_handle_eq_t eq_hot_h[2];
  struct ptl_eqo *eq_hot[2];
  /* progress calls a waiting client makes without calling hooks->progress:
   * the transport's say (client thread; offload mode with none of the
   * client's own sends in flight, see offload_progress) */
  uint32_t idle_skip;
  const ptl_hooks_t *hooks;
  void *x; /* the transport's state */
};

/* The NI, or NULL (one NI per process). */
extern ptl_ni_t *ptl_the_ni;
static inline ptl_ni_t *ptl_ni_get(ptl_handle_ni_t h) {
  ptl_ni_t *ni = ptl_the_ni;
  return (ni && h == ni->handle) ? ni : NULL;
}
/* The NI a handle of any kind belongs to (ptl has one). */
static inline ptl_ni_t *ptl_ni_of(ptl_handle_any_t h) {
  (void)h;
  return ptl_the_ni;
}

static inline void ptl_stat(ptl_ni_t *ni, int side, unsigned idx, ptl_sr_value_t v) {
  PTL_WR(ni->sr[side][idx], PTL_RD(ni->sr[side][idx]) + v); /* one writer per side */
}
static inline void ptl_lock(ptl_ni_t *ni) { pthread_mutex_lock(&ni->lock); }
static inline void ptl_unlock(ptl_ni_t *ni) { pthread_mutex_unlock(&ni->lock); }

/* ptl_obj.c: the NI object of the pure layer */
extern const ptl_ni_limits_t ptl_limits;
int ptl_ni_create(ptl_interface_t mode, ptl_process_id_t id, int size, const ptl_hooks_t *hooks, ptl_ni_t **out);
void ptl_ni_destroy(ptl_ni_t *ni); /* unlinks every MD/ME, frees EQs */

/* ptl_eq.c */
/* ptl_eq.c: events */
typedef struct ptl_evinfo {
  ptl_process_id_t initiator;
  ptl_pt_index_t pt;
  ptl_match_bits_t bits;
  ptl_size_t rlength, mlength, offset;
  ptl_hdr_data_t hdr;
  ptl_seq_t link; /* END events: the token ptl_md_event gave their START */
  ptl_ni_fail_t fail;
} ptl_evinfo_t;

void ptl_eq_free_all(ptl_ni_t *ni); /* ptl_ni_destroy */
/* Client thread: move the progress thread's events into the own ring (as
 * far as it has room), giving sequence numbers; an END event's link (its
 * START's nic position + 1) becomes that START's sequence. */
void ptl_eq_drain(ptl_eqo_t *eq);
ptl_seq_t ptl_eq_lost(ptl_ni_t *ni, ptl_eqo_t *eq, int side); /* an event found no room: count it */
ptl_seq_t ptl_eq_nic_commit(ptl_ni_t *ni, ptl_eqo_t *eq, uint64_t pos); /* publish the progress thread's event */

static inline __attribute__((always_inline)) void ptl_eq_catch_up(ptl_eqo_t *eq) {
  if (eq->nic && atomic_load_explicit(&eq->nic[eq->nic_head & eq->mask].seq, memory_order_acquire) == eq->nic_head + 1)
    ptl_eq_drain(eq);
}

/* Fill an event.  The event is written as nine 16-byte stores, the same
 * pieces eq_take's struct copy reads back a moment later: reading a piece
 * that several narrower stores still in flight wrote stalls the load
 * (failed store-to-load forwarding), and the client's own events are
 * taken right after they are posted.  The MD snapshot is md->d as it lies
 * in memory (ptl_md_t is laid out as it is inside ptl_event_t). */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PTL_EV_CHUNKS 1
typedef uint64_t ptl_v2_t __attribute__((vector_size(16)));
_Static_assert(sizeof(ptl_event_t) == 144 && offsetof(ptl_event_t, initiator) == 4 &&
                   offsetof(ptl_event_t, uid) == 12 && offsetof(ptl_event_t, jid) == 16 &&
                   offsetof(ptl_event_t, pt_index) == 20 && offsetof(ptl_event_t, match_bits) == 24 &&
                   offsetof(ptl_event_t, rlength) == 32 && offsetof(ptl_event_t, mlength) == 40 &&
                   offsetof(ptl_event_t, offset) == 48 && offsetof(ptl_event_t, md_handle) == 56 &&
                   offsetof(ptl_event_t, md) == 64 && offsetof(ptl_event_t, hdr_data) == 120 &&
                   offsetof(ptl_event_t, link) == 128 && offsetof(ptl_event_t, ni_fail_type) == 132 &&
                   offsetof(ptl_event_t, sequence) == 136,
               "ptl_event_t layout (ptl_ev_fill)");
_Static_assert(sizeof(ptl_md_t) == 56 && offsetof(ptl_md_t, threshold) == 16 && offsetof(ptl_md_t, options) == 32 &&
                   offsetof(ptl_md_t, eq_handle) == 48,
               "ptl_md_t layout (ptl_ev_fill)");
static inline __attribute__((always_inline)) void ptl_v2_put(void *dst, uint64_t lo, uint64_t hi) {
  ptl_v2_t v = {lo, hi};
  __builtin_memcpy(dst, &v, 16);
}
#endif

/* The event from its values (no struct in between: on the hot paths they
 * stay in registers). */
static inline __attribute__((always_inline)) void
ptl_ev_put(ptl_event_t *ev, ptl_event_kind_t type, ptl_process_id_t initiator, ptl_pt_index_t pt, ptl_match_bits_t bits,
           ptl_size_t rlength, ptl_size_t mlength, ptl_size_t offset, ptl_handle_md_t mdh, const ptl_md_t *mdd,
           ptl_hdr_data_t hdr, ptl_seq_t link, ptl_ni_fail_t fail, ptl_seq_t seq) {
#ifdef PTL_EV_CHUNKS
  char *p = (char *)ev;
  const char *d = (const char *)mdd;
  ptl_v2_t m0, m1, m2;
  uint64_t eqh = mdd->eq_handle; /* every load before the first store: the stores may alias */
  __builtin_memcpy(&m0, d, 16);
  __builtin_memcpy(&m1, d + 16, 16);
  __builtin_memcpy(&m2, d + 32, 16);
  ptl_v2_put(p, (uint32_t)type | (uint64_t)initiator.nid << 32, initiator.pid); /* uid 0 */
  ptl_v2_put(p + 16, (uint64_t)pt << 32, bits);                                  /* jid 0 */
  ptl_v2_put(p + 32, rlength, mlength);
  ptl_v2_put(p + 48, offset, mdh);
  __builtin_memcpy(p + 64, &m0, 16);
  __builtin_memcpy(p + 80, &m1, 16);
  __builtin_memcpy(p + 96, &m2, 16);
  ptl_v2_put(p + 112, eqh, hdr);
  ptl_v2_put(p + 128, link | (uint64_t)fail << 32, seq);
#else
  ev->type = type;
  ev->initiator = initiator;
  ev->uid = 0;
  ev->jid = 0;
  ev->pt_index = pt;
  ev->match_bits = bits;
  ev->rlength = rlength;
  ev->mlength = mlength;
  ev->offset = offset;
  ev->md_handle = mdh;
  /* field by field: a struct copy here becomes `rep movs`, slow to start */
  ev->md.start = mdd->start;
  ev->md.length = mdd->length;
  ev->md.threshold = mdd->threshold;
  ev->md.max_size = mdd->max_size;
  ev->md.options = mdd->options;
  ev->md.user_ptr = mdd->user_ptr;
  ev->md.eq_handle = mdd->eq_handle;
  ev->hdr_data = hdr;
  ev->link = link;
  ev->ni_fail_type = fail;
  ev->sequence = seq;
#endif
}

static inline __attribute__((always_inline)) void ptl_ev_fill(ptl_event_t *ev, ptl_event_kind_t type,
                                                              const ptl_evinfo_t *in, ptl_handle_md_t mdh,
                                                              const ptl_mdo_t *md, ptl_seq_t seq, ptl_seq_t link) {
  ptl_ev_put(ev, type, in->initiator, in->pt, in->bits, in->rlength, in->mlength, in->offset, mdh, &md->d, in->hdr, link,
             in->fail, seq);
}

#define PTL_START_KINDS                                                                                                \
  ((1u << PTL_EVENT_GET_START) | (1u << PTL_EVENT_PUT_START) | (1u << PTL_EVENT_REPLY_START) |                         \
   (1u << PTL_EVENT_SEND_START) | (1u << PTL_EVENT_ATOMIC_START) | (1u << PTL_EVENT_FETCH_ATOMIC_START))
#define PTL_END_KINDS                                                                                                  \
  ((1u << PTL_EVENT_GET_END) | (1u << PTL_EVENT_PUT_END) | (1u << PTL_EVENT_REPLY_END) | (1u << PTL_EVENT_SEND_END) |  \
   (1u << PTL_EVENT_ATOMIC_END) | (1u << PTL_EVENT_FETCH_ATOMIC_END))

/* Post `type` on md's EQ if it has one and the kind is enabled (an EQ
 * freed or full: counted in PTLX_SR_EQ_DROPPED).  Returns a link token for
 * a START event (0: none), to be passed as info->link of its END event.
 * Inline: on the hot paths the event is filled straight from the caller's
 * values.  The client thread's events go to the own ring (after what the
 * progress thread posted before them), the progress thread's to the nic
 * ring. */
#define PTL_SEND_KINDS ((1u << PTL_EVENT_SEND_START) | (1u << PTL_EVENT_SEND_END))
/* ev_mask bit (no event kind): SEND kinds off (PTLX_MD_EVENT_SEND_DISABLE),
 * but a failed send still posts its SEND_END. */
#define PTL_EVM_FAILED_SEND (1u << 31)
/* The event kinds an MD with these options and EQ posts: START and END
 * kinds obey their switch; ACK and UNLINK are off only with both. */
static inline unsigned ptl_md_ev_mask(const ptl_md_t *d) {
  unsigned opts = d->options, m = ~PTL_EVM_FAILED_SEND;
  if (d->eq_handle == PTL_EQ_NONE || (opts & PTL_MD_EVENTS_OFF) == PTL_MD_EVENTS_OFF) return 0;
  if (opts & PTL_MD_EVENT_START_DISABLE) m &= ~PTL_START_KINDS;
  if (opts & PTL_MD_EVENT_END_DISABLE) m &= ~PTL_END_KINDS;
  if (opts & PTLX_MD_EVENT_SEND_DISABLE)
    m = (m & ~PTL_SEND_KINDS) | ((m & (1u << PTL_EVENT_SEND_END)) ? PTL_EVM_FAILED_SEND : 0u);
  return m;
}

/* md's EQ if still allocated, else NULL. */
static inline ptl_eqo_t *ptl_md_eq(const ptl_mdo_t *md) {
  ptl_eqo_t *eq = md->eqo;
  return eq && PTL_RD(eq->o.live) && PTL_RD(eq->o.gen) == md->eq_gen ? eq : NULL;
}

/* Does an MD whose ev_mask is m post an event of this type, whose
 * ni_fail_type is fail?  (A failed send's SEND_END also under
 * PTLX_MD_EVENT_SEND_DISABLE.) */
static inline int ptl_ev_posts(unsigned m, ptl_event_kind_t type, ptl_ni_fail_t fail) {
  return ((m >> type) & 1) || (type == PTL_EVENT_SEND_END && fail != PTL_NI_OK && (m & PTL_EVM_FAILED_SEND));
}

static inline ptl_seq_t ptl_md_event(ptl_ni_t *ni, ptl_mdo_t *md, ptl_event_kind_t type, const ptl_evinfo_t *in,
                                     int side) {
  ptl_eqo_t *eq;
  ptl_event_t *ev;
  uint64_t pos;
  if (!ptl_ev_posts(md->ev_mask, type, in->fail)) return 0;
  if (PTL_UNLIKELY(!(eq = ptl_md_eq(md)))) return ptl_eq_lost(ni, NULL, side);
  int nic = side == PTL_SIDE_RX && eq->nic;
  if (nic) {
    ptl_eq_slot_t *s = ptl_eq_reserve(eq->sh, eq->mask, &pos, &eq->nic_hcopy);
    if (!s) return ptl_eq_lost(ni, eq, side);
    ev = &s->ev;
  } else {
    ptl_eq_catch_up(eq); /* what the progress thread posted first comes first */
    pos = eq->own_tail;
    if (PTL_UNLIKELY(pos - eq->own_head > eq->mask)) return ptl_eq_lost(ni, eq, side);
    ev = &eq->own[pos & eq->mask];
  }
  if (nic) { /* link: the START's token, made a sequence when drained */
    ptl_ev_fill(ev, type, in, md->self, md, 0, in->link);
    return ptl_eq_nic_commit(ni, eq, pos);
  }
  ptl_ev_fill(ev, type, in, md->self, md, eq->next_seq, in->link ? in->link - 1 : 0);
  eq->own_tail = pos + 1;
  return eq->next_seq++ + 1;
}

/* ptl_obj.c.  A process that cannot keep ptl's promises (a peer would wait
 * for ever, or ptl's own state is broken): say why, run ptl_die_hook (the
 * library's: end the job through the bootstrap's abort), abort. */
void ptl_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* "ptl (rank R): " what, then the message, as one line on stderr */
void ptl_vsay(const char *what, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
extern void (*ptl_die_hook)(void);
/* realloc(old, n) (malloc for old NULL) of what ptl cannot do without --
 * a revocation, a control message kept for its turn: losing one would let
 * peers write into freed memory, or the ordered control stream stall and
 * an owner wait for ever -- so failing, ptl_die says what (fmt,
 * printf-style) followed by ": out of memory".  Test faults (ptl/tests/
 * ptl_fault.c): the ptl_fault_nth-th call whose fmt begins with
 * ptl_fault_what (set first) fails. */
void *ptl_alloc_or_die(void *old, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
extern const char *_Atomic ptl_fault_what;
extern _Atomic long ptl_fault_nth;

/* ptl_match.c: MD use, matching */
/* One operation uses md: threshold--, maybe inactive / unlink pending. */
void ptl_md_consume(ptl_mdo_t *md);
/* An operation on md ended (pending--): unlink now if due, with an UNLINK
 * event carrying `info`. */
void ptl_md_release(ptl_ni_t *ni, ptl_mdo_t *md, const ptl_evinfo_t *info, int side);
/* Unlink md now: deregister, detach (taking its ME if PTL_UNLINK), free. */
void ptl_md_unlink_now(ptl_ni_t *ni, ptl_mdo_t *md);
/* Free the slots of unlinked MDs whose EQ's consumer is past every record
 * that may name them (or whose EQ is gone). */
void ptl_limbo_reap(ptl_ni_t *ni);
void ptl_me_unlink_now(ptl_ni_t *ni, ptl_meo_t *me); /* the ME and its MD */
void ptl_list_remove(ptl_ni_t *ni, ptl_meo_t *me);

/* An incoming Put or Get, as the target sees it. */
typedef struct ptl_req {
  int op;
  ptl_process_id_t src;
  ptl_pt_index_t pt;
  ptl_match_bits_t bits;
  ptl_size_t rlength, roffset;
  ptl_hdr_data_t hdr;
} ptl_req_t;
/* Where it went. */
typedef struct ptl_hit {
  ptl_mdo_t *md;
  ptl_handle_md_t mdh;
  ptl_size_t offset, mlength;
  ptl_seq_t start_seq; /* link token of the START event */
  struct ptl_xmd *xmd; /* the reservation state it reserved through (its end counts there), or NULL */
} ptl_hit_t;

/* Lock held.  First entry that takes r: 1 (START event posted, md pending),
 * or 0 (dropped and counted). */
int ptl_match(ptl_ni_t *ni, const ptl_req_t *r, ptl_hit_t *hit, int side);
/* Lock held.  The data of a matched request has moved: END event, release. */
void ptl_match_end(ptl_ni_t *ni, const ptl_req_t *r, const ptl_hit_t *hit, ptl_ni_fail_t fail, int side);
/* Would an ME with this source filter accept `src`? */
static inline int ptl_id_accepts(ptl_process_id_t f, ptl_process_id_t src) {
  return (f.nid == PTL_NID_ANY || f.nid == src.nid) && (f.pid == PTL_PID_ANY || f.pid == src.pid);
}
/* Lock held.  Section 5 of ptl.h: may `me` be published?  0, or PTL_PUB_PLAIN
 * (event-free), or PTL_PUB_EVENTS (an event entry). */
int ptl_me_publishable(const ptl_meo_t *me, uint64_t *after);
/* Lock held: md goes inactive (and is unlinked once its operations end, if
 * it was attached with PTL_UNLINK; a PTLX_MD_REARM one owes its DRAINED). */
void ptl_md_deactivate(ptl_mdo_t *md);
/* Lock held: post a full PTLX_MD_REARM MD's DRAINED if it is due (no
 * xmd); post it. */
void ptl_md_drain_check(ptl_ni_t *ni, ptl_mdo_t *md, int side);
void ptl_md_drained(ptl_ni_t *ni, ptl_mdo_t *md, int side);

/* Atomic operations (ptl.h section 6).  Bytes of an element of dt; 0: not
 * a datatype. */
static inline size_t ptl_dt_size(ptl_datatype_t dt) {
  switch (dt) {
    case PTL_INT32_T:
    case PTL_UINT32_T:
    case PTL_FLOAT: return 4;
    case PTL_INT64_T:
    case PTL_UINT64_T:
    case PTL_DOUBLE: return 8;
    default: return 0;
  }
}
/* May a call ask for (op, dt, len)?  swap_call: PtlSwap (the swaps), else
 * PtlAtomic/PtlFetchAtomic (the rest).  PTL_OK or PTLX_ARG_INVALID.  (Also
 * the target's check of a header from the wire: fuzzed.) */
static inline int ptl_atomic_check(int swap_call, ptl_op_t op, ptl_datatype_t dt, ptl_size_t len) {
  size_t sz = ptl_dt_size(dt);
  int fp = dt == PTL_FLOAT || dt == PTL_DOUBLE;
  if (!sz || (unsigned)op >= (unsigned)PTLX_OP_COUNT) return PTLX_ARG_INVALID;
  if (swap_call != (op >= PTL_SWAP)) return PTLX_ARG_INVALID; /* PtlSwap: the swaps; the others: the rest */
  if (!len || len % sz || len > PTLX_MAX_ATOMIC_SIZE) return PTLX_ARG_INVALID;
  if (op > PTL_SWAP && len != sz) return PTLX_ARG_INVALID; /* conditional and masked swaps: one element */
  if (fp && (op == PTL_LOR || op == PTL_LAND || op == PTL_LXOR || op == PTL_BOR || op == PTL_BAND ||
             op == PTL_BXOR || op == PTL_MSWAP))
    return PTLX_ARG_INVALID; /* logical, bitwise, masked: integers */
  return PTL_OK;
}
/* ptl_atomic.c */
/* Apply op to [target, +len) with the initiator's data and (swaps) the
 * operand's one element; the old values into fetched unless NULL.  A
 * checked (op, dt, len); the NI's lock held (see ptl_atomic.c). */
void ptl_atomic_apply(void *target, const void *data, const void *operand, void *fetched, size_t len, ptl_op_t op,
                      ptl_datatype_t dt);

/* ptl_md.c: an MD is prepared (checked, registered; lock NOT held), then
 * built (lock held), or abandoned if building failed. */
int ptl_md_prepare(ptl_ni_t *ni, const ptl_md_t *d, ptl_mdprep_t *prep);
int ptl_md_build(ptl_ni_t *ni, const ptl_md_t *d, ptl_unlink_t unlink_op, ptl_mdprep_t *prep, ptl_mdo_t **out);
void ptl_md_abandon(ptl_ni_t *ni, ptl_mdprep_t *prep);
/* An MD's bytes [off, +len) (within its length): where they are as one
 * pointer, or NULL when they cross pieces of an IOVEC MD; and copies out
 * of and into them, whatever pieces they cross. */
char *ptl_md_piece_at(const ptl_mdo_t *md, ptl_size_t off, ptl_size_t len);
/* The piece of an IOVEC MD that holds byte off (< md->len); the next
 * pieces follow it in the array. */
const ptl_piece_t *ptl_md_piece(const ptl_mdo_t *md, ptl_size_t off);
static inline char *ptl_md_at(const ptl_mdo_t *md, ptl_size_t off, ptl_size_t len) {
  return PTL_LIKELY(!md->iov) ? (char *)md->d.start + off : ptl_md_piece_at(md, off, len);
}
void ptl_md_gather(const ptl_mdo_t *md, ptl_size_t off, void *dst, ptl_size_t len);
/* An MD's bytes [off, +len) to send: where they are (*memh: the MD's
 * registration), or, across IOVEC pieces, gathered into a new buffer that
 * *bounce owns from then on (*memh NULL). */
char *ptl_md_send_src(const ptl_mdo_t *md, ptl_size_t off, ptl_size_t len, void **bounce, void **memh);
/* An IOVEC MD's piece array back to the NI's spares (or freed); lock held. */
void ptl_pieces_drop(ptl_ni_t *ni, ptl_pieces_t *p);
void ptl_md_scatter(const ptl_mdo_t *md, ptl_size_t off, const void *src, ptl_size_t len);

/* ptl_me.c */
int ptl_me_new(ptl_ni_t *ni, ptl_pt_index_t pt, ptl_meo_t *base, ptl_process_id_t match_id, ptl_match_bits_t bits,
               ptl_match_bits_t ignore, ptl_unlink_t unlink, ptl_ins_pos_t pos,
               ptl_meo_t **out); /* lock held; base NULL: head/tail of pt's list */
/* Lock held: link me into l before/after base (NULL: l's head/tail). */
void ptl_list_insert(ptl_list_t *l, ptl_meo_t *me, ptl_meo_t *base, ptl_ins_pos_t pos);
void ptl_list_changed(ptl_ni_t *ni, ptl_pt_index_t pt, ptl_meo_t *gone); /* lock not held */
void ptl_list_dirty(ptl_ni_t *ni);                                       /* lock not held: lists the rx side changed */

#endif /* PTL_INTERNAL_H */
