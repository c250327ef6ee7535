/*
 * pmpi_count.h -- MPI traffic accounting (tests/pmpi_count.c), the query
 * side.
 *
 * pmpi_count.c defines MPI_* wrappers that count every MPI call a process
 * makes, then call the PMPI_* entry.  It is either linked into a program
 * (the test binary conformance_pmpi) or preloaded into one
 * (LD_PRELOAD=BUILDDIR/tests/libstpmpicount.so, for the benchmarks).
 *
 * Counts are kept per phase.  A process starts in phase "init"; the client
 * switches with stp_pmpi_mark("attach"), ("run"), ("exit"), or any other
 * name (a name seen before continues its phase).  Per phase:
 *   calls       every wrapped MPI call (the list: PMPI_WRAPPED in
 *               pmpi_count.c; an MPI call not in it is not seen)
 *   comm_calls  communication calls: anything that sends, receives, makes
 *               a persistent request, starts, tests or waits on, cancels or
 *               frees a request, probes, is a collective (communicator
 *               constructors included) or a one-sided operation or
 *               synchronization.  Not: Init, Finalize, Abort, Comm_rank and
 *               _size, Comm_free, Initialized, Query_thread, Error_string,
 *               Type_size, Get_count, Wtime, errhandlers
 *   msgs        messages sent: one per send (a persistent send at each
 *               Start), per collective call (window creation, freeing and
 *               fences included), per one-sided operation (lock, unlock,
 *               flush: none)
 *   bytes       their payload: the send buffer; a collective's local
 *               contribution (what this process hands to it); a Put's or
 *               Accumulate's origin data (a Get sends none)
 *   recvs       receives started (Recv, Irecv, Mrecv, Imrecv, Sendrecv,
 *               a persistent receive at each Start)
 *   names       the communication calls seen, by name, with their counts
 *
 * With STP_PMPI_OUT set, MPI_Finalize (or MPI_Abort, or exit without
 * either, after MPI_Init) writes the file "$STP_PMPI_OUT.<rank>"
 * (MPI_COMM_WORLD rank), one line per phase in the order first entered:
 *   phase=run calls=N comm_calls=N msgs=N bytes=N recvs=N names=MPI_Test:12,MPI_Isend:3
 * (names by count, most first; empty when none).  Unset: no file.
 *
 * A client must run the same with or without the interposer (and against
 * a real GASNet): it finds these functions at run time, with dlsym, through
 * the inline helpers below, which do nothing when they are absent.  A
 * program the interposer is linked into must export them
 * (-Wl,--export-dynamic-symbol=stp_pmpi_phase,...), or dlsym cannot see
 * them.
 */
#ifndef STP_PMPI_COUNT_H
#define STP_PMPI_COUNT_H

#include <dlfcn.h>
#ifndef RTLD_DEFAULT
#error "pmpi_count.h: define _GNU_SOURCE before any #include (dlfcn.h's RTLD_DEFAULT)"
#endif

/* what stp_pmpi_total() returns: a running total over every phase */
enum { STP_PMPI_CALLS, STP_PMPI_COMM_CALLS, STP_PMPI_MSGS, STP_PMPI_BYTES, STP_PMPI_RECVS };

/* switch this process's counting to phase `name` (at most 31 characters
 * are kept; the 16th distinct phase and later share one, "(more)") */
void stp_pmpi_phase(const char *name);

/* a running total of this process (what: STP_PMPI_*; 0 for another value) */
unsigned long long stp_pmpi_total(int what);

typedef void stp_pmpi_phase_fn(const char *name);
typedef unsigned long long stp_pmpi_total_fn(int what);

/* stp_pmpi_phase(name) when the interposer is in the process, else nothing */
static inline void stp_pmpi_mark(const char *name) {
  stp_pmpi_phase_fn *f = (stp_pmpi_phase_fn *)dlsym(RTLD_DEFAULT, "stp_pmpi_phase");
  if (f) f(name);
}

/* stp_pmpi_total(what) when the interposer is in the process; -1 otherwise
 * (so a benchmark can tell "not counted" from 0) */
static inline long long stp_pmpi_read(int what) {
  stp_pmpi_total_fn *f = (stp_pmpi_total_fn *)dlsym(RTLD_DEFAULT, "stp_pmpi_total");
  return f ? (long long)f(what) : -1;
}

#endif
