/*
 * vis1.c -- GASNet-1's VIS calls (gasnet_vis.h): every
 * gasnet_{put,get}{v,i,s}_{bulk,nb_bulk,nbi_bulk} against the byte model of
 * tests/vismodel.h, as tests/exvis does for GASNet-EX: both areas filled
 * with patterns naming owner, slot, operation and offset; after each
 * operation every byte of the destination area checked (the named bytes
 * hold their source bytes, the rest unchanged) and the source area too.
 * Random descriptions (seed VIS1_SEED, printed): Vector and Indexed as
 * exvis's (entries of length 0, empty lists, the sides cut differently);
 * Strided in GASNet-1's metadata (count[0] the chunk's bytes,
 * count[1..stridelevels] the extents, size_t strides, increasing); the
 * local side in the segment and out of it, the peer the next node and the
 * node itself.  A plain GASNet-1 client: gasnet_init, gasnet_attach.
 *
 * Output as the exconf.h programs': "# vis1: stage=S ranks=N", then one
 * "ok NAME (N checks)" or "not ok NAME" line per subtest from node 0,
 * "FAIL NAME: node N: ..." for each failure (a few per node).
 *
 * Usage: mpirun -np N vis1 [SUBTEST...]     (vis1 --list)
 */
#include <gasnet.h>
#include <gasnet_vis.h>

#if defined(__has_include)
#if __has_include(<stageport.h>)
#include <stageport.h>
#define VIS1_HAVE_STAGEPORT_H 1
#endif
#endif

#include <inttypes.h>
#include <stdlib.h>

#include "vismodel.h"

#define AREA 8192
#define SLOT (2 * AREA)
#define MAXN 16
#define CTL_OFF 0 /* per node: its failures and checks of the running subtest */
#define SLOTS_OFF 4096
#define SEG_SIZE (SLOTS_OFF + MAXN * SLOT)

static gasnet_node_t me, nn;
static gasnet_seginfo_t segs[MAXN];
static uint64_t seed = 2026;
static const char *cur = "startup";
static long fails, checks;

static void *at(gasnet_node_t n, size_t off) { return (char *)segs[n].addr + off; }
static size_t slot_a(gasnet_node_t n) { return SLOTS_OFF + (size_t)n * SLOT; }
static size_t slot_b(gasnet_node_t n) { return SLOTS_OFF + (size_t)n * SLOT + AREA; }

static uint8_t pat_of(uint32_t s, size_t i) {
  uint64_t x = ((uint64_t)s << 32 | (uint32_t)i) * 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  return (uint8_t)(x >> 56);
}
static void fill(uint8_t *p, uint32_t s) {
  for (size_t i = 0; i < AREA; i++) p[i] = pat_of(s, i);
}
static uint32_t seed_of(uint32_t owner, uint32_t slot, uint32_t gen, uint32_t what) {
  return (owner * 0x85EBCA6Bu) ^ (slot * 0xC2B2AE35u) ^ (gen * 0x27D4EB2Fu) ^ (what * 0x165667B1u);
}

enum { F_BULK, F_NB, F_NBI, F_N };
static const char *const form_names[F_N] = {"_bulk", "_nb_bulk", "_nbi_bulk"};

static uint8_t *heap, exp_[AREA], got[AREA], pat[AREA], srcpat[AREA];
static vm_desc_t d;
static gasnet_memvec_t dmv[VM_MAXENT], smv[VM_MAXENT];
static void *didx[VM_MAXENT], *sidx[VM_MAXENT];
static uint32_t gen;
static vm_rng_t rng;

static void check_area(const uint8_t *g, const uint8_t *w, int put, int form, int inheap, gasnet_node_t peer,
                       const char *what) {
  size_t bad = 0, first = 0;
  checks++;
  for (size_t i = 0; i < AREA; i++)
    if (g[i] != w[i] && !bad++) first = i;
  if (bad && ++fails <= 10) {
    char desc[512];
    vm_describe(&d, desc, sizeof(desc));
    printf("FAIL %s: node %u: gasnet_%s%c%s to/from %u, local side %s (seed %" PRIu64 ", op %u): %s: byte %zu is "
           "0x%02x, expected 0x%02x (%zu bad bytes); %s\n",
           cur, (unsigned)me, put ? "put" : "get", "vis"[d.kind], form_names[form], (unsigned)peer,
           inheap ? "malloc'd" : "in the segment", seed, (unsigned)gen, what, first, g[first], w[first], bad, desc);
    fflush(stdout);
  }
}

