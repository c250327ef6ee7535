/*
 * exatomic.c -- GASNet-EX remote atomics (gasnet_ratomic.h): every type and
 * operation against a sequential model, contention on one location, the
 * NB and NBI forms, acquire/release ordering, IMMEDIATE, queries, and the
 * implementation stageport chose for a domain.  The exconf.h framework:
 * "ok NAME" / "not ok NAME" lines from rank 0.
 *
 * Usage: mpirun -np N exatomic [SUBTEST...]     (exatomic --list)
 *        mpirun -np 2 exatomic --bad MODE       (exatomic --bad-list: an
 *        invalid call that must end the job with an error naming it; the
 *        node making it prints EXPECT lines first, as tests/badinput)
 *
 * Environment: STAGEPORT_AD_IMPL (the library's: reference forces the
 * reference implementation; the "impl" subtest then expects it).
 */
#include <gasnet_ratomic.h>
#include <math.h>

#include "exconf.h"

/* ------------------------------------------------------------------ */
/* segment layout (every rank's)                                       */
/* ------------------------------------------------------------------ */
#define SLOT 64                              /* one model location per source rank */
#define MODEL_OFF 0                          /* EX_MAXN slots */
#define HAM_OFF (MODEL_OFF + EX_MAXN * SLOT) /* rank 0: the contended counters */
#define FORMS_OFF (HAM_OFF + 256)            /* per source rank: 8 words */
#define FLAG_OFF (FORMS_OFF + EX_MAXN * SLOT)
#define DATA_OFF (FLAG_OFF + EX_MAXN * SLOT)
#define DATA_LEN 1024 /* per source rank */
#define IMM_OFF (DATA_OFF + EX_MAXN * DATA_LEN)
#define SEG_SIZE (IMM_OFF + 4096)

static void *at(gex_Rank_t r, size_t off) { return (char *)ex_segs[r].addr + off; }

#define OPS_ANY                                                                                                   \
  (GEX_OP_SET | GEX_OP_GET | GEX_OP_SWAP | GEX_OP_CAS | GEX_OP_FCAS | GEX_OP_ADD | GEX_OP_FADD | GEX_OP_SUB |     \
   GEX_OP_FSUB | GEX_OP_MULT | GEX_OP_FMULT | GEX_OP_MIN | GEX_OP_FMIN | GEX_OP_MAX | GEX_OP_FMAX | GEX_OP_INC | \
   GEX_OP_FINC | GEX_OP_DEC | GEX_OP_FDEC)
#define OPS_BIT (GEX_OP_AND | GEX_OP_FAND | GEX_OP_OR | GEX_OP_FOR | GEX_OP_XOR | GEX_OP_FXOR)
/* what the ucx stages' specialization takes: UCX's atomics but the fetching
 * bit-wise ones (ext-ucx/ucx_ratomic.c) */
#define OPS_UCX                                                                                \
  ((OPS_ANY & ~(GEX_OP_MULT | GEX_OP_FMULT | GEX_OP_MIN | GEX_OP_FMIN | GEX_OP_MAX | GEX_OP_FMAX)) | \
   GEX_OP_AND | GEX_OP_OR | GEX_OP_XOR)
#define FETCHING                                                                                                   \
  (GEX_OP_FAND | GEX_OP_FOR | GEX_OP_FXOR | GEX_OP_FADD | GEX_OP_FSUB | GEX_OP_FMULT | GEX_OP_FMIN | GEX_OP_FMAX | \
   GEX_OP_FINC | GEX_OP_FDEC | GEX_OP_SWAP | GEX_OP_FCAS | GEX_OP_GET)

/* a check that cannot fail here (the value is checked later, by a fetch) */
#define COUNT_CHECK() __atomic_add_fetch(&ex_checks, 1, __ATOMIC_RELAXED)

static gex_EC_t ec_of(gex_OP_t op) {
  return op == GEX_OP_SET ? GEX_EC_PUT : op == GEX_OP_GET ? GEX_EC_GET : GEX_EC_RMW;
}

/* The implementation a domain should get on this stage: the ucx stages'
 * for integer domains of UCX's operations (ext-ucx/ucx_ratomic.c), the
 * ptl stages' for every domain (ext-portals/portals_ratomic.c); never with
 * GEX_FLAG_AD_FAVOR_MY_RANK or STAGEPORT_AD_IMPL=reference. */
static const char *expected_impl(gex_DT_t dt, gex_OP_t ops, gex_Flags_t flags) {
  const char *f = getenv("STAGEPORT_AD_IMPL");
  const char *st = stageport_stage();
  int is_int = (dt & (GEX_DT_I32 | GEX_DT_U32 | GEX_DT_I64 | GEX_DT_U64)) != 0;
  if ((f && !strcmp(f, "reference")) || (flags & GEX_FLAG_AD_FAVOR_MY_RANK)) return "reference";
  if (!strcmp(st, "ucx") || !strcmp(st, "ucx-mpi")) return is_int && !(ops & ~OPS_UCX) ? "ucx" : "reference";
  if (!strcmp(st, "hybrid") || !strcmp(st, "portals") || !strcmp(st, "firehose")) return "portals";
  return "reference";
}

/* ------------------------------------------------------------------ */
/* the sequential model                                                */
/* ------------------------------------------------------------------ */
static const struct {
  gex_OP_t op;
  int cas_hit; /* (F)CAS: op1 is the current value */
  const char *name;
} seq_ops[] = {
    {GEX_OP_SET, 0, "SET"},   {GEX_OP_GET, 0, "GET"},   {GEX_OP_SWAP, 0, "SWAP"},   {GEX_OP_FCAS, 1, "FCAS(hit)"},
    {GEX_OP_FCAS, 0, "FCAS(miss)"}, {GEX_OP_CAS, 1, "CAS(hit)"}, {GEX_OP_GET, 0, "GET"},  {GEX_OP_CAS, 0, "CAS(miss)"},
    {GEX_OP_GET, 0, "GET"},   {GEX_OP_ADD, 0, "ADD"},   {GEX_OP_FADD, 0, "FADD"},   {GEX_OP_SUB, 0, "SUB"},
    {GEX_OP_FSUB, 0, "FSUB"}, {GEX_OP_MULT, 0, "MULT"}, {GEX_OP_FMULT, 0, "FMULT"}, {GEX_OP_MIN, 0, "MIN"},
    {GEX_OP_FMIN, 0, "FMIN"}, {GEX_OP_MAX, 0, "MAX"},   {GEX_OP_FMAX, 0, "FMAX"},   {GEX_OP_INC, 0, "INC"},
    {GEX_OP_FINC, 0, "FINC"}, {GEX_OP_DEC, 0, "DEC"},   {GEX_OP_FDEC, 0, "FDEC"},   {GEX_OP_AND, 0, "AND"},
    {GEX_OP_FAND, 0, "FAND"}, {GEX_OP_OR, 0, "OR"},     {GEX_OP_FOR, 0, "FOR"},     {GEX_OP_XOR, 0, "XOR"},
    {GEX_OP_FXOR, 0, "FXOR"}, {GEX_OP_GET, 0, "GET"},
};
#define NSEQ EX_ARRAY_LEN(seq_ops)

