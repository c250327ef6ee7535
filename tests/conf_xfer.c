/*
 * conf_xfer.c -- Extended API subtests: every put/get/memset/value variant
 * over a table of sizes, alignments and local buffer kinds, to every node
 * including this one; every synchronization call; access regions; more
 * than 2^16-1 outstanding operations; source reuse; visibility;
 * out-of-segment memory unmapped and mapped again at the same address.
 *
 * Data is checked twice: by the initiator (a blocking get of what it put,
 * or the bytes it got, with guard bytes around) and by the target, which
 * after a barrier checks its own segment with local loads, including the
 * untouched bytes between the destinations.
 */
#include "conf.h"

#include <errno.h>
#include <sched.h>
#include <sys/mman.h>
#if __has_include(<stageport.h>)
#include <stageport.h>
#endif

#define BG 0xEE /* background of destination areas */
#define LG 0xA5 /* background of local get buffers */
#define PAGE ((uintptr_t)GASNET_PAGESIZE)

enum { V_BLOCKING, V_BULK, V_NB, V_NB_BULK, V_NBI, V_NBI_BULK, NV };
static const char *const vname[NV] = {"blocking", "bulk", "nb", "nb_bulk", "nbi", "nbi_bulk"};
#define IS_BULK(v) ((v) == V_BULK || (v) == V_NB_BULK || (v) == V_NBI_BULK)

enum { L_SEG, L_MALLOC, L_STACK, NKINDS };
static const char *const kname[NKINDS] = {"segment", "malloc", "stack"};

typedef struct {
  size_t n;
  uintptr_t ralign, lalign; /* offsets from a page boundary */
  int kind;
} xcase_t;

#define BIG ((size_t)1048579) /* 1 MiB + 3: bigger than any chunk */
static const xcase_t cases[] = {
    {0, 0, 0, L_SEG},          {1, 1, 3, L_MALLOC},        {2, 2, 1, L_STACK},          {3, 5, 2, L_SEG},
    {7, 3, 5, L_MALLOC},       {8, 4, 1, L_STACK},         {9, 7, 0, L_SEG},            {31, 1, 6, L_MALLOC},
    {64, 0, 3, L_STACK},       {16, PAGE - 8, PAGE - 8, L_MALLOC} /* crosses a page on both sides */,
    {4096, 1, 7, L_STACK},     {4096, 0, 0, L_SEG},        {65537, 5, 3, L_MALLOC},     {100003, 2, 4, L_SEG},
    {BIG, 3, 1, L_SEG} /* kind alternates with the variant */,
};
#define NCASES ((int)ARRAY_LEN(cases))
#define STACKBUF (8 * 4096)

typedef struct {
  size_t n;
  uintptr_t roff, loff; /* remote offset in the area, local offset in the kind's buffer */
  int kind;
} xplace_t;
typedef struct {
  xplace_t c[NCASES];
  uintptr_t rtotal, ltotal[NKINDS];
} xlayout_t;

/* Place the cases: each starts on a fresh page plus its alignment offset;
 * non-bulk variants use 8-byte aligned addresses (the specification asks
 * for addresses aligned for the transfer size). */
static void layout(xlayout_t *L, int v, int aligned_only) {
  uintptr_t r = 0, l[NKINDS] = {0, 0, 0};
  for (int k = 0; k < NCASES; k++) {
    xplace_t *p = &L->c[k];
    uintptr_t ra = cases[k].ralign, la = cases[k].lalign;
    if (aligned_only) ra &= ~(uintptr_t)7, la &= ~(uintptr_t)7;
    p->n = cases[k].n;
    p->kind = cases[k].n == BIG ? (v % 2 ? L_MALLOC : L_SEG) : cases[k].kind;
    r = (r + PAGE - 1) & ~(PAGE - 1);
    p->roff = r + ra;
    r = p->roff + p->n + 64;
    l[p->kind] = (l[p->kind] + PAGE - 1) & ~(PAGE - 1);
    p->loff = l[p->kind] + la;
    l[p->kind] = p->loff + p->n + 64;
  }
  L->rtotal = r;
  for (int i = 0; i < NKINDS; i++) L->ltotal[i] = l[i];
  if (r > HALF || l[L_STACK] > STACKBUF || l[L_SEG] > HALF) {
    fprintf(stderr, "conf_xfer: internal error: layout does not fit\n");
    gasnet_exit(3);
  }
}

/* local buffers of the three kinds */
typedef struct {
  uint8_t *base[NKINDS];
} xbufs_t;
static void bufs_init(xbufs_t *B, const xlayout_t *L, uint8_t *stackbuf) {
  B->base[L_SEG] = MYSCRATCH;
  B->base[L_MALLOC] = conf_malloc_aligned(PAGE, L->ltotal[L_MALLOC]);
  B->base[L_STACK] = stackbuf;
}
#define LPTR(B, p) ((B)->base[(p)->kind] + (p)->loff)

/* Check one area laid out by L (remote offsets, or with kind >= 0 the
 * local offsets of that buffer kind): each case holds the pattern of
 * conf_seed(src, dst, case, tag) -- or, for memset, the byte memset_val[case]
 * -- and everything between and after the cases is still `bg`. */
static void check_layout(const uint8_t *area, const xlayout_t *L, uintptr_t total, int kind, uint8_t bg,
                         gasnet_node_t src, gasnet_node_t dst, uint32_t tag, const int *memset_val, const char *what) {
  uintptr_t pos = 0;
  for (int k = 0; k < NCASES; k++) {
    const xplace_t *p = &L->c[k];
    uintptr_t off = kind < 0 ? p->roff : p->loff;
    if (kind >= 0 && p->kind != kind) continue;
    conf_check_byte(area + pos, off - pos, bg, "%s: bytes before case %d (%zu bytes at offset %#jx) changed", what, k,
                    p->n, (uintmax_t)off);
    if (memset_val)
      conf_check_byte(area + off, p->n, (uint8_t)memset_val[k], "%s: case %d (%zu bytes at offset %#jx)", what, k, p->n,
                      (uintmax_t)off);
    else
      conf_check_pat(area + off, p->n, conf_seed(src, dst, (uint32_t)k, tag), "%s: case %d (%zu bytes at offset %#jx)",
                     what, k, p->n, (uintmax_t)off);
    pos = off + p->n;
  }
  conf_check_byte(area + pos, total - pos, bg, "%s: bytes after the last case changed", what);
}

/* ------------------------------------------------------------------ */
/* put engine                                                          */
/* ------------------------------------------------------------------ */
/* Complete the NCASES operations of a non-blocking variant v (handles h for
 * the nb ones): puts' handles waited for in issue order, gets' in reverse. */
static void sync_cases(int v, gasnet_handle_t *h, int gets) {
  switch (v) {
    case V_NB:
      for (int k = 0; k < NCASES; k++) gasnet_wait_syncnb(h[gets ? NCASES - 1 - k : k]);
      break;
    case V_NB_BULK:
      gasnet_wait_syncnb_all(h, NCASES);
      for (int k = 0; k < NCASES; k++) CHECK(h[k] == GASNET_INVALID_HANDLE, "wait_syncnb_all left handle %d valid", k);
      break;
    case V_NBI:
      if (gets)
        gasnet_wait_syncnbi_gets();
      else
        gasnet_wait_syncnbi_puts();
      break;
    case V_NBI_BULK: gasnet_wait_syncnbi_all(); break;
    default: break;
  }
}

