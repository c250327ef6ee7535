/*
 * ptl_put.c -- the initiator: PtlPut/PtlGet(Region).  A call is checked,
 * then either takes the offload shortcut (RMA to an entry the target
 * published, ptl.h section 5) or is sent as an active message to be
 * matched; and here is what comes back for it (send completion, ACK).
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "ptl_ucx.h"
#include "stp_copy.h"

/* ---------------------------------------------------------------- the shortcut */
/* The hot path of offload mode: a Put or Get whose own MD has an infinite
 * threshold (nothing but this thread changes it, so no lock), to an entry
 * the target published.  Kept to a minimum: no lock, no atomic
 * read-modify-write, no allocation. */

/* peer's key `packed`, unpacked: from the cache, or unpacked and kept
 * there, its reference counted (NULL: UCX refused it, or every cached key
 * is in use). */
static ptl_rkc_t *rkey_cached(ptl_x_t *x, uint32_t target, const void *packed, size_t len) {
  ptl_peer_t *peer = &x->peer[target];
  ptl_rkc_t *c = peer->rkc, *slot = NULL;
  for (int i = 0; i < PTL_RKEY_CACHE; i++) {
    if (c[i].packed && c[i].len == len && !memcmp(c[i].packed, packed, len)) {
      slot = &c[i];
      goto hit;
    }
    if (!c[i].packed) {
      if (!slot || slot->packed) slot = &c[i];
    } else if (!atomic_load(&c[i].refs) && (!slot || (slot->packed && c[i].used < slot->used))) {
      slot = &c[i]; /* (an empty slot is preferred, then the least recently used key nothing uses) */
    }
  }
  if (!slot) return NULL; /* every key in use: this entry is matched */
  if (slot->packed) {
    ucp_rkey_destroy(slot->rkey);
    free(slot->packed);
    slot->packed = NULL;
  }
  if (!(slot->packed = malloc(len))) return NULL;
  if (ucp_ep_rkey_unpack(x->txep[target], packed, &slot->rkey) != UCS_OK) {
    free(slot->packed);
    slot->packed = NULL;
    return NULL;
  }
  memcpy(slot->packed, packed, len);
  slot->len = len;
hit:
  atomic_fetch_add(&slot->refs, 1);
  slot->used = ++peer->rkc_clock;
  return slot;
}

/* First use of an entry: its keys unpacked and the peer's memory mapped
 * where UCX can (shared memory; lbase stays NULL for a peer on another
 * host).  An event entry that is not mapped is never used; a plain one is
 * written by UCX then, and by this CPU's one store where a Put is a word
 * (sc_rma). */
static ucs_status_t pub_unpack(ptl_x_t *x, uint32_t target, ptl_pubent_t *e) {
  const char *k2 = (const char *)e->rkey_buf + e->rkey_len - e->rkey2_len;
  void *p, *q;
  if (!e->xev) {
    ucs_status_t st = stp_ucx_rkey_unpack(&x->u, x->txep[target], e->rkey_buf, &e->rkey);
    if (st == UCS_OK && ucp_rkey_ptr(e->rkey, e->base, &p) == UCS_OK) e->lbase = p; /* (a word is stored there: sc_rma) */
    return st;
  }
  e->rkc1 = rkey_cached(x, target, e->rkey_buf, e->rkey_len - e->rkey2_len);
  e->rkc2 = rkey_cached(x, target, k2, e->rkey2_len);
  e->rkey = e->rkc1 ? e->rkc1->rkey : NULL;
  e->rkey2 = e->rkc2 ? e->rkc2->rkey : NULL;
  if (e->rkey && e->rkey2 && ucp_rkey_ptr(e->rkey, e->base, &p) == UCS_OK &&
      ucp_rkey_ptr(e->rkey2, e->ring, &q) == UCS_OK) {
    e->lbase = p;
    e->lsh = q;
    e->lhead = 0; /* (below the real head: safe) */
  }
  return UCS_OK;
}

/* Client thread, busy set: a PENDING entry's first use -- its key is
 * unpacked here, by the thread that uses it.  0 if it cannot be used. */
static int pub_validate(ptl_x_t *x, uint32_t target, ptl_pubent_t *e) {
  int pending = PUB_PENDING;
  if (atomic_load(&e->state) != PUB_PENDING) return 1;
  if (pub_unpack(x, target, e) != UCS_OK) return 0;
  return atomic_compare_exchange_strong(&e->state, &pending, PUB_VALID); /* (0: revoked meanwhile) */
}

/* Is the locally managed event entry e inactive (full: it can never take
 * anything again -- until re-armed)? */
static int sc_xfull(ptl_pubent_t *e) {
  uint64_t o;
  if (!e->xslot1 || (e->options & PTL_MD_MANAGE_REMOTE)) return 0;
  o = atomic_load_explicit(&e->lsh->xmd[e->xslot1 - 1].word, memory_order_acquire) & PTL_XMD_OFF_MASK;
  return o > e->length || ((e->options & PTL_MD_MAX_SIZE) && e->length - o < e->max_size);
}

/* The current order of a re-armed buffer e, validated and mapped here
 * (read after its word: *full says whether that word is full; *after_id
 * the entry it follows since its last re-arming, 0: as published). */
static uint64_t rearm_order(ptl_pubent_t *e, int *full, uint64_t *after_id) {
  *full = sc_xfull(e);
  *after_id = atomic_load_explicit(&e->lsh->xmd[e->xslot1 - 1].after_id, memory_order_relaxed);
  return atomic_load_explicit(&e->lsh->xmd[e->xslot1 - 1].order, memory_order_relaxed);
}

/* Does this process know peer's entry `id` (published, not revoked)? */
static int pub_knows(ptl_peer_t *peer, uint64_t id) {
  int n = atomic_load_explicit(&peer->npub, memory_order_acquire);
  for (int i = 0; i < n; i++) {
    int st = atomic_load(&peer->pub[i].state);
    if ((st == PUB_VALID || st == PUB_PENDING) && peer->pub[i].id == id) return 1;
  }
  return 0;
}

/* Client thread, busy set: may the re-armed buffer e, published to follow
 * another, take messages?  Only once that one has been full (ptl.h
 * section 5) -- which no message says for a re-armed buffer: it is full
 * now, or re-armed since its publication (its order moved on). */
static int rearm_opens(ptl_x_t *x, ptl_peer_t *peer, uint32_t target, ptl_pubent_t *e) {
  int n = atomic_load_explicit(&peer->npub, memory_order_acquire), full;
  uint64_t after_id;
  for (int i = 0; i < n; i++) {
    ptl_pubent_t *p = &peer->pub[i];
    int st = atomic_load(&p->state);
    if ((st != PUB_VALID && st != PUB_PENDING) || p->order != e->after || !(p->options & PTLX_MD_REARM) || !p->xev)
      continue;
    if (!pub_validate(x, target, p) || !p->lsh || !p->xslot1) return 0;
    if (rearm_order(p, &full, &after_id) == p->order && !full) return 0;
    atomic_store_explicit(&e->open, 1, memory_order_release);
    return 1;
  }
  return 0; /* (not known here yet: matched) */
}

/* Client thread, busy set: the published entry of peer that certainly
 * takes a message (pt, bits) if its MD accepts it -- the first in the
 * owner's publication order after `above` that is open (request buffers
 * of one match set are published in list order, each open once the one
 * before it is full: ptl.h section 5); NULL if none.  A re-armed buffer
 * (PTLX_MD_REARM) that is mapped here has its current order in its
 * reservation state, read after its word (so a full one is passed over,
 * and one emptied since comes with its new order), and is passed over
 * while the entry it now follows is not known here; e->cur is the order it
 * was chosen at.  Revoked entries found on the way are cleared. */
static ptl_pubent_t *pub_find_after(ptl_x_t *x, ptl_peer_t *peer, uint32_t target, ptl_pt_index_t pt,
                                    ptl_match_bits_t bits, uint64_t above) {
  int n = atomic_load_explicit(&peer->npub, memory_order_acquire), best = -1;
  uint64_t best_order = 0;
  for (int i = 0; i < n; i++) {
    ptl_pubent_t *e = &peer->pub[i];
    int st = atomic_load(&e->state);
    uint64_t order = e->order;
    if (st == PUB_REVOKED) ptl_pub_entry_clear(x, e);
    if ((st != PUB_VALID && st != PUB_PENDING) || e->pt != pt || ((e->bits ^ bits) & e->mask)) continue;
    int open = atomic_load_explicit(&e->open, memory_order_acquire), full;
    uint64_t after_id;
    if (PTL_UNLIKELY(e->options & PTLX_MD_REARM) && e->xev) {
      if (!pub_validate(x, target, e)) continue;
      if (e->lsh && e->xslot1) {
        if (!open && !(open = rearm_opens(x, peer, target, e))) continue;
        order = rearm_order(e, &full, &after_id);
        /* (re-armed behind an entry not known here: what comes first is unknown -- matched) */
        if (full || (after_id && !pub_knows(peer, after_id))) continue;
      }
    }
    if (!open || order <= above || (best >= 0 && best_order < order)) continue;
    best = i;
    best_order = order;
  }
  if (best < 0) return NULL;
  ptl_pubent_t *e = &peer->pub[best];
  if (!pub_validate(x, target, e)) return NULL;
  e->cur = best_order;
  peer->hot = best;
  return e;
}
#define pub_find(x, peer, target, pt, bits) pub_find_after(x, peer, target, pt, bits, 0)

static inline void sc_end(ptl_x_t *x) { atomic_store_explicit(&x->busy, 0, memory_order_release); }

