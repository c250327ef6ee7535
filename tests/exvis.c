/*
 * exvis.c -- GASNet-EX non-contiguous RMA (gasnet_vis.h): every
 * gex_VIS_{Vector,Indexed,Strided}{Put,Get}{NB,NBI,Blocking} against a
 * byte-exact model (tests/vismodel.h).  Before each operation the two
 * areas it touches are filled with patterns naming their owner, the
 * initiator's slot, the operation and the offset; after it, every byte of
 * the destination area is checked (the bytes the description names hold
 * their source bytes, the others are unchanged) and the source area too
 * (unchanged).  Random descriptions (seeded: EXVIS_SEED, printed): entries
 * of length 0, empty lists, the two sides cut differently, Indexed lengths
 * that differ, Strided transposes, reflections (negative strides), extents
 * of 1, 0 and up to 10 dimensions, source bytes named twice; the local side
 * in the segment and out of it (malloc), the peer the next rank and the
 * initiator itself; completion by event (wait and test), implicit set
 * (wait and test), access region; GEX_FLAG_ENABLE_LEAF_LC, GEX_FLAG_IMMEDIATE,
 * peer completion handlers, a team of reversed ranks.  The exconf.h
 * framework: "ok NAME" / "not ok NAME" lines from rank 0.
 *
 * Built twice: exvis, and exvis_par (-DGASNET_PAR: its one subtest, "par",
 * runs the random operations from PAR_THREADS threads per process at once,
 * each on its own areas).
 *
 * Usage: mpirun -np N exvis [SUBTEST...]     (exvis --list)
 *        mpirun -np 2 exvis --bad MODE       (exvis --bad-list: an invalid
 *        call that must end the job with an error naming it; the node making
 *        it prints EXPECT lines first, as tests/badinput)
 *
 * Environment: EXVIS_SEED (the random descriptions' seed, default 2026),
 * EXVIS_ROUNDS (operations per combination, default 2); the library's
 * STAGEPORT_VIS_OPT=off (no stride optimizer: the results must not change)
 * and STAGEPORT_VIS (the mechanism).
 */
#include <gasnet_vis.h>

#include "exconf.h"
#include "vismodel.h"

#ifdef GASNET_PAR
#include <pthread.h>
#endif

/* ------------------------------------------------------------------ */
/* segment layout (every rank's)                                       */
/* ------------------------------------------------------------------ */
/* Each initiator (rank x thread) owns one slot in every segment: its A
 * half is where the initiator's operations have their remote side (at the
 * peer), its B half the initiator's own local side when in the segment. */
#define AREA 8192
#define SLOT (2 * AREA)
#define PAR_THREADS 4
#define CTL_OFF 0                          /* peer completion: arrivals per source rank (uint64_t) */
#define CTL_SIZE 4096
#define SLOTS_OFF CTL_SIZE
#define NSLOTS (EX_MAXN * PAR_THREADS)
#define SEG_SIZE (SLOTS_OFF + NSLOTS * SLOT)

static void *at(gex_Rank_t r, size_t off) { return (char *)ex_segs[r].addr + off; }
static size_t slot_a(int slot) { return SLOTS_OFF + (size_t)slot * SLOT; }
static size_t slot_b(int slot) { return SLOTS_OFF + (size_t)slot * SLOT + AREA; }

/* a subtest (exvis_par lists only its own: the others unused there) */
#define SUBTEST __attribute__((unused)) static void

static uint64_t seed_base = 2026;
static unsigned rounds = 2;

/* ------------------------------------------------------------------ */
/* one operation against the model                                     */
/* ------------------------------------------------------------------ */
enum { S_NB, S_NB_TEST, S_NBI, S_NBI_TEST, S_REGION, S_BLK, S_NSYNC };
static const char *const sync_names[S_NSYNC] = {"NB", "NB+Test", "NBI", "NBI+Test", "NBI in a region", "Blocking"};

typedef struct {
  int slot; /* this initiator's slot */
  vm_rng_t rng;
  uint8_t *heap; /* AREA bytes out of the segment */
  uint8_t exp[AREA], got[AREA], pat[AREA], srcpat[AREA];
  vm_desc_t d;
  gex_Memvec_t dmv[VM_MAXENT], smv[VM_MAXENT];
  void *didx[VM_MAXENT], *sidx[VM_MAXENT];
  uint32_t gen;     /* operations so far */
  long refusals;    /* IMMEDIATE refusals */
  long lc_early;    /* LEAF_LC: local completion seen before operation completion */
} ctx_t;

typedef struct {
  int put, sync, heap;
  gex_Rank_t peer;   /* job rank */
  gex_TM_t tm;       /* ex_tm, or another team: */
  gex_Rank_t tmpeer; /* peer's rank in tm */
  gex_Flags_t flags; /* GEX_FLAG_IMMEDIATE, GEX_FLAG_ENABLE_LEAF_LC */
} spec_t;

static ctx_t *ctx_new(int slot, uint64_t salt) {
  ctx_t *c = calloc(1, sizeof(*c));
  if (!c || !(c->heap = malloc(AREA))) {
    fprintf(stderr, "exvis: out of memory\n");
    gasnet_exit(1);
  }
  c->slot = slot;
  c->rng.s = seed_base * 0x100000001B3ull ^ (uint64_t)slot << 20 ^ salt;
  return c;
}
__attribute__((unused)) static void ctx_free(ctx_t *c) {
  free(c->heap);
  free(c);
}

static void wait_until_ok(int (*test)(void *), void *arg, const char *what) {
  double dl = ex_now() + 30;
  while (test(arg) != GASNET_OK) {
    gasnet_AMPoll();
    if (ex_now() > dl) {
      ex_fail("%s: still not complete after 30 s", what);
      return;
    }
  }
}
static int test_event(void *e) { return gex_Event_Test(*(gex_Event_t *)e); }
static int test_nbi(void *ec) { return gex_NBI_Test(*(gex_EC_t *)ec, 0); }

