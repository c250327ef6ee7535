/*
 * ptl_eq.c -- event queues (two rings each, see ptl_eqo_t), posting
 * events, and the waits.
 *
 * Posting is inline (ptl_internal.h, ptl_md_event); here are its slow
 * paths, the consumer, and the waits.  The client thread's own ring needs
 * no atomics.  The progress thread's ring is a bounded multi-producer
 * queue (ptl_eq_reserve: the progress thread, and initiators writing
 * events of event entries one-sidedly): a slot's stamp is its position + 1
 * once filled; the client thread is its one consumer, and says how far it
 * has taken in the shared `head`.
 * An event that finds its ring full is dropped and counted; the next
 * successful take reports it.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ptl_internal.h"

#define CHECK_EVERY 64    /* idle polls between looks at the clock */
#define YIELD_NS 20000    /* nothing happened for this long: sched_yield() between polls */
#define SPIN_NS 200000    /* ... for this long: block until something happens */
#define BLOCK_SLICE_MS 50 /* re-check at least this often while blocked */

/* The full event of a compact record (ptl_eq_slot_t), its MD snapshot from
 * the MD, which is not freed before the consumer is past its events. */
static inline __attribute__((always_inline)) void eq_expand(ptl_event_t *ev, const ptl_rec_t *r) {
  ptl_ni_t *ni = ptl_the_ni;
  uint32_t slot = (uint32_t)(r->md_handle & ((1u << PTL_SLOT_BITS) - 1));
  const ptl_mdo_t *md = slot < ni->mds.count ? ptl_pool_at(&ni->mds, slot) : NULL;
  if (PTL_UNLIKELY(!md || md->o.gen != (uint32_t)(r->md_handle >> PTL_SLOT_BITS)))
    ptl_die("an event names MD %#llx, which was freed before its events were taken",
            (unsigned long long)r->md_handle);
  ptl_ev_put(ev, (ptl_event_kind_t)(r->kind & (PTL_REC_COMPACT - 1)), (ptl_process_id_t){r->nid, 0},
             (ptl_pt_index_t)(r->kind >> 8), r->bits, r->rlength, r->mlength, r->offset, r->md_handle, &md->d, r->hdr, 0,
             PTL_NI_OK, 0);
}

/* The nic ring's next event (its stamp seen) into *ev, in the queue's
 * order: its sequence, and the START's link made a sequence. */
static inline __attribute__((always_inline)) void nic_one(ptl_eqo_t *eq, const ptl_eq_slot_t *s, ptl_event_t *ev) {
  if (PTL_LIKELY(s->rec.kind & PTL_REC_COMPACT))
    eq_expand(ev, &s->rec);
  else
    *ev = s->ev;
  ev->sequence = eq->next_seq++;
  ev->link = ev->link && eq->nic_head + 1 - ev->link <= eq->mask ? eq->nic_seq[(ev->link - 1) & eq->mask] : 0;
  eq->nic_seq[eq->nic_head & eq->mask] = ev->sequence;
  eq->nic_head++;
}

void ptl_eq_drain(ptl_eqo_t *eq) {
  ptl_eq_slot_t *s;
  int more = 0;
  while (eq->own_tail - eq->own_head <= eq->mask && atomic_load_explicit(&(s = &eq->nic[eq->nic_head & eq->mask])->seq,
                                                                         memory_order_acquire) == eq->nic_head + 1) {
    nic_one(eq, s, &eq->own[eq->own_tail++ & eq->mask]);
    more = 1;
  }
  if (more) atomic_store_explicit(&eq->sh->head, eq->nic_head, memory_order_release); /* after the reads */
}

ptl_seq_t ptl_eq_lost(ptl_ni_t *ni, ptl_eqo_t *eq, int side) {
  if (eq && side == PTL_SIDE_RX && eq->nic)
    atomic_fetch_add_explicit(&eq->nic_dropped, 1, memory_order_relaxed);
  else if (eq)
    eq->own_dropped++;
  ptl_stat(ni, side, PTLX_SR_EQ_DROPPED, 1);
  return 0;
}

ptl_seq_t ptl_eq_nic_commit(ptl_ni_t *ni, ptl_eqo_t *eq, uint64_t pos) {
  atomic_store_explicit(&eq->nic[pos & eq->mask].seq, pos + 1, memory_order_release);
  if (ni->hooks && ni->hooks->wake) {
    atomic_fetch_add(&ni->posted, 1); /* seq_cst: pairs with the sleeper's store */
    if (atomic_load(&ni->sleepers)) ni->hooks->wake(ni);
  }
  return (ptl_seq_t)(pos + 1);
}