/* Enter a shortcut operation: busy set and the entry of target for (pt,
 * bits) if it allows the operation and takes [roff, +len) (*mlen: what it
 * takes); else NULL, busy clear (*unmapped set if that entry is an event
 * entry this process cannot write).  (A peer with published entries is an
 * offload peer: only those publish.) */
static inline __attribute__((always_inline)) ptl_pubent_t *sc_begin(ptl_x_t *x, uint32_t target, ptl_pt_index_t pt,
                                                                    ptl_match_bits_t bits, unsigned opbit,
                                                                    ptl_size_t roff, ptl_size_t len, ptl_size_t *mlen,
                                                                    int *unmapped) {
  ptl_peer_t *peer = &x->peer[target];
  ptl_pubent_t *e;
  if (!atomic_load_explicit(&peer->npub, memory_order_relaxed)) return NULL;
  ptl_client_raise(x, &x->busy); /* (the revoking thread's membarrier() stands in for our fence) */
  if (PTL_UNLIKELY(atomic_load(&x->rescuing))) ptl_tx_wait_rescue(x); /* busy claims txw too (ptl_tx_enter) */
  e = &peer->pub[peer->hot]; /* the entry used last, most likely */
  if (PTL_UNLIKELY(atomic_load(&e->state) != PUB_VALID || e->pt != pt || ((e->bits ^ bits) & e->mask)))
    e = pub_find(x, peer, target, pt, bits);
  if (PTL_UNLIKELY(e && e->xev) && (!e->lbase || !(e->options & PTL_MD_MANAGE_REMOTE))) {
    if (e->lbase && opbit == PTL_MD_OP_PUT && (e->options & opbit)) { /* room is reserved by the Put */
      *mlen = len;
      return e;
    }
    *unmapped = !e->lbase; /* its events need the target: the matched path sends the data eagerly */
    e = NULL;
  }
  if (PTL_LIKELY(e && (e->options & opbit) && roff <= e->length)) {
    if (PTL_LIKELY(len <= e->length - roff)) {
      *mlen = len;
      return e;
    }
    if (e->options & PTL_MD_TRUNCATE) {
      *mlen = e->length - roff;
      return e;
    }
  }
  sc_end(x);
  return NULL;
}

/* The events of a shortcut operation, one by one (what finds no room is
 * counted as dropped). */
static __attribute__((noinline)) void sc_events_slow(ptl_ni_t *ni, ptl_mdo_t *md, ptl_event_kind_t start,
                                                     ptl_event_kind_t end, const ptl_evinfo_t *in,
                                                     const ptl_evinfo_t *ack) {
  ptl_evinfo_t i2 = *in;
  i2.link = ptl_md_event(ni, md, start, in, PTL_SIDE_APP);
  ptl_md_event(ni, md, end, &i2, PTL_SIDE_APP);
  if (ack) ptl_md_event(ni, md, PTL_EVENT_ACK, ack, PTL_SIDE_APP);
}

/* ... and the common case, straight into the own ring with one EQ lookup:
 * `start` (if enabled) and `end` from (from, pt, bits, len, mlen, off,
 * hdr, fail); with an ACK from target at roff.  Put: mlen == len for the
 * SEND events; Get: REPLY events with the received mlen.  Ring position
 * and sequence are kept in locals: the event stores could alias the EQ. */
static inline __attribute__((always_inline)) void
sc_events(ptl_ni_t *ni, ptl_mdo_t *md, ptl_event_kind_t start, ptl_event_kind_t end, ptl_process_id_t from,
          ptl_pt_index_t pt, ptl_match_bits_t bits, ptl_size_t len, ptl_size_t mlen, ptl_size_t off, ptl_hdr_data_t hdr,
          ptl_ni_fail_t fail, int ack, ptl_process_id_t target, ptl_size_t amlen, ptl_size_t roff) {
  unsigned m = md->ev_mask, s = ptl_ev_posts(m, start, fail), en = ptl_ev_posts(m, end, fail);
  ptl_eqo_t *eq;
  ack = ack && ptl_ev_posts(m, PTL_EVENT_ACK, PTL_NI_OK);
  if (!(s | en | ack)) return; /* none of these kinds is on */
  eq = ptl_md_eq(md);
  if (PTL_LIKELY(eq != NULL)) ptl_eq_catch_up(eq);
  if (PTL_UNLIKELY(!eq || eq->own_tail - eq->own_head + s + en + (ack != 0) > eq->mask + 1)) {
    ptl_evinfo_t in = {from, pt, bits, len, mlen, off, hdr, 0, fail};
    ptl_evinfo_t a = {target, pt, bits, len, amlen, roff, hdr, 0, PTL_NI_OK};
    sc_events_slow(ni, md, start, end, &in, ack ? &a : NULL);
    return;
  }
  ptl_event_t *ring = eq->own;
  uint64_t tail = eq->own_tail, mask = eq->mask;
  ptl_seq_t seq = eq->next_seq;
  ptl_handle_md_t mdh = md->self;
#ifdef PTL_EV_CHUNKS
  /* what the events share is loaded or built once (the event stores could
   * alias md, so nothing is read after them) */
  const char *d = (const char *)&md->d;
  ptl_v2_t m0, m1, m2, c1 = {(uint64_t)pt << 32, bits}, c7 = {md->d.eq_handle, hdr};
  _Static_assert(sizeof(ptl_process_id_t) == 8, "ptl_process_id_t");
  __builtin_memcpy(&m0, d, 16);
  __builtin_memcpy(&m1, d + 16, 16);
  __builtin_memcpy(&m2, d + 32, 16);
#define SC_EV(type, who, ml, of, lk, fl)                                                                               \
  do {                                                                                                                 \
    char *p_ = (char *)&ring[tail++ & mask];                                                                           \
    uint64_t lk_ = (lk);                                                                                               \
    uint64_t w_; /* (nid, pid) as one word: no narrow store to widen again */                                      \
    __builtin_memcpy(&w_, &(who), 8);                                                                                  \
    ptl_v2_put(p_, (uint32_t)(type) | w_ << 32, w_ >> 32);                                                             \
    __builtin_memcpy(p_ + 16, &c1, 16);                                                                                \
    ptl_v2_put(p_ + 32, len, ml);                                                                                      \
    ptl_v2_put(p_ + 48, of, mdh);                                                                                      \
    __builtin_memcpy(p_ + 64, &m0, 16);                                                                                \
    __builtin_memcpy(p_ + 80, &m1, 16);                                                                                \
    __builtin_memcpy(p_ + 96, &m2, 16);                                                                                \
    __builtin_memcpy(p_ + 112, &c7, 16);                                                                               \
    ptl_v2_put(p_ + 128, lk_ | (uint64_t)(fl) << 32, seq++);                                                           \
  } while (0)
#else
#define SC_EV(type, who, ml, of, lk, fl)                                                                               \
  do {                                                                                                                 \
    ptl_seq_t lk_ = (lk);                                                                                              \
    ptl_ev_put(&ring[tail++ & mask], type, who, pt, bits, len, ml, of, mdh, &md->d, hdr, lk_, fl, seq++);                  \
  } while (0)
#endif
  if (s) SC_EV(start, from, mlen, off, 0, fail);
  if (en) SC_EV(end, from, mlen, off, s ? seq - 1 : 0, fail);
  if (ack) SC_EV(PTL_EVENT_ACK, target, amlen, roff, 0, PTL_NI_OK);
#undef SC_EV
  eq->own_tail = tail;
  eq->next_seq = seq;
}

/* One RMA: 0 failed; 1 done, remotely complete; 2 (a Put only) locally
 * complete, its flush -- the remote completion -- still in flight, its
 * request in *flush (the caller makes it a late flush before busy
 * clears: a revocation waits for it).  A Get, and a Put whose flush ends
 * at once (shared memory), are remotely complete on return.
 * The flush is the worker's when none of this thread's sends or flushes
 * is in flight on it (then it covers exactly this Put, and it is UCX's
 * cheaper flush: the interfaces, not the endpoint's lanes); else the
 * endpoint's, so that a send to a peer that is not progressing never holds
 * up this Put. */
/* While a shortcut operation waits, the main worker is served too: over a
 * network without true RDMA (TCP), a peer's RMA to this process is an
 * active message that the main worker answers, and the peer may be waiting
 * on it just as this process waits on the peer -- with the progress
 * threads off the CPU, nobody would answer for a whole time slice.  And
 * the CPU is given up now and then: the peer (or this process's progress
 * thread) may need it to answer at all. */
static void sc_lend_hand(void *x) {
  static unsigned rounds;
  ptl_main_progress(x);
  if (++rounds % 64 == 0) sched_yield();
}

/* The completion of one UCX operation to a published entry (req, on ep):
 * waited for; then, for a Put-like one (flushed: a Put, a non-fetching
 * atomic), the flush that makes it remotely complete.  sc_rma's result. */
static inline __attribute__((always_inline)) int sc_complete(ptl_x_t *x, ucp_ep_h ep, ucs_status_ptr_t req,
                                                             int put, void **flush) {
  static const ucp_request_param_t no_param = {.op_attr_mask = 0};
  if (PTL_UNLIKELY(req != NULL) && stp_ucx_wait_also(x->txw, req, sc_lend_hand, x) != UCS_OK) return 0;
  if (put) {
    req = PTL_LIKELY(!x->tx_inflight) ? ucp_worker_flush_nbx(x->txw, &no_param) : ucp_ep_flush_nbx(ep, &no_param);
    if (PTL_UNLIKELY(req != NULL)) {
      if (UCS_PTR_IS_ERR(req)) return 0;
      *flush = req;
      return 2;
    }
  }
  return 1;
}