/* The call.  Lists and addresses from c->d with the areas' bases;
 * NULL addresses where the description moves nothing (Strided: they are
 * ignored then).  The return: 0, or non-zero for an IMMEDIATE refusal. */
static int issue(ctx_t *c, const spec_t *s, int sync, char *dbase, char *sbase, gex_Event_t *ev) {
  const vm_desc_t *d = &c->d;
  gex_TM_t tm = s->tm;
  gex_Rank_t pr = s->tmpeer;
  gex_Flags_t f = s->flags;
  int nb = sync == S_NB || sync == S_NB_TEST, blk = sync == S_BLK;
  *ev = GEX_EVENT_INVALID;
#define CALL3(NAME, ...)                                        \
  do {                                                          \
    if (nb) {                                                   \
      *ev = NAME##NB(__VA_ARGS__);                              \
      return *ev == GEX_EVENT_NO_OP;                            \
    }                                                           \
    return blk ? NAME##Blocking(__VA_ARGS__) : NAME##NBI(__VA_ARGS__); \
  } while (0)
  if (d->kind == VM_VECTOR) {
    for (size_t i = 0; i < d->dcount; i++) c->dmv[i].gex_addr = dbase + d->doff[i], c->dmv[i].gex_len = d->dlen[i];
    for (size_t i = 0; i < d->scount; i++) c->smv[i].gex_addr = sbase + d->soff[i], c->smv[i].gex_len = d->slen[i];
    if (s->put)
      CALL3(gex_VIS_VectorPut, tm, pr, d->dcount, d->dcount ? c->dmv : NULL, d->scount, d->scount ? c->smv : NULL, f);
    else
      CALL3(gex_VIS_VectorGet, tm, d->dcount, d->dcount ? c->dmv : NULL, pr, d->scount, d->scount ? c->smv : NULL, f);
  } else if (d->kind == VM_INDEXED) {
    for (size_t i = 0; i < d->dcount; i++) c->didx[i] = dbase + d->doff[i];
    for (size_t i = 0; i < d->scount; i++) c->sidx[i] = sbase + d->soff[i];
    if (s->put)
      CALL3(gex_VIS_IndexedPut, tm, pr, d->dcount, d->dcount ? c->didx : NULL, d->dstlen, d->scount,
            d->scount ? c->sidx : NULL, d->srclen, f);
    else
      CALL3(gex_VIS_IndexedGet, tm, d->dcount, d->dcount ? c->didx : NULL, d->dstlen, pr, d->scount,
            d->scount ? c->sidx : NULL, d->srclen, f);
  } else {
    /* (the metadata is consumed by the call: copies that die with it) */
    size_t count[VM_MAXDIM];
    ptrdiff_t ds[VM_MAXDIM], ss[VM_MAXDIM];
    int empty = vm_empty(d);
    void *da = empty ? NULL : dbase + d->dbase, *sa = empty ? NULL : sbase + d->sbase;
    memcpy(count, d->count, sizeof(count));
    memcpy(ds, d->dstride, sizeof(ds));
    memcpy(ss, d->sstride, sizeof(ss));
    if (d->elemsz == 0) { /* (every other argument is ignored) */
      if (s->put) CALL3(gex_VIS_StridedPut, GEX_TM_INVALID, GEX_RANK_INVALID, NULL, NULL, NULL, NULL, 0, NULL, 5, f);
      else CALL3(gex_VIS_StridedGet, GEX_TM_INVALID, NULL, NULL, GEX_RANK_INVALID, NULL, NULL, 0, NULL, 5, f);
    }
    if (empty) tm = GEX_TM_INVALID, pr = GEX_RANK_INVALID; /* (an extent 0: tm, rank, addresses ignored) */
    if (s->put) CALL3(gex_VIS_StridedPut, tm, pr, da, ds, sa, ss, d->elemsz, count, d->levels, f);
    else CALL3(gex_VIS_StridedGet, tm, da, ds, pr, sa, ss, d->elemsz, count, d->levels, f);
  }
#undef CALL3
  return 0;
}

static void check_area(ctx_t *c, const spec_t *s, const uint8_t *got, const uint8_t *want, const char *what) {
  size_t bad = 0, first = 0;
  __atomic_add_fetch(&ex_checks, 1, __ATOMIC_RELAXED);
  for (size_t i = 0; i < AREA; i++)
    if (got[i] != want[i] && !bad++) first = i;
  if (bad) {
    char desc[512];
    vm_describe(&c->d, desc, sizeof(desc));
    ex_fail("%s %s, %s, peer %u%s, local side %s, flags 0x%x (seed %" PRIu64
            ", slot %d, op %u): %s: byte %zu is 0x%02x, expected 0x%02x (%zu bad bytes); %s",
            s->put ? "put" : "get", sync_names[s->sync], vm_kind_names[c->d.kind], (unsigned)s->peer,
            s->tm == ex_tm ? "" : " (another team)", s->heap ? "malloc'd" : "in the segment", (unsigned)s->flags,
            seed_base, c->slot, (unsigned)c->gen, what, first, got[first], want[first], bad, desc);
  }
}

/* The destination area (dst: its local address, or the peer's) as it is
 * now, into c->got. */
static void read_area(ctx_t *c, const spec_t *s, int remote, const uint8_t *local) {
  if (remote) gex_RMA_GetBlocking(ex_tm, c->got, s->peer, at(s->peer, slot_a(c->slot)), AREA, 0);
  else memcpy(c->got, local, AREA);
}

