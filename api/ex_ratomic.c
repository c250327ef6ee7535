/*
 * ex_ratomic.c -- the remote-atomics entry points (gex_AD_*, gasnet_ratomic.h).
 *
 * gex_AD_Create checks the type, the operation set and the flags, then
 * picks the domain's one implementation (ratomic.h's domain rule): the RMA
 * backend's specialization (stp.rma->ad) when it supports the type with the
 * whole set, else the reference; STAGEPORT_AD_IMPL=reference forces the
 * reference.  Every typed operation is a thin wrapper over one path
 * (ad_op): checks, rank translation, the release fence, the implementation's
 * op() counting into a pooled root (NB) or the NBI set.  No communication at
 * creation or destruction: every member chooses alike from the same
 * arguments.
 */
#include "api.h"

#include <stdio.h>
#include <stdlib.h>

#include "gasnet_ratomic.h"
#include "ratomic.h"
#include "stageport.h"

/* operations valid for every built-in type, and for the integer types only */
#define OPS_ANY                                                                                                   \
  (GEX_OP_SET | GEX_OP_GET | GEX_OP_SWAP | GEX_OP_CAS | GEX_OP_FCAS | GEX_OP_ADD | GEX_OP_FADD | GEX_OP_SUB |     \
   GEX_OP_FSUB | GEX_OP_MULT | GEX_OP_FMULT | GEX_OP_MIN | GEX_OP_FMIN | GEX_OP_MAX | GEX_OP_FMAX | GEX_OP_INC | \
   GEX_OP_FINC | GEX_OP_DEC | GEX_OP_FDEC)
#define OPS_INT (GEX_OP_AND | GEX_OP_FAND | GEX_OP_OR | GEX_OP_FOR | GEX_OP_XOR | GEX_OP_FXOR)
#define DT_INT (GEX_DT_I32 | GEX_DT_U32 | GEX_DT_I64 | GEX_DT_U64)
#define DT_ALL (DT_INT | GEX_DT_FLT | GEX_DT_DBL)
#define CREATE_FLAGS \
  (GEX_FLAG_AD_FAVOR_MY_RANK | GEX_FLAG_AD_FAVOR_MY_NBRHD | GEX_FLAG_AD_FAVOR_REMOTE | GEX_FLAG_HINT_ACCEL_AD)
#define OP_FLAGS                                                                                                 \
  (GEX_FLAG_IMMEDIATE | GEX_FLAG_AD_MY_RANK | GEX_FLAG_AD_MY_NBRHD | GEX_FLAG_AD_ACQ | GEX_FLAG_AD_REL | \
   GEX_FLAG_RANK_IS_JOBRANK)

static const char *dt_name(gex_DT_t dt) {
  switch (dt) {
  case GEX_DT_I32: return "GEX_DT_I32";
  case GEX_DT_U32: return "GEX_DT_U32";
  case GEX_DT_I64: return "GEX_DT_I64";
  case GEX_DT_U64: return "GEX_DT_U64";
  case GEX_DT_FLT: return "GEX_DT_FLT";
  case GEX_DT_DBL: return "GEX_DT_DBL";
  default: return "not a remote-atomics type";
  }
}

/* An opcode's name (a single operation), or its value in hex. */
__attribute__((unused)) static const char *op_name(gex_OP_t op, char *buf, size_t len) {
  static const struct {
    gex_OP_t op;
    const char *name;
  } tab[] = {{GEX_OP_SET, "SET"},   {GEX_OP_GET, "GET"},     {GEX_OP_SWAP, "SWAP"}, {GEX_OP_CAS, "CAS"},
             {GEX_OP_FCAS, "FCAS"}, {GEX_OP_ADD, "ADD"},     {GEX_OP_FADD, "FADD"}, {GEX_OP_SUB, "SUB"},
             {GEX_OP_FSUB, "FSUB"}, {GEX_OP_MULT, "MULT"},   {GEX_OP_FMULT, "FMULT"}, {GEX_OP_MIN, "MIN"},
             {GEX_OP_FMIN, "FMIN"}, {GEX_OP_MAX, "MAX"},     {GEX_OP_FMAX, "FMAX"}, {GEX_OP_INC, "INC"},
             {GEX_OP_FINC, "FINC"}, {GEX_OP_DEC, "DEC"},     {GEX_OP_FDEC, "FDEC"}, {GEX_OP_AND, "AND"},
             {GEX_OP_FAND, "FAND"}, {GEX_OP_OR, "OR"},       {GEX_OP_FOR, "FOR"},   {GEX_OP_XOR, "XOR"},
             {GEX_OP_FXOR, "FXOR"}};
  for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
    if (tab[i].op == op) {
      snprintf(buf, len, "GEX_OP_%s", tab[i].name);
      return buf;
    }
  snprintf(buf, len, "0x%x", (unsigned)op);
  return buf;
}