static inline __attribute__((always_inline)) int sc_rma_at(ptl_x_t *x, int put, uint32_t target, char *local,
                                                           void *memh, ptl_size_t mlen, const ptl_pubent_t *e,
                                                           ptl_size_t roff, void **flush) {
  ucp_request_param_t p;
  ucs_status_ptr_t req;
  ucp_ep_h ep = x->txep[target];
  if (put && e->lbase && stp_copy_word(e->lbase + roff, local, mlen))
    return 1; /* a word into shared memory: one store, complete (UCX's memcpy may store it twice: stp_copy.h) */
  p.op_attr_mask = memh ? UCP_OP_ATTR_FIELD_MEMH : 0;
  p.memh = memh;
  req = put ? ucp_put_nbx(ep, local, mlen, e->base + roff, e->rkey, &p)
            : ucp_get_nbx(ep, local, mlen, e->base + roff, e->rkey, &p);
  return sc_complete(x, ep, req, put, flush);
}

/* The client thread's copy of n bytes of an IOVEC MD for a shortcut (the
 * shortcut waits for its data to move, so one buffer, kept, serves all). */
static char *sc_tmp(ptl_x_t *x, size_t n) {
  if (n > x->sc_tmp_cap) {
    x->sc_tmp = ptl_alloc_or_die(x->sc_tmp, n, "bouncing %zu bytes of a scatter/gather MD", n);
    x->sc_tmp_cap = n;
  }
  return x->sc_tmp;
}

/* Pieces of at least this many bytes on average go to UCX one RMA each
 * (no copy: a NIC's gather); smaller ones through one copy. */
#define PTL_IOV_DIRECT_MIN 256

/* sc_rma of an IOVEC MD's [loff, +mlen) across npieces pieces, from p on:
 * one UCX RMA per piece, at most two in flight, and (a Put) one flush. */
static int sc_rma_pieces(ptl_x_t *x, int put, uint32_t target, const ptl_piece_t *p, ptl_size_t loff,
                         ptl_size_t mlen, const ptl_pubent_t *e, ptl_size_t roff, void **flush) {
  static const ucp_request_param_t no_param = {.op_attr_mask = 0};
  ucp_ep_h ep = x->txep[target];
  ucs_status_ptr_t last = NULL, req;
  for (ptl_size_t done = 0; done < mlen; p++) {
    ptl_size_t in = loff + done - p->off, n = p->len - in < mlen - done ? p->len - in : mlen - done;
    req = put ? ucp_put_nbx(ep, p->base + in, n, e->base + roff + done, e->rkey, &no_param)
              : ucp_get_nbx(ep, p->base + in, n, e->base + roff + done, e->rkey, &no_param);
    if (PTL_UNLIKELY(UCS_PTR_IS_ERR(req))) {
      if (last) (void)stp_ucx_wait_also(x->txw, last, sc_lend_hand, x);
      return 0;
    }
    if (req) {
      if (last && stp_ucx_wait_also(x->txw, last, sc_lend_hand, x) != UCS_OK) {
        (void)stp_ucx_wait_also(x->txw, req, sc_lend_hand, x);
        return 0;
      }
      last = req;
    }
    done += n;
  }
  return sc_complete(x, ep, last, put, flush);
}

/* sc_rma from an IOVEC MD: bytes within one piece as they are; across
 * pieces one RMA per piece where they are large, else through a copy
 * (gathered before a Put; scattered after a Get: sc_complete has waited
 * for the data). */
static __attribute__((noinline)) int sc_rma_iov(ptl_x_t *x, int put, uint32_t target, ptl_mdo_t *md, ptl_size_t loff,
                                                ptl_size_t mlen, const ptl_pubent_t *e, ptl_size_t roff,
                                                void **flush) {
  char *local = ptl_md_piece_at(md, loff, mlen), *tmp;
  const ptl_piece_t *first;
  int rc;
  if (local) return sc_rma_at(x, put, target, local, NULL, mlen, e, roff, flush);
  first = ptl_md_piece(md, loff);
  if (mlen / (size_t)(ptl_md_piece(md, loff + mlen - 1) - first + 1) >= PTL_IOV_DIRECT_MIN)
    return sc_rma_pieces(x, put, target, first, loff, mlen, e, roff, flush);
  tmp = sc_tmp(x, mlen);
  if (put) ptl_md_gather(md, loff, tmp, mlen);
  rc = sc_rma_at(x, put, target, tmp, NULL, mlen, e, roff, flush);
  if (!put && rc) ptl_md_scatter(md, loff, tmp, mlen);
  return rc;
}

static inline __attribute__((always_inline)) int sc_rma(ptl_x_t *x, int put, uint32_t target,
                                                        ptl_mdo_t *md, ptl_size_t loff, ptl_size_t mlen,
                                                        const ptl_pubent_t *e, ptl_size_t roff, void **flush) {
  if (PTL_UNLIKELY(md->iov != NULL)) return sc_rma_iov(x, put, target, md, loff, mlen, e, roff, flush);
  return sc_rma_at(x, put, target, (char *)md->d.start + loff, md->reg.memh, mlen, e, roff, flush);
}

/* One UCX atomic of `size` bytes (4 or 8) to a published entry (the NIC
 * path of ptl.h section 6): val is UCX's operand (the comparand for
 * CSWAP); reply NULL: not fetching, flushed like a Put (sc_rma's result);
 * else the old value lands there (for CSWAP it holds the new value first)
 * and the operation is remotely complete on return. */
static int sc_amo(ptl_x_t *x, uint32_t target, ucp_atomic_op_t uop, const void *val, void *reply, size_t size,
                  const ptl_pubent_t *e, ptl_size_t roff, void **flush) {
  ucp_request_param_t p;
  ucp_ep_h ep = x->txep[target];
  p.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE | (reply ? UCP_OP_ATTR_FIELD_REPLY_BUFFER : 0);
  p.datatype = ucp_dt_make_contig(size);
  p.reply_buffer = reply;
  return sc_complete(x, ep, ucp_atomic_op_nbx(ep, uop, val, 1, e->base + roff, e->rkey, &p), !reply, flush);
}

/* An event entry (ptl.h section 5): the data and the target's END event
 * written by this thread through the peer's memory mapped here -- for a
 * locally managed MD after reserving room in it -- so no target CPU takes
 * part (the NIC of seed 000 appending into a request buffer and writing
 * the event).  In three steps, so that PtlXPutReserve/Commit can put the
 * caller's writing between them: room (sc_xroom), data, event (sc_xpost). */
typedef struct sc_room {
  ptl_xmd_t *xm; /* a locally managed MD's running offset (NULL: remotely managed) */
  uint64_t ops;  /* this operation's number on it */
  int crossed;   /* it made the MD inactive */
} sc_room_t;

/* Room for len bytes in e: a locally managed MD reserves it (*off: where),
 * a remotely managed one takes *off as given (sc_begin checked the
 * length).  0: a locally managed MD without room (inactive, or the message
 * does not fit): nothing was done. */
static inline __attribute__((always_inline)) int sc_xroom(ptl_pubent_t *e, ptl_size_t len, ptl_size_t *off,
                                                          ptl_size_t *mlen, sc_room_t *r) {
  r->xm = NULL;
  r->ops = 0;
  r->crossed = 0;
  if (e->options & PTL_MD_MANAGE_REMOTE) return 1;
  r->xm = &e->lsh->xmd[e->xslot1 - 1];
  return ptl_xmd_reserve(r->xm, e->length, e->max_size, e->options, len, off, mlen, &r->crossed, &r->ops,
                         (e->options & PTLX_MD_REARM) ? e->cur : 0);
}

/* A re-armed buffer's DRAINED, posted by the operation that drained it
 * (after its own event): 1 if the owner may be asleep. */
static __attribute__((noinline)) int sc_xdrained(ptl_ni_t *ni, ptl_pubent_t *e) {
  uint64_t pos;
  if (e->ev_mask & (1u << PTLX_EVENT_DRAINED)) {
    ptl_eq_slot_t *s = ptl_eq_reserve(e->lsh, e->ring_mask, &pos, &e->lhead);
    if (PTL_LIKELY(s != NULL)) {
      ptl_rec_put(s, PTLX_EVENT_DRAINED, ni->id.nid, (ptl_pt_index_t)e->pt, 0, 0, 0, 0, e->md_handle, 0);
      atomic_store_explicit(&s->seq, pos + 1, memory_order_seq_cst); /* (as sc_xpost) */
    } else {
      atomic_fetch_add_explicit(&e->lsh->xdropped, 1, memory_order_seq_cst);
    }
  }
  return atomic_load_explicit(&e->lsh->sleeping, memory_order_seq_cst) != 0;
}

/* The end of room r in e (its message's event posted, or none to post): 1
 * if the target must be told -- it left a full MD whose every operation
 * has ended, which its owner deactivates and unlinks (a re-armed buffer's
 * DRAINED is posted here instead: told only if it may be asleep). */
static inline __attribute__((always_inline)) int sc_xend(ptl_ni_t *ni, ptl_pubent_t *e, const sc_room_t *r) {
  int last;
  if (!r->xm) return 0;
  last = ptl_xmd_end(r->xm, r->crossed, r->ops);
  if (PTL_UNLIKELY(e->options & PTLX_MD_REARM)) return last && sc_xdrained(ni, e);
  return PTL_UNLIKELY(r->crossed || last);
}

