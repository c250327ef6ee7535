/*
 * gasnet.h -- the GASNet-1 API (specification v1.8) as implemented by stageport.
 *
 * A client written for GASNet-1 compiles unchanged against this header and
 * links with -lstageport (see stageport.pc).  Semantics follow the
 * specification (shared/reference/gasnet-spec-1.8.txt in the project that
 * created this file); where a behaviour is implementation-defined, the
 * choice stageport makes is stated next to the declaration.
 *
 * Configuration: GASNET_SEQ, GASNET_PARSYNC or GASNET_PAR (as the client
 * defines; one library), GASNET_SEGMENT_FAST, unaligned segments.
 *
 * Which network implementation runs underneath (the "stage") is chosen at
 * run time with STAGEPORT_STAGE; see stageport.h.
 */
#ifndef GASNET_H
#define GASNET_H

#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <pthread.h>

/* A conduit directory on the include path (<prefix>/include/<stage>-conduit,
 * as the <stage>-*.mak fragments put it there) names the stage a client
 * built through it runs by default (STAGEPORT_CLIENT_STAGE) and the
 * conduit macros. */
#if defined(__has_include)
#if __has_include(<stageport_conduit.h>)
#include <stageport_conduit.h>
#endif
#endif

/* The threading configuration: the client defines at most one of
 * GASNET_SEQ, GASNET_PARSYNC, GASNET_PAR (GASNET_SEQ when none).  One
 * library serves all three: gasnet_init tells it which the client was
 * compiled for. */
#if defined(GASNET_SEQ) + defined(GASNET_PARSYNC) + defined(GASNET_PAR) > 1
#error "define at most one of GASNET_SEQ, GASNET_PARSYNC and GASNET_PAR"
#endif
#if defined(GASNET_PAR)
#undef GASNET_PAR
#define GASNET_PAR 1
#define _STP_THREADS 2
#elif defined(GASNET_PARSYNC)
#undef GASNET_PARSYNC
#define GASNET_PARSYNC 1
#define _STP_THREADS 1
#else
#undef GASNET_SEQ
#define GASNET_SEQ 1
#define _STP_THREADS 0
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* versions and configuration                                          */
/* ------------------------------------------------------------------ */
#define GASNET_SPEC_VERSION_MAJOR 1
#define GASNET_SPEC_VERSION_MINOR 8
#define GASNET_VERSION GASNET_SPEC_VERSION_MAJOR
/* GASNET_RELEASE_VERSION_* and GASNET_CONFIG_STRING: configure's */
#include "gasnet_config.h"

#define GASNET_SEGMENT_FAST 1
#define GASNET_ALIGNED_SEGMENTS 0
#define GASNET_PAGESIZE 4096
#define GASNET_MAXNODES 65535

/* ------------------------------------------------------------------ */
/* GASNet-1 extras: conduit identification, configuration macros       */
/* ------------------------------------------------------------------ */
/* Not in spec 1.8; named and shaped as GASNet 1.x releases define them.
 *
 * Identification: bare tokens (GASNET_CONDUIT_NAME, GASNET_CORE_NAME,
 * GASNET_EXTENDED_NAME, and versions written MAJOR.MINOR, meant for
 * stringizing, not for #if) and the same as strings (the _STR names).  A
 * per-stage conduit header (stageport_conduit.h, included before this block
 * when a stage's conduit directory is on the include path) may define any of
 * them first -- GASNET_CONDUIT_NAME and GASNET_CONDUIT_<NAME> at least --
 * so every definition here is a default.  Without one the conduit is
 * STAGEPORT (GASNET_CONDUIT_STAGEPORT is 1): the stage runs what
 * STAGEPORT_STAGE names at run time, so no header can name its Core or
 * Extended API; both default to the conduit's name, and every version to
 * stageport's release MAJOR.MINOR.  (STAGEPORT is also stageport.h's
 * macro, 1: where stageport.h is included, the bare token expands to 1 when
 * stringized or pasted, so the _STR names are literals, right either way;
 * use them.)
 *
 * Segment configuration (the defines above): GASNET_SEGMENT_FAST is 1;
 * GASNET_SEGMENT_LARGE and GASNET_SEGMENT_EVERYTHING are never defined
 * (test them with #ifdef or #if).  Every segment's base address and size
 * are multiples of GASNET_PAGESIZE (gasnet_attach checks the base each
 * stage's network hands out); GASNET_ALIGNED_SEGMENTS is 0 because the
 * segments are separate mappings whose addresses differ between nodes.
 *
 * GASNET_NULL_ARGV_OK: gasnet_init(NULL, NULL) is supported (MPI accepts it). */
