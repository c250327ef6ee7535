/*
 * exteam.c -- GASNet-EX teams and team collectives (issue 34 item 1), with
 * exconf.h's framework: "ok NAME" / "not ok NAME" lines from rank 0.
 *
 * The teams (subtest "split", kept for the others): the primordial team;
 * odd/even job ranks; every rank reversed by key; singletons; everyone in
 * one team with GEX_FLAG_TM_NO_SCRATCH; a team some ranks stay out of (a
 * NULL new_tm_p, a negative color) with tied keys; splits of splits (two
 * and three levels); gex_TM_Create over the primordial team (job ranks,
 * descending) and over the reversed team (its even parent ranks).  Each
 * process computes every team's membership from the same rules (the
 * model) and checks the library's queries and translations against it.
 *
 * Then, on every team this process is in: RMA and AMs addressed by team
 * rank (and a TM-pair by job rank), the token's srcrank (the sender's job
 * rank), barriers that order puts, broadcasts from several roots at sizes
 * 0, 1, 7 and larger than an AM Medium (in place too), every reduction
 * data type x operation the description allows to one root (not 0) and to
 * all, user operations (commutative on a user type, non-commutative 2x2
 * matrix products whose result depends on the rank order, a user type
 * larger than an AM Medium), GASNet-1's scatter/gather/gather_all/exchange
 * and the team barrier with a value, collectives in flight on every team
 * at once; and last gex_TM_Destroy (scratch handed back or not), a team
 * made after it, and a barrier over it.
 *
 *   mpirun -np N exteam [SUBTEST...]   (N <= 16; exteam --list)
 *   mpirun -np 2 exteam --bad MODE      (exteam --bad-list: an invalid
 *        call -- a destroyed team, a TM-pair in a collective, a rank out of
 *        a team, an operation not for the type -- that must end the job
 *        with an error naming the call)
 */
#include "exconf.h"

#define SEGSZ ((uintptr_t)4 << 20)
#define MAXT 16                       /* teams */
#define SLOT ((uintptr_t)64 * 1024)   /* per team: RMA and barrier area in every segment */
#define SCR_OFF ((uintptr_t)MAXT * SLOT) /* scratch spaces granted to teams */
#define SCR_MAX ((size_t)64 * 1024)

/* ------------------------------------------------------------------ */
/* the teams and their model                                           */
/* ------------------------------------------------------------------ */
typedef struct {
  const char *name;
  gex_TM_t tm;             /* GEX_TM_INVALID: not a member here */
  gex_Rank_t n, me;        /* the model's size and this process's rank (n == 0: not a member) */
  gex_Rank_t job[EX_MAXN]; /* the model: team rank -> job rank */
  int scratch;             /* made with a scratch space of the client's */
  void *scratch_addr;
  size_t scratch_len;
  int destroyed;
} team_t;
static team_t teams[MAXT];
static int nteams;
static char *seg; /* this process's segment */

typedef int (*rule_t)(gex_Rank_t prank, gex_Rank_t pn); /* color (or key) of a parent rank */

/* The model of a split: the members of parent with this process's color,
 * ordered by key, ties by parent rank.  nul: the parent ranks passing a
 * NULL new_tm_p (1) -- they are in no team. */
static void model_split(team_t *t, const team_t *p, rule_t color, rule_t key, rule_t nul) {
  gex_Rank_t pr[EX_MAXN], m = 0;
  int c = (nul && nul(p->me, p->n)) ? -1 : color(p->me, p->n);
  t->n = 0;
  if (c < 0) return;
  for (gex_Rank_t r = 0; r < p->n; r++) {
    gex_Rank_t k;
    if ((nul && nul(r, p->n)) || color(r, p->n) != c) continue;
    for (k = m; k > 0 && key(pr[k - 1], p->n) > key(r, p->n); k--) pr[k] = pr[k - 1];
    pr[k] = r;
    m++;
  }
  t->n = m;
  for (gex_Rank_t k = 0; k < m; k++) {
    t->job[k] = p->job[pr[k]];
    if (pr[k] == p->me) t->me = k;
  }
}

static int r_zero(gex_Rank_t r, gex_Rank_t n) { (void)r, (void)n; return 0; }
static int r_self(gex_Rank_t r, gex_Rank_t n) { (void)n; return (int)r; }
static int r_neg(gex_Rank_t r, gex_Rank_t n) { (void)n; return -(int)r; }
static int r_parity(gex_Rank_t r, gex_Rank_t n) { (void)n; return (int)(r % 2); }
static int r_five(gex_Rank_t r, gex_Rank_t n) { (void)r, (void)n; return 5; }
/* "partial": the last rank passes NULL, rank 1 (of more than 2) a negative
 * color, the others color 3 with keys that tie in pairs, descending */
static int r_part_nul(gex_Rank_t r, gex_Rank_t n) { return n > 1 && r == n - 1; }
static int r_part_color(gex_Rank_t r, gex_Rank_t n) { return n > 2 && r == 1 ? -1 : 3; }
static int r_part_key(gex_Rank_t r, gex_Rank_t n) { return (int)((n - r) / 2); }

static int add_team(const char *name) {
  team_t *t = &teams[nteams];
  memset(t, 0, sizeof(*t));
  t->name = name;
  t->tm = GEX_TM_INVALID;
  return nteams++;
}

/* Split parent (a team index) by the rules; with scratch (from the
 * segment, sized by the RECOMMENDED query) unless noscr. */
static int do_split(const char *name, int parent, rule_t color, rule_t key, rule_t nul, int noscr) {
  int k = add_team(name);
  team_t *t = &teams[k], *p = &teams[parent];
  gex_TM_t out = (gex_TM_t)(uintptr_t)0x10; /* (must be overwritten or left as the description says) */
  int isnul = nul && nul(p->me, p->n), c = color(p->me, p->n);
  gex_TM_t *outp = isnul ? NULL : &out;
  size_t q;
  model_split(t, p, color, key, nul);
  q = gex_TM_Split(outp, p->tm, c, key(p->me, p->n), NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED);
  if (!t->n) CHECK_EQ(q, 0, "the scratch query of a caller that joins no team");
  else CHECK(q > 0, "%s: the scratch size query returned 0 for a member", name);
  CHECK(out == (gex_TM_t)(uintptr_t)0x10, "%s: the scratch size query wrote *new_tm_p", name);
  if (!noscr && t->n && q && q <= SCR_MAX) {
    t->scratch = 1;
    t->scratch_addr = seg + SCR_OFF + (size_t)k * SCR_MAX;
    t->scratch_len = q;
    (void)gex_TM_Split(outp, p->tm, c, key(p->me, p->n), t->scratch_addr, q, 0);
  } else {
    (void)gex_TM_Split(outp, p->tm, c, key(p->me, p->n), NULL, 0, GEX_FLAG_TM_NO_SCRATCH);
  }
  if (isnul) {
    CHECK(out == (gex_TM_t)(uintptr_t)0x10, "%s: a NULL new_tm_p caller's variable changed", name);
  } else if (!t->n) {
    CHECK(out == GEX_TM_INVALID, "%s: a negative color gave %p, not GEX_TM_INVALID", name, (void *)out);
  } else {
    CHECK(out != GEX_TM_INVALID && out != (gex_TM_t)(uintptr_t)0x10, "%s: no team made", name);
    t->tm = out;
  }
  return k;
}

