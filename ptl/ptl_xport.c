/*
 * ptl_xport.c -- ptl's active messages: sending them, the target's
 * handlers (match, place, acknowledge, reply; the initiator's reply), and
 * the progress/wait hooks of the two modes.
 */
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ptl_ucx.h"
#include "stp_copy.h"

/* ---------------------------------------------------------------- ops */
ptl_xop_t *ptl_op_get(ptl_ni_t *ni, int side) {
  ptl_xop_t *op = ptl_pool_alloc(&ptl_x(ni)->ops[side]);
  if (!op) return NULL;
  op->side = side;
  op->ni = ni;
  op->kind = OPK_OTHER;
  return op;
}

void ptl_op_put(ptl_xop_t *op) {
  free(op->bounce); /* (its buffer goes with it) */
  ptl_pool_free(&ptl_x(op->ni)->ops[op->side], op);
}

static void rx_send_cb(void *req, ucs_status_t st, void *user_data);

int ptl_am_send(ptl_ni_t *ni, int side, int peer, unsigned id, const void *hdr, size_t hlen, const void *data,
                size_t len, void *memh, ptl_xop_t *op, ucp_send_nbx_callback_t cb) {
  ptl_x_t *x = ptl_x(ni);
  ucp_request_param_t p;
  ucs_status_ptr_t req;
  ucp_ep_h ep = side == PTL_SIDE_RX ? x->u.ep[peer] : x->txep[peer];
  p.op_attr_mask = 0;
  if (id & PTL_AM_EAGER) { /* whole on arrival: see PTL_AM_EAGER */
    p.op_attr_mask |= UCP_OP_ATTR_FIELD_FLAGS;
    p.flags = UCP_AM_SEND_FLAG_EAGER;
    id &= ~PTL_AM_EAGER;
  }
  if (op && !cb) cb = side == PTL_SIDE_RX ? rx_send_cb : ptl_send_cb; /* just free op */
  if (op) {
    p.op_attr_mask |= UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
    p.cb.send = cb;
    p.user_data = op;
  }
  if (memh && len) {
    p.op_attr_mask |= UCP_OP_ATTR_FIELD_MEMH;
    p.memh = memh;
  }
  req = ucp_am_send_nbx(ep, id, hdr, hlen, data, len, &p);
  if (PTL_LIKELY(req == NULL)) return SEND_DONE;
  if (UCS_PTR_IS_ERR(req)) { /* (while PtlNIFini tears down, peers may be gone: not worth a word) */
    if (!x->closing) stp_ucx_report(&x->u, UCS_PTR_STATUS(req), "sending a ptl message (id %u) to rank %d", id, peer);
    return SEND_FAIL;
  }
  if (!op) {
    ucs_status_t st = stp_ucx_wait(side == PTL_SIDE_RX ? x->u.worker : x->txw, req);
    if (st == UCS_OK) return SEND_DONE;
    if (!x->closing) stp_ucx_report(&x->u, st, "sending a ptl message (id %u) to rank %d", id, peer);
    return SEND_FAIL;
  }
  if (side == PTL_SIDE_APP) {
    x->tx_inflight++;
    ni->idle_skip = 0; /* its completion needs the client's progress */
  }
  return SEND_LATER;
}

/* ---------------------------------------------------------------- receiving data */
/* A message whose header is malformed or names no process of the job:
 * nobody can be answered; counted as stale, dropped. */
static ucs_status_t malformed(ptl_ni_t *ni) {
  ptl_lock(ni);
  ptl_stat(ni, PTL_SIDE_RX, PTLX_SR_STALE, 1);
  ptl_unlock(ni);
  return UCS_OK;
}

/* Lock held.  Answer a Put that asked for an ACK: its outcome at this
 * target (fail: PTL_NI_OK, PTL_NI_FAIL, PTLX_NI_DROPPED).  An initiator
 * that never got it would wait for ever: failing to send it is fatal. */
