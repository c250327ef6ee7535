/*
 * gasnetex.h -- the GASNet-EX API (API description, spec v0.19, phase 1 of
 * stageport's implementation) and the GASNet tools, as implemented by
 * stageport.  gasnet.h (GASNet-1) is a layer over this header: its types
 * are these types.
 *
 * The authority on semantics is the GASNet-EX API description; this header
 * says where stageport makes an implementation-defined choice, and what it
 * does not (yet) provide: teams other than the primordial one, collectives
 * other than the barrier and broadcast, remote atomics (gasnet_ratomic.h)
 * and VIS (gasnet_vis.h) arrive in later phases; segment-disposition flags,
 * gex_Segment_Create and memory kinds (gasnet_mk.h: host memory only),
 * more than one endpoint per process (GASNET_MAXEPS is 1) and deferred
 * progress threads are not provided.
 *
 * Which network implementation runs underneath (the "stage") is chosen at
 * run time with STAGEPORT_STAGE, or by the conduit directory a client is
 * built through (<stage>-conduit/<stage>-{seq,par}.mak); see stageport.h.
 */
#ifndef _GASNETEX_H
#define _GASNETEX_H
#define _IN_GASNETEX_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <inttypes.h>
#include <pthread.h>

/* A conduit directory on the include path (<prefix>/include/<stage>-conduit,
 * as the <stage>-*.mak fragments put it there) names the stage a client
 * built through it runs by default (STAGEPORT_CLIENT_STAGE), the conduit
 * macros and what its stage does natively (GASNET_NATIVE_NP_ALLOC_*). */
#if defined(__has_include)
#if __has_include(<stageport_conduit.h>)
#include <stageport_conduit.h>
#endif
#endif

/* The threading configuration: the client defines at most one of
 * GASNET_SEQ, GASNET_PARSYNC, GASNET_PAR (GASNET_SEQ when none).  One
 * library serves all three: gasnet_init / gex_Client_Init tell it which the
 * client was compiled for. */
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

#include "gasnet_fwd.h"
/* GASNET_RELEASE_VERSION_*, GASNET_CONFIG_STRING: configure's */
#include "gasnet_config.h"
/* The C types' sizes, as GASNet's configuration header gives them to
 * clients (GASNet-EX's testteambcast sizes its buffers with SIZEOF_INT):
 * the compiler's own, unless defined already. */
#if defined(__SIZEOF_INT__)
#ifndef SIZEOF_CHAR
#define SIZEOF_CHAR 1
#endif
#ifndef SIZEOF_SHORT
#define SIZEOF_SHORT __SIZEOF_SHORT__
#endif
#ifndef SIZEOF_INT
#define SIZEOF_INT __SIZEOF_INT__
#endif
#ifndef SIZEOF_LONG
#define SIZEOF_LONG __SIZEOF_LONG__
#endif
#ifndef SIZEOF_LONG_LONG
#define SIZEOF_LONG_LONG __SIZEOF_LONG_LONG__
#endif
#ifndef SIZEOF_FLOAT
#define SIZEOF_FLOAT __SIZEOF_FLOAT__
#endif
#ifndef SIZEOF_DOUBLE
#define SIZEOF_DOUBLE __SIZEOF_DOUBLE__
#endif
#ifndef SIZEOF_SIZE_T
#define SIZEOF_SIZE_T __SIZEOF_SIZE_T__
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* versions and configuration                                          */
/* ------------------------------------------------------------------ */
/* The GASNet-EX API description this header implements (phase 1 of it:
 * see the top), and the GASNet-1 specification gasnet.h implements. */
#define GEX_SPEC_VERSION_MAJOR 0
#define GEX_SPEC_VERSION_MINOR 19
#define GASNET_SPEC_VERSION_MAJOR 1
#define GASNET_SPEC_VERSION_MINOR 8
#define GASNET_VERSION GASNET_SPEC_VERSION_MAJOR

#define GASNET_SEGMENT_FAST 1
#define GASNET_ALIGNED_SEGMENTS 0
#define GASNET_PAGESIZE 4096
#define GASNET_MAXNODES 65535
/* One endpoint per process: gex_EP_Create refuses a second one
 * (GASNET_ERR_RESOURCE). */
#define GASNET_MAXEPS 1
#define GEX_AM_INDEX_BASE 128
/* Handlers run only inside GASNet calls on client threads: no hidden
 * receive thread (the ptl stages' progress thread never runs handlers). */
#define GASNET_HIDDEN_AM_CONCURRENCY_LEVEL 0
#define GASNET_SUPPORTS_AM_CANCEL 20240418L
#define GASNET_SUPPORTS_AM_COMMIT_V2 20240906L
#define GASNET_SUPPORTS_TI_SRCRANK 1
#define GASNET_SUPPORTS_TI_EP 1
#define GASNET_SUPPORTS_TI_ENTRY 1
#define GASNET_SUPPORTS_TI_IS_REQ 1
#define GASNET_SUPPORTS_TI_IS_LONG 1
/* GASNET_NATIVE_NP_ALLOC_{REQ,REP}_{MEDIUM,LONG}: defined by a stage's
 * conduit header (stageport_conduit.h) where that stage's Core hands out
 * its own send memory; undefined otherwise (a stage chosen at run time
 * cannot promise it).  GASNET_RCV_THREAD, GASNET_SND_THREAD, GASNET_PSHM:
 * undefined (no such threads; no shared-memory bypass). */

/* Conduit identification (GASNet-1 release extras, kept in GASNet-EX):
 * bare tokens (GASNET_CONDUIT_NAME, GASNET_CORE_NAME, GASNET_EXTENDED_NAME,
 * and versions written MAJOR.MINOR, for stringizing, not #if) and the same
 * as strings (the _STR names).  A stage's conduit header may define any of
 * them first; without one the conduit is STAGEPORT (GASNET_CONDUIT_STAGEPORT
 * is 1): the stage runs what STAGEPORT_STAGE names at run time. */
#define _STP_STRINGIFY_(x) #x
#define _STP_STRINGIFY(x) _STP_STRINGIFY_(x)
#ifndef GASNET_CONDUIT_NAME
#define GASNET_CONDUIT_NAME STAGEPORT
#define GASNET_CONDUIT_STAGEPORT 1
#define GASNET_CONDUIT_NAME_STR "STAGEPORT"
#endif
#ifndef GASNET_CONDUIT_NAME_STR
#define GASNET_CONDUIT_NAME_STR _STP_STRINGIFY(GASNET_CONDUIT_NAME)
#endif
#ifndef GASNET_CORE_NAME
#define GASNET_CORE_NAME GASNET_CONDUIT_NAME
#ifndef GASNET_CORE_NAME_STR
#define GASNET_CORE_NAME_STR GASNET_CONDUIT_NAME_STR
#endif
#endif
#ifndef GASNET_CORE_NAME_STR
#define GASNET_CORE_NAME_STR _STP_STRINGIFY(GASNET_CORE_NAME)
#endif
#ifndef GASNET_CORE_VERSION
#define GASNET_CORE_VERSION GASNET_RELEASE_VERSION_MAJOR.GASNET_RELEASE_VERSION_MINOR
#endif
#ifndef GASNET_CORE_VERSION_STR
#define GASNET_CORE_VERSION_STR _STP_STRINGIFY(GASNET_CORE_VERSION)
#endif
#ifndef GASNET_EXTENDED_NAME
#define GASNET_EXTENDED_NAME GASNET_CONDUIT_NAME
#ifndef GASNET_EXTENDED_NAME_STR
#define GASNET_EXTENDED_NAME_STR GASNET_CONDUIT_NAME_STR
#endif
#endif
#ifndef GASNET_EXTENDED_NAME_STR
#define GASNET_EXTENDED_NAME_STR _STP_STRINGIFY(GASNET_EXTENDED_NAME)
#endif
#ifndef GASNET_EXTENDED_VERSION
#define GASNET_EXTENDED_VERSION GASNET_RELEASE_VERSION_MAJOR.GASNET_RELEASE_VERSION_MINOR
#endif
#ifndef GASNET_EXTENDED_VERSION_STR
#define GASNET_EXTENDED_VERSION_STR _STP_STRINGIFY(GASNET_EXTENDED_VERSION)
#endif
#ifndef GASNET_NULL_ARGV_OK
#define GASNET_NULL_ARGV_OK 1 /* gex_Client_Init / gasnet_init with NULL argc and argv (MPI accepts them) */
#endif

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
/* basic types                                                         */
/* ------------------------------------------------------------------ */
/* A handler's token: what it may reply on and query (interoperable with
 * gasnet_token_t).  Valid while the handler runs. */