/* Run c->d as spec s says; everything checked. */
static void run_desc(ctx_t *c, const spec_t *s) {
  uint8_t *local = s->heap ? c->heap : at(ex_me, slot_b(c->slot));
  char *remote = at(s->peer, slot_a(c->slot));
  uint32_t gen = ++c->gen;
  uint32_t lseed = ex_seed(ex_me, (uint32_t)c->slot, gen, 0x4c), rseed = ex_seed(s->peer, (uint32_t)c->slot, gen, 0x52);
  uint32_t lseed2 = ex_seed(ex_me, (uint32_t)c->slot, gen, 0x4f); /* (the source overwritten after LC) */
  gex_Event_t ev;
  int rc, lc = s->put && (s->flags & GEX_FLAG_ENABLE_LEAF_LC) && s->sync != S_BLK && s->sync != S_REGION;
  int sync = s->sync;
  /* the two areas filled */
  ex_fill(local, AREA, lseed);
  ex_fill(c->pat, AREA, rseed);
  gex_RMA_PutBlocking(ex_tm, s->peer, remote, c->pat, AREA, 0);
  /* the model: exp = the destination after, srcpat = the source */
  if (s->put) {
    memcpy(c->exp, c->pat, AREA);
    ex_fill(c->srcpat, AREA, lseed);
  } else {
    ex_fill(c->exp, AREA, lseed);
    memcpy(c->srcpat, c->pat, AREA);
  }
  vm_apply(&c->d, c->exp, c->srcpat);
  for (int attempt = 0;; attempt++) {
    spec_t t = *s;
    if (attempt) t.flags &= ~(gex_Flags_t)GEX_FLAG_IMMEDIATE;
    if (sync == S_REGION) gex_NBI_BeginAccessRegion(0);
    rc = issue(c, &t, sync, s->put ? remote : (char *)local, s->put ? (char *)local : remote, &ev);
    if (sync == S_REGION) {
      gex_Event_t rev = gex_NBI_EndAccessRegion(0);
      CHECK(rev != GEX_EVENT_NO_OP, "gex_NBI_EndAccessRegion returned GEX_EVENT_NO_OP");
      gex_Event_Wait(rev);
    }
    if (!rc) break;
    /* a refusal: nothing done (the destination as it was filled) */
    CHECK(t.flags & GEX_FLAG_IMMEDIATE, "%s %s returned %d (no-op) without GEX_FLAG_IMMEDIATE",
          vm_kind_names[c->d.kind], sync_names[sync], rc);
    if (!(t.flags & GEX_FLAG_IMMEDIATE)) return;
    c->refusals++;
    if (s->put) {
      read_area(c, s, 1, local);
      check_area(c, s, c->got, c->pat, "the destination after an IMMEDIATE refusal");
    } else {
      ex_fill(c->got, AREA, lseed);
      check_area(c, s, local, c->got, "the destination after an IMMEDIATE refusal");
    }
  }
  /* completion */
  switch (sync) {
  case S_NB:
  case S_NB_TEST:
    if (lc) {
      gex_Event_t lev = gex_Event_QueryLeaf(ev, GEX_EC_LC);
      if (ev == GEX_EVENT_INVALID)
        CHECK(lev == GEX_EVENT_INVALID, "gex_Event_QueryLeaf(GEX_EVENT_INVALID, GEX_EC_LC) is not GEX_EVENT_INVALID");
      gex_Event_Wait(lev);
      if (gex_Event_Test(ev) != GASNET_OK) c->lc_early++;
      else ev = GEX_EVENT_INVALID; /* (a successful test synchronized it) */
      ex_fill(local, AREA, lseed2); /* (the source may be reused now) */
    }
    if (sync == S_NB) gex_Event_Wait(ev);
    else wait_until_ok(test_event, &ev, "gex_Event_Test of a VIS operation");
    break;
  case S_NBI:
  case S_NBI_TEST: {
    gex_EC_t ec = s->put ? GEX_EC_PUT : GEX_EC_GET;
    if (lc) {
      gex_NBI_Wait(GEX_EC_LC, 0);
      if (gex_NBI_Test(ec, 0) != GASNET_OK) c->lc_early++;
      ex_fill(local, AREA, lseed2);
    }
    if (sync == S_NBI) gex_NBI_Wait(ec, 0);
    else wait_until_ok(test_nbi, &ec, "gex_NBI_Test of a VIS operation");
    break;
  }
  default: break;
  }
  /* the destination: every byte */
  read_area(c, s, s->put, local);
  check_area(c, s, c->got, c->exp, "the destination");
  /* the source: unchanged */
  if (s->put) {
    ex_fill(c->pat, AREA, lc ? lseed2 : lseed);
    check_area(c, s, local, c->pat, lc ? "the source (overwritten after local completion)" : "the source");
  } else {
    gex_RMA_GetBlocking(ex_tm, c->got, s->peer, remote, AREA, 0);
    check_area(c, s, c->got, c->srcpat, "the source");
  }
}

static void gen_desc(ctx_t *c, int kind) {
  switch (kind) {
  case VM_VECTOR: vm_gen_vector(&c->rng, &c->d, AREA, AREA); break;
  case VM_INDEXED: vm_gen_indexed(&c->rng, &c->d, AREA, AREA); break;
  default: vm_gen_strided(&c->rng, &c->d, AREA, AREA, 0); break;
  }
}

static spec_t spec_of(int put, int sync, int heap, gex_Rank_t peer, gex_Flags_t flags) {
  spec_t s = {put, sync, heap, peer, ex_tm, peer, flags};
  return s;
}

/* Every combination -- put/get x sync x local side in/out x peer self/next
 * -- `rounds` random descriptions of each kind in kinds. */
static void all_forms(ctx_t *c, unsigned kinds, gex_TM_t tm, gex_Flags_t flags, int put_only, int nsync,
                      const int *syncs) {
  gex_Rank_t peers[2] = {ex_me, (ex_me + 1) % ex_n};
  for (int kind = 0; kind < VM_NKINDS; kind++) {
    if (!(kinds >> kind & 1)) continue;
    for (int put = 1; put >= (put_only ? 1 : 0); put--)
      for (int k = 0; k < nsync; k++)
        for (int heap = 0; heap < 2; heap++)
          for (int p = 0; p < 2; p++)
            for (unsigned r = 0; r < rounds; r++) {
              spec_t s = spec_of(put, syncs[k], heap, peers[p], flags);
              if (tm != ex_tm) {
                s.tm = tm;
                s.tmpeer = gex_TM_TranslateJobrankToRank(tm, peers[p]);
              }
              gen_desc(c, kind);
              run_desc(c, &s);
            }
  }
}