/* gex_TM_Create over parent: members (parent ranks, or job ranks with
 * jobrank) in rank order; this process's model from them */
static int do_create(const char *name, int parent, const gex_Rank_t *members, gex_Rank_t m, int jobrank,
                     gex_Flags_t scratch_kind) {
  int k = add_team(name);
  team_t *t = &teams[k], *p = &teams[parent];
  gex_EP_Location_t args[EX_MAXN];
  gex_TM_t out[2] = {(gex_TM_t)(uintptr_t)0x10, (gex_TM_t)(uintptr_t)0x10};
  gex_Addr_t scr[EX_MAXN];
  size_t q;
  int in = 0;
  for (gex_Rank_t r = 0; r < m; r++) {
    gex_Rank_t j = jobrank ? members[r] : p->job[members[r]];
    args[r].gex_rank = members[r];
    args[r].gex_ep_index = 0;
    t->job[r] = j;
    if (j == ex_me) in = 1, t->me = r;
  }
  t->n = in ? m : 0;
  q = gex_TM_Create(NULL, 1, p->tm, NULL, in ? m : 0, NULL, 0, GEX_FLAG_TM_SCRATCH_SIZE_RECOMMENDED);
  CHECK(in ? q > 0 : q == 0, "%s: gex_TM_Create's size query returned %zu", name, q);
  if (scratch_kind != GEX_FLAG_TM_NO_SCRATCH && (q == 0 || q > SCR_MAX)) scratch_kind = GEX_FLAG_TM_NO_SCRATCH;
  if (in && scratch_kind != GEX_FLAG_TM_NO_SCRATCH) {
    t->scratch = 1;
    t->scratch_addr = seg + SCR_OFF + (size_t)k * SCR_MAX;
    t->scratch_len = q;
    for (gex_Rank_t r = 0; r < m; r++) scr[r] = t->scratch_addr; /* (GLOBAL: every member's, LOCAL/SYMMETRIC: [0]) */
  }
  (void)gex_TM_Create(out, in ? 1 : 0, p->tm, args, in ? m : 0, scr, q,
                      scratch_kind | (jobrank ? GEX_FLAG_RANK_IS_JOBRANK : 0));
  if (in) {
    CHECK(out[0] != GEX_TM_INVALID && out[0] != (gex_TM_t)(uintptr_t)0x10, "%s: no team made", name);
    t->tm = out[0];
  }
  CHECK(out[1] == (gex_TM_t)(uintptr_t)0x10, "%s: gex_TM_Create wrote past num_new_tms", name);
  if (!in) CHECK(out[0] == (gex_TM_t)(uintptr_t)0x10, "%s: a non-member's new_tms changed", name);
  return k;
}

/* the team index of a name (made by "split") */
static int T_WORLD, T_REV, T_ODDEVEN;

static void t_split(void) {
  gex_Rank_t members[EX_MAXN], m = 0;
  nteams = 0;
  T_WORLD = add_team("world");
  teams[T_WORLD].tm = ex_tm;
  teams[T_WORLD].n = ex_n;
  teams[T_WORLD].me = ex_me;
  for (gex_Rank_t r = 0; r < ex_n; r++) teams[T_WORLD].job[r] = r;
  T_ODDEVEN = do_split("oddeven", T_WORLD, r_parity, r_self, NULL, 0);
  T_REV = do_split("reversed", T_WORLD, r_zero, r_neg, NULL, 0);
  (void)do_split("singletons", T_WORLD, r_self, r_zero, NULL, 0);
  (void)do_split("allone", T_WORLD, r_five, r_zero, NULL, 1);
  (void)do_split("partial", T_WORLD, r_part_color, r_part_key, r_part_nul, 0);
  {
    int n1 = do_split("nested", T_REV, r_parity, r_self, NULL, 1);
    if (teams[n1].n) (void)do_split("nested3", n1, r_zero, r_zero, NULL, 0);
    else (void)add_team("nested3"); /* (a member of no nested team: nothing to split) */
  }
  (void)do_split("nested_rev", T_ODDEVEN, r_zero, r_neg, NULL, 0);
  for (gex_Rank_t r = 0; r < ex_n; r++) members[r] = ex_n - 1 - r;
  (void)do_create("created_job", T_WORLD, members, ex_n, 1, GEX_FLAG_TM_LOCAL_SCRATCH);
  for (gex_Rank_t r = 0; r < ex_n; r += 2) members[m++] = r; /* (the reversed team's even ranks) */
  (void)do_create("created_rev", T_REV, teams[T_REV].me % 2 == 0 ? members : NULL,
                  teams[T_REV].me % 2 == 0 ? m : 0, 0, GEX_FLAG_TM_GLOBAL_SCRATCH);

  /* queries and translations against the model */
  for (int k = 0; k < nteams; k++) {
    team_t *t = &teams[k];
    if (!t->n) {
      CHECK(t->tm == GEX_TM_INVALID, "%s: a team handle where the model has none", t->name);
      continue;
    }
    CHECK_EQ(gex_TM_QuerySize(t->tm), t->n, t->name);
    CHECK_EQ(gex_TM_QueryRank(t->tm), t->me, t->name);
    CHECK(gex_TM_QueryEP(t->tm) == ex_ep, "%s: gex_TM_QueryEP is not the primordial endpoint", t->name);
    CHECK(gex_TM_QueryClient(t->tm) == ex_client, "%s: gex_TM_QueryClient", t->name);
    if (k != T_WORLD) CHECK(gex_TM_QueryCData(t->tm) == NULL, "%s: a new team's CData is not NULL", t->name);
    gex_TM_SetCData(t->tm, &teams[k]);
    for (gex_Rank_t r = 0; r < t->n; r++) {
      gex_EP_Location_t loc = gex_TM_TranslateRankToEP(t->tm, r, 0);
      CHECK(gex_TM_TranslateRankToJobrank(t->tm, r) == t->job[r], "%s: rank %u is job rank %u, expected %u", t->name,
            (unsigned)r, (unsigned)gex_TM_TranslateRankToJobrank(t->tm, r), (unsigned)t->job[r]);
      CHECK(loc.gex_rank == t->job[r] && loc.gex_ep_index == 0, "%s: gex_TM_TranslateRankToEP(%u)", t->name,
            (unsigned)r);
    }
    for (gex_Rank_t j = 0; j < ex_n; j++) {
      gex_Rank_t want = GEX_RANK_INVALID;
      for (gex_Rank_t r = 0; r < t->n; r++)
        if (t->job[r] == j) want = r;
      CHECK(gex_TM_TranslateJobrankToRank(t->tm, j) == want, "%s: job rank %u is rank %u, expected %u", t->name,
            (unsigned)j, (unsigned)gex_TM_TranslateJobrankToRank(t->tm, j), (unsigned)want);
    }
  }
  for (int k = 0; k < nteams; k++) /* (every CData its own: set on all, then read back) */
    if (teams[k].n) CHECK(gex_TM_QueryCData(teams[k].tm) == &teams[k], "%s: CData", teams[k].name);
  gex_TM_SetCData(ex_tm, NULL);
}

