/*
 * boot.h -- launch, bootstrap collectives and job exit.
 *
 * MPI is the launcher of every stage: rank and size, the exchanges done at
 * init and attach (segment table, addresses, keys), and the exit protocol.
 * No AM or RMA traffic goes through these calls; they block and must only
 * be used at init, attach and exit (every node calls them together).
 */
#ifndef STP_BOOT_H
#define STP_BOOT_H

#include <stddef.h>
#include <stdint.h>

/* MPI_Init unless the client already initialised MPI; sets stp.mynode,
 * stp.nodes, the host table and local process count.  Returns GASNET_OK or
 * an error after printing why. */
int stp_boot_init(int *argc, char ***argv);

/* Collectives over all nodes (blocking, no AM progress). */
void stp_boot_barrier(void);
void stp_boot_allgather(const void *mine, void *all, size_t len);
void stp_boot_alltoall(const void *send, void *recv, size_t len); /* len bytes per peer */
uint64_t stp_boot_min_u64(uint64_t v);

/* Called from the library poll (rate-limited): notices peers' exit notices
 * and records the code in stp.exit_pending/stp.exit_code. */
void stp_boot_poll(void);

/* The exit protocol: tell every peer, wait (bounded) for every peer's
 * notice, tear down, finalize, exit(code).  Peers that do not answer within
 * STAGEPORT_EXIT_TIMEOUT seconds (default 2) get the job aborted with the
 * same code.  from_atexit: called from the atexit hook -- finalize and
 * return instead of calling exit(). */
void stp_boot_exit(int code, int from_atexit);

/* End the whole job now with this code (fatal errors). */
void stp_boot_abort(int code)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;

#endif /* STP_BOOT_H */