/* Drops to report, or a handler to call: the uncommon end of a take. */
static int eq_take_rare(ptl_eqo_t *eq, ptl_event_t *ev) {
  int rc = PTL_OK;
  uint64_t x;
  if (eq->sh && atomic_load_explicit(&eq->sh->xdropped, memory_order_relaxed) &&
      (x = atomic_exchange(&eq->sh->xdropped, 0))) { /* one-sided writers' drops: counted here */
    ptl_ni_t *ni = ptl_ni_of(0);
    if (ni) ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_EQ_DROPPED, (ptl_sr_value_t)x);
    rc = PTL_EQ_DROPPED;
  }
  if (eq->own_dropped) {
    eq->own_dropped = 0;
    rc = PTL_EQ_DROPPED;
  }
  if (eq->nic && atomic_load_explicit(&eq->nic_dropped, memory_order_relaxed) && atomic_exchange(&eq->nic_dropped, 0))
    rc = PTL_EQ_DROPPED;
  if (eq->handler) eq->handler(ev);
  return rc;
}

/* The consumer: next event or PTL_EQ_EMPTY.  With nothing in the own
 * ring and nothing to report, the nic ring's next event goes straight to
 * the caller (not through the own ring). */
static inline __attribute__((always_inline)) int eq_take(ptl_eqo_t *eq, ptl_event_t *ev) {
  uint64_t head;
  int rare;
  if (eq->own_head == eq->own_tail && eq->sh) {
    ptl_eq_slot_t *s = &eq->nic[eq->nic_head & eq->mask];
    if (atomic_load_explicit(&s->seq, memory_order_acquire) != eq->nic_head + 1) return PTL_EQ_EMPTY;
    if (PTL_LIKELY(!eq->own_dropped && !eq->handler && !atomic_load_explicit(&eq->nic_dropped, memory_order_relaxed) &&
                   !atomic_load_explicit(&eq->sh->xdropped, memory_order_relaxed))) {
      nic_one(eq, s, ev);
      atomic_store_explicit(&eq->sh->head, eq->nic_head, memory_order_release); /* after the reads */
      return PTL_OK;
    }
  }
  ptl_eq_catch_up(eq);
  if ((head = eq->own_head) == eq->own_tail) return PTL_EQ_EMPTY;
  /* read before the copy, which could alias the EQ */
  rare = eq->own_dropped || eq->handler ||
         (eq->sh && (atomic_load_explicit(&eq->nic_dropped, memory_order_relaxed) ||
                     atomic_load_explicit(&eq->sh->xdropped, memory_order_relaxed)));
  eq->own_head = head + 1;
  *ev = eq->own[head & eq->mask];
  return PTL_LIKELY(!rare) ? PTL_OK : eq_take_rare(eq, ev);
}

static void eq_rings_free(ptl_ni_t *ni, ptl_eqo_t *eq) {
  free(eq->own);
  if (eq->region && ni->hooks && ni->hooks->eq_mem_free)
    ni->hooks->eq_mem_free(ni, eq->region);
  else
    free(eq->sh);
  free(eq->nic_seq);
  eq->own = NULL;
  eq->sh = NULL;
  eq->nic = NULL;
  eq->region = NULL;
  eq->nic_seq = NULL;
}

int PtlEQAlloc(ptl_handle_ni_t ni_handle, ptl_size_t count, ptl_eq_handler_t handler, ptl_handle_eq_t *eq_handle) {
  ptl_ni_t *ni = ptl_ni_get(ni_handle);
  ptl_eqo_t *eq, rings = {0};
  uint64_t cap = 2;
  if (!ni) return PTL_NI_INVALID;
  if (!eq_handle) return PTL_SEGV;
  if (count == 0) {
    *eq_handle = PTL_EQ_NONE;
    return PTL_OK;
  }
  if (count > (1u << 24)) return PTL_NO_SPACE;
  while (cap < count) cap <<= 1;
  rings.own = malloc(cap * sizeof(*rings.own));
  if (ni->mode == PTLX_IFACE_OFFLOAD) {
    size_t len = (sizeof(ptl_eq_shared_t) + cap * sizeof(ptl_eq_slot_t) + 63) & ~(size_t)63;
    if (ni->hooks && ni->hooks->eq_mem)
      rings.sh = ni->hooks->eq_mem(ni, len, &rings.region);
    else
      rings.sh = aligned_alloc(64, len);
    if (rings.sh) {
      memset(rings.sh, 0, sizeof(*rings.sh));
      rings.nic = rings.sh->slot;
      for (uint64_t i = 0; i < cap; i++) atomic_init(&rings.nic[i].seq, 0);
    }
    rings.nic_seq = calloc(cap, sizeof(*rings.nic_seq));
  }
  if (!rings.own || (ni->mode == PTLX_IFACE_OFFLOAD && (!rings.sh || !rings.nic_seq))) {
    eq_rings_free(ni, &rings);
    return PTL_NO_SPACE;
  }
  ptl_lock(ni);
  if ((eq = ptl_pool_alloc(&ni->eqs))) {
    eq->own = rings.own;
    eq->sh = rings.sh;
    eq->nic = rings.nic;
    eq->region = rings.region;
    eq->nic_seq = rings.nic_seq;
    eq->mask = cap - 1;
    atomic_init(&eq->nic_dropped, 0);
    eq->handler = handler;
    *eq_handle = ptl_obj_handle(&ni->eqs, eq);
  }
  ptl_unlock(ni);
  if (!eq) {
    eq_rings_free(ni, &rings);
    return PTL_NO_SPACE;
  }
  return PTL_OK;
}