/* a subtest run without "split" before it makes the teams first */
static void need_teams(void) {
  if (!nteams) t_split();
}

/* ------------------------------------------------------------------ */
/* RMA and AMs by team rank                                            */
/* ------------------------------------------------------------------ */
static char *slot_of(int k, gex_Rank_t job) { return (char *)ex_segs[job].addr + (size_t)k * SLOT; }

static void t_rma(void) {
  need_teams();
  const size_t n = 3000;
  char buf[3000], got[3000];
  for (int k = 0; k < nteams; k++) { /* put to the next team rank, then check what the previous one put */
    team_t *t = &teams[k];
    gex_Rank_t next, prev;
    if (!t->n) continue;
    next = (t->me + 1) % t->n;
    prev = (t->me + t->n - 1) % t->n;
    ex_fill(buf, n, ex_seed(k, ex_me, 1, 0));
    if (k % 3 == 0) CHECK_RC(gex_RMA_PutBlocking(t->tm, next, slot_of(k, t->job[next]), buf, n, 0), 0);
    else if (k % 3 == 1) gex_Event_Wait(gex_RMA_PutNB(t->tm, next, slot_of(k, t->job[next]), buf, n, GEX_EVENT_NOW, 0));
    else {
      CHECK_RC(gex_RMA_PutNBI(t->tm, next, slot_of(k, t->job[next]), buf, n, GEX_EVENT_NOW, 0), 0);
      gex_NBI_Wait(GEX_EC_PUT, 0);
    }
    gex_Coll_BarrierBlocking(t->tm, 0);
    ex_check_pat(seg + (size_t)k * SLOT, n, ex_seed(k, t->job[prev], 1, 0), "%s: what team rank %u put here", t->name,
                 (unsigned)prev);
    /* get the previous rank's slot (what its own predecessor put), by team rank and by a TM-pair */
    gex_Event_Wait(gex_RMA_GetNB(t->tm, got, prev, slot_of(k, t->job[prev]), n, 0));
    ex_fill(buf, n, ex_seed(k, t->job[(prev + t->n - 1) % t->n], 1, 0));
    CHECK(!memcmp(got, buf, n), "%s: gex_RMA_GetNB from team rank %u", t->name, (unsigned)prev);
    memset(got, 0, n);
    CHECK_RC(gex_RMA_GetBlocking(gex_TM_Pair(ex_ep, 0), got, t->job[prev], slot_of(k, t->job[prev]), n, 0), 0);
    CHECK(!memcmp(got, buf, n), "%s: a TM-pair get from job rank %u", t->name, (unsigned)t->job[prev]);
    CHECK_EQ(gex_RMA_GetBlockingVal(t->tm, prev, slot_of(k, t->job[prev]), 1, 0), (uint8_t)buf[0], t->name);
    gex_Coll_BarrierBlocking(t->tm, 0); /* (nobody overwrites a slot before its owner checked) */
  }
}

/* the AM test: a request to team rank (me+1) carries (team, sender job
 * rank, the destination's expected job rank); the handler checks its own
 * job rank and the token's srcrank, and replies */
#define H_TPING 129
#define H_TPONG 130
#define H_TMED 131
static volatile int pongs, am_bad;
static void h_tping(gex_Token_t tok, gex_AM_Arg_t team, gex_AM_Arg_t src, gex_AM_Arg_t dst) {
  gex_Token_Info_t info;
  gex_Token_Info(tok, &info, GEX_TI_SRCRANK);
  if ((gex_Rank_t)dst != ex_me || info.gex_srcrank != (gex_Rank_t)src) __atomic_add_fetch(&am_bad, 1, __ATOMIC_RELAXED);
  gex_AM_ReplyShort1(tok, H_TPONG, 0, team);
}
static void h_tpong(gex_Token_t tok, gex_AM_Arg_t team) {
  (void)tok, (void)team;
  __atomic_add_fetch(&pongs, 1, __ATOMIC_RELAXED);
}
static void h_tmed(gex_Token_t tok, void *buf, size_t nbytes, gex_AM_Arg_t team, gex_AM_Arg_t src, gex_AM_Arg_t dst) {
  gex_Token_Info_t info;
  char want[512];
  gex_Token_Info(tok, &info, GEX_TI_SRCRANK);
  ex_fill(want, nbytes < sizeof(want) ? nbytes : sizeof(want), ex_seed((uint32_t)team, (uint32_t)src, 2, 0));
  if ((gex_Rank_t)dst != ex_me || info.gex_srcrank != (gex_Rank_t)src || nbytes != 300 || memcmp(buf, want, nbytes))
    __atomic_add_fetch(&am_bad, 1, __ATOMIC_RELAXED);
  gex_AM_ReplyShort1(tok, H_TPONG, 0, team);
}

static void t_am(void) {
  need_teams();
  char buf[300];
  int want = 0;
  pongs = am_bad = 0;
  for (int k = 0; k < nteams; k++) {
    team_t *t = &teams[k];
    gex_Rank_t next;
    if (!t->n) continue;
    next = (t->me + 1) % t->n;
    CHECK_RC(gex_AM_RequestShort3(t->tm, next, H_TPING, 0, k, (gex_AM_Arg_t)ex_me, (gex_AM_Arg_t)t->job[next]), 0);
    ex_fill(buf, sizeof(buf), ex_seed(k, ex_me, 2, 0));
    CHECK_RC(gex_AM_RequestMedium3(t->tm, next, H_TMED, buf, sizeof(buf), GEX_EVENT_NOW, 0, k, (gex_AM_Arg_t)ex_me,
                                   (gex_AM_Arg_t)t->job[next]), 0);
    CHECK_RC(gex_AM_RequestLong3(t->tm, next, H_TMED, buf, sizeof(buf), slot_of(k, t->job[next]) + 4096,
                                 GEX_EVENT_NOW, 0, k, (gex_AM_Arg_t)ex_me, (gex_AM_Arg_t)t->job[next]), 0);
    CHECK(gex_AM_MaxRequestMedium(t->tm, next, GEX_EVENT_NOW, 0, 3) >= 512, "%s: gex_AM_MaxRequestMedium", t->name);
    want += 3;
  }
  EX_WAIT(pongs == want, 20, "the replies");
  CHECK_EQ(am_bad, 0, "requests whose destination or token srcrank was not what the team rank names");
}