static void put_engine(int v) {
  xlayout_t L;
  xbufs_t B;
  uint8_t stackbuf[STACKBUF];
  gasnet_handle_t h[NCASES];
  uint32_t tag = 1000 + (uint32_t)v;
  layout(&L, v, !IS_BULK(v));
  bufs_init(&B, &L, stackbuf);
  uint8_t *tmp = conf_malloc(BIG + 8);
  for (gasnet_node_t s = 0; s < conf_nodes; s++) memset(AREA(conf_me, s), BG, L.rtotal);
  conf_barrier();
  for (gasnet_node_t j = 1; j <= conf_nodes; j++) {
    gasnet_node_t t = (conf_me + j) % conf_nodes; /* this node last */
    for (int k = 0; k < NCASES; k++) {
      const xplace_t *p = &L.c[k];
      uint8_t *src = LPTR(&B, p), *dst = AREA(t, conf_me) + p->roff;
      conf_fill(src, p->n, conf_seed(conf_me, t, (uint32_t)k, tag));
      h[k] = GASNET_INVALID_HANDLE;
      switch (v) {
        case V_BLOCKING: gasnet_put(t, dst, src, p->n); break;
        case V_BULK: gasnet_put_bulk(t, dst, src, p->n); break;
        case V_NB: h[k] = gasnet_put_nb(t, dst, src, p->n); break;
        case V_NB_BULK: h[k] = gasnet_put_nb_bulk(t, dst, src, p->n); break;
        case V_NBI: gasnet_put_nbi(t, dst, src, p->n); break;
        case V_NBI_BULK: gasnet_put_nbi_bulk(t, dst, src, p->n); break;
      }
      /* non-bulk: the source may be overwritten as soon as the call returns */
      if (!IS_BULK(v)) memset(src, 0x11, p->n);
    }
    sync_cases(v, h, 0);
    /* a get after the completed put sees the new data */
    for (int k = 0; k < NCASES; k++) {
      const xplace_t *p = &L.c[k];
      memset(tmp, LG, p->n);
      gasnet_get_bulk(tmp, t, AREA(t, conf_me) + p->roff, p->n);
      conf_check_pat(tmp, p->n, conf_seed(conf_me, t, (uint32_t)k, tag),
                     "put_%s to node %u, case %d (%zu bytes, %s source, remote offset %#jx), read back with get_bulk",
                     vname[v], (unsigned)t, k, p->n, kname[p->kind], (uintmax_t)p->roff);
    }
  }
  conf_barrier();
  /* the target's view, with local loads */
  for (gasnet_node_t s = 0; s < conf_nodes; s++) {
    char what[96];
    snprintf(what, sizeof(what), "put_%s from node %u, checked at the target", vname[v], (unsigned)s);
    check_layout(AREA(conf_me, s), &L, L.rtotal, -1, BG, s, conf_me, tag, NULL, what);
  }
}

void conf_test_put_blocking(void) { put_engine(V_BLOCKING); }
void conf_test_put_bulk(void) { put_engine(V_BULK); }
void conf_test_put_nb(void) { put_engine(V_NB); }
void conf_test_put_nb_bulk(void) { put_engine(V_NB_BULK); }
void conf_test_put_nbi(void) { put_engine(V_NBI); }
void conf_test_put_nbi_bulk(void) { put_engine(V_NBI_BULK); }

/* ------------------------------------------------------------------ */
/* get engine                                                          */
/* ------------------------------------------------------------------ */
/* every node fills AREA(me, s) with what node s will get */
static void fill_for_gets(const xlayout_t *L, uint32_t tag) {
  for (gasnet_node_t s = 0; s < conf_nodes; s++) {
    uint8_t *a = AREA(conf_me, s);
    memset(a, BG, L->rtotal);
    for (int k = 0; k < NCASES; k++) conf_fill(a + L->c[k].roff, L->c[k].n, conf_seed(conf_me, s, (uint32_t)k, tag));
  }
}

static void get_engine(int v) {
  xlayout_t L;
  xbufs_t B;
  uint8_t stackbuf[STACKBUF];
  gasnet_handle_t h[NCASES];
  uint32_t tag = 2000 + (uint32_t)v;
  layout(&L, v, !IS_BULK(v));
  bufs_init(&B, &L, stackbuf);
  fill_for_gets(&L, tag);
  conf_barrier();
  for (gasnet_node_t j = 1; j <= conf_nodes; j++) {
    gasnet_node_t t = (conf_me + j) % conf_nodes;
    for (int i = 0; i < NKINDS; i++) memset(B.base[i], LG, L.ltotal[i]);
    for (int k = 0; k < NCASES; k++) {
      const xplace_t *p = &L.c[k];
      uint8_t *dst = LPTR(&B, p), *src = AREA(t, conf_me) + p->roff;
      h[k] = GASNET_INVALID_HANDLE;
      switch (v) {
        case V_BLOCKING: gasnet_get(dst, t, src, p->n); break;
        case V_BULK: gasnet_get_bulk(dst, t, src, p->n); break;
        case V_NB: h[k] = gasnet_get_nb(dst, t, src, p->n); break;
        case V_NB_BULK: h[k] = gasnet_get_nb_bulk(dst, t, src, p->n); break;
        case V_NBI: gasnet_get_nbi(dst, t, src, p->n); break;
        case V_NBI_BULK: gasnet_get_nbi_bulk(dst, t, src, p->n); break;
      }
    }
    sync_cases(v, h, 1);
    for (int i = 0; i < NKINDS; i++) {
      char what[96];
      snprintf(what, sizeof(what), "get_%s from node %u into a %s buffer", vname[v], (unsigned)t, kname[i]);
      check_layout(B.base[i], &L, L.ltotal[i], i, LG, t, conf_me, tag, NULL, what);
    }
  }
}

void conf_test_get_blocking(void) { get_engine(V_BLOCKING); }
void conf_test_get_bulk(void) { get_engine(V_BULK); }
void conf_test_get_nb(void) { get_engine(V_NB); }
void conf_test_get_nb_bulk(void) { get_engine(V_NB_BULK); }
void conf_test_get_nbi(void) { get_engine(V_NBI); }
void conf_test_get_nbi_bulk(void) { get_engine(V_NBI_BULK); }

/* ------------------------------------------------------------------ */
/* memset                                                              */
/* ------------------------------------------------------------------ */
/* the value memset variant m writes for case k to node t: includes 0, 0xFF
 * and ints above 255 (of which only the low byte counts) */
static int memset_value(int k, int m, gasnet_node_t t) {
  return k == 1 ? 0 : k == 2 ? 0xFF : k % 2 ? 0x100 + 37 * k + m : 41 * k + (int)t;
}

void conf_test_memset_all(void) {
  xlayout_t L;
  int val[NCASES];
  layout(&L, 0, 0);
  uint8_t *tmp = conf_malloc(BIG + 8);
  for (int m = 0; m < 3; m++) { /* memset, memset_nb, memset_nbi */
    static const char *const mname[3] = {"memset", "memset_nb", "memset_nbi"};
    for (gasnet_node_t s = 0; s < conf_nodes; s++) memset(AREA(conf_me, s), BG, L.rtotal);
    conf_barrier();
    for (gasnet_node_t j = 1; j <= conf_nodes; j++) {
      gasnet_node_t t = (conf_me + j) % conf_nodes;
      gasnet_handle_t h[NCASES];
      for (int k = 0; k < NCASES; k++) {
        int vv = memset_value(k, m, t);
        void *dst = AREA(t, conf_me) + L.c[k].roff;
        val[k] = vv;
        h[k] = GASNET_INVALID_HANDLE;
        if (m == 0) gasnet_memset(t, dst, vv, L.c[k].n);
        else if (m == 1) h[k] = gasnet_memset_nb(t, dst, vv, L.c[k].n);
        else gasnet_memset_nbi(t, dst, vv, L.c[k].n);
      }
      if (m == 1) gasnet_wait_syncnb_all(h, NCASES);
      if (m == 2) gasnet_wait_syncnbi_puts();
      for (int k = 0; k < NCASES; k++) {
        memset(tmp, LG, L.c[k].n);
        gasnet_get_bulk(tmp, t, AREA(t, conf_me) + L.c[k].roff, L.c[k].n);
        conf_check_byte(tmp, L.c[k].n, (uint8_t)val[k], "%s(%d) to node %u, case %d (%zu bytes), read back", mname[m],
                        val[k], (unsigned)t, k, L.c[k].n);
      }
    }
    conf_barrier();
    for (gasnet_node_t s = 0; s < conf_nodes; s++) {
      for (int k = 0; k < NCASES; k++) val[k] = memset_value(k, m, conf_me);
      char what[96];
      snprintf(what, sizeof(what), "%s from node %u, checked at the target", mname[m], (unsigned)s);
      check_layout(AREA(conf_me, s), &L, L.rtotal, -1, BG, s, conf_me, 0, val, what);
    }
    conf_barrier();
  }
}