#define STP_STRINGIFY_(x) #x
#define STP_STRINGIFY(x) STP_STRINGIFY_(x)
#ifndef GASNET_CONDUIT_NAME
#define GASNET_CONDUIT_NAME STAGEPORT
#define GASNET_CONDUIT_STAGEPORT 1
#define GASNET_CONDUIT_NAME_STR "STAGEPORT"
#endif
#ifndef GASNET_CONDUIT_NAME_STR
#define GASNET_CONDUIT_NAME_STR STP_STRINGIFY(GASNET_CONDUIT_NAME)
#endif
#ifndef GASNET_CORE_NAME
#define GASNET_CORE_NAME GASNET_CONDUIT_NAME
#ifndef GASNET_CORE_NAME_STR
#define GASNET_CORE_NAME_STR GASNET_CONDUIT_NAME_STR
#endif
#endif
#ifndef GASNET_CORE_NAME_STR
#define GASNET_CORE_NAME_STR STP_STRINGIFY(GASNET_CORE_NAME)
#endif
#ifndef GASNET_CORE_VERSION
#define GASNET_CORE_VERSION GASNET_RELEASE_VERSION_MAJOR.GASNET_RELEASE_VERSION_MINOR
#endif
#ifndef GASNET_CORE_VERSION_STR
#define GASNET_CORE_VERSION_STR STP_STRINGIFY(GASNET_CORE_VERSION)
#endif
#ifndef GASNET_EXTENDED_NAME
#define GASNET_EXTENDED_NAME GASNET_CONDUIT_NAME
#ifndef GASNET_EXTENDED_NAME_STR
#define GASNET_EXTENDED_NAME_STR GASNET_CONDUIT_NAME_STR
#endif
#endif
#ifndef GASNET_EXTENDED_NAME_STR
#define GASNET_EXTENDED_NAME_STR STP_STRINGIFY(GASNET_EXTENDED_NAME)
#endif
#ifndef GASNET_EXTENDED_VERSION
#define GASNET_EXTENDED_VERSION GASNET_RELEASE_VERSION_MAJOR.GASNET_RELEASE_VERSION_MINOR
#endif
#ifndef GASNET_EXTENDED_VERSION_STR
#define GASNET_EXTENDED_VERSION_STR STP_STRINGIFY(GASNET_EXTENDED_VERSION)
#endif
#ifndef GASNET_NULL_ARGV_OK
#define GASNET_NULL_ARGV_OK 1
#endif

/* ------------------------------------------------------------------ */
/* types                                                               */
/* ------------------------------------------------------------------ */
typedef uint32_t gasnet_node_t;
typedef uint8_t gasnet_handler_t;
typedef int32_t gasnet_handlerarg_t;
typedef void *gasnet_token_t;
typedef uint64_t gasnet_register_value_t;
#define SIZEOF_GASNET_REGISTER_VALUE_T 8

struct stp_op;
/* An explicit handle names one pooled operation record and the generation
 * of its use (opaque: a handle synchronized and then used again is found
 * stale, not mistaken for a later operation); all-zero bytes (a null
 * pointer) is GASNET_INVALID_HANDLE, as the specification requires. */
typedef struct stp_op *gasnet_handle_t;
#define GASNET_INVALID_HANDLE ((gasnet_handle_t)0)
/* Value-get handles are a different type and cannot be mixed with the above. */
typedef struct stp_valget *gasnet_valget_handle_t;

/* The handler table's function type (stageport's name; GASNet-1 spells it
 * out as void (*)()).  Unprototyped on purpose, as in GASNet-1: a handler of
 * any AM prototype can be stored without a cast. */
#if defined(__GNUC__) && !defined(__cplusplus)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#endif
typedef void (*stp_handlerfn_t)();
#if defined(__GNUC__) && !defined(__cplusplus)
#pragma GCC diagnostic pop
#endif
typedef struct {
  gasnet_handler_t index; /* 0 = "don't care": assigned at attach, written back */
  stp_handlerfn_t fnptr;
} gasnet_handlerentry_t;

typedef struct {
  void *addr;
  uintptr_t size;
} gasnet_seginfo_t;

/* Node locality (not in spec 1.8; as GASNet-1 releases provide it):
 * host = lowest node on the same host, supernode = the node itself (no
 * shared-memory bypass in stageport), offset = 0. */
typedef struct {
  gasnet_node_t host;
  gasnet_node_t supernode;
  intptr_t offset;
} gasnet_nodeinfo_t;

typedef void *gasnet_threadinfo_t;

