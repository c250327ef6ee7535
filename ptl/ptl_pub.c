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
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptl_ucx.h"

/* ---------------------------------------------------------------- owner side */
typedef struct {
  ptl_wctl_t w;
  void *region;  /* the MD's registration (stp_ucx_region_t), whose key is published */
  void *region2; /* an event entry's: its EQ's shared part */
  ptl_eqo_t *xeq; /* revocation of a locally managed event entry: its reservation state */
  unsigned xslot1;
} pub_item_t;

typedef struct {
  pub_item_t *v;
  size_t n, cap;
} pub_vec_t;

/* A published ME freed on the rx side (its MD unlinked itself): revoked at
 * the next list change. */
typedef struct ptl_gone {
  struct ptl_gone *next;
  pub_item_t it;
  /* a lazy revocation (lock held): its acknowledgements awaited, and the
   * peers whose copy of it has not left yet (see lagging peers below) */
  int acks, unsent;
} ptl_gone_t;

/* what: for a revocation, why it must not be lost (no room for it is
 * fatal); NULL for a publication (no room: not published, its entry is
 * matched the normal way) */
static void vec_add(pub_vec_t *v, const pub_item_t *it, const char *what) {
  if (v->n == v->cap) {
    size_t cap = v->cap ? 2 * v->cap : 8;
    pub_item_t *nv = what ? ptl_alloc_or_die(v->v, cap * sizeof(*nv), "revoking a publication (%s)", what)
                          : realloc(v->v, cap * sizeof(*nv));
    if (!nv) return;
    v->v = nv;
    v->cap = cap;
  }
  v->v[v->n++] = *it;
}

static void item_of(ptl_ni_t *ni, ptl_meo_t *me, int kind, pub_item_t *it) {
  ptl_mdo_t *md = me->md;
  ptl_eqo_t *eq;
  memset(it, 0, sizeof(*it));
  it->w.kind = (uint32_t)kind;
  it->w.id = ptl_obj_handle(&ni->mes, me);
  it->w.src = ni->id.nid;
  it->xeq = me->xeq;
  it->xslot1 = me->xslot1;
  it->w.order = me->pub_order;
  if (kind != PTL_CTL_PUBLISH) return;
  it->w.after = me->pub_after;
  it->w.bits = me->bits;
  it->w.mask = me->mask;
  it->w.match_id = me->match_id;
  it->w.pt = me->pt;
  it->w.options = md->d.options;
  it->w.base = (uint64_t)(uintptr_t)md->d.start;
  it->w.length = md->d.length;
  it->region = md->reg.region;
  if (!(eq = ptl_md_eq(md)) || (md->ev_mask & ~(1u << PTL_EVENT_ACK)) == 0) return; /* event-free */
  it->w.flags = PTL_CTL_EVENTS;
  md->xev = 1; /* its unlinking waits for the consumer (ptl_md_unlink_now) */
  it->w.xslot1 = me->xslot1;
  it->w.max_size = md->d.max_size;
  it->w.ev_mask = md->ev_mask;
  it->w.md_handle = md->self;
  it->w.ring = (uint64_t)(uintptr_t)eq->sh;
  it->w.ring_mask = eq->mask;
  it->region2 = eq->region;
}

/* Control records go to a peer together: one UCX message carries all
 * that are due, in stream order (each keeps its own sequence number;
 * PTL_CTL_MORE says another follows).  A full request buffer's relinking
 * is a lazy revocation and a publication: one message, not two.
 *
 * Lagging peers.  A relinking concerns the peers that write into the
 * request buffers; every other peer would still pay a message, and its
 * progress thread a wake-up, for each (at 64 processes the relinkings of
 * a flood cost more than the flood).  So a peer whose acknowledgement
 * says it never used the revoked entry lags: its records wait in its own
 * batch and leave every PTL_LAG_ROUNDS-th round of changes (or at once
 * when a revocation is awaited, an EQ goes, or reservation states run
 * out), and a publication revoked lazily before it left is dropped with
 * its revocation -- the peer never knew it, so nothing of it is awaited
 * there, and what was published after it opens at once (it was full).
 * A lagging peer that writes into a published request buffer all the same
 * (matched at our NIC: it lacked the entry), or acknowledges having used
 * one, is a writer again.  The period is PTL_LAG_ROUNDS, or the number of
 * offload peers where that is larger: a round that reaches the lagging
 * peers sends about one message to each, and wakes each one's progress
 * thread, which acknowledges -- so they cost about one message per change,
 * whatever the job's size.  (At 64 processes, an AM flood under dynamic
 * credits, whose request buffers relink every few hundred messages, ran at
 * 0.36-0.47 of static credits' rate with every 8th round, 0.51-0.66 with
 * every 64th: issue 32 item 7.)  x->lag_rounds, set at PtlNIInit. */

typedef struct {
  ptl_wctl_t w;
  char *keys;    /* w.rkey_len bytes (owned) */
  ptl_gone_t *g; /* a lazy revocation: its item (on x->lazy) */
} ctl_rec_t;

typedef struct ptl_ctlbatch {
  ctl_rec_t *v;
  size_t n, cap;
} ctl_batch_t;

static ctl_rec_t *batch_add(ctl_batch_t *b, const ptl_wctl_t *w, const void *k1, size_t l1, const void *k2,
                            size_t l2) {
  ctl_rec_t *r;
  if (b->n == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 8;
    b->v = ptl_alloc_or_die(b->v, b->cap * sizeof(*b->v), "a publication or revocation (its stream would stall)");
  }
  r = &b->v[b->n++];
  r->w = *w;
  r->g = NULL;
  if (!(r->keys = l1 + l2 ? malloc(l1 + l2) : NULL)) l1 = l2 = 0; /* (a publication without keys: peers file nothing) */
  r->w.rkey_len = (uint32_t)(l1 + l2);
  if (l1) memcpy(r->keys, k1, l1);
  if (l2) memcpy(r->keys + l1, k2, l2);
  return r;
}

static void batch_clear(ctl_batch_t *b) {
  for (size_t i = 0; i < b->n; i++) free(b->v[i].keys);
  b->n = 0;
}

static void batch_free(ctl_batch_t *b) {
  batch_clear(b);
  free(b->v);
  memset(b, 0, sizeof(*b));
}