static const int every_sync[S_NSYNC] = {S_NB, S_NB_TEST, S_NBI, S_NBI_TEST, S_REGION, S_BLK};
static const int three_syncs[3] = {S_NB, S_NBI, S_BLK};

static ctx_t *main_ctx;
SUBTEST t_vector(void) { all_forms(main_ctx, 1u << VM_VECTOR, ex_tm, 0, 0, S_NSYNC, every_sync); }
SUBTEST t_indexed(void) { all_forms(main_ctx, 1u << VM_INDEXED, ex_tm, 0, 0, S_NSYNC, every_sync); }
SUBTEST t_strided(void) {
  for (int i = 0; i < 2; i++) all_forms(main_ctx, 1u << VM_STRIDED, ex_tm, 0, 0, S_NSYNC, every_sync);
}

/* ------------------------------------------------------------------ */
/* the degenerate and extreme descriptions, each in every form          */
/* ------------------------------------------------------------------ */
static int edge_desc(int k, vm_desc_t *d) {
  memset(d, 0, sizeof(*d));
  switch (k) {
  case 0: d->kind = VM_VECTOR; return 1; /* both lists empty (NULL) */
  case 1: /* entries of length 0 only, on both sides */
    d->kind = VM_VECTOR, d->dcount = 3, d->scount = 2;
    d->doff[0] = 5, d->doff[1] = 100, d->doff[2] = AREA - 1, d->soff[0] = 7, d->soff[1] = AREA - 1;
    return 1;
  case 2: /* one side empty-handed pieces around a real one, the other one piece */
    d->kind = VM_VECTOR, d->dcount = 4, d->scount = 1;
    d->doff[0] = 0, d->doff[1] = 10, d->dlen[1] = 300, d->doff[2] = 310, d->doff[3] = AREA - 1;
    d->soff[0] = AREA - 300, d->slen[0] = 300;
    return 1;
  case 3: /* byte-wise destination from one source piece */
    d->kind = VM_VECTOR, d->dcount = 64, d->scount = 1, d->slen[0] = 64, d->soff[0] = 1;
    for (size_t i = 0; i < 64; i++) d->doff[i] = AREA - 2 - 2 * i, d->dlen[i] = 1;
    return 1;
  case 4: d->kind = VM_INDEXED, d->dstlen = 8, d->srclen = 3; return 1; /* no entries */
  case 5: d->kind = VM_INDEXED, d->dcount = 4, d->scount = 2; return 1; /* entries of length 0 */
  case 6: /* one byte each side; then all source entries the same bytes */
    d->kind = VM_INDEXED, d->dcount = 1, d->scount = 1, d->dstlen = d->srclen = 1, d->doff[0] = AREA - 1;
    return 1;
  case 7:
    d->kind = VM_INDEXED, d->dcount = 3, d->dstlen = 40, d->scount = 10, d->srclen = 12;
    d->doff[0] = 200, d->doff[1] = 0, d->doff[2] = 100;
    for (size_t i = 0; i < 10; i++) d->soff[i] = 64;
    return 1;
  case 8: d->kind = VM_STRIDED, d->elemsz = 0, d->levels = 5; return 1; /* elemsz 0 */
  case 9: /* an extent 0 */
    d->kind = VM_STRIDED, d->elemsz = 8, d->levels = 3, d->count[0] = 4, d->count[1] = 0, d->count[2] = 2;
    d->dstride[0] = d->sstride[0] = 8, d->dstride[1] = d->sstride[1] = 32, d->dstride[2] = d->sstride[2] = 64;
    return 1;
  case 10: d->kind = VM_STRIDED, d->elemsz = 777, d->dbase = 3, d->sbase = 1000; return 1; /* stridelevels 0 */
  case 11: /* 10 dimensions of extent 2 but one of 1; the destination reflected in every one, the source's
             * dimensions in the reverse order */
    d->kind = VM_STRIDED, d->elemsz = 3, d->levels = 10;
    {
      ptrdiff_t sd = 4, ss = 3;
      for (size_t i = 0; i < 10; i++) {
        size_t j = 9 - i;
        d->count[i] = i == 5 ? 1 : 2;
        d->dstride[i] = i == 5 ? 12345 : -sd; /* (extent 1: a stride never used) */
        if (i != 5) sd *= 2;
        d->sstride[j] = j == 5 ? -999 : ss;
        if (j != 5) ss *= 2;
      }
      d->dbase = 2044 + 100; /* (the destination reaches down to dbase - 2044) */
      d->sbase = 0;
    }
    return 1;
  case 12: /* a 2-D transpose of 8-byte elements */
    d->kind = VM_STRIDED, d->elemsz = 8, d->levels = 2, d->count[0] = 7, d->count[1] = 5;
    d->dstride[0] = 8, d->dstride[1] = 56, d->sstride[0] = 40, d->sstride[1] = 8, d->dbase = 16, d->sbase = 24;
    return 1;
  case 13: /* a full reflection, the source with a stride of 0 (one chunk read five times) */
    d->kind = VM_STRIDED, d->elemsz = 16, d->levels = 2, d->count[0] = 5, d->count[1] = 3;
    d->dstride[0] = -16, d->dstride[1] = -100, d->sstride[0] = 0, d->sstride[1] = 16, d->dbase = 300, d->sbase = 8;
    return 1;
  default: return 0;
  }
}

SUBTEST t_edges(void) {
  ctx_t *c = main_ctx;
  gex_Rank_t peers[2] = {ex_me, (ex_me + 1) % ex_n};
  for (int k = 0; edge_desc(k, &c->d); k++)
    for (int put = 0; put < 2; put++)
      for (int sync = 0; sync < S_NSYNC; sync++)
        for (int p = 0; p < 2; p++) {
          spec_t s = spec_of(put, sync, (k + sync) & 1, peers[p], 0);
          edge_desc(k, &c->d);
          run_desc(c, &s);
        }
}

/* GEX_FLAG_ENABLE_LEAF_LC: the source overwritten once local completion is
 * signalled, the destination must hold the original data */