/* The END event of what went into room r (offset off, mlen of rlen
 * bytes), and the room's end.  1, or 2: the target's progress thread or
 * client must look (an MD to unlink, or a client that may be asleep). */
static inline __attribute__((always_inline)) int sc_xpost(ptl_ni_t *ni, ptl_pubent_t *e, ptl_event_kind_t type,
                                                          const sc_room_t *r, ptl_pt_index_t pt, ptl_match_bits_t bits,
                                                          ptl_size_t rlen, ptl_size_t mlen, ptl_size_t off,
                                                          ptl_hdr_data_t hdr) {
  uint64_t pos;
  if (e->ev_mask & (1u << type)) {
    ptl_eq_slot_t *s = ptl_eq_reserve(e->lsh, e->ring_mask, &pos, &e->lhead);
    if (PTL_LIKELY(s != NULL)) {
      ptl_rec_put(s, type, ni->id.nid, pt, bits, rlen, mlen, off, e->md_handle, hdr);
      /* after the data and the event; seq_cst: before the look at `sleeping` below (the owner sets it, then
       * looks at the ring, both seq_cst -- a Dekker pair) */
      atomic_store_explicit(&s->seq, pos + 1, memory_order_seq_cst);
    } else {
      atomic_fetch_add_explicit(&e->lsh->xdropped, 1, memory_order_seq_cst); /* reported by the owner's next take */
    }
  }
  if (sc_xend(ni, e, r)) return 2;
  return atomic_load_explicit(&e->lsh->sleeping, memory_order_seq_cst) ? 2 : 1;
}

/* All three: *off the remote offset in, where the data went out.  0 (no
 * room) or sc_xpost's answer. */
static inline __attribute__((always_inline)) int sc_xwrite(ptl_ni_t *ni, ptl_pubent_t *e, int put, char *local,
                                                           ptl_size_t len, ptl_size_t *off, ptl_size_t *mlen,
                                                           ptl_pt_index_t pt, ptl_match_bits_t bits,
                                                           ptl_hdr_data_t hdr) {
  sc_room_t r;
  if (!sc_xroom(e, len, off, mlen, &r)) return 0;
  if (!*mlen) { /* (a header alone: no call to make) */
  } else if (put) {
    memcpy(e->lbase + *off, local, *mlen);
  } else {
    memcpy(local, e->lbase + *off, *mlen);
  }
  return sc_xpost(ni, e, put ? PTL_EVENT_PUT_END : PTL_EVENT_GET_END, &r, pt, bits, len, *mlen, *off, put ? hdr : 0);
}

/* A locally managed event entry of target that takes a Put of len, from e
 * on, with the room reserved (*r, *off, *mlen); NULL if none does.  A full
 * one opens the request buffer that follows it in the owner's list (it may
 * have been published long before, or the full one's lazy revocation may
 * not have arrived yet) -- the next open entry that matches is the one a
 * full walk would pick (an inactive MD shadows nothing). */
static inline __attribute__((always_inline)) ptl_pubent_t *sc_xfind(ptl_x_t *x, ptl_pubent_t *e, uint32_t target,
                                                                    ptl_size_t len, ptl_size_t *off, ptl_size_t *mlen,
                                                                    ptl_pt_index_t pt, ptl_match_bits_t bits,
                                                                    sc_room_t *r) {
  ptl_peer_t *peer = &x->peer[target];
  while (!sc_xroom(e, len, off, mlen, r)) {
    if (sc_xfull(e)) ptl_pub_open_after(peer, e->order);
    if (!(e = pub_find_after(x, peer, target, pt, bits, e->cur)) || !e->xev || !e->lbase ||
        (e->options & PTL_MD_MANAGE_REMOTE) || !(e->options & PTL_MD_OP_PUT))
      return NULL;
  }
  return e;
}

/* A Put to an event entry (sc_xfind, then the data and the event).  0:
 * none took it (the matched path decides). */
static inline __attribute__((always_inline)) int sc_xput(ptl_x_t *x, ptl_ni_t *ni, ptl_pubent_t *e, uint32_t target,
                                                         char *local, ptl_size_t len, ptl_size_t *roff,
                                                         ptl_size_t *mlen, ptl_pt_index_t pt, ptl_match_bits_t bits,
                                                         ptl_hdr_data_t hdr) {
  sc_room_t r;
  if (!(e = sc_xfind(x, e, target, len, roff, mlen, pt, bits, &r))) return 0;
  if (*mlen) memcpy(e->lbase + *roff, local, *mlen);
  return sc_xpost(ni, e, PTL_EVENT_PUT_END, &r, pt, bits, len, *mlen, *roff, hdr);
}

static __attribute__((noinline)) void sc_wake(ptl_ni_t *ni, uint32_t target) {
  ptl_tx_enter(ptl_x(ni));
  ptl_am_send(ni, PTL_SIDE_APP, (int)target, PTL_AM_WAKE, NULL, 0, NULL, 0, NULL, NULL, NULL);
  ptl_tx_leave(ptl_x(ni));
}

/* ------------------------------------------- writing a Put in place (ptl.h) */
typedef struct inplace {
  ptl_pubent_t *e;
  sc_room_t room;
  ptl_size_t off, len; /* the room: remote offset, length */
  uint32_t target;
  ptl_pt_index_t pt;
} inplace_t;
_Static_assert(sizeof(inplace_t) <= sizeof(ptlx_inplace_t), "ptlx_inplace_t holds a reservation");

int PtlXPutReserve(ptl_process_id_t target, ptl_pt_index_t pt, ptl_match_bits_t bits, ptl_size_t roff, ptl_size_t len,
                   void **addr, ptlx_inplace_t *res) {
  ptl_ni_t *ni = ptl_the_ni;
  inplace_t *r = (inplace_t *)(void *)res;
  ptl_x_t *x;
  ptl_pubent_t *e;
  ptl_size_t mlen;
  int unmapped = 0;
  if (PTL_UNLIKELY(!ni)) return PTL_NO_INIT;
  x = ptl_x(ni);
  if (!x->publish || target.nid >= (ptl_nid_t)ni->size || target.pid || pt > PTLX_PT_INDEX_MAX ||
      !(e = sc_begin(x, target.nid, pt, bits, PTL_MD_OP_PUT, roff, len, &mlen, &unmapped)))
    return PTL_FAIL;
  if (!e->xev || !e->lbase || !(e = sc_xfind(x, e, target.nid, len, &roff, &mlen, pt, bits, &r->room))) {
    sc_end(x);
    return PTL_FAIL;
  }
  r->e = e;
  r->off = roff;
  r->len = mlen;
  r->target = target.nid;
  r->pt = pt;
  if (PTL_UNLIKELY(mlen != len)) { /* (a truncating MD: not what was asked for) */
    PtlXPutCancel(res);
    return PTL_FAIL;
  }
  *addr = e->lbase + roff;
  return PTL_OK; /* busy stays set: the entry cannot be revoked under the caller's writing */
}

int PtlXPutCommit(ptlx_inplace_t *res, ptl_size_t at, ptl_size_t len, ptl_match_bits_t bits, ptl_hdr_data_t hdr) {
  ptl_ni_t *ni = ptl_the_ni;
  inplace_t *r = (inplace_t *)(void *)res;
  int w;
  if (PTL_UNLIKELY(at > r->len || len > r->len - at || ((r->e->bits ^ bits) & r->e->mask))) {
    PtlXPutCancel(res);
    return PTLX_ARG_INVALID;
  }
  w = sc_xpost(ni, r->e, PTL_EVENT_PUT_END, &r->room, r->pt, bits, len, len, r->off + at, hdr);
  sc_end(ptl_x(ni));
  if (w == 2) sc_wake(ni, r->target);
  ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_SHORTCUT_PUT, 1);
  ptl_stat(ni, PTL_SIDE_APP, PTL_SR_SEND_LENGTH, len);
  return PTL_OK;
}

void PtlXPutCancel(ptlx_inplace_t *res) {
  ptl_ni_t *ni = ptl_the_ni;
  inplace_t *r = (inplace_t *)(void *)res;
  int wake = sc_xend(ni, r->e, &r->room); /* (the room stays unused) */
  sc_end(ptl_x(ni));
  if (wake) sc_wake(ni, r->target);
}

/* ---------------------------------------------------------------- the calls */
static int check_target(ptl_ni_t *ni, ptl_process_id_t t, ptl_pt_index_t pt, ptl_ac_index_t ac) {
  if (t.nid >= (ptl_nid_t)ni->size || t.pid != 0) return PTL_PROCESS_INVALID;
  if (pt > PTLX_PT_INDEX_MAX) return PTL_PT_INDEX_INVALID;
  if (ac != 0) return PTL_AC_INDEX_INVALID;
  return PTL_OK;
}

/* The MD of a Put/Get (matched path, lock held), validated. */
static int check_md(ptl_ni_t *ni, ptl_handle_md_t mdh, ptl_size_t loff, ptl_size_t len, ptl_mdo_t **out) {
  ptl_mdo_t *md = ptl_pool_get(&ni->mds, mdh);
  if (!md || PTL_RD(md->inactive)) return PTL_MD_INVALID;
  if (loff > md->len || len > md->len - loff) return PTL_MD_ILLEGAL;
  *out = md;
  return PTL_OK;
}

/* Lock held.  An ACK for md: event, threshold, maybe unlink. */
static void ack_deliver(ptl_ni_t *ni, ptl_handle_md_t mdh, const ptl_evinfo_t *in, int side) {
  ptl_mdo_t *md = ptl_pool_get(&ni->mds, mdh);
  if (!md || md->inactive) {
    ptl_stat(ni, side, PTLX_SR_STALE, 1);
    return;
  }
  ptl_stat(ni, side, PTL_SR_RECV_COUNT, 1);
  ptl_md_consume(md);
  md->pending++;
  ptl_md_event(ni, md, PTL_EVENT_ACK, in, side);
  ptl_md_release(ni, md, in, side);
}