/* ------------------------------------------------------------------ */
/* errors                                                              */
/* ------------------------------------------------------------------ */
#define GASNET_OK 0
#define _GASNET_ERR_BASE 10000
#define GASNET_ERR_RESOURCE (_GASNET_ERR_BASE + 1)
#define GASNET_ERR_BAD_ARG (_GASNET_ERR_BASE + 2)
#define GASNET_ERR_NOT_INIT (_GASNET_ERR_BASE + 3)
#define GASNET_ERR_BARRIER_MISMATCH (_GASNET_ERR_BASE + 4)
#define GASNET_ERR_NOT_READY (_GASNET_ERR_BASE + 5)

extern const char *gasnet_ErrorName(int errval);
extern const char *gasnet_ErrorDesc(int errval);

/* ------------------------------------------------------------------ */
/* job control and queries                                             */
/* ------------------------------------------------------------------ */
/* gasnet_init: MPI_Init unless the client already initialised MPI.
 * A second call returns GASNET_ERR_RESOURCE.  Under GASNET_PAR and
 * GASNET_PARSYNC, MPI must give MPI_THREAD_SERIALIZED (stageport asks for
 * it, and checks what a client that initialised MPI itself got).
 * gasnet_init is a macro over stp_init_client, which also takes the
 * client's threading configuration and the stage its conduit directory
 * names (STAGEPORT_STAGE in the environment overrides that stage); the
 * function gasnet_init is a GASNET_SEQ client's with no stage named. */
extern int gasnet_init(int *argc, char ***argv);
extern int stp_init_client(int *argc, char ***argv, int threads, const char *stage);
#ifdef STAGEPORT_CLIENT_STAGE
#define _STP_CLIENT_STAGE STAGEPORT_CLIENT_STAGE
#else
#define _STP_CLIENT_STAGE ((const char *)0)
#endif
#define gasnet_init(argc, argv) stp_init_client((argc), (argv), _STP_THREADS, _STP_CLIENT_STAGE)
/* gasnet_attach: a second call is a fatal error (argument checks on) or
 * returns GASNET_ERR_RESOURCE (checks off).  A segsize that is not a
 * multiple of GASNET_PAGESIZE returns GASNET_ERR_BAD_ARG. */
extern int gasnet_attach(gasnet_handlerentry_t *table, int numentries,
                         uintptr_t segsize, uintptr_t minheapoffset);
/* Any single node may call gasnet_exit: every process of the job ends with
 * that code.  Returning from main() after gasnet_init acts as gasnet_exit(0). */
extern void gasnet_exit(int exitcode)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;
/* Valid from gasnet_init on (before gasnet_attach too, as in GASNet-1
 * releases): gasnet_mynode, gasnet_nodes, gasnet_getMaxLocalSegmentSize,
 * gasnet_getMaxGlobalSegmentSize, gasnet_getNodeInfo, gasnet_getenv, the
 * AM size limits, gasnet_set_waitmode, gasnet_exit.  gasnet_getSegmentInfo,
 * AMs, transfers and barriers need gasnet_attach (a fatal error before it,
 * argument checks on). */
extern gasnet_node_t gasnet_mynode(void);
extern gasnet_node_t gasnet_nodes(void);
extern int gasnet_getSegmentInfo(gasnet_seginfo_t *seginfo_table, int numentries);
extern int gasnet_getNodeInfo(gasnet_nodeinfo_t *nodeinfo_table, int numentries);
extern uintptr_t gasnet_getMaxLocalSegmentSize(void);
extern uintptr_t gasnet_getMaxGlobalSegmentSize(void);
extern char *gasnet_getenv(const char *name);

#define GASNET_WAIT_SPIN 0
#define GASNET_WAIT_BLOCK 1
#define GASNET_WAIT_SPINBLOCK 2
extern int gasnet_set_waitmode(int wait_mode);

/* ------------------------------------------------------------------ */
/* active messages                                                     */
/* ------------------------------------------------------------------ */
#define gasnet_AMMaxArgs() ((size_t)16)
extern size_t gasnet_AMMaxMedium(void);
extern size_t gasnet_AMMaxLongRequest(void);
extern size_t gasnet_AMMaxLongReply(void);

extern int gasnet_AMPoll(void);
extern int gasnet_AMGetMsgSource(gasnet_token_t token, gasnet_node_t *srcindex);

/* GASNET_BLOCKUNTIL: poll until cond holds; yields the CPU per the wait mode
 * (and always when more processes than cores share the host). */
extern void stp_blockuntil_step(unsigned *spins);
#define GASNET_BLOCKUNTIL(cond)                     \
  do {                                              \
    unsigned _stp_spins = 0;                        \
    while (!(cond)) stp_blockuntil_step(&_stp_spins); \
  } while (0)