SUBTEST t_leaf_lc(void) {
  static const int syncs[2] = {S_NB, S_NBI};
  all_forms(main_ctx, 7, ex_tm, GEX_FLAG_ENABLE_LEAF_LC, 1, 2, syncs);
}

/* A burst of IMMEDIATE puts with no wait between (where resources are few
 * some are refused): 64 puts, each into its own 64-byte cell of the
 * destination area, Vector NBI and Strided NB in turn; afterwards the cells
 * of the accepted ones hold their data, the refused ones' are unchanged. */
static void imm_burst(ctx_t *c, gex_Rank_t peer) {
  char *remote = at(peer, slot_a(c->slot));
  uint8_t *local = at(ex_me, slot_b(c->slot));
  uint32_t gen = ++c->gen;
  uint32_t ls = ex_seed(ex_me, (uint32_t)c->slot, gen, 0x49), rs = ex_seed(peer, (uint32_t)c->slot, gen, 0x4a);
  gex_Memvec_t dl[64][2], sl[64];
  gex_Event_t ev[64];
  static const size_t count[1] = {4};
  static const ptrdiff_t dst_st[1] = {16}, src_st[1] = {8};
  long refused = 0;
  ex_fill(local, AREA, ls);
  ex_fill(c->pat, AREA, rs);
  gex_RMA_PutBlocking(ex_tm, peer, remote, c->pat, AREA, 0);
  memcpy(c->exp, c->pat, AREA);
  ex_fill(c->srcpat, AREA, ls);
  memset(&c->d, 0, sizeof(c->d));
  for (int k = 0; k < 64; k++) {
    size_t cell = (size_t)k * 64, soff = 4096 + (size_t)k * 32;
    int ok;
    ev[k] = GEX_EVENT_INVALID;
    if (k % 2 == 0) {
      dl[k][0].gex_addr = remote + cell, dl[k][0].gex_len = 8;
      dl[k][1].gex_addr = remote + cell + 20, dl[k][1].gex_len = 24;
      sl[k].gex_addr = local + soff, sl[k].gex_len = 32;
      ok = gex_VIS_VectorPutNBI(ex_tm, peer, 2, dl[k], 1, &sl[k], GEX_FLAG_IMMEDIATE) == 0;
      if (ok) memcpy(c->exp + cell, c->srcpat + soff, 8), memcpy(c->exp + cell + 20, c->srcpat + soff + 8, 24);
    } else {
      ev[k] = gex_VIS_StridedPutNB(ex_tm, peer, remote + cell, dst_st, local + soff, src_st, 8, count, 1,
                                   GEX_FLAG_IMMEDIATE);
      ok = ev[k] != GEX_EVENT_NO_OP;
      if (!ok) ev[k] = GEX_EVENT_INVALID;
      if (ok)
        for (size_t j = 0; j < 4; j++) memcpy(c->exp + cell + 16 * j, c->srcpat + soff + 8 * j, 8);
    }
    refused += !ok;
  }
  gex_Event_WaitAll(ev, 64, 0);
  gex_NBI_Wait(GEX_EC_PUT, 0);
  c->refusals += refused;
  {
    spec_t s = spec_of(1, S_NBI, 0, peer, GEX_FLAG_IMMEDIATE);
    char what[128];
    read_area(c, &s, 1, local);
    snprintf(what, sizeof(what), "the destination of an IMMEDIATE burst (64 puts, %ld refused)", refused);
    check_area(c, &s, c->got, c->exp, what);
  }
}

/* GEX_FLAG_IMMEDIATE: a refusal does nothing, then the operation again
 * without it */
SUBTEST t_immediate(void) {
  imm_burst(main_ctx, ex_me);
  imm_burst(main_ctx, (ex_me + 1) % ex_n);
  all_forms(main_ctx, 7, ex_tm, GEX_FLAG_IMMEDIATE, 0, 3, three_syncs);
  /* and with both flags on puts */
  all_forms(main_ctx, 7, ex_tm, GEX_FLAG_IMMEDIATE | GEX_FLAG_ENABLE_LEAF_LC, 1, 2, three_syncs);
}

/* the same operations on a team of the ranks in reverse order */
SUBTEST t_team(void) {
  gex_TM_t rev;
  gex_TM_Split(&rev, ex_tm, 0, (int)(ex_n - 1 - ex_me), NULL, 0, GEX_FLAG_TM_NO_SCRATCH);
  CHECK(rev != GEX_TM_INVALID, "gex_TM_Split returned GEX_TM_INVALID");
  if (rev == GEX_TM_INVALID) return;
  CHECK_EQ(gex_TM_QueryRank(rev), ex_n - 1 - ex_me, "my rank in the reversed team");
  CHECK_EQ(gex_TM_TranslateJobrankToRank(rev, (ex_me + 1) % ex_n), ex_n - 1 - (ex_me + 1) % ex_n,
           "the next rank's rank in the reversed team");
  all_forms(main_ctx, 7, rev, 0, 0, 3, three_syncs);
  ex_barrier();
  gex_TM_Destroy(rev, NULL, 0);
}

/* ------------------------------------------------------------------ */
/* peer completion                                                     */
/* ------------------------------------------------------------------ */
/* The k-th armed put from rank r to rank p (k counted per pair) writes
 * a description drawn from pc_rng(r, p, k) (both ends draw it) into r's
 * slot A at p, from a source with pattern pc_src_seed; its payload has
 * pc_size(r, p, k) bytes of pattern pc_pay_seed.  The handler, at p,
 * checks who sent it, that the put's bytes are there already, and the
 * payload; it counts arrivals in p's segment (CTL_OFF + 8 r), which r reads
 * right after its put completes. */