int PtlEQFree(ptl_handle_eq_t eq_handle) {
  ptl_ni_t *ni = ptl_ni_of(eq_handle);
  ptl_eqo_t *eq;
  if (!ni) return PTL_EQ_INVALID;
  ptl_lock(ni);
  if ((eq = ptl_pool_get(&ni->eqs, eq_handle)) && eq->region && ni->hooks && ni->hooks->list_changed) {
    /* entries published with this EQ's ring are revoked before it goes */
    eq->dying = 1;
    ptl_unlock(ni);
    for (ptl_pt_index_t pt = 0; pt <= PTLX_PT_INDEX_MAX; pt++) ptl_list_changed(ni, pt, NULL);
    ptl_lock(ni);
    eq = ptl_pool_get(&ni->eqs, eq_handle);
  }
  if (eq) {
    for (int i = 0; i < 2; i++)
      if (ni->eq_hot[i] == eq) {
        ni->eq_hot[i] = NULL;
        ni->eq_hot_h[i] = 0;
      }
    eq_rings_free(ni, eq);
    ptl_pool_free(&ni->eqs, eq);
  }
  ptl_unlock(ni);
  return eq ? PTL_OK : PTL_EQ_INVALID;
}

void ptl_eq_free_all(ptl_ni_t *ni) {
  for (uint32_t s = 0; s < ni->eqs.count; s++) {
    ptl_eqo_t *eq = ptl_pool_at(&ni->eqs, s);
    if (eq->o.live) eq_rings_free(ni, eq);
  }
}

/* Before blocking: tell one-sided writers to wake us (on), and look at
 * the rings once more -- 0 if something came meanwhile.  After: off. */
static int eqs_sleeping(ptl_eqo_t **eq, int size, int on) {
  for (int i = 0; i < size; i++)
    if (eq[i]->sh) atomic_store_explicit(&eq[i]->sh->sleeping, (uint64_t)on, memory_order_seq_cst);
  if (!on) return 0;
  /* seq_cst, like the writer's stamp and its look at `sleeping`: either it
   * sees the flag and wakes us, or we see its event here */
  for (int i = 0; i < size; i++)
    if (eq[i]->sh && atomic_load_explicit(&eq[i]->nic[eq[i]->nic_head & eq[i]->mask].seq, memory_order_seq_cst) ==
                         eq[i]->nic_head + 1)
      return 0;
  return 1;
}

/* A waiting client's one step between looks at its EQs: the transport's
 * progress (nonzero: something happened), and the lists the rx side
 * changed re-published. */
static inline unsigned progress_once(ptl_ni_t *ni) {
  unsigned n = 0;
  if (PTL_LIKELY(ni->idle_skip))
    ni->idle_skip--;
  else if (ni->hooks && ni->hooks->progress)
    n = ni->hooks->progress(ni);
  if (PTL_UNLIKELY(atomic_load_explicit(&ni->pub_dirty, memory_order_relaxed))) ptl_list_dirty(ni);
  return n;
}