/* ------------------------------------------------------------------ */
/* barriers, broadcasts                                                */
/* ------------------------------------------------------------------ */
static void t_barrier(void) {
  need_teams();
  for (int k = 0; k < nteams; k++) { /* a put before the barrier is seen after it, every round */
    team_t *t = &teams[k];
    volatile uint32_t *mine = (volatile uint32_t *)(seg + (size_t)k * SLOT + 8192);
    if (!t->n) continue;
    for (uint32_t round = 1; round <= 5; round++) {
      gex_Rank_t next = (t->me + 1) % t->n, prev = (t->me + t->n - 1) % t->n;
      uint32_t v = round * 1000 + (uint32_t)t->job[t->me];
      CHECK_RC(gex_RMA_PutBlocking(t->tm, next, slot_of(k, t->job[next]) + 8192, &v, sizeof(v), 0), 0);
      if (round & 1) gex_Coll_BarrierBlocking(t->tm, 0);
      else gex_Event_Wait(gex_Coll_BarrierNB(t->tm, 0));
      CHECK_EQ(*mine, round * 1000 + t->job[prev], t->name);
      gex_Coll_BarrierBlocking(t->tm, 0);
    }
  }
  {
    /* several barriers in flight on one team, synced in reverse order */
    gex_Event_t ev[6];
    for (int i = 0; i < 6; i++) ev[i] = gex_Coll_BarrierNB(teams[T_REV].tm, 0);
    for (int i = 5; i >= 0; i--) gex_Event_Wait(ev[i]);
    CHECK(1, "(completed)");
  }
}

static size_t big_size(void) { return gex_AM_LUBRequestMedium() * 2 + 13; }

static void t_bcast(void) {
  need_teams();
  size_t big = big_size(), sizes[4] = {0, 1, 7, big};
  char *dst = malloc(big), *src = malloc(big), *want = malloc(big);
  for (int k = 0; k < nteams; k++) {
    team_t *t = &teams[k];
    if (!t->n) continue;
    for (int rsel = 0; rsel < 3; rsel++) {
      gex_Rank_t root = rsel == 0 ? t->n - 1 : rsel == 1 ? 0 : t->n / 2;
      for (int s = 0; s < 4; s++) {
        size_t n = sizes[s];
        uint32_t seed = ex_seed(k, root, (uint32_t)n, 3);
        int inplace = (rsel + s) & 1;
        ex_fill(want, n, seed);
        memset(dst, 0x5a, big);
        if (t->me == root) memcpy(inplace ? dst : src, want, n);
        gex_Event_Wait(gex_Coll_BroadcastNB(t->tm, root, dst, inplace ? dst : src, n, 0));
        CHECK(!memcmp(dst, want, n) && (n == big || (unsigned char)dst[n] == 0x5a),
              "%s: broadcast of %zu bytes from root %u%s", t->name, n, (unsigned)root, inplace ? " (in place)" : "");
      }
    }
  }
  free(dst), free(src), free(want);
}

/* ------------------------------------------------------------------ */
/* reductions                                                          */
/* ------------------------------------------------------------------ */
static const gex_DT_t dts[6] = {GEX_DT_I32, GEX_DT_U32, GEX_DT_I64, GEX_DT_U64, GEX_DT_FLT, GEX_DT_DBL};
static const char *dt_names[6] = {"I32", "U32", "I64", "U64", "FLT", "DBL"};
static const size_t dt_sizes[6] = {4, 4, 8, 8, 4, 8};
static const gex_OP_t ops[7] = {GEX_OP_ADD, GEX_OP_MULT, GEX_OP_MIN, GEX_OP_MAX, GEX_OP_AND, GEX_OP_OR, GEX_OP_XOR};
static const char *op_names[7] = {"ADD", "MULT", "MIN", "MAX", "AND", "OR", "XOR"};

/* team rank r's element i (bits, in the low dt_size bytes): floats are
 * exact small values (products of powers of two for MULT), so every
 * association gives the model's result */
static uint64_t elem(int d, int o, gex_Rank_t r, size_t i) {
  uint32_t x = ex_seed((uint32_t)r, (uint32_t)i, (uint32_t)d, (uint32_t)o);
  if (d >= 4) {
    static const double mults[5] = {1.0, 2.0, -1.0, 0.5, -2.0};
    double v = o == 1 ? mults[x % 5] : (double)((int)(x % 201) - 100);
    if (d == 4) {
      float f = (float)v;
      uint32_t b;
      memcpy(&b, &f, 4);
      return b;
    } else {
      uint64_t b;
      memcpy(&b, &v, 8);
      return b;
    }
  }
  if (d >= 2) return ((uint64_t)ex_seed((uint32_t)r, (uint32_t)i, (uint32_t)d + 10, (uint32_t)o) << 32) | x;
  return x;
}

static uint64_t model_op(int d, int o, uint64_t a, uint64_t b) { /* a op b */
  if (d == 4 || d == 5) {
    double x, y, z;
    if (d == 4) {
      float fa, fb, fz;
      memcpy(&fa, &a, 4), memcpy(&fb, &b, 4);
      fz = o == 0 ? fa + fb : o == 1 ? fa * fb : o == 2 ? (fa < fb ? fa : fb) : (fa > fb ? fa : fb);
      uint32_t r;
      memcpy(&r, &fz, 4);
      return r;
    }
    memcpy(&x, &a, 8), memcpy(&y, &b, 8);
    z = o == 0 ? x + y : o == 1 ? x * y : o == 2 ? (x < y ? x : y) : (x > y ? x : y);
    uint64_t r;
    memcpy(&r, &z, 8);
    return r;
  }
  {
    int w = d < 2 ? 32 : 64, sgn = d == 0 || d == 2;
    uint64_t mask = w == 32 ? 0xffffffffull : ~0ull, r;
    int64_t sa = w == 32 ? (int64_t)(int32_t)(uint32_t)a : (int64_t)a, sb = w == 32 ? (int64_t)(int32_t)(uint32_t)b : (int64_t)b;
    switch (o) {
    case 0: r = a + b; break;
    case 1: r = a * b; break;
    case 2: r = sgn ? (sa < sb ? a : b) : (a < b ? a : b); break;
    case 3: r = sgn ? (sa > sb ? a : b) : (a > b ? a : b); break;
    case 4: r = a & b; break;
    case 5: r = a | b; break;
    default: r = a ^ b; break;
    }
    return r & mask;
  }
}

