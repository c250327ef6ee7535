/*
 * api_misc.c -- the rest of the API: argument-check reports, wait modes,
 * handler-safe locks, error names and verbosity, memory kinds.
 */
#include "api.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gasnet_mk.h"

void stp_check_node_fail(const char *fn, gex_Rank_t node) {
  stp_fatal("%s: rank %u out of range (job has %u processes)", fn, (unsigned)node, (unsigned)stp.nodes);
}

void stp_check_tm_fail(const char *fn, gex_TM_t tm) {
  stp_fatal("%s: %p is not a team of this client (the primordial team, or a TM-pair of its endpoint)", fn,
            (void *)tm);
}

#if STP_CHECKS
void stp_check_inited_fail(const char *fn) { stp_fatal("%s: called before gex_Client_Init (or gasnet_init)", fn); }

void stp_check_remote_fail(const char *fn, gex_Rank_t node, const void *addr, size_t n) {
  if (!stp.seg || !stp.seg[node].size)
    stp_fatal("%s: remote range [%p, %p) (%zu bytes): rank %u has no segment (%s)", fn, addr,
              (const void *)((const char *)addr + n), n, (unsigned)node,
              stp.seg ? "it attached none" : "called before gex_Segment_Attach (or gasnet_attach)");
  stp_fatal("%s: remote range [%p, %p) (%zu bytes) is outside rank %u's segment [%p, %p)", fn, addr,
            (const void *)((const char *)addr + n), n, (unsigned)node, stp.seg[node].addr,
            (void *)((char *)stp.seg[node].addr + stp.seg[node].size));
}

void stp_check_may_send_fail(const char *fn) {
  if (!stp.inited) stp_check_inited_fail(fn);
  if (!stp.may_send) stp_fatal("%s: called before gasnet_attach", fn);
  stp_check_handler_ctx_fail(fn);
}

void stp_check_handler_ctx_fail(const char *fn) {
  stp_fatal("%s: called from inside an AM handler (handlers may only reply)", fn);
}
#endif

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
void gex_HSL_Init(gex_HSL_t *hsl) {
  int rc = pthread_mutex_init(&hsl->lock, NULL);
  if (rc) stp_fatal("gex_HSL_init: pthread_mutex_init failed: %s", strerror(rc));
}

void gex_HSL_Destroy(gex_HSL_t *hsl) {
  int rc = pthread_mutex_destroy(&hsl->lock);
  if (rc) stp_fatal("gex_HSL_destroy: %s (is the lock held?)", strerror(rc));
}

void gex_HSL_Lock(gex_HSL_t *hsl) {
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
  if (rc) stp_fatal("gex_HSL_lock: %s", strerror(rc));
}

void gex_HSL_Unlock(gex_HSL_t *hsl) {
  int rc = pthread_mutex_unlock(&hsl->lock);
  if (rc) stp_fatal("gex_HSL_unlock: %s", strerror(rc));
}

int gex_HSL_Trylock(gex_HSL_t *hsl) {
  int rc = pthread_mutex_trylock(&hsl->lock);
  if (rc == EBUSY) return GASNET_ERR_NOT_READY;
  if (rc) stp_fatal("gex_HSL_trylock: %s", strerror(rc));
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

/* ------------------------------------------------------------------ */
/* verbosity                                                           */
/* ------------------------------------------------------------------ */
static int verbose_errors = 1;
int gex_System_GetVerboseErrors(void) { return verbose_errors; }
void gex_System_SetVerboseErrors(int enable) { verbose_errors = enable != 0; }

/* ------------------------------------------------------------------ */
/* memory kinds: host memory only                                      */
/* ------------------------------------------------------------------ */
int gex_MK_Create(gex_MK_t *memkind_p, gex_Client_t client, const gex_MK_Create_args_t *args, gex_Flags_t flags) {
  (void)client, (void)flags;
  if (!memkind_p || !args) return GASNET_ERR_BAD_ARG;
  if (verbose_errors)
    fprintf(stderr, "stageport: gex_MK_Create: memory kind class %d: stageport has host memory only "
                    "(GASNET_HAVE_MK_CLASS_* are 0)\n", (int)args->gex_class);
  return GASNET_ERR_BAD_ARG;
}

void gex_MK_Destroy(gex_MK_t memkind, gex_Flags_t flags) {
  (void)flags;
  if (memkind != GEX_MK_HOST && memkind != GEX_MK_INVALID) stp_fatal("gex_MK_Destroy: %p is not a memory kind", (void *)memkind);
}

/* ------------------------------------------------------------------ */
/* the legacy layer's fatal errors                                     */
/* ------------------------------------------------------------------ */
void _stp_Fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  stp_vfatal(fmt, ap);
}