/* One entry point per category; the M-suffixed names below are macros over
 * them, so every argument is evaluated exactly once. */
extern int stp_AMRequestShortM(gasnet_node_t dest, gasnet_handler_t handler, int numargs, ...);
extern int stp_AMRequestMediumM(gasnet_node_t dest, gasnet_handler_t handler,
                                const void *source_addr, size_t nbytes, int numargs, ...);
extern int stp_AMRequestLongM(gasnet_node_t dest, gasnet_handler_t handler,
                              const void *source_addr, size_t nbytes, void *dest_addr,
                              int async, int numargs, ...);
extern int stp_AMReplyShortM(gasnet_token_t token, gasnet_handler_t handler, int numargs, ...);
extern int stp_AMReplyMediumM(gasnet_token_t token, gasnet_handler_t handler,
                              const void *source_addr, size_t nbytes, int numargs, ...);
extern int stp_AMReplyLongM(gasnet_token_t token, gasnet_handler_t handler,
                            const void *source_addr, size_t nbytes, void *dest_addr,
                            int numargs, ...);

#define gasnet_AMRequestShort0(dest, h) \
  stp_AMRequestShortM((dest), (h), 0)
#define gasnet_AMRequestMedium0(dest, h, src, n) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 0)
#define gasnet_AMRequestLong0(dest, h, src, n, dst) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 0)
#define gasnet_AMRequestLongAsync0(dest, h, src, n, dst) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 0)
#define gasnet_AMReplyShort0(tok, h) \
  stp_AMReplyShortM((tok), (h), 0)
#define gasnet_AMReplyMedium0(tok, h, src, n) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 0)
#define gasnet_AMReplyLong0(tok, h, src, n, dst) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 0)
#define gasnet_AMRequestShort1(dest, h, a0) \
  stp_AMRequestShortM((dest), (h), 1, (gasnet_handlerarg_t)(a0))
#define gasnet_AMRequestMedium1(dest, h, src, n, a0) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 1, (gasnet_handlerarg_t)(a0))
#define gasnet_AMRequestLong1(dest, h, src, n, dst, a0) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 1, (gasnet_handlerarg_t)(a0))
#define gasnet_AMRequestLongAsync1(dest, h, src, n, dst, a0) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 1, (gasnet_handlerarg_t)(a0))
#define gasnet_AMReplyShort1(tok, h, a0) \
  stp_AMReplyShortM((tok), (h), 1, (gasnet_handlerarg_t)(a0))
#define gasnet_AMReplyMedium1(tok, h, src, n, a0) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 1, (gasnet_handlerarg_t)(a0))
#define gasnet_AMReplyLong1(tok, h, src, n, dst, a0) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 1, (gasnet_handlerarg_t)(a0))
#define gasnet_AMRequestShort2(dest, h, a0, a1) \
  stp_AMRequestShortM((dest), (h), 2, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1))
#define gasnet_AMRequestMedium2(dest, h, src, n, a0, a1) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 2, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1))
#define gasnet_AMRequestLong2(dest, h, src, n, dst, a0, a1) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 2, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1))
#define gasnet_AMRequestLongAsync2(dest, h, src, n, dst, a0, a1) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 2, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1))
#define gasnet_AMReplyShort2(tok, h, a0, a1) \
  stp_AMReplyShortM((tok), (h), 2, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1))
#define gasnet_AMReplyMedium2(tok, h, src, n, a0, a1) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 2, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1))
#define gasnet_AMReplyLong2(tok, h, src, n, dst, a0, a1) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 2, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1))
#define gasnet_AMRequestShort3(dest, h, a0, a1, a2) \
  stp_AMRequestShortM((dest), (h), 3, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2))
#define gasnet_AMRequestMedium3(dest, h, src, n, a0, a1, a2) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 3, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2))
#define gasnet_AMRequestLong3(dest, h, src, n, dst, a0, a1, a2) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 3, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2))
#define gasnet_AMRequestLongAsync3(dest, h, src, n, dst, a0, a1, a2) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 3, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2))
#define gasnet_AMReplyShort3(tok, h, a0, a1, a2) \
  stp_AMReplyShortM((tok), (h), 3, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2))
#define gasnet_AMReplyMedium3(tok, h, src, n, a0, a1, a2) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 3, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2))
#define gasnet_AMReplyLong3(tok, h, src, n, dst, a0, a1, a2) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 3, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2))
#define gasnet_AMRequestShort4(dest, h, a0, a1, a2, a3) \
  stp_AMRequestShortM((dest), (h), 4, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3))
