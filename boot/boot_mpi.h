/*
 * boot_mpi.h -- the MPI launcher: the one place stageport starts, queries
 * and ends MPI for launch purposes (the MPI Core's messaging is its own).
 *
 * Users: the GASNet lifecycle (api/ex_init.c: the open, then only the
 * stp_boot_t it fills), and ptl when it runs on its own (no bootstrap
 * given).  Opens nest: the last close releases.  The functions after the
 * open are also the stp_boot_t's (stp_boot.h).
 */
#ifndef STP_BOOT_MPI_H
#define STP_BOOT_MPI_H

#include <mpi.h>

#include "stp_boot.h"

/* MPI_Init_thread unless MPI is initialised already -- FUNNELED, or
 * SERIALIZED when threads is nonzero (several client threads call, one at a
 * time; a client that initialised MPI itself must have that level);
 * private communicators; *boot filled (collectives over every process of
 * MPI_COMM_WORLD).  0, or -1 after printing why (prefixed by `who`). */
int stp_boot_mpi_open(int *argc, char ***argv, const char *who, int threads, stp_boot_t *boot);

/* The error handler of every communicator stageport creates (whatever the
 * client set on MPI_COMM_WORLD): says which rank saw which MPI error and
 * ends the job.  Valid between open and close. */
MPI_Errhandler stp_boot_mpi_errhandler(void);

/* Locality, found at open: host[i] names rank i's host by the lowest rank
 * on it; *local is how many processes share this machine's cores and
 * memory (this host, or every emulated host on one kernel). */
const int *stp_boot_mpi_hosts(int *local);

/* Exit notices, a channel of their own: notify sends code to every peer
 * (non-blocking); take returns 1 and a peer's code when one has arrived. */
void stp_boot_mpi_exit_notify(int code);
int stp_boot_mpi_exit_take(int *code);

/* 0 once MPI is finalized (by the client, or by close): nothing here works then. */
int stp_boot_mpi_usable(void);

/* Release (waits for this process's notices to leave).  MPI_Finalize when
 * finalize is nonzero, or when open started MPI; never twice. */
void stp_boot_mpi_close(int finalize);

#endif /* STP_BOOT_MPI_H */
