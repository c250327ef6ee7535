/*
 * ptl_ni.c -- library and NI setup: bootstrap (PtlXBootstrap's, else the
 * MPI launcher's), the UCX context and workers, the progress thread of
 * offload mode, teardown.
 */
#include <linux/membarrier.h>
#include <poll.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "boot_mpi.h"
#include "ptl_ucx.h"

#define NIC_SPIN_NS 200000 /* progress thread: busy-poll this long after activity */
#define DRAIN_NS 2000000000ull

static struct {
  int inits;     /* PtlInit calls not yet undone */
  int have_boot; /* given by PtlXBootstrap, or opened by PtlInit */
  int boot_ours; /* PtlInit opened the MPI launcher */
  stp_boot_t boot;
} lib;

void ptl_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  ptl_vsay("", fmt, ap);
  va_end(ap);
}

/* ptl_die's end (ptl_obj.c): the job ends through the bootstrap's abort. */
static void die_abort(void) {
  if (lib.have_boot && lib.boot.abort) lib.boot.abort(lib.boot.ctx, 1);
}

/* ---------------------------------------------------------------- bootstrap */
int PtlXBootstrap(const stp_boot_t *boot) {
  if (!boot) return PTL_SEGV;
  if (ptl_the_ni || lib.boot_ours) return PTL_FAIL; /* too late */
  if (boot->size <= 0 || boot->rank < 0 || boot->rank >= boot->size || !boot->allgather || !boot->barrier)
    return PTL_FAIL;
  lib.boot = *boot;
  lib.have_boot = 1;
  return PTL_OK;
}

int PtlInit(int *max_interfaces) {
  if (!max_interfaces) return PTL_SEGV;
  ptl_die_hook = die_abort;
  if (!lib.inits && !lib.have_boot) {
    if (stp_boot_mpi_open(NULL, NULL, "ptl: PtlInit", 0, &lib.boot)) return PTL_FAIL;
    lib.have_boot = lib.boot_ours = 1;
  }
  lib.inits++;
  *max_interfaces = 1;
  return PTL_OK;
}

void PtlFini(void) {
  if (!lib.inits || --lib.inits) return;
  if (lib.boot_ours) {
    stp_boot_mpi_close(0); /* MPI_Finalize if PtlInit started MPI */
    lib.have_boot = lib.boot_ours = 0;
  }
}

/* ---------------------------------------------------------------- the progress thread */
static void *nic_main(void *arg) {
  ptl_ni_t *ni = arg;
  ptl_x_t *x = ptl_x(ni);
  uint64_t idle_t0 = 0;
  unsigned polls = 0;
  for (unsigned idle = 0; !atomic_load_explicit(&x->nic_stop, memory_order_relaxed);) {
    if (PTL_UNLIKELY(atomic_load_explicit(&x->nxmd, memory_order_relaxed)) && ++polls % 32 == 0) ptl_pub_poll(ni);
    ptl_pub_settle(ni, 0);
    if (ptl_main_progress(x)) {
      idle = 0;
      idle_t0 = 0;
      continue;
    }
    if (++idle % 64) continue;
    uint64_t t = ptl_now_ns();
    if (!idle_t0) idle_t0 = t;
    if (t - idle_t0 < NIC_SPIN_NS || x->efd_main < 0 || atomic_load_explicit(&x->acks_pending, memory_order_relaxed)) {
      sched_yield();
      continue;
    }
    /* idle: sleep until the network (or PtlNIFini's signal) wakes us */
    if (ucp_worker_arm(x->u.worker) == UCS_OK) {
      struct pollfd f = {x->efd_main, POLLIN, 0};
      poll(&f, 1, 100);
    }
    idle_t0 = 0;
  }
  return NULL;
}

/* ---------------------------------------------------------------- NI */
static ptl_interface_t mode_of(ptl_interface_t iface) {
  const char *e;
  if (iface != PTL_IFACE_DEFAULT) return iface;
  e = getenv("PTL_MODE");
  if (e && !strcmp(e, "offload")) return PTLX_IFACE_OFFLOAD;
  if (e && !strcmp(e, "host")) return PTLX_IFACE_HOST;
  if (e && *e) ptl_warn("PTL_MODE=%s is neither host nor offload: using the default", e);
  return PTLX_IFACE_DEFAULT_MODE;
}