/* ------------------------------------------------------------------ */
/* register-value operations                                           */
/* ------------------------------------------------------------------ */
static int little_endian(void) {
  const uint16_t one = 1;
  return *(const uint8_t *)&one == 1;
}
/* the nbytes bytes a value put writes: the low-order bytes of the value as
 * an nbytes integer in this machine's byte order */
static void value_bytes(gasnet_register_value_t val, size_t nb, uint8_t *out) {
  for (size_t i = 0; i < nb; i++) {
    size_t shift = little_endian() ? i : nb - 1 - i;
    out[i] = (uint8_t)(val >> (8 * shift));
  }
}
static gasnet_register_value_t bytes_value(const uint8_t *b, size_t nb) {
  gasnet_register_value_t v = 0;
  for (size_t i = 0; i < nb; i++) {
    size_t shift = little_endian() ? i : nb - 1 - i;
    v |= (gasnet_register_value_t)b[i] << (8 * shift);
  }
  return v;
}
static gasnet_register_value_t test_value(gasnet_node_t s, gasnet_node_t t, int m, size_t nb) {
  return 0x8123456789ABCDEFull ^ ((gasnet_register_value_t)s << 56) ^ ((gasnet_register_value_t)t << 48) ^
         ((gasnet_register_value_t)m << 40) ^ nb;
}
#define VAL_SLOT 16
static uintptr_t val_off(int m, size_t nb) { return ((uintptr_t)m * 8 + (nb - 1)) * VAL_SLOT; }

void conf_test_val_put(void) {
  static const char *const mname[3] = {"put_val", "put_nb_val", "put_nbi_val"};
  uintptr_t total = val_off(3, 1);
  for (gasnet_node_t s = 0; s < conf_nodes; s++) memset(AREA(conf_me, s), BG, total);
  conf_barrier();
  for (gasnet_node_t j = 1; j <= conf_nodes; j++) {
    gasnet_node_t t = (conf_me + j) % conf_nodes;
    gasnet_handle_t h[8];
    for (int m = 0; m < 3; m++) {
      for (size_t nb = 1; nb <= 8; nb++) {
        void *dst = AREA(t, conf_me) + val_off(m, nb);
        gasnet_register_value_t val = test_value(conf_me, t, m, nb);
        h[nb - 1] = GASNET_INVALID_HANDLE;
        if (m == 0) gasnet_put_val(t, dst, val, nb);
        else if (m == 1) h[nb - 1] = gasnet_put_nb_val(t, dst, val, nb);
        else gasnet_put_nbi_val(t, dst, val, nb);
      }
      if (m == 1)
        for (int i = 0; i < 8; i++) gasnet_wait_syncnb(h[i]);
      if (m == 2) gasnet_wait_syncnbi_puts();
      for (size_t nb = 1; nb <= 8; nb++) {
        gasnet_register_value_t want = test_value(conf_me, t, m, nb), got;
        if (nb < 8) want &= ((gasnet_register_value_t)1 << (8 * nb)) - 1;
        got = gasnet_get_val(t, AREA(t, conf_me) + val_off(m, nb), nb);
        CHECK(got == want, "%s of %zu bytes to node %u read back with get_val: %#jx, expected %#jx", mname[m], nb,
              (unsigned)t, (uintmax_t)got, (uintmax_t)want);
      }
    }
  }
  conf_barrier();
  for (gasnet_node_t s = 0; s < conf_nodes; s++)
    for (int m = 0; m < 3; m++)
      for (size_t nb = 1; nb <= 8; nb++) {
        uint8_t want[VAL_SLOT];
        memset(want, BG, sizeof(want));
        value_bytes(test_value(s, conf_me, m, nb), nb, want);
        conf_check_mem(AREA(conf_me, s) + val_off(m, nb), want, VAL_SLOT,
                       "%s of %zu bytes from node %u, checked at the target", mname[m], nb, (unsigned)s);
      }
}

void conf_test_val_get(void) {
  /* values at 8-byte aligned offsets and, for 1/2/4 bytes, at natural
   * alignments inside a patterned area */
  static const uintptr_t offs[] = {0, 8, 64, 4088, 1, 2, 4, 6, 3};
  const uint32_t tag = 4000;
  uintptr_t span = PAGE + 16;
  for (gasnet_node_t s = 0; s < conf_nodes; s++) conf_fill(AREA(conf_me, s), span, conf_seed(conf_me, s, 0, tag));
  conf_barrier();
  for (gasnet_node_t j = 1; j <= conf_nodes; j++) {
    gasnet_node_t t = (conf_me + j) % conf_nodes;
    uint8_t exp[PAGE + 16];
    conf_fill(exp, span, conf_seed(t, conf_me, 0, tag));
    for (size_t o = 0; o < ARRAY_LEN(offs); o++) {
      gasnet_valget_handle_t vh[8];
      size_t nbs[8];
      int nv = 0;
      for (size_t nb = 1; nb <= 8; nb++) {
        /* natural alignment for 1, 2, 4 bytes; 8 for the others */
        if (offs[o] % (nb == 1 || nb == 2 || nb == 4 ? nb : 8)) continue;
        uint8_t *src = AREA(t, conf_me) + offs[o];
        gasnet_register_value_t want = bytes_value(exp + offs[o], nb), got = gasnet_get_val(t, src, nb);
        CHECK(got == want, "get_val of %zu bytes at offset %ju on node %u: %#jx, expected %#jx", nb, (uintmax_t)offs[o],
              (unsigned)t, (uintmax_t)got, (uintmax_t)want);
        nbs[nv] = nb;
        vh[nv++] = gasnet_get_nb_val(t, src, nb);
      }
      /* synchronize the value gets in reverse order */
      for (int i = nv - 1; i >= 0; i--) {
        gasnet_register_value_t want = bytes_value(exp + offs[o], nbs[i]), got = gasnet_wait_syncnb_valget(vh[i]);
        CHECK(got == want, "get_nb_val of %zu bytes at offset %ju on node %u: %#jx, expected %#jx", nbs[i],
              (uintmax_t)offs[o], (unsigned)t, (uintmax_t)got, (uintmax_t)want);
      }
    }
  }
  /* many value gets outstanding at once, synchronized in reverse order */
  const int NVG = 70000; /* more than 2^16-1 outstanding */
  gasnet_node_t t = (conf_me + 1) % conf_nodes;
  gasnet_valget_handle_t *vh = conf_malloc(sizeof(*vh) * NVG);
  uint8_t exp[PAGE + 16];
  conf_fill(exp, span, conf_seed(t, conf_me, 0, tag));
  for (int i = 0; i < NVG; i++) vh[i] = gasnet_get_nb_val(t, AREA(t, conf_me) + (uintptr_t)i * 8 % PAGE, 8);
  for (int i = NVG - 1; i >= 0; i--) {
    uintptr_t off = (uintptr_t)i * 8 % PAGE;
    gasnet_register_value_t want = bytes_value(exp + off, 8), got = gasnet_wait_syncnb_valget(vh[i]);
    CHECK(got == want, "get_nb_val %d of %d outstanding (offset %ju on node %u): %#jx, expected %#jx", i, NVG,
          (uintmax_t)off, (unsigned)t, (uintmax_t)got, (uintmax_t)want);
  }
}

/* ------------------------------------------------------------------ */
/* synchronization                                                     */
/* ------------------------------------------------------------------ */
/* A batch of explicit-handle operations: even i put 64 bytes, odd i get
 * 64 bytes, to/from node (me + 1 + i) % nodes.  verify(i) checks the
 * data of operation i once it is complete. */