/* Lock held.  Record r for peer p's batch b: a lazy revocation of a
 * publication still waiting there drops both (see lagging peers); else it
 * waits for its turn to leave. */
static void batch_queue(ctl_batch_t *b, const ctl_rec_t *r) {
  if (r->g) {
    for (size_t i = 0; i < b->n; i++) {
      if (b->v[i].w.kind != PTL_CTL_PUBLISH || b->v[i].w.id != r->w.id) continue;
      free(b->v[i].keys);
      memmove(&b->v[i], &b->v[i + 1], (b->n - i - 1) * sizeof(*b->v));
      b->n--;
      for (size_t k = 0; k < b->n; k++) /* what it was published after: it was full */
        if (b->v[k].w.kind == PTL_CTL_PUBLISH && b->v[k].w.after == r->w.order) b->v[k].w.after = 0;
      return;
    }
    r->g->unsent++;
  }
  batch_add(b, &r->w, r->keys, r->w.rkey_len, NULL, 0)->g = r->g;
}

/* Send peer p's batch b, which empties.  The owner does not wait: the
 * message goes from the main worker, whose progress thread completes it (a
 * client must not wait here for 63 peers' receive queues, nor leave sends
 * behind that only its own progress would finish), with the header and the
 * payload in its op.  To itself it goes the client's way (UCX would run
 * the handler inside the send, on this thread). */
static void batch_send(ptl_ni_t *ni, int p, ctl_batch_t *b) {
  ptl_x_t *x = ptl_x(ni);
  ptl_xop_t *op;
  char *pay, *at;
  size_t bytes = 0;
  int rc;
  if (!b->n) return;
  for (size_t i = 0; i < b->n; i++) bytes += (i ? sizeof(ptl_wctl_t) : 0) + b->v[i].w.rkey_len;
  ptl_lock(ni); /* (filled under it: the progress thread completes it) */
  op = ptl_op_get(ni, PTL_SIDE_RX);
  if (!op) ptl_die("no resources to send a publication or revocation to rank %d (its ordered stream would stall)", p);
  for (size_t i = 0; i < b->n; i++)
    if (b->v[i].g) { /* (before it leaves: the acknowledgement may come at once) */
      b->v[i].g->unsent--;
      b->v[i].g->acks++;
    }
  op->kind = OPK_CTL; /* (the payload goes with the op) */
  op->req.src.nid = (ptl_nid_t)p;
  op->bounce = pay = bytes ? ptl_alloc_or_die(NULL, bytes, "sending a publication to rank %d", p) : NULL;
  at = pay;
  for (size_t i = 0; i < b->n; i++) {
    ptl_wctl_t w = b->v[i].w;
    w.seq = ++x->peer[p].ctl_out;
    w.flags = (w.flags & ~(uint32_t)PTL_CTL_MORE) | (i + 1 < b->n ? PTL_CTL_MORE : 0);
    if (!i) {
      op->w.ctl = w;
    } else { /* (unaligned in the payload: copied, here and there) */
      memcpy(at, &w, sizeof(w));
      at += sizeof(w);
    }
    if (w.rkey_len) memcpy(at, b->v[i].keys, w.rkey_len);
    at += w.rkey_len;
  }
  ptl_unlock(ni);
  batch_clear(b);
  /* the stream is ordered (a lost message would stall every later one) and eager: it arrives whole */
  if (p == (int)ni->id.nid) {
    rc = ptl_am_send(ni, PTL_SIDE_APP, p, PTL_AM_CTL | PTL_AM_EAGER, &op->w.ctl, sizeof(op->w.ctl), pay, bytes, NULL,
                     NULL, NULL);
  } else { /* (not under the lock: the progress thread holds the worker's while its handlers take ours) */
    rc = ptl_am_send(ni, PTL_SIDE_RX, p, PTL_AM_CTL | PTL_AM_EAGER, &op->w.ctl, sizeof(op->w.ctl), pay, bytes, NULL,
                     op, NULL);
  }
  if (rc == SEND_FAIL) ptl_die("a publication or revocation for rank %d could not be sent (see above)", p);
  if (rc == SEND_DONE) {
    ptl_lock(ni);
    ptl_op_put(op);
    ptl_unlock(ni);
  }
}

/* This round's records b to every offload peer: now to the writers (and
 * to all when `all`), into their batches for the lagging. */
static void ctl_send(ptl_ni_t *ni, ctl_batch_t *b, int all) {
  ptl_x_t *x = ptl_x(ni);
  if (!b->n && !all) return;
  for (int p = 0; p < ni->size; p++) {
    ptl_peer_t *peer = &x->peer[p];
    int use = atomic_exchange_explicit(&peer->use, 0, memory_order_relaxed);
    if (!peer->offload) continue;
    /* (a use seen since the last look wins: acknowledgements of revoked
     * entries it never had -- while it lagged -- would otherwise keep a
     * peer that writes into our request buffers lagging for ever) */
    if (use) peer->lagging = !(use & PTL_USE_YES) && p != (int)ni->id.nid;
    if (!b->n && !(all && peer->pend && peer->pend->n)) continue;
    if (!peer->pend && !(peer->pend = calloc(1, sizeof(*peer->pend))))
      ptl_die("no memory for a publication or revocation for rank %d (its ordered stream would stall)", p);
    ptl_lock(ni);
    for (size_t i = 0; i < b->n; i++) batch_queue(peer->pend, &b->v[i]);
    ptl_unlock(ni);
    if (all || !peer->lagging) batch_send(ni, p, peer->pend);
    else ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_CTL_LAGGED, (ptl_sr_value_t)b->n);
  }
}

/* A publication with its keys (none: peers file nothing), into b. */
static void publish(ptl_ni_t *ni, pub_item_t *it, ctl_batch_t *b) {
  ptl_x_t *x = ptl_x(ni);
  stp_ucx_region_t *r = it->region, *r2 = it->region2;
  if (!r || stp_ucx_region_rkey(&x->u, r) != UCS_OK) {
    batch_add(b, &it->w, NULL, 0, NULL, 0);
  } else if (!(it->w.flags & PTL_CTL_EVENTS)) {
    batch_add(b, &it->w, r->rkey, r->rkey_len, NULL, 0);
  } else if (!r2 || stp_ucx_region_rkey(&x->u, r2) != UCS_OK) {
    batch_add(b, &it->w, NULL, 0, NULL, 0);
  } else {
    it->w.rkey2_len = (uint32_t)r2->rkey_len;
    batch_add(b, &it->w, r->rkey, r->rkey_len, r2->rkey, r2->rkey_len);
  }
}