static const int64_t ivals[] = {5, -3, 1000003, -77777, 0x7fffffff, 12, -1, 0x5a5a5a5a5a5aLL, 3, -40};
static const double fvals[] = {1.5, -2.25, 3.0, 0.5, -8.0, 10.25, 2.0, -0.75, 4.0, -1.0};

/* base operation (fetching -> non-fetching; SWAP -> SET, FCAS -> CAS) */
static gex_OP_t base_of(gex_OP_t op) {
  if (op == GEX_OP_GET) return op;
  return (op & FETCHING) ? GEX_OP_TO_NONFETCHING(op) : op;
}

#define INT_MODEL(DT, T, U)                                                    \
  static T apply_##DT(gex_OP_t op, T cur, T a, T b) {                          \
    U c = (U)cur, x = (U)a;                                                    \
    switch (base_of(op)) {                                                     \
    case GEX_OP_GET: return cur;                                               \
    case GEX_OP_SET: return a;                                                 \
    case GEX_OP_CAS: return cur == a ? b : cur;                                \
    case GEX_OP_ADD: return (T)(U)(c + x);                                     \
    case GEX_OP_SUB: return (T)(U)(c - x);                                     \
    case GEX_OP_MULT: return (T)(U)(c * x);                                    \
    case GEX_OP_MIN: return cur < a ? cur : a;                                 \
    case GEX_OP_MAX: return cur > a ? cur : a;                                 \
    case GEX_OP_INC: return (T)(U)(c + 1);                                     \
    case GEX_OP_DEC: return (T)(U)(c - 1);                                     \
    case GEX_OP_AND: return (T)(c & x);                                        \
    case GEX_OP_OR: return (T)(c | x);                                         \
    case GEX_OP_XOR: return (T)(c ^ x);                                        \
    default: return cur;                                                       \
    }                                                                          \
  }                                                                            \
  static T val_##DT(unsigned k) { return (T)(U)ivals[k % EX_ARRAY_LEN(ivals)]; } \
  static T other_##DT(T v) { return (T)((U)v + 17); }
#define FP_MODEL(DT, T)                                   \
  static T apply_##DT(gex_OP_t op, T cur, T a, T b) {     \
    switch (base_of(op)) {                                \
    case GEX_OP_GET: return cur;                          \
    case GEX_OP_SET: return a;                            \
    case GEX_OP_CAS: return cur == a ? b : cur;           \
    case GEX_OP_ADD: return cur + a;                      \
    case GEX_OP_SUB: return cur - a;                      \
    case GEX_OP_MULT: return cur * a;                     \
    case GEX_OP_MIN: return cur < a ? cur : a;            \
    case GEX_OP_MAX: return cur > a ? cur : a;            \
    case GEX_OP_INC: return cur + 1;                      \
    case GEX_OP_DEC: return cur - 1;                      \
    default: return cur;                                  \
    }                                                     \
  }                                                       \
  static T val_##DT(unsigned k) { return (T)fvals[k % EX_ARRAY_LEN(fvals)]; } \
  static T other_##DT(T v) { return v + 17; }
INT_MODEL(I32, int32_t, uint32_t)
INT_MODEL(U32, uint32_t, uint32_t)
INT_MODEL(I64, int64_t, uint64_t)
INT_MODEL(U64, uint64_t, uint64_t)
FP_MODEL(FLT, float)
FP_MODEL(DBL, double)

/* One operation in form 0 (NB, event waited), 1 (NBI, gex_NBI_Wait of its
 * category) or 2 (NB with ACQ|REL, gex_NBI_Wait(ALL) too). */
#define ISSUE_FN(DT, T)                                                                                          \
  static void issue_##DT(gex_AD_t ad, T *res, gex_Rank_t tgt, void *addr, gex_OP_t op, T o1, T o2, int form) {  \
    if (form == 1) {                                                                                             \
      CHECK_RC(gex_AD_OpNBI_##DT(ad, res, tgt, addr, op, o1, o2, 0), 0);                                         \
      gex_NBI_Wait(ec_of(op), 0);                                                                                \
    } else {                                                                                                     \
      gex_Event_t e = gex_AD_OpNB_##DT(ad, res, tgt, addr, op, o1, o2,                                           \
                                       form == 2 ? GEX_FLAG_AD_ACQ | GEX_FLAG_AD_REL : 0);                       \
      CHECK(e != GEX_EVENT_NO_OP, "gex_AD_OpNB_" #DT ": GEX_EVENT_NO_OP without IMMEDIATE");                    \
      gex_Event_Wait(e);                                                                                         \
    }                                                                                                            \
  }
ISSUE_FN(I32, int32_t)
ISSUE_FN(U32, uint32_t)
ISSUE_FN(I64, int64_t)
ISSUE_FN(U64, uint64_t)
ISSUE_FN(FLT, float)
ISSUE_FN(DBL, double)

/* The model's whole list (operations outside ops skipped) on one location;
 * every fetched value and the final value checked. */