#define SYNC_MAX 32
#define SYNC_LEN 64
#define GET_REGION ((uintptr_t)512 * 1024)
typedef struct {
  int n;
  uint32_t round;
  gasnet_handle_t h[SYNC_MAX];
  int checked[SYNC_MAX];
  uint8_t *src, *dst;
} batch_t;
static gasnet_node_t batch_target(int i) { return (conf_me + 1 + (gasnet_node_t)i) % conf_nodes; }
static uint8_t *batch_remote(int i) { return AREA(batch_target(i), conf_me) + (uintptr_t)i * SYNC_LEN + (i % 2 ? GET_REGION : 0); }

static void batch_start(batch_t *b, int n, uint32_t round, const int *invalid_at) {
  if (!b->src) {
    b->src = conf_malloc(SYNC_MAX * SYNC_LEN);
    b->dst = conf_malloc(SYNC_MAX * SYNC_LEN);
  }
  b->n = n;
  b->round = round;
  for (int i = 0; i < n; i++) {
    b->checked[i] = 0;
    uint8_t *l = (i % 2 ? b->dst : b->src) + i * SYNC_LEN;
    if (invalid_at && invalid_at[i]) { /* an entry that never held an operation */
      b->h[i] = GASNET_INVALID_HANDLE;
      b->checked[i] = 1;
      continue;
    }
    if (i % 2) {
      memset(l, LG, SYNC_LEN);
      b->h[i] = gasnet_get_nb_bulk(l, batch_target(i), batch_remote(i), SYNC_LEN);
    } else {
      conf_fill(l, SYNC_LEN, conf_seed(conf_me, batch_target(i), (uint32_t)i, round));
      b->h[i] = gasnet_put_nb_bulk(batch_target(i), batch_remote(i), l, SYNC_LEN);
    }
  }
}
static void batch_verify(batch_t *b, int i, const char *how) {
  if (b->checked[i]) return;
  b->checked[i] = 1;
  gasnet_node_t t = batch_target(i);
  if (i % 2) {
    conf_check_pat(b->dst + i * SYNC_LEN, SYNC_LEN, conf_seed(t, conf_me, (uint32_t)i, 5000), "get %d from node %u after %s",
                   i, (unsigned)t, how);
  } else {
    uint8_t tmp[SYNC_LEN];
    gasnet_get_bulk(tmp, t, batch_remote(i), SYNC_LEN);
    conf_check_pat(tmp, SYNC_LEN, conf_seed(conf_me, t, (uint32_t)i, b->round), "put %d to node %u after %s", i,
                   (unsigned)t, how);
  }
}
static int count_valid(const gasnet_handle_t *h, int n) {
  int c = 0;
  for (int i = 0; i < n; i++) c += h[i] != GASNET_INVALID_HANDLE;
  return c;
}
/* verify the operations whose handles were overwritten with INVALID */
static void verify_completed(batch_t *b, const char *how) {
  for (int i = 0; i < b->n; i++)
    if (b->h[i] == GASNET_INVALID_HANDLE) batch_verify(b, i, how);
}

/* the sync calls as functions (a GASNet may implement them as macros) */
typedef int (*try_list_fn)(gasnet_handle_t *, size_t);
static int try_all(gasnet_handle_t *h, size_t n) { return gasnet_try_syncnb_all(h, n); }
static int try_all_nopoll(gasnet_handle_t *h, size_t n) { return gasnet_try_syncnb_all_nopoll(h, n); }
static int try_some(gasnet_handle_t *h, size_t n) { return gasnet_try_syncnb_some(h, n); }
static int try_some_nopoll(gasnet_handle_t *h, size_t n) { return gasnet_try_syncnb_some_nopoll(h, n); }
static int try_nbi_gets(void) { return gasnet_try_syncnbi_gets(); }
static int try_nbi_puts(void) { return gasnet_try_syncnbi_puts(); }
static int try_nbi_all(void) { return gasnet_try_syncnbi_all(); }

/* try_all-style loop: NOT_READY leaves completed entries INVALID, OK means all are */
static void loop_try_all(batch_t *b, try_list_fn fn, int nopoll, const char *name) {
  long spins = 0;
  int rc;
  while ((rc = fn(b->h, (size_t)b->n)) == GASNET_ERR_NOT_READY) {
    verify_completed(b, name);
    if (nopoll) gasnet_AMPoll();
    if (++spins % 32 == 0) sched_yield();
  }
  CHECK(rc == GASNET_OK, "%s returned %d", name, rc);
  CHECK(count_valid(b->h, b->n) == 0, "%s returned GASNET_OK with %d handles still valid", name, count_valid(b->h, b->n));
  verify_completed(b, name);
}
/* try_some-style loop: OK means at least one more entry became INVALID,
 * NOT_READY means none changed */
static void loop_try_some(batch_t *b, try_list_fn fn, int nopoll, const char *name) {
  long spins = 0;
  while (count_valid(b->h, b->n)) {
    int before = count_valid(b->h, b->n), rc = fn(b->h, (size_t)b->n), after = count_valid(b->h, b->n);
    if (rc == GASNET_OK) {
      CHECK(after < before, "%s returned GASNET_OK but no handle completed (%d valid)", name, after);
      verify_completed(b, name);
    } else {
      CHECK(rc == GASNET_ERR_NOT_READY, "%s returned %d", name, rc);
      CHECK(after == before, "%s returned NOT_READY but changed the handles (%d -> %d valid)", name, before, after);
      if (nopoll) gasnet_AMPoll();
      if (++spins % 32 == 0) sched_yield();
    }
    if (rc != GASNET_OK && rc != GASNET_ERR_NOT_READY) break;
  }
}

void conf_test_sync_nb(void) {
  batch_t b = {0};
  const int N = SYNC_MAX;
  int holes[SYNC_MAX] = {0};
  holes[0] = holes[5] = holes[N - 1] = 1;
  /* sources of the gets: the owner fills AREA(me, s) + GET_REGION */
  for (gasnet_node_t s = 0; s < conf_nodes; s++)
    for (int i = 1; i < N; i += 2)
      conf_fill(AREA(conf_me, s) + GET_REGION + (uintptr_t)i * SYNC_LEN, SYNC_LEN, conf_seed(conf_me, s, (uint32_t)i, 5000));
  conf_barrier();
  uint32_t round = 1;

  /* invalid handles */
  gasnet_wait_syncnb(GASNET_INVALID_HANDLE);
  CHECK_OK(gasnet_try_syncnb(GASNET_INVALID_HANDLE));
  CHECK_OK(gasnet_try_syncnb_nopoll(GASNET_INVALID_HANDLE));
  /* empty lists and lists of invalid handles */
  gasnet_handle_t none[4] = {GASNET_INVALID_HANDLE, GASNET_INVALID_HANDLE, GASNET_INVALID_HANDLE, GASNET_INVALID_HANDLE};
  gasnet_wait_syncnb_all(none, 0);
  gasnet_wait_syncnb_some(none, 0);
  CHECK_OK(gasnet_try_syncnb_all(none, 0));
  CHECK_OK(gasnet_try_syncnb_some(none, 0));
  gasnet_wait_syncnb_all(none, 4);
  gasnet_wait_syncnb_some(none, 4);
  CHECK_OK(gasnet_try_syncnb_all(none, 4));
  CHECK_OK(gasnet_try_syncnb_some(none, 4));
  CHECK_OK(gasnet_try_syncnb_all_nopoll(none, 4));
  CHECK_OK(gasnet_try_syncnb_some_nopoll(none, 4));

  /* wait_syncnb, one at a time */
  batch_start(&b, N, round++, NULL);
  for (int i = 0; i < N; i++) {
    gasnet_wait_syncnb(b.h[i]);
    batch_verify(&b, i, "wait_syncnb");
  }
  /* try_syncnb until OK */
  batch_start(&b, N, round++, NULL);
  for (int i = N - 1; i >= 0; i--) {
    long spins = 0;
    int rc;
    while ((rc = gasnet_try_syncnb(b.h[i])) == GASNET_ERR_NOT_READY)
      if (++spins % 32 == 0) sched_yield();
    CHECK(rc == GASNET_OK, "try_syncnb returned %d", rc);
    batch_verify(&b, i, "try_syncnb");
  }
  /* try_syncnb_nopoll with gasnet_AMPoll */
  batch_start(&b, N, round++, NULL);
  for (int i = 0; i < N; i++) {
    long spins = 0;
    int rc;
    while ((rc = gasnet_try_syncnb_nopoll(b.h[i])) == GASNET_ERR_NOT_READY) {
      gasnet_AMPoll();
      if (++spins % 32 == 0) sched_yield();
    }
    CHECK(rc == GASNET_OK, "try_syncnb_nopoll returned %d", rc);
    batch_verify(&b, i, "try_syncnb_nopoll");
  }
  /* wait_syncnb_all with invalid entries mixed in */
  batch_start(&b, N, round++, holes);
  gasnet_wait_syncnb_all(b.h, (size_t)N);
  CHECK(count_valid(b.h, N) == 0, "wait_syncnb_all left %d handles valid", count_valid(b.h, N));
  verify_completed(&b, "wait_syncnb_all");
  /* try_syncnb_all / _nopoll until OK */
  batch_start(&b, N, round++, holes);
  loop_try_all(&b, try_all, 0, "try_syncnb_all");
  batch_start(&b, N, round++, holes);
  loop_try_all(&b, try_all_nopoll, 1, "try_syncnb_all_nopoll");
  /* wait_syncnb_some: each call completes at least one */
  batch_start(&b, N, round++, holes);
  while (count_valid(b.h, N)) {
    int before = count_valid(b.h, N);
    gasnet_wait_syncnb_some(b.h, (size_t)N);
    int after = count_valid(b.h, N);
    if (after >= before) {
      conf_fail("wait_syncnb_some returned with no handle completed (%d valid)", after);
      gasnet_wait_syncnb_all(b.h, (size_t)N);
    }
    verify_completed(&b, "wait_syncnb_some");
  }
  /* try_syncnb_some / _nopoll */
  batch_start(&b, N, round++, holes);
  loop_try_some(&b, try_some, 0, "try_syncnb_some");
  batch_start(&b, N, round++, holes);
  loop_try_some(&b, try_some_nopoll, 1, "try_syncnb_some_nopoll");
  conf_barrier();
}

