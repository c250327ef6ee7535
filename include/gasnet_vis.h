/*
 * gasnet_vis.h -- non-contiguous RMA ("VIS": Vector, Indexed, Strided):
 * GASNet-EX's gex_VIS_* (API description, "Vector/Indexed/Strided") and
 * GASNet-1's gasnet_{put,get}{v,i,s}_{bulk,nb_bulk,nbi_bulk} over them.
 *
 * Semantics are the API description's; what stageport chooses:
 *
 *  - Completion.  NB returns an event (GEX_EVENT_INVALID when the whole
 *    operation completed during the call, GEX_EVENT_NO_OP for an IMMEDIATE
 *    refusal); NBI counts into the calling thread's implicit set (or its
 *    open access region), puts in GEX_EC_PUT and gets in GEX_EC_GET;
 *    Blocking returns once the operation is complete.  Every call reads
 *    its metadata (lists, strides, counts) before it returns: the arrays
 *    may be reused at once.  Payload buffers: a put's sources may be read
 *    until the operation completes, unless GEX_FLAG_ENABLE_LEAF_LC asked
 *    for local completion (NB: gex_Event_QueryLeaf(event, GEX_EC_LC); NBI:
 *    GEX_EC_LC of the implicit set).
 *  - Flags: GEX_FLAG_IMMEDIATE (non-zero / GEX_EVENT_NO_OP only when
 *    nothing was started: the first piece of the operation could not be
 *    injected without waiting), GEX_FLAG_ENABLE_LEAF_LC (puts only),
 *    GEX_FLAG_PEER_NEVER_SELF / _NBRHD (assertions).  Anything else is a
 *    fatal error.
 *  - Vector and Indexed: the two sides describe the same number of bytes
 *    (checked: a mismatch is a fatal error naming both totals); entries of
 *    length 0 are allowed anywhere.  Strided: negative strides, zero
 *    counts, transposes and reflections as the description gives them; a
 *    destination byte named twice is the client's error (undefined), a
 *    source byte named twice is fine.
 *  - The remote side must lie in the peer's bound segment, every piece of
 *    it (checked with argument checks on); the local side may be anywhere.
 *  - How the bytes move, chosen per operation (STAGEPORT_VIS=auto, the
 *    default): one RMA per contiguous piece (reference: every loopback
 *    operation, and larger pieces on stages with a network RMA), or,
 *    for small pieces (STAGEPORT_VIS_AMPIPE_MAX bytes on average; default
 *    for lists 4096 on mpi, whose RMA runs over AMs, 512 on the ptl stages,
 *    128 on the UCX-RMA ones), the pieces packed into AM Mediums -- a put's request, a get's reply -- and unpacked at the
 *    other end (ampipe).  STAGEPORT_VIS=reference or ampipe forces one.  Strided descriptions
 *    go through the stride optimizer first (null dimensions, inversion,
 *    sort, folding); STAGEPORT_VIS_OPT=off turns it off (for measuring).
 *  - gex_VIS_SetPeerCompletionHandler: binds to the calling thread's next
 *    VIS Put (a VIS Get with one armed is a fatal error, as is an armed
 *    put with GEX_FLAG_IMMEDIATE).  The handler runs at the peer as a
 *    0-argument Medium reply handler (gex_Token_Info says: a reply, from
 *    the initiator, its own registration) once every byte of the put is
 *    written there.  Such a put is complete -- the handler has run -- when
 *    its call returns (NB: GEX_EVENT_INVALID).
 */
#ifndef _GASNET_VIS_H
#define _GASNET_VIS_H

#include "gasnetex.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* GASNet-EX                                                           */
/* ------------------------------------------------------------------ */
/* Vector */
extern gex_Event_t gex_VIS_VectorGetNB(gex_TM_t tm, size_t dstcount, gex_Memvec_t const dstlist[], gex_Rank_t srcrank,
                                       size_t srccount, gex_Memvec_t const srclist[], gex_Flags_t flags);
extern int gex_VIS_VectorGetNBI(gex_TM_t tm, size_t dstcount, gex_Memvec_t const dstlist[], gex_Rank_t srcrank,
                                size_t srccount, gex_Memvec_t const srclist[], gex_Flags_t flags);
extern int gex_VIS_VectorGetBlocking(gex_TM_t tm, size_t dstcount, gex_Memvec_t const dstlist[], gex_Rank_t srcrank,
                                     size_t srccount, gex_Memvec_t const srclist[], gex_Flags_t flags);