#define H_PC 130
static uint64_t pc_sent[EX_MAXN], pc_arrived[EX_MAXN]; /* (the handler's copy of the count too) */
static long pc_bad;
static vm_rng_t pc_rng(gex_Rank_t r, gex_Rank_t p, uint64_t k) {
  vm_rng_t g = {seed_base ^ (uint64_t)r << 40 ^ (uint64_t)p << 32 ^ (k * 0x9E3779B97F4A7C15ull)};
  (void)vm_next(&g);
  return g;
}
static uint32_t pc_src_seed(gex_Rank_t r, gex_Rank_t p, uint64_t k) { return ex_seed(r, p, (uint32_t)k, 0x5c); }
static uint32_t pc_pay_seed(gex_Rank_t r, gex_Rank_t p, uint64_t k) { return ex_seed(r, p, (uint32_t)k, 0x9a); }
static size_t pc_size(gex_Rank_t r, gex_Rank_t p, uint64_t k) {
  vm_rng_t g = pc_rng(r, p, k + 1000000);
  switch (k % 4) {
  case 0: return 0;
  case 1: return 1;
  case 2: return 2 + vm_below(&g, GEX_VIS_MAX_PEERCOMPLETION - 2);
  default: return GEX_VIS_MAX_PEERCOMPLETION;
  }
}
static void pc_desc(gex_Rank_t r, gex_Rank_t p, uint64_t k, vm_desc_t *d) {
  vm_rng_t g = pc_rng(r, p, k);
  do {
    switch (k % 3) {
    case 0: vm_gen_vector(&g, d, AREA, AREA); break;
    case 1: vm_gen_indexed(&g, d, AREA, AREA); break;
    default: vm_gen_strided(&g, d, AREA, AREA, 0); break;
    }
  } while (vm_empty(d)); /* (something to see at the peer) */
}
static void h_pc(gex_Token_t t, void *buf, size_t n) {
  gex_Token_Info_t info;
  gex_TI_t got = gex_Token_Info(t, &info, GEX_TI_SRCRANK | GEX_TI_IS_REQ | GEX_TI_ENTRY);
  gex_Rank_t r = info.gex_srcrank;
  uint64_t k;
  vm_desc_t d;
  static uint8_t want[AREA], src[AREA];
  const uint8_t *area;
  int bad = 0;
  if (!(got & GEX_TI_SRCRANK) || r >= ex_n || (r != ex_me && r != (ex_me + ex_n - 1) % ex_n)) {
    ex_fail("peer completion handler: from rank %u, expected %u or %u", (unsigned)r, (unsigned)ex_me,
            (unsigned)((ex_me + ex_n - 1) % ex_n));
    __atomic_add_fetch(&pc_bad, 1, __ATOMIC_RELAXED);
    return;
  }
  __atomic_add_fetch(&ex_checks, 1, __ATOMIC_RELAXED);
  if ((got & GEX_TI_IS_REQ) && info.gex_is_req)
    ex_fail("peer completion handler: gex_is_req %d", info.gex_is_req), bad++;
  if ((got & GEX_TI_ENTRY) && (!info.gex_entry || info.gex_entry->gex_index != H_PC))
    ex_fail("peer completion handler: gex_entry is not its own registration"), bad++;
  k = pc_arrived[r];
  CHECK_EQ(n, pc_size(r, ex_me, k), "peer completion payload size");
  if (n == pc_size(r, ex_me, k))
    bad += !ex_check_pat(buf, n, pc_pay_seed(r, ex_me, k), "peer completion payload from %u", (unsigned)r);
  /* the put's bytes, those it names (the rest is the initiator's check) */
  pc_desc(r, ex_me, k, &d);
  area = at(ex_me, slot_a(r * PAR_THREADS));
  memcpy(want, area, AREA);
  ex_fill(src, AREA, pc_src_seed(r, ex_me, k));
  vm_apply(&d, want, src);
  __atomic_add_fetch(&ex_checks, 1, __ATOMIC_RELAXED);
  if (memcmp(want, area, AREA)) {
    size_t i = 0;
    while (want[i] == area[i]) i++;
    ex_fail("peer completion handler (put %" PRIu64 " from rank %u): the put's data is not all there yet: byte %zu is "
            "0x%02x, expected 0x%02x",
            k, (unsigned)r, i, area[i], want[i]);
    bad++;
  }
  if (bad) __atomic_add_fetch(&pc_bad, 1, __ATOMIC_RELAXED);
  pc_arrived[r] = k + 1;
  __atomic_store_n((uint64_t *)at(ex_me, CTL_OFF + 8 * r), k + 1, __ATOMIC_RELEASE);
}

static uint64_t pc_count_at(gex_Rank_t p) {
  uint64_t v = 0;
  gex_RMA_GetBlocking(ex_tm, &v, p, at(p, CTL_OFF + 8 * ex_me), sizeof(v), 0);
  return v;
}