static void x_close(ptl_x_t *x) {
  if (x->wake_fd >= 0) close(x->wake_fd);
  if (x->tx.worker) stp_ucx_worker_close(&x->u, &x->tx);
  if (x->u.context) stp_ucx_close(&x->u);
  ptl_pool_fini(&x->ops[0]);
  ptl_pool_fini(&x->ops[1]);
  free(x->peer);
  free(x->sc_tmp);
  free(x);
}

/* Offload mode: UCX's TCP transport performs no RMA of its own; UCP
 * carries it in active messages that the target's worker completes.  With
 * several shortcut Puts in flight on one endpoint (their flushes late:
 * ptl_put.c), UCX 1.13's TCP Put (put_zcopy) crashes the target's worker
 * (a stress test of 4 processes over UCX_TLS=tcp,self: 16 of 20 runs). */
/* And UCX's atomics must be atomic with respect to the CPU's: the target's
 * CPU performs the atomics the NIC path cannot, on the same memory (ptl.h
 * section 6). */
static const char *const offload_ucx_config[] = {"PUT_ENABLE", "n", "ATOMIC_MODE", "cpu", NULL};

int PtlNIInit(ptl_interface_t iface, ptl_pid_t pid, const ptl_ni_limits_t *desired, ptl_ni_limits_t *actual,
              ptl_handle_ni_t *ni_handle) {
  ptl_interface_t mode;
  ptl_x_t *x;
  ptl_ni_t *ni;
  int offload, *modes = NULL;
  const char *pubenv = getenv("PTL_PUBLISH");
  (void)desired; /* ptl's limits are fixed */
  if (!lib.inits) return PTL_NO_INIT;
  if (!ni_handle) return PTL_SEGV;
  if (iface != PTL_IFACE_DEFAULT && iface != PTLX_IFACE_HOST && iface != PTLX_IFACE_OFFLOAD) return PTL_IFACE_INVALID;
  if (pid != PTL_PID_ANY && pid != 0) return PTL_PID_INVALID;
  mode = mode_of(iface);
  if ((ni = ptl_the_ni)) {
    if (ni->mode != mode) return PTL_IFACE_INVALID;
    ni->refs++;
    *ni_handle = ni->handle;
    if (actual) *actual = ptl_limits;
    return PTL_OK;
  }
  offload = mode == PTLX_IFACE_OFFLOAD;
  if (!(x = calloc(1, sizeof(*x))) || !(x->peer = calloc((size_t)lib.boot.size, sizeof(*x->peer))) ||
      !(modes = malloc((size_t)lib.boot.size * sizeof(*modes)))) {
    if (x) free(x->peer);
    free(x);
    return PTL_NO_SPACE;
  }
  x->wake_fd = x->efd_main = x->efd_tx = -1;
  if (ptl_pool_init(&x->ops[0], PTL_KIND_OP, sizeof(ptl_xop_t), 1u << 22) != PTL_OK ||
      ptl_pool_init(&x->ops[1], PTL_KIND_OP, sizeof(ptl_xop_t), 1u << 22) != PTL_OK)
    goto fail;
  if (stp_ucx_open(&x->u, &lib.boot, UCP_FEATURE_AM | UCP_FEATURE_RMA | UCP_FEATURE_WAKEUP |
                                          (offload ? UCP_FEATURE_AMO32 | UCP_FEATURE_AMO64 : 0), offload, "ptl",
                   offload ? offload_ucx_config : NULL) != UCS_OK)
    goto fail;
  if (offload && stp_ucx_worker_open(&x->u, &x->tx, 0) != UCS_OK) goto fail;
  x->txw = offload ? x->tx.worker : x->u.worker;
  x->txep = offload ? x->tx.ep : x->u.ep;
  if (ucp_worker_get_efd(x->u.worker, &x->efd_main) != UCS_OK) x->efd_main = -1;
  if (offload && ucp_worker_get_efd(x->txw, &x->efd_tx) != UCS_OK) x->efd_tx = -1;
  if ((x->wake_fd = eventfd(0, EFD_NONBLOCK)) < 0) goto fail;
  lib.boot.allgather(lib.boot.ctx, &offload, modes, sizeof(offload));
  x->lag_rounds = PTL_LAG_ROUNDS;
  for (int p = 0, n = 0; p < lib.boot.size; p++)
    if ((x->peer[p].offload = modes[p]) && ++n > PTL_LAG_ROUNDS) x->lag_rounds = (unsigned)n;
  x->publish = offload && !(pubenv && !strcmp(pubenv, "0"));
  x->asym = x->publish && syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;

  ptl_process_id_t id = {(ptl_nid_t)lib.boot.rank, 0};
  if (ptl_ni_create(mode, id, lib.boot.size, offload ? &ptl_hooks_offload : &ptl_hooks_host, &ni) != PTL_OK) goto fail;
  ni->x = x;
  if (ptl_xport_handlers(ni) != PTL_OK) {
    ptl_ni_destroy(ni);
    goto fail;
  }
  ptl_the_ni = ni;
  ptl_xport_ni_gone(0);
  if (offload) {
    if (pthread_create(&x->nic, NULL, nic_main, ni) != 0) {
      ptl_the_ni = NULL;
      ptl_ni_destroy(ni);
      goto fail;
    }
    x->nic_running = 1;
  }
  free(modes);
  if (getenv("PTL_VERBOSE") && !strcmp(getenv("PTL_VERBOSE"), "1") && lib.boot.rank == 0)
    ptl_warn("NI up: %d processes, %s mode, publishing %s", lib.boot.size, offload ? "offload" : "host",
             x->publish ? "on" : "off");
  lib.boot.barrier(lib.boot.ctx); /* every handler is in place before anyone sends */
  *ni_handle = ni->handle;
  if (actual) *actual = ptl_limits;
  return PTL_OK;

fail:
  free(modes);
  x_close(x);
  return PTL_FAIL;
}

