/*
 * ucx_ctx.c -- UCX context, workers, endpoints; the one wait; the one
 * report of a UCX failure.
 */
#include "stp_ucx.h"

#include <stdarg.h>
#include <ucs/debug/log_def.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

ucs_status_t stp_ucx_wait_also(ucp_worker_h worker, ucs_status_ptr_t req, void (*also)(void *), void *arg) {
  ucs_status_t st;
  if (!UCS_PTR_IS_PTR(req)) return UCS_PTR_STATUS(req); /* done at once (UCS_OK), or failed */
  while ((st = ucp_request_check_status(req)) == UCS_INPROGRESS) {
    ucp_worker_progress(worker);
    if (also) also(arg);
  }
  ucp_request_free(req);
  return st;
}

ucs_status_t stp_ucx_wait(ucp_worker_h worker, ucs_status_ptr_t req) { return stp_ucx_wait_also(worker, req, NULL, NULL); }

static ucs_status_t worker_create(stp_ucx_t *u, int thread_multi, ucp_worker_h *w) {
  ucp_worker_params_t wparams;
  ucs_status_t st;
  memset(&wparams, 0, sizeof(wparams));
  wparams.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  /* several threads at once (a progress thread and the client): multi;
   * a threaded client's threads in turn (the boot says so): serialized */
  wparams.thread_mode = thread_multi     ? UCS_THREAD_MODE_MULTI
                        : u->boot.threads ? UCS_THREAD_MODE_SERIALIZED
                                          : UCS_THREAD_MODE_SINGLE;
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

/* At teardown, peers leave at their own pace: UCX's complaints about
 * endpoints whose peer is already gone ("Endpoint timeout" during a flush)
 * say nothing then, and would mix into the job's output. */
static ucs_log_func_rc_t teardown_quiet(const char *file, unsigned line, const char *function, ucs_log_level_t level,
                                        const ucs_log_component_config_t *comp, const char *message, va_list ap) {
  (void)file, (void)line, (void)function, (void)comp, (void)message, (void)ap;
  return level == UCS_LOG_LEVEL_FATAL ? UCS_LOG_FUNC_RC_CONTINUE : UCS_LOG_FUNC_RC_STOP;
}

/* Close and free an endpoint table.  Each endpoint is closed in UCX's
 * default (flush) mode: its operations still in flight complete, and their
 * callbacks run now, while their users' state is alive.  (A forced close is
 * defined only in UCX's peer error-handling mode, which the shared-memory
 * transports of UCX 1.13 do not offer: it would move every endpoint onto
 * TCP.)  The main worker is progressed too: peers closing their endpoints
 * to it need it.  A peer that does not answer within a second -- it is
 * gone -- is not waited for longer: its close request is released, and
 * completes when the worker is destroyed. */
static void close_all(stp_ucx_t *u, ucp_worker_h worker, ucp_ep_h **eptab) {
  ucp_ep_h *ep = *eptab;
  ucs_status_ptr_t *req;
  struct timespec t0, t;
  int left = 0;
  if (!ep) return;
  req = calloc((size_t)u->size, sizeof(*req));
  for (int i = 0; i < u->size; i++) {
    ucp_request_param_t p;
    if (!ep[i]) continue;
    memset(&p, 0, sizeof(p));
    ucs_status_ptr_t r = ucp_ep_close_nbx(ep[i], &p);
    if (UCS_PTR_IS_PTR(r) && req) req[i] = r, left++;
    else if (UCS_PTR_IS_PTR(r)) stp_ucx_wait(worker, r);
  }
  clock_gettime(CLOCK_MONOTONIC, &t0);
  while (left) {
    ucp_worker_progress(worker);
    if (worker != u->worker) ucp_worker_progress(u->worker);
    for (int i = 0; i < u->size; i++)
      if (req[i] && ucp_request_check_status(req[i]) != UCS_INPROGRESS) {
        ucp_request_free(req[i]);
        req[i] = NULL;
        left--;
      }
    clock_gettime(CLOCK_MONOTONIC, &t);
    if (left && (double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) > 1.0) {
      for (int i = 0; i < u->size; i++)
        if (req[i]) ucp_request_free(req[i]);
      break;
    }
  }
  free(req);
  free(ep);
  *eptab = NULL;
}

ucs_status_t stp_ucx_open(stp_ucx_t *u, const stp_boot_t *boot, uint64_t features, int thread_multi,
                          const char *user, const char *const *config) {
  ucp_params_t params;
  ucp_config_t *cfg = NULL;
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
  if (config) {
    st = ucp_config_read(NULL, NULL, &cfg);
    for (int i = 0; st == UCS_OK && config[i]; i += 2)
      if ((st = ucp_config_modify(cfg, config[i], config[i + 1])) != UCS_OK)
        stp_ucx_report(u, st, "setting UCX_%s=%s", config[i], config[i + 1]);
    if (st != UCS_OK) {
      if (cfg) ucp_config_release(cfg);
      return st;
    }
  }
  st = ucp_init(&params, cfg, &u->context);
  if (cfg) ucp_config_release(cfg);
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

void stp_ucx_close_endpoints(stp_ucx_t *u) {
  ucs_log_push_handler(teardown_quiet);
  close_all(u, u->worker, &u->ep);
  ucs_log_pop_handler();
}

void stp_ucx_flush(stp_ucx_t *u) {
  ucp_request_param_t p;
  ucs_status_ptr_t req;
  struct timespec t0, t;
  memset(&p, 0, sizeof(p));
  req = ucp_worker_flush_nbx(u->worker, &p);
  if (!UCS_PTR_IS_PTR(req)) return;
  ucs_log_push_handler(teardown_quiet);
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    ucp_worker_progress(u->worker);
    if (ucp_request_check_status(req) != UCS_INPROGRESS) break;
    clock_gettime(CLOCK_MONOTONIC, &t);
    if ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) > 1.0) break; /* a peer is gone */
  }
  ucp_request_free(req);
  ucs_log_pop_handler();
}

void stp_ucx_close(stp_ucx_t *u) {
  ucs_log_push_handler(teardown_quiet);
  close_all(u, u->worker, &u->ep);
  if (u->worker) ucp_worker_destroy(u->worker);
  if (u->context) ucp_cleanup(u->context);
  u->worker = NULL;
  u->context = NULL;
  free(u->addrs);
  u->addrs = NULL;
  ucs_log_pop_handler();
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
  ucs_log_push_handler(teardown_quiet);
  close_all(u, w->worker, &w->ep);
  if (w->worker) ucp_worker_destroy(w->worker);
  w->worker = NULL;
  ucs_log_pop_handler();
}