SUBTEST t_peer_completion(void) {
  ctx_t *c = main_ctx;
  gex_Rank_t peers[2] = {ex_me, (ex_me + 1) % ex_n};
  static uint8_t payload[GEX_VIS_MAX_PEERCOMPLETION];
  int np = ex_n == 1 ? 1 : 2;
  for (int i = 0; i < 24; i++)
    for (int pi = 0; pi < np; pi++) {
      gex_Rank_t p = peers[pi];
      uint64_t k = pc_sent[p];
      size_t n = pc_size(ex_me, p, k);
      int sync = three_syncs[(i / 2) % 3], heap = i & 1;
      spec_t s = spec_of(1, sync, heap, p, 0);
      pc_desc(ex_me, p, k, &c->d);
      ex_fill(payload, sizeof(payload), pc_pay_seed(ex_me, p, k));
      /* (the source: run_desc fills it from its own seeds; the handler
       * knows pc_src_seed: fill and run by hand) */
      {
        uint8_t *local = heap ? c->heap : at(ex_me, slot_b(c->slot));
        char *remote = at(p, slot_a(c->slot));
        gex_Event_t ev;
        int rc;
        ex_fill(local, AREA, pc_src_seed(ex_me, p, k));
        ex_fill(c->pat, AREA, ex_seed(p, (uint32_t)k, 1, 0x77));
        gex_RMA_PutBlocking(ex_tm, p, remote, c->pat, AREA, 0);
        memcpy(c->exp, c->pat, AREA);
        ex_fill(c->srcpat, AREA, pc_src_seed(ex_me, p, k));
        vm_apply(&c->d, c->exp, c->srcpat);
        if (i % 6 == 5) { /* (armed twice: the second arming counts) */
          gex_VIS_SetPeerCompletionHandler(H_PC, payload, 3, 0);
        }
        gex_VIS_SetPeerCompletionHandler(H_PC, n ? payload : NULL, n, 0);
        rc = issue(c, &s, sync, remote, (char *)local, &ev);
        CHECK(rc == 0, "an armed put returned %d", rc);
        pc_sent[p]++;
        if (sync == S_NB) gex_Event_Wait(ev);
        else if (sync == S_NBI) gex_NBI_Wait(GEX_EC_PUT, 0);
        /* synchronized: the handler has run */
        CHECK_EQ(pc_count_at(p), pc_sent[p], "handler runs at the peer once the armed put is complete");
        gex_RMA_GetBlocking(ex_tm, c->got, p, remote, AREA, 0);
        check_area(c, &s, c->got, c->exp, "the destination of an armed put");
      }
      /* armed, then disarmed: the next put has no handler */
      if (i % 4 == 3) {
        gex_VIS_SetPeerCompletionHandler(H_PC, payload, 7, 0);
        gex_VIS_SetPeerCompletionHandler(0, NULL, 0, 0);
        gen_desc(c, i % 3);
        run_desc(c, &s);
        CHECK_EQ(pc_count_at(p), pc_sent[p], "arrivals after a disarmed put");
      }
    }
  ex_barrier();
  {
    /* my sends, written into each peer's table; compared there */
    for (int pi = 0; pi < np; pi++) {
      gex_Rank_t p = peers[pi];
      gex_RMA_PutBlocking(ex_tm, p, at(p, CTL_OFF + 8 * EX_MAXN + 8 * ex_me), &pc_sent[p], 8, 0);
    }
    ex_barrier();
    for (gex_Rank_t r = 0; r < ex_n; r++) {
      uint64_t sent = *(volatile uint64_t *)at(ex_me, CTL_OFF + 8 * EX_MAXN + 8 * r);
      CHECK(sent == pc_arrived[r], "peer completions from rank %u: %" PRIu64 " sent, %" PRIu64 " handled",
            (unsigned)r, sent, pc_arrived[r]);
    }
    CHECK_EQ(pc_bad, 0, "handler invocations that found something wrong");
  }
}

/* ------------------------------------------------------------------ */
/* GASNET_PAR: threads at once                                         */
/* ------------------------------------------------------------------ */
#ifdef GASNET_PAR
#define PAR_OPS 40
static void *par_thread(void *arg) {
  ctx_t *c = arg;
  gex_Rank_t peers[2] = {ex_me, (ex_me + 1) % ex_n};
  for (int i = 0; i < PAR_OPS; i++) {
    int kind = (int)vm_below(&c->rng, VM_NKINDS);
    gex_Flags_t fl = vm_pct(&c->rng, 20) ? GEX_FLAG_IMMEDIATE : 0;
    spec_t s = spec_of((int)vm_below(&c->rng, 2), (int)vm_below(&c->rng, S_NSYNC), (int)vm_below(&c->rng, 2),
                       peers[vm_below(&c->rng, 2)], fl);
    if (s.put && s.sync <= S_NBI_TEST && vm_pct(&c->rng, 30)) s.flags |= GEX_FLAG_ENABLE_LEAF_LC;
    gen_desc(c, kind);
    run_desc(c, &s);
  }
  return NULL;
}
static void t_par(void) {
  pthread_t th[PAR_THREADS];
  ctx_t *cs[PAR_THREADS];
  for (int t = 0; t < PAR_THREADS; t++) {
    cs[t] = ctx_new((int)ex_me * PAR_THREADS + t, 0xa11 + (uint64_t)t);
    if (pthread_create(&th[t], NULL, par_thread, cs[t])) ex_fail("pthread_create failed");
  }
  for (int t = 0; t < PAR_THREADS; t++) {
    pthread_join(th[t], NULL);
    main_ctx->refusals += cs[t]->refusals, main_ctx->lc_early += cs[t]->lc_early;
    ctx_free(cs[t]);
  }
}
static const ex_subtest_t subtests[] = {
    {"par", t_par, "4 threads per process: random VIS operations of every form at once, each on its own areas"},
};
#else
static const ex_subtest_t subtests[] = {
    {"vector", t_vector, "Vector Put/Get NB/NBI/Blocking, every completion, local side in/out of segment, self, next"},
    {"indexed", t_indexed, "Indexed, the same; srclen != dstlen, lengths and counts of 0"},
    {"strided", t_strided, "Strided, the same; transposes, reflections, extents 1 and 0, elemsz 0, up to 10 dims"},
    {"edges", t_edges, "fixed degenerate descriptions (empty/NULL lists, elemsz 0, 10 dims, transpose), every form"},
    {"leaf_lc", t_leaf_lc, "GEX_FLAG_ENABLE_LEAF_LC on puts: source overwritten after LC, destination the original"},
    {"immediate", t_immediate, "GEX_FLAG_IMMEDIATE: a refusal does nothing (then retried without); with LEAF_LC too"},
    {"team", t_team, "every form on a team of reversed ranks (gex_TM_Split): team ranks translated"},
    {"peer_completion", t_peer_completion,
     "gex_VIS_SetPeerCompletionHandler: payloads 0..MAX, handler sees the data, runs before sync; disarm"},
};
#endif
#define NSUBTESTS ((int)EX_ARRAY_LEN(subtests))

static gex_AM_Entry_t table[] = {
    {EX_H_RESULT, (gex_AM_Fn_t)ex_h_result, GEX_FLAG_AM_SHORT | GEX_FLAG_AM_REQUEST, 3, NULL, "result"},
    {H_PC, (gex_AM_Fn_t)h_pc, GEX_FLAG_AM_MEDIUM | GEX_FLAG_AM_REPLY, 0, NULL, "peer_completion"},
};