/* implicit-handle batch: puts and gets of SYNC_LEN bytes */
static void nbi_start(batch_t *b, int n, uint32_t round) {
  batch_start(b, 0, round, NULL);
  b->n = n;
  for (int i = 0; i < n; i++) {
    b->checked[i] = 0;
    b->h[i] = GASNET_INVALID_HANDLE;
    if (i % 2) {
      memset(b->dst + i * SYNC_LEN, LG, SYNC_LEN);
      gasnet_get_nbi_bulk(b->dst + i * SYNC_LEN, batch_target(i), batch_remote(i), SYNC_LEN);
    } else {
      conf_fill(b->src + i * SYNC_LEN, SYNC_LEN, conf_seed(conf_me, batch_target(i), (uint32_t)i, round));
      gasnet_put_nbi(batch_target(i), batch_remote(i), b->src + i * SYNC_LEN, SYNC_LEN);
      memset(b->src + i * SYNC_LEN, 0, SYNC_LEN); /* non-bulk: reusable at once */
    }
  }
}
static void nbi_verify(batch_t *b, int which, const char *how) { /* which: 1 puts, 2 gets */
  for (int i = 0; i < b->n; i++)
    if ((i % 2 ? 2 : 1) & which) batch_verify(b, i, how);
}

typedef int (*try_fn)(void);
static void loop_try(try_fn fn, const char *name) {
  long spins = 0;
  int rc;
  while ((rc = fn()) == GASNET_ERR_NOT_READY)
    if (++spins % 32 == 0) sched_yield();
  CHECK(rc == GASNET_OK, "%s returned %d", name, rc);
}

void conf_test_sync_nbi(void) {
  batch_t b = {0};
  const int N = SYNC_MAX;
  for (gasnet_node_t s = 0; s < conf_nodes; s++)
    for (int i = 1; i < N; i += 2)
      conf_fill(AREA(conf_me, s) + GET_REGION + (uintptr_t)i * SYNC_LEN, SYNC_LEN, conf_seed(conf_me, s, (uint32_t)i, 5000));
  conf_barrier();
  /* nothing outstanding */
  CHECK_OK(gasnet_try_syncnbi_gets());
  CHECK_OK(gasnet_try_syncnbi_puts());
  CHECK_OK(gasnet_try_syncnbi_all());
  gasnet_wait_syncnbi_gets();
  gasnet_wait_syncnbi_puts();
  gasnet_wait_syncnbi_all();
  uint32_t round = 100;
  /* gets first, then puts */
  nbi_start(&b, N, round++);
  gasnet_wait_syncnbi_gets();
  nbi_verify(&b, 2, "wait_syncnbi_gets");
  gasnet_wait_syncnbi_puts();
  nbi_verify(&b, 1, "wait_syncnbi_puts");
  /* puts first, then gets */
  nbi_start(&b, N, round++);
  gasnet_wait_syncnbi_puts();
  nbi_verify(&b, 1, "wait_syncnbi_puts");
  gasnet_wait_syncnbi_gets();
  nbi_verify(&b, 2, "wait_syncnbi_gets");
  /* wait_syncnbi_all */
  nbi_start(&b, N, round++);
  gasnet_wait_syncnbi_all();
  nbi_verify(&b, 3, "wait_syncnbi_all");
  /* try variants */
  nbi_start(&b, N, round++);
  loop_try(try_nbi_gets, "try_syncnbi_gets");
  nbi_verify(&b, 2, "try_syncnbi_gets");
  loop_try(try_nbi_puts, "try_syncnbi_puts");
  nbi_verify(&b, 1, "try_syncnbi_puts");
  nbi_start(&b, N, round++);
  loop_try(try_nbi_all, "try_syncnbi_all");
  nbi_verify(&b, 3, "try_syncnbi_all");
  /* memset_nbi and put_nbi_val count as puts */
  gasnet_node_t t = batch_target(0);
  uint8_t *d = AREA(t, conf_me) + 4096;
  gasnet_memset_nbi(t, d, 0x3C, 100);
  gasnet_put_nbi_val(t, d + 104, 0x1122334455667788ull, 8);
  gasnet_wait_syncnbi_puts();
  uint8_t tmp[112], want[112];
  memset(want, 0x3C, 100);
  memset(want + 100, 0, 4);
  gasnet_get_bulk(want + 100, t, d + 100, 4); /* untouched bytes: whatever was there */
  value_bytes(0x1122334455667788ull, 8, want + 104);
  gasnet_get_bulk(tmp, t, d, sizeof(tmp));
  conf_check_mem(tmp, want, sizeof(tmp), "memset_nbi + put_nbi_val to node %u after wait_syncnbi_puts", (unsigned)t);
  conf_barrier();
}