static void send_ack(ptl_ni_t *ni, const ptl_req_t *r, const ptl_wput_t *w, ptl_size_t mlength, ptl_size_t offset,
                     ptl_ni_fail_t fail) {
  ptl_xop_t *op = ptl_op_get(ni, PTL_SIDE_RX);
  if (!op) ptl_die("no resources to acknowledge a Put from rank %u", (unsigned)r->src.nid);
  op->req = *r; /* (whom it goes to, for a failure report) */
  op->w.ack = (ptl_wack_t){w->ack_md, w->op, r->bits, r->rlength, mlength, offset, r->hdr, r->pt, ni->id.nid, fail, 0};
  switch (ptl_am_send(ni, PTL_SIDE_RX, (int)r->src.nid, PTL_AM_ACK, &op->w.ack, sizeof(op->w.ack), NULL, 0, NULL, op,
                      rx_send_cb)) {
    case SEND_DONE: ptl_op_put(op); break;
    case SEND_FAIL: /* its initiator would wait for ever -- unless everyone is leaving */
      if (!ptl_x(ni)->closing) ptl_die("acknowledging a Put to rank %u failed (see above)", (unsigned)r->src.nid);
      ptl_op_put(op);
      break;
    default: break;
  }
}

/* Lock held.  A matched Put's data is in place (or failed to land): ACK,
 * PUT_END, release. */
static void put_landed(ptl_ni_t *ni, const ptl_req_t *r, const ptl_hit_t *hit, const ptl_wput_t *w,
                       ptl_ni_fail_t fail) {
  if (w->ack_md != PTL_HANDLE_NONE && !(hit->md->d.options & PTL_MD_ACK_DISABLE))
    send_ack(ni, r, w, fail == PTL_NI_OK ? hit->mlength : 0, hit->offset, fail);
  ptl_match_end(ni, r, hit, fail, PTL_SIDE_RX);
}

/* Lock held.  A reply's data is in place. */
static void reply_landed(ptl_ni_t *ni, ptl_mdo_t *md, ptl_evinfo_t *info, ptl_ni_fail_t fail) {
  info->fail = fail;
  ptl_md_event(ni, md, PTL_EVENT_REPLY_END, info, PTL_SIDE_RX);
  ptl_md_release(ni, md, info, PTL_SIDE_RX);
}

/* Lock held.  A rendezvous receive of op (kind RECV_PUT / RECV_REPLY) ended. */
static void recv_finish(ptl_xop_t *op, ucs_status_t st) {
  ptl_ni_t *ni = op->ni;
  ptl_ni_fail_t fail = st == UCS_OK ? PTL_NI_OK : PTL_NI_FAIL;
  ptl_mdo_t *md = op->kind == OPK_RECV_PUT ? op->hit.md : ptl_pool_get(&ni->mds, op->mdh);
  ptl_size_t off = op->kind == OPK_RECV_PUT ? op->hit.offset : op->info.offset;
  ptl_size_t mlen = op->kind == OPK_RECV_PUT ? op->hit.mlength : op->info.mlength;
  if (op->bounce && fail == PTL_NI_OK) ptl_md_scatter(md, off, op->bounce, mlen);
  if (op->kind == OPK_RECV_PUT)
    put_landed(ni, &op->req, &op->hit, &op->w.put, fail);
  else
    reply_landed(ni, md, &op->info, fail);
  ptl_op_put(op);
}

static void recv_cb(void *req, ucs_status_t st, size_t length, void *user_data) {
  ptl_xop_t *op = user_data;
  ptl_ni_t *ni = op->ni;
  (void)length;
  ptl_lock(ni);
  recv_finish(op, st);
  ptl_unlock(ni);
  ucp_request_free(req);
}

/* Lock held.  Receive a rendezvous message of len bytes whose first mlen
 * go to dst (the rest, if truncated, through a bounce buffer; all of it
 * when dst is NULL: bytes across the pieces of an IOVEC MD, scattered by
 * recv_finish). */
