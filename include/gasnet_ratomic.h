/*
 * gasnet_ratomic.h -- GASNet-EX remote atomics (API description, "Remote
 * Atomic Operations"): atomic domains and the typed operations on them.
 *
 * An atomic domain (gex_AD_t) binds a team, one data type (GEX_DT_*) and a
 * set of operations (an OR of GEX_OP_*, gasnet_fwd.h).  stageport chooses
 * ONE implementation per domain at gex_AD_Create, from the type, the whole
 * set and the flags; every operation of that domain -- the caller's own rank
 * included -- goes through it, so CPU atomics and network atomics never act
 * on the same memory in one domain:
 *   - on the ucx and ucx-mpi stages, an integer domain whose every operation
 *     UCX does right (SET, GET, SWAP, (F)CAS, (F)ADD, (F)SUB, (F)INC,
 *     (F)DEC, AND, OR, XOR -- not the fetching FAND/FOR/FXOR, which UCX
 *     1.13 gets wrong) uses UCX atomics (ucp_atomic_op_nbx), own rank
 *     through UCX's self endpoint;
 *   - every other domain, and every domain on the other stages, the
 *     reference: an AM to the target, which does the operation with CPU
 *     atomics (own rank: the same CPU atomics, no AM).
 * STAGEPORT_AD_IMPL=reference forces the reference for every domain (the
 * same value on every process).  stageport_ad_impl(ad) (stageport.h) names
 * a domain's choice.
 *
 * Completion: an NB call returns an event (GEX_EVENT_INVALID when the
 * operation completed during the call, GEX_EVENT_NO_OP for an IMMEDIATE
 * refusal); an NBI call counts into the thread's implicit set, in GEX_EC_PUT
 * for GEX_OP_SET, GEX_EC_GET for GEX_OP_GET and GEX_EC_RMW for every other
 * operation, and returns non-zero only for an IMMEDIATE refusal (nothing
 * done).  Operands and results travel as the domain's C type.
 *
 * Flags of an operation: GEX_FLAG_IMMEDIATE; at most one of
 * GEX_FLAG_AD_MY_RANK / GEX_FLAG_AD_MY_NBRHD (assertions, checked where
 * cheap); GEX_FLAG_AD_ACQ and GEX_FLAG_AD_REL (acquire at synchronization,
 * release at initiation: fences); GEX_FLAG_RANK_IS_JOBRANK (tgt_rank is a
 * job rank).  Flags of gex_AD_Create: at most one GEX_FLAG_AD_FAVOR_* (a
 * hint: FAVOR_MY_RANK picks the reference, whose own-rank operations are
 * plain CPU atomics), GEX_FLAG_HINT_ACCEL_AD (ignored).
 *
 * Checks (a build with checks on): an operation not in the domain's set,
 * a call typed other than the domain, a misaligned target, a target outside
 * the target's bound segment, a bad flag or rank -- each a fatal error
 * naming the call.  Creation checks the type/operation combination
 * (bit-wise operations only on integer types) with checks on or off.
 */
#ifndef _GASNET_RATOMIC_H
#define _GASNET_RATOMIC_H

#include <limits.h> /* (GASNet's headers bring it: clients such as GASNet-EX's testratomic use INT_MAX unincluded) */

#include "gasnetex.h"

#ifdef __cplusplus
extern "C" {
#endif

struct _stp_ad;
typedef struct _stp_ad *gex_AD_t;
#define GEX_AD_INVALID ((gex_AD_t)0)

/* Collective over tm (no barrier implied); one domain per call. */
extern void gex_AD_Create(gex_AD_t *ad_p, gex_TM_t tm, gex_DT_t dt, gex_OP_t ops, gex_Flags_t flags);
/* Collective; every operation on ad must be complete everywhere first. */
extern void gex_AD_Destroy(gex_AD_t ad);

extern gex_Flags_t gex_AD_QueryFlags(gex_AD_t ad);
extern gex_TM_t gex_AD_QueryTM(gex_AD_t ad);
extern gex_DT_t gex_AD_QueryDT(gex_AD_t ad);
extern gex_OP_t gex_AD_QueryOps(gex_AD_t ad);
extern void gex_AD_SetCData(gex_AD_t ad, const void *val);
extern void *gex_AD_QueryCData(gex_AD_t ad);

/* gex_AD_OpNB_<T> / gex_AD_OpNBI_<T> for every built-in type */
#define _STP_AD_DECLARE(DT, T)                                                                                    \
  extern gex_Event_t gex_AD_OpNB_##DT(gex_AD_t ad, T *result_p, gex_Rank_t tgt_rank, void *tgt_addr, gex_OP_t opcode, \
                                      T operand1, T operand2, gex_Flags_t flags);                                 \
  extern int gex_AD_OpNBI_##DT(gex_AD_t ad, T *result_p, gex_Rank_t tgt_rank, void *tgt_addr, gex_OP_t opcode,      \
                               T operand1, T operand2, gex_Flags_t flags);
_STP_AD_DECLARE(I32, int32_t)
_STP_AD_DECLARE(U32, uint32_t)
_STP_AD_DECLARE(I64, int64_t)
_STP_AD_DECLARE(U64, uint64_t)
_STP_AD_DECLARE(FLT, float)
_STP_AD_DECLARE(DBL, double)
#undef _STP_AD_DECLARE

#ifdef __cplusplus
}
#endif

#endif /* _GASNET_RATOMIC_H */
