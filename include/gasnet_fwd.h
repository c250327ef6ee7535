/*
 * gasnet_fwd.h -- the GASNet-EX types and constants that need nothing else:
 * a header a client may include in its own headers (GASNet-EX API
 * description, "The gasnet_fwd.h header").  gasnetex.h includes it.
 *
 * Values are stageport's own (the specification fixes names and
 * properties, not numbers): flag bits of one call are disjoint; every
 * GEX_DT_* is a distinct non-zero bit; GEX_EVENT_INVALID is 0 and
 * GEX_EVENT_NO_OP is not.
 */
#ifndef _GEX_FWD_H
#define _GEX_FWD_H

#include <stdint.h>

/* A rank in a team, or a job rank; interoperable with gasnet_node_t. */
typedef uint32_t gex_Rank_t;
#define GEX_RANK_INVALID ((gex_Rank_t)0xFFFFFFFFu)

/* An endpoint's index in its client (the primordial endpoint's is 0). */
typedef uint16_t gex_EP_Index_t;

/* An address, or (with the *_SEG_OFFSET flags, not implemented) an offset. */
typedef void *gex_Addr_t;

/* Events: opaque, pointer-sized; interoperable with gasnet_handle_t.  An
 * event names one pooled record and the generation of its use, so a
 * synchronized event used again is found stale, not mistaken for a later
 * operation. */
struct _stp_event;
typedef struct _stp_event *gex_Event_t;
#define GEX_EVENT_INVALID ((gex_Event_t)0)
#define GEX_EVENT_NO_OP ((gex_Event_t)(uintptr_t)(~(uintptr_t)0))
/* leaf-event requests passed where a gex_Event_t * goes */
#define GEX_EVENT_NOW ((gex_Event_t *)(uintptr_t)1)
#define GEX_EVENT_DEFER ((gex_Event_t *)(uintptr_t)2)
#define GEX_EVENT_GROUP ((gex_Event_t *)(uintptr_t)3)

typedef uint32_t gex_Flags_t;

/* point-to-point injection */
#define GEX_FLAG_IMMEDIATE ((gex_Flags_t)1u << 0)
#define GEX_FLAG_ENABLE_LEAF_LC ((gex_Flags_t)1u << 1) /* VIS (issue: VIS) */
#define GEX_FLAG_PEER_NEVER_SELF ((gex_Flags_t)1u << 2)
#define GEX_FLAG_PEER_NEVER_NBRHD ((gex_Flags_t)1u << 3)
/* segment disposition (not implemented: the defaults are the only
 * behaviour -- SELF unknown, PEER bound -- and passing one is refused) */
#define GEX_FLAG_SELF_SEG_UNKNOWN ((gex_Flags_t)1u << 4)
#define GEX_FLAG_SELF_SEG_SOME ((gex_Flags_t)1u << 5)
#define GEX_FLAG_SELF_SEG_BOUND ((gex_Flags_t)1u << 6)
#define GEX_FLAG_SELF_SEG_OFFSET ((gex_Flags_t)1u << 7)
#define GEX_FLAG_PEER_SEG_UNKNOWN ((gex_Flags_t)1u << 8)
#define GEX_FLAG_PEER_SEG_SOME ((gex_Flags_t)1u << 9)
#define GEX_FLAG_PEER_SEG_BOUND ((gex_Flags_t)1u << 10)
#define GEX_FLAG_PEER_SEG_OFFSET ((gex_Flags_t)1u << 11)
/* AM payload queries: the largest least_payload of a Prepare instead */
#define GEX_FLAG_AM_PREPARE_LEAST_CLIENT ((gex_Flags_t)1u << 12)
#define GEX_FLAG_AM_PREPARE_LEAST_ALLOC ((gex_Flags_t)1u << 13)
/* remote atomics (gasnet_ratomic.h) */
#define GEX_FLAG_AD_MY_RANK ((gex_Flags_t)1u << 14)
#define GEX_FLAG_AD_MY_NBRHD ((gex_Flags_t)1u << 15)
#define GEX_FLAG_AD_ACQ ((gex_Flags_t)1u << 16)
#define GEX_FLAG_AD_REL ((gex_Flags_t)1u << 17)
#define GEX_FLAG_AD_FAVOR_MY_RANK ((gex_Flags_t)1u << 18)
#define GEX_FLAG_AD_FAVOR_MY_NBRHD ((gex_Flags_t)1u << 19)
#define GEX_FLAG_AD_FAVOR_REMOTE ((gex_Flags_t)1u << 20)
#define GEX_FLAG_RANK_IS_JOBRANK ((gex_Flags_t)1u << 21)
#define GEX_FLAG_HINT_ACCEL_AD ((gex_Flags_t)1u << 22)
#define GEX_FLAG_HINT_ACCEL_COLL ((gex_Flags_t)1u << 23)
#define GEX_FLAG_HINT_ACCEL_ALL (GEX_FLAG_HINT_ACCEL_AD | GEX_FLAG_HINT_ACCEL_COLL)

/* AM handler registration (gex_AM_Entry_t.gex_flags): one of each group */
#define GEX_FLAG_AM_SHORT ((gex_Flags_t)1u << 0)
#define GEX_FLAG_AM_MEDIUM ((gex_Flags_t)1u << 1)
#define GEX_FLAG_AM_LONG ((gex_Flags_t)1u << 2)
#define GEX_FLAG_AM_MEDLONG (GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_LONG)
#define GEX_FLAG_AM_REQUEST ((gex_Flags_t)1u << 3)
#define GEX_FLAG_AM_REPLY ((gex_Flags_t)1u << 4)
#define GEX_FLAG_AM_REQREP (GEX_FLAG_AM_REQUEST | GEX_FLAG_AM_REPLY)