static void recv_rndv(ptl_ni_t *ni, ptl_xop_t *op, void *desc, void *dst, size_t mlen, size_t len, void *memh) {
  ucp_request_param_t p;
  ucs_status_ptr_t req;
  void *buf = dst;
  if (mlen < len || !dst) {
    if (!(buf = op->bounce = malloc(len))) { /* the payload is dropped when the handler returns */
      recv_finish(op, UCS_ERR_NO_MEMORY);
      return;
    }
    memh = NULL;
  }
  p.op_attr_mask = UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
  p.cb.recv_am = recv_cb;
  p.user_data = op;
  if (memh) {
    p.op_attr_mask |= UCP_OP_ATTR_FIELD_MEMH;
    p.memh = memh;
  }
  req = ucp_am_recv_data_nbx(ptl_x(ni)->u.worker, desc, buf, len, &p);
  if (UCS_PTR_IS_PTR(req)) return;
  recv_finish(op, UCS_PTR_STATUS(req));
}

static ucs_status_t am_put(void *arg, const void *header, size_t hlen, void *data, size_t len,
                           const ucp_am_recv_param_t *param) {
  ptl_ni_t *ni = arg;
  ptl_wput_t w;
  ptl_hit_t hit;
  ptl_xop_t *op;
  if (!PTL_WIRE_TAKE(w, header, hlen, ni->size)) return malformed(ni);
  ptl_req_t r = {PTL_OP_PUT, {w.src, 0}, w.pt, w.bits, len, w.roffset, w.hdr};
  ptl_lock(ni);
  if (!ptl_match(ni, &r, &hit, PTL_SIDE_RX)) { /* dropped (and counted): say so if an ACK is awaited */
    if (w.ack_md != PTL_HANDLE_NONE) send_ack(ni, &r, &w, 0, 0, PTLX_NI_DROPPED);
  } else {
    char *dst = ptl_md_at(hit.md, hit.offset, hit.mlength); /* (NULL: across IOVEC pieces) */
    /* into a published request buffer: its sender writes into ours, so it gets our publications at once */
    if (hit.xmd) atomic_fetch_or_explicit(&ptl_x(ni)->peer[w.src].use, PTL_USE_YES, memory_order_relaxed);
    if (!(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)) {
      if (PTL_LIKELY(!hit.md->iov) || dst)
        stp_copy(dst, data, hit.mlength); /* (a word: one store -- stp_copy.h) */
      else
        ptl_md_scatter(hit.md, hit.offset, data, hit.mlength);
      put_landed(ni, &r, &hit, &w, PTL_NI_OK);
    } else if ((op = ptl_op_get(ni, PTL_SIDE_RX))) {
      op->kind = OPK_RECV_PUT;
      op->req = r;
      op->hit = hit;
      op->w.put = w;
      recv_rndv(ni, op, data, dst, hit.mlength, len, hit.md->reg.memh);
    } else {
      put_landed(ni, &r, &hit, &w, PTL_NI_FAIL);
    }
  }
  ptl_unlock(ni);
  return UCS_OK;
}

static void reply_sent(ptl_xop_t *op, ucs_status_t st) {
  ptl_match_end(op->ni, &op->req, &op->hit, st == UCS_OK ? PTL_NI_OK : PTL_NI_FAIL, PTL_SIDE_RX);
  if (st != UCS_OK && !ptl_x(op->ni)->closing) /* its initiator would wait for ever */
    ptl_die("the reply to a Get from rank %u could not be sent: %s", (unsigned)op->req.src.nid, ucs_status_string(st));
  ptl_op_put(op);
}

/* Set by PtlNIFini once the NI is destroyed: the main worker is destroyed
 * after it (the NI's registrations need UCX), and destroying a worker can
 * still complete a send of ours (an ACK or a Get's answer on one of UCX's
 * internal endpoints, over TCP): its callback then only frees the request.
 * (The op itself lives in x, alive until after the worker.) */
static int ni_gone;
void ptl_xport_ni_gone(int gone) { ni_gone = gone; }

