/*
 * ptl_match.c -- the matching engine: match lists, MD acceptance,
 * thresholds and unlinking, and the publishing rule.  Pure: no MPI, no UCX.
 * Every function here runs with ni->lock held.
 */
#include "ptl_internal.h"

/* ---------------------------------------------------------------- MD life */
static void md_free(ptl_ni_t *ni, ptl_mdo_t *md);

void ptl_md_deactivate(ptl_mdo_t *md) {
  PTL_WR(md->inactive, 1);
  if (md->unlink_op == PTL_UNLINK) md->unlink_pending = 1;
  else if ((md->d.options & PTLX_MD_REARM) && !md->xmd) md->drain_owed = 1;
}

/* A re-armed buffer that is full: its PTLX_EVENT_DRAINED once every
 * operation begun on it has ended (at most once per filling). */
void ptl_md_drain_check(ptl_ni_t *ni, ptl_mdo_t *md, int side) {
  if (!md->drain_owed || md->pending) return;
  md->drain_owed = 0;
  ptl_md_drained(ni, md, side);
}

void ptl_md_drained(ptl_ni_t *ni, ptl_mdo_t *md, int side) {
  ptl_evinfo_t in = {ni->id, md->me ? md->me->pt : 0, 0, 0, 0, 0, 0, 0, PTL_NI_OK};
  ptl_md_event(ni, md, PTLX_EVENT_DRAINED, &in, side);
}

void ptl_md_consume(ptl_mdo_t *md) {
  int t = md->d.threshold;
  if (t == PTL_MD_THRESH_INF) return;
  if (t > 0) PTL_WR(md->d.threshold, --t);
  if (t == 0) ptl_md_deactivate(md);
}

void ptl_md_release(ptl_ni_t *ni, ptl_mdo_t *md, const ptl_evinfo_t *info, int side) {
  if (md->pending) md->pending--;
  if (PTL_UNLIKELY(md->drain_owed)) ptl_md_drain_check(ni, md, side);
  if (md->pending || !md->unlink_pending) return;
  if (md->xmd && !ptl_xmd_drained(md->xmd)) return; /* one-sided appends still going: the rx side polls */
  ptl_md_event(ni, md, PTL_EVENT_UNLINK, info, side);
  ptl_md_unlink_now(ni, md);
}

void ptl_list_remove(ptl_ni_t *ni, ptl_meo_t *me) {
  ptl_list_t *l = &ni->pt[me->pt];
  if (!me->linked) return;
  if (me->prev)
    me->prev->next = me->next;
  else
    l->head = me->next;
  if (me->next)
    me->next->prev = me->prev;
  else
    l->tail = me->prev;
  me->prev = me->next = NULL;
  me->linked = 0;
  l->len--;
  /* a later entry may no longer be shadowed: let the app side re-publish */
  if (ni->hooks && ni->hooks->list_changed)
    atomic_fetch_or_explicit(&ni->pub_dirty, 1ull << me->pt, memory_order_relaxed);
}

void ptl_md_unlink_now(ptl_ni_t *ni, ptl_mdo_t *md) {
  ptl_meo_t *me = md->me;
  if ((md->xmd || (me && me->pub && me->unlink == PTL_UNLINK)) && ni->hooks && ni->hooks->md_gone)
    ni->hooks->md_gone(ni, md);
  if (ni->hooks && ni->hooks->md_deregister) ni->hooks->md_deregister(ni, &md->reg);
  ptl_pieces_drop(ni, md->pieces);
  md->pieces = NULL;
  md->iov = NULL;
  if (me) {
    me->md = NULL;
    md->me = NULL;
    if (me->unlink == PTL_UNLINK) {
      ptl_list_remove(ni, me);
      ptl_pool_free(&ni->mes, me);
    }
  }
  md_free(ni, md);
}

/* An event entry's compact records (ptl_eq_slot_t) name its MD, and the
 * consumer takes the MD's description from the MD itself.  Every such
 * record is at a position below its ring's tail by now -- an entry is
 * unlinked once its revocation is done (the app side), or once every
 * operation begun in a full request buffer has ended (the rx side) -- so
 * the slot is reused only once the consumer's head has passed that tail. */
static void md_free(ptl_ni_t *ni, ptl_mdo_t *md) {
  ptl_eqo_t *eq;
  if (md->xev && (eq = ptl_md_eq(md)) && eq->sh) {
    PTL_WR(md->o.live, 0); /* (its handle is dead; the slot stays out of the free list) */
    md->limbo_pos = atomic_load_explicit(&eq->sh->tail, memory_order_acquire);
    md->limbo_next = ni->limbo;
    ni->limbo = md;
    return;
  }
  ptl_pool_free(&ni->mds, md);
}

