/*
 * gasnet_coll.h -- GASNet-EX collectives (API description, "Collectives"),
 * as stageport provides them so far: the broadcast on the primordial team
 * (the barrier, gex_Coll_BarrierNB, is gasnetex.h's).  Teams, reductions
 * and user-defined operations come with teams (a later phase).
 */
#ifndef _GASNET_COLL_H
#define _GASNET_COLL_H

#include "gasnetex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copies nbytes from src on rank root of tm to dst on every rank (root
 * included, unless dst == src).  Collective; root and nbytes single-valued;
 * flags reserved (0).  Completion: the data is in dst here (at the root:
 * its sends are out). */
extern gex_Event_t gex_Coll_BroadcastNB(gex_TM_t tm, gex_Rank_t root, void *dst, const void *src, size_t nbytes,
                                        gex_Flags_t flags);

#ifdef __cplusplus
}
#endif

#endif /* _GASNET_COLL_H */