static void amo_lost(ptl_ni_t *ni, ptl_xop_t *op);

/* An initiator-side send ended: SEND_END (Puts), release the MD, and the
 * ACK if it overtook the send. */
static void send_finish(ptl_xop_t *op, ucs_status_t st) {
  ptl_ni_t *ni = op->ni;
  ptl_mdo_t *md;
  ptl_lock(ni);
  if (op->kind == OPK_PUT && (md = ptl_pool_get(&ni->mds, op->mdh))) {
    op->info.fail = st == UCS_OK ? PTL_NI_OK : PTL_NI_FAIL;
    ptl_md_event(ni, md, PTL_EVENT_SEND_END, &op->info, PTL_SIDE_APP);
    ptl_md_release(ni, md, &op->info, PTL_SIDE_APP);
    if (op->ack_early) ack_deliver(ni, op->mdh, &op->ack, PTL_SIDE_APP);
  } else if (op->kind == OPK_ATOMIC && st != UCS_OK) {
    amo_lost(ni, op);
  }
  ptl_op_put(op);
  ptl_unlock(ni);
}

void ptl_send_cb(void *req, ucs_status_t st, void *user_data) {
  ptl_xop_t *op = user_data;
  ptl_x_t *x = ptl_x(op->ni);
  if (PTL_UNLIKELY(atomic_load_explicit(&x->rescuing, memory_order_relaxed) == 2)) {
    /* run by the rescuer: events are the client thread's to post */
    ucp_request_free(req);
    op->st = st;
    ptl_lock(op->ni);
    op->deferred = x->deferred;
    x->deferred = op;
    ptl_unlock(op->ni);
    return;
  }
  x->tx_inflight--;
  send_finish(op, st);
  ucp_request_free(req);
}

/* ---------------------------------------------------------------- late flushes
 * Over a network, a shortcut Put's flush is a round trip: the Put returns
 * once UCX has the data (local completion: SEND_END), and its ACK follows
 * when the flush ends, found by the client thread's next progress
 * (ptl_tx_progress).  Until then this process acknowledges no revocation
 * (x->unflushed, read by ptl_pub_acks): its write may still land.  A
 * client that stays away from ptl would hold up every owner that revokes,
 * so after PTL_RESCUE_NS the progress thread takes the client's worker
 * while the client is out of ptl (the rescuer) and finishes those flushes
 * itself; what ends then is posted by the client when it comes back. */
#define PTL_RESCUE_NS 100000

/* The ACK of a late flush that ended with st: like one that arrives (an MD
 * gone meanwhile makes it stale). */
static void late_ack(ptl_ni_t *ni, const ptl_late_t *l, ucs_status_t st) {
  ptl_evinfo_t a = l->ack;
  ptl_mdo_t *md;
  a.fail = st == UCS_OK ? PTL_NI_OK : PTL_NI_FAIL;
  ptl_lock(ni);
  if ((md = ptl_pool_get(&ni->mds, l->mdh)) && !md->inactive)
    ptl_md_event(ni, md, PTL_EVENT_ACK, &a, PTL_SIDE_APP);
  else
    ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_STALE, 1);
  ptl_unlock(ni);
}

/* Client thread: late flushes that ended, and sends the rescuer saw end. */
static __attribute__((noinline)) void tx_finish(ptl_ni_t *ni) {
  ptl_x_t *x = ptl_x(ni);
  ptl_xop_t *op;
  int kept = 0;
  for (int i = 0; i < x->nlate; i++) { /* (in order: ACKs keep the order of their Puts where they can) */
    ptl_late_t *l = &x->late[i];
    ucs_status_t st = l->done ? l->st : ucp_request_check_status(l->req);
    if (st == UCS_INPROGRESS) {
      x->late[kept++] = *l;
      continue;
    }
    ucp_request_free(l->req);
    x->tx_inflight--;
    if (!l->done) atomic_fetch_sub_explicit(&x->unflushed, 1, memory_order_release);
    if (l->mdh != PTL_HANDLE_NONE) late_ack(ni, l, st);
  }
  x->nlate = kept;
  if (!x->deferred) return;
  ptl_lock(ni);
  op = x->deferred;
  x->deferred = NULL;
  ptl_unlock(ni);
  while (op) {
    ptl_xop_t *next = op->deferred;
    x->tx_inflight--;
    send_finish(op, op->st);
    op = next;
  }
}

unsigned ptl_tx_progress(ptl_ni_t *ni) {
  ptl_x_t *x = ptl_x(ni);
  unsigned n = ucp_worker_progress(x->txw);
  if (PTL_UNLIKELY(x->nlate || x->deferred)) tx_finish(ni);
  return n;
}

/* A shortcut Put whose flush (req) is in flight: kept until it ends, with
 * its ACK if one is wanted (want_ack: to MD mdh, fields a).  Busy is still
 * set: a revocation the progress thread looks at from now on waits. */
static __attribute__((noinline)) void sc_late(ptl_ni_t *ni, ptl_x_t *x, void *req, ptl_handle_md_t mdh,
                                              int want_ack, const ptl_evinfo_t *a) {
  ptl_late_t *l;
  while (x->nlate == PTL_LATE_MAX) { /* bounded: the oldest must end first */
    ptl_tx_progress(ni);
    if (x->nlate == PTL_LATE_MAX) sc_lend_hand(x);
  }
  l = &x->late[x->nlate++];
  l->req = req;
  l->mdh = want_ack ? mdh : PTL_HANDLE_NONE;
  l->ack = *a;
  l->done = 0;
  atomic_fetch_add(&x->unflushed, 1);
  x->tx_inflight++;  /* (a send of this thread's in flight: later flushes are the endpoint's) */
  ni->idle_skip = 0; /* its end needs the client's progress */
  ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_LATE_ACK, 1);
}

/* A Put-like shortcut operation (a Put, a non-fetching atomic) was issued
 * (ok, flush: sc_rma's result): one whose flush is in flight is kept
 * until it ends, with its ACK (*ack then 0: it is not posted now); busy
 * clears. */
static inline __attribute__((always_inline)) void sc_put_issued(ptl_ni_t *ni, ptl_x_t *x, int ok, void *flush,
                                                                ptl_handle_md_t mdh, ptl_mdo_t *md, int *ack,
                                                                ptl_process_id_t target, ptl_pt_index_t pt,
                                                                ptl_match_bits_t bits, ptl_size_t len,
                                                                ptl_size_t mlen, ptl_size_t roff, ptl_hdr_data_t hdr) {
  if (PTL_UNLIKELY(ok == 2)) { /* its ACK comes when the flush ends */
    ptl_evinfo_t a = {target, pt, bits, len, mlen, roff, hdr, 0, PTL_NI_OK};
    sc_late(ni, x, flush, mdh, *ack && ptl_ev_posts(md->ev_mask, PTL_EVENT_ACK, PTL_NI_OK), &a);
    *ack = 0;
  }
  sc_end(x);
}

void ptl_tx_wait_rescue(ptl_x_t *x) {
  for (unsigned spin = 0; atomic_load(&x->rescuing); spin++)
    if (spin % 64 == 63) sched_yield();
}

/* The rescuer (progress thread, ptl_pub_acks): if the client thread is out
 * of ptl, progress its worker and mark the late flushes that ended.  1 if
 * none is in flight any more.  Tried every PTL_RESCUE_NS at most (each try
 * costs a barrier on every thread). */
int ptl_tx_rescue(ptl_ni_t *ni) {
  ptl_x_t *x = ptl_x(ni);
  uint64_t t;
  if (!atomic_load(&x->unflushed)) {
    x->owed_since = 0;
    return 1;
  }
  t = ptl_now_ns();
  if (!x->owed_since) x->owed_since = t;
  if (t - x->owed_since < PTL_RESCUE_NS) return 0;
  x->owed_since = t;
  atomic_store(&x->rescuing, 1);
  ptl_fence_client(x);
  if (atomic_load(&x->in_tx) || atomic_load(&x->busy)) { /* in ptl: it progresses its worker itself */
    atomic_store_explicit(&x->rescuing, 0, memory_order_release);
    return 0;
  }
  atomic_store_explicit(&x->rescuing, 2, memory_order_relaxed);
  for (int k = 0; k < 16; k++) ucp_worker_progress(x->txw);
  for (int i = 0; i < x->nlate; i++) {
    ptl_late_t *l = &x->late[i];
    if (l->done || (l->st = ucp_request_check_status(l->req)) == UCS_INPROGRESS) continue;
    l->done = 1;
    atomic_fetch_sub_explicit(&x->unflushed, 1, memory_order_release);
  }
  ptl_stat(ni, PTL_SIDE_RX, PTLX_SR_TX_RESCUE, 1);
  atomic_store_explicit(&x->rescuing, 0, memory_order_release);
  return !atomic_load(&x->unflushed);
}

/* Everything but the shortcut: checks, then a message to be matched (eager:
 * to an event entry published but not mapped here, PTL_AM_EAGER).  (Out
 * of line: the shortcut's caller stays small.) */