struct _stp_token;
typedef struct _stp_token *gex_Token_t;
typedef uint8_t gex_AM_Index_t;
typedef int32_t gex_AM_Arg_t;
/* The handler function type: unprototyped on purpose, as in GASNet (a
 * handler of any AM prototype is stored through a cast). */
#if defined(__GNUC__) && !defined(__cplusplus)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wstrict-prototypes"
#endif
typedef void (*gex_AM_Fn_t)();
#if defined(__GNUC__) && !defined(__cplusplus)
#pragma GCC diagnostic pop
#endif
typedef uint64_t gex_RMA_Value_t;
#define SIZEOF_GEX_RMA_VALUE_T 8

typedef struct {
  void *gex_addr;
  size_t gex_len;
} gex_Memvec_t;

/* The opaque objects: pointers to stageport's records; 0 is never a valid
 * one.  A TM-pair (gex_TM_Pair) is an endpoint pointer with its low bit
 * set, so it never equals a team. */
struct _stp_client;
struct _stp_ep;
struct _stp_segment;
struct _stp_tm;
typedef struct _stp_client *gex_Client_t;
typedef struct _stp_ep *gex_EP_t;
typedef struct _stp_segment *gex_Segment_t;
typedef struct _stp_tm *gex_TM_t;
#define GEX_CLIENT_INVALID ((gex_Client_t)0)
#define GEX_EP_INVALID ((gex_EP_t)0)
#define GEX_SEGMENT_INVALID ((gex_Segment_t)0)
#define GEX_TM_INVALID ((gex_TM_t)0)

typedef struct {
  gex_Rank_t gex_rank;
  gex_EP_Index_t gex_ep_index;
} gex_EP_Location_t;

/* Memory kinds (gasnet_mk.h): host memory only. */
struct _stp_mk;
typedef struct _stp_mk *gex_MK_t;
#define GEX_MK_INVALID ((gex_MK_t)0)
#define GEX_MK_HOST ((gex_MK_t)(uintptr_t)1)

/* GASNet-1 types that GASNet-EX keeps (gasnet.h names the rest) */
typedef struct {
  void *addr;
  uintptr_t size;
} gasnet_seginfo_t;
typedef struct {
  gex_AM_Index_t index; /* 0 = "don't care": assigned at attach, written back */
  gex_AM_Fn_t fnptr;
} gasnet_handlerentry_t;
/* Node locality (as GASNet-1 releases provide it): host = lowest node on
 * the same host, supernode = the node itself (no shared-memory bypass),
 * offset = 0. */
typedef struct {
  gex_Rank_t host;
  gex_Rank_t supernode;
  intptr_t offset;
} gasnet_nodeinfo_t;
typedef void *gasnet_threadinfo_t;

/* ------------------------------------------------------------------ */
/* the system: job, neighbourhood, host                                */
/* ------------------------------------------------------------------ */
extern gex_Rank_t gex_System_QueryJobRank(void);
extern gex_Rank_t gex_System_QueryJobSize(void);
extern int gex_System_GetVerboseErrors(void);
extern void gex_System_SetVerboseErrors(int enable);
/* SEQ: 1; PAR/PARSYNC: no limit of stageport's own (UINT64_MAX) */
extern uint64_t gex_System_QueryMaxThreads(void);
extern int gex_System_QueryHiddenAMConcurrencyLevel(void);

typedef const struct {
  gex_Rank_t gex_jobrank;
} gex_RankInfo_t;
/* The neighbourhood is the processes whose segments are cross-mapped with
 * this one's: in stageport, none (no shared-memory bypass), so it is the
 * calling process alone.  The host is every process on the same machine
 * (the launcher's locality). */
extern void gex_System_QueryNbrhdInfo(gex_RankInfo_t **info_p, gex_Rank_t *info_count_p,
                                      gex_Rank_t *my_info_index_p);
extern void gex_System_QueryHostInfo(gex_RankInfo_t **info_p, gex_Rank_t *info_count_p,
                                     gex_Rank_t *my_info_index_p);
extern void gex_System_QueryMyPosition(gex_Rank_t *nbrhd_set_size_p, gex_Rank_t *nbrhd_set_rank_p,
                                       gex_Rank_t *host_set_size_p, gex_Rank_t *host_set_rank_p);

typedef struct {
  const char *gex_device_list;
  unsigned int gex_thread_roles;
  void *(*gex_progress_fn)(void *);
  void *gex_progress_arg;
} gex_ProgressThreadInfo_t;
#define GEX_THREAD_ROLE_RCV 1u
#define GEX_THREAD_ROLE_SND 2u
/* GEX_FLAG_DEFER_THREADS is not supported: this returns GASNET_ERR_RESOURCE
 * (and GASNET_ERR_BAD_ARG for bad arguments). */
extern int gex_System_QueryProgressThreads(gex_Client_t client, unsigned int *count_p,
                                           const gex_ProgressThreadInfo_t **info_p, gex_Flags_t flags);

/* ------------------------------------------------------------------ */
/* client, segment, team, endpoint                                     */
/* ------------------------------------------------------------------ */
extern void gex_Client_SetCData(gex_Client_t client, const void *val);
extern void *gex_Client_QueryCData(gex_Client_t client);
extern void gex_Segment_SetCData(gex_Segment_t seg, const void *val);
extern void *gex_Segment_QueryCData(gex_Segment_t seg);
extern void gex_TM_SetCData(gex_TM_t tm, const void *val);
extern void *gex_TM_QueryCData(gex_TM_t tm);
extern void gex_EP_SetCData(gex_EP_t ep, const void *val);
extern void *gex_EP_QueryCData(gex_EP_t ep);

extern gex_Flags_t gex_Client_QueryFlags(gex_Client_t client);
extern const char *gex_Client_QueryName(gex_Client_t client);

/* One client per process.  gex_Client_Init is a macro over
 * _stp_Client_Init, which also takes the client's threading configuration
 * and the stage its conduit directory names (STAGEPORT_STAGE in the
 * environment overrides that stage); the function gex_Client_Init is a
 * GASNET_SEQ client's with no stage named.  Collective; a barrier before it
 * returns.  A second call returns GASNET_ERR_RESOURCE. */
extern int gex_Client_Init(gex_Client_t *client_p, gex_EP_t *ep_p, gex_TM_t *tm_p, const char *clientName,
                           int *argc, char ***argv, gex_Flags_t flags);
extern int _stp_Client_Init(gex_Client_t *client_p, gex_EP_t *ep_p, gex_TM_t *tm_p, const char *clientName,
                            int *argc, char ***argv, gex_Flags_t flags, int threads, const char *stage);
#ifdef STAGEPORT_CLIENT_STAGE
#define _STP_CLIENT_STAGE STAGEPORT_CLIENT_STAGE
#else
#define _STP_CLIENT_STAGE ((const char *)0)
#endif
#define gex_Client_Init(client_p, ep_p, tm_p, name, argc, argv, flags) \
  _stp_Client_Init((client_p), (ep_p), (tm_p), (name), (argc), (argv), (flags), _STP_THREADS, _STP_CLIENT_STAGE)

extern gex_Client_t gex_Segment_QueryClient(gex_Segment_t seg);
extern gex_Flags_t gex_Segment_QueryFlags(gex_Segment_t seg);
extern void *gex_Segment_QueryAddr(gex_Segment_t seg);
extern uintptr_t gex_Segment_QuerySize(gex_Segment_t seg);
/* Collective over the primordial team; one per process; size a non-zero
 * multiple of GASNET_PAGESIZE, at most gasnet_getMaxLocalSegmentSize(). */
