/*
 * ucx_ctx.c -- UCX context, worker, endpoints, registration, rkey exchange.
 */
#include "stp_ucx.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void stp_ucx_report(const stp_ucx_t *u, ucs_status_t st, const char *fmt, ...) {
  char what[512];
  const char *tls = getenv("UCX_TLS");
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof(what), fmt, ap);
  va_end(ap);
  fprintf(stderr, "stageport: ucx (%s, rank %d): %s: %s [UCX_TLS=%s]\n", u && u->user ? u->user : "?",
          u ? u->rank : -1, what, ucs_status_string(st), tls ? tls : "default");
  fflush(stderr);
}

ucs_status_t stp_ucx_wait(stp_ucx_t *u, ucs_status_ptr_t req, const char *what) {
  ucs_status_t st;
  if (req == NULL) return UCS_OK;
  if (UCS_PTR_IS_ERR(req)) {
    st = UCS_PTR_STATUS(req);
    stp_ucx_report(u, st, "%s", what);
    return st;
  }
  while ((st = ucp_request_check_status(req)) == UCS_INPROGRESS) ucp_worker_progress(u->worker);
  ucp_request_free(req);
  if (st != UCS_OK) stp_ucx_report(u, st, "%s", what);
  return st;
}

static ucs_status_t worker_create(stp_ucx_t *u, int thread_multi, ucp_worker_h *w) {
  ucp_worker_params_t wparams;
  ucs_status_t st;
  memset(&wparams, 0, sizeof(wparams));
  wparams.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  wparams.thread_mode = thread_multi ? UCS_THREAD_MODE_MULTI : UCS_THREAD_MODE_SINGLE;
  st = ucp_worker_create(u->context, &wparams, w);
  if (st != UCS_OK) stp_ucx_report(u, st, "creating a UCX worker");
  return st;
}

/* Endpoints from `worker` to every rank's main worker (u->addrs). */
static ucs_status_t connect_all(stp_ucx_t *u, ucp_worker_h worker, ucp_ep_h *ep) {
  for (int i = 0; i < u->size; i++) {
    ucp_ep_params_t p;
    ucs_status_t st;
    memset(&p, 0, sizeof(p));
    p.field_mask = UCP_EP_PARAM_FIELD_REMOTE_ADDRESS;
    p.address = (const ucp_address_t *)(u->addrs + (size_t)i * u->addr_len);
    st = ucp_ep_create(worker, &p, &ep[i]);
    if (st != UCS_OK) {
      stp_ucx_report(u, st, "creating the endpoint to rank %d", i);
      return st;
    }
  }
  return UCS_OK;
}

/* Close (forcibly: peers may already be gone) and free an endpoint table. */
static void close_all(stp_ucx_t *u, ucp_worker_h worker, ucp_ep_h **eptab) {
  ucp_ep_h *ep = *eptab;
  if (!ep) return;
  for (int i = 0; i < u->size; i++) {
    ucp_request_param_t p;
    ucs_status_ptr_t req;
    if (!ep[i]) continue;
    memset(&p, 0, sizeof(p));
    p.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    p.flags = UCP_EP_CLOSE_FLAG_FORCE;
    req = ucp_ep_close_nbx(ep[i], &p);
    if (UCS_PTR_IS_PTR(req)) {
      while (ucp_request_check_status(req) == UCS_INPROGRESS) ucp_worker_progress(worker);
      ucp_request_free(req);
    }
  }
  free(ep);
  *eptab = NULL;
}

