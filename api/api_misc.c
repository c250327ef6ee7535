/*
 * api_misc.c -- the rest of the API: argument-check reports, waiting
 * (GASNET_BLOCKUNTIL, wait modes), handler-safe locks, error names.
 */
#include "api.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

void stp_check_node_fail(const char *fn, gasnet_node_t node) {
  stp_fatal("%s: node %u out of range (job has %u nodes)", fn, (unsigned)node, (unsigned)stp.nodes);
}

#if STP_CHECKS
void stp_check_attached_fail(const char *fn) {
  if (!stp.inited) stp_fatal("%s: called before gasnet_init", fn);
  stp_fatal("%s: called before gasnet_attach", fn);
}

void stp_check_remote_fail(const char *fn, gasnet_node_t node, const void *addr, size_t n) {
  stp_fatal("%s: remote range [%p, %p) (%zu bytes) is outside node %u's segment [%p, %p)", fn, addr,
            (const void *)((const char *)addr + n), n, (unsigned)node, stp.seg[node].addr,
            (void *)((char *)stp.seg[node].addr + stp.seg[node].size));
}

void stp_check_handler_ctx_fail(const char *fn) {
  stp_fatal("%s: called from inside an AM handler (handlers may only reply)", fn);
}
#endif


void stp_blockuntil_step(unsigned *spins) {
  STP_API_GUARD();
  STP_CHECK_ATTACHED("GASNET_BLOCKUNTIL");
  STP_CHECK_NOT_IN_HANDLER("GASNET_BLOCKUNTIL");
  stp_api_wait_step(spins);
}

int gasnet_set_waitmode(int wait_mode) {
  STP_API_GUARD();
  if (wait_mode != GASNET_WAIT_SPIN && wait_mode != GASNET_WAIT_BLOCK && wait_mode != GASNET_WAIT_SPINBLOCK)
    return GASNET_ERR_BAD_ARG;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  stp.waitmode = wait_mode;
  stp.yield_always = stp.oversubscribed || wait_mode == GASNET_WAIT_BLOCK;
  /* a network's progress threads (ptl's offload mode) need the CPU too: a
   * waiter that spins for ever would keep them off it, and with them the
   * progress a remote operation over a real network is waiting for */
  stp.yield_later = wait_mode == GASNET_WAIT_SPINBLOCK ||
                    (ncpu > 0 && (long)stp.local_procs * (1 + stp.net_threads) > ncpu);
  stp.wait_slow = stp.yield_always || stp.yield_later;
  return GASNET_OK;
}

/* ------------------------------------------------------------------ */
/* handler-safe locks                                                  */
/* ------------------------------------------------------------------ */
void gasnet_hsl_init(gasnet_hsl_t *hsl) {
  int rc = pthread_mutex_init(&hsl->lock, NULL);
  if (rc) stp_fatal("gasnet_hsl_init: pthread_mutex_init failed: %s", strerror(rc));
}

void gasnet_hsl_destroy(gasnet_hsl_t *hsl) {
  int rc = pthread_mutex_destroy(&hsl->lock);
  if (rc) stp_fatal("gasnet_hsl_destroy: %s (is the lock held?)", strerror(rc));
}

void gasnet_hsl_lock(gasnet_hsl_t *hsl) {
  int rc;
  if (STP_UNLIKELY(stp_par) && stp_par_held()) {
    /* a handler, holding the library lock: the HSL's holder may be
     * waiting for that lock to exit (gasnet_exit is legal under an HSL);
     * then this thread runs the exit for it */
    while ((rc = pthread_mutex_trylock(&hsl->lock)) == EBUSY) {
      stp_exit_posted();
      sched_yield();
    }
  } else {
    rc = pthread_mutex_lock(&hsl->lock);
  }
  if (rc) stp_fatal("gasnet_hsl_lock: %s", strerror(rc));
}

void gasnet_hsl_unlock(gasnet_hsl_t *hsl) {
  int rc = pthread_mutex_unlock(&hsl->lock);
  if (rc) stp_fatal("gasnet_hsl_unlock: %s", strerror(rc));
}

int gasnet_hsl_trylock(gasnet_hsl_t *hsl) {
  int rc = pthread_mutex_trylock(&hsl->lock);
  if (rc == EBUSY) return GASNET_ERR_NOT_READY;
  if (rc) stp_fatal("gasnet_hsl_trylock: %s", strerror(rc));
  return GASNET_OK;
}

/* ------------------------------------------------------------------ */
/* error names                                                         */
/* ------------------------------------------------------------------ */
static const struct {
  int code;
  const char *name, *desc;
} stp_errors[] = {
    {GASNET_OK, "GASNET_OK", "No error"},
    {GASNET_ERR_RESOURCE, "GASNET_ERR_RESOURCE", "Problem with requested resource"},
    {GASNET_ERR_BAD_ARG, "GASNET_ERR_BAD_ARG", "Invalid function parameter passed"},
    {GASNET_ERR_NOT_INIT, "GASNET_ERR_NOT_INIT", "Problem with GASNet initialization state"},
    {GASNET_ERR_BARRIER_MISMATCH, "GASNET_ERR_BARRIER_MISMATCH", "Barrier id's mismatched"},
    {GASNET_ERR_NOT_READY, "GASNET_ERR_NOT_READY", "Non-blocking operation not complete"},
};

const char *gasnet_ErrorName(int errval) {
  for (size_t i = 0; i < sizeof(stp_errors) / sizeof(stp_errors[0]); i++)
    if (stp_errors[i].code == errval) return stp_errors[i].name;
  return "*unknown*";
}

const char *gasnet_ErrorDesc(int errval) {
  for (size_t i = 0; i < sizeof(stp_errors) / sizeof(stp_errors[0]); i++)
    if (stp_errors[i].code == errval) return stp_errors[i].desc;
  return "no description available";
}
