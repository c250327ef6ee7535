/*
 * gasnet.h -- the GASNet-1 API (specification v1.8) as implemented by
 * stageport: a thin layer over GASNet-EX (gasnetex.h, which this header
 * includes).
 *
 * A client written for GASNet-1 compiles unchanged against this header and
 * links with -lstageport (see stageport.pc).  Semantics follow the
 * specification (shared/reference/gasnet-spec-1.8.txt in the project that
 * created this file); where a behaviour is implementation-defined, the
 * choice stageport makes is stated next to the declaration.
 *
 * The types are GASNet-EX's: a handle is a gex_Event_t, a token a
 * gex_Token_t, an HSL a gex_HSL_t; gasnet_init creates the client, its
 * endpoint and team (the legacy team every call here uses), gasnet_attach
 * registers the handler table and attaches the segment.  What GASNet-EX
 * does not have (memset, value gets, the named barrier's matching) is the
 * legacy layer's own (legacy/ in the source tree); everything else is a
 * gex_* call.
 *
 * Configuration: GASNET_SEQ, GASNET_PARSYNC or GASNET_PAR (as the client
 * defines; one library), GASNET_SEGMENT_FAST, unaligned segments; the
 * conduit identification macros (GASNET_CONDUIT_NAME ...): gasnetex.h.
 *
 * Which network implementation runs underneath (the "stage") is chosen at
 * run time with STAGEPORT_STAGE; see stageport.h.
 */
#ifndef GASNET_H
#define GASNET_H

#include "gasnetex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* types                                                               */
/* ------------------------------------------------------------------ */
typedef gex_Rank_t gasnet_node_t;
typedef gex_AM_Index_t gasnet_handler_t;
typedef gex_AM_Arg_t gasnet_handlerarg_t;
typedef gex_Token_t gasnet_token_t;
typedef gex_RMA_Value_t gasnet_register_value_t;
#define SIZEOF_GASNET_REGISTER_VALUE_T SIZEOF_GEX_RMA_VALUE_T

/* An explicit handle is an event: it names one pooled operation record and
 * the generation of its use (a handle synchronized and then used again is
 * found stale, not mistaken for a later operation). */
typedef gex_Event_t gasnet_handle_t;
#define GASNET_INVALID_HANDLE GEX_EVENT_INVALID
/* Value-get handles are a different type and cannot be mixed with the above. */
struct _stp_valget;
typedef struct _stp_valget *gasnet_valget_handle_t;

/* The handler table's function type (stageport's name; GASNet-1 spells it
 * out as void (*)()): gex_AM_Fn_t. */
typedef gex_AM_Fn_t stp_handlerfn_t;
/* gasnet_handlerentry_t, gasnet_seginfo_t, gasnet_nodeinfo_t,
 * gasnet_threadinfo_t: gasnetex.h (GASNet-EX keeps them). */

/* ------------------------------------------------------------------ */
/* job control and queries                                             */
/* ------------------------------------------------------------------ */
/* The legacy team (gasnet_init's), the one every call here uses. */
extern gex_TM_t _stp_legacy_tm;

/* gasnet_init: gex_Client_Init of a client named GASNET_LEGACY (MPI_Init
 * unless the client already initialised MPI).  A second call returns
 * GASNET_ERR_RESOURCE.  Under GASNET_PAR and GASNET_PARSYNC, MPI must give
 * MPI_THREAD_SERIALIZED (stageport asks for it, and checks what a client
 * that initialised MPI itself got).  gasnet_init is a macro over
 * _stp_gasnet_init, which also takes the client's threading configuration
 * and the stage its conduit directory names (STAGEPORT_STAGE in the
 * environment overrides that stage); the function gasnet_init is a
 * GASNET_SEQ client's with no stage named. */