int PtlEQPoll(const ptl_handle_eq_t *eq_handles, int size, ptl_time_t timeout, ptl_event_t *event, int *which) {
  ptl_eqo_t *eqs[16], **eq = eqs;
  ptl_ni_t *ni;
  uint64_t quiet = 0, deadline = 0; /* quiet: since when nothing happened */
  int rc = PTL_EQ_EMPTY;
  if (!eq_handles || !event || !which) return PTL_SEGV;
  if (size <= 0) return PTL_EQ_INVALID;
  if (!(ni = ptl_ni_of(eq_handles[0]))) return PTL_EQ_INVALID;
  if (size > 16 && !(eq = malloc((size_t)size * sizeof(*eq)))) return PTL_NO_SPACE;
  for (int i = 0; i < size; i++)
    if (!(eq[i] = ptl_pool_get(&ni->eqs, eq_handles[i]))) {
      rc = PTL_EQ_INVALID;
      goto out;
    }
  for (unsigned idle = 0;; idle++) {
    uint64_t seen = atomic_load_explicit(&ni->posted, memory_order_acquire);
    for (int i = 0; i < size; i++)
      if ((rc = eq_take(eq[i], event)) != PTL_EQ_EMPTY) {
        *which = i;
        goto out;
      }
    if (timeout == 0 && idle > 0) break;
    if (progress_once(ni)) { /* busy: stay on the CPU */
      quiet = 0;
      idle = 0;
    }
    if (idle % CHECK_EVERY != CHECK_EVERY - 1 || timeout == 0) continue;
    uint64_t t = ptl_now_ns();
    if (deadline == 0) deadline = timeout == PTL_TIME_FOREVER ? UINT64_MAX : t + (uint64_t)timeout * 1000000u;
    if (t >= deadline) break;
    if (!quiet) quiet = t;
    if (t - quiet < YIELD_NS) continue; /* spin */
    if (t - quiet < SPIN_NS || !ni->hooks || !ni->hooks->block) {
      sched_yield(); /* (oversubscribed: let the others run) */
      continue;
    }
    uint64_t left_ms = deadline == UINT64_MAX ? BLOCK_SLICE_MS : (deadline - t) / 1000000u + 1;
    if (eqs_sleeping(eq, size, 1)) /* one-sided writers wake us from now on: look once more first */
      ni->hooks->block(ni, seen, (int)(left_ms < BLOCK_SLICE_MS ? left_ms : BLOCK_SLICE_MS));
    eqs_sleeping(eq, size, 0);
    quiet = 0;
  }
  rc = PTL_EQ_EMPTY;
out:
  if (eq != eqs) free(eq);
  return rc;
}

/* The common case first: one EQ with an event waiting (the two EQs looked
 * up last need no validation: they stay valid until PtlEQFree forgets
 * them). */
static inline __attribute__((always_inline)) int eq_quick(ptl_handle_eq_t eqh, ptl_event_t *event, ptl_eqo_t **out) {
  ptl_ni_t *ni = ptl_the_ni;
  ptl_eqo_t *eq;
  if (PTL_UNLIKELY(!ni || !event)) return PTL_EQ_EMPTY;
  eq = eqh == ni->eq_hot_h[0] ? ni->eq_hot[0] : eqh == ni->eq_hot_h[1] ? ni->eq_hot[1] : NULL;
  if (PTL_UNLIKELY(!eq)) { /* look it up; the older one goes */
    if (!(eq = ptl_pool_get(&ni->eqs, eqh))) return PTL_EQ_EMPTY;
    ni->eq_hot_h[1] = ni->eq_hot_h[0];
    ni->eq_hot[1] = ni->eq_hot[0];
    ni->eq_hot_h[0] = eqh;
    ni->eq_hot[0] = eq;
  }
  *out = eq;
  return eq_take(eq, event);
}

/* A valid EQ found empty: progress once, and look again if that did
 * something (PtlEQPoll's loop with a zero timeout, without its setup: a
 * poll finding nothing is the common case of a waiting client).  Not when
 * the previous look returned an event: that empty look ends a drain, and
 * the event's handling is what the caller does next (the progress comes
 * with its next look, one call later). */
int PtlEQGet(ptl_handle_eq_t eq_handle, ptl_event_t *event) {
  ptl_eqo_t *eq = NULL;
  int which, rc = eq_quick(eq_handle, event, &eq);
  if (rc != PTL_EQ_EMPTY) {
    eq->took = 1;
    return rc;
  }
  if (PTL_UNLIKELY(!eq)) return PtlEQPoll(&eq_handle, 1, 0, event, &which); /* (the errors) */
  if (eq->took) {
    eq->took = 0;
    return PTL_EQ_EMPTY;
  }
  return progress_once(ptl_the_ni) ? eq_take(eq, event) : PTL_EQ_EMPTY;
}

int PtlEQWait(ptl_handle_eq_t eq_handle, ptl_event_t *event) {
  ptl_eqo_t *eq = NULL;
  int which, rc = eq_quick(eq_handle, event, &eq);
  return rc != PTL_EQ_EMPTY ? rc : PtlEQPoll(&eq_handle, 1, PTL_TIME_FOREVER, event, &which);
}
