/*
 * gasnet_coll.h -- GASNet-EX collectives (API description, "Collectives")
 * on any team: broadcast and the reductions (the barrier,
 * gex_Coll_BarrierNB, is gasnetex.h's), and the part of GASNet-1's
 * collectives prototype that GASNet-EX's own test programs still call
 * (below).  One implementation: the reference, over the Core's AMs
 * (ext-ref/ref_coll.c; DESIGN-NOTES.md, "Teams and collectives").
 *
 * Common rules: collective over the team tm names (a TM-pair is refused);
 * root, nbytes, dt, dt_sz, dt_cnt and op single-valued; flags reserved
 * (0).  Any number may be in flight, on any number of teams; completion:
 * this process's part is done (its dst written, its src no longer read).
 */
#ifndef _GASNET_COLL_H
#define _GASNET_COLL_H

#include "gasnetex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Copies nbytes from src on rank root of tm to dst on every rank (root
 * included, unless dst == src). */
extern gex_Event_t gex_Coll_BroadcastNB(gex_TM_t tm, gex_Rank_t root, void *dst, const void *src, size_t nbytes,
                                        gex_Flags_t flags);

/* A user-defined reduction operation: arg2_and_out[i] = arg1[i] (+)
 * arg2_and_out[i] for i < count ("left" operands in arg1); cdata is the
 * caller's user_cdata.  count is any positive number (stageport passes
 * dt_cnt: whole vectors). */
typedef void (*gex_Coll_ReduceFn_t)(const void *arg1, void *arg2_and_out, size_t count, const void *cdata);

/* Reductions: every member's src (dt_cnt elements of dt_sz bytes)
 * combined element-wise, dst_i = src_i[0] (+) src_i[1] ... (+) src_i[N-1],
 * in team-rank order (exact for GEX_OP_USER_NC).  dt: GEX_DT_{I32,U32,
 * I64,U64,FLT,DBL} (dt_sz its size) or GEX_DT_USER (any dt_sz > 0, op USER
 * or USER_NC only); op: GEX_OP_{ADD,MULT,MIN,MAX} for every built-in type,
 * GEX_OP_{AND,OR,XOR} for the integer types, GEX_OP_USER and
 * GEX_OP_USER_NC (user_op, user_cdata) for any; dt_cnt > 0.  Anything else
 * is a fatal error naming the call.  ReduceToOne: the result in dst at
 * root (src == dst allowed there; dst ignored elsewhere).  ReduceToAll:
 * the result in dst everywhere (src == dst on every rank or on none).
 * Integer ADD and MULT wrap. */
extern gex_Event_t gex_Coll_ReduceToOneNB(gex_TM_t tm, gex_Rank_t root, void *dst, const void *src, gex_DT_t dt,
                                          size_t dt_sz, size_t dt_cnt, gex_OP_t op, gex_Coll_ReduceFn_t user_op,
                                          void *user_cdata, gex_Flags_t flags);
extern gex_Event_t gex_Coll_ReduceToAllNB(gex_TM_t tm, void *dst, const void *src, gex_DT_t dt, size_t dt_sz,
                                          size_t dt_cnt, gex_OP_t op, gex_Coll_ReduceFn_t user_op, void *user_cdata,
                                          gex_Flags_t flags);

/* ------------------------------------------------------------------ */
/* GASNet-1's collectives prototype (the part still in use)            */
/* ------------------------------------------------------------------ */
/* What GASNet-EX's own test programs (testteambarrier, testcollperf) call
 * of the prototype the description says these APIs replace.  A team
 * handle is a gex_TM_t; GASNET_TEAM_ALL is the primordial team.  One
 * image per process (GASNET_COLL_LOCAL: each rank passes its own
 * addresses; GASNET_COLL_SINGLE ones are taken the same way); image
 * numbers are team ranks.  A handle is a gex_Event_t. */
typedef gex_TM_t gasnet_team_handle_t;
typedef uint32_t gasnet_image_t;
typedef gex_Event_t gasnet_coll_handle_t;
#define GASNET_TEAM_ALL ((gasnet_team_handle_t)0)
#define GASNET_COLL_HANDLE_INVALID GEX_EVENT_INVALID