/* STAGEPORT_AD_IMPL: native (default) or reference; read once (by
 * gex_Client_Init, which makes every node agree on it: api.h). */
static int force_reference = -1;
int stp_ad_force_reference(void) {
  if (force_reference < 0) {
    const char *v = getenv("STAGEPORT_AD_IMPL");
    if (!v || !*v || !strcmp(v, "native")) force_reference = 0;
    else if (!strcmp(v, "reference")) force_reference = 1;
    else
      stp_fatal("STAGEPORT_AD_IMPL=\"%s\": use native (the stage's atomics where it has them) or reference "
                "(AMs to the target's CPU atomics)",
                v);
  }
  return force_reference;
}

/* ------------------------------------------------------------------ */
/* domains                                                             */
/* ------------------------------------------------------------------ */
void gex_AD_Create(gex_AD_t *ad_p, gex_TM_t tm, gex_DT_t dt, gex_OP_t ops, gex_Flags_t flags) {
  STP_API_GUARD();
  static const char fn[] = "gex_AD_Create";
  struct _stp_ad *ad;
  gex_OP_t valid;
  STP_CHECK_INITED(fn);
  STP_CHECK_NOT_IN_HANDLER(fn);
  if (STP_UNLIKELY(!ad_p)) stp_fatal("%s: ad_p is NULL", fn);
  (void)gex_TM_QuerySize(tm); /* (a team of ours: its own check) */
  if (STP_UNLIKELY(!(dt & DT_ALL) || (dt & (dt - 1))))
    stp_fatal("%s: data type 0x%x is not one of GEX_DT_I32, U32, I64, U64, FLT, DBL", fn, (unsigned)dt);
  valid = OPS_ANY | ((dt & DT_INT) ? OPS_INT : 0);
  if (STP_UNLIKELY(!ops || (ops & ~valid)))
    stp_fatal("%s: operation set 0x%x %s for %s (bit-wise operations only on integer types; no GEX_OP_USER*)", fn,
              (unsigned)ops, ops ? "has operations not valid" : "is empty", dt_name(dt));
  if (STP_UNLIKELY(flags & ~CREATE_FLAGS))
    stp_fatal("%s: flags 0x%x: only GEX_FLAG_AD_FAVOR_* and GEX_FLAG_HINT_ACCEL_AD are creation flags", fn,
              (unsigned)flags);
  {
    gex_Flags_t fav = flags & (GEX_FLAG_AD_FAVOR_MY_RANK | GEX_FLAG_AD_FAVOR_MY_NBRHD | GEX_FLAG_AD_FAVOR_REMOTE);
    if (STP_UNLIKELY(fav & (fav - 1)))
      stp_fatal("%s: flags 0x%x: GEX_FLAG_AD_FAVOR_* are mutually exclusive", fn, (unsigned)flags);
  }
  ad = calloc(1, sizeof(*ad));
  if (!ad) stp_fatal("%s: out of memory", fn);
  ad->tm = tm;
  ad->dt = dt;
  ad->ops = ops;
  ad->flags = flags;
  ad->size = (dt & (GEX_DT_I64 | GEX_DT_U64 | GEX_DT_DBL)) ? 8 : 4;
  ad->impl = &stp_ad_ref_impl;
  if (!stp_ad_force_reference() && stp.rma->ad && stp.rma->ad->supports(dt, ops, flags)) ad->impl = stp.rma->ad;
  *ad_p = ad;
}