#define gasnet_AMRequestMedium4(dest, h, src, n, a0, a1, a2, a3) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 4, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3))
#define gasnet_AMRequestLong4(dest, h, src, n, dst, a0, a1, a2, a3) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 4, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3))
#define gasnet_AMRequestLongAsync4(dest, h, src, n, dst, a0, a1, a2, a3) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 4, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3))
#define gasnet_AMReplyShort4(tok, h, a0, a1, a2, a3) \
  stp_AMReplyShortM((tok), (h), 4, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3))
#define gasnet_AMReplyMedium4(tok, h, src, n, a0, a1, a2, a3) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 4, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3))
#define gasnet_AMReplyLong4(tok, h, src, n, dst, a0, a1, a2, a3) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 4, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3))
#define gasnet_AMRequestShort5(dest, h, a0, a1, a2, a3, a4) \
  stp_AMRequestShortM((dest), (h), 5, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4))
#define gasnet_AMRequestMedium5(dest, h, src, n, a0, a1, a2, a3, a4) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 5, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4))
#define gasnet_AMRequestLong5(dest, h, src, n, dst, a0, a1, a2, a3, a4) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 5, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4))
#define gasnet_AMRequestLongAsync5(dest, h, src, n, dst, a0, a1, a2, a3, a4) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 5, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4))
#define gasnet_AMReplyShort5(tok, h, a0, a1, a2, a3, a4) \
  stp_AMReplyShortM((tok), (h), 5, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4))
#define gasnet_AMReplyMedium5(tok, h, src, n, a0, a1, a2, a3, a4) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 5, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4))
#define gasnet_AMReplyLong5(tok, h, src, n, dst, a0, a1, a2, a3, a4) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 5, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4))
#define gasnet_AMRequestShort6(dest, h, a0, a1, a2, a3, a4, a5) \
  stp_AMRequestShortM((dest), (h), 6, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5))
#define gasnet_AMRequestMedium6(dest, h, src, n, a0, a1, a2, a3, a4, a5) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 6, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5))
#define gasnet_AMRequestLong6(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 6, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5))
#define gasnet_AMRequestLongAsync6(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 6, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5))
#define gasnet_AMReplyShort6(tok, h, a0, a1, a2, a3, a4, a5) \
  stp_AMReplyShortM((tok), (h), 6, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5))
#define gasnet_AMReplyMedium6(tok, h, src, n, a0, a1, a2, a3, a4, a5) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 6, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5))
#define gasnet_AMReplyLong6(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 6, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5))
#define gasnet_AMRequestShort7(dest, h, a0, a1, a2, a3, a4, a5, a6) \
  stp_AMRequestShortM((dest), (h), 7, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6))
#define gasnet_AMRequestMedium7(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 7, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6))
#define gasnet_AMRequestLong7(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 7, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6))
#define gasnet_AMRequestLongAsync7(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 7, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6))
#define gasnet_AMReplyShort7(tok, h, a0, a1, a2, a3, a4, a5, a6) \
  stp_AMReplyShortM((tok), (h), 7, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6))
#define gasnet_AMReplyMedium7(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 7, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6))
#define gasnet_AMReplyLong7(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 7, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6))
#define gasnet_AMRequestShort8(dest, h, a0, a1, a2, a3, a4, a5, a6, a7) \
  stp_AMRequestShortM((dest), (h), 8, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7))
#define gasnet_AMRequestMedium8(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 8, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7))
#define gasnet_AMRequestLong8(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 8, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7))
#define gasnet_AMRequestLongAsync8(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 8, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7))
#define gasnet_AMReplyShort8(tok, h, a0, a1, a2, a3, a4, a5, a6, a7) \
  stp_AMReplyShortM((tok), (h), 8, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7))
#define gasnet_AMReplyMedium8(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 8, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7))
#define gasnet_AMReplyLong8(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 8, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7))
#define gasnet_AMRequestShort9(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8) \
  stp_AMRequestShortM((dest), (h), 9, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8))
#define gasnet_AMRequestMedium9(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 9, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8))
#define gasnet_AMRequestLong9(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 9, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8))
#define gasnet_AMRequestLongAsync9(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 9, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8))
#define gasnet_AMReplyShort9(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8) \
  stp_AMReplyShortM((tok), (h), 9, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8))
#define gasnet_AMReplyMedium9(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 9, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8))
#define gasnet_AMReplyLong9(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 9, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8))
#define gasnet_AMRequestShort10(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
  stp_AMRequestShortM((dest), (h), 10, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9))
#define gasnet_AMRequestMedium10(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 10, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9))
#define gasnet_AMRequestLong10(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 10, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9))
#define gasnet_AMRequestLongAsync10(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 10, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9))
#define gasnet_AMReplyShort10(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
  stp_AMReplyShortM((tok), (h), 10, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9))