/* Synchronization (IN: when data may start moving; OUT: when the call
 * may complete): ALLSYNC adds a team barrier before (IN) or after (OUT)
 * the movement; MYSYNC and NOSYNC add nothing (data is read from src at
 * initiation, and the call completes when dst here is written). */
#define GASNET_COLL_IN_NOSYNC (1 << 0)
#define GASNET_COLL_IN_MYSYNC (1 << 1)
#define GASNET_COLL_IN_ALLSYNC (1 << 2)
#define GASNET_COLL_OUT_NOSYNC (1 << 3)
#define GASNET_COLL_OUT_MYSYNC (1 << 4)
#define GASNET_COLL_OUT_ALLSYNC (1 << 5)
#define GASNET_COLL_SINGLE (1 << 6)
#define GASNET_COLL_LOCAL (1 << 7)
#define GASNET_COLL_AGGREGATE (1 << 8)
#define GASNET_COLL_DST_IN_SEGMENT (1 << 9)
#define GASNET_COLL_SRC_IN_SEGMENT (1 << 10)
#define GASNET_COLL_FLAGS_ALL ((1 << 11) - 1)

/* The team barrier with a value: GASNet-1's notify/wait/try rules
 * (GASNET_BARRIERFLAG_*; a mismatch: GASNET_ERR_BARRIER_MISMATCH), one
 * notify outstanding per team. */
extern void gasnet_coll_barrier_notify(gasnet_team_handle_t team, int id, int flags);
extern int gasnet_coll_barrier_wait(gasnet_team_handle_t team, int id, int flags);
extern int gasnet_coll_barrier_try(gasnet_team_handle_t team, int id, int flags);
extern int gasnet_coll_barrier(gasnet_team_handle_t team, int id, int flags);

/* nbytes per block; src (scatter, exchange) and dst (gather at the root,
 * gather_all, exchange) hold one block per team rank, in rank order. */
extern void gasnet_coll_broadcast(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage, void *src,
                                  size_t nbytes, int flags);
extern void gasnet_coll_scatter(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage, void *src,
                                size_t nbytes, int flags);
extern void gasnet_coll_gather(gasnet_team_handle_t team, gasnet_image_t dstimage, void *dst, void *src,
                               size_t nbytes, int flags);
extern void gasnet_coll_gather_all(gasnet_team_handle_t team, void *dst, void *src, size_t nbytes, int flags);
extern void gasnet_coll_exchange(gasnet_team_handle_t team, void *dst, void *src, size_t nbytes, int flags);
extern gasnet_coll_handle_t gasnet_coll_broadcast_nb(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage,
                                                     void *src, size_t nbytes, int flags);
extern gasnet_coll_handle_t gasnet_coll_scatter_nb(gasnet_team_handle_t team, void *dst, gasnet_image_t srcimage,
                                                   void *src, size_t nbytes, int flags);
extern gasnet_coll_handle_t gasnet_coll_gather_nb(gasnet_team_handle_t team, gasnet_image_t dstimage, void *dst,
                                                  void *src, size_t nbytes, int flags);
extern gasnet_coll_handle_t gasnet_coll_gather_all_nb(gasnet_team_handle_t team, void *dst, void *src, size_t nbytes,
                                                      int flags);
extern gasnet_coll_handle_t gasnet_coll_exchange_nb(gasnet_team_handle_t team, void *dst, void *src, size_t nbytes,
                                                    int flags);
extern void gasnet_coll_wait_sync(gasnet_coll_handle_t handle);
extern int gasnet_coll_try_sync(gasnet_coll_handle_t handle); /* GASNET_OK or GASNET_ERR_NOT_READY */
/* (no tuning state or profile is kept: these print nothing) */
extern void gasnet_coll_dumpTuningState(char *filename, gasnet_team_handle_t team);
extern void gasnet_coll_dumpProfile(char *filename, gasnet_team_handle_t team);

#ifdef __cplusplus
}
#endif

#endif /* _GASNET_COLL_H */