static int offload_peers(ptl_ni_t *ni) {
  int n = 0;
  for (int p = 0; p < ni->size; p++) n += ptl_x(ni)->peer[p].offload;
  return n;
}

static void watch_drop(ptl_x_t *x, const ptl_mdo_t *md) {
  int n = atomic_load_explicit(&x->nxmd, memory_order_relaxed);
  for (int i = 0; i < n; i++)
    if (x->xmds[i] == md) {
      x->xmds[i] = x->xmds[n - 1];
      atomic_store_explicit(&x->nxmd, n - 1, memory_order_relaxed);
      return;
    }
}

/* Lock held.  A locally managed event entry about to be published: its
 * running offset moves to a reservation state in its EQ's shared part, and
 * the progress thread watches it.  0: none free (not published). */
static int xmd_take(ptl_ni_t *ni, ptl_meo_t *me) {
  ptl_x_t *x = ptl_x(ni);
  ptl_mdo_t *md = me->md;
  ptl_eqo_t *eq = ptl_md_eq(md);
  int n = atomic_load_explicit(&x->nxmd, memory_order_relaxed);
  if (!eq || n == PTL_XMD_WATCH) return 0;
  for (unsigned i = 0; i < PTL_XMD_PER_EQ; i++) {
    ptl_xmd_t *xm = &eq->sh->xmd[i];
    if (eq->xmd_busy[i]) continue;
    eq->xmd_busy[i] = 1;
    atomic_store_explicit(&xm->word, md->loffset, memory_order_relaxed);
    atomic_store_explicit(&xm->done, 0, memory_order_relaxed);
    atomic_store_explicit(&xm->final, 0, memory_order_release);
    md->xmd = xm;
    me->xeq = eq;
    me->xslot1 = i + 1;
    x->xmds[n] = md;
    atomic_store_explicit(&x->nxmd, n + 1, memory_order_relaxed);
    return 1;
  }
  return 0;
}

/* Lock held: a full request buffer whose operations have all ended goes,
 * its UNLINK event first. */
static void xmd_unlink(ptl_ni_t *ni, ptl_mdo_t *md, int side) {
  ptl_evinfo_t in = {ni->id, md->me ? md->me->pt : 0, 0, 0, 0, 0, 0, 0, PTL_NI_OK};
  ptl_md_event(ni, md, PTL_EVENT_UNLINK, &in, side);
  ptl_md_unlink_now(ni, md);
}

/* Lock held, the entry's revocation done: nothing writes its reservation
 * state any more.  An MD still there takes its running offset back. */
static void xmd_release(ptl_ni_t *ni, const pub_item_t *it) {
  ptl_eqo_t *eq = it->xeq;
  ptl_meo_t *me = ptl_pool_get(&ni->mes, it->w.id);
  ptl_mdo_t *md;
  ptl_xmd_t *xm;
  if (!eq || !it->xslot1) return;
  xm = &eq->sh->xmd[it->xslot1 - 1];
  if (me && me->xslot1 == it->xslot1 && me->xeq == eq && (md = me->md) && md->xmd == xm) {
    int drained = ptl_xmd_drained(xm); /* (a re-armed buffer's DRAINED posted by then: ptl_xmd_end) */
    watch_drop(ptl_x(ni), md);
    md->loffset = atomic_load(&xm->word) & PTL_XMD_OFF_MASK;
    md->xmd = NULL;
    if (atomic_load(&xm->final) && !md->inactive) ptl_md_deactivate(md);
    if (drained) md->drain_owed = 0;
    if (md->unlink_pending && !md->pending) /* filled by one-sided appends, and nothing else is pending */
      xmd_unlink(ni, md, PTL_SIDE_APP);
    ptl_md_drain_check(ni, md, PTL_SIDE_APP);
  }
  if (me && me->xeq == eq && me->xslot1 == it->xslot1) {
    me->xeq = NULL;
    me->xslot1 = 0;
  }
  eq->xmd_busy[it->xslot1 - 1] = 0;
}

void ptl_pub_md_gone(ptl_ni_t *ni, ptl_mdo_t *md) {
  ptl_x_t *x = ptl_x(ni);
  ptl_meo_t *me = md->me;
  ptl_gone_t *g;
  if (md->xmd) watch_drop(x, md);
  md->xmd = NULL;
  if (x->closing) return; /* PtlNIFini: nobody left to tell */
  if (!me || !me->pub || me->unlink != PTL_UNLINK) return; /* (an ME that stays is revoked by the next walk) */
  g = ptl_alloc_or_die(NULL, sizeof(*g), "revoking a publication (peers would keep writing into an unlinked entry)");
  item_of(ni, me, PTL_CTL_REVOKE, &g->it);
  g->next = x->gone;
  x->gone = g;
  me->pub = PTL_PUB_NO;
  me->xeq = NULL;
  me->xslot1 = 0;
}

/* Lock held: lazily revoked entries that every peer has acknowledged give
 * their reservation states back (wait: until those of a dying EQ have --
 * every copy of theirs has left by then). */
static void lazy_release(ptl_ni_t *ni, int wait) {
  ptl_x_t *x = ptl_x(ni);
  for (;;) {
    int due = 0;
    for (ptl_gone_t **l = &x->lazy, *g; (g = *l);) {
      if (g->acks || g->unsent) {
        due |= g->it.xeq->dying;
        l = &g->next;
        continue;
      }
      *l = g->next;
      xmd_release(ni, &g->it);
      free(g);
    }
    if (!wait || !due) return;
    ptl_unlock(ni);
    for (int spin = 0; spin < 64; spin++) ptl_tx_progress(ni);
    sched_yield();
    ptl_lock(ni);
  }
}