#define SEQ_FN(DT, T)                                                                                             \
  static void seq_##DT(gex_AD_t ad, gex_Rank_t tgt, void *addr, int form, unsigned round) {                       \
    gex_OP_t ops = gex_AD_QueryOps(ad);                                                                           \
    T cur = 0;                                                                                                    \
    int have = 0;                                                                                                 \
    for (unsigned i = 0; i < NSEQ; i++) {                                                                         \
      gex_OP_t op = seq_ops[i].op;                                                                                \
      T o1 = val_##DT(i + round * 3), o2 = val_##DT(i * 7 + round + 1), got, want;                               \
      if (!(op & ops)) continue;                                                                                  \
      if (!have && op != GEX_OP_SET) continue;                                                                    \
      if (op == GEX_OP_MULT || op == GEX_OP_FMULT) o1 = (T)((i + round) % 3 + 2);                                 \
      if (op == GEX_OP_FCAS || op == GEX_OP_CAS) o1 = seq_ops[i].cas_hit ? cur : other_##DT(cur);                 \
      memset(&got, 0xa5, sizeof(got));                                                                            \
      want = apply_##DT(op, cur, o1, o2);                                                                         \
      issue_##DT(ad, &got, tgt, addr, op, o1, o2, form);                                                          \
      if (op & FETCHING)                                                                                          \
        CHECK(!memcmp(&got, &cur, sizeof(T)), #DT " %s (form %d, round %u) on rank %u fetched %.17g, expected %.17g", \
              seq_ops[i].name, form, round, (unsigned)tgt, (double)got, (double)cur);                             \
      else                                                                                                        \
        COUNT_CHECK();                                                                                            \
      cur = want;                                                                                                 \
      have = 1;                                                                                                   \
    }                                                                                                             \
  }
SEQ_FN(I32, int32_t)
SEQ_FN(U32, uint32_t)
SEQ_FN(I64, int64_t)
SEQ_FN(U64, uint64_t)
SEQ_FN(FLT, float)
SEQ_FN(DBL, double)

static const gex_DT_t all_dts[6] = {GEX_DT_I32, GEX_DT_U32, GEX_DT_I64, GEX_DT_U64, GEX_DT_FLT, GEX_DT_DBL};
static const char *const dt_names[6] = {"I32", "U32", "I64", "U64", "FLT", "DBL"};

static void seq_any(int k, gex_AD_t ad, gex_Rank_t tgt, void *addr, int form, unsigned round) {
  switch (k) {
  case 0: seq_I32(ad, tgt, addr, form, round); break;
  case 1: seq_U32(ad, tgt, addr, form, round); break;
  case 2: seq_I64(ad, tgt, addr, form, round); break;
  case 3: seq_U64(ad, tgt, addr, form, round); break;
  case 4: seq_FLT(ad, tgt, addr, form, round); break;
  default: seq_DBL(ad, tgt, addr, form, round); break;
  }
}

/* Every type with ops (for the integer types ops | int_extra); each rank on
 * its slot at itself, at the next rank and (RANK_IS_JOBRANK-free) again. */
static void model_run(gex_OP_t ops, gex_OP_t int_extra, int ints_only) {
  for (int k = 0; k < 6; k++) {
    gex_AD_t ad;
    int is_int = k < 4;
    if (ints_only && !is_int) continue;
    gex_AD_Create(&ad, ex_tm, all_dts[k], ops | (is_int ? int_extra : 0), 0);
    {
      const char *impl = stageport_ad_impl(ad);
      const char *want = expected_impl(all_dts[k], gex_AD_QueryOps(ad), 0);
      CHECK(impl && !strcmp(impl, want), "%s domain (ops 0x%x): implementation %s, expected %s", dt_names[k],
            (unsigned)gex_AD_QueryOps(ad), impl ? impl : "(null)", want);
    }
    for (unsigned round = 0; round < 2; round++)
      for (int form = 0; form < 3; form++) {
        gex_Rank_t targets[2] = {ex_me, (ex_me + 1) % ex_n};
        for (int t = 0; t < 2; t++) seq_any(k, ad, targets[t], at(targets[t], MODEL_OFF + ex_me * SLOT), form, round);
      }
    ex_barrier(); /* (every operation complete before the domain goes) */
    gex_AD_Destroy(ad);
  }
}

static void t_model_all(void) { model_run(OPS_ANY, OPS_BIT, 0); }
static void t_model_ucx(void) { model_run(OPS_UCX, 0, 1); }
/* a domain of one operation (plus SET to start from and GET): every type,
 * every operation, each its own domain */
static void t_model_single(void) {
  for (int k = 0; k < 6; k++)
    for (unsigned i = 0; i < NSEQ; i++) {
      gex_OP_t op = seq_ops[i].op;
      gex_AD_t ad;
      if (k >= 4 && (op & OPS_BIT)) continue;
      if (seq_ops[i].cas_hit == 0 && (op == GEX_OP_CAS || op == GEX_OP_FCAS)) continue;
      gex_AD_Create(&ad, ex_tm, all_dts[k], op | GEX_OP_SET | GEX_OP_GET, 0);
      {
        const char *want = expected_impl(all_dts[k], gex_AD_QueryOps(ad), 0);
        CHECK(!strcmp(stageport_ad_impl(ad), want), "a %s domain of %s: implementation %s, expected %s", dt_names[k],
              seq_ops[i].name, stageport_ad_impl(ad), want);
      }
      seq_any(k, ad, (ex_me + 1) % ex_n, at((ex_me + 1) % ex_n, MODEL_OFF + ex_me * SLOT), (int)(i % 3), i);
      seq_any(k, ad, ex_me, at(ex_me, MODEL_OFF + ex_me * SLOT), (int)((i + 1) % 3), i);
      gex_AD_Destroy(ad);
    }
  ex_barrier();
}

/* ------------------------------------------------------------------ */
/* floating-point edges: signed zeros and NaN bits                     */
/* ------------------------------------------------------------------ */
/* What every implementation must agree on (the reference's semantics,
 * ext-ref/ref_ratomic.c): (F)CAS compares bits (-0.0 is not 0.0, a NaN
 * equals its own bits), GET and SET keep -0.0, MIN/MAX are the
 * description's C expressions ((op0 < op1) ? op0 : op1: a tie of zeros
 * takes op1), SUB is op0 - op1.  The expected value is computed here with
 * the same expression (volatile: no folding) and compared bit for bit. */