static void put_elem(void *buf, size_t i, size_t sz, uint64_t v) {
  if (sz == 4) {
    uint32_t x = (uint32_t)v;
    memcpy((char *)buf + i * 4, &x, 4);
  } else {
    memcpy((char *)buf + i * 8, &v, 8);
  }
}
static uint64_t get_elem(const void *buf, size_t i, size_t sz) {
  if (sz == 4) {
    uint32_t x;
    memcpy(&x, (const char *)buf + i * 4, 4);
    return x;
  }
  uint64_t v;
  memcpy(&v, (const char *)buf + i * 8, 8);
  return v;
}

/* one reduction of every built-in type x operation on team t, dt_cnt
 * elements; root GEX_RANK_INVALID: to all */
static void reduce_builtin(team_t *t, gex_Rank_t root, size_t cnt, int inplace) {
  size_t maxb = cnt * 8;
  char *src = malloc(maxb), *dst = malloc(maxb);
  for (int d = 0; d < 6; d++)
    for (int o = 0; o < 7; o++) {
      size_t sz = dt_sizes[d], bad = 0, first = 0;
      int getting = root == GEX_RANK_INVALID || root == t->me;
      if (d >= 4 && o >= 4) continue; /* (bit-wise operations: integers only) */
      for (size_t i = 0; i < cnt; i++) put_elem(src, i, sz, elem(d, o, t->me, i));
      memset(dst, 0x77, maxb);
      if (inplace && getting) memcpy(dst, src, cnt * sz);
      {
        const void *s = inplace && getting ? dst : src;
        if (root == GEX_RANK_INVALID)
          gex_Event_Wait(gex_Coll_ReduceToAllNB(t->tm, dst, s, dts[d], sz, cnt, ops[o], NULL, NULL, 0));
        else
          gex_Event_Wait(gex_Coll_ReduceToOneNB(t->tm, root, dst, s, dts[d], sz, cnt, ops[o], NULL, NULL, 0));
      }
      if (!getting) {
        CHECK(1, "(not the root)");
        continue;
      }
      uint64_t want_first = 0;
      for (size_t i = 0; i < cnt; i++) {
        uint64_t acc = elem(d, o, 0, i);
        for (gex_Rank_t r = 1; r < t->n; r++) acc = model_op(d, o, acc, elem(d, o, r, i));
        if (get_elem(dst, i, sz) != acc && !bad++) first = i, want_first = acc;
      }
      CHECK(!bad, "%s: %s %s x %zu to %s%s: %zu wrong elements (first %zu: got 0x%" PRIx64 ", expected 0x%" PRIx64 ")",
            t->name, dt_names[d], op_names[o], cnt, root == GEX_RANK_INVALID ? "all" : "one", inplace ? " in place" : "",
            bad, first, get_elem(dst, first, sz), want_first);
    }
  free(src), free(dst);
}

static void t_reduce(void) {
  need_teams();
  size_t big = gex_AM_LUBRequestMedium() / 8 * 2 + 5; /* (over two AM Mediums of 8-byte elements) */
  for (int k = 0; k < nteams; k++) {
    team_t *t = &teams[k];
    if (!t->n) continue;
    reduce_builtin(t, GEX_RANK_INVALID, 1, 0);
    reduce_builtin(t, GEX_RANK_INVALID, 5, 1);
    reduce_builtin(t, t->n - 1, 3, k & 1);
    reduce_builtin(t, t->n / 2, 1, 0);
    if (k == T_WORLD || k == T_REV || k == T_ODDEVEN) {
      reduce_builtin(t, GEX_RANK_INVALID, big, 0);
      reduce_builtin(t, t->n - 1, big, 1);
    }
  }
}

/* user operations: a commutative one on a 12-byte type, a non-commutative
 * one (2x2 matrix products mod 2^32: the result depends on the order),
 * one on a built-in type, and one on a type larger than an AM Medium */
typedef struct {
  uint32_t a, b, c;
} u12_t;
typedef struct {
  uint32_t m[4];
} mat_t;
static const int cd_magic = 42;
static volatile int user_bad_cdata;
static void op_u12(const void *in, void *out, size_t n, const void *cd) {
  const u12_t *x = in;
  u12_t *y = out;
  if (cd != &cd_magic) user_bad_cdata = 1;
  for (size_t i = 0; i < n; i++) {
    y[i].a += x[i].a;
    y[i].b = x[i].b > y[i].b ? x[i].b : y[i].b;
    y[i].c ^= x[i].c;
  }
}
static mat_t mat_mul(mat_t l, mat_t r) {
  mat_t z;
  z.m[0] = l.m[0] * r.m[0] + l.m[1] * r.m[2];
  z.m[1] = l.m[0] * r.m[1] + l.m[1] * r.m[3];
  z.m[2] = l.m[2] * r.m[0] + l.m[3] * r.m[2];
  z.m[3] = l.m[2] * r.m[1] + l.m[3] * r.m[3];
  return z;
}
static void op_mat(const void *in, void *out, size_t n, const void *cd) { /* out = in x out */
  const mat_t *x = in;
  mat_t *y = out;
  if (cd != &cd_magic) user_bad_cdata = 1;
  for (size_t i = 0; i < n; i++) y[i] = mat_mul(x[i], y[i]);
}
static void op_dbl_max(const void *in, void *out, size_t n, const void *cd) {
  const double *x = in;
  double *y = out;
  if (cd != &cd_magic) user_bad_cdata = 1;
  for (size_t i = 0; i < n; i++) y[i] = x[i] > y[i] ? x[i] : y[i];
}
static void op_bytes(const void *in, void *out, size_t n, const void *cd) { /* a big type: byte-wise sums */
  size_t sz = *(const size_t *)cd;
  const unsigned char *x = in;
  unsigned char *y = out;
  for (size_t i = 0; i < n * sz; i++) y[i] = (unsigned char)(y[i] + x[i]);
}

static mat_t mat_of(gex_Rank_t r, size_t i) {
  mat_t z;
  for (int q = 0; q < 4; q++) z.m[q] = ex_seed((uint32_t)r, (uint32_t)i, 7, (uint32_t)q) | 1u;
  return z;
}