extern int gasnet_init(int *argc, char ***argv);
extern int _stp_gasnet_init(int *argc, char ***argv, int threads, const char *stage);
#define gasnet_init(argc, argv) _stp_gasnet_init((argc), (argv), _STP_THREADS, _STP_CLIENT_STAGE)
/* gasnet_attach: registers the table (gasnet_handlerentry_t, index 0 =
 * "don't care": assigned, written back) and attaches a segment of segsize
 * bytes, at most gasnet_getMaxLocalSegmentSize() (a larger segsize is
 * reduced to it).  Every node returns the error any node found (a bad
 * table, a segsize that is not a multiple of GASNET_PAGESIZE:
 * GASNET_ERR_BAD_ARG).  A second call is a fatal error.  minheapoffset is
 * ignored (the segment is its own mapping; the heap is not affected). */
extern int gasnet_attach(gasnet_handlerentry_t *table, int numentries,
                         uintptr_t segsize, uintptr_t minheapoffset);
/* gasnet_exit: gasnetex.h. */
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
/* gasnet_getMaxLocalSegmentSize, gasnet_getMaxGlobalSegmentSize,
 * gasnet_getenv, gasnet_set_waitmode (GASNET_WAIT_*): gasnetex.h. */

/* ------------------------------------------------------------------ */
/* active messages                                                     */
/* ------------------------------------------------------------------ */
/* The limits hold for every argument count and both directions: GASNet-EX's
 * least upper bounds (gex_AM_LUB*). */
#define gasnet_AMMaxArgs() ((size_t)gex_AM_MaxArgs())
extern size_t gasnet_AMMaxMedium(void);
extern size_t gasnet_AMMaxLongRequest(void);
extern size_t gasnet_AMMaxLongReply(void);

/* gasnet_AMPoll, GASNET_BLOCKUNTIL: gasnetex.h. */
extern int gasnet_AMGetMsgSource(gasnet_token_t token, gasnet_node_t *srcindex);

/* The M-suffixed forms are gex_AM_* calls on the legacy team (payload
 * calls return at local completion: GEX_EVENT_NOW), so every argument is
 * evaluated exactly once.  LongAsync may return before its payload is read:
 * the source is the caller's again once the reply handler runs. */