extern int gex_Segment_Attach(gex_Segment_t *segment_p, gex_TM_t tm, uintptr_t size);
/* [deprecated in the description] */
extern int gex_Segment_QueryBound(gex_TM_t tm, gex_Rank_t rank, void **owneraddr_p, void **localaddr_p,
                                  uintptr_t *size_p);

/* Teams.  The primordial team (gex_Client_Init's) and any number made
 * from it: gex_TM_Split (collective over the parent: members of one color
 * ordered by key, ties by parent rank; a NULL new_tm_p or a negative color:
 * no team here, *new_tm_p = GEX_TM_INVALID) and gex_TM_Create (collective
 * over the parent; each caller names its team's members in args, by
 * parent rank or, with GEX_FLAG_RANK_IS_JOBRANK, job rank), split or
 * created again at any depth; gex_TM_Destroy (collective over the team;
 * the primordial team may not be destroyed; returns 1 and writes
 * *scratch_p when the client gave the team a scratch space).  Scratch:
 * GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED (or the deprecated _MIN, with a
 * warning) makes the call a query -- 64 KiB for a caller that will be a
 * member, 0 otherwise -- and creates nothing; stageport's collectives use
 * no scratch space (a granted one is only handed back at Destroy), so
 * GEX_FLAG_TM_NO_SCRATCH teams run every collective too.
 *
 * Every point-to-point call (RMA, AMs, the segment queries) takes a rank
 * of the team it names (translated to the job rank); a TM-pair's rank is
 * a job rank.  An AM handler's gex_Token_Info srcrank is the sender's job
 * rank, whatever team the request named.  Queries and translations work
 * on any team; gex_TM_TranslateJobrankToRank gives GEX_RANK_INVALID for a
 * process that is not a member.  Using a destroyed team is a fatal error
 * (argument checks on). */
extern gex_Client_t gex_TM_QueryClient(gex_TM_t tm);
extern gex_EP_t gex_TM_QueryEP(gex_TM_t tm);
extern gex_Flags_t gex_TM_QueryFlags(gex_TM_t tm);
extern gex_Rank_t gex_TM_QueryRank(gex_TM_t tm);
extern gex_Rank_t gex_TM_QuerySize(gex_TM_t tm);
extern gex_TM_t gex_TM_Pair(gex_EP_t local_ep, gex_EP_Index_t remote_ep_index);
extern gex_Rank_t gex_TM_TranslateRankToJobrank(gex_TM_t tm, gex_Rank_t rank);
extern gex_Rank_t gex_TM_TranslateJobrankToRank(gex_TM_t tm, gex_Rank_t jobrank);
extern gex_EP_Location_t gex_TM_TranslateRankToEP(gex_TM_t tm, gex_Rank_t rank, gex_Flags_t flags);
extern size_t gex_TM_Split(gex_TM_t *new_tm_p, gex_TM_t parent_tm, int color, int key, void *scratch_addr,
                           size_t scratch_size, gex_Flags_t flags);
extern size_t gex_TM_Create(gex_TM_t *new_tms, size_t num_new_tms, gex_TM_t parent_tm, gex_EP_Location_t *args,
                            size_t numargs, gex_Addr_t *scratch_addrs, size_t scratch_size, gex_Flags_t flags);
extern int gex_TM_Destroy(gex_TM_t tm, gex_Memvec_t *scratch_p, gex_Flags_t flags);

extern gex_Client_t gex_EP_QueryClient(gex_EP_t ep);
extern gex_Flags_t gex_EP_QueryFlags(gex_EP_t ep);
extern gex_Segment_t gex_EP_QuerySegment(gex_EP_t ep);
extern gex_EP_Index_t gex_EP_QueryIndex(gex_EP_t ep);
/* GASNET_MAXEPS is 1: the primordial endpoint is the only one; another is
 * refused with GASNET_ERR_RESOURCE. */
extern int gex_EP_Create(gex_EP_t *ep_p, gex_Client_t client, gex_EP_Capabilities_t capabilities, gex_Flags_t flags);
/* Answered from the segment table gex_Segment_Attach exchanged (never
 * communicates): GEX_EVENT_INVALID, with or without GEX_FLAG_IMMEDIATE.
 * localaddr: the caller's own segment only (none is cross-mapped). */
extern gex_Event_t gex_EP_QueryBoundSegmentNB(gex_TM_t tm, gex_Rank_t rank, void **owneraddr_p, void **localaddr_p,
                                              uintptr_t *size_p, gex_Flags_t flags);
/* Every bound segment is published at attach: GASNET_OK (collective: a
 * barrier). */
extern int gex_EP_PublishBoundSegment(gex_TM_t tm, gex_EP_t *eps, size_t num_eps, gex_Flags_t flags);

/* ------------------------------------------------------------------ */
/* active messages                                                     */
/* ------------------------------------------------------------------ */
typedef struct {
  gex_AM_Index_t gex_index; /* 0 or in [GEX_AM_INDEX_BASE .. 255] */
  gex_AM_Fn_t gex_fnptr;
  gex_Flags_t gex_flags;    /* one of GEX_FLAG_AM_{SHORT,MEDIUM,LONG,MEDLONG} | one of ..._{REQUEST,REPLY,REQREP} */
  unsigned int gex_nargs;   /* 0 .. gex_AM_MaxArgs() */
  const void *gex_cdata;
  const char *gex_name;
} gex_AM_Entry_t;
/* Not collective; may be called again to add handlers.  An invocation that
 * breaks an entry's registration (category, request/reply, argument count)
 * is a fatal error naming the handler (argument checks on). */
extern int gex_EP_RegisterHandlers(gex_EP_t ep, gex_AM_Entry_t *table, size_t numentries);

#define gex_AM_MaxArgs() ((unsigned int)16)
/* Exact: the largest payload every stage's Core takes for the given
 * category, direction, lc_opt, flags and argument count (the same for
 * every peer: the Cores have no per-peer limits); LUB is the least of
 * them over every argument count, lc_opt and flag -- valid before
 * gex_Segment_Attach, as after. */
extern size_t gex_AM_MaxRequestLong(gex_TM_t tm, gex_Rank_t other_rank, const gex_Event_t *lc_opt,
                                    gex_Flags_t flags, unsigned int numargs);
extern size_t gex_AM_MaxReplyLong(gex_TM_t tm, gex_Rank_t other_rank, const gex_Event_t *lc_opt,
                                  gex_Flags_t flags, unsigned int numargs);
extern size_t gex_AM_MaxRequestMedium(gex_TM_t tm, gex_Rank_t other_rank, const gex_Event_t *lc_opt,
                                      gex_Flags_t flags, unsigned int numargs);
extern size_t gex_AM_MaxReplyMedium(gex_TM_t tm, gex_Rank_t other_rank, const gex_Event_t *lc_opt,
                                    gex_Flags_t flags, unsigned int numargs);
extern size_t gex_Token_MaxReplyLong(gex_Token_t token, const gex_Event_t *lc_opt, gex_Flags_t flags,
                                     unsigned int numargs);
extern size_t gex_Token_MaxReplyMedium(gex_Token_t token, const gex_Event_t *lc_opt, gex_Flags_t flags,
                                       unsigned int numargs);
extern size_t gex_AM_LUBRequestLong(void);
extern size_t gex_AM_LUBReplyLong(void);
extern size_t gex_AM_LUBRequestMedium(void);
extern size_t gex_AM_LUBReplyMedium(void);

