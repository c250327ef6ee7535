/*
 * support.c -- errors, environment knobs, the operation pool, waiting, HSLs.
 */
#include "stp_internal.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

struct stp_globals stp;

/* ------------------------------------------------------------------ */
/* errors                                                              */
/* ------------------------------------------------------------------ */
static void stp_vreport(const char *what, const char *fmt, va_list ap) {
  char msg[1024];
  vsnprintf(msg, sizeof(msg), fmt, ap);
  if (stp.inited)
    fprintf(stderr, "stageport: node %u: %s: %s\n", (unsigned)stp.mynode, what, msg);
  else
    fprintf(stderr, "stageport: %s: %s\n", what, msg);
  fflush(stderr);
}

void stp_fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  stp_vreport("fatal error", fmt, ap);
  va_end(ap);
  fflush(stdout);
  if (stp.inited) stp_boot_abort(1);
  exit(1);
}

void stp_warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  stp_vreport("warning", fmt, ap);
  va_end(ap);
}

uint64_t stp_env_u64(const char *name, uint64_t dflt) {
  const char *s = getenv(name);
  char *end;
  uint64_t v;
  if (!s || !*s) return dflt;
  errno = 0;
  v = strtoull(s, &end, 0);
  if (errno || end == s) stp_fatal("environment: %s=\"%s\" is not a number", name, s);
  switch (*end) {
    case 'k': case 'K': v <<= 10; end++; break;
    case 'm': case 'M': v <<= 20; end++; break;
    case 'g': case 'G': v <<= 30; end++; break;
    default: break;
  }
  if (*end) stp_fatal("environment: %s=\"%s\" has trailing characters", name, s);
  return v;
}

#if STP_CHECKS
void stp_check_attached_fail(const char *fn) {
  if (!stp.inited) stp_fatal("%s: called before gasnet_init", fn);
  stp_fatal("%s: called before gasnet_attach", fn);
}

void stp_check_node_fail(const char *fn, gasnet_node_t node) {
  stp_fatal("%s: node %u out of range (job has %u nodes)", fn, (unsigned)node, (unsigned)stp.nodes);
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

/* ------------------------------------------------------------------ */
/* operation pool: no malloc per operation after warm-up               */
/* ------------------------------------------------------------------ */
static stp_op_t *op_free_list;

stp_op_t *stp_op_alloc(int kind) {
  stp_op_t *op = op_free_list;
  if (STP_UNLIKELY(!op)) {
    enum { CHUNK = 256 };
    stp_op_t *chunk = malloc(CHUNK * sizeof(*chunk));
    if (!chunk) stp_fatal("out of memory allocating operation records");
    for (int i = 0; i < CHUNK - 1; i++) chunk[i].next = &chunk[i + 1];
    chunk[CHUNK - 1].next = NULL;
    op = chunk;
  }
  op_free_list = op->next;
  stp_op_init(op, kind);
  return op;
}

void stp_op_free(stp_op_t *op) {
  op->kind = STP_OP_FREE;
  op->next = op_free_list;
  op_free_list = op;
}

void stp_op_wait(stp_op_t *op, int which) {
  unsigned spins = 0;
  if (stp_op_test(op, which)) return;
  /* the backend owns the op: its own progress first (an RMA backend's
   * completion events are often already there), then the full poll */
  if (stp.ext->poll) {
    stp.ext->poll();
    if (stp_op_test(op, which)) return;
  }
  while (!stp_op_test(op, which)) stp_wait_step(&spins);
}

/* ------------------------------------------------------------------ */
/* waiting                                                             */
/* ------------------------------------------------------------------ */
#define STP_SPINBLOCK_SPINS 1000u

void stp_wait_step_slow(unsigned *spins) {
  if (stp.yield_always || ++*spins > STP_SPINBLOCK_SPINS) sched_yield();
}

void stp_blockuntil_step(unsigned *spins) {
  STP_CHECK_ATTACHED("GASNET_BLOCKUNTIL");
  STP_CHECK_NOT_IN_HANDLER("GASNET_BLOCKUNTIL");
  stp_wait_step(spins);
}

int gasnet_set_waitmode(int wait_mode) {
  if (wait_mode != GASNET_WAIT_SPIN && wait_mode != GASNET_WAIT_BLOCK && wait_mode != GASNET_WAIT_SPINBLOCK)
    return GASNET_ERR_BAD_ARG;
  stp.waitmode = wait_mode;
  stp.yield_always = stp.oversubscribed || wait_mode == GASNET_WAIT_BLOCK;
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
  int rc = pthread_mutex_lock(&hsl->lock);
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
