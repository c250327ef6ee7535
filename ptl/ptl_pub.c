/*
 * ptl_pub.c -- offload mode: publishing event-free persistent MEs to the
 * other offload NIs, revoking them, and the initiator's RMA shortcut.
 * The rule and the guarantee are section 5 of ptl.h.
 *
 * Owner side (client thread, ptl_pub_list_changed): after any change to a
 * list, walk it; entries that newly qualify are published (asynchronously),
 * entries that no longer do are revoked, and the call returns only when
 * every offload peer (itself included) has acknowledged the revocation.
 *
 * Initiator side: the progress thread files publications and processes
 * revocations, in stream order, into peer[owner].pub[]; the client thread
 * reads them lock-free (ptl_put.c).  The two threads meet on
 * x->busy (set by the client for the whole of a shortcut operation) and on
 * each entry's state, Dekker-style: the progress thread marks the entry
 * revoked, then issues membarrier() (a fence on every thread of the
 * process, so the client's hot path needs none; a plain fence where
 * membarrier is missing), then reads busy.  Either the client sees the
 * entry revoked and takes the matched path, or the progress thread sees it
 * busy and waits before acknowledging.
 */
#include <linux/membarrier.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ptl_ucx.h"

/* ---------------------------------------------------------------- owner side */
typedef struct {
  ptl_wctl_t w;
  void *region; /* the MD's registration (stp_ucx_region_t), whose key is published */
} pub_item_t;

typedef struct {
  pub_item_t *v;
  size_t n, cap;
} pub_vec_t;

static void vec_add(pub_vec_t *v, const pub_item_t *it) {
  if (v->n == v->cap) {
    size_t cap = v->cap ? 2 * v->cap : 8;
    pub_item_t *nv = realloc(v->v, cap * sizeof(*nv));
    if (!nv) return; /* not published / revoked later: see below */
    v->v = nv;
    v->cap = cap;
  }
  v->v[v->n++] = *it;
}

static void item_of(ptl_ni_t *ni, ptl_meo_t *me, int kind, pub_item_t *it) {
  memset(it, 0, sizeof(*it));
  it->w.kind = (uint32_t)kind;
  it->w.id = ptl_obj_handle(&ni->mes, me);
  it->w.src = ni->id.nid;
  if (kind != PTL_CTL_PUBLISH) return;
  it->w.bits = me->bits;
  it->w.mask = me->mask;
  it->w.match_id = me->match_id;
  it->w.pt = me->pt;
  it->w.options = me->md->d.options;
  it->w.base = (uint64_t)(uintptr_t)me->md->d.start;
  it->w.length = me->md->d.length;
  it->region = me->md->reg.region;
}

/* Send one control message to every offload peer, in stream order. */
static void ctl_broadcast(ptl_ni_t *ni, ptl_wctl_t *w, const void *rkey, size_t rkey_len) {
  ptl_x_t *x = ptl_x(ni);
  w->rkey_len = (uint32_t)rkey_len;
  for (int p = 0; p < ni->size; p++) {
    if (!x->peer[p].offload) continue;
    w->seq = ++x->peer[p].ctl_out;
    /* the stream is ordered: a lost message would stall every later one */
    if (ptl_am_send(ni, PTL_SIDE_APP, p, PTL_AM_CTL, w, sizeof(*w), rkey, rkey_len, NULL, NULL, NULL) == SEND_FAIL)
      ptl_die("a publication or revocation for rank %d could not be sent (see above)", p);
  }
}

static int offload_peers(ptl_ni_t *ni) {
  int n = 0;
  for (int p = 0; p < ni->size; p++) n += ptl_x(ni)->peer[p].offload;
  return n;
}

void ptl_pub_list_changed(ptl_ni_t *ni, ptl_pt_index_t pt, ptl_meo_t *gone) {
  ptl_x_t *x = ptl_x(ni);
  pub_vec_t rev = {0}, pub = {0};
  pub_item_t it;
  if (!x->publish) return;
  ptl_lock(ni);
  if (gone && gone->pub) {
    item_of(ni, gone, PTL_CTL_REVOKE, &it);
    vec_add(&rev, &it);
    gone->pub = PTL_PUB_NO;
  }
  for (ptl_meo_t *me = ni->pt[pt].head; me; me = me->next) {
    int want = ptl_me_publishable(me);
    if (me->pub == PTL_PUB_YES && !want) {
      size_t n = rev.n;
      item_of(ni, me, PTL_CTL_REVOKE, &it);
      vec_add(&rev, &it);
      if (rev.n > n) me->pub = PTL_PUB_NO; /* else: out of memory, stays published */
    } else if (me->pub == PTL_PUB_NO && want) {
      size_t n = pub.n;
      item_of(ni, me, PTL_CTL_PUBLISH, &it);
      vec_add(&pub, &it);
      if (pub.n > n) me->pub = PTL_PUB_YES;
    }
  }
  ptl_unlock(ni);

  if (rev.n) {
    atomic_fetch_add(&x->revoke_acks, (int)rev.n * offload_peers(ni));
    for (size_t i = 0; i < rev.n; i++) ctl_broadcast(ni, &rev.v[i].w, NULL, 0);
    for (unsigned spin = 0; atomic_load(&x->revoke_acks) > 0; spin++) {
      ucp_worker_progress(x->txw);
      if (spin % 64 == 63) sched_yield();
    }
    ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_REVOKED, rev.n);
    ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_PUBLISHED, -(ptl_sr_value_t)rev.n);
  }
  for (size_t i = 0; i < pub.n; i++) {
    stp_ucx_region_t *r = pub.v[i].region; /* its packed key is kept with it */
    if (!r || stp_ucx_region_rkey(&x->u, r) != UCS_OK) ctl_broadcast(ni, &pub.v[i].w, NULL, 0); /* peers file nothing */
    else ctl_broadcast(ni, &pub.v[i].w, r->rkey, r->rkey_len);
    ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_PUBLISHED, 1);
  }
  free(rev.v);
  free(pub.v);
}