typedef unsigned int gex_TI_t;
#define GEX_TI_SRCRANK ((gex_TI_t)1u << 0)
#define GEX_TI_EP ((gex_TI_t)1u << 1)
#define GEX_TI_ENTRY ((gex_TI_t)1u << 2)
#define GEX_TI_IS_REQ ((gex_TI_t)1u << 3)
#define GEX_TI_IS_LONG ((gex_TI_t)1u << 4)
#define GEX_TI_ALL (((gex_TI_t)1u << 5) - 1)
typedef struct {
  gex_Rank_t gex_srcrank;
  gex_EP_t gex_ep;
  const gex_AM_Entry_t *gex_entry;
  int gex_is_req;
  int gex_is_long;
} gex_Token_Info_t;
/* Every query is supported: the result is GEX_TI_ALL. */
extern gex_TI_t gex_Token_Info(gex_Token_t token, gex_Token_Info_t *info, gex_TI_t mask);

/* Fixed-payload AMs.  gex_AM_{Request,Reply}{Short,Medium,Long}<M> with M
 * in 0..16, and without M (the count of arguments given).  Non-zero only
 * when GEX_FLAG_IMMEDIATE is passed and the call would have had to wait
 * for resources: then nothing was sent.  A request handler's reply never
 * fails for lack of resources. */
extern int _stp_AMRequestShort(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler, gex_Flags_t flags,
                               unsigned int numargs, ...);
extern int _stp_AMRequestMedium(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler, const void *source_addr,
                                size_t nbytes, gex_Event_t *lc_opt, gex_Flags_t flags, unsigned int numargs, ...);
extern int _stp_AMRequestLong(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler, const void *source_addr,
                              size_t nbytes, void *dest_addr, gex_Event_t *lc_opt, gex_Flags_t flags,
                              unsigned int numargs, ...);
extern int _stp_AMReplyShort(gex_Token_t token, gex_AM_Index_t handler, gex_Flags_t flags, unsigned int numargs, ...);
extern int _stp_AMReplyMedium(gex_Token_t token, gex_AM_Index_t handler, const void *source_addr, size_t nbytes,
                              gex_Event_t *lc_opt, gex_Flags_t flags, unsigned int numargs, ...);
extern int _stp_AMReplyLong(gex_Token_t token, gex_AM_Index_t handler, const void *source_addr, size_t nbytes,
                            void *dest_addr, gex_Event_t *lc_opt, gex_Flags_t flags, unsigned int numargs, ...);

/* Negotiated-payload AMs (Prepare, then Commit or Cancel, on one thread). */
struct _stp_srcdesc;
typedef struct _stp_srcdesc *gex_AM_SrcDesc_t;
#define GEX_AM_SRCDESC_NO_OP ((gex_AM_SrcDesc_t)0)
extern void *gex_AM_SrcDescAddr(gex_AM_SrcDesc_t sd);
extern size_t gex_AM_SrcDescSize(gex_AM_SrcDesc_t sd);
/* A descriptor begins with what its two queries read: they are inline (a
 * descriptor not prepared goes to the functions, whose fatal error names
 * it; (gex_AM_SrcDescAddr)(sd) calls the function). */
struct _stp_srcdesc_head {
  void *_addr;
  size_t _size;
  unsigned char _live; /* prepared, not committed or cancelled */
};
static inline void *_stp_SrcDescAddr(gex_AM_SrcDesc_t sd) {
  const struct _stp_srcdesc_head *h = (const struct _stp_srcdesc_head *)(void *)sd;
  return h && h->_live ? h->_addr : gex_AM_SrcDescAddr(sd);
}
static inline size_t _stp_SrcDescSize(gex_AM_SrcDesc_t sd) {
  const struct _stp_srcdesc_head *h = (const struct _stp_srcdesc_head *)(void *)sd;
  return h && h->_live ? h->_size : gex_AM_SrcDescSize(sd);
}
#define gex_AM_SrcDescAddr(sd) _stp_SrcDescAddr(sd)
#define gex_AM_SrcDescSize(sd) _stp_SrcDescSize(sd)
extern gex_AM_SrcDesc_t gex_AM_PrepareRequestMedium(gex_TM_t tm, gex_Rank_t rank, const void *client_buf,
                                                    size_t least_payload, size_t most_payload, gex_Event_t *lc_opt,
                                                    gex_Flags_t flags, unsigned int numargs);
extern gex_AM_SrcDesc_t gex_AM_PrepareReplyMedium(gex_Token_t token, const void *client_buf, size_t least_payload,
                                                  size_t most_payload, gex_Event_t *lc_opt, gex_Flags_t flags,
                                                  unsigned int numargs);
extern gex_AM_SrcDesc_t gex_AM_PrepareRequestLong(gex_TM_t tm, gex_Rank_t rank, const void *client_buf,
                                                  size_t least_payload, size_t most_payload, void *dest_addr,
                                                  gex_Event_t *lc_opt, gex_Flags_t flags, unsigned int numargs);
extern gex_AM_SrcDesc_t gex_AM_PrepareReplyLong(gex_Token_t token, const void *client_buf, size_t least_payload,
                                                size_t most_payload, void *dest_addr, gex_Event_t *lc_opt,
                                                gex_Flags_t flags, unsigned int numargs);
/* (is_req: 1 for a request's descriptor; the Commit macros pass it, and a
 * descriptor of the other kind is a fatal error) */
extern int _stp_AMCommitMedium(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes, gex_Flags_t commit_flags,
                               int is_req, unsigned int numargs, ...);
extern int _stp_AMCommitLong(gex_AM_SrcDesc_t sd, gex_AM_Index_t handler, size_t nbytes, void *dest_addr,
                             gex_Flags_t commit_flags, int is_req, unsigned int numargs, ...);
#define _stp_AMCommitMedium_v2 _stp_AMCommitMedium
#define _stp_AMCommitLong_v2 _stp_AMCommitLong
extern int gex_AM_CancelRequestMedium(gex_AM_SrcDesc_t sd, gex_Flags_t flags);
extern int gex_AM_CancelReplyMedium(gex_AM_SrcDesc_t sd, gex_Flags_t flags);
extern int gex_AM_CancelRequestLong(gex_AM_SrcDesc_t sd, gex_Flags_t flags);
extern int gex_AM_CancelReplyLong(gex_AM_SrcDesc_t sd, gex_Flags_t flags);

/* The argument-count machinery of the forms without M: the count of the
 * variadic arguments, less 1, 2 or 3 (what precedes the handler arguments
 * among them), picks the numbered form. */
#define _STP_SEL(_0, _1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, _17, _18, N, ...) N
#define _STP_CNT1(...) _STP_SEL(__VA_ARGS__, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, x)
#define _STP_CNT2(...) _STP_SEL(__VA_ARGS__, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, x, x)
#define _STP_CNT3(...) _STP_SEL(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, x, x, x)
#define _STP_CAT_(a, b) a##b
#define _STP_CAT(a, b) _STP_CAT_(a, b)
#define _STP_AM_PICK(name, m) _STP_CAT(name, m)
#define _STP_CAT3_(a, b, c) a##b##c
#define _STP_CAT3(a, b, c) _STP_CAT3_(a, b, c)
#define _STP_AM_PICK_V2(name, m) _STP_CAT3(name, m, _v2)