static __attribute__((noinline)) int put_matched(ptl_handle_md_t mdh, ptl_size_t loff, ptl_size_t len,
                                                 ptl_ack_req_t ack_req, ptl_process_id_t target, ptl_pt_index_t pt,
                                                 ptl_ac_index_t ac, ptl_match_bits_t bits, ptl_size_t roff,
                                                 ptl_hdr_data_t hdr, int eager) {
  ptl_ni_t *ni = ptl_ni_of(mdh);
  ptl_x_t *x;
  ptl_mdo_t *md;
  ptl_xop_t *op;
  int rc;
  if (PTL_UNLIKELY(!ni)) return PTL_NO_INIT;
  x = ptl_x(ni);
  if (PTL_UNLIKELY((rc = check_target(ni, target, pt, ac)) != PTL_OK)) return rc;
  if (PTL_UNLIKELY(ack_req != PTL_ACK_REQ && ack_req != PTL_NO_ACK_REQ)) return PTL_FAIL;
  ptl_lock(ni);
  if ((rc = check_md(ni, mdh, loff, len, &md)) != PTL_OK || !(op = ptl_op_get(ni, PTL_SIDE_APP))) {
    ptl_unlock(ni);
    return rc != PTL_OK ? rc : PTL_NO_SPACE;
  }
  void *memh;
  char *src = ptl_md_send_src(md, loff, len, &op->bounce, &memh);
  ptl_md_consume(md);
  md->pending++;
  op->kind = OPK_PUT;
  op->mdh = mdh;
  op->ack_early = 0;
  op->info = (ptl_evinfo_t){ni->id, pt, bits, len, len, loff, hdr, 0, PTL_NI_OK};
  op->info.link = ptl_md_event(ni, md, PTL_EVENT_SEND_START, &op->info, PTL_SIDE_APP);
  op->w.put = (ptl_wput_t){
      bits, roff,      hdr, ack_req == PTL_ACK_REQ ? mdh : PTL_HANDLE_NONE, ptl_obj_handle(&x->ops[PTL_SIDE_APP], op),
      pt,   ni->id.nid};
  eager = eager && len <= PTL_EAGER_EV_MAX;
  ptl_stat(ni, PTL_SIDE_APP, PTL_SR_SEND_COUNT, 1);
  ptl_stat(ni, PTL_SIDE_APP, PTL_SR_SEND_LENGTH, len);
  ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_EAGER_PUT, (ptl_sr_value_t)eager);
  ptl_unlock(ni);
  ptl_tx_enter(x);
  rc = ptl_am_send(ni, PTL_SIDE_APP, (int)target.nid, PTL_AM_PUT | (eager ? PTL_AM_EAGER : 0u), &op->w.put,
                   sizeof(op->w.put), src, len, memh, op, ptl_send_cb);
  ptl_tx_leave(x);
  if (rc != SEND_LATER) send_finish(op, rc == SEND_DONE ? UCS_OK : UCS_ERR_IO_ERROR);
  return rc == SEND_FAIL ? PTL_FAIL : PTL_OK;
}

/* The MD of a shortcut: infinite threshold (then nothing but this thread
 * changes it, so no lock), active, holding [loff, +len); or NULL. */
static inline ptl_mdo_t *sc_md(ptl_ni_t *ni, ptl_handle_md_t mdh, ptl_size_t loff, ptl_size_t len) {
  ptl_mdo_t *md = ptl_pool_get(&ni->mds, mdh);
  if (md && PTL_RD(md->d.threshold) == PTL_MD_THRESH_INF && !PTL_RD(md->inactive) && loff <= md->len &&
      len <= md->len - loff)
    return md;
  return NULL;
}

/* Every condition of the shortcut at once: 1 with *x, *md, *e, *mlen set
 * and busy set; 0 for the long way (errors included). */
static inline __attribute__((always_inline)) int sc_enter(ptl_ni_t *ni, ptl_handle_md_t mdh, ptl_size_t loff,
                                                          ptl_size_t len, ptl_process_id_t target, ptl_pt_index_t pt,
                                                          ptl_ac_index_t ac, ptl_match_bits_t bits, ptl_size_t roff,
                                                          unsigned opbit, ptl_x_t **x, ptl_mdo_t **md, ptl_pubent_t **e,
                                                          ptl_size_t *mlen, int *unmapped) {
  return PTL_LIKELY(ni && (*x = ptl_x(ni))->publish) && target.nid < (ptl_nid_t)ni->size && !target.pid &&
         pt <= PTLX_PT_INDEX_MAX && !ac && (*md = sc_md(ni, mdh, loff, len)) &&
         (*e = sc_begin(*x, target.nid, pt, bits, opbit, roff, len, mlen, unmapped));
}

int PtlPutRegion(ptl_handle_md_t mdh, ptl_size_t loff, ptl_size_t len, ptl_ack_req_t ack_req, ptl_process_id_t target,
                 ptl_pt_index_t pt, ptl_ac_index_t ac, ptl_match_bits_t bits, ptl_size_t roff, ptl_hdr_data_t hdr) {
  ptl_ni_t *ni = ptl_the_ni;
  ptl_x_t *x;
  ptl_mdo_t *md;
  ptl_pubent_t *e;
  ptl_size_t mlen;
  int unmapped = 0;
  if (PTL_LIKELY((unsigned)ack_req <= (unsigned)PTL_NO_ACK_REQ) &&
      sc_enter(ni, mdh, loff, len, target, pt, ac, bits, roff, PTL_MD_OP_PUT, &x, &md, &e, &mlen, &unmapped)) {
    int ok, ack = ack_req == PTL_ACK_REQ && !(e->options & PTL_MD_ACK_DISABLE);
    if (PTL_UNLIKELY(e->xev)) {
      char *src = ptl_md_at(md, loff, len);
      if (PTL_UNLIKELY(md->iov != NULL) && !src) /* across pieces: gathered */
        ptl_md_gather(md, loff, src = sc_tmp(x, len), len);
      int w = sc_xput(x, ni, e, target.nid, src, len, &roff, &mlen, pt, bits, hdr);
      sc_end(x);
      if (!w) return put_matched(mdh, loff, len, ack_req, target, pt, ac, bits, roff, hdr, 0);
      if (w == 2) sc_wake(ni, target.nid);
      ok = 1;
    } else {
      void *flush = NULL;
      ok = sc_rma(x, 1, target.nid, md, loff, mlen, e, roff, &flush);
      sc_put_issued(ni, x, ok, flush, mdh, md, &ack, target, pt, bits, len, mlen, roff, hdr);
    }
    if (md->ev_mask)
      sc_events(ni, md, PTL_EVENT_SEND_START, PTL_EVENT_SEND_END, ni->id, pt, bits, len, len, loff, hdr,
                ok ? PTL_NI_OK : PTL_NI_FAIL, ack && ok, target, mlen, roff);
    ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_SHORTCUT_PUT, 1); /* also a SEND_COUNT (PtlNIStatus) */
    ptl_stat(ni, PTL_SIDE_APP, PTL_SR_SEND_LENGTH, len);
    return PTL_OK;
  }
  return put_matched(mdh, loff, len, ack_req, target, pt, ac, bits, roff, hdr, unmapped);
}


int PtlPut(ptl_handle_md_t mdh, ptl_ack_req_t ack_req, ptl_process_id_t target, ptl_pt_index_t pt, ptl_ac_index_t ac,
           ptl_match_bits_t bits, ptl_size_t roff, ptl_hdr_data_t hdr) {
  ptl_ni_t *ni = ptl_ni_of(mdh);
  ptl_mdo_t *md;
  if (!ni) return PTL_NO_INIT;
  if (!(md = ptl_pool_get(&ni->mds, mdh))) return PTL_MD_INVALID;
  return PtlPutRegion(mdh, 0, md->len, ack_req, target, pt, ac, bits, roff, hdr);
}

static __attribute__((noinline)) int get_matched(ptl_handle_md_t mdh, ptl_size_t loff, ptl_size_t len,
                                                 ptl_process_id_t target, ptl_pt_index_t pt, ptl_ac_index_t ac,
                                                 ptl_match_bits_t bits, ptl_size_t roff) {
  ptl_ni_t *ni = ptl_ni_of(mdh);
  ptl_mdo_t *md;
  ptl_xop_t *op;
  int rc;
  if (PTL_UNLIKELY(!ni)) return PTL_NO_INIT;
  if (PTL_UNLIKELY((rc = check_target(ni, target, pt, ac)) != PTL_OK)) return rc;
  ptl_lock(ni);
  if ((rc = check_md(ni, mdh, loff, len, &md)) != PTL_OK || !(op = ptl_op_get(ni, PTL_SIDE_APP))) {
    ptl_unlock(ni);
    return rc != PTL_OK ? rc : PTL_NO_SPACE;
  }
  op->kind = OPK_GET; /* the request itself makes no event (Portals 3.3) */
  op->w.get = (ptl_wget_t){bits, roff, len, mdh, loff, pt, ni->id.nid};
  ptl_stat(ni, PTL_SIDE_APP, PTL_SR_SEND_COUNT, 1);
  ptl_unlock(ni);
  ptl_tx_enter(ptl_x(ni));
  rc = ptl_am_send(ni, PTL_SIDE_APP, (int)target.nid, PTL_AM_GET, &op->w.get, sizeof(op->w.get), NULL, 0, NULL, op,
                   ptl_send_cb);
  ptl_tx_leave(ptl_x(ni));
  if (rc != SEND_LATER) send_finish(op, UCS_OK);
  return rc == SEND_FAIL ? PTL_FAIL : PTL_OK;
}