void ptl_pub_list_changed(ptl_ni_t *ni, ptl_pt_index_t pt, ptl_meo_t *gone) {
  ptl_x_t *x = ptl_x(ni);
  ptl_gone_t *lazy = NULL;
  int dying = 0, urgent = 0, starved = 0; /* starved: no reservation state for a publication (lagging peers hold some) */
  pub_vec_t rev = {0}, pub = {0};
  ctl_batch_t batch = {0};
  pub_item_t it;
  if (!x->publish) return;
  ptl_tx_enter(x);
  ptl_lock(ni);
  lazy_release(ni, 0);
  while (x->gone) { /* freed by the rx side: revoke now */
    ptl_gone_t *g = x->gone;
    x->gone = g->next;
    if (g->it.xslot1) { /* a full request buffer: nothing can write it, its state waits */
      g->it.w.flags |= PTL_CTL_LAZY;
      g->next = lazy;
      lazy = g;
      continue;
    }
    vec_add(&rev, &g->it, "peers would keep writing into an unlinked entry");
    free(g);
  }
  if (gone && gone->pub) {
    item_of(ni, gone, PTL_CTL_REVOKE, &it);
    vec_add(&rev, &it, "peers would keep writing into an unlinked entry");
    gone->pub = PTL_PUB_NO;
  }
  for (ptl_meo_t *me = ni->pt[pt].head; me; me = me->next) {
    uint64_t after;
    int want = ptl_me_publishable(me, &after);
    /* published after a request buffer, it may stay so while that one is the nearest before it still taking
     * messages, or once none is (the initiators open it when they see that one full) */
    if (me->pub == PTL_PUB_YES && want && after && after != me->pub_after) {
      /* (a re-armed buffer's place is its order, which the initiators read in its reservation state) */
      if (me->md->d.options & PTLX_MD_REARM) me->pub_after = after;
      else want = 0;
    }
    if (me->pub == PTL_PUB_YES && !want && me->md && me->md->xmd && atomic_load(&me->md->xmd->final)) {
      /* a full request buffer: revoked lazily, as above -- when its MD goes with its ME (ptl_pub_md_gone), which
       * is when its owner relinks it, so that the revocation and the new publication share one message; the
       * initiators need nothing meanwhile (each opens what follows a full one when it sees it full) */
      if (me->md->unlink_pending && me->unlink == PTL_UNLINK) continue;
      ptl_gone_t *g = ptl_alloc_or_die(NULL, sizeof(*g), "revoking a full request buffer's publication");
      item_of(ni, me, PTL_CTL_REVOKE, &g->it);
      g->it.w.flags |= PTL_CTL_LAZY;
      g->next = lazy;
      lazy = g;
      me->pub = PTL_PUB_NO;
    } else if (me->pub == PTL_PUB_YES && !want) {
      item_of(ni, me, PTL_CTL_REVOKE, &it);
      vec_add(&rev, &it, "peers would go on using an entry that no longer qualifies");
      me->pub = PTL_PUB_NO;
    } else if (me->pub == PTL_PUB_NO && want && !me->xslot1) {
      size_t n = pub.n;
      if (!(me->md->d.options & PTL_MD_MANAGE_REMOTE) && !xmd_take(ni, me)) {
        starved = 1;
        continue;
      }
      me->pub_order = ++x->pub_order;
      me->pub_after = after;
      if (me->md->xmd) {
        atomic_store_explicit(&me->md->xmd->order, me->pub_order, memory_order_relaxed);
        atomic_store_explicit(&me->md->xmd->after_id, 0, memory_order_relaxed); /* (its publication's `after`) */
      }
      item_of(ni, me, PTL_CTL_PUBLISH, &it);
      vec_add(&pub, &it, NULL);
      if (pub.n > n) me->pub = PTL_PUB_YES;
    }
  }

  /* the lazy revocations, the revocations, the publications, in that order;
   * lazy items are on x->lazy before any of theirs leaves */
  for (ptl_gone_t *g = lazy, *next; g; g = next) {
    next = g->next;
    batch_add(&batch, &g->it.w, NULL, 0, NULL, 0)->g = g;
    g->acks = 0;
    g->unsent = 1; /* (held until every peer has its copy or its place in a batch) */
    g->next = x->lazy;
    x->lazy = g;
    ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_REVOKED, 1);
    ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_PUBLISHED, -1);
  }
  for (ptl_gone_t *g = x->lazy; g; g = g->next) dying |= g->it.xeq->dying;
  ptl_unlock(ni);
  if (rev.n) atomic_fetch_add(&x->revoke_acks, (int)rev.n * offload_peers(ni));
  for (size_t i = 0; i < rev.n; i++) batch_add(&batch, &rev.v[i].w, NULL, 0, NULL, 0);
  for (size_t i = 0; i < pub.n; i++) {
    publish(ni, &pub.v[i], &batch);
    /* only relinked request buffers' records wait for lagging peers (a re-armed one is published once: no
     * later round would take it to them) */
    urgent |= !pub.v[i].w.xslot1 || (pub.v[i].w.options & PTLX_MD_REARM);
    ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_PUBLISHED, 1);
  }
  if (batch.n) x->ctl_rounds++;
  ctl_send(ni, &batch, rev.n || urgent || dying || starved || (batch.n && x->ctl_rounds % x->lag_rounds == 0));
  if (starved) atomic_fetch_or(&x->starved, 1ull << pt); /* (walked again when an acknowledgement frees a state) */
  ptl_lock(ni);
  for (size_t i = 0; i < batch.n; i++)
    if (batch.v[i].g) batch.v[i].g->unsent--;
  ptl_unlock(ni);
  batch_free(&batch);
  if (dying) { /* an EQ goes: every reservation state in it must be free */
    ptl_lock(ni);
    lazy_release(ni, 1);
    ptl_unlock(ni);
  }
  if (rev.n) {
    for (unsigned spin = 0; atomic_load(&x->revoke_acks) > 0; spin++) {
      ptl_tx_progress(ni); /* (this process's own acknowledgement may wait for its late flushes) */
      if (spin % 64 == 63) sched_yield();
    }
    ptl_lock(ni);
    for (size_t i = 0; i < rev.n; i++) xmd_release(ni, &rev.v[i]);
    ptl_unlock(ni);
    ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_REVOKED, rev.n);
    ptl_stat(ni, PTL_SIDE_APP, PTLX_SR_PUBLISHED, -(ptl_sr_value_t)rev.n);
  }
  free(rev.v);
  free(pub.v);
  ptl_tx_leave(x);
}