static void rx_send_cb(void *req, ucs_status_t st, void *user_data) {
  ptl_xop_t *op = user_data;
  ptl_ni_t *ni;
  if (PTL_UNLIKELY(ni_gone)) {
    ucp_request_free(req);
    return;
  }
  /* the op only under the lock: a control message's was filled by the client thread (ptl_pub.c) */
  ni = ptl_ni_of(0);
  ptl_lock(ni);
  if (op->kind == OPK_REPLY) {
    reply_sent(op, st);
  } else if (op->kind == OPK_CTL) { /* a lost one would stall its peer's ordered stream */
    if (st != UCS_OK && !ptl_x(ni)->closing)
      ptl_die("a publication or revocation for rank %u could not be sent: %s", (unsigned)op->req.src.nid,
              ucs_status_string(st));
    ptl_op_put(op);
  } else { /* an ACK or a control acknowledgement: its peer waits for it (unless all are leaving) */
    if (st != UCS_OK && !ptl_x(ni)->closing)
      ptl_die("an acknowledgement to rank %u could not be sent: %s", (unsigned)op->req.src.nid, ucs_status_string(st));
    ptl_op_put(op);
  }
  ptl_unlock(ni);
  ucp_request_free(req);
}

/* Lock held.  Tell a Get's initiator that it failed here (no data). */
static void send_reply_failed(ptl_ni_t *ni, const ptl_wget_t *w, ptl_ni_fail_t fail) {
  ptl_xop_t *op = ptl_op_get(ni, PTL_SIDE_RX);
  if (!op) ptl_die("no resources to answer a Get from rank %u", (unsigned)w->src);
  op->req.src.nid = w->src;
  op->w.reply = (ptl_wreply_t){w->reply_md, w->bits, w->rlength, w->loffset, w->pt, ni->id.nid, fail, 0};
  switch (ptl_am_send(ni, PTL_SIDE_RX, (int)w->src, PTL_AM_REPLY, &op->w.reply, sizeof(op->w.reply), NULL, 0, NULL,
                      op, rx_send_cb)) {
    case SEND_DONE: ptl_op_put(op); break;
    case SEND_FAIL:
      if (!ptl_x(ni)->closing) ptl_die("answering a Get from rank %u failed (see above)", (unsigned)w->src);
      ptl_op_put(op);
      break;
    default: break;
  }
}

static ucs_status_t am_get(void *arg, const void *header, size_t hlen, void *data, size_t len,
                           const ucp_am_recv_param_t *param) {
  ptl_ni_t *ni = arg;
  ptl_wget_t w;
  ptl_hit_t hit;
  ptl_xop_t *op;
  (void)data, (void)len, (void)param;
  if (!PTL_WIRE_TAKE(w, header, hlen, ni->size)) return malformed(ni);
  ptl_req_t r = {PTL_OP_GET, {w.src, 0}, w.pt, w.bits, w.rlength, w.roffset, 0};
  ptl_lock(ni);
  if (!ptl_match(ni, &r, &hit, PTL_SIDE_RX)) { /* dropped (and counted): the initiator learns it */
    send_reply_failed(ni, &w, PTLX_NI_DROPPED);
  } else {
    int rc;
    if (!(op = ptl_op_get(ni, PTL_SIDE_RX))) ptl_die("no resources to answer a Get from rank %u", (unsigned)w.src);
    op->kind = OPK_REPLY;
    op->req = r;
    op->hit = hit;
    op->w.reply = (ptl_wreply_t){w.reply_md, w.bits, w.rlength, w.loffset, w.pt, ni->id.nid, PTL_NI_OK, 0};
    void *memh;
    char *src = ptl_md_send_src(hit.md, hit.offset, hit.mlength, &op->bounce, &memh);
    rc = ptl_am_send(ni, PTL_SIDE_RX, (int)w.src, PTL_AM_REPLY, &op->w.reply, sizeof(op->w.reply), src,
                     hit.mlength, memh, op, rx_send_cb);
    if (rc != SEND_LATER) reply_sent(op, rc == SEND_DONE ? UCS_OK : UCS_ERR_IO_ERROR);
  }
  ptl_unlock(ni);
  return UCS_OK;
}