#define gasnet_AMReplyMedium10(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 10, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9))
#define gasnet_AMReplyLong10(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 10, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9))
#define gasnet_AMRequestShort11(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
  stp_AMRequestShortM((dest), (h), 11, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10))
#define gasnet_AMRequestMedium11(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 11, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10))
#define gasnet_AMRequestLong11(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 11, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10))
#define gasnet_AMRequestLongAsync11(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 11, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10))
#define gasnet_AMReplyShort11(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
  stp_AMReplyShortM((tok), (h), 11, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10))
#define gasnet_AMReplyMedium11(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 11, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10))
#define gasnet_AMReplyLong11(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 11, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10))
#define gasnet_AMRequestShort12(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
  stp_AMRequestShortM((dest), (h), 12, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11))
#define gasnet_AMRequestMedium12(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 12, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11))
#define gasnet_AMRequestLong12(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 12, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11))
#define gasnet_AMRequestLongAsync12(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 12, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11))
#define gasnet_AMReplyShort12(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
  stp_AMReplyShortM((tok), (h), 12, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11))
#define gasnet_AMReplyMedium12(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 12, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11))
#define gasnet_AMReplyLong12(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 12, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11))
#define gasnet_AMRequestShort13(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
  stp_AMRequestShortM((dest), (h), 13, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12))
#define gasnet_AMRequestMedium13(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 13, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12))
#define gasnet_AMRequestLong13(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 13, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12))
#define gasnet_AMRequestLongAsync13(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 13, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12))
#define gasnet_AMReplyShort13(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
  stp_AMReplyShortM((tok), (h), 13, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12))
#define gasnet_AMReplyMedium13(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 13, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12))
#define gasnet_AMReplyLong13(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 13, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12))
#define gasnet_AMRequestShort14(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) \
  stp_AMRequestShortM((dest), (h), 14, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13))
#define gasnet_AMRequestMedium14(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 14, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13))
#define gasnet_AMRequestLong14(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 14, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13))
#define gasnet_AMRequestLongAsync14(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 14, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13))
#define gasnet_AMReplyShort14(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) \
  stp_AMReplyShortM((tok), (h), 14, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13))
#define gasnet_AMReplyMedium14(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 14, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13))
#define gasnet_AMReplyLong14(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 14, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13))
#define gasnet_AMRequestShort15(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) \
  stp_AMRequestShortM((dest), (h), 15, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13), (gasnet_handlerarg_t)(a14))
#define gasnet_AMRequestMedium15(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 15, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13), (gasnet_handlerarg_t)(a14))
#define gasnet_AMRequestLong15(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 15, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13), (gasnet_handlerarg_t)(a14))
#define gasnet_AMRequestLongAsync15(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 15, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13), (gasnet_handlerarg_t)(a14))
#define gasnet_AMReplyShort15(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) \
  stp_AMReplyShortM((tok), (h), 15, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13), (gasnet_handlerarg_t)(a14))
#define gasnet_AMReplyMedium15(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 15, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13), (gasnet_handlerarg_t)(a14))
#define gasnet_AMReplyLong15(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 15, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13), (gasnet_handlerarg_t)(a14))
#define gasnet_AMRequestShort16(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) \
  stp_AMRequestShortM((dest), (h), 16, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13), (gasnet_handlerarg_t)(a14), (gasnet_handlerarg_t)(a15))
#define gasnet_AMRequestMedium16(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) \
  stp_AMRequestMediumM((dest), (h), (src), (n), 16, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13), (gasnet_handlerarg_t)(a14), (gasnet_handlerarg_t)(a15))
#define gasnet_AMRequestLong16(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 0, 16, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13), (gasnet_handlerarg_t)(a14), (gasnet_handlerarg_t)(a15))
#define gasnet_AMRequestLongAsync16(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) \
  stp_AMRequestLongM((dest), (h), (src), (n), (dst), 1, 16, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13), (gasnet_handlerarg_t)(a14), (gasnet_handlerarg_t)(a15))
#define gasnet_AMReplyShort16(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) \
  stp_AMReplyShortM((tok), (h), 16, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13), (gasnet_handlerarg_t)(a14), (gasnet_handlerarg_t)(a15))
#define gasnet_AMReplyMedium16(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) \
  stp_AMReplyMediumM((tok), (h), (src), (n), 16, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13), (gasnet_handlerarg_t)(a14), (gasnet_handlerarg_t)(a15))