void conf_test_accessregion(void) {
  gasnet_node_t t = (conf_me + 1) % conf_nodes;
  const uint32_t tag = 6000;
  uint8_t *big = conf_malloc(BIG), *back = conf_malloc(BIG), *gets = conf_malloc(8 * 256);
  uint8_t *rbase = AREA(t, conf_me);
  const uintptr_t getsrc = HALF; /* clear of the big put */
  uint8_t *xb = rbase + ((BIG + 64) & ~(size_t)7); /* 8-byte aligned, after the big put */
  /* sources for the gets: what node s reads from this node */
  for (gasnet_node_t s = 0; s < conf_nodes; s++)
    conf_fill(AREA(conf_me, s) + getsrc, 8 * 256, conf_seed(conf_me, s, 1, tag));
  conf_barrier();

  /* an implicit operation before the region, synced before it */
  uint64_t before = 0xB0B0B0B0B0B0B0B0ull;
  gasnet_put_nbi(t, xb + 64, &before, 8);
  gasnet_wait_syncnbi_all();

  gasnet_begin_nbi_accessregion();
  conf_fill(big, BIG, conf_seed(conf_me, t, 2, tag));
  gasnet_put_nbi_bulk(t, rbase, big, BIG);
  for (int i = 0; i < 8; i++) {
    uint64_t v = 0x0101010101010101ull * (uint64_t)(i + 1);
    gasnet_put_nbi(t, xb + 128 + 8 * (uintptr_t)i, &v, 8);
    gasnet_get_nbi_bulk(gets + 256 * i, t, AREA(t, conf_me) + getsrc + 256 * (uintptr_t)i, 256);
  }
  gasnet_memset_nbi(t, xb + 256, 0x77, 64);
  gasnet_put_nbi_val(t, xb + 320, 0xCAFEF00Dull, 4);
  /* an explicit-handle operation inside the region is synced on its own */
  uint64_t inside = 0;
  gasnet_handle_t h2 = gasnet_get_nb(&inside, t, xb + 64, 8);
  gasnet_wait_syncnb(h2);
  CHECK(inside == before, "explicit get_nb inside the access region read %#jx, expected %#jx", (uintmax_t)inside,
        (uintmax_t)before);
  gasnet_handle_t region = gasnet_end_nbi_accessregion();

  /* the region's operations are not implicit operations any more: nothing
   * is outstanding for the implicit-handle syncs */
  CHECK_OK(gasnet_try_syncnbi_all());
  CHECK_OK(gasnet_try_syncnbi_puts());
  CHECK_OK(gasnet_try_syncnbi_gets());
  /* an unrelated implicit operation after the region */
  uint64_t after = 0xA0A0A0A0A0A0A0A0ull;
  gasnet_put_nbi(t, xb + 72, &after, 8);
  gasnet_wait_syncnbi_all();
  CHECK(gasnet_get_val(t, xb + 72, 8) == after, "implicit put after the region not complete after wait_syncnbi_all");

  /* the region handle syncs them all */
  gasnet_handle_t list[3] = {GASNET_INVALID_HANDLE, region, GASNET_INVALID_HANDLE};
  gasnet_wait_syncnb_all(list, 3);
  CHECK(list[1] == GASNET_INVALID_HANDLE, "wait_syncnb_all left the region handle valid");
  uint8_t exp[8 * 256];
  conf_fill(exp, sizeof(exp), conf_seed(t, conf_me, 1, tag));
  for (int i = 0; i < 8; i++)
    conf_check_mem(gets + 256 * i, exp + 256 * i, 256, "get_nbi_bulk %d in the access region", i);
  gasnet_get_bulk(back, t, rbase, BIG);
  conf_check_pat(back, BIG, conf_seed(conf_me, t, 2, tag), "put_nbi_bulk of %zu bytes in the access region", BIG);
  for (int i = 0; i < 8; i++) {
    uint64_t v = 0;
    gasnet_get(&v, t, xb + 128 + 8 * (uintptr_t)i, 8);
    CHECK(v == 0x0101010101010101ull * (uint64_t)(i + 1), "put_nbi %d in the access region: %#jx", i, (uintmax_t)v);
  }
  uint8_t ms[64];
  gasnet_get(ms, t, xb + 256, 64);
  conf_check_byte(ms, 64, 0x77, "memset_nbi in the access region");
  CHECK(gasnet_get_val(t, xb + 320, 4) == 0xCAFEF00Dull, "put_nbi_val in the access region");

  /* an implicit operation still outstanding when a region begins stays
   * implicit: the implicit-handle sync after the region completes it */
  uint64_t pending = 0xC0C0C0C0C0C0C0C0ull;
  gasnet_put_nbi(t, xb + 80, &pending, 8);
  gasnet_begin_nbi_accessregion();
  gasnet_put_nbi_bulk(t, rbase, big, 65536);
  region = gasnet_end_nbi_accessregion();
  gasnet_wait_syncnbi_puts();
  CHECK(gasnet_get_val(t, xb + 80, 8) == pending, "put_nbi issued before the region not complete after wait_syncnbi_puts");
  gasnet_wait_syncnb(region);

  /* an empty region; a region synced with try_syncnb */
  gasnet_begin_nbi_accessregion();
  region = gasnet_end_nbi_accessregion();
  gasnet_wait_syncnb(region);
  gasnet_begin_nbi_accessregion();
  gasnet_put_nbi_bulk(t, rbase, big, 65536);
  region = gasnet_end_nbi_accessregion();
  long spins = 0;
  int rc;
  while ((rc = gasnet_try_syncnb(region)) == GASNET_ERR_NOT_READY)
    if (++spins % 32 == 0) sched_yield();
  CHECK(rc == GASNET_OK, "try_syncnb on a region handle returned %d", rc);
  conf_barrier();
}

/* ------------------------------------------------------------------ */
/* many outstanding operations, source reuse, visibility               */
/* ------------------------------------------------------------------ */
static uint64_t many_val(gasnet_node_t s, int i, int which) {
  return ((uint64_t)s << 48) ^ ((uint64_t)which << 40) ^ (uint64_t)i * 0x9E3779B97F4A7C15ull;
}

void conf_test_nb_many(void) {
  const char *e = getenv("CONF_MANY");
  int n = e ? atoi(e) : 70000; /* the specification requires 2^16-1 */
  gasnet_node_t p = (conf_me + 1) % conf_nodes, from = (conf_me + conf_nodes - 1) % conf_nodes;
  if ((uintptr_t)n * 8 > HALF) n = (int)(HALF / 8);
  gasnet_handle_t *h = conf_malloc(sizeof(*h) * (size_t)n);
  uint64_t *got = conf_malloc(sizeof(*got) * (size_t)n);
  uint64_t *nb_area = (uint64_t *)(void *)AREA(p, conf_me), *nbi_area = (uint64_t *)(void *)(AREA(p, conf_me) + HALF);
  uint64_t v;
  /* put_nb from one reused 8-byte source */
  for (int i = 0; i < n; i++) {
    v = many_val(conf_me, i, 1);
    h[i] = gasnet_put_nb(p, &nb_area[i], &v, 8);
    v = 0;
  }
  gasnet_wait_syncnb_all(h, (size_t)n);
  CHECK(count_valid(h, n) == 0, "wait_syncnb_all left %d of %d handles valid", count_valid(h, n), n);
  /* put_nbi */
  for (int i = 0; i < n; i++) {
    v = many_val(conf_me, i, 2);
    gasnet_put_nbi(p, &nbi_area[i], &v, 8);
    v = 0;
  }
  gasnet_wait_syncnbi_puts();
  /* get_nb of what the put_nbi wrote */
  for (int i = 0; i < n; i++) h[i] = gasnet_get_nb(&got[i], p, &nbi_area[i], 8);
  gasnet_wait_syncnb_all(h, (size_t)n);
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (got[i] != many_val(conf_me, i, 2) && !bad++)
      conf_fail("put_nbi %d of %d to node %u, read with get_nb: %#jx, expected %#jx", i, n, (unsigned)p,
                (uintmax_t)got[i], (uintmax_t)many_val(conf_me, i, 2));
  /* as many put_nbi in an access region, synced through its handle */
  gasnet_begin_nbi_accessregion();
  for (int i = 0; i < n; i++) {
    v = many_val(conf_me, i, 3);
    gasnet_put_nbi(p, &nbi_area[i], &v, 8);
    v = 0;
  }
  gasnet_handle_t region = gasnet_end_nbi_accessregion();
  CHECK_OK(gasnet_try_syncnbi_puts()); /* the region's puts are not implicit operations */
  gasnet_wait_syncnb(region);
  conf_barrier();
  const uint64_t *a1 = (const uint64_t *)(const void *)AREA(conf_me, from);
  const uint64_t *a2 = (const uint64_t *)(const void *)(AREA(conf_me, from) + HALF);
  int bad1 = 0, bad2 = 0;
  for (int i = 0; i < n; i++) {
    if (a1[i] != many_val(from, i, 1) && !bad1++)
      conf_fail("put_nb %d of %d from node %u: target holds %#jx, expected %#jx", i, n, (unsigned)from,
                (uintmax_t)a1[i], (uintmax_t)many_val(from, i, 1));
    if (a2[i] != many_val(from, i, 3) && !bad2++)
      conf_fail("put_nbi %d of %d in an access region from node %u: target holds %#jx, expected %#jx", i, n,
                (unsigned)from, (uintmax_t)a2[i], (uintmax_t)many_val(from, i, 3));
  }
}