static void t_user(void) {
  need_teams();
  size_t mcnt = gex_AM_LUBRequestMedium() / sizeof(mat_t) + 9; /* (more than one AM Medium) */
  size_t bsz = gex_AM_LUBRequestMedium() + 100;
  mat_t *mats = malloc(mcnt * sizeof(mat_t)), *mout = malloc(mcnt * sizeof(mat_t));
  unsigned char *bsrc = malloc(bsz), *bdst = malloc(bsz);
  user_bad_cdata = 0;
  for (int k = 0; k < nteams; k++) {
    team_t *t = &teams[k];
    if (!t->n) continue;
    { /* commutative, user type, to one (the last rank) and to all */
      u12_t src[4], dst[4];
      for (int i = 0; i < 4; i++) src[i] = (u12_t){t->job[t->me] + 1u + (uint32_t)i, ex_seed(t->me, i, 8, 0), 1u << (t->me % 32)};
      for (int all = 0; all < 2; all++) {
        gex_Rank_t root = t->n - 1;
        memset(dst, 0, sizeof(dst));
        if (all) gex_Event_Wait(gex_Coll_ReduceToAllNB(t->tm, dst, src, GEX_DT_USER, sizeof(u12_t), 4, GEX_OP_USER, op_u12,
                                                       (void *)&cd_magic, 0));
        else gex_Event_Wait(gex_Coll_ReduceToOneNB(t->tm, root, dst, src, GEX_DT_USER, sizeof(u12_t), 4, GEX_OP_USER,
                                                   op_u12, (void *)&cd_magic, 0));
        if (!all && t->me != root) {
          CHECK(1, "(not the root)");
          continue;
        }
        for (int i = 0; i < 4; i++) {
          u12_t w = {0, 0, 0};
          for (gex_Rank_t r = 0; r < t->n; r++) {
            uint32_t b = ex_seed(r, i, 8, 0);
            w.a += t->job[r] + 1u + (uint32_t)i;
            w.b = b > w.b ? b : w.b;
            w.c ^= 1u << (r % 32);
          }
          CHECK(dst[i].a == w.a && dst[i].b == w.b && dst[i].c == w.c, "%s: GEX_OP_USER on a 12-byte type, element %d",
                t->name, i);
        }
      }
    }
    { /* non-commutative: matrix products in rank order, more than one AM Medium, in place to all */
      for (int all = 0; all < 2; all++) {
        gex_Rank_t root = t->n / 2;
        for (size_t i = 0; i < mcnt; i++) mats[i] = mat_of(t->me, i);
        if (all) gex_Event_Wait(gex_Coll_ReduceToAllNB(t->tm, mats, mats, GEX_DT_USER, sizeof(mat_t), mcnt,
                                                       GEX_OP_USER_NC, op_mat, (void *)&cd_magic, 0));
        else gex_Event_Wait(gex_Coll_ReduceToOneNB(t->tm, root, mout, mats, GEX_DT_USER, sizeof(mat_t), mcnt,
                                                   GEX_OP_USER_NC, op_mat, (void *)&cd_magic, 0));
        if (!all && t->me != root) {
          CHECK(1, "(not the root)");
          continue;
        }
        {
          size_t bad = 0;
          for (size_t i = 0; i < mcnt; i++) {
            mat_t w = mat_of(0, i), *got = all ? &mats[i] : &mout[i];
            for (gex_Rank_t r = 1; r < t->n; r++) w = mat_mul(w, mat_of(r, i));
            if (memcmp(&w, got, sizeof(w))) bad++;
          }
          CHECK(!bad, "%s: GEX_OP_USER_NC matrix products (%zu elements, to %s): %zu wrong (not in rank order?)",
                t->name, mcnt, all ? "all" : "one", bad);
        }
      }
    }
    { /* a user operation on a built-in type */
      double s[3], d3[3];
      for (int i = 0; i < 3; i++) s[i] = (double)((int)(ex_seed(t->me, i, 9, 0) % 1000) - 500);
      gex_Event_Wait(gex_Coll_ReduceToAllNB(t->tm, d3, s, GEX_DT_DBL, sizeof(double), 3, GEX_OP_USER, op_dbl_max,
                                            (void *)&cd_magic, 0));
      for (int i = 0; i < 3; i++) {
        double w = -1e9;
        for (gex_Rank_t r = 0; r < t->n; r++) {
          double v = (double)((int)(ex_seed(r, i, 9, 0) % 1000) - 500);
          w = v > w ? v : w;
        }
        CHECK(d3[i] == w, "%s: GEX_OP_USER on GEX_DT_DBL element %d: %g, expected %g", t->name, i, d3[i], w);
      }
    }
    if (k == T_WORLD || k == T_REV) { /* one element larger than an AM Medium */
      size_t bad = 0;
      ex_fill(bsrc, bsz, ex_seed(t->me, 10, 0, 0));
      gex_Event_Wait(gex_Coll_ReduceToAllNB(t->tm, bdst, bsrc, GEX_DT_USER, bsz, 1, GEX_OP_USER, op_bytes, &bsz, 0));
      for (size_t i = 0; i < bsz; i++) {
        unsigned char w = 0;
        for (gex_Rank_t r = 0; r < t->n; r++) w = (unsigned char)(w + ex_pat(ex_seed(r, 10, 0, 0), i));
        if (bdst[i] != w) bad++;
      }
      CHECK(!bad, "%s: a %zu-byte user type: %zu wrong bytes", t->name, bsz, bad);
    }
  }
  CHECK(!user_bad_cdata, "a user operation was called with another cdata than user_cdata");
  free(mats), free(mout), free(bsrc), free(bdst);
}

/* ------------------------------------------------------------------ */
/* in flight everywhere at once; GASNet-1's collectives                 */
/* ------------------------------------------------------------------ */
static void t_inflight(void) {
  need_teams();
  gex_Event_t ev[MAXT * 4];
  int nev = 0;
  static uint64_t red[MAXT], redsrc[MAXT];
  static char bc[MAXT][64];
  for (int k = 0; k < nteams; k++) { /* every team: a barrier, a broadcast, a reduction, a barrier */
    team_t *t = &teams[k];
    if (!t->n) continue;
    redsrc[k] = (uint64_t)t->job[t->me] + 1;
    if (t->me == 0) ex_fill(bc[k], 64, ex_seed(k, 11, 0, 0));
    ev[nev++] = gex_Coll_BarrierNB(t->tm, 0);
    ev[nev++] = gex_Coll_BroadcastNB(t->tm, 0, bc[k], bc[k], 64, 0);
    ev[nev++] = gex_Coll_ReduceToAllNB(t->tm, &red[k], &redsrc[k], GEX_DT_U64, 8, 1, GEX_OP_ADD, NULL, NULL, 0);
    ev[nev++] = gex_Coll_BarrierNB(t->tm, 0);
  }
  gex_Event_WaitAll(ev, (size_t)nev, 0);
  for (int k = 0; k < nteams; k++) {
    team_t *t = &teams[k];
    char want[64];
    uint64_t sum = 0;
    if (!t->n) continue;
    for (gex_Rank_t r = 0; r < t->n; r++) sum += t->job[r] + 1;
    ex_fill(want, 64, ex_seed(k, 11, 0, 0));
    CHECK(!memcmp(bc[k], want, 64), "%s: the broadcast in flight with the others", t->name);
    CHECK_EQ(red[k], sum, t->name);
  }
}