extern gex_Event_t gex_VIS_VectorPutNB(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount, gex_Memvec_t const dstlist[],
                                       size_t srccount, gex_Memvec_t const srclist[], gex_Flags_t flags);
extern int gex_VIS_VectorPutNBI(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount, gex_Memvec_t const dstlist[],
                                size_t srccount, gex_Memvec_t const srclist[], gex_Flags_t flags);
extern int gex_VIS_VectorPutBlocking(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount, gex_Memvec_t const dstlist[],
                                     size_t srccount, gex_Memvec_t const srclist[], gex_Flags_t flags);

/* Indexed */
extern gex_Event_t gex_VIS_IndexedGetNB(gex_TM_t tm, size_t dstcount, void *const dstlist[], size_t dstlen,
                                        gex_Rank_t srcrank, size_t srccount, void *const srclist[], size_t srclen,
                                        gex_Flags_t flags);
extern int gex_VIS_IndexedGetNBI(gex_TM_t tm, size_t dstcount, void *const dstlist[], size_t dstlen, gex_Rank_t srcrank,
                                 size_t srccount, void *const srclist[], size_t srclen, gex_Flags_t flags);
extern int gex_VIS_IndexedGetBlocking(gex_TM_t tm, size_t dstcount, void *const dstlist[], size_t dstlen,
                                      gex_Rank_t srcrank, size_t srccount, void *const srclist[], size_t srclen,
                                      gex_Flags_t flags);
extern gex_Event_t gex_VIS_IndexedPutNB(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount, void *const dstlist[],
                                        size_t dstlen, size_t srccount, void *const srclist[], size_t srclen,
                                        gex_Flags_t flags);
extern int gex_VIS_IndexedPutNBI(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount, void *const dstlist[], size_t dstlen,
                                 size_t srccount, void *const srclist[], size_t srclen, gex_Flags_t flags);
extern int gex_VIS_IndexedPutBlocking(gex_TM_t tm, gex_Rank_t dstrank, size_t dstcount, void *const dstlist[],
                                      size_t dstlen, size_t srccount, void *const srclist[], size_t srclen,
                                      gex_Flags_t flags);

/* Strided: chunks of elemsz bytes, count[0..stridelevels-1] the extents
 * (count[0] innermost), strides in bytes, possibly negative */
extern gex_Event_t gex_VIS_StridedGetNB(gex_TM_t tm, void *dstaddr, const ptrdiff_t dststrides[], gex_Rank_t srcrank,
                                        void *srcaddr, const ptrdiff_t srcstrides[], size_t elemsz,
                                        const size_t count[], size_t stridelevels, gex_Flags_t flags);
extern int gex_VIS_StridedGetNBI(gex_TM_t tm, void *dstaddr, const ptrdiff_t dststrides[], gex_Rank_t srcrank,
                                 void *srcaddr, const ptrdiff_t srcstrides[], size_t elemsz, const size_t count[],
                                 size_t stridelevels, gex_Flags_t flags);
extern int gex_VIS_StridedGetBlocking(gex_TM_t tm, void *dstaddr, const ptrdiff_t dststrides[], gex_Rank_t srcrank,
                                      void *srcaddr, const ptrdiff_t srcstrides[], size_t elemsz, const size_t count[],
                                      size_t stridelevels, gex_Flags_t flags);
extern gex_Event_t gex_VIS_StridedPutNB(gex_TM_t tm, gex_Rank_t dstrank, void *dstaddr, const ptrdiff_t dststrides[],
                                        void *srcaddr, const ptrdiff_t srcstrides[], size_t elemsz,
                                        const size_t count[], size_t stridelevels, gex_Flags_t flags);
extern int gex_VIS_StridedPutNBI(gex_TM_t tm, gex_Rank_t dstrank, void *dstaddr, const ptrdiff_t dststrides[],
                                 void *srcaddr, const ptrdiff_t srcstrides[], size_t elemsz, const size_t count[],
                                 size_t stridelevels, gex_Flags_t flags);
extern int gex_VIS_StridedPutBlocking(gex_TM_t tm, gex_Rank_t dstrank, void *dstaddr, const ptrdiff_t dststrides[],
                                      void *srcaddr, const ptrdiff_t srcstrides[], size_t elemsz, const size_t count[],
                                      size_t stridelevels, gex_Flags_t flags);

/* Peer completion (deprecated in the API description; provided) */
#define GEX_VIS_MAX_PEERCOMPLETION ((size_t)512)
extern void gex_VIS_SetPeerCompletionHandler(gex_AM_Index_t handler, const void *source_addr, size_t nbytes,
                                             gex_Flags_t flags);