#define gasnet_AMRequestShort0(dest, h) gex_AM_RequestShort0(_stp_legacy_tm, (dest), (h), 0)
#define gasnet_AMRequestMedium0(dest, h, src, n) gex_AM_RequestMedium0(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0)
#define gasnet_AMRequestLong0(dest, h, src, n, dst) gex_AM_RequestLong0(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0)
#define gasnet_AMRequestLongAsync0(dest, h, src, n, dst) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 0)
#define gasnet_AMReplyShort0(tok, h) gex_AM_ReplyShort0((tok), (h), 0)
#define gasnet_AMReplyMedium0(tok, h, src, n) gex_AM_ReplyMedium0((tok), (h), (src), (n), GEX_EVENT_NOW, 0)
#define gasnet_AMReplyLong0(tok, h, src, n, dst) gex_AM_ReplyLong0((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0)
#define gasnet_AMRequestShort1(dest, h, a0) gex_AM_RequestShort1(_stp_legacy_tm, (dest), (h), 0, a0)
#define gasnet_AMRequestMedium1(dest, h, src, n, a0) gex_AM_RequestMedium1(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0)
#define gasnet_AMRequestLong1(dest, h, src, n, dst, a0) gex_AM_RequestLong1(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0)
#define gasnet_AMRequestLongAsync1(dest, h, src, n, dst, a0) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 1, (gex_AM_Arg_t)(a0))
#define gasnet_AMReplyShort1(tok, h, a0) gex_AM_ReplyShort1((tok), (h), 0, a0)
#define gasnet_AMReplyMedium1(tok, h, src, n, a0) gex_AM_ReplyMedium1((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0)
#define gasnet_AMReplyLong1(tok, h, src, n, dst, a0) gex_AM_ReplyLong1((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0)
#define gasnet_AMRequestShort2(dest, h, a0, a1) gex_AM_RequestShort2(_stp_legacy_tm, (dest), (h), 0, a0, a1)
#define gasnet_AMRequestMedium2(dest, h, src, n, a0, a1) gex_AM_RequestMedium2(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1)
#define gasnet_AMRequestLong2(dest, h, src, n, dst, a0, a1) gex_AM_RequestLong2(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1)
#define gasnet_AMRequestLongAsync2(dest, h, src, n, dst, a0, a1) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 2, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1))
#define gasnet_AMReplyShort2(tok, h, a0, a1) gex_AM_ReplyShort2((tok), (h), 0, a0, a1)
#define gasnet_AMReplyMedium2(tok, h, src, n, a0, a1) gex_AM_ReplyMedium2((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1)
#define gasnet_AMReplyLong2(tok, h, src, n, dst, a0, a1) gex_AM_ReplyLong2((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1)
#define gasnet_AMRequestShort3(dest, h, a0, a1, a2) gex_AM_RequestShort3(_stp_legacy_tm, (dest), (h), 0, a0, a1, a2)
#define gasnet_AMRequestMedium3(dest, h, src, n, a0, a1, a2) gex_AM_RequestMedium3(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2)
#define gasnet_AMRequestLong3(dest, h, src, n, dst, a0, a1, a2) gex_AM_RequestLong3(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2)
#define gasnet_AMRequestLongAsync3(dest, h, src, n, dst, a0, a1, a2) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 3, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2))
#define gasnet_AMReplyShort3(tok, h, a0, a1, a2) gex_AM_ReplyShort3((tok), (h), 0, a0, a1, a2)
#define gasnet_AMReplyMedium3(tok, h, src, n, a0, a1, a2) gex_AM_ReplyMedium3((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2)
#define gasnet_AMReplyLong3(tok, h, src, n, dst, a0, a1, a2) gex_AM_ReplyLong3((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2)
#define gasnet_AMRequestShort4(dest, h, a0, a1, a2, a3) gex_AM_RequestShort4(_stp_legacy_tm, (dest), (h), 0, a0, a1, a2, a3)
#define gasnet_AMRequestMedium4(dest, h, src, n, a0, a1, a2, a3) gex_AM_RequestMedium4(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3)
#define gasnet_AMRequestLong4(dest, h, src, n, dst, a0, a1, a2, a3) gex_AM_RequestLong4(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3)
#define gasnet_AMRequestLongAsync4(dest, h, src, n, dst, a0, a1, a2, a3) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 4, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3))
#define gasnet_AMReplyShort4(tok, h, a0, a1, a2, a3) gex_AM_ReplyShort4((tok), (h), 0, a0, a1, a2, a3)
#define gasnet_AMReplyMedium4(tok, h, src, n, a0, a1, a2, a3) gex_AM_ReplyMedium4((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3)
#define gasnet_AMReplyLong4(tok, h, src, n, dst, a0, a1, a2, a3) gex_AM_ReplyLong4((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3)
#define gasnet_AMRequestShort5(dest, h, a0, a1, a2, a3, a4) gex_AM_RequestShort5(_stp_legacy_tm, (dest), (h), 0, a0, a1, a2, a3, a4)
#define gasnet_AMRequestMedium5(dest, h, src, n, a0, a1, a2, a3, a4) gex_AM_RequestMedium5(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4)
#define gasnet_AMRequestLong5(dest, h, src, n, dst, a0, a1, a2, a3, a4) gex_AM_RequestLong5(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4)
#define gasnet_AMRequestLongAsync5(dest, h, src, n, dst, a0, a1, a2, a3, a4) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 5, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4))
#define gasnet_AMReplyShort5(tok, h, a0, a1, a2, a3, a4) gex_AM_ReplyShort5((tok), (h), 0, a0, a1, a2, a3, a4)
#define gasnet_AMReplyMedium5(tok, h, src, n, a0, a1, a2, a3, a4) gex_AM_ReplyMedium5((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4)
#define gasnet_AMReplyLong5(tok, h, src, n, dst, a0, a1, a2, a3, a4) gex_AM_ReplyLong5((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4)
#define gasnet_AMRequestShort6(dest, h, a0, a1, a2, a3, a4, a5) gex_AM_RequestShort6(_stp_legacy_tm, (dest), (h), 0, a0, a1, a2, a3, a4, a5)
#define gasnet_AMRequestMedium6(dest, h, src, n, a0, a1, a2, a3, a4, a5) gex_AM_RequestMedium6(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5)
#define gasnet_AMRequestLong6(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5) gex_AM_RequestLong6(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5)
#define gasnet_AMRequestLongAsync6(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 6, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5))
#define gasnet_AMReplyShort6(tok, h, a0, a1, a2, a3, a4, a5) gex_AM_ReplyShort6((tok), (h), 0, a0, a1, a2, a3, a4, a5)
#define gasnet_AMReplyMedium6(tok, h, src, n, a0, a1, a2, a3, a4, a5) gex_AM_ReplyMedium6((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5)
#define gasnet_AMReplyLong6(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5) gex_AM_ReplyLong6((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5)
#define gasnet_AMRequestShort7(dest, h, a0, a1, a2, a3, a4, a5, a6) gex_AM_RequestShort7(_stp_legacy_tm, (dest), (h), 0, a0, a1, a2, a3, a4, a5, a6)
#define gasnet_AMRequestMedium7(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6) gex_AM_RequestMedium7(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6)
#define gasnet_AMRequestLong7(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6) gex_AM_RequestLong7(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6)
#define gasnet_AMRequestLongAsync7(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 7, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6))
#define gasnet_AMReplyShort7(tok, h, a0, a1, a2, a3, a4, a5, a6) gex_AM_ReplyShort7((tok), (h), 0, a0, a1, a2, a3, a4, a5, a6)
#define gasnet_AMReplyMedium7(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6) gex_AM_ReplyMedium7((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6)
#define gasnet_AMReplyLong7(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6) gex_AM_ReplyLong7((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6)
#define gasnet_AMRequestShort8(dest, h, a0, a1, a2, a3, a4, a5, a6, a7) gex_AM_RequestShort8(_stp_legacy_tm, (dest), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7)
#define gasnet_AMRequestMedium8(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7) gex_AM_RequestMedium8(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7)
#define gasnet_AMRequestLong8(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7) gex_AM_RequestLong8(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7)
#define gasnet_AMRequestLongAsync8(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 8, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7))
#define gasnet_AMReplyShort8(tok, h, a0, a1, a2, a3, a4, a5, a6, a7) gex_AM_ReplyShort8((tok), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7)
#define gasnet_AMReplyMedium8(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7) gex_AM_ReplyMedium8((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7)
#define gasnet_AMReplyLong8(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7) gex_AM_ReplyLong8((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7)
#define gasnet_AMRequestShort9(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8) gex_AM_RequestShort9(_stp_legacy_tm, (dest), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8)
#define gasnet_AMRequestMedium9(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8) gex_AM_RequestMedium9(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8)
#define gasnet_AMRequestLong9(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8) gex_AM_RequestLong9(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8)
#define gasnet_AMRequestLongAsync9(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 9, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8))
#define gasnet_AMReplyShort9(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8) gex_AM_ReplyShort9((tok), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8)
#define gasnet_AMReplyMedium9(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8) gex_AM_ReplyMedium9((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8)
#define gasnet_AMReplyLong9(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8) gex_AM_ReplyLong9((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8)
#define gasnet_AMRequestShort10(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) gex_AM_RequestShort10(_stp_legacy_tm, (dest), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define gasnet_AMRequestMedium10(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) gex_AM_RequestMedium10(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define gasnet_AMRequestLong10(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) gex_AM_RequestLong10(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define gasnet_AMRequestLongAsync10(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 10, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9))
#define gasnet_AMReplyShort10(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) gex_AM_ReplyShort10((tok), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define gasnet_AMReplyMedium10(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) gex_AM_ReplyMedium10((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define gasnet_AMReplyLong10(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9) gex_AM_ReplyLong10((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9)
#define gasnet_AMRequestShort11(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) gex_AM_RequestShort11(_stp_legacy_tm, (dest), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define gasnet_AMRequestMedium11(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) gex_AM_RequestMedium11(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define gasnet_AMRequestLong11(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) gex_AM_RequestLong11(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define gasnet_AMRequestLongAsync11(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 11, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10))
#define gasnet_AMReplyShort11(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) gex_AM_ReplyShort11((tok), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define gasnet_AMReplyMedium11(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) gex_AM_ReplyMedium11((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define gasnet_AMReplyLong11(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10) gex_AM_ReplyLong11((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10)
#define gasnet_AMRequestShort12(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) gex_AM_RequestShort12(_stp_legacy_tm, (dest), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define gasnet_AMRequestMedium12(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) gex_AM_RequestMedium12(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define gasnet_AMRequestLong12(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) gex_AM_RequestLong12(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define gasnet_AMRequestLongAsync12(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 12, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11))
#define gasnet_AMReplyShort12(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) gex_AM_ReplyShort12((tok), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define gasnet_AMReplyMedium12(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) gex_AM_ReplyMedium12((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define gasnet_AMReplyLong12(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) gex_AM_ReplyLong12((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11)
#define gasnet_AMRequestShort13(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) gex_AM_RequestShort13(_stp_legacy_tm, (dest), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)
#define gasnet_AMRequestMedium13(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) gex_AM_RequestMedium13(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)
#define gasnet_AMRequestLong13(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) gex_AM_RequestLong13(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)
#define gasnet_AMRequestLongAsync13(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 13, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12))
#define gasnet_AMReplyShort13(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) gex_AM_ReplyShort13((tok), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)
#define gasnet_AMReplyMedium13(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) gex_AM_ReplyMedium13((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)
#define gasnet_AMReplyLong13(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12) gex_AM_ReplyLong13((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12)
#define gasnet_AMRequestShort14(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) gex_AM_RequestShort14(_stp_legacy_tm, (dest), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13)
#define gasnet_AMRequestMedium14(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) gex_AM_RequestMedium14(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13)
#define gasnet_AMRequestLong14(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) gex_AM_RequestLong14(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13)
#define gasnet_AMRequestLongAsync14(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 14, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13))
#define gasnet_AMReplyShort14(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) gex_AM_ReplyShort14((tok), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13)
#define gasnet_AMReplyMedium14(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) gex_AM_ReplyMedium14((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13)
#define gasnet_AMReplyLong14(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13) gex_AM_ReplyLong14((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13)
#define gasnet_AMRequestShort15(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) gex_AM_RequestShort15(_stp_legacy_tm, (dest), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14)
#define gasnet_AMRequestMedium15(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) gex_AM_RequestMedium15(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14)
#define gasnet_AMRequestLong15(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) gex_AM_RequestLong15(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14)
#define gasnet_AMRequestLongAsync15(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 15, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14))
#define gasnet_AMReplyShort15(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) gex_AM_ReplyShort15((tok), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14)
#define gasnet_AMReplyMedium15(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) gex_AM_ReplyMedium15((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14)
#define gasnet_AMReplyLong15(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14) gex_AM_ReplyLong15((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14)
#define gasnet_AMRequestShort16(dest, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) gex_AM_RequestShort16(_stp_legacy_tm, (dest), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)
#define gasnet_AMRequestMedium16(dest, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) gex_AM_RequestMedium16(_stp_legacy_tm, (dest), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)
#define gasnet_AMRequestLong16(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) gex_AM_RequestLong16(_stp_legacy_tm, (dest), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)
#define gasnet_AMRequestLongAsync16(dest, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) _stp_AMRequestLongAsync(_stp_legacy_tm, (dest), (h), (src), (n), (dst), 16, (gex_AM_Arg_t)(a0), (gex_AM_Arg_t)(a1), (gex_AM_Arg_t)(a2), (gex_AM_Arg_t)(a3), (gex_AM_Arg_t)(a4), (gex_AM_Arg_t)(a5), (gex_AM_Arg_t)(a6), (gex_AM_Arg_t)(a7), (gex_AM_Arg_t)(a8), (gex_AM_Arg_t)(a9), (gex_AM_Arg_t)(a10), (gex_AM_Arg_t)(a11), (gex_AM_Arg_t)(a12), (gex_AM_Arg_t)(a13), (gex_AM_Arg_t)(a14), (gex_AM_Arg_t)(a15))
#define gasnet_AMReplyShort16(tok, h, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) gex_AM_ReplyShort16((tok), (h), 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)
#define gasnet_AMReplyMedium16(tok, h, src, n, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) gex_AM_ReplyMedium16((tok), (h), (src), (n), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)
#define gasnet_AMReplyLong16(tok, h, src, n, dst, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15) gex_AM_ReplyLong16((tok), (h), (src), (n), (dst), GEX_EVENT_NOW, 0, a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15)