/* Lock held (PtlXMERearm): a published re-armed buffer, moved, is last in
 * the publication order -- where a relinked one would be published --
 * without a message: the initiators read its order in its reservation
 * state, before its emptied word (ptl_xmd_t). */
void ptl_pub_me_rearmed(ptl_ni_t *ni, ptl_meo_t *me) {
  uint64_t after;
  if (me->pub != PTL_PUB_YES || !me->md || !me->md->xmd) return;
  uint64_t id = 0;
  me->pub_order = ++ptl_x(ni)->pub_order;
  if (ptl_me_publishable(me, &after)) me->pub_after = after;
  for (const ptl_meo_t *y = me->prev; after && y && !id; y = y->prev)
    if (y->pub == PTL_PUB_YES && y->pub_order == after) id = ptl_obj_handle(&ni->mes, y);
  atomic_store_explicit(&me->md->xmd->after_id, id, memory_order_relaxed);
  atomic_store_explicit(&me->md->xmd->order, me->pub_order, memory_order_relaxed);
}

/* The progress thread: locally managed event entries that one-sided
 * appends made inactive -- deactivate them (and have the app side revoke
 * them), and unlink them with their UNLINK event once every append has
 * ended. */
void ptl_pub_poll(ptl_ni_t *ni) {
  ptl_x_t *x = ptl_x(ni);
  if (!atomic_load_explicit(&x->nxmd, memory_order_relaxed)) return;
  ptl_lock(ni);
  for (int i = 0; i < atomic_load_explicit(&x->nxmd, memory_order_relaxed); i++) {
    ptl_mdo_t *md = x->xmds[i];
    /* (a re-armed buffer: the operation that drains it posts its DRAINED, and PtlXMERearm empties it) */
    if (!atomic_load_explicit(&md->xmd->final, memory_order_acquire) || (md->inactive && !md->unlink_pending) ||
        (md->d.options & PTLX_MD_REARM))
      continue;
    if (!md->inactive) {
      ptl_md_deactivate(md);
      if (md->me) atomic_fetch_or_explicit(&ni->pub_dirty, 1ull << md->me->pt, memory_order_relaxed);
    }
    if (md->unlink_pending && !md->pending && ptl_xmd_drained(md->xmd)) {
      xmd_unlink(ni, md, PTL_SIDE_RX); /* (drops it from xmds: ptl_pub_md_gone) */
      i = -1;                    /* the array moved: again from the start */
    }
  }
  ptl_unlock(ni);
}

ucs_status_t ptl_pub_wake_cb(void *arg, const void *header, size_t hlen, void *data, size_t len,
                             const ucp_am_recv_param_t *param) {
  ptl_ni_t *ni = arg;
  (void)header, (void)hlen, (void)data, (void)len, (void)param;
  ptl_pub_poll(ni); /* an MD one-sided appends filled may be due for unlinking */
  atomic_fetch_add(&ni->posted, 1);
  if (ni->hooks->wake && atomic_load(&ni->sleepers)) ni->hooks->wake(ni);
  return UCS_OK;
}

/* ---------------------------------------------------------------- initiator: filing */
/* Rx side: tell rank w->src its revocation is done here, and whether the
 * entry was in use here (see lagging peers). */
static void ctl_ack(ptl_ni_t *ni, const ptl_wctl_t *w, int used) {
  ptl_lock(ni);
  ptl_xop_t *op = ptl_op_get(ni, PTL_SIDE_RX);
  if (!op) ptl_die("no resources to acknowledge a revocation from rank %u", (unsigned)w->src); /* it would wait */
  op->req.src.nid = w->src;
  op->w.ctl = *w;
  op->w.ctl.src = ni->id.nid;
  op->w.ctl.flags = (w->flags & ~(uint32_t)PTL_CTL_MORE) | (used ? PTL_CTL_USED : 0);
  switch (ptl_am_send(ni, PTL_SIDE_RX, (int)w->src, PTL_AM_CTL_ACK, &op->w.ctl, sizeof(op->w.ctl), NULL, 0, NULL, op,
                      NULL)) {
    case SEND_DONE: ptl_op_put(op); break;
    case SEND_FAIL: ptl_die("acknowledging a revocation to rank %u failed (see above)", (unsigned)w->src);
    default: break;
  }
  ptl_unlock(ni);
}

/* A revoked entry's slot is cleared by one thread: the client as it walks
 * the table, or the rx side when a publication finds no free slot. */
static int entry_claim(ptl_pubent_t *e) {
  int st = PUB_REVOKED;
  return atomic_compare_exchange_strong(&e->state, &st, PUB_CLEARING);
}

/* Client thread (it owns txw, whose worker its keys come from): the keys
 * of slots the rx side took back, destroyed. */
static void dead_lock(ptl_x_t *x) {
  while (atomic_flag_test_and_set_explicit(&x->dead_lock, memory_order_acquire)) sched_yield();
}
static void dead_unlock(ptl_x_t *x) { atomic_flag_clear_explicit(&x->dead_lock, memory_order_release); }
static void dead_reap(ptl_x_t *x) {
  if (!atomic_load_explicit(&x->ndead, memory_order_relaxed)) return;
  dead_lock(x);
  for (int i = 0; i < atomic_load_explicit(&x->ndead, memory_order_relaxed); i++) ucp_rkey_destroy(x->dead[i]);
  atomic_store_explicit(&x->ndead, 0, memory_order_relaxed);
  dead_unlock(x);
}

static void entry_reset(ptl_pubent_t *e) {
  if (e->rkc1) atomic_fetch_sub(&e->rkc1->refs, 1);
  if (e->rkc2) atomic_fetch_sub(&e->rkc2->refs, 1);
  e->rkc1 = e->rkc2 = NULL;
  e->rkey2 = NULL;
  e->lbase = NULL;
  e->lsh = NULL;
  free(e->rkey_buf);
  e->rkey = NULL;
  e->rkey_buf = NULL;
}

void ptl_pub_entry_clear(ptl_x_t *x, ptl_pubent_t *e) {
  if (atomic_load(&e->state) == PUB_REVOKED && !entry_claim(e)) return; /* the rx side has it */
  if (e->rkey && !e->rkc1) ucp_rkey_destroy(e->rkey);
  entry_reset(e);
  atomic_store_explicit(&e->state, PUB_FREE, memory_order_release);
  dead_reap(x);
}