void conf_test_put_reuse(void) {
  static const size_t sizes[] = {8, 4096, 65537, BIG};
  static const uintptr_t offs[] = {0, 4096, 8192, 131072};
  static const char *const mname[3] = {"put", "put_nb", "put_nbi"};
  uint8_t *src[4], *back = conf_malloc(BIG);
  for (int k = 0; k < 4; k++) src[k] = conf_malloc(sizes[k]);
  for (gasnet_node_t j = 1; j <= conf_nodes; j++) {
    gasnet_node_t t = (conf_me + j) % conf_nodes;
    for (int m = 0; m < 3; m++) {
      gasnet_handle_t h[4];
      uint32_t tag = 7000 + (uint32_t)m;
      for (int k = 0; k < 4; k++) {
        void *dst = AREA(t, conf_me) + offs[k];
        conf_fill(src[k], sizes[k], conf_seed(conf_me, t, (uint32_t)k, tag));
        h[k] = GASNET_INVALID_HANDLE;
        if (m == 0) gasnet_put(t, dst, src[k], sizes[k]);
        else if (m == 1) h[k] = gasnet_put_nb(t, dst, src[k], sizes[k]);
        else gasnet_put_nbi(t, dst, src[k], sizes[k]);
        /* overwrite the source at once */
        conf_fill(src[k], sizes[k], conf_seed(conf_me, t, (uint32_t)k, tag + 100));
      }
      if (m == 1) gasnet_wait_syncnb_all(h, 4);
      if (m == 2) gasnet_wait_syncnbi_puts();
      for (int k = 0; k < 4; k++) {
        gasnet_get_bulk(back, t, AREA(t, conf_me) + offs[k], sizes[k]);
        conf_check_pat(back, sizes[k], conf_seed(conf_me, t, (uint32_t)k, tag),
                       "%s of %zu bytes to node %u, source overwritten after the call", mname[m], sizes[k], (unsigned)t);
      }
    }
  }
}

void conf_test_visibility(void) {
  const uint32_t tag = 8000;
  uint8_t block[1024];
  for (gasnet_node_t j = 1; j <= conf_nodes; j++) {
    gasnet_node_t t = (conf_me + j) % conf_nodes;
    conf_fill(block, sizeof(block), conf_seed(conf_me, t, 0, tag));
    gasnet_put_nbi(t, AREA(t, conf_me), block, sizeof(block));
    for (int i = 0; i < 16; i++)
      gasnet_put_nbi_val(t, AREA(t, conf_me) + 2048 + 8 * (uintptr_t)i, many_val(conf_me, i, (int)t), 8);
  }
  gasnet_wait_syncnbi_puts();
  conf_barrier();
  /* local loads at every target */
  for (gasnet_node_t s = 0; s < conf_nodes; s++) {
    conf_check_pat(AREA(conf_me, s), sizeof(block), conf_seed(s, conf_me, 0, tag),
                   "put_nbi from node %u seen by a local load after sync + barrier", (unsigned)s);
    for (int i = 0; i < 16; i++) {
      const uint64_t *p = (const uint64_t *)(const void *)(AREA(conf_me, s) + 2048 + 8 * (uintptr_t)i);
      CHECK(*p == many_val(s, i, (int)conf_me), "put_nbi_val %d from node %u: local load %#jx, expected %#jx", i,
            (unsigned)s, (uintmax_t)*p, (uintmax_t)many_val(s, i, (int)conf_me));
    }
  }
  /* gets by every node of what every other node wrote anywhere */
  for (gasnet_node_t u = 0; u < conf_nodes; u++)
    for (gasnet_node_t s = 0; s < conf_nodes; s++) {
      uint8_t tmp[1024];
      gasnet_get_bulk(tmp, u, AREA(u, s), sizeof(tmp));
      conf_check_pat(tmp, sizeof(tmp), conf_seed(s, u, 0, tag), "put_nbi from node %u to node %u seen by a get from node %u",
                     (unsigned)s, (unsigned)u, (unsigned)conf_me);
      uint64_t v = gasnet_get_val(u, AREA(u, s) + 2048 + 8 * 15, 8);
      CHECK(v == many_val(s, 15, (int)u), "put_nbi_val from node %u to node %u seen by get_val: %#jx", (unsigned)s,
            (unsigned)u, (uintmax_t)v);
    }
}

void conf_test_xfer_flood(void) {
  const size_t CH = 256 * 1024;
  const int K = 7; /* K * CH <= HALF */
  const uint32_t ptag = 9400, gtag = 9500;
  gasnet_handle_t *h = conf_malloc(sizeof(*h) * 2 * (size_t)K * conf_nodes);
  uint8_t *src = conf_malloc(CH * (size_t)K * conf_nodes), *dst = conf_malloc(CH * (size_t)K * conf_nodes);
  for (gasnet_node_t s = 0; s < conf_nodes; s++)
    for (int k = 0; k < K; k++) conf_fill(AREA(conf_me, s) + HALF + (uintptr_t)k * CH, CH, conf_seed(conf_me, s, (uint32_t)k, gtag));
  conf_barrier();
  size_t nh = 0;
  for (gasnet_node_t j = 1; j <= conf_nodes; j++) {
    gasnet_node_t t = (conf_me + j) % conf_nodes;
    for (int k = 0; k < K; k++) {
      uint8_t *ps = src + ((size_t)t * (size_t)K + (size_t)k) * CH, *gd = dst + ((size_t)t * (size_t)K + (size_t)k) * CH;
      conf_fill(ps, CH, conf_seed(conf_me, t, (uint32_t)k, ptag));
      h[nh++] = gasnet_put_nb_bulk(t, AREA(t, conf_me) + (uintptr_t)k * CH, ps, CH);
      h[nh++] = gasnet_get_nb_bulk(gd, t, AREA(t, conf_me) + HALF + (uintptr_t)k * CH, CH);
    }
  }
  gasnet_wait_syncnb_all(h, nh);
  for (gasnet_node_t t = 0; t < conf_nodes; t++)
    for (int k = 0; k < K; k++)
      conf_check_pat(dst + ((size_t)t * (size_t)K + (size_t)k) * CH, CH, conf_seed(t, conf_me, (uint32_t)k, gtag),
                     "get_nb_bulk %d of %zu bytes from node %u", k, CH, (unsigned)t);
  conf_barrier();
  for (gasnet_node_t s = 0; s < conf_nodes; s++)
    for (int k = 0; k < K; k++)
      conf_check_pat(AREA(conf_me, s) + (uintptr_t)k * CH, CH, conf_seed(s, conf_me, (uint32_t)k, ptag),
                     "put_nb_bulk %d of %zu bytes from node %u, checked at the target", k, CH, (unsigned)s);
}