static ucs_status_t am_ack(void *arg, const void *header, size_t hlen, void *data, size_t len,
                           const ucp_am_recv_param_t *param) {
  ptl_wack_t w;
  (void)data, (void)len, (void)param;
  if (!PTL_WIRE_TAKE(w, header, hlen, ((ptl_ni_t *)arg)->size) || !ptl_wire_fail_ok(w.fail)) return malformed(arg);
  ptl_ack_arrived(arg, &w);
  return UCS_OK;
}

static ucs_status_t am_reply(void *arg, const void *header, size_t hlen, void *data, size_t len,
                             const ucp_am_recv_param_t *param) {
  ptl_ni_t *ni = arg;
  ptl_wreply_t w;
  ptl_mdo_t *md;
  ptl_xop_t *op;
  if (!PTL_WIRE_TAKE(w, header, hlen, ni->size) || !ptl_wire_fail_ok(w.fail)) return malformed(ni);
  if (w.fail != PTL_NI_OK) len = 0; /* the Get failed at the target: no data */
  ptl_lock(ni);
  md = ptl_pool_get(&ni->mds, w.md);
  if (!md || md->inactive || w.loffset > md->len ||
      (len > md->len - w.loffset && !(md->d.options & PTL_MD_TRUNCATE))) {
    ptl_stat(ni, PTL_SIDE_RX, PTLX_SR_STALE, 1);
    ptl_unlock(ni);
    return UCS_OK; /* a rendezvous payload is dropped by returning */
  }
  ptl_size_t mlen = len < md->len - w.loffset ? len : md->len - w.loffset;
  ptl_evinfo_t in = {{w.src, 0}, w.pt, w.bits, w.rlength, mlen, w.loffset, 0, 0, w.fail};
  ptl_stat(ni, PTL_SIDE_RX, PTL_SR_RECV_COUNT, 1);
  ptl_stat(ni, PTL_SIDE_RX, PTL_SR_RECV_LENGTH, mlen);
  ptl_md_consume(md);
  md->pending++;
  in.link = ptl_md_event(ni, md, PTL_EVENT_REPLY_START, &in, PTL_SIDE_RX);
  char *dst = ptl_md_at(md, w.loffset, mlen); /* (NULL: across IOVEC pieces) */
  if (w.fail != PTL_NI_OK) {
    reply_landed(ni, md, &in, w.fail);
  } else if (!(param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV)) {
    ptl_md_scatter(md, w.loffset, data, mlen);
    reply_landed(ni, md, &in, PTL_NI_OK);
  } else if ((op = ptl_op_get(ni, PTL_SIDE_RX))) {
    op->kind = OPK_RECV_REPLY;
    op->mdh = w.md;
    op->info = in;
    recv_rndv(ni, op, data, dst, mlen, len, md->reg.memh);
  } else {
    reply_landed(ni, md, &in, PTL_NI_FAIL);
  }
  ptl_unlock(ni);
  return UCS_OK;
}

/* An atomic to be matched (ptl.h section 6): the target's CPU performs it
 * (ptl_atomic_apply, lock held), then acknowledges it as a Put or answers
 * it as a Get, with the old values.  Always eager; a header that asks for
 * what no call may ask is malformed. */