/* Rx side, a publication from peer and no free slot: a revoked one taken
 * back, once no shortcut operation can be reading it -- after a barrier
 * the client is either out of them (and sees every revocation marked so
 * far) or busy, and then nothing is taken.  (Slots of a peer this process
 * does not write to are never walked by the client: without this its
 * table filled with revoked entries and every later publication of that
 * peer was dropped, its entries matched for ever.)  Its slot, or NULL. */
static ptl_pubent_t *entry_take_back(ptl_x_t *x, ptl_peer_t *peer) {
  ptl_pubent_t *e = NULL;
  int any = 0;
  for (int i = 0; i < PTL_PUB_SLOTS && !any; i++) any = atomic_load(&peer->pub[i].state) == PUB_REVOKED;
  if (!any) return NULL; /* (every slot in use: no barrier) */
  ptl_fence_client(x);
  if (atomic_load(&x->busy)) return NULL;
  for (int i = 0; i < PTL_PUB_SLOTS && !e; i++)
    if (atomic_load(&peer->pub[i].state) == PUB_REVOKED && entry_claim(&peer->pub[i])) e = &peer->pub[i];
  if (!e) return NULL;
  if (e->rkey && !e->rkc1) { /* (its worker is the client's: destroyed there) */
    dead_lock(x);
    int n = atomic_load_explicit(&x->ndead, memory_order_relaxed);
    if (n == x->dead_cap) {
      x->dead_cap = x->dead_cap ? 2 * x->dead_cap : 16;
      x->dead = ptl_alloc_or_die(x->dead, (size_t)x->dead_cap * sizeof(*x->dead), "taking back a revoked entry's slot");
    }
    x->dead[n] = e->rkey;
    atomic_store_explicit(&x->ndead, n + 1, memory_order_relaxed);
    dead_unlock(x);
  }
  entry_reset(e);
  return e;
}

/* Rx side: publication w of peer (its keys rkey) filed in a free slot, or
 * one taken back; 0 if there is none now. */
static int entry_file(ptl_x_t *x, ptl_peer_t *peer, const ptl_wctl_t *w, const void *rkey) {
  ptl_pubent_t *e = NULL;
  int i;
  for (i = 0; i < PTL_PUB_SLOTS && !e; i++)
    if (atomic_load_explicit(&peer->pub[i].state, memory_order_acquire) == PUB_FREE) e = &peer->pub[i];
  if (!e && !(e = entry_take_back(x, peer))) return 0;
  i = (int)(e - peer->pub);
  e->rkey_buf = ptl_alloc_or_die(NULL, w->rkey_len, "filing a publication from rank %u", (unsigned)w->src);
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
  e->xev = (w->flags & PTL_CTL_EVENTS) && w->rkey2_len < w->rkey_len;
  e->order = e->cur = w->order;
  e->after = w->after;
  atomic_store_explicit(&e->open, !w->after, memory_order_relaxed);
  if (e->xev) {
    e->max_size = w->max_size;
    e->ev_mask = w->ev_mask;
    e->md_handle = w->md_handle;
    e->ring = w->ring;
    e->ring_mask = w->ring_mask;
    e->xslot1 = w->xslot1 <= PTL_XMD_PER_EQ ? w->xslot1 : 0;
    e->rkey2_len = w->rkey2_len;
  }
  atomic_store_explicit(&e->state, PUB_PENDING, memory_order_release);
  if (atomic_load(&peer->npub) <= i) atomic_store(&peer->npub, i + 1);
  return 1;
}

/* Rx side (main token held): publications that found no slot, filed now
 * if they can be, in their order (ptl_pub_refile: the progress thread's
 * rounds, and the client between its operations, when nothing is busy). */
static void unfiled_retry(ptl_x_t *x, ptl_peer_t *peer) {
  while (peer->unfiled && entry_file(x, peer, &peer->unfiled->w, peer->unfiled->rkey)) {
    ptl_ctlq_t *q = peer->unfiled;
    peer->unfiled = q->next;
    free(q);
  }
  if (!peer->unfiled) atomic_fetch_sub(&x->unfiled, 1);
}

void ptl_pub_refile(ptl_ni_t *ni) {
  ptl_x_t *x = ptl_x(ni);
  if (!ptl_main_take(x)) return;
  for (int p = 0; p < ni->size && atomic_load(&x->unfiled); p++)
    if (x->peer[p].unfiled) unfiled_retry(x, &x->peer[p]);
  ptl_main_give(x);
}

static void ctl_apply(ptl_ni_t *ni, const ptl_wctl_t *w, const void *rkey) {
  ptl_x_t *x = ptl_x(ni);
  ptl_peer_t *peer = &x->peer[w->src];
  if (w->kind == PTL_CTL_PUBLISH) { /* (checked as it arrived: ctl_check) */
    ptl_ctlq_t *q, **pq;
    if (!w->rkey_len || !ptl_id_accepts(w->match_id, ni->id)) return; /* not for us */
    if (!peer->unfiled && entry_file(x, peer, w, rkey)) return;
    /* every slot in use, the client busy: kept, in order, and filed when it can be (never dropped: a request
     * buffer's publication lost would leave the one after it closed, and its entry matched for ever) */
    q = ptl_alloc_or_die(NULL, sizeof(*q) + w->rkey_len, "keeping a publication from rank %u", (unsigned)w->src);
    q->w = *w;
    q->next = NULL;
    memcpy(q->rkey, rkey, w->rkey_len);
    for (pq = &peer->unfiled; *pq;) pq = &(*pq)->next;
    if (!peer->unfiled) atomic_fetch_add(&x->unfiled, 1);
    *pq = q;
    ptl_stat(ni, PTL_SIDE_RX, PTLX_SR_PUB_UNFILED, 1);
    return;
  }
  for (ptl_ctlq_t **pq = &peer->unfiled, *q; (q = *pq);) { /* revoked before it was filed: gone, unused */
    if (q->w.id == w->id) {
      *pq = q->next;
      free(q);
      if (!peer->unfiled) atomic_fetch_sub(&x->unfiled, 1);
      continue;
    }
    if ((w->flags & PTL_CTL_LAZY) && q->w.after == w->order) q->w.after = 0; /* (as ptl_pub_open_after) */
    pq = &q->next;
  }
  /* revoke: after the exchange, a client that did not see it is busy --
   * if it was in use: one that was never used (PENDING) cannot be any more
   * (the client's PENDING->VALID fails), so it is acknowledged at once */
  int used = 0;
  for (int i = 0; i < PTL_PUB_SLOTS; i++) {
    ptl_pubent_t *e = &peer->pub[i];
    int st = atomic_load(&e->state);
    if ((st == PUB_PENDING || st == PUB_VALID) && e->id == w->id)
      used |= atomic_exchange(&e->state, PUB_REVOKED) == PUB_VALID;
  }
  if (w->flags & PTL_CTL_LAZY) ptl_pub_open_after(peer, w->order); /* a full request buffer: what follows it opens */
  if (!used) {
    ctl_ack(ni, w, 0);
    return;
  }
  /* acknowledged by ptl_pub_acks, after one barrier for every revocation
   * marked since the last (a relinked request buffer is revoked at every
   * peer: one system call each time would cost more than the messages) */
  ptl_ctlq_t *q = ptl_alloc_or_die(NULL, sizeof(*q), "acknowledging a revocation from rank %u (it would wait for ever)",
                                   (unsigned)w->src);
  q->w = *w;
  q->next = x->acks_owed;
  x->acks_owed = q;
  x->unfenced = 1;
  atomic_store(&x->acks_pending, 1);
}