/* ---------------------------------------------------------------- initiator: filing */
static void ctl_apply(ptl_ni_t *ni, const ptl_wctl_t *w, const void *rkey) {
  ptl_x_t *x = ptl_x(ni);
  ptl_peer_t *peer = &x->peer[w->src];
  if (w->kind == PTL_CTL_PUBLISH) {
    if (!w->rkey_len || !ptl_id_accepts(w->match_id, ni->id)) return; /* not for us */
    for (int i = 0; i < PTL_PUB_SLOTS; i++) {
      ptl_pubent_t *e = &peer->pub[i];
      if (atomic_load_explicit(&e->state, memory_order_acquire) != PUB_FREE) continue;
      if (!(e->rkey_buf = malloc(w->rkey_len))) return;
      memcpy(e->rkey_buf, rkey, w->rkey_len);
      e->rkey_len = w->rkey_len;
      e->rkey = NULL;
      e->id = w->id;
      e->pt = w->pt;
      e->options = w->options;
      e->bits = w->bits;
      e->mask = w->mask;
      e->base = w->base;
      e->length = w->length;
      atomic_store_explicit(&e->state, PUB_PENDING, memory_order_release);
      if (atomic_load(&peer->npub) <= i) atomic_store(&peer->npub, i + 1);
      return;
    }
    return; /* table full: this entry is simply matched the normal way */
  }
  /* revoke: after the exchange, a client that did not see it is busy */
  for (int i = 0; i < PTL_PUB_SLOTS; i++) {
    ptl_pubent_t *e = &peer->pub[i];
    int st = atomic_load(&e->state);
    if ((st == PUB_PENDING || st == PUB_VALID) && e->id == w->id) atomic_exchange(&e->state, PUB_REVOKED);
  }
  /* the client's busy flag is a plain store: make it visible (or make it
   * see the revocation) with a barrier on every thread of the process */
  if (x->asym) syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0);
  while (atomic_load(&x->busy)) sched_yield();
  ptl_lock(ni);
  ptl_op_t *op = ptl_op_get(ni, PTL_SIDE_RX);
  if (!op) ptl_die("no resources to acknowledge a revocation from rank %u", (unsigned)w->src); /* it would wait */
  op->req.src.nid = w->src;
  op->w.ctl = *w;
  op->w.ctl.src = ni->id.nid;
  switch (ptl_am_send(ni, PTL_SIDE_RX, (int)w->src, PTL_AM_CTL_ACK, &op->w.ctl, sizeof(op->w.ctl), NULL, 0, NULL, op,
                      NULL)) {
    case SEND_DONE: ptl_op_put(op); break;
    case SEND_FAIL: ptl_die("acknowledging a revocation to rank %u failed (see above)", (unsigned)w->src);
    default: break;
  }
  ptl_unlock(ni);
}

ucs_status_t ptl_pub_ctl_cb(void *arg, const void *header, size_t hlen, void *data, size_t len,
                            const ucp_am_recv_param_t *param) {
  ptl_ni_t *ni = arg;
  ptl_wctl_t w;
  ptl_peer_t *peer;
  ptl_ctlq_t *q, **pq;
  if ((param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) || !PTL_WIRE_TAKE(w, header, hlen, ni->size) ||
      len != w.rkey_len)
    return UCS_OK;
  peer = &ptl_x(ni)->peer[w.src];
  if (w.seq != peer->ctl_in + 1) { /* early: keep it for its turn */
    if ((q = malloc(sizeof(*q) + len))) {
      q->w = w;
      memcpy(q->rkey, data, len);
      q->next = peer->early;
      peer->early = q;
    }
    return UCS_OK;
  }
  ctl_apply(ni, &w, data);
  peer->ctl_in = w.seq;
  for (int again = 1; again;) {
    again = 0;
    for (pq = &peer->early; (q = *pq); pq = &q->next)
      if (q->w.seq == peer->ctl_in + 1) {
        *pq = q->next;
        ctl_apply(ni, &q->w, q->rkey);
        peer->ctl_in = q->w.seq;
        free(q);
        again = 1;
        break;
      }
  }
  return UCS_OK;
}

ucs_status_t ptl_pub_ctl_ack_cb(void *arg, const void *header, size_t hlen, void *data, size_t len,
                                const ucp_am_recv_param_t *param) {
  ptl_wctl_t w;
  (void)data, (void)len, (void)param;
  if (PTL_WIRE_TAKE(w, header, hlen, ((ptl_ni_t *)arg)->size)) atomic_fetch_sub(&ptl_x((ptl_ni_t *)arg)->revoke_acks, 1);
  return UCS_OK;
}

void ptl_pub_entry_clear(ptl_pubent_t *e) {
  if (e->rkey) ucp_rkey_destroy(e->rkey);
  free(e->rkey_buf);
  e->rkey = NULL;
  e->rkey_buf = NULL;
  atomic_store_explicit(&e->state, PUB_FREE, memory_order_release);
}

void ptl_pub_fini(ptl_ni_t *ni) {
  ptl_x_t *x = ptl_x(ni);
  for (int p = 0; p < ni->size; p++) {
    ptl_peer_t *peer = &x->peer[p];
    for (int i = 0; i < PTL_PUB_SLOTS; i++)
      if (atomic_load(&peer->pub[i].state) != PUB_FREE) ptl_pub_entry_clear(&peer->pub[i]);
    while (peer->early) {
      ptl_ctlq_t *q = peer->early;
      peer->early = q->next;
      free(q);
    }
  }
}