void gex_AD_Destroy(gex_AD_t ad) {
  STP_API_GUARD();
  if (STP_UNLIKELY(!ad)) stp_fatal("gex_AD_Destroy: GEX_AD_INVALID");
  free(ad);
}

#define CHECK_AD(fn, ad) \
  do { if (STP_UNLIKELY(!(ad))) stp_fatal("%s: GEX_AD_INVALID", fn); } while (0)
gex_Flags_t gex_AD_QueryFlags(gex_AD_t ad) { CHECK_AD("gex_AD_QueryFlags", ad); return ad->flags; }
gex_TM_t gex_AD_QueryTM(gex_AD_t ad) { CHECK_AD("gex_AD_QueryTM", ad); return ad->tm; }
gex_DT_t gex_AD_QueryDT(gex_AD_t ad) { CHECK_AD("gex_AD_QueryDT", ad); return ad->dt; }
gex_OP_t gex_AD_QueryOps(gex_AD_t ad) { CHECK_AD("gex_AD_QueryOps", ad); return ad->ops; }
void gex_AD_SetCData(gex_AD_t ad, const void *val) { CHECK_AD("gex_AD_SetCData", ad); ad->cdata = val; }
void *gex_AD_QueryCData(gex_AD_t ad) { CHECK_AD("gex_AD_QueryCData", ad); return (void *)ad->cdata; }

const char *stageport_ad_impl(struct _stp_ad *ad) { return ad ? ad->impl->name : NULL; }

/* ------------------------------------------------------------------ */
/* operations                                                          */
/* ------------------------------------------------------------------ */
#if STP_CHECKS
static void check_op(const char *fn, gex_AD_t ad, gex_DT_t dt, const void *result_p, gex_Rank_t node, void *addr,
                     gex_OP_t op, gex_Flags_t flags) {
  char b1[32];
  STP_CHECK_INITED(fn);
  STP_CHECK_NOT_IN_HANDLER(fn);
  if (STP_UNLIKELY(ad->dt != dt))
    stp_fatal("%s: the domain's data type is %s, not %s", fn, dt_name(ad->dt), dt_name(dt));
  if (STP_UNLIKELY(!op || (op & (op - 1)) || !(op & ad->ops)))
    stp_fatal("%s: operation %s is not in the domain's operation set (0x%x, given to gex_AD_Create)", fn,
              op_name(op, b1, sizeof(b1)), (unsigned)ad->ops);
  if (STP_UNLIKELY(flags & ~OP_FLAGS))
    stp_fatal("%s: flags 0x%x: only GEX_FLAG_IMMEDIATE, GEX_FLAG_AD_{MY_RANK,MY_NBRHD,ACQ,REL} and "
              "GEX_FLAG_RANK_IS_JOBRANK are supported",
              fn, (unsigned)flags);
  if (STP_UNLIKELY((flags & GEX_FLAG_AD_MY_RANK) && (flags & GEX_FLAG_AD_MY_NBRHD)))
    stp_fatal("%s: GEX_FLAG_AD_MY_RANK and GEX_FLAG_AD_MY_NBRHD are mutually exclusive", fn);
  if (STP_UNLIKELY((flags & GEX_FLAG_AD_MY_RANK) && node != stp.mynode))
    stp_fatal("%s: GEX_FLAG_AD_MY_RANK, but the target (job rank %u) is not the caller (job rank %u)", fn,
              (unsigned)node, (unsigned)stp.mynode);
  if (STP_UNLIKELY((op & STP_AD_FETCHING) && !result_p))
    stp_fatal("%s: result_p is NULL for the fetching operation %s", fn, op_name(op, b1, sizeof(b1)));
  if (STP_UNLIKELY((uintptr_t)addr & (ad->size - 1)))
    stp_fatal("%s: target address %p is not aligned to %u bytes (%s)", fn, addr, ad->size, dt_name(dt));
  if (STP_UNLIKELY(!stp_seg_contains(node, addr, ad->size))) stp_check_remote_fail(fn, node, addr, ad->size);
}
#else
#define check_op(fn, ad, dt, result_p, node, addr, op, flags) \
  ((void)(fn), (void)(ad), (void)(dt), (void)(result_p), (void)(node), (void)(addr), (void)(op), (void)(flags))