/* ---- the AM injection forms (M = 0..16, and M inferred) ---- */
#define gex_AM_RequestShort0(tm, rank, h, flags) _stp_AMRequestShort((tm), (rank), (h), (flags), 0)
#define gex_AM_RequestShort1(tm, rank, h, flags, a0) _stp_AMRequestShort((tm), (rank), (h), (flags), 1, (gex_AM_Arg_t)(a0))
#define gex_AM_RequestShort2(tm, rank, h, flags, a0, a1) _stp_AMRequestShort((tm), (rank), (h), (flags), 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gex_AM_RequestShort3(tm, rank, h, flags, a0, a1, a2) _stp_AMRequestShort((tm), (rank), (h), (flags), 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gex_AM_RequestShort4(tm, rank, h, flags, a0, a1, a2, a3) _stp_AMRequestShort((tm), (rank), (h), (flags), 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gex_AM_RequestShort5(tm, rank, h, flags, a0, a1, a2, a3, a4) _stp_AMRequestShort((tm), (rank), (h), (flags), 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gex_AM_RequestShort6(tm, rank, h, flags, a0, a1, a2, a3, a4, a5) _stp_AMRequestShort((tm), (rank), (h), (flags), 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gex_AM_RequestShort7(tm, rank, h, flags, a0, a1, a2, a3, a4, a5, a6) _stp_AMRequestShort((tm), (rank), (h), (flags), 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gex_AM_RequestShort8(tm, rank, h, flags, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMRequestShort((tm), (rank), (h), (flags), 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gex_AM_RequestShort9(tm, rank, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMRequestShort((tm), (rank), (h), (flags), 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gex_AM_RequestShort10(tm, rank, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMRequestShort((tm), (rank), (h), (flags), 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gex_AM_RequestShort11(tm, rank, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMRequestShort((tm), (rank), (h), (flags), 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gex_AM_RequestShort12(tm, rank, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMRequestShort((tm), (rank), (h), (flags), 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gex_AM_RequestShort13(tm, rank, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMRequestShort((tm), (rank), (h), (flags), 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gex_AM_RequestShort14(tm, rank, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMRequestShort((tm), (rank), (h), (flags), 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gex_AM_RequestShort15(tm, rank, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMRequestShort((tm), (rank), (h), (flags), 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gex_AM_RequestShort16(tm, rank, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMRequestShort((tm), (rank), (h), (flags), 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gex_AM_RequestShort(tm, rank, h, ...) _STP_AM_PICK(gex_AM_RequestShort, _STP_CNT1(__VA_ARGS__))(tm, rank, h, __VA_ARGS__)

#define gex_AM_RequestMedium0(tm, rank, h, src, n, lc, flags) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 0)
#define gex_AM_RequestMedium1(tm, rank, h, src, n, lc, flags, a0) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 1, (gex_AM_Arg_t)(a0))
#define gex_AM_RequestMedium2(tm, rank, h, src, n, lc, flags, a0, a1) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gex_AM_RequestMedium3(tm, rank, h, src, n, lc, flags, a0, a1, a2) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gex_AM_RequestMedium4(tm, rank, h, src, n, lc, flags, a0, a1, a2, a3) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gex_AM_RequestMedium5(tm, rank, h, src, n, lc, flags, a0, a1, a2, a3, a4) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gex_AM_RequestMedium6(tm, rank, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gex_AM_RequestMedium7(tm, rank, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gex_AM_RequestMedium8(tm, rank, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gex_AM_RequestMedium9(tm, rank, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gex_AM_RequestMedium10(tm, rank, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gex_AM_RequestMedium11(tm, rank, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gex_AM_RequestMedium12(tm, rank, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gex_AM_RequestMedium13(tm, rank, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gex_AM_RequestMedium14(tm, rank, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gex_AM_RequestMedium15(tm, rank, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gex_AM_RequestMedium16(tm, rank, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMRequestMedium((tm), (rank), (h), (src), (n), (lc), (flags), 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gex_AM_RequestMedium(tm, rank, h, src, n, lc, ...) _STP_AM_PICK(gex_AM_RequestMedium, _STP_CNT1(__VA_ARGS__))(tm, rank, h, src, n, lc, __VA_ARGS__)

#define gex_AM_RequestLong0(tm, rank, h, src, n, dst, lc, flags) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 0)
#define gex_AM_RequestLong1(tm, rank, h, src, n, dst, lc, flags, a0) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 1, (gex_AM_Arg_t)(a0))
#define gex_AM_RequestLong2(tm, rank, h, src, n, dst, lc, flags, a0, a1) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gex_AM_RequestLong3(tm, rank, h, src, n, dst, lc, flags, a0, a1, a2) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gex_AM_RequestLong4(tm, rank, h, src, n, dst, lc, flags, a0, a1, a2, a3) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gex_AM_RequestLong5(tm, rank, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gex_AM_RequestLong6(tm, rank, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gex_AM_RequestLong7(tm, rank, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gex_AM_RequestLong8(tm, rank, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gex_AM_RequestLong9(tm, rank, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gex_AM_RequestLong10(tm, rank, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gex_AM_RequestLong11(tm, rank, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gex_AM_RequestLong12(tm, rank, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gex_AM_RequestLong13(tm, rank, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gex_AM_RequestLong14(tm, rank, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gex_AM_RequestLong15(tm, rank, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gex_AM_RequestLong16(tm, rank, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMRequestLong((tm), (rank), (h), (src), (n), (dst), (lc), (flags), 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gex_AM_RequestLong(tm, rank, h, src, n, dst, lc, ...) _STP_AM_PICK(gex_AM_RequestLong, _STP_CNT1(__VA_ARGS__))(tm, rank, h, src, n, dst, lc, __VA_ARGS__)

#define gex_AM_ReplyShort0(tok, h, flags) _stp_AMReplyShort((tok), (h), (flags), 0)
#define gex_AM_ReplyShort1(tok, h, flags, a0) _stp_AMReplyShort((tok), (h), (flags), 1, (gex_AM_Arg_t)(a0))
#define gex_AM_ReplyShort2(tok, h, flags, a0, a1) _stp_AMReplyShort((tok), (h), (flags), 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gex_AM_ReplyShort3(tok, h, flags, a0, a1, a2) _stp_AMReplyShort((tok), (h), (flags), 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gex_AM_ReplyShort4(tok, h, flags, a0, a1, a2, a3) _stp_AMReplyShort((tok), (h), (flags), 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gex_AM_ReplyShort5(tok, h, flags, a0, a1, a2, a3, a4) _stp_AMReplyShort((tok), (h), (flags), 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gex_AM_ReplyShort6(tok, h, flags, a0, a1, a2, a3, a4, a5) _stp_AMReplyShort((tok), (h), (flags), 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gex_AM_ReplyShort7(tok, h, flags, a0, a1, a2, a3, a4, a5, a6) _stp_AMReplyShort((tok), (h), (flags), 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gex_AM_ReplyShort8(tok, h, flags, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMReplyShort((tok), (h), (flags), 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gex_AM_ReplyShort9(tok, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMReplyShort((tok), (h), (flags), 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gex_AM_ReplyShort10(tok, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMReplyShort((tok), (h), (flags), 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gex_AM_ReplyShort11(tok, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMReplyShort((tok), (h), (flags), 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gex_AM_ReplyShort12(tok, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMReplyShort((tok), (h), (flags), 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gex_AM_ReplyShort13(tok, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMReplyShort((tok), (h), (flags), 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gex_AM_ReplyShort14(tok, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMReplyShort((tok), (h), (flags), 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gex_AM_ReplyShort15(tok, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMReplyShort((tok), (h), (flags), 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gex_AM_ReplyShort16(tok, h, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMReplyShort((tok), (h), (flags), 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gex_AM_ReplyShort(tok, h, ...) _STP_AM_PICK(gex_AM_ReplyShort, _STP_CNT1(__VA_ARGS__))(tok, h, __VA_ARGS__)

#define gex_AM_ReplyMedium0(tok, h, src, n, lc, flags) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 0)
#define gex_AM_ReplyMedium1(tok, h, src, n, lc, flags, a0) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 1, (gex_AM_Arg_t)(a0))
#define gex_AM_ReplyMedium2(tok, h, src, n, lc, flags, a0, a1) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gex_AM_ReplyMedium3(tok, h, src, n, lc, flags, a0, a1, a2) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gex_AM_ReplyMedium4(tok, h, src, n, lc, flags, a0, a1, a2, a3) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gex_AM_ReplyMedium5(tok, h, src, n, lc, flags, a0, a1, a2, a3, a4) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gex_AM_ReplyMedium6(tok, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gex_AM_ReplyMedium7(tok, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gex_AM_ReplyMedium8(tok, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gex_AM_ReplyMedium9(tok, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gex_AM_ReplyMedium10(tok, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gex_AM_ReplyMedium11(tok, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gex_AM_ReplyMedium12(tok, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gex_AM_ReplyMedium13(tok, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gex_AM_ReplyMedium14(tok, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gex_AM_ReplyMedium15(tok, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gex_AM_ReplyMedium16(tok, h, src, n, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMReplyMedium((tok), (h), (src), (n), (lc), (flags), 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gex_AM_ReplyMedium(tok, h, src, n, lc, ...) _STP_AM_PICK(gex_AM_ReplyMedium, _STP_CNT1(__VA_ARGS__))(tok, h, src, n, lc, __VA_ARGS__)