#define gasnet_AMReplyLong16(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) \
  stp_AMReplyLongM((tok), (h), (src), (n), (dst), 16, (gasnet_handlerarg_t)(a0), (gasnet_handlerarg_t)(a1), (gasnet_handlerarg_t)(a2), (gasnet_handlerarg_t)(a3), (gasnet_handlerarg_t)(a4), (gasnet_handlerarg_t)(a5), (gasnet_handlerarg_t)(a6), (gasnet_handlerarg_t)(a7), (gasnet_handlerarg_t)(a8), (gasnet_handlerarg_t)(a9), (gasnet_handlerarg_t)(a10), (gasnet_handlerarg_t)(a11), (gasnet_handlerarg_t)(a12), (gasnet_handlerarg_t)(a13), (gasnet_handlerarg_t)(a14), (gasnet_handlerarg_t)(a15))

/* ------------------------------------------------------------------ */
/* no-interrupt sections and handler-safe locks                        */
/* ------------------------------------------------------------------ */
/* stageport is purely polling-based: handlers run only inside GASNet calls,
 * on the thread that made the call (under GASNET_PAR: whichever client
 * thread polls), never asynchronously, so no-interrupt sections are empty
 * (the specification's "strictly polling-based" case).  HSLs are real
 * locks (POSIX mutexes) in every configuration. */
#define gasnet_hold_interrupts() ((void)0)
#define gasnet_resume_interrupts() ((void)0)

typedef struct {
  pthread_mutex_t lock;
} gasnet_hsl_t;
#define GASNET_HSL_INITIALIZER { PTHREAD_MUTEX_INITIALIZER }
extern void gasnet_hsl_init(gasnet_hsl_t *hsl);
extern void gasnet_hsl_destroy(gasnet_hsl_t *hsl);
extern void gasnet_hsl_lock(gasnet_hsl_t *hsl);
extern void gasnet_hsl_unlock(gasnet_hsl_t *hsl);
extern int gasnet_hsl_trylock(gasnet_hsl_t *hsl);

/* ------------------------------------------------------------------ */
/* extended API: put/get                                               */
/* ------------------------------------------------------------------ */
/* Remote addresses must lie in the target node's segment; local addresses
 * may be anywhere.  Sources are declared const: every call that is correct
 * against the specification's prototypes is correct here. */
extern void gasnet_put(gasnet_node_t node, void *dest, const void *src, size_t nbytes);
extern void gasnet_put_bulk(gasnet_node_t node, void *dest, const void *src, size_t nbytes);
extern void gasnet_get(void *dest, gasnet_node_t node, const void *src, size_t nbytes);
extern void gasnet_get_bulk(void *dest, gasnet_node_t node, const void *src, size_t nbytes);
extern void gasnet_memset(gasnet_node_t node, void *dest, int val, size_t nbytes);

extern gasnet_handle_t gasnet_put_nb(gasnet_node_t node, void *dest, const void *src, size_t nbytes);
extern gasnet_handle_t gasnet_put_nb_bulk(gasnet_node_t node, void *dest, const void *src, size_t nbytes);
extern gasnet_handle_t gasnet_get_nb(void *dest, gasnet_node_t node, const void *src, size_t nbytes);
extern gasnet_handle_t gasnet_get_nb_bulk(void *dest, gasnet_node_t node, const void *src, size_t nbytes);
extern gasnet_handle_t gasnet_memset_nb(gasnet_node_t node, void *dest, int val, size_t nbytes);

extern void gasnet_put_nbi(gasnet_node_t node, void *dest, const void *src, size_t nbytes);
extern void gasnet_put_nbi_bulk(gasnet_node_t node, void *dest, const void *src, size_t nbytes);
extern void gasnet_get_nbi(void *dest, gasnet_node_t node, const void *src, size_t nbytes);
extern void gasnet_get_nbi_bulk(void *dest, gasnet_node_t node, const void *src, size_t nbytes);
extern void gasnet_memset_nbi(gasnet_node_t node, void *dest, int val, size_t nbytes);

/* explicit-handle synchronization */
extern void gasnet_wait_syncnb(gasnet_handle_t handle);
extern int gasnet_try_syncnb(gasnet_handle_t handle);
extern void gasnet_wait_syncnb_all(gasnet_handle_t *handles, size_t numhandles);
extern int gasnet_try_syncnb_all(gasnet_handle_t *handles, size_t numhandles);
extern void gasnet_wait_syncnb_some(gasnet_handle_t *handles, size_t numhandles);
extern int gasnet_try_syncnb_some(gasnet_handle_t *handles, size_t numhandles);
/* _nopoll variants: test completion without servicing the network */
extern int gasnet_try_syncnb_nopoll(gasnet_handle_t handle);
extern int gasnet_try_syncnb_all_nopoll(gasnet_handle_t *handles, size_t numhandles);
extern int gasnet_try_syncnb_some_nopoll(gasnet_handle_t *handles, size_t numhandles);