/* ------------------------------------------------------------------ */
/* GASNet-1 (the VIS extension of GASNet 1.x), on the legacy team      */
/* ------------------------------------------------------------------ */
/* (node and handle types as gasnet.h's: gex_Rank_t, gex_Event_t) */
typedef struct {
  void *addr;
  size_t len;
} gasnet_memvec_t;

extern void gasnet_putv_bulk(gex_Rank_t dstnode, size_t dstcount, gasnet_memvec_t const dstlist[], size_t srccount,
                             gasnet_memvec_t const srclist[]);
extern gex_Event_t gasnet_putv_nb_bulk(gex_Rank_t dstnode, size_t dstcount, gasnet_memvec_t const dstlist[],
                                       size_t srccount, gasnet_memvec_t const srclist[]);
extern void gasnet_putv_nbi_bulk(gex_Rank_t dstnode, size_t dstcount, gasnet_memvec_t const dstlist[], size_t srccount,
                                 gasnet_memvec_t const srclist[]);
extern void gasnet_getv_bulk(size_t dstcount, gasnet_memvec_t const dstlist[], gex_Rank_t srcnode, size_t srccount,
                             gasnet_memvec_t const srclist[]);
extern gex_Event_t gasnet_getv_nb_bulk(size_t dstcount, gasnet_memvec_t const dstlist[], gex_Rank_t srcnode,
                                       size_t srccount, gasnet_memvec_t const srclist[]);
extern void gasnet_getv_nbi_bulk(size_t dstcount, gasnet_memvec_t const dstlist[], gex_Rank_t srcnode, size_t srccount,
                                 gasnet_memvec_t const srclist[]);

extern void gasnet_puti_bulk(gex_Rank_t dstnode, size_t dstcount, void *const dstlist[], size_t dstlen,
                             size_t srccount, void *const srclist[], size_t srclen);
extern gex_Event_t gasnet_puti_nb_bulk(gex_Rank_t dstnode, size_t dstcount, void *const dstlist[], size_t dstlen,
                                       size_t srccount, void *const srclist[], size_t srclen);
extern void gasnet_puti_nbi_bulk(gex_Rank_t dstnode, size_t dstcount, void *const dstlist[], size_t dstlen,
                                 size_t srccount, void *const srclist[], size_t srclen);
extern void gasnet_geti_bulk(size_t dstcount, void *const dstlist[], size_t dstlen, gex_Rank_t srcnode,
                             size_t srccount, void *const srclist[], size_t srclen);
extern gex_Event_t gasnet_geti_nb_bulk(size_t dstcount, void *const dstlist[], size_t dstlen, gex_Rank_t srcnode,
                                       size_t srccount, void *const srclist[], size_t srclen);
extern void gasnet_geti_nbi_bulk(size_t dstcount, void *const dstlist[], size_t dstlen, gex_Rank_t srcnode,
                                 size_t srccount, void *const srclist[], size_t srclen);

/* GASNet-1's strided metadata: count[0] is the contiguous chunk's size in
 * bytes and count[1..stridelevels] the extents; strides are unsigned and
 * stridelevels of them per end. */
extern void gasnet_puts_bulk(gex_Rank_t dstnode, void *dstaddr, const size_t dststrides[], void *srcaddr,
                             const size_t srcstrides[], const size_t count[], size_t stridelevels);
extern gex_Event_t gasnet_puts_nb_bulk(gex_Rank_t dstnode, void *dstaddr, const size_t dststrides[], void *srcaddr,
                                       const size_t srcstrides[], const size_t count[], size_t stridelevels);
extern void gasnet_puts_nbi_bulk(gex_Rank_t dstnode, void *dstaddr, const size_t dststrides[], void *srcaddr,
                                 const size_t srcstrides[], const size_t count[], size_t stridelevels);
extern void gasnet_gets_bulk(void *dstaddr, const size_t dststrides[], gex_Rank_t srcnode, void *srcaddr,
                             const size_t srcstrides[], const size_t count[], size_t stridelevels);
extern gex_Event_t gasnet_gets_nb_bulk(void *dstaddr, const size_t dststrides[], gex_Rank_t srcnode, void *srcaddr,
                                       const size_t srcstrides[], const size_t count[], size_t stridelevels);
extern void gasnet_gets_nbi_bulk(void *dstaddr, const size_t dststrides[], gex_Rank_t srcnode, void *srcaddr,
                                 const size_t srcstrides[], const size_t count[], size_t stridelevels);

#ifdef __cplusplus
}
#endif

#endif /* _GASNET_VIS_H */