static ucs_status_t am_atomic(void *arg, const void *header, size_t hlen, void *data, size_t len,
                              const ucp_am_recv_param_t *param) {
  ptl_ni_t *ni = arg;
  ptl_watomic_t w;
  ptl_hit_t hit;
  ptl_xop_t *op;
  int fetch;
  if (!PTL_WIRE_TAKE(w, header, hlen, ni->size) || (param->recv_attr & UCP_AM_RECV_ATTR_FLAG_RNDV) ||
      ptl_atomic_check(w.aop >= PTL_SWAP, (ptl_op_t)w.aop, (ptl_datatype_t)w.dtype, len) != PTL_OK ||
      (w.aop > PTL_SWAP && w.reply_md == PTL_HANDLE_NONE))
    return malformed(ni);
  fetch = w.reply_md != PTL_HANDLE_NONE;
  ptl_req_t r = {fetch ? PTL_OP_FETCH : PTL_OP_ATOMIC, {w.src, 0}, w.pt, w.bits, len, w.roffset, w.hdr};
  ptl_wput_t wp = {w.bits, w.roffset, w.hdr, w.ack_md, w.op, w.pt, w.src}; /* (what send_ack takes) */
  ptl_wget_t wg = {w.bits, w.roffset, len, w.reply_md, w.loffset, w.pt, w.src};
  ptl_lock(ni);
  if (!ptl_match(ni, &r, &hit, PTL_SIDE_RX)) { /* dropped (and counted): the answer says so */
    if (fetch)
      send_reply_failed(ni, &wg, PTLX_NI_DROPPED);
    else if (w.ack_md != PTL_HANDLE_NONE)
      send_ack(ni, &r, &wp, 0, 0, PTLX_NI_DROPPED);
  } else {
    char *dst = ptl_md_at(hit.md, hit.offset, hit.mlength); /* (within one piece: ptl_match) */
    ptl_stat(ni, PTL_SIDE_RX, PTLX_SR_ATOMIC_CPU, 1);
    if (hit.xmd) atomic_fetch_or_explicit(&ptl_x(ni)->peer[w.src].use, PTL_USE_YES, memory_order_relaxed); /* (as am_put) */
    if (!fetch) {
      ptl_atomic_apply(dst, data, &w.operand, NULL, len, (ptl_op_t)w.aop, (ptl_datatype_t)w.dtype);
      put_landed(ni, &r, &hit, &wp, PTL_NI_OK);
    } else {
      int rc;
      if (!(op = ptl_op_get(ni, PTL_SIDE_RX)) || !(op->bounce = malloc(len)))
        ptl_die("no resources to answer an atomic from rank %u", (unsigned)w.src);
      ptl_atomic_apply(dst, data, &w.operand, op->bounce, len, (ptl_op_t)w.aop, (ptl_datatype_t)w.dtype);
      op->kind = OPK_REPLY;
      op->req = r;
      op->hit = hit;
      op->w.reply = (ptl_wreply_t){w.reply_md, w.bits, len, w.loffset, w.pt, ni->id.nid, PTL_NI_OK, 0};
      rc = ptl_am_send(ni, PTL_SIDE_RX, (int)w.src, PTL_AM_REPLY | PTL_AM_EAGER, &op->w.reply, sizeof(op->w.reply),
                       op->bounce, len, NULL, op, rx_send_cb);
      if (rc != SEND_LATER) reply_sent(op, rc == SEND_DONE ? UCS_OK : UCS_ERR_IO_ERROR);
    }
  }
  ptl_unlock(ni);
  return UCS_OK;
}

int ptl_xport_handlers(ptl_ni_t *ni) {
  static const ucp_am_recv_callback_t cbs[PTL_AM_COUNT] = {
      [PTL_AM_PUT] = am_put,     [PTL_AM_GET] = am_get,         [PTL_AM_ACK] = am_ack,
      [PTL_AM_REPLY] = am_reply, [PTL_AM_CTL] = ptl_pub_ctl_cb, [PTL_AM_CTL_ACK] = ptl_pub_ctl_ack_cb, [PTL_AM_WAKE] = ptl_pub_wake_cb,
      [PTL_AM_ATOMIC] = am_atomic,
  };
  for (unsigned id = 1; id < PTL_AM_COUNT; id++) {
    ucp_am_handler_param_t hp;
    ucs_status_t st;
    memset(&hp, 0, sizeof(hp));
    hp.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB | UCP_AM_HANDLER_PARAM_FIELD_ARG |
                    UCP_AM_HANDLER_PARAM_FIELD_FLAGS;
    hp.id = id;
    hp.cb = cbs[id];
    hp.arg = ni;
    hp.flags = UCP_AM_FLAG_WHOLE_MSG;
    if ((st = ucp_worker_set_am_recv_handler(ptl_x(ni)->u.worker, &hp)) != UCS_OK) {
      stp_ucx_report(&ptl_x(ni)->u, st, "registering ptl's message handlers");
      return PTL_FAIL;
    }
  }
  return PTL_OK;
}