static void final_report(void) {
  if (ex_me == 0 && main_ctx)
    printf("# %s: immediate refusals %ld (rank 0; LEAF_LC signalled before completion %ld times; seed %" PRIu64 ")\n",
           ex_prog, main_ctx->refusals, main_ctx->lc_early, seed_base);
}

/* ------------------------------------------------------------------ */
/* bad input: one invalid call, from rank 0                            */
/* ------------------------------------------------------------------ */
static const char *const bad_modes[][2] = {
    {"totals_differ", "gex_VIS_VectorPutBlocking whose lists describe 48 and 40 bytes"},
    {"out_of_segment", "gex_VIS_IndexedPutNBI with one destination entry past the peer's segment"},
    {"out_of_segment_same", "gex_VIS_IndexedGetNBI of lists of one length, one source entry past the peer's segment"},
    {"lc_on_get", "gex_VIS_StridedGetNB with GEX_FLAG_ENABLE_LEAF_LC"},
    {"unknown_flag", "gex_VIS_VectorGetNBI with a flag bit no VIS call takes"},
    {"pc_then_get", "gex_VIS_SetPeerCompletionHandler armed, then gex_VIS_IndexedGetBlocking"},
};
static void expect(const char *kind, const char *text) {
  printf("EXPECT %s %s\n", kind, text);
  fflush(stdout);
}
static int run_bad(const char *mode) {
  gex_Rank_t peer = (ex_me + 1) % ex_n;
  char *r = at(peer, slot_a(0)), *l = at(ex_me, slot_b(0));
  ex_barrier();
  if (ex_me != 0) {
    static volatile int never;
    while (!never) gasnet_AMPoll();
  }
  if (!strcmp(mode, "totals_differ")) {
    gex_Memvec_t d[2] = {{r, 16}, {r + 100, 32}}, s[2] = {{l, 20}, {l + 50, 20}};
    expect("sub", "gex_VIS_VectorPutBlocking");
    expect("word", "48");
    expect("word", "40");
    gex_VIS_VectorPutBlocking(ex_tm, peer, 2, d, 2, s, 0);
  } else if (!strcmp(mode, "out_of_segment")) {
    void *d[3] = {r, r + 64, (char *)ex_segs[peer].addr + ex_segs[peer].size + 64}, *s[1] = {l};
    expect("sub", "gex_VIS_IndexedPutNBI");
    expect("sub", "segment");
    gex_VIS_IndexedPutNBI(ex_tm, peer, 3, d, 8, 1, s, 24, 0);
  } else if (!strcmp(mode, "out_of_segment_same")) {
    void *s[4] = {r, r + 64, (char *)ex_segs[peer].addr + ex_segs[peer].size - 4, r + 128}, *d[4] = {l, l + 8, l + 16, l + 24};
    expect("sub", "gex_VIS_IndexedGetNBI");
    expect("sub", "segment");
    gex_VIS_IndexedGetNBI(ex_tm, 4, d, 8, peer, 4, s, 8, 0);
    gex_NBI_Wait(GEX_EC_GET, 0);
  } else if (!strcmp(mode, "lc_on_get")) {
    size_t count[1] = {4};
    ptrdiff_t st[1] = {16};
    expect("sub", "gex_VIS_StridedGetNB");
    expect("sub", "GEX_FLAG_ENABLE_LEAF_LC");
    gex_Event_Wait(gex_VIS_StridedGetNB(ex_tm, l, st, peer, r, st, 8, count, 1, GEX_FLAG_ENABLE_LEAF_LC));
  } else if (!strcmp(mode, "unknown_flag")) {
    gex_Memvec_t d[1] = {{l, 8}}, s[1] = {{r, 8}};
    expect("sub", "gex_VIS_VectorGetNBI");
    expect("sub", "flags");
    gex_VIS_VectorGetNBI(ex_tm, 1, d, peer, 1, s, (gex_Flags_t)1 << 30);
  } else if (!strcmp(mode, "pc_then_get")) {
    void *d[1] = {l}, *s[1] = {r};
    expect("sub", "gex_VIS_IndexedGetBlocking");
    expect("sub", "peer");
    expect("sub", "completion");
    gex_VIS_SetPeerCompletionHandler(H_PC, NULL, 0, 0);
    gex_VIS_IndexedGetBlocking(ex_tm, 1, d, 8, peer, 1, s, 8, 0);
  } else {
    fprintf(stderr, "exvis: unknown bad-input mode \"%s\"\n", mode);
    return 2;
  }
  gex_NBI_Wait(GEX_EC_ALL, 0);
  printf("exvis: the bad call (%s) returned: no error\n", mode);
  return 0;
}

int main(int argc, char **argv) {
  int code;
  const char *bad, *v;
#ifdef GASNET_PAR
  ex_prog = "exvis_par";
#else
  ex_prog = "exvis";
#endif
  bad = ex_bad_options(argc, argv, subtests, NSUBTESTS, bad_modes, EX_ARRAY_LEN(bad_modes));
  if ((v = getenv("EXVIS_SEED")) && *v) seed_base = strtoull(v, NULL, 0);
  if ((v = getenv("EXVIS_ROUNDS")) && *v) rounds = (unsigned)atoi(v);
  ex_pat_init();
  ex_startup(&argc, &argv, "EXVIS", table, EX_ARRAY_LEN(table), SEG_SIZE);
  if (bad) {
    code = run_bad(bad);
    gasnet_exit(code);
    return code;
  }
  if (ex_me == 0) {
    printf("# %s: seed %" PRIu64 " (EXVIS_SEED), %u rounds per combination (EXVIS_ROUNDS), STAGEPORT_VIS_OPT=%s\n",
           ex_prog, seed_base, rounds, getenv("STAGEPORT_VIS_OPT") ? getenv("STAGEPORT_VIS_OPT") : "(unset)");
    fflush(stdout);
  }
  main_ctx = ctx_new((int)ex_me * PAR_THREADS, 0);
  code = ex_run(argc, argv, subtests, NSUBTESTS, NULL, NULL, final_report);
  gasnet_exit(code);
  return code;
}