void ptl_limbo_reap(ptl_ni_t *ni) {
  for (ptl_mdo_t **pp = &ni->limbo, *md; (md = *pp);) {
    ptl_eqo_t *eq = ptl_md_eq(md);
    /* acquire: the consumer has read what it took */
    if (eq && eq->sh && atomic_load_explicit(&eq->sh->head, memory_order_acquire) < md->limbo_pos) {
      pp = &md->limbo_next;
      continue;
    }
    *pp = md->limbo_next;
    ptl_pool_free(&ni->mds, md);
  }
}

void ptl_me_unlink_now(ptl_ni_t *ni, ptl_meo_t *me) {
  if (me->md) {
    me->md->me = NULL; /* so the MD does not take the ME along */
    ptl_md_unlink_now(ni, me->md);
    me->md = NULL;
  }
  ptl_list_remove(ni, me);
  ptl_pool_free(&ni->mes, me);
}

/* ---------------------------------------------------------------- matching */
/* The rights an operation needs, its START and END events. */
static const unsigned op_bits[] = {[PTL_OP_PUT] = PTL_MD_OP_PUT,
                                   [PTL_OP_GET] = PTL_MD_OP_GET,
                                   [PTL_OP_ATOMIC] = PTL_MD_OP_PUT,
                                   [PTL_OP_FETCH] = PTL_MD_OP_PUT | PTL_MD_OP_GET};
static const ptl_event_kind_t op_start[] = {[PTL_OP_PUT] = PTL_EVENT_PUT_START,
                                            [PTL_OP_GET] = PTL_EVENT_GET_START,
                                            [PTL_OP_ATOMIC] = PTL_EVENT_ATOMIC_START,
                                            [PTL_OP_FETCH] = PTL_EVENT_FETCH_ATOMIC_START};
static const ptl_event_kind_t op_end[] = {[PTL_OP_PUT] = PTL_EVENT_PUT_END,
                                          [PTL_OP_GET] = PTL_EVENT_GET_END,
                                          [PTL_OP_ATOMIC] = PTL_EVENT_ATOMIC_END,
                                          [PTL_OP_FETCH] = PTL_EVENT_FETCH_ATOMIC_END};

int ptl_match(ptl_ni_t *ni, const ptl_req_t *r, ptl_hit_t *hit, int side) {
  unsigned opbit = op_bits[r->op];
  unsigned trunc = r->op >= PTL_OP_ATOMIC ? 0u : PTL_MD_TRUNCATE; /* atomics never truncate */
  ptl_meo_t *me = r->pt <= PTLX_PT_INDEX_MAX ? ni->pt[r->pt].head : NULL;
  ptl_mdo_t *md = NULL;
  ptl_size_t off = 0, mlen = 0;
  uint64_t xops = 0;
  uint32_t n = 0;
  int crossed = 0;
  ptl_evinfo_t in;

  for (; me; me = me->next) {
    n++;
    if (((me->bits ^ r->bits) & me->mask) || !ptl_id_accepts(me->match_id, r->src)) continue;
    md = me->md;
    if (!md || md->inactive || (md->d.options & opbit) != opbit) continue;
    if (md->xmd) { /* an event entry's running offset: shared with one-sided appenders */
      if (!ptl_xmd_reserve(md->xmd, md->len, md->d.max_size, md->d.options & ~(trunc ^ PTL_MD_TRUNCATE),
                           r->rlength, &off, &mlen, &crossed, &xops, 0))
        continue;
      break;
    }
    off = (md->d.options & PTL_MD_MANAGE_REMOTE) ? r->roffset : md->loffset;
    if (off <= md->len && r->rlength <= md->len - off)
      mlen = r->rlength;
    else if ((md->d.options & trunc) && off <= md->len)
      mlen = md->len - off;
    else
      continue;
    if (PTL_UNLIKELY(md->iov != NULL) && r->op >= PTL_OP_ATOMIC && !ptl_md_piece_at(md, off, mlen))
      continue; /* an atomic updates its elements in place: within one piece (ptl.h) */
    break;
  }
  ptl_stat(ni, side, PTLX_SR_ME_TRAVERSED, n);
  if (!me) {
    ptl_stat(ni, side, PTL_SR_DROP_COUNT, 1);
    ptl_stat(ni, side, PTL_SR_DROP_LENGTH, r->rlength);
    return 0;
  }
  if (r->op != PTL_OP_GET) { /* (a fetching atomic: its reply counts as a send) */
    ptl_stat(ni, side, PTL_SR_RECV_COUNT, 1);
    ptl_stat(ni, side, PTL_SR_RECV_LENGTH, mlen);
  } else {
    ptl_stat(ni, side, PTL_SR_SEND_COUNT, 1);
    ptl_stat(ni, side, PTL_SR_SEND_LENGTH, mlen);
  }
  if (md->xmd) {
    if (crossed) {
      ptl_xmd_full(md->xmd, xops);
      ptl_md_deactivate(md);
    }
  } else if (!(md->d.options & PTL_MD_MANAGE_REMOTE)) {
    md->loffset += mlen;
    if ((md->d.options & PTL_MD_MAX_SIZE) && md->len - md->loffset < md->d.max_size) ptl_md_deactivate(md);
  }
  ptl_md_consume(md);
  md->pending++;
  hit->md = md;
  hit->xmd = md->xmd;
  hit->mdh = ptl_obj_handle(&ni->mds, md);
  hit->offset = off;
  hit->mlength = mlen;
  in = (ptl_evinfo_t){r->src, r->pt, r->bits, r->rlength, mlen, off, r->op != PTL_OP_GET ? r->hdr : 0, 0, PTL_NI_OK};
  hit->start_seq = ptl_md_event(ni, md, op_start[r->op], &in, side);
  return 1;
}