#define gex_AM_ReplyLong0(tok, h, src, n, dst, lc, flags) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 0)
#define gex_AM_ReplyLong1(tok, h, src, n, dst, lc, flags, a0) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 1, (gex_AM_Arg_t)(a0))
#define gex_AM_ReplyLong2(tok, h, src, n, dst, lc, flags, a0, a1) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gex_AM_ReplyLong3(tok, h, src, n, dst, lc, flags, a0, a1, a2) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gex_AM_ReplyLong4(tok, h, src, n, dst, lc, flags, a0, a1, a2, a3) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gex_AM_ReplyLong5(tok, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gex_AM_ReplyLong6(tok, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gex_AM_ReplyLong7(tok, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gex_AM_ReplyLong8(tok, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gex_AM_ReplyLong9(tok, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gex_AM_ReplyLong10(tok, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gex_AM_ReplyLong11(tok, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gex_AM_ReplyLong12(tok, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gex_AM_ReplyLong13(tok, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gex_AM_ReplyLong14(tok, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gex_AM_ReplyLong15(tok, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gex_AM_ReplyLong16(tok, h, src, n, dst, lc, flags, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMReplyLong((tok), (h), (src), (n), (dst), (lc), (flags), 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gex_AM_ReplyLong(tok, h, src, n, dst, lc, ...) _STP_AM_PICK(gex_AM_ReplyLong, _STP_CNT1(__VA_ARGS__))(tok, h, src, n, dst, lc, __VA_ARGS__)

#define gex_AM_CommitRequestMedium0(sd, h, n) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 0)
#define gex_AM_CommitRequestMedium1(sd, h, n, a0) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 1, (gex_AM_Arg_t)(a0))
#define gex_AM_CommitRequestMedium2(sd, h, n, a0, a1) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gex_AM_CommitRequestMedium3(sd, h, n, a0, a1, a2) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gex_AM_CommitRequestMedium4(sd, h, n, a0, a1, a2, a3) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gex_AM_CommitRequestMedium5(sd, h, n, a0, a1, a2, a3, a4) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gex_AM_CommitRequestMedium6(sd, h, n, a0, a1, a2, a3, a4, a5) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gex_AM_CommitRequestMedium7(sd, h, n, a0, a1, a2, a3, a4, a5, a6) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gex_AM_CommitRequestMedium8(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gex_AM_CommitRequestMedium9(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gex_AM_CommitRequestMedium10(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gex_AM_CommitRequestMedium11(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gex_AM_CommitRequestMedium12(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gex_AM_CommitRequestMedium13(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gex_AM_CommitRequestMedium14(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gex_AM_CommitRequestMedium15(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gex_AM_CommitRequestMedium16(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMCommitMedium((sd), (h), (n), 0, 1, 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gex_AM_CommitRequestMedium(sd, h, ...) _STP_AM_PICK(gex_AM_CommitRequestMedium, _STP_CNT1(__VA_ARGS__))(sd, h, __VA_ARGS__)

#define gex_AM_CommitReplyMedium0(sd, h, n) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 0)
#define gex_AM_CommitReplyMedium1(sd, h, n, a0) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 1, (gex_AM_Arg_t)(a0))
#define gex_AM_CommitReplyMedium2(sd, h, n, a0, a1) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gex_AM_CommitReplyMedium3(sd, h, n, a0, a1, a2) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gex_AM_CommitReplyMedium4(sd, h, n, a0, a1, a2, a3) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gex_AM_CommitReplyMedium5(sd, h, n, a0, a1, a2, a3, a4) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gex_AM_CommitReplyMedium6(sd, h, n, a0, a1, a2, a3, a4, a5) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gex_AM_CommitReplyMedium7(sd, h, n, a0, a1, a2, a3, a4, a5, a6) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gex_AM_CommitReplyMedium8(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gex_AM_CommitReplyMedium9(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gex_AM_CommitReplyMedium10(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gex_AM_CommitReplyMedium11(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gex_AM_CommitReplyMedium12(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gex_AM_CommitReplyMedium13(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gex_AM_CommitReplyMedium14(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gex_AM_CommitReplyMedium15(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gex_AM_CommitReplyMedium16(sd, h, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMCommitMedium((sd), (h), (n), 0, 0, 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gex_AM_CommitReplyMedium(sd, h, ...) _STP_AM_PICK(gex_AM_CommitReplyMedium, _STP_CNT1(__VA_ARGS__))(sd, h, __VA_ARGS__)

#define gex_AM_CommitRequestLong0(sd, h, n, dst) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 0)
#define gex_AM_CommitRequestLong1(sd, h, n, dst, a0) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 1, (gex_AM_Arg_t)(a0))
#define gex_AM_CommitRequestLong2(sd, h, n, dst, a0, a1) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gex_AM_CommitRequestLong3(sd, h, n, dst, a0, a1, a2) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gex_AM_CommitRequestLong4(sd, h, n, dst, a0, a1, a2, a3) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gex_AM_CommitRequestLong5(sd, h, n, dst, a0, a1, a2, a3, a4) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gex_AM_CommitRequestLong6(sd, h, n, dst, a0, a1, a2, a3, a4, a5) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gex_AM_CommitRequestLong7(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gex_AM_CommitRequestLong8(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gex_AM_CommitRequestLong9(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gex_AM_CommitRequestLong10(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gex_AM_CommitRequestLong11(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gex_AM_CommitRequestLong12(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gex_AM_CommitRequestLong13(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gex_AM_CommitRequestLong14(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gex_AM_CommitRequestLong15(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gex_AM_CommitRequestLong16(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 1, 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gex_AM_CommitRequestLong(sd, h, ...) _STP_AM_PICK(gex_AM_CommitRequestLong, _STP_CNT2(__VA_ARGS__))(sd, h, __VA_ARGS__)

#define gex_AM_CommitReplyLong0(sd, h, n, dst) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 0)
#define gex_AM_CommitReplyLong1(sd, h, n, dst, a0) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 1, (gex_AM_Arg_t)(a0))
#define gex_AM_CommitReplyLong2(sd, h, n, dst, a0, a1) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gex_AM_CommitReplyLong3(sd, h, n, dst, a0, a1, a2) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gex_AM_CommitReplyLong4(sd, h, n, dst, a0, a1, a2, a3) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gex_AM_CommitReplyLong5(sd, h, n, dst, a0, a1, a2, a3, a4) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gex_AM_CommitReplyLong6(sd, h, n, dst, a0, a1, a2, a3, a4, a5) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gex_AM_CommitReplyLong7(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gex_AM_CommitReplyLong8(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gex_AM_CommitReplyLong9(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gex_AM_CommitReplyLong10(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gex_AM_CommitReplyLong11(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gex_AM_CommitReplyLong12(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gex_AM_CommitReplyLong13(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gex_AM_CommitReplyLong14(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gex_AM_CommitReplyLong15(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gex_AM_CommitReplyLong16(sd, h, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMCommitLong((sd), (h), (n), (dst), 0, 0, 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gex_AM_CommitReplyLong(sd, h, ...) _STP_AM_PICK(gex_AM_CommitReplyLong, _STP_CNT2(__VA_ARGS__))(sd, h, __VA_ARGS__)