/* Acknowledgements owed, sent once no shortcut operation of the client
 * may have read an entry before its revocation.  From the progress thread
 * (client 0): the client's busy flag is a plain store: the marks made
 * since the last look are made visible to it (or its flag to us) by a
 * barrier on every thread of the process; after that barrier a shortcut
 * operation either sees the marks or is busy now, so later looks need no
 * new barrier; never waits for the client (its operation may wait for this
 * thread).  From the client thread itself, between its operations (client
 * 1: ptl_xport.c lends the main worker a hand): it is not busy, and the
 * main token orders the marks before its next operation, so no barrier --
 * only its own Puts whose flush is still in flight keep the
 * acknowledgements back.  (The client must not leave them to the progress
 * thread alone: on a host with more threads than cores that thread runs
 * when the client is descheduled -- often inside a shortcut operation --
 * and a request buffer relinked every few round trips ran out of
 * reservation states while its acknowledgements waited: a 4 KiB AM Medium
 * round trip took the matched path nine times in ten, twice as slow.) */
void ptl_pub_acks(ptl_ni_t *ni, int client) {
  ptl_x_t *x = ptl_x(ni);
  int ok;
  if (!ptl_main_take(x)) return;
  if (client) {
    ok = !atomic_load_explicit(&x->busy, memory_order_relaxed) && !atomic_load(&x->unflushed);
  } else {
    if (x->unfenced) ptl_fence_client(x);
    x->unfenced = 0;
    /* (a late flush counted before busy cleared: seen here if busy is) */
    ok = !atomic_load(&x->busy) && ptl_tx_rescue(ni);
  }
  if (ok) {
    x->unfenced = 0;
    atomic_store(&x->acks_pending, 0);
    while (x->acks_owed) {
      ptl_ctlq_t *q = x->acks_owed;
      x->acks_owed = q->next;
      ctl_ack(ni, &q->w, 1);
      free(q);
    }
  }
  ptl_main_give(x);
}

/* A control message as it arrives (its header taken, its sender bounded):
 * one that does not hold together is fatal, as is one this process has no
 * room to keep for its turn -- dropped, it would stall its sender's
 * ordered stream for ever (and with it an owner waiting for a revocation's
 * acknowledgement). */
static void ctl_check(const ptl_peer_t *peer, const ptl_wctl_t *w, size_t len, int rndv) {
  const char *bad = NULL;
  char why[160];
  if (rndv) {
    bad = "it came by rendezvous: its keys cannot be taken here";
  } else if (len != w->rkey_len) {
    snprintf(why, sizeof(why), "%zu payload bytes, its header says %u", len, (unsigned)w->rkey_len);
    bad = why;
  } else if (w->seq <= peer->ctl_in) {
    snprintf(why, sizeof(why), "sequence number %llu is taken already (the next is %llu)",
             (unsigned long long)w->seq, (unsigned long long)peer->ctl_in + 1);
    bad = why;
  } else if (w->kind != PTL_CTL_PUBLISH && w->kind != PTL_CTL_REVOKE) {
    bad = "no such kind";
  } else if (w->kind == PTL_CTL_PUBLISH && (w->flags & PTL_CTL_EVENTS) && w->rkey_len &&
             (!w->rkey2_len || w->rkey2_len >= w->rkey_len ||
              (!(w->options & PTL_MD_MANAGE_REMOTE) && (!w->xslot1 || w->xslot1 > PTL_XMD_PER_EQ)))) {
    snprintf(why, sizeof(why), "a publication whose event-entry fields do not hold together (keys %u and %u bytes, "
             "reservation state %u)", (unsigned)w->rkey_len, (unsigned)w->rkey2_len, (unsigned)w->xslot1);
    bad = why;
  }
  for (const ptl_ctlq_t *q = peer->early; q && !bad; q = q->next)
    if (q->w.seq == w->seq) bad = "its sequence number came early once already";
  if (bad)
    ptl_die("a malformed control message from rank %u (sequence %llu, kind %u): %s", (unsigned)w->src,
            (unsigned long long)w->seq, (unsigned)w->kind, bad);
}

/* One control record in stream order: applied now if it is due (and the
 * early ones it lets through after it), else kept for its turn. */
static void ctl_take(ptl_ni_t *ni, ptl_peer_t *peer, const ptl_wctl_t *w, const void *keys) {
  ptl_ctlq_t *q, **pq;
  if (w->seq != peer->ctl_in + 1) { /* early: keep it for its turn */
    q = ptl_alloc_or_die(NULL, sizeof(*q) + w->rkey_len,
                         "keeping control message %llu from rank %u for its turn (%llu is due)",
                         (unsigned long long)w->seq, (unsigned)w->src, (unsigned long long)peer->ctl_in + 1);
    q->w = *w;
    if (w->rkey_len) memcpy(q->rkey, keys, w->rkey_len);
    q->next = peer->early;
    peer->early = q;
    return;
  }
  ctl_apply(ni, w, keys);
  peer->ctl_in = w->seq;
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
}