/* one operation of description d */
static void run_one(int put, int form, int inheap, gasnet_node_t peer) {
  uint8_t *local = inheap ? heap : at(me, slot_b(me));
  char *remote = at(peer, slot_a(me));
  char *db = put ? remote : (char *)local, *sb = put ? (char *)local : remote;
  uint32_t ls = seed_of(me, me, ++gen, 1), rs = seed_of(peer, me, gen, 2);
  gasnet_handle_t h = GASNET_INVALID_HANDLE;
  fill(local, ls);
  fill(pat, rs);
  gasnet_put_bulk(peer, remote, pat, AREA);
  if (put) memcpy(exp_, pat, AREA), fill(srcpat, ls);
  else fill(exp_, ls), memcpy(srcpat, pat, AREA);
  vm_apply(&d, exp_, srcpat);
  if (d.kind == VM_VECTOR) {
    for (size_t i = 0; i < d.dcount; i++) dmv[i].addr = db + d.doff[i], dmv[i].len = d.dlen[i];
    for (size_t i = 0; i < d.scount; i++) smv[i].addr = sb + d.soff[i], smv[i].len = d.slen[i];
    gasnet_memvec_t *dl = d.dcount ? dmv : NULL, *sl = d.scount ? smv : NULL;
    if (put) {
      if (form == F_BULK) gasnet_putv_bulk(peer, d.dcount, dl, d.scount, sl);
      else if (form == F_NB) h = gasnet_putv_nb_bulk(peer, d.dcount, dl, d.scount, sl);
      else gasnet_putv_nbi_bulk(peer, d.dcount, dl, d.scount, sl);
    } else {
      if (form == F_BULK) gasnet_getv_bulk(d.dcount, dl, peer, d.scount, sl);
      else if (form == F_NB) h = gasnet_getv_nb_bulk(d.dcount, dl, peer, d.scount, sl);
      else gasnet_getv_nbi_bulk(d.dcount, dl, peer, d.scount, sl);
    }
  } else if (d.kind == VM_INDEXED) {
    for (size_t i = 0; i < d.dcount; i++) didx[i] = db + d.doff[i];
    for (size_t i = 0; i < d.scount; i++) sidx[i] = sb + d.soff[i];
    void **dl = d.dcount ? didx : NULL, **sl = d.scount ? sidx : NULL;
    if (put) {
      if (form == F_BULK) gasnet_puti_bulk(peer, d.dcount, dl, d.dstlen, d.scount, sl, d.srclen);
      else if (form == F_NB) h = gasnet_puti_nb_bulk(peer, d.dcount, dl, d.dstlen, d.scount, sl, d.srclen);
      else gasnet_puti_nbi_bulk(peer, d.dcount, dl, d.dstlen, d.scount, sl, d.srclen);
    } else {
      if (form == F_BULK) gasnet_geti_bulk(d.dcount, dl, d.dstlen, peer, d.scount, sl, d.srclen);
      else if (form == F_NB) h = gasnet_geti_nb_bulk(d.dcount, dl, d.dstlen, peer, d.scount, sl, d.srclen);
      else gasnet_geti_nbi_bulk(d.dcount, dl, d.dstlen, peer, d.scount, sl, d.srclen);
    }
  } else {
    /* GASNet-1's metadata: count[0] the chunk, count[1..] the extents */
    size_t count[VM_MAXDIM + 1], ds[VM_MAXDIM], ss[VM_MAXDIM];
    char *da = db + d.dbase, *sa = sb + d.sbase;
    count[0] = d.elemsz;
    for (size_t i = 0; i < d.levels; i++)
      count[i + 1] = d.count[i], ds[i] = (size_t)d.dstride[i], ss[i] = (size_t)d.sstride[i];
    if (put) {
      if (form == F_BULK) gasnet_puts_bulk(peer, da, ds, sa, ss, count, d.levels);
      else if (form == F_NB) h = gasnet_puts_nb_bulk(peer, da, ds, sa, ss, count, d.levels);
      else gasnet_puts_nbi_bulk(peer, da, ds, sa, ss, count, d.levels);
    } else {
      if (form == F_BULK) gasnet_gets_bulk(da, ds, peer, sa, ss, count, d.levels);
      else if (form == F_NB) h = gasnet_gets_nb_bulk(da, ds, peer, sa, ss, count, d.levels);
      else gasnet_gets_nbi_bulk(da, ds, peer, sa, ss, count, d.levels);
    }
  }
  if (form == F_NB) gasnet_wait_syncnb(h);
  else if (form == F_NBI) {
    if (put) gasnet_wait_syncnbi_puts();
    else gasnet_wait_syncnbi_gets();
  }
  if (put) gasnet_get_bulk(got, peer, remote, AREA);
  else memcpy(got, local, AREA);
  check_area(got, exp_, put, form, inheap, peer, "the destination");
  if (put) {
    fill(pat, ls);
    check_area(local, pat, put, form, inheap, peer, "the source");
  } else {
    gasnet_get_bulk(got, peer, remote, AREA);
    check_area(got, srcpat, put, form, inheap, peer, "the source");
  }
}

static void run_kind(int kind) {
  gasnet_node_t peers[2] = {me, (gasnet_node_t)((me + 1) % nn)};
  for (int put = 0; put < 2; put++)
    for (int form = 0; form < F_N; form++)
      for (int inheap = 0; inheap < 2; inheap++)
        for (int p = 0; p < 2; p++)
          for (int r = 0; r < 3; r++) {
            if (kind == VM_VECTOR) vm_gen_vector(&rng, &d, AREA, AREA);
            else if (kind == VM_INDEXED) vm_gen_indexed(&rng, &d, AREA, AREA);
            else vm_gen_strided(&rng, &d, AREA, AREA, 1);
            run_one(put, form, inheap, peers[p]);
          }
}
static void t_vector(void) { run_kind(VM_VECTOR); }
static void t_indexed(void) { run_kind(VM_INDEXED); }
static void t_strided(void) { run_kind(VM_STRIDED); }