#define gex_AM_CommitRequestMedium0_v2(sd, h, n, cf) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 0)
#define gex_AM_CommitRequestMedium1_v2(sd, h, n, cf, a0) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 1, (gex_AM_Arg_t)(a0))
#define gex_AM_CommitRequestMedium2_v2(sd, h, n, cf, a0, a1) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gex_AM_CommitRequestMedium3_v2(sd, h, n, cf, a0, a1, a2) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gex_AM_CommitRequestMedium4_v2(sd, h, n, cf, a0, a1, a2, a3) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gex_AM_CommitRequestMedium5_v2(sd, h, n, cf, a0, a1, a2, a3, a4) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gex_AM_CommitRequestMedium6_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gex_AM_CommitRequestMedium7_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gex_AM_CommitRequestMedium8_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gex_AM_CommitRequestMedium9_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gex_AM_CommitRequestMedium10_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gex_AM_CommitRequestMedium11_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gex_AM_CommitRequestMedium12_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gex_AM_CommitRequestMedium13_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gex_AM_CommitRequestMedium14_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gex_AM_CommitRequestMedium15_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gex_AM_CommitRequestMedium16_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 1, 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gex_AM_CommitRequestMedium_v2(sd, h, ...) _STP_AM_PICK_V2(gex_AM_CommitRequestMedium, _STP_CNT2(__VA_ARGS__))(sd, h, __VA_ARGS__)

#define gex_AM_CommitReplyMedium0_v2(sd, h, n, cf) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 0)
#define gex_AM_CommitReplyMedium1_v2(sd, h, n, cf, a0) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 1, (gex_AM_Arg_t)(a0))
#define gex_AM_CommitReplyMedium2_v2(sd, h, n, cf, a0, a1) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gex_AM_CommitReplyMedium3_v2(sd, h, n, cf, a0, a1, a2) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gex_AM_CommitReplyMedium4_v2(sd, h, n, cf, a0, a1, a2, a3) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gex_AM_CommitReplyMedium5_v2(sd, h, n, cf, a0, a1, a2, a3, a4) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gex_AM_CommitReplyMedium6_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gex_AM_CommitReplyMedium7_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gex_AM_CommitReplyMedium8_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gex_AM_CommitReplyMedium9_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gex_AM_CommitReplyMedium10_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gex_AM_CommitReplyMedium11_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gex_AM_CommitReplyMedium12_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gex_AM_CommitReplyMedium13_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gex_AM_CommitReplyMedium14_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gex_AM_CommitReplyMedium15_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gex_AM_CommitReplyMedium16_v2(sd, h, n, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMCommitMedium_v2((sd), (h), (n), (cf), 0, 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gex_AM_CommitReplyMedium_v2(sd, h, ...) _STP_AM_PICK_V2(gex_AM_CommitReplyMedium, _STP_CNT2(__VA_ARGS__))(sd, h, __VA_ARGS__)

#define gex_AM_CommitRequestLong0_v2(sd, h, n, dst, cf) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 0)
#define gex_AM_CommitRequestLong1_v2(sd, h, n, dst, cf, a0) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 1, (gex_AM_Arg_t)(a0))
#define gex_AM_CommitRequestLong2_v2(sd, h, n, dst, cf, a0, a1) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gex_AM_CommitRequestLong3_v2(sd, h, n, dst, cf, a0, a1, a2) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gex_AM_CommitRequestLong4_v2(sd, h, n, dst, cf, a0, a1, a2, a3) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gex_AM_CommitRequestLong5_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gex_AM_CommitRequestLong6_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gex_AM_CommitRequestLong7_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gex_AM_CommitRequestLong8_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gex_AM_CommitRequestLong9_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gex_AM_CommitRequestLong10_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gex_AM_CommitRequestLong11_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gex_AM_CommitRequestLong12_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gex_AM_CommitRequestLong13_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gex_AM_CommitRequestLong14_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gex_AM_CommitRequestLong15_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gex_AM_CommitRequestLong16_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 1, 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gex_AM_CommitRequestLong_v2(sd, h, ...) _STP_AM_PICK_V2(gex_AM_CommitRequestLong, _STP_CNT3(__VA_ARGS__))(sd, h, __VA_ARGS__)

#define gex_AM_CommitReplyLong0_v2(sd, h, n, dst, cf) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 0)
#define gex_AM_CommitReplyLong1_v2(sd, h, n, dst, cf, a0) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 1, (gex_AM_Arg_t)(a0))
#define gex_AM_CommitReplyLong2_v2(sd, h, n, dst, cf, a0, a1) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gex_AM_CommitReplyLong3_v2(sd, h, n, dst, cf, a0, a1, a2) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gex_AM_CommitReplyLong4_v2(sd, h, n, dst, cf, a0, a1, a2, a3) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gex_AM_CommitReplyLong5_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gex_AM_CommitReplyLong6_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gex_AM_CommitReplyLong7_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gex_AM_CommitReplyLong8_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gex_AM_CommitReplyLong9_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gex_AM_CommitReplyLong10_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gex_AM_CommitReplyLong11_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gex_AM_CommitReplyLong12_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gex_AM_CommitReplyLong13_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gex_AM_CommitReplyLong14_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gex_AM_CommitReplyLong15_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gex_AM_CommitReplyLong16_v2(sd, h, n, dst, cf, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMCommitLong_v2((sd), (h), (n), (dst), (cf), 0, 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gex_AM_CommitReplyLong_v2(sd, h, ...) _STP_AM_PICK_V2(gex_AM_CommitReplyLong, _STP_CNT3(__VA_ARGS__))(sd, h, __VA_ARGS__)


/* ------------------------------------------------------------------ */
/* RMA                                                                 */
/* ------------------------------------------------------------------ */
/* Remote addresses must lie in the remote endpoint's bound segment; local
 * addresses may be anywhere.  Non-zero (blocking, NBI) or GEX_EVENT_NO_OP
 * (NB) only when GEX_FLAG_IMMEDIATE is passed and the call would have had
 * to wait for resources: then nothing was done.  lc_opt: GEX_EVENT_NOW
 * returns at local completion (the source may be reused), GEX_EVENT_DEFER
 * as late as completion, a gex_Event_t * (NB) receives a leaf event for
 * it, GEX_EVENT_GROUP (NBI) counts it in GEX_EC_LC. */
extern int gex_RMA_PutBlocking(gex_TM_t tm, gex_Rank_t rank, void *dest, const void *src, size_t nbytes,
                               gex_Flags_t flags);
extern int gex_RMA_PutNBI(gex_TM_t tm, gex_Rank_t rank, void *dest, const void *src, size_t nbytes,
                          gex_Event_t *lc_opt, gex_Flags_t flags);
extern gex_Event_t gex_RMA_PutNB(gex_TM_t tm, gex_Rank_t rank, void *dest, const void *src, size_t nbytes,
                                 gex_Event_t *lc_opt, gex_Flags_t flags);
extern int gex_RMA_GetBlocking(gex_TM_t tm, void *dest, gex_Rank_t rank, void *src, size_t nbytes, gex_Flags_t flags);
extern int gex_RMA_GetNBI(gex_TM_t tm, void *dest, gex_Rank_t rank, void *src, size_t nbytes, gex_Flags_t flags);
extern gex_Event_t gex_RMA_GetNB(gex_TM_t tm, void *dest, gex_Rank_t rank, void *src, size_t nbytes,
                                 gex_Flags_t flags);
/* 0 < nbytes <= SIZEOF_GEX_RMA_VALUE_T: the value's low-order bytes, as a
 * native integer of that size */
extern gex_RMA_Value_t gex_RMA_GetBlockingVal(gex_TM_t tm, gex_Rank_t rank, void *src, size_t nbytes,
                                              gex_Flags_t flags);
extern int gex_RMA_PutBlockingVal(gex_TM_t tm, gex_Rank_t rank, void *dest, gex_RMA_Value_t value, size_t nbytes,
                                  gex_Flags_t flags);
extern int gex_RMA_PutNBIVal(gex_TM_t tm, gex_Rank_t rank, void *dest, gex_RMA_Value_t value, size_t nbytes,
                             gex_Flags_t flags);
extern gex_Event_t gex_RMA_PutNBVal(gex_TM_t tm, gex_Rank_t rank, void *dest, gex_RMA_Value_t value, size_t nbytes,
                                    gex_Flags_t flags);

