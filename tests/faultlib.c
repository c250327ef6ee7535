/*
 * faultlib.c -- a fault injector, preloaded (LD_PRELOAD) into a test job:
 * it wraps calls the library makes into MPI and UCX and makes the Nth one
 * fail, the way SQLite's test VFS fails the Nth write.  The job must then
 * end with an error that names what failed -- never succeed silently,
 * never hang.
 *
 * Environment (each optional; N counts from 1, per process):
 *   FAULT_RANK=R              inject only in the process of MPI_COMM_WORLD rank R
 *   FAULT_MPI_ERRORS_RETURN=1 after MPI_Init*, set MPI_ERRORS_RETURN on
 *                             MPI_COMM_WORLD, as a client that checks its own
 *                             MPI return codes does (the library's
 *                             communicators must not inherit it)
 *   FAULT_MPI_ISEND_AT=N      the Nth MPI_Isend fails: the communicator's error
 *                             handler is called with MPI_ERR_OTHER, which is
 *                             then returned (the message is not sent)
 *   FAULT_UCP_PUT_AT=N        the Nth ucp_put_nbx fails at once (returns an
 *                             error status, writes nothing)
 *   FAULT_UCP_STATUS_AT=N     the Nth final status ucp_request_check_status
 *                             reports (not UCS_INPROGRESS) becomes
 *                             UCS_ERR_IO_ERROR: a UCX operation that failed
 *                             after it was started
 *   FAULT_MPI_ISEND_CORRUPT_AT=N  of the MPI_Isends of 64 bytes or more, the
 *                             Nth sends a copy whose last byte is flipped
 *                             (silent corruption on the wire: a checking
 *                             test must notice)
 *   FAULT_UCP_PUT_CORRUPT_AT=N    the same for ucp_put_nbx
 *   FAULT_CORRUPT_COUNT=K     with the two above: corrupt K of them in a row
 *                             (default 1; one flipped byte may land on data
 *                             a later write overwrites before anyone reads it)
 * (the corrupted copies are never freed: the operation may still read them)
 * Each injection prints "faultlib: rank R: injected ..." on stderr.
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucp/api/ucp.h>

static long env_n(const char *name) {
  const char *s = getenv(name);
  return s && *s ? atol(s) : 0;
}

static int my_rank(void) {
  const char *s = getenv("OMPI_COMM_WORLD_RANK");
  return s ? atoi(s) : -1;
}

/* 1 if this process injects at all (FAULT_RANK unset, or ours) */
static int here(void) {
  const char *s = getenv("FAULT_RANK");
  return !s || !*s || atoi(s) == my_rank();
}

/* is the nth candidate one to corrupt (from the first, FAULT_CORRUPT_COUNT of them)? */
static int corrupt_now(long nth, long first) {
  static long count = -1;
  if (count < 0) count = env_n("FAULT_CORRUPT_COUNT") > 0 ? env_n("FAULT_CORRUPT_COUNT") : 1;
  return nth >= first && nth < first + count;
}

/* a copy of buf with its last byte flipped, for the *_CORRUPT_AT faults */
static void *corrupted(const void *buf, size_t n, const char *what, long nth) {
  unsigned char *c = malloc(n);
  if (!c) return NULL;
  memcpy(c, buf, n);
  c[n - 1] ^= 0x5a;
  fprintf(stderr, "faultlib: rank %d: injected a flipped last byte into %s #%ld (%zu bytes)\n", my_rank(), what, nth, n);
  fflush(stderr);
  return c;
}

static void *next(const char *sym) {
  void *f = dlsym(RTLD_NEXT, sym);
  if (!f) {
    fprintf(stderr, "faultlib: no %s to wrap\n", sym);
    abort();
  }
  return f;
}