int PtlNIFini(ptl_handle_ni_t ni_handle) {
  ptl_ni_t *ni = ptl_ni_get(ni_handle);
  ptl_x_t *x;
  if (!ni) return PTL_NI_INVALID;
  if (--ni->refs > 0) return PTL_OK;
  x = ptl_x(ni);
  if (getenv("PTL_VERBOSE") && !strcmp(getenv("PTL_VERBOSE"), "1"))
    ptl_warn("rank %d at PtlNIFini: %llu shortcut Puts, %llu shortcut Gets, %llu published, %llu revoked, %llu events "
             "dropped, %llu messages dropped",
             lib.boot.rank, (unsigned long long)(ni->sr[0][PTLX_SR_SHORTCUT_PUT] + ni->sr[1][PTLX_SR_SHORTCUT_PUT]),
             (unsigned long long)(ni->sr[0][PTLX_SR_SHORTCUT_GET] + ni->sr[1][PTLX_SR_SHORTCUT_GET]),
             (unsigned long long)(ni->sr[0][PTLX_SR_PUBLISHED] + ni->sr[1][PTLX_SR_PUBLISHED]),
             (unsigned long long)(ni->sr[0][PTLX_SR_REVOKED] + ni->sr[1][PTLX_SR_REVOKED]),
             (unsigned long long)(ni->sr[0][PTLX_SR_EQ_DROPPED] + ni->sr[1][PTLX_SR_EQ_DROPPED]),
             (unsigned long long)(ni->sr[0][PTL_SR_DROP_COUNT] + ni->sr[1][PTL_SR_DROP_COUNT]));
  /* let this process's own sends finish (bounded), then wait for everyone */
  ptl_tx_enter(x);
  for (uint64_t t0 = ptl_now_ns(); x->tx_inflight > 0 && ptl_now_ns() - t0 < DRAIN_NS;) {
    ptl_tx_progress(ni);
    if (!x->nic_running) ucp_worker_progress(x->u.worker);
  }
  ptl_tx_leave(x);
  lib.boot.barrier(lib.boot.ctx);
  if (x->nic_running) {
    atomic_store(&x->nic_stop, 1);
    ucp_worker_signal(x->u.worker);
    pthread_join(x->nic, NULL);
    x->nic_running = 0;
  }
  /* Teardown in dependency order: peers' keys (unpacked on the endpoints),
   * then the endpoints -- operations still in flight (unsynchronized Puts,
   * say) complete and their callbacks run now, while the NI they touch is
   * alive -- then the NI and its registrations, then UCX. */
  for (int i = 0; i < x->nlate; i++) ucp_request_free(x->late[i].req); /* (the drain ran out of time: no ACK now) */
  x->nlate = 0;
  ptl_pub_fini(ni);
  x->closing = 1;
  if (x->tx.worker) stp_ucx_worker_close(&x->u, &x->tx);
  stp_ucx_close_endpoints(&x->u);
  ptl_pub_fini(ni); /* (control messages that arrived meanwhile) */
  ptl_the_ni = NULL;
  ptl_mem_fini(ni);   /* MDs over extension memory do not own its registration */
  ptl_ni_destroy(ni); /* the others are deregistered through the hooks; x still alive */
  ptl_xport_ni_gone(1);
  x_close(x);
  return PTL_OK;
}