/* ------------------------------------------------------------------ */
/* events, NBI                                                         */
/* ------------------------------------------------------------------ */
typedef unsigned int gex_EC_t;
#define GEX_EC_GET ((gex_EC_t)1u << 0)
#define GEX_EC_PUT ((gex_EC_t)1u << 1)
#define GEX_EC_AM ((gex_EC_t)1u << 2)
#define GEX_EC_LC ((gex_EC_t)1u << 3)
#define GEX_EC_RMW ((gex_EC_t)1u << 4)
#define GEX_EC_ALL (((gex_EC_t)1u << 5) - 1)

/* Test: 0 when complete (then the event is consumed), GASNET_ERR_NOT_READY
 * otherwise; no polling.  Wait: polls until complete. */
extern int gex_Event_Test(gex_Event_t event);
extern void gex_Event_Wait(gex_Event_t event);
extern int gex_Event_TestSome(gex_Event_t *pevent, size_t numevents, gex_Flags_t flags);
extern void gex_Event_WaitSome(gex_Event_t *pevent, size_t numevents, gex_Flags_t flags);
extern int gex_Event_TestAll(gex_Event_t *pevent, size_t numevents, gex_Flags_t flags);
extern void gex_Event_WaitAll(gex_Event_t *pevent, size_t numevents, gex_Flags_t flags);
extern gex_Event_t gex_Event_QueryLeaf(gex_Event_t root, gex_EC_t event_category);

extern void gex_NBI_BeginAccessRegion(gex_Flags_t flags);
extern gex_Event_t gex_NBI_EndAccessRegion(gex_Flags_t flags);
extern int gex_NBI_Test(gex_EC_t event_mask, gex_Flags_t flags);
extern void gex_NBI_Wait(gex_EC_t event_mask, gex_Flags_t flags);

/* ------------------------------------------------------------------ */
/* handler-safe locks                                                  */
/* ------------------------------------------------------------------ */
/* POSIX mutexes in every configuration (handlers run only inside GASNet
 * calls, so no-interrupt sections are empty: gasnet.h). */
typedef struct {
  pthread_mutex_t lock;
} gex_HSL_t;
#define GEX_HSL_INITIALIZER { PTHREAD_MUTEX_INITIALIZER }
extern void gex_HSL_Init(gex_HSL_t *hsl);
extern void gex_HSL_Destroy(gex_HSL_t *hsl);
extern void gex_HSL_Lock(gex_HSL_t *hsl);
extern void gex_HSL_Unlock(gex_HSL_t *hsl);
extern int gex_HSL_Trylock(gex_HSL_t *hsl);

/* ------------------------------------------------------------------ */
/* the barrier (the other collectives: gasnet_coll.h)                  */
/* ------------------------------------------------------------------ */
/* Collective over any team (not a TM-pair); flags reserved (0).  The
 * event completes once every member has initiated it. */
extern gex_Event_t gex_Coll_BarrierNB(gex_TM_t tm, gex_Flags_t flags);
extern void gex_Coll_BarrierBlocking(gex_TM_t tm, gex_Flags_t flags);

/* ------------------------------------------------------------------ */
/* what GASNet-EX keeps from GASNet-1 for every client                 */
/* ------------------------------------------------------------------ */
/* Any single process may call gasnet_exit: every process of the job ends
 * with that code (also from a thread holding an HSL, or a handler).
 * Returning from main() after init acts as gasnet_exit(0), exit(N) as
 * gasnet_exit(N). */
extern void gasnet_exit(int exitcode)
#if defined(__GNUC__)
    __attribute__((noreturn))
#endif
    ;
extern int gasnet_AMPoll(void);
/* GASNET_BLOCKUNTIL: poll until cond holds; yields the CPU per the wait
 * mode (and always when more processes than cores share the host). */
extern void _stp_blockuntil_step(unsigned *spins);
#define GASNET_BLOCKUNTIL(cond)                       \
  do {                                                \
    unsigned _stp_spins = 0;                          \
    while (!(cond)) _stp_blockuntil_step(&_stp_spins); \
  } while (0)
#define GASNET_WAIT_SPIN 0
#define GASNET_WAIT_BLOCK 1
#define GASNET_WAIT_SPINBLOCK 2
extern int gasnet_set_waitmode(int wait_mode);
extern char *gasnet_getenv(const char *name);
/* Valid from init on: what this process can back, and the least of that
 * over every process. */
extern uintptr_t gasnet_getMaxLocalSegmentSize(void);
extern uintptr_t gasnet_getMaxGlobalSegmentSize(void);

/* ------------------------------------------------------------------ */
/* GASNet-1's barriers and thread information (GASNet-EX keeps them:    */
/* its clients, and GASNet's test harness, use them)                   */
/* ------------------------------------------------------------------ */
/* On the primordial team (the legacy team of a gasnet_init client, which
 * needs gasnet_attach first); at most one thread of a process in one. */
#define GASNET_BARRIERFLAG_ANONYMOUS 1
#define GASNET_BARRIERFLAG_MISMATCH 2
/* flags: 0 or a combination of ANONYMOUS, MISMATCH and UNNAMED (below);
 * other bits are a fatal error */
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
 * non-zero if every node's notify was anonymous (ANONYMOUS or UNNAMED),
 * else 0 with *id set to the phase's value, the named nodes' id (after a
 * mismatched phase: 0, *id unspecified).  Before the first barrier it
 * reports the attach barrier, anonymous.  A fatal error between a notify
 * and its wait. */
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

/* ------------------------------------------------------------------ */
/* for the legacy layer (gasnet.h): what GASNet-1 needs that EX lacks   */
/* ------------------------------------------------------------------ */
/* GASNet-1's LongAsync request: may return before its payload is read
 * (the source is the caller's again once the reply handler runs). */
extern int _stp_AMRequestLongAsync(gex_TM_t tm, gex_Rank_t rank, gex_AM_Index_t handler, const void *source_addr,
                                   size_t nbytes, void *dest_addr, unsigned int numargs, ...);
/* Every process's host (gasnet_getNodeInfo). */
extern int _stp_NodeInfo(gasnet_nodeinfo_t *table, int numentries);
/* gasnet_attach's handler table: GASNet-1 registration (no category or
 * argument count stated, so none is checked). */
extern int _stp_EP_RegisterLegacy(gex_EP_t ep, gasnet_handlerentry_t *table, int numentries);
/* The named barrier: a barrier whose members bring a value (id, and
 * flags 1 anonymous | 2 mismatch); its result once complete (0: the
 * event is consumed; GASNET_ERR_NOT_READY: not yet; no polling). */
extern gex_Event_t _stp_Coll_BarrierValueNB(gex_TM_t tm, int id, int flags);
/* The primordial team (GEX_TM_INVALID before gex_Client_Init): the team of
 * the GASNet-1 calls GASNet-EX keeps (the barriers) in an EX client. */
extern gex_TM_t _stp_TM_Primordial(void);
extern int _stp_Coll_BarrierValueTest(gex_Event_t event, int *id, int *flags);
/* gasnet_init's client: GASNet-1's rules on top of EX's (AMs and RMA
 * need gasnet_attach first). */
#define _STP_FLAG_LEGACY ((gex_Flags_t)1u << 30)
/* A fatal error in the library's words ("stageport: node N: fatal error:
 * ..."), ending the whole job. */
extern void _stp_Fatal(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((noreturn, format(printf, 1, 2)))
#endif
    ;
/* A value of n (1..SIZEOF_GEX_RMA_VALUE_T) bytes in memory: the n
 * low-order bytes of v, in the byte order of an n-byte integer. */
static inline void _stp_val_store(void *buf, gex_RMA_Value_t v, size_t n) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  memcpy(buf, (char *)&v + (sizeof(v) - n), n);
#else
  memcpy(buf, &v, n);
#endif
}
static inline gex_RMA_Value_t _stp_val_load(const void *buf, size_t n) {
  gex_RMA_Value_t v = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  memcpy((char *)&v + (sizeof(v) - n), buf, n);
#else
  memcpy(&v, buf, n);
#endif
  return v;
}

#ifdef __cplusplus
}
#endif

/* the GASNet tools (gasnett_*), part of gasnetex.h */
#include "gasnet_tools.h"

#undef _IN_GASNETEX_H
#endif /* _GASNETEX_H */