#define FP_EDGES_FN(DT, T)                                                                                            \
  static void fp_edges_##DT(gex_AD_t ad, gex_Rank_t tgt, T *p) {                                                    \
    volatile T pz = 0, nz = -pz, five = 5, nan = (T)NAN;                                                            \
    T got, cur;                                                                                                     \
    const struct {                                                                                                  \
      gex_OP_t op;                                                                                                  \
      T start, o1, o2;                                                                                              \
      const char *what;                                                                                             \
    } c[] = {                                                                                                       \
        {GEX_OP_GET, nz, 0, 0, "GET of -0.0"},           {GEX_OP_SWAP, nz, pz, 0, "SWAP +0.0 for -0.0"},           \
        {GEX_OP_FCAS, nz, pz, five, "FCAS(+0.0 -> 5) on -0.0"}, {GEX_OP_FCAS, nz, nz, five, "FCAS(-0.0 -> 5) on -0.0"}, \
        {GEX_OP_FCAS, pz, nz, five, "FCAS(-0.0 -> 5) on +0.0"}, {GEX_OP_FCAS, nan, nan, five, "FCAS(NaN -> 5) on NaN"}, \
        {GEX_OP_FMIN, pz, nz, 0, "FMIN(-0.0) on +0.0"},   {GEX_OP_FMIN, nz, pz, 0, "FMIN(+0.0) on -0.0"},            \
        {GEX_OP_FMAX, pz, nz, 0, "FMAX(-0.0) on +0.0"},   {GEX_OP_FMAX, nz, pz, 0, "FMAX(+0.0) on -0.0"},            \
        {GEX_OP_FSUB, nz, pz, 0, "FSUB(+0.0) on -0.0"},   {GEX_OP_FSUB, pz, nz, 0, "FSUB(-0.0) on +0.0"},            \
        {GEX_OP_FSUB, pz, pz, 0, "FSUB(+0.0) on +0.0"},   {GEX_OP_FADD, nz, nz, 0, "FADD(-0.0) on -0.0"},            \
        {GEX_OP_FADD, nz, pz, 0, "FADD(+0.0) on -0.0"},   {GEX_OP_FDEC, (T)1, 0, 0, "FDEC on 1.0"},                   \
    };                                                                                                              \
    for (unsigned i = 0; i < EX_ARRAY_LEN(c); i++) {                                                                \
      volatile T a = c[i].start, v = c[i].o1;                                                                       \
      T want;                                                                                                       \
      switch (c[i].op) {                                                                                            \
      case GEX_OP_SWAP: want = v; break;                                                                            \
      case GEX_OP_FCAS: want = !memcmp((const void *)&a, (const void *)&v, sizeof(T)) ? c[i].o2 : a; break;         \
      case GEX_OP_FMIN: want = (a < v) ? a : v; break;                                                              \
      case GEX_OP_FMAX: want = (a > v) ? a : v; break;                                                              \
      case GEX_OP_FSUB: want = a - v; break;                                                                        \
      case GEX_OP_FADD: want = a + v; break;                                                                        \
      case GEX_OP_FDEC: want = a - 1; break;                                                                        \
      default: want = a; break;                                                                                     \
      }                                                                                                             \
      gex_Event_Wait(gex_AD_OpNB_##DT(ad, NULL, tgt, p, GEX_OP_SET, c[i].start, 0, 0));                            \
      memset(&got, 0xa5, sizeof(got));                                                                              \
      gex_Event_Wait(gex_AD_OpNB_##DT(ad, &got, tgt, p, c[i].op, c[i].o1, c[i].o2, 0));                            \
      CHECK(!memcmp(&got, (const void *)&a, sizeof(T)), #DT " %s on rank %u fetched %g (signbit %d), expected %g", \
            c[i].what, (unsigned)tgt, (double)got, signbit(got) != 0, (double)a);                                   \
      gex_Event_Wait(gex_AD_OpNB_##DT(ad, &cur, tgt, p, GEX_OP_GET, 0, 0, 0));                                     \
      CHECK(!memcmp(&cur, &want, sizeof(T)), #DT " %s on rank %u left %g (signbit %d), expected %g (signbit %d)",   \
            c[i].what, (unsigned)tgt, (double)cur, signbit(cur) != 0, (double)want, signbit(want) != 0);            \
    }                                                                                                               \
  }
FP_EDGES_FN(FLT, float)
FP_EDGES_FN(DBL, double)
static void t_fp_edges(void) {
  gex_OP_t ops = GEX_OP_SET | GEX_OP_GET | GEX_OP_SWAP | GEX_OP_FCAS | GEX_OP_FMIN | GEX_OP_FMAX | GEX_OP_FSUB |
                 GEX_OP_FADD | GEX_OP_FDEC;
  gex_AD_t f, d;
  gex_Rank_t targets[2] = {ex_me, (ex_me + 1) % ex_n};
  gex_AD_Create(&f, ex_tm, GEX_DT_FLT, ops, 0);
  gex_AD_Create(&d, ex_tm, GEX_DT_DBL, ops, 0);
  CHECK(!strcmp(stageport_ad_impl(f), expected_impl(GEX_DT_FLT, ops, 0)), "the FLT domain: %s, expected %s",
        stageport_ad_impl(f), expected_impl(GEX_DT_FLT, ops, 0));
  for (int t = 0; t < 2; t++) {
    fp_edges_FLT(f, targets[t], at(targets[t], MODEL_OFF + ex_me * SLOT));
    fp_edges_DBL(d, targets[t], at(targets[t], MODEL_OFF + ex_me * SLOT + 8));
  }
  ex_barrier();
  gex_AD_Destroy(f);
  gex_AD_Destroy(d);
}

/* ------------------------------------------------------------------ */
/* contention: every rank on rank 0's counters                         */
/* ------------------------------------------------------------------ */
#define HAM_K 150
static void hammer(gex_AD_t ad, uint64_t *ctr) {
  uint64_t last = 0, v;
  int mono = 1;
  if (ex_me == 0) gex_Event_Wait(gex_AD_OpNB_U64(ad, NULL, 0, ctr, GEX_OP_SET, 0, 0, 0));
  ex_barrier();
  for (int i = 0; i < HAM_K; i++) {
    CHECK_RC(gex_AD_OpNBI_U64(ad, NULL, 0, ctr, GEX_OP_ADD, 1, 0, 0), 0);
    gex_Event_Wait(gex_AD_OpNB_U64(ad, &v, 0, ctr, GEX_OP_FADD, 2, 0, 0));
    if (v < last) mono = 0;
    last = v;
    CHECK_RC(gex_AD_OpNBI_U64(ad, NULL, 0, ctr, GEX_OP_INC, 0, 0, 0), 0);
    { /* a CAS loop: +3 */
      uint64_t old, seen;
      gex_Event_Wait(gex_AD_OpNB_U64(ad, &old, 0, ctr, GEX_OP_GET, 0, 0, 0));
      for (;;) {
        gex_Event_Wait(gex_AD_OpNB_U64(ad, &seen, 0, ctr, GEX_OP_FCAS, old, old + 3, 0));
        if (seen == old) break;
        old = seen;
      }
    }
  }
  gex_NBI_Wait(GEX_EC_RMW, 0);
  CHECK(mono, "the FADD results this rank fetched went down");
  ex_barrier();
  gex_Event_Wait(gex_AD_OpNB_U64(ad, &v, 0, ctr, GEX_OP_GET, 0, 0, 0));
  CHECK_EQ(v, (uint64_t)ex_n * HAM_K * (1 + 2 + 1 + 3), "the counter on rank 0 after every rank's operations");
  ex_barrier();
}
static void t_hammer(void) {
  gex_AD_t ucxable, ref;
  gex_AD_Create(&ucxable, ex_tm, GEX_DT_U64, GEX_OP_SET | GEX_OP_GET | GEX_OP_ADD | GEX_OP_FADD | GEX_OP_INC |
                                                 GEX_OP_FCAS, 0);
  gex_AD_Create(&ref, ex_tm, GEX_DT_U64, GEX_OP_SET | GEX_OP_GET | GEX_OP_ADD | GEX_OP_FADD | GEX_OP_INC |
                                             GEX_OP_FCAS | GEX_OP_MULT, 0);
  CHECK(!strcmp(stageport_ad_impl(ucxable), expected_impl(GEX_DT_U64, gex_AD_QueryOps(ucxable), 0)),
        "the U64 counter domain: %s, expected %s", stageport_ad_impl(ucxable),
        expected_impl(GEX_DT_U64, gex_AD_QueryOps(ucxable), 0));
  CHECK(!strcmp(stageport_ad_impl(ref), expected_impl(GEX_DT_U64, gex_AD_QueryOps(ref), 0)),
        "the U64 domain with MULT: %s", stageport_ad_impl(ref));
  hammer(ucxable, at(0, HAM_OFF));
  hammer(ref, at(0, HAM_OFF + 64));
  { /* doubles: FADD of 1.0 from every rank (reference: CAS loops at the target) */
    gex_AD_t d;
    double *c = at(0, HAM_OFF + 128), v;
    gex_AD_Create(&d, ex_tm, GEX_DT_DBL, GEX_OP_SET | GEX_OP_GET | GEX_OP_FADD | GEX_OP_ADD, 0);
    if (ex_me == 0) gex_Event_Wait(gex_AD_OpNB_DBL(d, NULL, 0, c, GEX_OP_SET, 0.0, 0, 0));
    ex_barrier();
    for (int i = 0; i < HAM_K; i++) {
      gex_Event_Wait(gex_AD_OpNB_DBL(d, &v, 0, c, GEX_OP_FADD, 1.0, 0, 0));
      CHECK_ONCE(v >= 0 && v < (double)ex_n * HAM_K * 2, "FADD fetched %g", v);
      CHECK_RC(gex_AD_OpNBI_DBL(d, NULL, 0, c, GEX_OP_ADD, 1.0, 0, 0), 0);
    }
    gex_NBI_Wait(GEX_EC_RMW, 0);
    ex_barrier();
    gex_Event_Wait(gex_AD_OpNB_DBL(d, &v, 0, c, GEX_OP_GET, 0, 0, 0));
    CHECK(v == (double)ex_n * HAM_K * 2, "the double counter: %g, expected %g", v, (double)ex_n * HAM_K * 2);
    ex_barrier();
    gex_AD_Destroy(d);
  }
  gex_AD_Destroy(ucxable);
  gex_AD_Destroy(ref);
}

/* ------------------------------------------------------------------ */
/* NB and NBI forms in bulk                                            */
/* ------------------------------------------------------------------ */
#define FORMS_N 64
static void forms_on(gex_AD_t ad) {
  gex_Rank_t tgt = (ex_me + 1) % ex_n;
  uint32_t *w = at(tgt, FORMS_OFF + ex_me * SLOT); /* w[0] counter, w[1] bits */
  uint32_t fetched[FORMS_N], v;
  gex_Event_t ev[FORMS_N];
  char seen[FORMS_N];
  CHECK_RC(gex_AD_OpNBI_U32(ad, NULL, tgt, w, GEX_OP_SET, 0, 0, 0), 0);
  CHECK_RC(gex_AD_OpNBI_U32(ad, NULL, tgt, w + 1, GEX_OP_SET, 0, 0, 0), 0);
  gex_NBI_Wait(GEX_EC_PUT, 0); /* (SET counts as a put) */
  for (int i = 0; i < FORMS_N; i++) CHECK_RC(gex_AD_OpNBI_U32(ad, NULL, tgt, w, GEX_OP_INC, 0, 0, 0), 0);
  for (int i = 0; i < FORMS_N; i++)
    CHECK_RC(gex_AD_OpNBI_U32(ad, NULL, tgt, w + 1, GEX_OP_OR, 1u << (i % 32), 0, 0), 0);
  gex_NBI_Wait(GEX_EC_RMW, 0);
  CHECK_RC(gex_AD_OpNBI_U32(ad, &v, tgt, w, GEX_OP_GET, 0, 0, 0), 0);
  gex_NBI_Wait(GEX_EC_GET, 0); /* (GET counts as a get) */
  CHECK_EQ(v, FORMS_N, "the counter after NBI INCs and gex_NBI_Wait(GEX_EC_RMW)");
  gex_Event_Wait(gex_AD_OpNB_U32(ad, &v, tgt, w + 1, GEX_OP_GET, 0, 0, 0));
  CHECK_EQ(v, 0xffffffffu, "the bits after NBI ORs");
  /* NB FADDs in flight together: their results are 0..N-1 times 1, each once */
  CHECK_RC(gex_AD_OpNBI_U32(ad, NULL, tgt, w, GEX_OP_SET, 0, 0, 0), 0);
  gex_NBI_Wait(GEX_EC_PUT, 0);
  for (int i = 0; i < FORMS_N; i++) ev[i] = gex_AD_OpNB_U32(ad, &fetched[i], tgt, w, GEX_OP_FADD, 1, 0, 0);
  gex_Event_WaitAll(ev, FORMS_N, 0);
  memset(seen, 0, sizeof(seen));
  for (int i = 0; i < FORMS_N; i++) {
    CHECK(fetched[i] < FORMS_N && !seen[fetched[i]], "NB FADD %d fetched %u (a duplicate or out of range)", i,
          (unsigned)fetched[i]);
    if (fetched[i] < FORMS_N) seen[fetched[i]] = 1;
  }
  /* NBI FADDs, completion by gex_NBI_Test */
  for (int i = 0; i < FORMS_N; i++) CHECK_RC(gex_AD_OpNBI_U32(ad, &fetched[i], tgt, w, GEX_OP_FADD, 1, 0, 0), 0);
  {
    double dl = ex_now() + 30;
    while (gex_NBI_Test(GEX_EC_RMW, 0) != GASNET_OK && ex_now() < dl) gasnet_AMPoll();
    CHECK(gex_NBI_Test(GEX_EC_RMW, 0) == GASNET_OK, "gex_NBI_Test(GEX_EC_RMW) never returned GASNET_OK");
  }
  memset(seen, 0, sizeof(seen));
  for (int i = 0; i < FORMS_N; i++) {
    uint32_t f = fetched[i] - FORMS_N;
    CHECK(f < FORMS_N && !seen[f], "NBI FADD %d fetched %u", i, (unsigned)fetched[i]);
    if (f < FORMS_N) seen[f] = 1;
  }
  /* NB with an access region: the region's event covers them */
  gex_NBI_BeginAccessRegion(0);
  for (int i = 0; i < 8; i++) CHECK_RC(gex_AD_OpNBI_U32(ad, NULL, tgt, w, GEX_OP_SUB, 1, 0, 0), 0);
  gex_Event_Wait(gex_NBI_EndAccessRegion(0));
  gex_Event_Wait(gex_AD_OpNB_U32(ad, &v, tgt, w, GEX_OP_GET, 0, 0, 0));
  CHECK_EQ(v, 2 * FORMS_N - 8, "the counter after an access region of SUBs");
}
static void t_forms(void) {
  gex_AD_t a, b;
  gex_AD_Create(&a, ex_tm, GEX_DT_U32, GEX_OP_SET | GEX_OP_GET | GEX_OP_INC | GEX_OP_OR | GEX_OP_FADD | GEX_OP_SUB, 0);
  gex_AD_Create(&b, ex_tm, GEX_DT_U32,
                GEX_OP_SET | GEX_OP_GET | GEX_OP_INC | GEX_OP_OR | GEX_OP_FADD | GEX_OP_SUB | GEX_OP_MAX, 0);
  forms_on(a);
  ex_barrier();
  forms_on(b);
  ex_barrier();
  gex_AD_Destroy(a);
  gex_AD_Destroy(b);
}

/* ------------------------------------------------------------------ */
/* acquire / release                                                   */
/* ------------------------------------------------------------------ */
/* Writer r puts data into rank t = r+1 (RMA), then REL-sets its flag
 * there; t, the reader, ACQ-reads the flag on its own rank (through the
 * domain, like any target) until it is the round's, then reads the data
 * with plain loads and checks it. */
#define AR_ROUNDS 30
static void acqrel_on(gex_AD_t ad) {
  gex_Rank_t t = (ex_me + 1) % ex_n;        /* where my data and flag go */
  gex_Rank_t w = (ex_me + ex_n - 1) % ex_n; /* the writer whose flag I hold */
  uint64_t *myflag = at(t, FLAG_OFF + ex_me * SLOT), *theirflag = at(ex_me, FLAG_OFF + w * SLOT);
  char *mydata = at(t, DATA_OFF + ex_me * DATA_LEN), *theirdata = at(ex_me, DATA_OFF + w * DATA_LEN);
  static char src[DATA_LEN];
  gex_Event_Wait(gex_AD_OpNB_U64(ad, NULL, t, myflag, GEX_OP_SET, 0, 0, 0));
  ex_barrier();
  for (unsigned r = 1; r <= AR_ROUNDS; r++) {
    uint64_t f = 0;
    ex_fill(src, DATA_LEN, ex_seed(ex_me, r, 0xac, 0));
    gex_RMA_PutBlocking(ex_tm, t, mydata, src, DATA_LEN, 0);
    CHECK_RC(gex_AD_OpNBI_U64(ad, NULL, t, myflag, GEX_OP_SET, r, 0, GEX_FLAG_AD_REL), 0);
    {
      double dl = ex_now() + 30;
      do {
        CHECK_RC(gex_AD_OpNBI_U64(ad, &f, ex_me, theirflag, GEX_OP_GET, 0, 0, GEX_FLAG_AD_ACQ), 0);
        gex_NBI_Wait(GEX_EC_GET, 0);
        if (f < r) gasnet_AMPoll();
      } while (f < r && ex_now() < dl);
    }
    CHECK_EQ(f, r, "the flag writer's REL-SET left");
    ex_check_pat(theirdata, DATA_LEN, ex_seed(w, r, 0xac, 0), "round %u: writer %u's data after its flag", r,
                 (unsigned)w);
    gex_NBI_Wait(GEX_EC_PUT, 0);
    ex_barrier(); /* (a writer overwrites its data only after its reader checked it) */
  }
}
static void t_acqrel(void) {
  gex_AD_t a, b;
  gex_AD_Create(&a, ex_tm, GEX_DT_U64, GEX_OP_SET | GEX_OP_GET, 0);
  gex_AD_Create(&b, ex_tm, GEX_DT_U64, GEX_OP_SET | GEX_OP_GET | GEX_OP_MIN, 0);
  acqrel_on(a);
  acqrel_on(b);
  ex_barrier();
  gex_AD_Destroy(a);
  gex_AD_Destroy(b);
}

/* ------------------------------------------------------------------ */
/* IMMEDIATE                                                           */
/* ------------------------------------------------------------------ */
static long refusals;
static void t_immediate(void) {
  gex_AD_t ad;
  uint64_t *c = at(0, IMM_OFF), *sum = at(0, IMM_OFF + 64), v, total;
  long done = 0;
  gex_AD_Create(&ad, ex_tm, GEX_DT_U64, GEX_OP_SET | GEX_OP_GET | GEX_OP_ADD | GEX_OP_FADD, 0);
  if (ex_me == 0) {
    gex_Event_Wait(gex_AD_OpNB_U64(ad, NULL, 0, c, GEX_OP_SET, 0, 0, 0));
    gex_Event_Wait(gex_AD_OpNB_U64(ad, NULL, 0, sum, GEX_OP_SET, 0, 0, 0));
  }
  ex_barrier();
  for (int i = 0; i < 400; i++) {
    if (i % 2) {
      int rc = gex_AD_OpNBI_U64(ad, NULL, 0, c, GEX_OP_ADD, 1, 0, GEX_FLAG_IMMEDIATE);
      if (rc == 0) done++;
      else refusals++;
    } else {
      gex_Event_t e = gex_AD_OpNB_U64(ad, &v, 0, c, GEX_OP_FADD, 1, 0, GEX_FLAG_IMMEDIATE);
      if (e == GEX_EVENT_NO_OP) {
        refusals++;
      } else {
        gex_Event_Wait(e);
        done++;
      }
    }
  }
  /* a burst with no wait between: where resources are few (send tokens,
   * operation records) some are refused, and a refusal must do nothing */
  for (int i = 0; i < 2000; i++) {
    if (gex_AD_OpNBI_U64(ad, NULL, 0, c, GEX_OP_ADD, 1, 0, GEX_FLAG_IMMEDIATE) == 0) done++;
    else refusals++;
  }
  gex_NBI_Wait(GEX_EC_ALL, 0);
  CHECK(done > 0, "every IMMEDIATE operation was refused");
  /* every rank's accepted count, added up at rank 0 (without IMMEDIATE) */
  gex_Event_Wait(gex_AD_OpNB_U64(ad, NULL, 0, sum, GEX_OP_ADD, (uint64_t)done, 0, 0));
  ex_barrier();
  gex_Event_Wait(gex_AD_OpNB_U64(ad, &v, 0, c, GEX_OP_GET, 0, 0, 0));
  gex_Event_Wait(gex_AD_OpNB_U64(ad, &total, 0, sum, GEX_OP_GET, 0, 0, 0));
  CHECK_EQ(v, total, "the counter: one per accepted IMMEDIATE operation, every rank's");
  ex_barrier();
  gex_AD_Destroy(ad);
}

/* ------------------------------------------------------------------ */
/* queries, flags, the implementation chosen                           */
/* ------------------------------------------------------------------ */
static void t_impl(void) {
  gex_AD_t ad;
  int x;
  gex_OP_t ucxable = GEX_OP_SET | GEX_OP_GET | GEX_OP_FADD | GEX_OP_FCAS | GEX_OP_XOR | GEX_OP_FDEC;
  gex_AD_Create(&ad, ex_tm, GEX_DT_I64, ucxable, GEX_FLAG_AD_FAVOR_REMOTE);
  CHECK(gex_AD_QueryTM(ad) == ex_tm, "gex_AD_QueryTM");
  CHECK_EQ(gex_AD_QueryDT(ad), GEX_DT_I64, "gex_AD_QueryDT");
  CHECK_EQ(gex_AD_QueryOps(ad), ucxable, "gex_AD_QueryOps");
  CHECK_EQ(gex_AD_QueryFlags(ad), GEX_FLAG_AD_FAVOR_REMOTE, "gex_AD_QueryFlags");
  CHECK(gex_AD_QueryCData(ad) == NULL, "a new domain's CData is not NULL");
  gex_AD_SetCData(ad, &x);
  CHECK(gex_AD_QueryCData(ad) == &x, "gex_AD_SetCData / QueryCData");
  CHECK(!strcmp(stageport_ad_impl(ad), expected_impl(GEX_DT_I64, ucxable, GEX_FLAG_AD_FAVOR_REMOTE)),
        "an I64 domain of UCX operations: %s, expected %s", stageport_ad_impl(ad),
        expected_impl(GEX_DT_I64, ucxable, GEX_FLAG_AD_FAVOR_REMOTE));
  { /* RANK_IS_JOBRANK (the primordial team: the same rank), MY_RANK */
    int64_t v = 0;
    int64_t *mine = at(ex_me, MODEL_OFF + ex_me * SLOT);
    gex_Event_Wait(gex_AD_OpNB_I64(ad, NULL, ex_me, mine, GEX_OP_SET, 40, 0, GEX_FLAG_AD_MY_RANK));
    gex_Event_Wait(gex_AD_OpNB_I64(ad, &v, ex_me, mine, GEX_OP_FADD, 2, 0, GEX_FLAG_AD_MY_RANK | GEX_FLAG_AD_ACQ));
    CHECK_EQ(v, 40, "FADD with GEX_FLAG_AD_MY_RANK");
    gex_Event_Wait(gex_AD_OpNB_I64(ad, &v, gex_TM_TranslateRankToJobrank(ex_tm, ex_me), mine, GEX_OP_GET, 0, 0,
                                   GEX_FLAG_RANK_IS_JOBRANK | GEX_FLAG_AD_MY_NBRHD));
    CHECK_EQ(v, 42, "GET with GEX_FLAG_RANK_IS_JOBRANK");
  }
  ex_barrier();
  gex_AD_Destroy(ad);
  gex_AD_Create(&ad, ex_tm, GEX_DT_I64, ucxable, GEX_FLAG_AD_FAVOR_MY_RANK);
  CHECK(!strcmp(stageport_ad_impl(ad), "reference"), "GEX_FLAG_AD_FAVOR_MY_RANK: %s, expected reference",
        stageport_ad_impl(ad));
  gex_AD_Destroy(ad);
  gex_AD_Create(&ad, ex_tm, GEX_DT_FLT, GEX_OP_SET | GEX_OP_GET | GEX_OP_FADD, 0);
  CHECK(!strcmp(stageport_ad_impl(ad), expected_impl(GEX_DT_FLT, gex_AD_QueryOps(ad), 0)),
        "a FLT domain: %s, expected %s", stageport_ad_impl(ad), expected_impl(GEX_DT_FLT, gex_AD_QueryOps(ad), 0));
  if (ex_me == 0) {
    printf("# exatomic: stage %s: a UCX-able integer domain is %s's, a FLT domain %s's\n", stageport_stage(),
           expected_impl(GEX_DT_I64, ucxable, 0), stageport_ad_impl(ad));
    fflush(stdout);
  }
  gex_AD_Destroy(ad);
  gex_AD_Create(&ad, ex_tm, GEX_DT_U64, ucxable | GEX_OP_FOR, 0);
  CHECK(!strcmp(stageport_ad_impl(ad), expected_impl(GEX_DT_U64, gex_AD_QueryOps(ad), 0)),
        "a U64 domain with FOR: %s, expected %s", stageport_ad_impl(ad),
        expected_impl(GEX_DT_U64, gex_AD_QueryOps(ad), 0));
  gex_AD_Destroy(ad);
  gex_AD_Create(&ad, ex_tm, GEX_DT_U32, ucxable | GEX_OP_FMIN, 0);
  CHECK(!strcmp(stageport_ad_impl(ad), expected_impl(GEX_DT_U32, gex_AD_QueryOps(ad), 0)),
        "a U32 domain with FMIN: %s, expected %s", stageport_ad_impl(ad),
        expected_impl(GEX_DT_U32, gex_AD_QueryOps(ad), 0));
  gex_AD_Destroy(ad);
  CHECK(stageport_ad_impl(GEX_AD_INVALID) == NULL, "stageport_ad_impl(GEX_AD_INVALID) is not NULL");
}

static const ex_subtest_t subtests[] = {
    {"impl", t_impl, "queries, CData, FAVOR/MY_RANK/RANK_IS_JOBRANK flags, the implementation chosen per domain"},
    {"model_all", t_model_all, "every type, every operation in one domain, against a sequential model, NB/NBI/ACQ|REL"},
    {"model_ucx", t_model_ucx, "integer domains of UCX's operations (the ucx stages' UCX atomics) against the model"},
    {"model_single", t_model_single, "every type and operation in a domain of its own (plus SET, GET)"},
    {"fp_edges", t_fp_edges, "FLT/DBL signed zeros and NaN bits: (F)CAS on bits, GET/SWAP keep -0.0, MIN/MAX/SUB ties"},
    {"hammer", t_hammer, "every rank on rank 0's counters: ADD, FADD, INC, a CAS loop; final counts"},
    {"forms", t_forms, "NBI sets waited per category, NB events in bulk, gex_NBI_Test, an access region"},
    {"acqrel", t_acqrel, "put data, REL-set a flag; another rank ACQ-reads the flag, then gets and checks the data"},
    {"immediate", t_immediate, "GEX_FLAG_IMMEDIATE: refusals do nothing, accepted operations all count"},
};
#define NSUBTESTS ((int)EX_ARRAY_LEN(subtests))

static gex_AM_Entry_t table[] = {
    {EX_H_RESULT, (gex_AM_Fn_t)ex_h_result, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 3, NULL, "result"},
};

static void final_report(void) {
  if (ex_me == 0) printf("# exatomic: immediate refusals %ld (rank 0)\n", refusals);
}

/* ------------------------------------------------------------------ */
/* bad input: one invalid call, from rank 0                            */
/* ------------------------------------------------------------------ */
static const char *const bad_modes[][2] = {
    {"op_not_in_set", "an operation the domain was not created with"},
    {"wrong_type", "gex_AD_OpNB_I32 on a U64 domain"},
    {"misaligned", "a target address not aligned to the type"},
    {"out_of_segment", "a target address outside the target's segment"},
    {"bad_flags", "GEX_FLAG_AD_MY_RANK with another rank as the target"},
    {"bad_create", "a bit-wise operation in a DBL domain"},
};
static void expect(const char *kind, const char *text) {
  printf("EXPECT %s %s\n", kind, text);
  fflush(stdout);
}
static int run_bad(const char *mode) {
  gex_AD_t ad;
  uint64_t v;
  gex_Rank_t peer = (ex_me + 1) % ex_n;
  if (strcmp(mode, "bad_create")) gex_AD_Create(&ad, ex_tm, GEX_DT_U64, GEX_OP_SET | GEX_OP_GET | GEX_OP_ADD, 0);
  ex_barrier();
  if (ex_me != 0) {
    static volatile int never;
    ex_barrier();
    while (!never) gasnet_AMPoll();
  }
  if (!strcmp(mode, "op_not_in_set")) {
    expect("sub", "gex_AD_OpNB_U64");
    expect("sub", "GEX_OP_FADD");
    expect("sub", "not in the domain");
    gex_Event_Wait(gex_AD_OpNB_U64(ad, &v, peer, at(peer, MODEL_OFF), GEX_OP_FADD, 1, 0, 0));
  } else if (!strcmp(mode, "wrong_type")) {
    int32_t r;
    expect("sub", "gex_AD_OpNB_I32");
    expect("sub", "GEX_DT_U64");
    gex_Event_Wait(gex_AD_OpNB_I32(ad, &r, peer, at(peer, MODEL_OFF), GEX_OP_GET, 0, 0, 0));
  } else if (!strcmp(mode, "misaligned")) {
    expect("sub", "gex_AD_OpNBI_U64");
    expect("sub", "not aligned");
    gex_AD_OpNBI_U64(ad, NULL, peer, at(peer, MODEL_OFF + 4), GEX_OP_ADD, 1, 0, 0);
  } else if (!strcmp(mode, "out_of_segment")) {
    static uint64_t outside;
    expect("sub", "gex_AD_OpNB_U64");
    expect("sub", "outside rank");
    gex_Event_Wait(gex_AD_OpNB_U64(ad, NULL, peer, &outside, GEX_OP_SET, 1, 0, 0));
  } else if (!strcmp(mode, "bad_flags")) {
    expect("sub", "gex_AD_OpNBI_U64");
    expect("sub", "GEX_FLAG_AD_MY_RANK");
    gex_AD_OpNBI_U64(ad, NULL, peer, at(peer, MODEL_OFF), GEX_OP_SET, 1, 0, GEX_FLAG_AD_MY_RANK);
  } else if (!strcmp(mode, "bad_create")) {
    expect("sub", "gex_AD_Create");
    expect("sub", "GEX_DT_DBL");
    gex_AD_Create(&ad, ex_tm, GEX_DT_DBL, GEX_OP_SET | GEX_OP_XOR, 0);
  } else {
    fprintf(stderr, "exatomic: unknown bad-input mode \"%s\"\n", mode);
    return 2;
  }
  gex_NBI_Wait(GEX_EC_ALL, 0);
  printf("exatomic: the bad call (%s) returned: no error\n", mode);
  return 0;
}

int main(int argc, char **argv) {
  int code;
  const char *bad;
  ex_prog = "exatomic";
  bad = ex_bad_options(argc, argv, subtests, NSUBTESTS, bad_modes, EX_ARRAY_LEN(bad_modes));
  ex_pat_init();
  ex_startup(&argc, &argv, "EXATOMIC", table, EX_ARRAY_LEN(table), SEG_SIZE);
  if (bad) {
    code = run_bad(bad);
    gasnet_exit(code);
    return code;
  }
  code = ex_run(argc, argv, subtests, NSUBTESTS, NULL, NULL, final_report);
  gasnet_exit(code);
  return code;
}