void ptl_match_end(ptl_ni_t *ni, const ptl_req_t *r, const ptl_hit_t *hit, ptl_ni_fail_t fail, int side) {
  ptl_evinfo_t in = {
      r->src,         r->pt, r->bits, r->rlength, hit->mlength, hit->offset, r->op != PTL_OP_GET ? r->hdr : 0,
      hit->start_seq, fail};
  ptl_md_event(ni, hit->md, op_end[r->op], &in, side);
  /* an operation that reserved through the shared state ends there (not
   * one that began before the MD was published; and not once the state is
   * given back: then the MD counts only `pending`) */
  if (hit->xmd && hit->md->xmd == hit->xmd && ptl_xmd_end(hit->xmd, 0, 0) && (hit->md->d.options & PTLX_MD_REARM))
    ptl_md_drained(ni, hit->md, side);
  ptl_md_release(ni, hit->md, &in, side);
}

/* ---------------------------------------------------------------- publishing rule */
/* Could some message be taken by both a and b (ignoring their MDs)? */
static int me_overlap(const ptl_meo_t *a, const ptl_meo_t *b) {
  ptl_process_id_t x = a->match_id, y = b->match_id;
  if ((a->bits ^ b->bits) & a->mask & b->mask) return 0;
  if (x.nid != PTL_NID_ANY && y.nid != PTL_NID_ANY && x.nid != y.nid) return 0;
  if (x.pid != PTL_PID_ANY && y.pid != PTL_PID_ANY && x.pid != y.pid) return 0;
  return 1;
}

/* A published request buffer (a locally managed event entry) that a
 * request buffer with the same match set may follow in order. */
static int me_orders(const ptl_meo_t *y, const ptl_meo_t *me) {
  return y->pub == PTL_PUB_YES && y->xslot1 && y->md && !(y->md->d.options & PTL_MD_MANAGE_REMOTE) &&
         y->bits == me->bits && y->mask == me->mask && y->match_id.nid == me->match_id.nid &&
         y->match_id.pid == me->match_id.pid;
}

int ptl_me_publishable(const ptl_meo_t *me, uint64_t *after) {
  const ptl_mdo_t *md = me->md;
  const ptl_eqo_t *eq;
  unsigned opts;
  int kind = PTL_PUB_PLAIN;
  /* (a full re-armed buffer stays published: it will be re-armed in place) */
  if (!me->linked || !md || (md->inactive && !(md->d.options & PTLX_MD_REARM)) || md->unlink_pending) return 0;
  opts = md->d.options;
  if (md->d.threshold != PTL_MD_THRESH_INF || !(opts & (PTL_MD_OP_PUT | PTL_MD_OP_GET)) || (opts & PTL_MD_IOVEC))
    return 0;
  if (md->d.eq_handle != PTL_EQ_NONE && (opts & PTL_MD_EVENTS_OFF) != PTL_MD_EVENTS_OFF) {
    /* an event entry: END events only, into an EQ whose ring peers may map */
    if (!(opts & PTL_MD_EVENT_START_DISABLE) || !(eq = ptl_md_eq(md)) || !eq->region || eq->dying) return 0;
    kind = PTL_PUB_EVENTS;
  }
  if (opts & PTL_MD_MANAGE_REMOTE) {
    if (me->unlink != PTL_RETAIN || (opts & PTL_MD_MAX_SIZE)) return 0;
  } else if (kind != PTL_PUB_EVENTS || !(opts & PTL_MD_MAX_SIZE)) {
    return 0; /* locally managed: only request buffers that report every append */
  }
  *after = 0;
  for (const ptl_meo_t *y = me->prev; y; y = y->prev) { /* (an inactive MD never takes anything again) */
    if ((y->md && y->md->inactive) || !me_overlap(y, me)) continue;
    /* a request buffer may follow published request buffers of its match set (the nearest is its `after`) */
    if (kind != PTL_PUB_EVENTS || (opts & PTL_MD_MANAGE_REMOTE) || !me_orders(y, me)) return 0;
    if (!*after) *after = y->pub_order;
  }
  return kind;
}