static void t_coll1(void) {
  need_teams();
  for (int k = 0; k < nteams; k++) {
    team_t *t = &teams[k];
    gasnet_team_handle_t h = k == T_WORLD ? GASNET_TEAM_ALL : t->tm;
    int src[EX_MAXN * 3], dst[EX_MAXN * 3], flags[3] = {GASNET_COLL_IN_NOSYNC | GASNET_COLL_OUT_NOSYNC,
                                                        GASNET_COLL_IN_MYSYNC | GASNET_COLL_OUT_MYSYNC,
                                                        GASNET_COLL_IN_ALLSYNC | GASNET_COLL_OUT_ALLSYNC};
    gex_Rank_t n = t->n, me = t->me, root;
    if (!n) continue;
    root = n - 1;
    for (int f = 0; f < 3; f++) {
      int fl = flags[f] | GASNET_COLL_LOCAL;
      /* scatter from root: rank r gets block r = {r*10+f ...} */
      for (gex_Rank_t r = 0; r < n; r++) src[r * 2] = (int)(r * 10 + f), src[r * 2 + 1] = (int)(r * 10 + f + 1);
      memset(dst, -1, sizeof(dst));
      gasnet_coll_scatter(h, dst, root, src, 2 * sizeof(int), fl);
      CHECK(dst[0] == (int)(me * 10 + f) && dst[1] == (int)(me * 10 + f + 1), "%s: gasnet_coll_scatter", t->name);
      /* gather to root (non-blocking form) */
      src[0] = (int)(me + 100 * f);
      memset(dst, -1, sizeof(dst));
      gasnet_coll_wait_sync(gasnet_coll_gather_nb(h, root, dst, src, sizeof(int), fl));
      if (me == root)
        for (gex_Rank_t r = 0; r < n; r++) CHECK_EQ(dst[r], r + 100 * f, "gasnet_coll_gather");
      else
        CHECK(1, "(not the root)");
      /* gather_all */
      memset(dst, -1, sizeof(dst));
      gasnet_coll_gather_all(h, dst, src, sizeof(int), fl);
      for (gex_Rank_t r = 0; r < n; r++) CHECK_EQ(dst[r], r + 100 * f, "gasnet_coll_gather_all");
      /* exchange: block r of src to r */
      for (gex_Rank_t r = 0; r < n; r++) src[r] = (int)(me * 1000 + r);
      memset(dst, -1, sizeof(dst));
      gasnet_coll_exchange(h, dst, src, sizeof(int), fl);
      for (gex_Rank_t r = 0; r < n; r++) CHECK_EQ(dst[r], r * 1000 + me, "gasnet_coll_exchange");
    }
    /* the team barrier with a value: matching ids, then a mismatch */
    gasnet_coll_barrier_notify(h, 5, 0);
    CHECK_RC(gasnet_coll_barrier_wait(h, 5, 0), GASNET_OK);
    CHECK_RC(gasnet_coll_barrier(h, 0, GASNET_BARRIERFLAG_ANONYMOUS), GASNET_OK);
    if (n > 1) {
      int id = me == 0 ? 1 : 2;
      gasnet_coll_barrier_notify(h, id, 0);
      CHECK_RC(gasnet_coll_barrier_wait(h, id, 0), GASNET_ERR_BARRIER_MISMATCH);
    }
  }
}

/* ------------------------------------------------------------------ */
/* destroy, and a team made afterwards                                 */
/* ------------------------------------------------------------------ */
static void t_destroy(void) {
  need_teams();
  for (int k = nteams - 1; k > 0; k--) { /* (children before parents, though not required) */
    team_t *t = &teams[k];
    gex_Memvec_t mv = {(void *)(uintptr_t)0x99, 77};
    int rc;
    if (!t->n) continue;
    rc = gex_TM_Destroy(t->tm, (k & 1) ? &mv : NULL, (k & 2) ? GEX_FLAG_GLOBALLY_QUIESCED : 0);
    t->destroyed = 1;
    if (!(k & 1)) { /* (nothing written: 0) */
      CHECK(rc == 0, "%s: gex_TM_Destroy without scratch_p returned %d", t->name, rc);
    } else if (t->scratch) {
      CHECK(rc != 0 && mv.gex_addr == t->scratch_addr && mv.gex_len == t->scratch_len,
            "%s: gex_TM_Destroy handed back %p+%zu (rc %d), the team's scratch was %p+%zu", t->name, mv.gex_addr,
            mv.gex_len, rc, t->scratch_addr, t->scratch_len);
    } else {
      CHECK(rc == 0 && mv.gex_addr == (void *)(uintptr_t)0x99 && mv.gex_len == 77,
            "%s: gex_TM_Destroy of a team without scratch returned %d or wrote *scratch_p", t->name, rc);
    }
  }
  { /* a team made after the destruction, its collectives */
    gex_TM_t again = GEX_TM_INVALID;
    uint64_t one = 1, sum = 0;
    gex_TM_Split(&again, ex_tm, 0, -(int)ex_me, NULL, 0, GEX_FLAG_TM_NO_SCRATCH);
    CHECK(again != GEX_TM_INVALID, "no team made after the others were destroyed");
    CHECK_EQ(gex_TM_QueryRank(again), ex_n - 1 - ex_me, "the rank in the team made after destruction");
    gex_Coll_BarrierBlocking(again, 0);
    gex_Event_Wait(gex_Coll_ReduceToAllNB(again, &sum, &one, GEX_DT_U64, 8, 1, GEX_OP_ADD, NULL, NULL, 0));
    CHECK_EQ(sum, ex_n, "a reduction over the team made after destruction");
    CHECK_RC(gex_TM_Destroy(again, NULL, 0), 0);
  }
  nteams = 1; /* (only the primordial team is left) */
}