static const struct {
  const char *name;
  void (*fn)(void);
  const char *about;
} subtests[] = {
    {"vector", t_vector, "gasnet_{put,get}v_{bulk,nb_bulk,nbi_bulk}: lists cut differently, lengths and lists of 0"},
    {"indexed", t_indexed, "gasnet_{put,get}i_{bulk,nb_bulk,nbi_bulk}: srclen != dstlen, lengths and counts of 0"},
    {"strided", t_strided, "gasnet_{put,get}s_{bulk,nb_bulk,nbi_bulk}: count[0] the chunk's bytes, up to 5 levels"},
};
#define NSUB ((int)(sizeof(subtests) / sizeof(subtests[0])))

static void barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}

int main(int argc, char **argv) {
  char sel[NSUB];
  int nsel = 0, nfailed = 0;
  const char *v;
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--list") || !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: mpirun -np N vis1 [SUBTEST...]\nsubtests:\n");
      for (int k = 0; k < NSUB; k++) printf("  %-10s %s\n", subtests[k].name, subtests[k].about);
      return 0;
    }
  if ((v = getenv("VIS1_SEED")) && *v) seed = strtoull(v, NULL, 0);
  if (gasnet_init(&argc, &argv) != GASNET_OK) {
    fprintf(stderr, "vis1: gasnet_init failed\n");
    return 1;
  }
  if (gasnet_attach(NULL, 0, (SEG_SIZE + GASNET_PAGESIZE - 1) & ~(uintptr_t)(GASNET_PAGESIZE - 1), 0) != GASNET_OK) {
    fprintf(stderr, "vis1: gasnet_attach failed\n");
    gasnet_exit(1);
  }
  me = gasnet_mynode();
  nn = gasnet_nodes();
  if (nn > MAXN) {
    if (me == 0) fprintf(stderr, "vis1: at most %d nodes\n", MAXN);
    gasnet_exit(2);
  }
  gasnet_getSegmentInfo(segs, (int)nn);
  memset(sel, 0, sizeof(sel));
  for (int i = 1; i < argc; i++) {
    int found = 0;
    for (int k = 0; k < NSUB; k++)
      if (!strcmp(argv[i], subtests[k].name)) sel[k] = 1, found = 1;
    if (!found) {
      if (me == 0) fprintf(stderr, "vis1: unknown subtest \"%s\" (vis1 --list)\n", argv[i]);
      gasnet_exit(2);
    }
    nsel++;
  }
  if (!nsel) memset(sel, 1, sizeof(sel));
  heap = malloc(AREA);
  if (!heap) gasnet_exit(1);
  rng.s = seed * 0x100000001B3ull ^ (uint64_t)me << 24;
  if (me == 0) {
#ifdef VIS1_HAVE_STAGEPORT_H
    printf("# vis1: stage=%s ranks=%u seed %" PRIu64 " (VIS1_SEED)\n", stageport_stage(), (unsigned)nn, seed);
#else
    printf("# vis1: ranks=%u seed %" PRIu64 " (VIS1_SEED)\n", (unsigned)nn, seed);
#endif
    fflush(stdout);
  }
  for (int k = 0; k < NSUB; k++) {
    int64_t mine[2];
    if (!sel[k]) continue;
    cur = subtests[k].name;
    fails = checks = 0;
    barrier();
    subtests[k].fn();
    if (!checks) printf("FAIL %s: node %u: no check made\n", cur, (unsigned)me), fails++;
    mine[0] = fails, mine[1] = checks;
    gasnet_put_bulk(0, at(0, CTL_OFF + 16 * me), mine, sizeof(mine));
    barrier();
    if (me == 0) {
      int64_t f = 0, c = 0;
      const int64_t *tab = at(0, CTL_OFF);
      for (gasnet_node_t n = 0; n < nn; n++) f += tab[2 * n], c += tab[2 * n + 1];
      if (f) printf("not ok %s: %" PRId64 " failure(s)\n", cur, f), nfailed++;
      else printf("ok %s (%" PRId64 " checks)\n", cur, c);
      fflush(stdout);
    }
    barrier();
  }
  if (me == 0) printf("# vis1: %d failed\n", nfailed);
  fflush(stdout);
  { /* node 0's verdict to everybody, through its segment */
    int64_t verdict = 0;
    if (me == 0) *(volatile int64_t *)at(0, CTL_OFF + 16 * MAXN) = nfailed;
    barrier();
    gasnet_get_bulk(&verdict, 0, at(0, CTL_OFF + 16 * MAXN), sizeof(verdict));
    nfailed = (int)verdict;
  }
  free(heap);
  gasnet_exit(nfailed ? 1 : 0);
  return 0;
}