int PtlGetRegion(ptl_handle_md_t mdh, ptl_size_t loff, ptl_size_t len, ptl_process_id_t target, ptl_pt_index_t pt,
                 ptl_ac_index_t ac, ptl_match_bits_t bits, ptl_size_t roff) {
  ptl_ni_t *ni = ptl_the_ni;
  ptl_x_t *x;
  ptl_mdo_t *md;
  ptl_pubent_t *e;
  ptl_size_t mlen;
  int unmapped = 0;
  if (sc_enter(ni, mdh, loff, len, target, pt, ac, bits, roff, PTL_MD_OP_GET, &x, &md, &e, &mlen, &unmapped)) {
    int ok = 1;
    if (PTL_UNLIKELY(e->xev)) { /* (remotely managed: sc_begin checked the length) */
      char *tmp = NULL, *dst = ptl_md_at(md, loff, len);
      if (PTL_UNLIKELY(md->iov != NULL) && !dst) /* across pieces: scattered once read */
        dst = tmp = sc_tmp(x, len);
      int w = sc_xwrite(ni, e, 0, dst, len, &roff, &mlen, pt, bits, 0);
      sc_end(x);
      if (tmp) ptl_md_scatter(md, loff, tmp, mlen);
      if (w == 2) sc_wake(ni, target.nid);
    } else {
      ok = sc_rma(x, 0, target.nid, md, loff, mlen, e, roff, NULL);
      sc_end(x);
    }
    if (md->ev_mask)
      sc_events(ni, md, PTL_EVENT_REPLY_START, PTL_EVENT_REPLY_END, target, pt, bits, len, mlen, loff, 0,
                ok ? PTL_NI_OK : PTL_NI_FAIL, 0, target, 0, 0);
    ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_SHORTCUT_GET, 1); /* also a SEND_COUNT and a RECV_COUNT */
    ptl_stat(ni, PTL_SIDE_APP, PTL_SR_RECV_LENGTH, mlen);
    return PTL_OK;
  }
  return get_matched(mdh, loff, len, target, pt, ac, bits, roff);
}


int PtlGet(ptl_handle_md_t mdh, ptl_process_id_t target, ptl_pt_index_t pt, ptl_ac_index_t ac, ptl_match_bits_t bits,
           ptl_size_t roff) {
  ptl_ni_t *ni = ptl_ni_of(mdh);
  ptl_mdo_t *md;
  if (!ni) return PTL_NO_INIT;
  if (!(md = ptl_pool_get(&ni->mds, mdh))) return PTL_MD_INVALID;
  return PtlGetRegion(mdh, 0, md->len, target, pt, ac, bits, roff);
}

void ptl_ack_arrived(ptl_ni_t *ni, const ptl_wack_t *w) {
  ptl_evinfo_t in = {{w->src, 0}, w->pt, w->bits, w->rlength, w->mlength, w->offset, w->hdr, 0, w->fail};
  ptl_xop_t *op;
  ptl_lock(ni);
  op = ptl_pool_get(&ptl_x(ni)->ops[PTL_SIDE_APP], w->op);
  if (op && op->kind == OPK_PUT && op->mdh == w->md) { /* its SEND_END is not out yet */
    op->ack_early = 1;
    op->ack = in;
  } else {
    ack_deliver(ni, w->md, &in, PTL_SIDE_RX);
  }
  ptl_unlock(ni);
}

/* ---------------------------------------------------------------- atomics (ptl.h section 6) */
/* Lock held.  A matched atomic's send failed after its SEND_END (its data
 * had been copied): the answer it expects, an ACK or the REPLY events,
 * says so -- an initiator never waits for ever. */
static void amo_lost(ptl_ni_t *ni, ptl_xop_t *op) {
  ptl_evinfo_t in = op->ack;
  ptl_mdo_t *md;
  in.fail = PTL_NI_FAIL;
  if (op->w.amo.reply_md != PTL_HANDLE_NONE) {
    if (!(md = ptl_pool_get(&ni->mds, op->w.amo.reply_md)) || md->inactive) {
      ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_STALE, 1);
      return;
    }
    ptl_md_consume(md);
    md->pending++;
    in.link = ptl_md_event(ni, md, PTL_EVENT_REPLY_START, &in, PTL_SIDE_APP);
    ptl_md_event(ni, md, PTL_EVENT_REPLY_END, &in, PTL_SIDE_APP);
    ptl_md_release(ni, md, &in, PTL_SIDE_APP);
  } else if (op->w.amo.ack_md != PTL_HANDLE_NONE) {
    ack_deliver(ni, op->w.amo.ack_md, &in, PTL_SIDE_APP);
  }
}

/* Every atomic the NIC does not: checks, the data copied into the op (so
 * SEND_START and SEND_END are posted at once, before anything can come
 * back), then a message to be matched, always eager.  gmdh, goff: the get
 * MD of a fetching one (else PTL_HANDLE_NONE); operand: the swaps'. */
static __attribute__((noinline)) int amo_matched(ptl_handle_md_t gmdh, ptl_size_t goff, ptl_handle_md_t mdh,
                                                 ptl_size_t loff, ptl_size_t len, ptl_ack_req_t ack_req,
                                                 ptl_process_id_t target, ptl_pt_index_t pt, ptl_ac_index_t ac,
                                                 ptl_match_bits_t bits, ptl_size_t roff, ptl_hdr_data_t hdr,
                                                 const void *operand, ptl_op_t aop, ptl_datatype_t dt) {
  ptl_ni_t *ni = ptl_ni_of(mdh);
  int fetch = gmdh != PTL_HANDLE_NONE, rc;
  ptl_mdo_t *md, *gmd;
  ptl_xop_t *op;
  ptl_x_t *x;
  uint64_t opnd = 0;
  if (PTL_UNLIKELY(!ni)) return PTL_NO_INIT;
  x = ptl_x(ni);
  if (PTL_UNLIKELY((rc = check_target(ni, target, pt, ac)) != PTL_OK)) return rc;
  if (PTL_UNLIKELY(ack_req != PTL_ACK_REQ && ack_req != PTL_NO_ACK_REQ)) return PTL_FAIL;
  if (operand) memcpy(&opnd, operand, ptl_dt_size(dt));
  ptl_lock(ni);
  if ((rc = check_md(ni, mdh, loff, len, &md)) != PTL_OK ||
      (fetch && (rc = check_md(ni, gmdh, goff, len, &gmd)) != PTL_OK)) {
    ptl_unlock(ni);
    return rc;
  }
  if (!(op = ptl_op_get(ni, PTL_SIDE_APP)) || !(op->bounce = malloc(len))) {
    if (op) ptl_op_put(op);
    ptl_unlock(ni);
    return PTL_NO_SPACE;
  }
  ptl_md_gather(md, loff, op->bounce, len);
  ptl_md_consume(md);
  md->pending++;
  op->kind = OPK_ATOMIC;
  op->mdh = mdh;
  op->info = (ptl_evinfo_t){ni->id, pt, bits, len, len, loff, hdr, 0, PTL_NI_OK};
  op->info.link = ptl_md_event(ni, md, PTL_EVENT_SEND_START, &op->info, PTL_SIDE_APP);
  ptl_md_event(ni, md, PTL_EVENT_SEND_END, &op->info, PTL_SIDE_APP);
  ptl_md_release(ni, md, &op->info, PTL_SIDE_APP);
  /* what a lost send posts instead of the answer (amo_lost) */
  op->ack = fetch ? (ptl_evinfo_t){target, pt, bits, len, 0, goff, 0, 0, PTL_NI_FAIL}
                  : (ptl_evinfo_t){target, pt, bits, len, 0, roff, hdr, 0, PTL_NI_FAIL};
  op->w.amo = (ptl_watomic_t){bits,
                              roff,
                              hdr,
                              !fetch && ack_req == PTL_ACK_REQ ? mdh : PTL_HANDLE_NONE,
                              ptl_obj_handle(&x->ops[PTL_SIDE_APP], op),
                              fetch ? gmdh : PTL_HANDLE_NONE,
                              goff,
                              opnd,
                              pt,
                              ni->id.nid,
                              (uint32_t)aop,
                              (uint32_t)dt};
  ptl_stat(ni, PTL_SIDE_APP, PTL_SR_SEND_COUNT, 1);
  ptl_stat(ni, PTL_SIDE_APP, PTL_SR_SEND_LENGTH, len);
  ptl_unlock(ni);
  ptl_tx_enter(x);
  rc = ptl_am_send(ni, PTL_SIDE_APP, (int)target.nid, PTL_AM_ATOMIC | PTL_AM_EAGER, &op->w.amo, sizeof(op->w.amo),
                   op->bounce, len, NULL, op, ptl_send_cb);
  ptl_tx_leave(x);
  if (rc != SEND_LATER) send_finish(op, rc == SEND_DONE ? UCS_OK : UCS_ERR_IO_ERROR);
  return rc == SEND_FAIL ? PTL_FAIL : PTL_OK;
}

/* The UCX atomic that does (op, dt, len) on the NIC, or -1: one 32- or
 * 64-bit integer element, an operation UCX has. */
static inline int amo_nic_op(ptl_op_t op, ptl_datatype_t dt, ptl_size_t len) {
  if (dt == PTL_FLOAT || dt == PTL_DOUBLE || len != ptl_dt_size(dt)) return -1;
  switch (op) {
    case PTL_SUM: return UCP_ATOMIC_OP_ADD;
    case PTL_BOR: return UCP_ATOMIC_OP_OR;
    case PTL_BAND: return UCP_ATOMIC_OP_AND;
    case PTL_BXOR: return UCP_ATOMIC_OP_XOR;
    case PTL_SWAP: return UCP_ATOMIC_OP_SWAP;
    case PTL_CSWAP: return UCP_ATOMIC_OP_CSWAP;
    default: return -1;
  }
}