ucs_status_t stp_ucx_open(stp_ucx_t *u, const stp_ucx_boot_t *boot, uint64_t features, int thread_multi,
                          const char *user) {
  ucp_params_t params;
  ucp_address_t *addr = NULL;
  size_t alen = 0, maxlen = 0;
  size_t *lens = NULL;
  char *all = NULL, *mine = NULL;
  ucs_status_t st;

  memset(u, 0, sizeof(*u));
  u->boot = *boot;
  u->rank = boot->rank;
  u->size = boot->size;
  u->user = user;

  memset(&params, 0, sizeof(params));
  params.field_mask = UCP_PARAM_FIELD_FEATURES | UCP_PARAM_FIELD_MT_WORKERS_SHARED;
  params.features = features;
  params.mt_workers_shared = thread_multi ? 1 : 0;
  st = ucp_init(&params, NULL, &u->context);
  if (st != UCS_OK) {
    stp_ucx_report(u, st, "creating the UCX context (ucp_init)");
    return st;
  }
  st = worker_create(u, thread_multi, &u->worker);
  if (st != UCS_OK) goto fail;
  st = ucp_worker_get_address(u->worker, &addr, &alen);
  if (st != UCS_OK) {
    stp_ucx_report(u, st, "getting the worker address");
    goto fail;
  }

  /* worker addresses differ in length: gather lengths, then padded addresses */
  lens = malloc((size_t)u->size * sizeof(*lens));
  u->ep = calloc((size_t)u->size, sizeof(*u->ep));
  if (!lens || !u->ep) {
    st = UCS_ERR_NO_MEMORY;
    stp_ucx_report(u, st, "allocating the endpoint table");
    goto fail;
  }
  u->boot.allgather(u->boot.ctx, &alen, lens, sizeof(alen));
  for (int i = 0; i < u->size; i++)
    if (lens[i] > maxlen) maxlen = lens[i];
  mine = calloc(1, maxlen);
  all = malloc(maxlen * (size_t)u->size);
  if (!mine || !all) {
    st = UCS_ERR_NO_MEMORY;
    stp_ucx_report(u, st, "allocating the address table");
    goto fail;
  }
  memcpy(mine, addr, alen);
  u->boot.allgather(u->boot.ctx, mine, all, maxlen);
  u->addrs = all;
  u->addr_len = maxlen;
  all = NULL;

  st = connect_all(u, u->worker, u->ep);
  if (st != UCS_OK) goto fail;
  ucp_worker_release_address(u->worker, addr);
  free(lens);
  free(mine);
  return UCS_OK;

fail:
  if (addr) ucp_worker_release_address(u->worker, addr);
  free(lens);
  free(mine);
  free(all);
  stp_ucx_close(u);
  return st;
}

void stp_ucx_close(stp_ucx_t *u) {
  close_all(u, u->worker, &u->ep);
  if (u->worker) ucp_worker_destroy(u->worker);
  if (u->context) ucp_cleanup(u->context);
  u->worker = NULL;
  u->context = NULL;
  free(u->addrs);
  u->addrs = NULL;
}

ucs_status_t stp_ucx_worker_open(stp_ucx_t *u, stp_ucx_worker_t *w, int thread_multi) {
  ucs_status_t st;
  memset(w, 0, sizeof(*w));
  st = worker_create(u, thread_multi, &w->worker);
  if (st != UCS_OK) return st;
  w->ep = calloc((size_t)u->size, sizeof(*w->ep));
  if (!w->ep) {
    st = UCS_ERR_NO_MEMORY;
    stp_ucx_report(u, st, "allocating the endpoint table of an extra worker");
  } else {
    st = connect_all(u, w->worker, w->ep);
  }
  if (st != UCS_OK) stp_ucx_worker_close(u, w);
  return st;
}

void stp_ucx_worker_close(stp_ucx_t *u, stp_ucx_worker_t *w) {
  close_all(u, w->worker, &w->ep);
  if (w->worker) ucp_worker_destroy(w->worker);
  w->worker = NULL;
}