/* Only this node writes to its right neighbour's segment edges here. */
void conf_test_seg_edges(void) {
  static const size_t sizes[] = {1, 8, 4099, 65539};
  gasnet_node_t t = (conf_me + 1) % conf_nodes;
  uint8_t *base = SEGBASE(t), *end = base + conf_seg[t].size;
  uint8_t *src = conf_malloc(65539), *back = conf_malloc(65539);
  for (size_t k = 0; k < ARRAY_LEN(sizes); k++) {
    size_t n = sizes[k];
    for (int at_end = 0; at_end <= 1; at_end++) {
      uint8_t *edge = at_end ? end - n : base;
      const char *where = at_end ? "ending at the last byte" : "starting at the first byte";
      uint32_t seed = conf_seed(conf_me, t, (uint32_t)k, 9000 + (uint32_t)at_end);
      gasnet_handle_t h;
      conf_fill(src, n, seed);
      gasnet_put_bulk(t, edge, src, n);
      memset(back, 0, n);
      gasnet_get_bulk(back, t, edge, n);
      conf_check_pat(back, n, seed, "put_bulk/get_bulk of %zu bytes %s of node %u's segment", n, where, (unsigned)t);
      conf_fill(src, n, seed ^ 1);
      h = gasnet_put_nb_bulk(t, edge, src, n);
      gasnet_wait_syncnb(h);
      memset(back, 0, n);
      h = gasnet_get_nb_bulk(back, t, edge, n);
      gasnet_wait_syncnb(h);
      conf_check_pat(back, n, seed ^ 1, "put_nb_bulk/get_nb_bulk of %zu bytes %s of node %u's segment", n, where,
                     (unsigned)t);
      conf_fill(src, n, seed ^ 2);
      gasnet_put_nbi_bulk(t, edge, src, n);
      gasnet_wait_syncnbi_puts();
      memset(back, 0, n);
      gasnet_get_nbi_bulk(back, t, edge, n);
      gasnet_wait_syncnbi_gets();
      conf_check_pat(back, n, seed ^ 2, "put_nbi_bulk/get_nbi_bulk of %zu bytes %s of node %u's segment", n, where,
                     (unsigned)t);
      gasnet_memset(t, edge, 0x5A + (int)k, n);
      gasnet_get_bulk(back, t, edge, n);
      conf_check_byte(back, n, (uint8_t)(0x5A + k), "memset of %zu bytes %s of node %u's segment", n, where, (unsigned)t);
    }
  }
  /* register values at both ends */
  gasnet_put_val(t, end - 8, 0x0102030405060708ull, 8);
  gasnet_put_val(t, base, 0x1112131415161718ull, 8);
  gasnet_put_val(t, end - 9, 0xAB, 1);
  CHECK(gasnet_get_val(t, end - 8, 8) == 0x0102030405060708ull, "put_val/get_val of the last 8 bytes of node %u's segment",
        (unsigned)t);
  CHECK(gasnet_get_val(t, base, 8) == 0x1112131415161718ull, "put_val/get_val of the first 8 bytes of node %u's segment",
        (unsigned)t);
  CHECK(gasnet_get_val(t, end - 9, 1) == 0xAB, "put_val/get_val of 1 byte before the last 8 of node %u's segment",
        (unsigned)t);
  /* Long AMs whose payload ends at the last byte / starts at the first */
  uint8_t buf[48];
  for (int at_end = 0; at_end <= 1; at_end++) {
    uint32_t seed = conf_seed(conf_me, t, 99, (uint32_t)at_end);
    conf_fill(buf, sizeof(buf), seed);
    CHECK_OK(gasnet_AMRequestLong2(t, conf_h(HID_COUNT), buf, sizeof(buf), at_end ? end - sizeof(buf) : base, seed, 1));
  }
  CONF_WAIT(conf_cnt.count >= 2); /* from the left neighbour */
}

/* ------------------------------------------------------------------ */
/* out-of-segment memory freed and reused                              */
/* ------------------------------------------------------------------ */
/* Map n bytes at want (NULL: anywhere); the mapping, or NULL. */
static void *map_at(void *want, size_t n) {
  int fl = MAP_PRIVATE | MAP_ANONYMOUS;
#ifdef MAP_FIXED_NOREPLACE
  if (want) fl |= MAP_FIXED_NOREPLACE;
#endif
  void *p = mmap(want, n, PROT_READ | PROT_WRITE, fl, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

/* A stage that keeps registrations of out-of-segment memory (firehose)
 * must never use one after its memory was unmapped and other memory mapped
 * at the same address: put from, and get into, a mapping; unmap it; map new
 * memory at the same address with other contents; the same transfers must
 * carry the new bytes.  Through free() and malloc() as well.  Where the
 * stage reports a cache, the unmapping must have invalidated the old
 * region and the transfer after it must have registered anew. */
void conf_test_oos_reuse(void) {
  static const size_t sizes[] = {65536, 1048579, (size_t)3 << 20};
  const uint32_t tag = 9100;
  gasnet_node_t t = (conf_me + 1) % conf_nodes;
  uint8_t *dst = AREA(t, conf_me), *mine = MYSCRATCH;
  for (int k = 0; k < (int)ARRAY_LEN(sizes); k++) {
    size_t n = sizes[k], len = (n + PAGE - 1) / PAGE * PAGE;
    if (n > HALF) n = HALF;
    for (int round = 0; round < 2; round++) {
      stageport_firehose_stats_t a, b;
      int have = stageport_firehose_stats(&a) == 0;
      uint8_t *p = map_at(NULL, len), *q;
      uint32_t s0 = conf_seed(conf_me, t, (uint32_t)k, tag + (uint32_t)round), s1 = s0 ^ 0x5a5a5a5au;
      if (!p) {
        conf_fail("mmap of %zu bytes: errno %d", len, errno);
        return;
      }
      conf_fill(p + 1, n - 1, s0);
      /* round 0: the mapping is the source of a put; round 1: the
       * destination of a get (both twice, so a cache keeps the region) */
      for (int rep = 0; rep < 2; rep++) {
        if (round == 0) {
          gasnet_put_bulk(t, dst, p + 1, n - 1);
        } else {
          gasnet_put_bulk(t, dst, p + 1, n - 1); /* what the get will read */
          memset(p, 0, len);
          gasnet_get_bulk(p + 1, t, dst, n - 1);
          conf_check_pat(p + 1, n - 1, s0, "get of %zu bytes into a mapping", n - 1);
        }
      }
      gasnet_get_bulk(mine, t, dst, n - 1);
      conf_check_pat(mine, n - 1, s0, "put of %zu bytes from a mapping", n - 1);
      if (munmap(p, len)) conf_fail("munmap: errno %d", errno);
      q = map_at(p, len);
      if (!q || q != p) { /* taken meanwhile: the case cannot be made here */
        if (q) munmap(q, len);
        if (k == 0 && round == 0) printf("# oos_reuse: node %u: address %p not free again, case skipped\n", (unsigned)conf_me, (void *)p);
        continue;
      }
      conf_fill(q + 1, n - 1, s1);
      if (round == 0) {
        gasnet_put_bulk(t, dst, q + 1, n - 1);
        gasnet_get_bulk(mine, t, dst, n - 1);
        conf_check_pat(mine, n - 1, s1, "put of %zu bytes from memory mapped again at the same address", n - 1);
      } else {
        conf_fill(mine, n - 1, s1);
        gasnet_put_bulk(t, dst, mine, n - 1);
        memset(q, 0, len);
        gasnet_get_bulk(q + 1, t, dst, n - 1);
        conf_check_pat(q + 1, n - 1, s1, "get of %zu bytes into memory mapped again at the same address", n - 1);
      }
      if (have && stageport_firehose_stats(&b) == 0 && b.unmap_events) {
        CHECK(b.invalidations > a.invalidations, "%zu bytes: unmapping a cached region invalidated nothing "
              "(invalidations %llu -> %llu)", n, a.invalidations, b.invalidations);
        CHECK(b.misses >= a.misses + 2, "%zu bytes: the memory mapped again was not registered anew "
              "(misses %llu -> %llu)", n, a.misses, b.misses);
      }
      munmap(q, len);
    }
    /* free() and malloc(): the allocator may give the address back */
    {
      uint8_t *m = malloc(n), *m2;
      uint32_t s2 = conf_seed(conf_me, t, (uint32_t)k, tag + 7);
      if (!m) continue;
      conf_fill(m, n, s2);
      gasnet_put_bulk(t, dst, m, n);
      gasnet_put_bulk(t, dst, m, n);
      free(m);
      m2 = malloc(n);
      if (!m2) continue;
      conf_fill(m2, n, s2 ^ 0x33333333u);
      gasnet_put_bulk(t, dst, m2, n);
      gasnet_get_bulk(mine, t, dst, n);
      conf_check_pat(mine, n, s2 ^ 0x33333333u, "put of %zu bytes from malloc()'d memory after a free() (%s address)", n,
                     m2 == m ? "same" : "another");
      free(m2);
    }
  }
}
