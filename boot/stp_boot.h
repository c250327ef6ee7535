/*
 * stp_boot.h -- the bootstrap interface: what every layer that must agree
 * with its peers before any network is up takes from the launcher.
 *
 * The ucx/ module and the ptl library take one of these (they never name
 * MPI or GASNet); the GASNet layer gets its own from the MPI launcher
 * (boot_mpi.h: the one call that names it is the open) and hands the same
 * struct down.  The collectives block and
 * make no network progress: they are for setup and teardown, when every
 * process calls them together.
 */
#ifndef STP_BOOT_H
#define STP_BOOT_H

#include <stddef.h>

typedef struct stp_boot {
  int rank, size;
  /* every process's len bytes, in rank order, into all[size * len] */
  void (*allgather)(void *ctx, const void *mine, void *all, size_t len);
  /* return once every process has called it */
  void (*barrier)(void *ctx);
  /* end every process of the job now with this exit code; does not return */
  void (*abort)(void *ctx, int code);
  void *ctx;
  /* nonzero: the client's threads call in turn, never at once (the
   * caller serializes them): UCX workers in serialized thread mode */
  int threads;

  /* What the GASNet lifecycle takes from its launcher besides (NULL where a
   * launcher has none): locality -- host[i] names rank i's host by the
   * lowest rank on it, local is how many processes share this machine's
   * cores and memory; exit notices, a channel of their own (notify sends
   * code to every peer without blocking; take returns 1 and a peer's code
   * once one has arrived); usable() is 0 once the launcher's runtime is
   * gone (the client finalized MPI); close releases (the last of nested
   * opens), ending the runtime too when finalize is nonzero. */
  const int *host;
  int local;
  void (*exit_notify)(int code);
  int (*exit_take)(int *code);
  int (*usable)(void);
  void (*close)(int finalize);
} stp_boot_t;

#endif /* STP_BOOT_H */