#endif

/* The target's job rank: tgt_rank as a rank of the domain's team, or as a
 * job rank (GEX_FLAG_RANK_IS_JOBRANK) of a member of it. */
static inline gex_Rank_t ad_node(const char *fn, gex_AD_t ad, gex_Rank_t rank, gex_Flags_t flags) {
  gex_Rank_t node;
  if (flags & GEX_FLAG_RANK_IS_JOBRANK) {
    node = rank;
#if STP_CHECKS
    STP_CHECK_NODE(fn, node);
    if (ad->tm != STP_TM0 && gex_TM_TranslateJobrankToRank(ad->tm, node) == GEX_RANK_INVALID)
      stp_fatal("%s: job rank %u (GEX_FLAG_RANK_IS_JOBRANK) is not a member of the domain's team", fn,
                (unsigned)node);
#endif
  } else if (STP_LIKELY(ad->tm == STP_TM0)) {
    node = rank;
  } else {
    node = gex_TM_TranslateRankToJobrank(ad->tm, rank);
  }
  STP_CHECK_NODE(fn, node);
  return node;
}

/* The one path: 0, or 1 for an IMMEDIATE refusal (nothing done). */
static inline int ad_op(const char *fn, gex_AD_t ad, gex_DT_t dt, void *result_p, gex_Rank_t rank, void *addr,
                        gex_OP_t op, uint64_t op1, uint64_t op2, gex_Flags_t flags, stp_ev_t *ev) {
  gex_Rank_t node;
  if (STP_UNLIKELY(!ad)) stp_fatal("%s: GEX_AD_INVALID", fn);
  node = ad_node(fn, ad, rank, flags);
  check_op(fn, ad, dt, result_p, node, addr, op, flags);
  if (flags & GEX_FLAG_AD_REL) stp_fence(__ATOMIC_SEQ_CST);
  return ad->impl->op(ad, (op & STP_AD_FETCHING) ? result_p : NULL, node, addr, op, op1, op2, flags, ev);
}

static inline uint64_t bits4(const void *p) {
  uint32_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}
static inline uint64_t bits8(const void *p) {
  uint64_t v;
  memcpy(&v, p, sizeof(v));
  return v;
}

#define AD_TYPED(DT, T, BITS)                                                                                         \
  gex_Event_t gex_AD_OpNB_##DT(gex_AD_t ad, T *result_p, gex_Rank_t tgt_rank, void *tgt_addr, gex_OP_t opcode,      \
                               T operand1, T operand2, gex_Flags_t flags) {                                         \
    STP_API_GUARD();                                                                                                \
    stp_ev_t *root = stp_ev_alloc(STP_EV_ROOT);                                                                     \
    if (ad_op("gex_AD_OpNB_" #DT, ad, GEX_DT_##DT, result_p, tgt_rank, tgt_addr, opcode, BITS(&operand1),          \
              BITS(&operand2), flags, root)) {                                                                      \
      stp_ev_free(root);                                                                                            \
      return GEX_EVENT_NO_OP;                                                                                       \
    }                                                                                                               \
    return stp_ev_root_handle(root);                                                                                \
  }                                                                                                                 \
  int gex_AD_OpNBI_##DT(gex_AD_t ad, T *result_p, gex_Rank_t tgt_rank, void *tgt_addr, gex_OP_t opcode, T operand1, \
                        T operand2, gex_Flags_t flags) {                                                            \
    STP_API_GUARD();                                                                                                \
    return ad_op("gex_AD_OpNBI_" #DT, ad, GEX_DT_##DT, result_p, tgt_rank, tgt_addr, opcode, BITS(&operand1),      \
                 BITS(&operand2), flags, stp_nbi_ev());                                                             \
  }
AD_TYPED(I32, int32_t, bits4)
AD_TYPED(U32, uint32_t, bits4)
AD_TYPED(I64, int64_t, bits8)
AD_TYPED(U64, uint64_t, bits8)
AD_TYPED(FLT, float, bits4)
AD_TYPED(DBL, double, bits8)