/* ---------------------------------------------------------------- progress and waiting */
static void wait_fds(int a, int b, int timeout_ms) {
  struct pollfd f[2] = {{a, POLLIN, 0}, {b, POLLIN, 0}};
  poll(f, b >= 0 ? 2 : 1, timeout_ms);
}

static unsigned host_progress(ptl_ni_t *ni) { return ucp_worker_progress(ptl_x(ni)->u.worker); }

/* Host mode, idle: sleep until the network has something (the interrupt). */
static void host_block(ptl_ni_t *ni, uint64_t seen, int timeout_ms) {
  ptl_x_t *x = ptl_x(ni);
  (void)seen;
  if (x->efd_main >= 0 && ucp_worker_arm(x->u.worker) == UCS_OK) wait_fds(x->efd_main, -1, timeout_ms);
}

/* Offload mode, a waiting client: its own sends, and whatever the progress
 * thread is not doing at this moment (on a busy machine it may not be
 * running at all).  With none of its sends in flight, the client comes
 * here only every LEND_EVERY-th time (ni->idle_skip, counted down inline
 * by the pure layer): a poll that finds nothing then costs a look at each
 * ring, not two workers' progress -- one-sided events need neither, and a
 * client waiting for a matched event still lends its hand within a few
 * polls (a send of its own resets the count: ptl_am_send).  Not rarer: a
 * request buffer that fills is unlinked and relinked through the main
 * worker, and the AMs that meanwhile take the matched path wait for it
 * (every 64th made 4-8 KiB Medium round trips 9-21 % slower). */
#define LEND_EVERY 8
static unsigned offload_progress(ptl_ni_t *ni) {
  ptl_x_t *x = ptl_x(ni);
  unsigned n;
  ptl_tx_enter(x);
  n = ptl_tx_progress(ni) + ptl_main_progress(x);
  ptl_pub_settle(ni, 1);
  ni->idle_skip = x->tx_inflight ? 0 : LEND_EVERY - 1;
  ptl_tx_leave(x);
  return n;
}

/* Offload mode, idle: sleep until the progress thread posts an event or
 * the client's own sends need progress. */
static void offload_block(ptl_ni_t *ni, uint64_t seen, int timeout_ms) {
  ptl_x_t *x = ptl_x(ni);
  uint64_t junk;
  atomic_store(&ni->sleepers, 1);
  ptl_tx_enter(x);
  if (atomic_load(&ni->posted) == seen && (x->efd_tx < 0 || ucp_worker_arm(x->txw) == UCS_OK))
    wait_fds(x->wake_fd, x->efd_tx, timeout_ms);
  ptl_tx_leave(x);
  atomic_store(&ni->sleepers, 0);
  if (read(x->wake_fd, &junk, sizeof(junk)) < 0) { /* nothing to drain */
  }
}

static void offload_wake(ptl_ni_t *ni) {
  uint64_t one = 1;
  if (write(ptl_x(ni)->wake_fd, &one, sizeof(one)) < 0) { /* already signalled */
  }
}

const ptl_hooks_t ptl_hooks_host = {
    .md_register = ptl_mem_register,
    .md_deregister = ptl_mem_deregister,
    .progress = host_progress,
    .block = host_block,
};

const ptl_hooks_t ptl_hooks_offload = {
    .md_register = ptl_mem_register,
    .md_deregister = ptl_mem_deregister,
    .list_changed = ptl_pub_list_changed,
    .me_rearmed = ptl_pub_me_rearmed,
    .progress = offload_progress,
    .block = offload_block,
    .wake = offload_wake,
    .eq_mem = ptl_mem_eq_alloc,
    .eq_mem_free = ptl_mem_eq_free,
    .md_gone = ptl_pub_md_gone,
};