ucs_status_t stp_ucx_region_map(stp_ucx_t *u, void *addr, size_t len, stp_ucx_region_t *r) {
  ucp_mem_map_params_t mp;
  ucp_mem_attr_t attr;
  ucs_status_t st;

  memset(r, 0, sizeof(*r));
  memset(&mp, 0, sizeof(mp));
  mp.field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH | UCP_MEM_MAP_PARAM_FIELD_FLAGS;
  mp.address = addr;
  mp.length = len;
  mp.flags = addr ? 0 : UCP_MEM_MAP_ALLOCATE;
  st = ucp_mem_map(u->context, &mp, &r->memh);
  if (st != UCS_OK) {
    stp_ucx_report(u, st, "%s %zu bytes at %p", addr ? "registering" : "allocating", len, addr);
    return st;
  }
  memset(&attr, 0, sizeof(attr));
  attr.field_mask = UCP_MEM_ATTR_FIELD_ADDRESS | UCP_MEM_ATTR_FIELD_LENGTH;
  st = ucp_mem_query(r->memh, &attr);
  if (st != UCS_OK) {
    stp_ucx_report(u, st, "querying registered memory");
    ucp_mem_unmap(u->context, r->memh);
    return st;
  }
  r->addr = attr.address;
  r->len = len;
  r->allocated = !addr;
  st = ucp_rkey_pack(u->context, r->memh, &r->rkey, &r->rkey_len);
  if (st != UCS_OK) {
    stp_ucx_report(u, st, "packing the remote key of %zu bytes at %p", len, r->addr);
    ucp_mem_unmap(u->context, r->memh);
    return st;
  }
  return UCS_OK;
}

void stp_ucx_region_unmap(stp_ucx_t *u, stp_ucx_region_t *r) {
  if (r->rkey) ucp_rkey_buffer_release(r->rkey);
  if (r->memh) ucp_mem_unmap(u->context, r->memh);
  memset(r, 0, sizeof(*r));
}

ucs_status_t stp_ucx_exchange(stp_ucx_t *u, const stp_ucx_region_t *mine, stp_ucx_remote_t *remote) {
  struct desc {
    uint64_t addr, len, rkey_len;
  } d = {(uint64_t)(uintptr_t)mine->addr, mine->len, mine->rkey_len}, *all;
  size_t maxlen = 0;
  char *rkeys = NULL, *pad = NULL;
  ucs_status_t st = UCS_OK;

  all = malloc((size_t)u->size * sizeof(*all));
  if (!all) {
    stp_ucx_report(u, UCS_ERR_NO_MEMORY, "exchanging remote keys");
    return UCS_ERR_NO_MEMORY;
  }
  u->boot.allgather(u->boot.ctx, &d, all, sizeof(d));
  for (int i = 0; i < u->size; i++)
    if (all[i].rkey_len > maxlen) maxlen = all[i].rkey_len;
  pad = calloc(1, maxlen ? maxlen : 1);
  rkeys = malloc((maxlen ? maxlen : 1) * (size_t)u->size);
  if (!pad || !rkeys) {
    st = UCS_ERR_NO_MEMORY;
    stp_ucx_report(u, st, "exchanging remote keys");
    goto out;
  }
  if (mine->rkey_len) memcpy(pad, mine->rkey, mine->rkey_len);
  u->boot.allgather(u->boot.ctx, pad, rkeys, maxlen);
  for (int i = 0; i < u->size; i++) {
    remote[i].addr = all[i].addr;
    remote[i].len = all[i].len;
    remote[i].rkey = NULL;
    if (!all[i].rkey_len) continue;
    st = ucp_ep_rkey_unpack(u->ep[i], rkeys + (size_t)i * maxlen, &remote[i].rkey);
    if (st != UCS_OK) {
      stp_ucx_report(u, st, "unpacking the remote key of rank %d", i);
      goto out;
    }
  }
out:
  free(all);
  free(pad);
  free(rkeys);
  return st;
}

void stp_ucx_remote_release(stp_ucx_t *u, stp_ucx_remote_t *remote) {
  (void)u;
  if (!remote) return;
  for (int i = 0; i < u->size; i++)
    if (remote[i].rkey) {
      ucp_rkey_destroy(remote[i].rkey);
      remote[i].rkey = NULL;
    }
}