/* ------------------------------------------------------------------ */
/* --bad MODE: one invalid call on rank 0, which must end the job with  */
/* an error naming it (judged as badinput's: the EXPECT lines)          */
/* ------------------------------------------------------------------ */
static const char *const bad_modes[][2] = {
    {"destroyed_put", "gex_RMA_PutBlocking on a destroyed team"},
    {"destroyed_barrier", "gex_Coll_BarrierNB on a destroyed team"},
    {"pair_coll", "gex_Coll_BroadcastNB on a TM-pair"},
    {"not_a_team", "gex_TM_QuerySize of an address that is no team"},
    {"rank_range", "gex_AM_RequestShort to rank 1 of a team of one"},
    {"bad_op", "gex_Coll_ReduceToAllNB with GEX_OP_XOR on GEX_DT_FLT"},
    {"destroy_primordial", "gex_TM_Destroy of the primordial team"},
};
static void expect(const char *kind, const char *text) {
  printf("EXPECT %s %s\n", kind, text);
  fflush(stdout);
}
static int run_bad(const char *mode) {
  gex_TM_t one = GEX_TM_INVALID, dead = GEX_TM_INVALID;
  static uint64_t not_a_team[8];
  float f = 1, g;
  gex_TM_Split(&one, ex_tm, (int)ex_me, 0, NULL, 0, GEX_FLAG_TM_NO_SCRATCH);
  gex_TM_Split(&dead, ex_tm, 0, 0, NULL, 0, GEX_FLAG_TM_NO_SCRATCH);
  gex_TM_Destroy(dead, NULL, 0);
  ex_barrier();
  if (ex_me != 0) {
    static volatile int never;
    while (!never) gasnet_AMPoll();
  }
  if (!strcmp(mode, "destroyed_put")) {
    expect("sub", "gex_RMA_PutBlocking");
    expect("sub", "destroyed");
    gex_RMA_PutBlocking(dead, 0, seg, &f, sizeof(f), 0);
  } else if (!strcmp(mode, "destroyed_barrier")) {
    expect("sub", "gex_Coll_BarrierNB");
    expect("sub", "destroyed");
    gex_Event_Wait(gex_Coll_BarrierNB(dead, 0));
  } else if (!strcmp(mode, "pair_coll")) {
    expect("sub", "gex_Coll_BroadcastNB");
    expect("sub", "TM-pair");
    gex_Event_Wait(gex_Coll_BroadcastNB(gex_TM_Pair(ex_ep, 0), 0, &g, &f, sizeof(f), 0));
  } else if (!strcmp(mode, "not_a_team")) {
    expect("sub", "gex_TM_QuerySize");
    expect("sub", "not a team");
    printf("size %u\n", (unsigned)gex_TM_QuerySize((gex_TM_t)(void *)not_a_team));
  } else if (!strcmp(mode, "rank_range")) {
    expect("sub", "gex_AM_RequestShort");
    expect("sub", "out of range");
    gex_AM_RequestShort3(one, 1, H_TPING, 0, 0, 0, 0);
  } else if (!strcmp(mode, "bad_op")) {
    expect("sub", "gex_Coll_ReduceToAllNB");
    expect("sub", "not a reduction operation");
    gex_Event_Wait(gex_Coll_ReduceToAllNB(one, &g, &f, GEX_DT_FLT, sizeof(f), 1, GEX_OP_XOR, NULL, NULL, 0));
  } else if (!strcmp(mode, "destroy_primordial")) {
    expect("sub", "gex_TM_Destroy");
    expect("sub", "primordial");
    gex_TM_Destroy(ex_tm, NULL, 0);
  } else {
    fprintf(stderr, "exteam: unknown bad-input mode \"%s\"\n", mode);
    return 2;
  }
  printf("exteam: the bad call (%s) returned: no error\n", mode);
  return 0;
}

static const ex_subtest_t subtests[] = {
    {"split", t_split, "gex_TM_Split/Create: odd shapes, nested; queries, translations, CData against the model"},
    {"rma", t_rma, "puts and gets addressed by team rank (and a TM-pair by job rank)"},
    {"am", t_am, "Short/Medium/Long requests by team rank: destination and token srcrank (job rank)"},
    {"barrier", t_barrier, "gex_Coll_BarrierNB/Blocking order puts on every team; several in flight"},
    {"bcast", t_bcast, "gex_Coll_BroadcastNB: roots, sizes 0/1/7/> AM Medium, in place"},
    {"reduce", t_reduce, "every DT x OP to one and to all, sizes 1..> AM Medium, in place"},
    {"user", t_user, "GEX_OP_USER/USER_NC: user types, order, a type larger than an AM Medium"},
    {"inflight", t_inflight, "barrier, broadcast and reduction in flight on every team at once"},
    {"coll1", t_coll1, "GASNet-1 scatter/gather/gather_all/exchange and the team barrier with a value"},
    {"destroy", t_destroy, "gex_TM_Destroy: scratch handed back or not; a team made afterwards"},
};
#define NSUBTESTS ((int)EX_ARRAY_LEN(subtests))

int main(int argc, char **argv) {
  int rc, code;
  gex_AM_Entry_t table[] = {
      {EX_H_RESULT, (gex_AM_Fn_t)ex_h_result, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 3, NULL, "result"},
      {H_TPING, (gex_AM_Fn_t)h_tping, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 3, NULL, "tping"},
      {H_TPONG, (gex_AM_Fn_t)h_tpong, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REPLY, 1, NULL, "tpong"},
      {H_TMED, (gex_AM_Fn_t)h_tmed, GEX_FLAG_AM_MEDLONG | GEX_FLAG_AM_REQUEST, 3, NULL, "tmed"},
  };
  const char *bad;
  ex_prog = "exteam";
  bad = ex_bad_options(argc, argv, subtests, NSUBTESTS, bad_modes, EX_ARRAY_LEN(bad_modes));
  ex_pat_init();
  rc = gex_Client_Init(&ex_client, &ex_ep, &ex_tm, "EXTEAM", &argc, &argv, 0);
  if (rc != GASNET_OK) {
    fprintf(stderr, "exteam: gex_Client_Init returned %d (%s)\n", rc, gasnet_ErrorName(rc));
    return 1;
  }
  ex_me = gex_TM_QueryRank(ex_tm);
  ex_n = gex_TM_QuerySize(ex_tm);
  if (ex_n > EX_MAXN) {
    if (ex_me == 0) fprintf(stderr, "exteam: at most %d ranks\n", EX_MAXN);
    gasnet_exit(2);
  }
  rc = gex_EP_RegisterHandlers(ex_ep, table, EX_ARRAY_LEN(table));
  if (rc == GASNET_OK) rc = gex_Segment_Attach(&ex_seg, ex_tm, SEGSZ);
  if (rc != GASNET_OK) {
    printf("not ok startup: rank %u: registration or gex_Segment_Attach returned %d (%s)\n", (unsigned)ex_me, rc,
           gasnet_ErrorName(rc));
    gasnet_exit(1);
  }
  seg = gex_Segment_QueryAddr(ex_seg);
  ex_exchange_segments();
  code = bad ? run_bad(bad) : ex_run(argc, argv, subtests, NSUBTESTS, NULL, NULL, NULL);
  gasnet_exit(code);
  return code;
}