/* gex_Client_Init */
#define GEX_FLAG_USES_GASNET1 ((gex_Flags_t)1u << 0)
#define GEX_FLAG_DEFER_THREADS ((gex_Flags_t)1u << 1)

/* teams (gex_TM_Split, gex_TM_Create, gex_TM_Destroy) */
#define GEX_FLAG_TM_SCRATCH_SIZE_MIN ((gex_Flags_t)1u << 0)
#define GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED ((gex_Flags_t)1u << 1)
#define GEX_FLAG_TM_GLOBAL_SCRATCH ((gex_Flags_t)1u << 2)
#define GEX_FLAG_TM_LOCAL_SCRATCH ((gex_Flags_t)1u << 3)
#define GEX_FLAG_TM_SYMMETRIC_SCRATCH ((gex_Flags_t)1u << 4)
#define GEX_FLAG_TM_NO_SCRATCH ((gex_Flags_t)1u << 5)
#define GEX_FLAG_SCRATCH_SEG_OFFSET ((gex_Flags_t)1u << 6)
#define GEX_FLAG_GLOBALLY_QUIESCED ((gex_Flags_t)1u << 7)

/* Data types of atomics and reductions: distinct non-zero bits. */
typedef uint32_t gex_DT_t;
#define GEX_DT_I32 ((gex_DT_t)1u << 0)
#define GEX_DT_U32 ((gex_DT_t)1u << 1)
#define GEX_DT_I64 ((gex_DT_t)1u << 2)
#define GEX_DT_U64 ((gex_DT_t)1u << 3)
#define GEX_DT_FLT ((gex_DT_t)1u << 4)
#define GEX_DT_DBL ((gex_DT_t)1u << 5)
#define GEX_DT_USER ((gex_DT_t)1u << 6)

/* Operations of atomics and reductions: every one its own bit, so that a
 * mask of them (gex_AD_Create's ops) names each exactly; a fetching
 * operation is its non-fetching one's bit moved up by 16
 * (GEX_OP_TO_FETCHING / GEX_OP_TO_NONFETCHING). */
typedef uint32_t gex_OP_t;
#define GEX_OP_AND ((gex_OP_t)1u << 0)
#define GEX_OP_OR ((gex_OP_t)1u << 1)
#define GEX_OP_XOR ((gex_OP_t)1u << 2)
#define GEX_OP_ADD ((gex_OP_t)1u << 3)
#define GEX_OP_SUB ((gex_OP_t)1u << 4)
#define GEX_OP_MULT ((gex_OP_t)1u << 5)
#define GEX_OP_MIN ((gex_OP_t)1u << 6)
#define GEX_OP_MAX ((gex_OP_t)1u << 7)
#define GEX_OP_INC ((gex_OP_t)1u << 8)
#define GEX_OP_DEC ((gex_OP_t)1u << 9)
#define GEX_OP_SET ((gex_OP_t)1u << 10)
#define GEX_OP_CAS ((gex_OP_t)1u << 11)
#define GEX_OP_USER ((gex_OP_t)1u << 12)
#define GEX_OP_USER_NC ((gex_OP_t)1u << 13)
#define GEX_OP_TO_FETCHING(op) ((gex_OP_t)(op) << 16)
#define GEX_OP_TO_NONFETCHING(op) ((gex_OP_t)(op) >> 16)
#define GEX_OP_FAND GEX_OP_TO_FETCHING(GEX_OP_AND)
#define GEX_OP_FOR GEX_OP_TO_FETCHING(GEX_OP_OR)
#define GEX_OP_FXOR GEX_OP_TO_FETCHING(GEX_OP_XOR)
#define GEX_OP_FADD GEX_OP_TO_FETCHING(GEX_OP_ADD)
#define GEX_OP_FSUB GEX_OP_TO_FETCHING(GEX_OP_SUB)
#define GEX_OP_FMULT GEX_OP_TO_FETCHING(GEX_OP_MULT)
#define GEX_OP_FMIN GEX_OP_TO_FETCHING(GEX_OP_MIN)
#define GEX_OP_FMAX GEX_OP_TO_FETCHING(GEX_OP_MAX)
#define GEX_OP_FINC GEX_OP_TO_FETCHING(GEX_OP_INC)
#define GEX_OP_FDEC GEX_OP_TO_FETCHING(GEX_OP_DEC)
#define GEX_OP_SWAP GEX_OP_TO_FETCHING(GEX_OP_SET)
#define GEX_OP_FCAS GEX_OP_TO_FETCHING(GEX_OP_CAS)
#define GEX_OP_GET ((gex_OP_t)1u << 30) /* (fetching only) */
#define GEX_OP_CSWAP GEX_OP_FCAS /* (its former name) */

/* Endpoint capabilities (gex_EP_Create) */
typedef uint32_t gex_EP_Capabilities_t;
#define GEX_EP_CAPABILITY_RMA ((gex_EP_Capabilities_t)1u << 0)
#define GEX_EP_CAPABILITY_AM ((gex_EP_Capabilities_t)1u << 1)
#define GEX_EP_CAPABILITY_VIS ((gex_EP_Capabilities_t)1u << 2)
#define GEX_EP_CAPABILITY_COLL ((gex_EP_Capabilities_t)1u << 3)
#define GEX_EP_CAPABILITY_AD ((gex_EP_Capabilities_t)1u << 4)
#define GEX_EP_CAPABILITY_ALL (((gex_EP_Capabilities_t)1u << 5) - 1)

#endif /* _GEX_FWD_H */