/* implicit-handle synchronization */
extern void gasnet_wait_syncnbi_gets(void);
extern void gasnet_wait_syncnbi_puts(void);
extern void gasnet_wait_syncnbi_all(void);
extern int gasnet_try_syncnbi_gets(void);
extern int gasnet_try_syncnbi_puts(void);
extern int gasnet_try_syncnbi_all(void);

extern void gasnet_begin_nbi_accessregion(void);
extern gasnet_handle_t gasnet_end_nbi_accessregion(void);

/* register-memory operations: 0 < nbytes <= SIZEOF_GASNET_REGISTER_VALUE_T */
extern void gasnet_put_val(gasnet_node_t node, void *dest, gasnet_register_value_t value, size_t nbytes);
extern gasnet_handle_t gasnet_put_nb_val(gasnet_node_t node, void *dest, gasnet_register_value_t value,
                                         size_t nbytes);
extern void gasnet_put_nbi_val(gasnet_node_t node, void *dest, gasnet_register_value_t value, size_t nbytes);
extern gasnet_register_value_t gasnet_get_val(gasnet_node_t node, const void *src, size_t nbytes);
extern gasnet_valget_handle_t gasnet_get_nb_val(gasnet_node_t node, const void *src, size_t nbytes);
extern gasnet_register_value_t gasnet_wait_syncnb_valget(gasnet_valget_handle_t handle);

/* ------------------------------------------------------------------ */
/* barriers                                                            */
/* ------------------------------------------------------------------ */
#define GASNET_BARRIERFLAG_ANONYMOUS 1
#define GASNET_BARRIERFLAG_MISMATCH 2
/* flags: 0 or a combination of ANONYMOUS, MISMATCH and UNNAMED (below);
 * other bits are a fatal error (argument checks on) */
extern void gasnet_barrier_notify(int id, int flags);
extern int gasnet_barrier_wait(int id, int flags);
extern int gasnet_barrier_try(int id, int flags);

/* GASNet-1 release extras (not in spec 1.8), as GASNet 1.x defines them.
 *
 * GASNET_BARRIERFLAG_UNNAMED: an anonymous barrier (the flag includes
 * GASNET_BARRIERFLAG_ANONYMOUS) whose caller promises that every node
 * passes UNNAMED in this phase, so that an implementation need not match
 * names at all.  Matching is exactly ANONYMOUS's: it never mismatches by
 * itself, a named node's id becomes the phase's value, a node passing
 * GASNET_BARRIERFLAG_MISMATCH still makes every node's wait return
 * GASNET_ERR_BARRIER_MISMATCH, and wait's flags must equal notify's
 * (3.5.2: UNNAMED notify, ANONYMOUS wait is a mismatch on that node).  A
 * phase that mixes UNNAMED with other flags breaks the promise: GASNet does
 * not define the outcome (its conduits with a hardware barrier for UNNAMED
 * would not match it with the others); stageport treats it as anonymous.
 *
 * gasnet_barrier(id, flags): gasnet_barrier_notify(id, flags) then
 * gasnet_barrier_wait(id, flags), its result; a fatal error between a
 * notify and its wait.
 *
 * gasnet_barrier_result(&id): the outcome of the last completed barrier
 * (completed by its wait, or by a try that did not return NOT_READY):
 * non-zero if every node's notify was
 * anonymous (ANONYMOUS or UNNAMED), else 0 with *id set to the phase's
 * value, the named nodes' id (after a mismatched phase: 0, *id
 * unspecified).  Before the first barrier it reports the attach barrier,
 * anonymous.  A fatal error between a notify and its wait. */
#define GASNET_BARRIERFLAG_UNNAMED (GASNET_BARRIERFLAG_ANONYMOUS | 8)
extern int gasnet_barrier(int id, int flags);
extern int gasnet_barrier_result(int *id);

/* ------------------------------------------------------------------ */
/* threading                                                           */
/* ------------------------------------------------------------------ */
/* GASNET_PAR: any client thread may call any function at any time (the
 * barrier: one thread per node, as the specification says); implicit-
 * handle operations and access regions belong to the thread that started
 * them.  Thread information is not needed to find a thread's state, so
 * these are no-ops in every configuration. */
#define GASNET_GET_THREADINFO() ((gasnet_threadinfo_t)0)
#define GASNET_POST_THREADINFO(info) \
  static const char _stp_threadinfo_posted __attribute__((unused)) = 0
#define GASNET_BEGIN_FUNCTION() GASNET_POST_THREADINFO(GASNET_GET_THREADINFO())

#ifdef __cplusplus
}
#endif

#endif /* GASNET_H */