/* The NIC path's conditions at once (ptl.h section 6): an operation UCX
 * has (uop >= 0), the shortcut's (sc_enter: both ends publishing, MDs of
 * infinite threshold, a published entry that takes the message), an
 * event-free entry allowing PUT (and GET: fetch) that holds the element
 * whole, at an aligned address.  1 with busy set and *x, *md, *e, (fetch)
 * *gmd; else 0, busy clear. */
static inline int amo_enter(ptl_ni_t *ni, ptl_handle_md_t gmdh, ptl_size_t goff, ptl_handle_md_t mdh, ptl_size_t loff,
                            ptl_size_t len, ptl_process_id_t target, ptl_pt_index_t pt, ptl_ac_index_t ac,
                            ptl_match_bits_t bits, ptl_size_t roff, int uop, int fetch, ptl_x_t **x, ptl_mdo_t **md,
                            ptl_mdo_t **gmd, ptl_pubent_t **e) {
  unsigned need = PTL_MD_OP_PUT | (fetch ? PTL_MD_OP_GET : 0u);
  ptl_size_t mlen = 0;
  int unmapped = 0;
  if (uop < 0 || !sc_enter(ni, mdh, loff, len, target, pt, ac, bits, roff, PTL_MD_OP_PUT, x, md, e, &mlen, &unmapped))
    return 0;
  if (!(*e)->xev && ((*e)->options & need) == need && mlen == len && !(((*e)->base + roff) & (len - 1)) &&
      (!fetch || (*gmd = sc_md(ni, gmdh, goff, len))))
    return 1;
  sc_end(*x);
  return 0;
}

int PtlAtomic(ptl_handle_md_t mdh, ptl_size_t loff, ptl_size_t len, ptl_ack_req_t ack_req, ptl_process_id_t target,
              ptl_pt_index_t pt, ptl_ac_index_t ac, ptl_match_bits_t bits, ptl_size_t roff, ptl_hdr_data_t hdr,
              ptl_op_t aop, ptl_datatype_t dt) {
  ptl_ni_t *ni = ptl_the_ni;
  ptl_x_t *x;
  ptl_mdo_t *md, *gmd = NULL;
  ptl_pubent_t *e;
  int rc = ptl_atomic_check(0, aop, dt, len), uop = amo_nic_op(aop, dt, len);
  if (rc != PTL_OK) return rc;
  if ((unsigned)ack_req <= (unsigned)PTL_NO_ACK_REQ &&
      amo_enter(ni, PTL_HANDLE_NONE, 0, mdh, loff, len, target, pt, ac, bits, roff, uop, 0, &x, &md, &gmd, &e)) {
    int ok, ack = ack_req == PTL_ACK_REQ && !(e->options & PTL_MD_ACK_DISABLE);
    uint64_t v = 0;
    void *flush = NULL;
    ptl_md_gather(md, loff, &v, len);
    ok = sc_amo(x, target.nid, (ucp_atomic_op_t)uop, &v, NULL, len, e, roff, &flush);
    sc_put_issued(ni, x, ok, flush, mdh, md, &ack, target, pt, bits, len, len, roff, hdr);
    if (md->ev_mask)
      sc_events(ni, md, PTL_EVENT_SEND_START, PTL_EVENT_SEND_END, ni->id, pt, bits, len, len, loff, hdr,
                ok ? PTL_NI_OK : PTL_NI_FAIL, ack && ok, target, len, roff);
    ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_ATOMIC_NIC, 1); /* also a SEND_COUNT (PtlNIStatus) */
    ptl_stat(ni, PTL_SIDE_APP, PTL_SR_SEND_LENGTH, len);
    return PTL_OK;
  }
  return amo_matched(PTL_HANDLE_NONE, 0, mdh, loff, len, ack_req, target, pt, ac, bits, roff, hdr, NULL, aop, dt);
}

/* A fetching AND, OR or XOR on the NIC as UCX atomics that work: the
 * value read by a fetching add of 0, then compare-and-swaps until one
 * finds the value it computed from.  (UCX 1.13's own fetching AND, OR and
 * XOR over shared memory return the old value but store the old value
 * combined with itself -- t & t, t | t, t ^ t -- whatever the operand:
 * ptl_conf atomic caught it.)  v, *old: as sc_amo's (size bytes at their
 * start, the rest 0). */
static int sc_amo_fbits(ptl_x_t *x, uint32_t target, ucp_atomic_op_t uop, uint64_t v, uint64_t *old, size_t size,
                        const ptl_pubent_t *e, ptl_size_t roff) {
  uint64_t zero = 0, cur = 0, got;
  if (!sc_amo(x, target, UCP_ATOMIC_OP_ADD, &zero, &cur, size, e, roff, NULL)) return 0;
  for (;;) {
    got = uop == UCP_ATOMIC_OP_OR ? cur | v : uop == UCP_ATOMIC_OP_AND ? cur & v : cur ^ v;
    if (!sc_amo(x, target, UCP_ATOMIC_OP_CSWAP, &cur, &got, size, e, roff, NULL)) return 0;
    if (got == cur) break;
    cur = got;
  }
  *old = cur;
  return 1;
}

/* PtlFetchAtomic and PtlSwap (checked). */
static int amo_fetch(ptl_handle_md_t gmdh, ptl_size_t goff, ptl_handle_md_t mdh, ptl_size_t loff, ptl_size_t len,
                     ptl_process_id_t target, ptl_pt_index_t pt, ptl_ac_index_t ac, ptl_match_bits_t bits,
                     ptl_size_t roff, ptl_hdr_data_t hdr, const void *operand, ptl_op_t aop, ptl_datatype_t dt) {
  ptl_ni_t *ni = ptl_the_ni;
  ptl_x_t *x;
  ptl_mdo_t *md, *gmd = NULL;
  ptl_pubent_t *e;
  int uop = amo_nic_op(aop, dt, len);
  if (gmdh == PTL_HANDLE_NONE) return PTL_MD_INVALID;
  if (amo_enter(ni, gmdh, goff, mdh, loff, len, target, pt, ac, bits, roff, uop, 1, &x, &md, &gmd, &e)) {
    uint64_t v = 0, old = 0;
    int ok;
    if (uop == UCP_ATOMIC_OP_CSWAP) { /* UCX: compare with the operand, the new value in the reply buffer */
      memcpy(&v, operand, len);
      ptl_md_gather(md, loff, &old, len);
    } else {
      ptl_md_gather(md, loff, &v, len);
    }
    if (uop == UCP_ATOMIC_OP_AND || uop == UCP_ATOMIC_OP_OR || uop == UCP_ATOMIC_OP_XOR)
      ok = sc_amo_fbits(x, target.nid, (ucp_atomic_op_t)uop, v, &old, len, e, roff);
    else
      ok = sc_amo(x, target.nid, (ucp_atomic_op_t)uop, &v, &old, len, e, roff, NULL);
    sc_end(x);
    if (ok) ptl_md_scatter(gmd, goff, &old, len);
    if (md->ev_mask)
      sc_events(ni, md, PTL_EVENT_SEND_START, PTL_EVENT_SEND_END, ni->id, pt, bits, len, len, loff, hdr,
                ok ? PTL_NI_OK : PTL_NI_FAIL, 0, target, 0, 0);
    if (gmd->ev_mask)
      sc_events(ni, gmd, PTL_EVENT_REPLY_START, PTL_EVENT_REPLY_END, target, pt, bits, len, ok ? len : 0, goff, 0,
                ok ? PTL_NI_OK : PTL_NI_FAIL, 0, target, 0, 0);
    ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_ATOMIC_NIC, 1); /* also a SEND_COUNT (PtlNIStatus) */
    ptl_stat(ni, PTL_SIDE_APP, PTL_SR_SEND_LENGTH, len);
    ptl_stat(ni, PTL_SIDE_APP, PTL_SR_RECV_LENGTH, len);
    return PTL_OK;
  }
  return amo_matched(gmdh, goff, mdh, loff, len, PTL_NO_ACK_REQ, target, pt, ac, bits, roff, hdr, operand, aop, dt);
}

int PtlFetchAtomic(ptl_handle_md_t gmdh, ptl_size_t goff, ptl_handle_md_t mdh, ptl_size_t loff, ptl_size_t len,
                   ptl_process_id_t target, ptl_pt_index_t pt, ptl_ac_index_t ac, ptl_match_bits_t bits,
                   ptl_size_t roff, ptl_hdr_data_t hdr, ptl_op_t aop, ptl_datatype_t dt) {
  int rc = ptl_atomic_check(0, aop, dt, len);
  return rc != PTL_OK ? rc : amo_fetch(gmdh, goff, mdh, loff, len, target, pt, ac, bits, roff, hdr, NULL, aop, dt);
}

int PtlSwap(ptl_handle_md_t gmdh, ptl_size_t goff, ptl_handle_md_t mdh, ptl_size_t loff, ptl_size_t len,
            ptl_process_id_t target, ptl_pt_index_t pt, ptl_ac_index_t ac, ptl_match_bits_t bits, ptl_size_t roff,
            ptl_hdr_data_t hdr, const void *operand, ptl_op_t aop, ptl_datatype_t dt) {
  int rc = ptl_atomic_check(1, aop, dt, len);
  if (rc != PTL_OK) return rc;
  if (!operand && aop != PTL_SWAP) return PTL_SEGV;
  return amo_fetch(gmdh, goff, mdh, loff, len, target, pt, ac, bits, roff, hdr, aop == PTL_SWAP ? NULL : operand, aop,
                   dt);
}