/* ------------------------------------------------------------------ */
/* no-interrupt sections and handler-safe locks                        */
/* ------------------------------------------------------------------ */
/* stageport is purely polling-based: handlers run only inside GASNet calls,
 * on the thread that made the call (under GASNET_PAR: whichever client
 * thread polls), never asynchronously, so no-interrupt sections are empty
 * (the specification's "strictly polling-based" case).  HSLs are
 * gex_HSL_t: real locks (POSIX mutexes) in every configuration. */
#define gasnet_hold_interrupts() ((void)0)
#define gasnet_resume_interrupts() ((void)0)

typedef gex_HSL_t gasnet_hsl_t;
#define GASNET_HSL_INITIALIZER GEX_HSL_INITIALIZER
#define gasnet_hsl_init gex_HSL_Init
#define gasnet_hsl_destroy gex_HSL_Destroy
#define gasnet_hsl_lock gex_HSL_Lock
#define gasnet_hsl_unlock gex_HSL_Unlock
#define gasnet_hsl_trylock gex_HSL_Trylock

/* ------------------------------------------------------------------ */
/* extended API: put/get                                               */
/* ------------------------------------------------------------------ */
/* Remote addresses must lie in the target node's segment; local addresses
 * may be anywhere.  Sources are declared const: every call that is correct
 * against the specification's prototypes is correct here.  A non-bulk put
 * returns (NB, NBI: initiates) once its source may be reused -- GASNet-EX's
 * local completion (GEX_EVENT_NOW); a bulk put's source must stay
 * untouched until the operation is synchronized (GEX_EVENT_DEFER). */
extern void gasnet_put(gasnet_node_t node, void *dest, const void *src, size_t nbytes);
extern void gasnet_put_bulk(gasnet_node_t node, void *dest, const void *src, size_t nbytes);
extern void gasnet_get(void *dest, gasnet_node_t node, const void *src, size_t nbytes);
extern void gasnet_get_bulk(void *dest, gasnet_node_t node, const void *src, size_t nbytes);
/* memset: RMA puts from a pattern buffer of the calling thread's */
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

/* explicit-handle synchronization (gex_Event_*; the try forms poll once) */
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

/* implicit-handle synchronization (gex_NBI_*) */
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

/* GASNet-EX's objects behind the legacy calls (as GASNet-EX releases
 * provide it): the client, endpoint, team and segment gasnet_init and
 * gasnet_attach made (any pointer may be NULL). */
extern void gasnet_QueryGexObjects(gex_Client_t *client_p, gex_EP_t *endpoint_p, gex_TM_t *tm_p,
                                   gex_Segment_t *segment_p);

#ifdef __cplusplus
}
#endif

#endif /* GASNET_H */