/* ------------------------------------------------------------------ MPI */
static void errors_return(void) {
  if (env_n("FAULT_MPI_ERRORS_RETURN") && here()) {
    PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    fprintf(stderr, "faultlib: rank %d: MPI_COMM_WORLD set to MPI_ERRORS_RETURN\n", my_rank());
  }
}

int MPI_Init(int *argc, char ***argv) {
  int rc = PMPI_Init(argc, argv);
  errors_return();
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  errors_return();
  return rc;
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req) {
  static long calls, at = -1, big, bad_at = -1;
  int tsize = 0;
  if (at < 0) at = here() ? env_n("FAULT_MPI_ISEND_AT") : 0;
  if (bad_at < 0) bad_at = here() ? env_n("FAULT_MPI_ISEND_CORRUPT_AT") : 0;
  if (bad_at && count > 0 && PMPI_Type_size(type, &tsize) == MPI_SUCCESS && (size_t)count * tsize >= 64 &&
      corrupt_now(++big, bad_at)) {
    void *c = corrupted(buf, (size_t)count * tsize, "MPI_Isend", big);
    if (c) return PMPI_Isend(c, count, type, dest, tag, comm, req);
  }
  if (at && ++calls == at) {
    fprintf(stderr, "faultlib: rank %d: injected MPI_ERR_OTHER into MPI_Isend #%ld (to rank %d, %d bytes)\n",
            my_rank(), calls, dest, count);
    fflush(stderr);
    *req = MPI_REQUEST_NULL;
    PMPI_Comm_call_errhandler(comm, MPI_ERR_OTHER);
    return MPI_ERR_OTHER;
  }
  return PMPI_Isend(buf, count, type, dest, tag, comm, req);
}

/* ------------------------------------------------------------------ UCX */
ucs_status_ptr_t ucp_put_nbx(ucp_ep_h ep, const void *buffer, size_t count, uint64_t remote_addr, ucp_rkey_h rkey,
                             const ucp_request_param_t *param) {
  static ucs_status_ptr_t (*real)(ucp_ep_h, const void *, size_t, uint64_t, ucp_rkey_h, const ucp_request_param_t *);
  static long calls, at = -1, big, bad_at = -1;
  if (!real)
    real = (ucs_status_ptr_t(*)(ucp_ep_h, const void *, size_t, uint64_t, ucp_rkey_h,
                                const ucp_request_param_t *))next("ucp_put_nbx");
  if (at < 0) at = here() ? env_n("FAULT_UCP_PUT_AT") : 0;
  if (bad_at < 0) bad_at = here() ? env_n("FAULT_UCP_PUT_CORRUPT_AT") : 0;
  if (bad_at && count >= 64 && corrupt_now(++big, bad_at)) {
    void *c = corrupted(buffer, count, "ucp_put_nbx", big);
    if (c) return real(ep, c, count, remote_addr, rkey, param);
  }
  if (at && ++calls == at) {
    fprintf(stderr, "faultlib: rank %d: injected UCS_ERR_IO_ERROR into ucp_put_nbx #%ld (%zu bytes)\n", my_rank(),
            calls, count);
    fflush(stderr);
    return UCS_STATUS_PTR(UCS_ERR_IO_ERROR);
  }
  return real(ep, buffer, count, remote_addr, rkey, param);
}

ucs_status_t ucp_request_check_status(void *request) {
  static ucs_status_t (*real)(void *);
  static long finals, at = -1;
  ucs_status_t st;
  if (!real) real = (ucs_status_t (*)(void *))next("ucp_request_check_status");
  if (at < 0) at = here() ? env_n("FAULT_UCP_STATUS_AT") : 0;
  st = real(request);
  if (at && st != UCS_INPROGRESS && ++finals == at) {
    fprintf(stderr, "faultlib: rank %d: injected UCS_ERR_IO_ERROR as the final status of UCX request #%ld (was %s)\n",
            my_rank(), finals, ucs_status_string(st));
    fflush(stderr);
    return UCS_ERR_IO_ERROR;
  }
  return st;
}