/* A control message: its header is the first record, its payload that
 * record's keys and, while PTL_CTL_MORE says so, the next record's header
 * and keys. */
ucs_status_t ptl_pub_ctl_cb(void *arg, const void *header, size_t hlen, void *data, size_t len,
                            const ucp_am_recv_param_t *param) {
  ptl_ni_t *ni = arg;
  ptl_wctl_t w;
  ptl_peer_t *peer;
  const char *at = data;
  uint32_t src;
  int rndv = !!(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV);
  if (!PTL_WIRE_TAKE(w, header, hlen, ni->size)) {
    if (hlen != sizeof(w))
      ptl_die("a malformed control message: %zu header bytes, %zu expected (its sender's ordered stream would stall)",
              hlen, sizeof(w));
    ptl_die("a malformed control message: it names rank %u as its sender, of %d", (unsigned)w.src, ni->size);
  }
  src = w.src;
  peer = &ptl_x(ni)->peer[src];
  for (;;) {
    int more = !!(w.flags & PTL_CTL_MORE);
    /* the keys it has: all that is left (the last record), else what its header says if the next header fits after */
    size_t has = !more ? len : len >= sizeof(w) && w.rkey_len <= len - sizeof(w) ? w.rkey_len : len;
    ctl_check(peer, &w, has, rndv);
    if (more && has == len) ptl_die("a malformed control message from rank %u: record %llu says another follows, in "
                                    "%zu bytes", (unsigned)src, (unsigned long long)w.seq, len);
    ctl_take(ni, peer, &w, at);
    if (!more) return UCS_OK;
    at += w.rkey_len;
    len -= w.rkey_len;
    memcpy(&w, at, sizeof(w));
    at += sizeof(w);
    len -= sizeof(w);
    if (w.src != src)
      ptl_die("a malformed control message from rank %u: a record in it names rank %u as its sender", (unsigned)src,
              (unsigned)w.src);
  }
}

/* An acknowledgement this process cannot count would leave it waiting for
 * ever (ptl_pub_list_changed): fatal, as one that nothing awaits. */
ucs_status_t ptl_pub_ctl_ack_cb(void *arg, const void *header, size_t hlen, void *data, size_t len,
                                const ucp_am_recv_param_t *param) {
  ptl_ni_t *ni = arg;
  ptl_x_t *x = ptl_x(ni);
  ptl_wctl_t w;
  int ok = 0;
  (void)data, (void)len, (void)param;
  if (!PTL_WIRE_TAKE(w, header, hlen, ni->size))
    ptl_die("a malformed revocation acknowledgement: %zu header bytes (%zu expected)%s", hlen, sizeof(w),
            hlen == sizeof(w) ? ", naming no process of the job as its sender" : "");
  if (w.flags & PTL_CTL_LAZY) { /* its item's count */
    ptl_lock(ni);
    for (ptl_gone_t *g = x->lazy; g && !ok; g = g->next)
      if (g->it.w.id == w.id && g->it.w.order == w.order && g->acks > 0) {
        g->acks--;
        ok = 1;
        /* its reservation state is free at the owner's next walk: a list
         * whose publication found none is due for one */
        if (!g->acks && !g->unsent && atomic_load_explicit(&x->starved, memory_order_relaxed))
          atomic_fetch_or_explicit(&ni->pub_dirty, atomic_exchange(&x->starved, 0), memory_order_relaxed);
      }
    ptl_unlock(ni);
  } else {
    ok = atomic_fetch_sub(&x->revoke_acks, 1) > 0;
  }
  if (!ok)
    ptl_die("an acknowledgement from rank %u of revocation %llu, which nothing awaits", (unsigned)w.src,
            (unsigned long long)w.seq);
  atomic_fetch_or_explicit(&x->peer[w.src].use, (w.flags & PTL_CTL_USED) ? PTL_USE_YES : PTL_USE_NO,
                          memory_order_relaxed);
  return UCS_OK;
}

void ptl_pub_open_after(ptl_peer_t *peer, uint64_t order) {
  int n = atomic_load_explicit(&peer->npub, memory_order_acquire);
  for (int i = 0; i < n; i++) {
    ptl_pubent_t *e = &peer->pub[i];
    int st = atomic_load(&e->state);
    if ((st == PUB_PENDING || st == PUB_VALID) && e->after == order)
      atomic_store_explicit(&e->open, 1, memory_order_release);
  }
}

void ptl_pub_fini(ptl_ni_t *ni) {
  ptl_x_t *x = ptl_x(ni);
  while (x->acks_owed) {
    ptl_ctlq_t *q = x->acks_owed;
    x->acks_owed = q->next;
    free(q);
  }
  for (ptl_gone_t **l = &x->gone; l; l = l == &x->gone ? &x->lazy : NULL)
    while (*l) {
      ptl_gone_t *g = *l;
      *l = g->next;
      free(g);
    }
  for (int p = 0; p < ni->size; p++) {
    ptl_peer_t *peer = &x->peer[p];
    if (peer->pend) {
      batch_free(peer->pend);
      free(peer->pend);
      peer->pend = NULL;
    }
    for (int i = 0; i < PTL_PUB_SLOTS; i++)
      if (atomic_load(&peer->pub[i].state) != PUB_FREE) ptl_pub_entry_clear(x, &peer->pub[i]);
    for (int i = 0; i < PTL_RKEY_CACHE; i++) {
      if (!peer->rkc[i].packed) continue;
      ucp_rkey_destroy(peer->rkc[i].rkey);
      free(peer->rkc[i].packed);
      peer->rkc[i].packed = NULL;
    }
    while (peer->unfiled) {
      ptl_ctlq_t *q = peer->unfiled;
      peer->unfiled = q->next;
      free(q);
    }
    while (peer->early) {
      ptl_ctlq_t *q = peer->early;
      peer->early = q->next;
      free(q);
    }
  }
  dead_reap(x);
  free(x->dead);
  x->dead = NULL;
  x->dead_cap = 0;
}
