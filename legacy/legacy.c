/*
 * legacy.c -- GASNet-1 (gasnet.h) over the GASNet-EX entry points.
 *
 * Everything here is a gex_* call on the client, endpoint and team
 * gasnet_init made, except what GASNet-EX does not have:
 *
 *   memset       RMA puts from a pattern buffer of the calling thread's
 *                (local completion waited for, so the buffer is free again
 *                when a put returns)
 *   value gets   a pooled record holding the landing buffer and the get's
 *                event (gasnet_valget_handle_t names it and its use)
 *   the named barrier's matching
 *                GASNet-1's notify/wait pair over the barrier with a value
 *                (_stp_Coll_BarrierValueNB): this node's id and flags are
 *                checked against what it notified, and the result kept
 *                for gasnet_barrier_result (gasnetex.h declares these: an
 *                EX client has them too, on its primordial team)
 *
 * This file sees gasnet.h and gasnetex.h only (scripts/check-layers.sh):
 * the library's internals are reached through the _stp_* entry points
 * gasnetex.h declares for this layer.
 */
#include "config.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gasnet.h"
#include "gasnet_vis.h"

/* the objects gasnet_init and gasnet_attach made */
gex_TM_t _stp_legacy_tm;
static gex_Client_t lg_client;
static gex_EP_t lg_ep;
static gex_Segment_t lg_seg;
static int lg_attached;

static inline void check_attached(const char *fn) {
  if (__builtin_expect(!lg_attached, 0)) _stp_Fatal("%s: called before gasnet_attach", fn);
}

/* ------------------------------------------------------------------ */
/* job control and queries                                             */
/* ------------------------------------------------------------------ */
int _stp_gasnet_init(int *argc, char ***argv, int threads, const char *stage) {
  gex_Flags_t flags = GEX_FLAG_USES_GASNET1 | _STP_FLAG_LEGACY;
  return _stp_Client_Init(&lg_client, &lg_ep, &_stp_legacy_tm, "GASNET_LEGACY", argc, argv, flags, threads, stage);
}

int(gasnet_init)(int *argc, char ***argv) { return _stp_gasnet_init(argc, argv, 0, NULL); }

int gasnet_attach(gasnet_handlerentry_t *table, int numentries, uintptr_t segsize, uintptr_t minheapoffset) {
  int rc;
  (void)minheapoffset; /* the segment is its own mapping; the heap is not affected */
  if (!lg_client) _stp_Fatal("gasnet_attach: called before gasnet_init");
  if (lg_attached) _stp_Fatal("gasnet_attach: called twice");
  rc = _stp_EP_RegisterLegacy(lg_ep, table, numentries); /* (collective: every node returns any node's error) */
  if (rc != GASNET_OK) return rc;
  if (segsize > gasnet_getMaxLocalSegmentSize()) segsize = gasnet_getMaxLocalSegmentSize();
  rc = gex_Segment_Attach(&lg_seg, _stp_legacy_tm, segsize);
  if (rc == GASNET_OK) lg_attached = 1;
  return rc;
}

gasnet_node_t gasnet_mynode(void) { return gex_System_QueryJobRank(); }
gasnet_node_t gasnet_nodes(void) { return gex_System_QueryJobSize(); }

int gasnet_getSegmentInfo(gasnet_seginfo_t *seginfo_table, int numentries) {
  gex_Rank_t n = gex_TM_QuerySize(_stp_legacy_tm);
  check_attached("gasnet_getSegmentInfo");
  if (numentries < 0 || (numentries > 0 && !seginfo_table)) return GASNET_ERR_BAD_ARG;
  for (gex_Rank_t r = 0; r < n && r < (gex_Rank_t)numentries; r++) {
    void *owner = NULL;
    uintptr_t size = 0;
    (void)gex_EP_QueryBoundSegmentNB(_stp_legacy_tm, r, &owner, NULL, &size, 0); /* (answered locally) */
    seginfo_table[r].addr = owner;
    seginfo_table[r].size = size;
  }
  return GASNET_OK;
}

int gasnet_getNodeInfo(gasnet_nodeinfo_t *nodeinfo_table, int numentries) {
  return _stp_NodeInfo(nodeinfo_table, numentries);
}

void gasnet_QueryGexObjects(gex_Client_t *client_p, gex_EP_t *endpoint_p, gex_TM_t *tm_p, gex_Segment_t *segment_p) {
  check_attached("gasnet_QueryGexObjects");
  if (client_p) *client_p = lg_client;
  if (endpoint_p) *endpoint_p = lg_ep;
  if (tm_p) *tm_p = _stp_legacy_tm;
  if (segment_p) *segment_p = lg_seg;
}

/* ------------------------------------------------------------------ */
/* active messages                                                     */
/* ------------------------------------------------------------------ */
size_t gasnet_AMMaxMedium(void) {
  size_t req = gex_AM_LUBRequestMedium(), rep = gex_AM_LUBReplyMedium();
  return req < rep ? req : rep;
}
size_t gasnet_AMMaxLongRequest(void) { return gex_AM_LUBRequestLong(); }
size_t gasnet_AMMaxLongReply(void) { return gex_AM_LUBReplyLong(); }

int gasnet_AMGetMsgSource(gasnet_token_t token, gasnet_node_t *srcindex) {
  gex_Token_Info_t info;
  if (!srcindex) return GASNET_ERR_BAD_ARG;
  (void)gex_Token_Info(token, &info, GEX_TI_SRCRANK);
  *srcindex = info.gex_srcrank;
  return GASNET_OK;
}

/* ------------------------------------------------------------------ */
/* put/get                                                             */
/* ------------------------------------------------------------------ */
/* Non-bulk puts: the source may be reused at return (GEX_EVENT_NOW); bulk
 * ones leave it to synchronization (GEX_EVENT_DEFER).  Gets are the same
 * call either way. */
void gasnet_put(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  (void)gex_RMA_PutBlocking(_stp_legacy_tm, node, dest, src, nbytes, 0);
}
void gasnet_put_bulk(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  (void)gex_RMA_PutBlocking(_stp_legacy_tm, node, dest, src, nbytes, 0);
}
void gasnet_get(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  (void)gex_RMA_GetBlocking(_stp_legacy_tm, dest, node, (void *)(uintptr_t)src, nbytes, 0);
}
void gasnet_get_bulk(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  (void)gex_RMA_GetBlocking(_stp_legacy_tm, dest, node, (void *)(uintptr_t)src, nbytes, 0);
}

gasnet_handle_t gasnet_put_nb(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  return gex_RMA_PutNB(_stp_legacy_tm, node, dest, src, nbytes, GEX_EVENT_NOW, 0);
}
gasnet_handle_t gasnet_put_nb_bulk(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  return gex_RMA_PutNB(_stp_legacy_tm, node, dest, src, nbytes, GEX_EVENT_DEFER, 0);
}
gasnet_handle_t gasnet_get_nb(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  return gex_RMA_GetNB(_stp_legacy_tm, dest, node, (void *)(uintptr_t)src, nbytes, 0);
}
gasnet_handle_t gasnet_get_nb_bulk(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  return gex_RMA_GetNB(_stp_legacy_tm, dest, node, (void *)(uintptr_t)src, nbytes, 0);
}

void gasnet_put_nbi(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  (void)gex_RMA_PutNBI(_stp_legacy_tm, node, dest, src, nbytes, GEX_EVENT_NOW, 0);
}
void gasnet_put_nbi_bulk(gasnet_node_t node, void *dest, const void *src, size_t nbytes) {
  (void)gex_RMA_PutNBI(_stp_legacy_tm, node, dest, src, nbytes, GEX_EVENT_DEFER, 0);
}
void gasnet_get_nbi(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  (void)gex_RMA_GetNBI(_stp_legacy_tm, dest, node, (void *)(uintptr_t)src, nbytes, 0);
}
void gasnet_get_nbi_bulk(void *dest, gasnet_node_t node, const void *src, size_t nbytes) {
  (void)gex_RMA_GetNBI(_stp_legacy_tm, dest, node, (void *)(uintptr_t)src, nbytes, 0);
}

/* ------------------------------------------------------------------ */
/* memset: puts from a pattern buffer                                  */
/* ------------------------------------------------------------------ */
#define PATTERN_BYTES ((size_t)64 * 1024)
static __thread unsigned char *pattern; /* PATTERN_BYTES of pattern_val */
static __thread int pattern_val = -1;
static __thread int region_open;        /* the client's access region (gasnet_begin_nbi_accessregion) */

static const void *pattern_of(int val) {
  if (!pattern && !(pattern = malloc(PATTERN_BYTES))) _stp_Fatal("gasnet_memset: out of memory for its pattern buffer");
  if (pattern_val != (unsigned char)val) {
    memset(pattern, val, PATTERN_BYTES);
    pattern_val = (unsigned char)val;
  }
  return pattern;
}

/* Every chunk of [dest, dest+n) but the last, blocking (the pattern is
 * free again at return); *last_off: where the last one starts. */
static void memset_head(gasnet_node_t node, char *dest, size_t n, const void *pat, size_t *last_off) {
  size_t off = 0;
  for (; n - off > PATTERN_BYTES; off += PATTERN_BYTES)
    (void)gex_RMA_PutBlocking(_stp_legacy_tm, node, dest + off, pat, PATTERN_BYTES, 0);
  *last_off = off;
}

void gasnet_memset_nbi(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  const void *pat = pattern_of(val);
  for (size_t off = 0; off < nbytes; off += PATTERN_BYTES) {
    size_t k = nbytes - off < PATTERN_BYTES ? nbytes - off : PATTERN_BYTES;
    (void)gex_RMA_PutNBI(_stp_legacy_tm, node, (char *)dest + off, pat, k, GEX_EVENT_NOW, 0);
  }
}

/* One handle for every chunk: an access region of its own when the client
 * has none open; else the chunks but the last complete before it. */
gasnet_handle_t gasnet_memset_nb(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  const void *pat;
  size_t last;
  if (nbytes > PATTERN_BYTES && !region_open) {
    gex_NBI_BeginAccessRegion(0);
    gasnet_memset_nbi(node, dest, val, nbytes);
    return gex_NBI_EndAccessRegion(0);
  }
  pat = pattern_of(val);
  memset_head(node, (char *)dest, nbytes, pat, &last);
  return gex_RMA_PutNB(_stp_legacy_tm, node, (char *)dest + last, pat, nbytes - last, GEX_EVENT_NOW, 0);
}

void gasnet_memset(gasnet_node_t node, void *dest, int val, size_t nbytes) {
  const void *pat = pattern_of(val);
  size_t last;
  memset_head(node, (char *)dest, nbytes, pat, &last);
  (void)gex_RMA_PutBlocking(_stp_legacy_tm, node, (char *)dest + last, pat, nbytes - last, 0);
}

/* ------------------------------------------------------------------ */
/* synchronization                                                     */
/* ------------------------------------------------------------------ */
void gasnet_wait_syncnb(gasnet_handle_t handle) { gex_Event_Wait(handle); }
int gasnet_try_syncnb(gasnet_handle_t handle) {
  (void)gasnet_AMPoll();
  return gex_Event_Test(handle);
}
int gasnet_try_syncnb_nopoll(gasnet_handle_t handle) { return gex_Event_Test(handle); }
void gasnet_wait_syncnb_all(gasnet_handle_t *handles, size_t numhandles) { gex_Event_WaitAll(handles, numhandles, 0); }
int gasnet_try_syncnb_all(gasnet_handle_t *handles, size_t numhandles) {
  (void)gasnet_AMPoll();
  return gex_Event_TestAll(handles, numhandles, 0);
}
int gasnet_try_syncnb_all_nopoll(gasnet_handle_t *handles, size_t numhandles) {
  return gex_Event_TestAll(handles, numhandles, 0);
}
void gasnet_wait_syncnb_some(gasnet_handle_t *handles, size_t numhandles) { gex_Event_WaitSome(handles, numhandles, 0); }
int gasnet_try_syncnb_some(gasnet_handle_t *handles, size_t numhandles) {
  (void)gasnet_AMPoll();
  return gex_Event_TestSome(handles, numhandles, 0);
}
int gasnet_try_syncnb_some_nopoll(gasnet_handle_t *handles, size_t numhandles) {
  return gex_Event_TestSome(handles, numhandles, 0);
}

void gasnet_wait_syncnbi_gets(void) { gex_NBI_Wait(GEX_EC_GET, 0); }
void gasnet_wait_syncnbi_puts(void) { gex_NBI_Wait(GEX_EC_PUT, 0); }
void gasnet_wait_syncnbi_all(void) { gex_NBI_Wait(GEX_EC_ALL, 0); }
int gasnet_try_syncnbi_gets(void) {
  (void)gasnet_AMPoll();
  return gex_NBI_Test(GEX_EC_GET, 0);
}
int gasnet_try_syncnbi_puts(void) {
  (void)gasnet_AMPoll();
  return gex_NBI_Test(GEX_EC_PUT, 0);
}
int gasnet_try_syncnbi_all(void) {
  (void)gasnet_AMPoll();
  return gex_NBI_Test(GEX_EC_ALL, 0);
}

void gasnet_begin_nbi_accessregion(void) {
  gex_NBI_BeginAccessRegion(0);
  region_open = 1;
}
gasnet_handle_t gasnet_end_nbi_accessregion(void) {
  gasnet_handle_t h = gex_NBI_EndAccessRegion(0);
  region_open = 0;
  return h;
}

/* ------------------------------------------------------------------ */
/* register-memory operations                                          */
/* ------------------------------------------------------------------ */
void gasnet_put_val(gasnet_node_t node, void *dest, gasnet_register_value_t value, size_t nbytes) {
  (void)gex_RMA_PutBlockingVal(_stp_legacy_tm, node, dest, value, nbytes, 0);
}
gasnet_handle_t gasnet_put_nb_val(gasnet_node_t node, void *dest, gasnet_register_value_t value, size_t nbytes) {
  return gex_RMA_PutNBVal(_stp_legacy_tm, node, dest, value, nbytes, 0);
}
void gasnet_put_nbi_val(gasnet_node_t node, void *dest, gasnet_register_value_t value, size_t nbytes) {
  (void)gex_RMA_PutNBIVal(_stp_legacy_tm, node, dest, value, nbytes, 0);
}
gasnet_register_value_t gasnet_get_val(gasnet_node_t node, const void *src, size_t nbytes) {
  return gex_RMA_GetBlockingVal(_stp_legacy_tm, node, (void *)(uintptr_t)src, nbytes, 0);
}

/* A value get in flight: its landing buffer and event, in a pooled record.
 * A handle names the record and the generation of its use (index + 1 in
 * the low word, the generation above), so a handle synchronized already is
 * found stale -- not taken for the get that reuses its record. */
typedef struct {
  gex_Event_t ev;
  uint64_t buf;
  uint32_t gen; /* bumped at every wait */
  uint8_t live, n;
  uint32_t next_free; /* index + 1, 0: none */
} valget_t;
#define VALGET_CHUNK 256u
static struct {
  pthread_mutex_t lock; /* (GASNET_PAR: any thread may start or wait) */
  valget_t **chunk;
  uint32_t nchunks, free_head;
} vg = {PTHREAD_MUTEX_INITIALIZER, NULL, 0, 0};

static valget_t *valget_at(uint32_t index) { return &vg.chunk[index / VALGET_CHUNK][index % VALGET_CHUNK]; }

static uint32_t valget_alloc(void) {
  uint32_t index;
  pthread_mutex_lock(&vg.lock);
  if (!vg.free_head) {
    valget_t *c = calloc(VALGET_CHUNK, sizeof(*c));
    valget_t **t = realloc(vg.chunk, (vg.nchunks + 1) * sizeof(*t));
    if (!c || !t) _stp_Fatal("gasnet_get_nb_val: out of memory");
    vg.chunk = t;
    vg.chunk[vg.nchunks] = c;
    for (uint32_t k = 0; k < VALGET_CHUNK; k++) c[k].next_free = k + 1 < VALGET_CHUNK ? vg.nchunks * VALGET_CHUNK + k + 2 : 0;
    vg.free_head = vg.nchunks * VALGET_CHUNK + 1;
    vg.nchunks++;
  }
  index = vg.free_head - 1;
  vg.free_head = valget_at(index)->next_free;
  valget_at(index)->live = 1;
  pthread_mutex_unlock(&vg.lock);
  return index;
}

gasnet_valget_handle_t gasnet_get_nb_val(gasnet_node_t node, const void *src, size_t nbytes) {
  uint32_t index;
  valget_t *v;
  if (nbytes == 0 || nbytes > SIZEOF_GASNET_REGISTER_VALUE_T)
    _stp_Fatal("gasnet_get_nb_val: nbytes = %zu, must be 1..%d", nbytes, SIZEOF_GASNET_REGISTER_VALUE_T);
  index = valget_alloc();
  v = valget_at(index);
  v->buf = 0;
  v->n = (uint8_t)nbytes;
  v->ev = gex_RMA_GetNB(_stp_legacy_tm, &v->buf, node, (void *)(uintptr_t)src, nbytes, 0);
  return (gasnet_valget_handle_t)(uintptr_t)(((uint64_t)v->gen << 32) | (index + 1));
}

gasnet_register_value_t gasnet_wait_syncnb_valget(gasnet_valget_handle_t handle) {
  uint64_t h = (uint64_t)(uintptr_t)handle;
  uint32_t index = (uint32_t)h - 1, gen = (uint32_t)(h >> 32);
  gasnet_register_value_t r;
  valget_t *v = NULL;
  pthread_mutex_lock(&vg.lock);
  if ((uint32_t)h && index / VALGET_CHUNK < vg.nchunks) v = valget_at(index);
  pthread_mutex_unlock(&vg.lock);
  if (!v || !v->live || v->gen != gen)
    _stp_Fatal("gasnet_wait_syncnb_valget: handle %p is not a value get in flight (synchronized already, or not a "
               "value-get handle)", (void *)handle);
  gex_Event_Wait(v->ev);
  r = _stp_val_load(&v->buf, v->n);
  pthread_mutex_lock(&vg.lock);
  v->live = 0;
  v->gen++;
  v->next_free = vg.free_head;
  vg.free_head = index + 1;
  pthread_mutex_unlock(&vg.lock);
  return r;
}

/* ------------------------------------------------------------------ */
/* barriers                                                            */
/* ------------------------------------------------------------------ */
#define BARRIER_FLAGS (GASNET_BARRIERFLAG_ANONYMOUS | GASNET_BARRIERFLAG_MISMATCH | GASNET_BARRIERFLAG_UNNAMED)
/* the value flags of _stp_Coll_BarrierValueNB */
enum { BV_ANON = 1, BV_MISMATCH = 2 };

static struct {
  int notified;        /* notify called, wait/try not yet successful */
  int my_id, my_flags; /* what notify said */
  gex_Event_t ev;
  int last_id, last_anon; /* the last completed barrier's value (before any: attach's, anonymous) */
} bar = {0, 0, 0, GEX_EVENT_INVALID, 0, 1};

/* The team of the barrier: the legacy team (after gasnet_attach) of a
 * gasnet_init client; an EX client's primordial team. */
static gex_TM_t barrier_tm(const char *fn) {
  if (!lg_client) return _stp_TM_Primordial();
  check_attached(fn);
  return _stp_legacy_tm;
}

static void check_barrier_flags(const char *fn, int flags) {
  if (flags & ~BARRIER_FLAGS)
    _stp_Fatal("%s: flags 0x%x: not a combination of GASNET_BARRIERFLAG_ANONYMOUS, _MISMATCH and _UNNAMED", fn,
               (unsigned)flags);
}

void gasnet_barrier_notify(int id, int flags) {
  gex_TM_t tm = barrier_tm("gasnet_barrier_notify");
  check_barrier_flags("gasnet_barrier_notify", flags);
  if (bar.notified) _stp_Fatal("gasnet_barrier_notify: called twice without an intervening gasnet_barrier_wait");
  bar.notified = 1;
  bar.my_id = id;
  bar.my_flags = flags;
  bar.ev = _stp_Coll_BarrierValueNB(tm, id,
                                    ((flags & GASNET_BARRIERFLAG_ANONYMOUS) ? BV_ANON : 0) |
                                        ((flags & GASNET_BARRIERFLAG_MISMATCH) ? BV_MISMATCH : 0));
}

/* The barrier's value has come: this node's result.  A GASNet-1 client
 * (gasnet_init) gets spec 1.8's rules: wait's flags must equal notify's,
 * and a named wait's id this node's notify id.  A GASNet-EX client gets
 * those of the GASNet releases since 1.20 (GASNet-EX's testbarrierconf
 * checks them): wait's flags may differ from notify's; a named wait
 * mismatches only a named barrier value other than its id. */
static int finish(int id, int flags, int all_id, int all_flags) {
  int named_wait = !(flags & (GASNET_BARRIERFLAG_ANONYMOUS | GASNET_BARRIERFLAG_MISMATCH));
  int mismatch = (all_flags & BV_MISMATCH) || (flags & GASNET_BARRIERFLAG_MISMATCH);
  if (lg_client) mismatch = mismatch || flags != bar.my_flags || (named_wait && id != bar.my_id);
  else mismatch = mismatch || (named_wait && !(all_flags & BV_ANON) && id != all_id);
  bar.notified = 0;
  bar.last_id = all_id;
  bar.last_anon = (all_flags & BV_ANON) && !(all_flags & BV_MISMATCH);
  return mismatch ? GASNET_ERR_BARRIER_MISMATCH : GASNET_OK;
}

static void check_notified(const char *fn, int flags) {
  (void)barrier_tm(fn);
  check_barrier_flags(fn, flags);
  if (!bar.notified) _stp_Fatal("%s: no preceding gasnet_barrier_notify", fn);
}

int gasnet_barrier_try(int id, int flags) {
  int all_id, all_flags;
  check_notified("gasnet_barrier_try", flags);
  (void)gasnet_AMPoll();
  if (_stp_Coll_BarrierValueTest(bar.ev, &all_id, &all_flags) != GASNET_OK) return GASNET_ERR_NOT_READY;
  return finish(id, flags, all_id, all_flags);
}

int gasnet_barrier_wait(int id, int flags) {
  int all_id, all_flags;
  check_notified("gasnet_barrier_wait", flags);
  GASNET_BLOCKUNTIL(_stp_Coll_BarrierValueTest(bar.ev, &all_id, &all_flags) == GASNET_OK);
  return finish(id, flags, all_id, all_flags);
}

int gasnet_barrier(int id, int flags) {
  (void)barrier_tm("gasnet_barrier");
  if (bar.notified) _stp_Fatal("gasnet_barrier: called between gasnet_barrier_notify and gasnet_barrier_wait");
  gasnet_barrier_notify(id, flags);
  return gasnet_barrier_wait(id, flags);
}

int gasnet_barrier_result(int *id) {
  (void)barrier_tm("gasnet_barrier_result");
  if (!id) _stp_Fatal("gasnet_barrier_result: the id pointer is NULL");
  if (bar.notified) _stp_Fatal("gasnet_barrier_result: called between gasnet_barrier_notify and gasnet_barrier_wait");
  *id = bar.last_id;
  return bar.last_anon;
}

/* ------------------------------------------------------------------ */
/* VIS (gasnet_vis.h): the same calls on the legacy team               */
/* ------------------------------------------------------------------ */
/* gasnet_memvec_t is laid out as gex_Memvec_t; GASNet-1's strided
 * metadata is EX's with count[0] as the chunk size and the extents after
 * it, and unsigned strides (the same words as ptrdiff_t). */
_Static_assert(sizeof(gasnet_memvec_t) == sizeof(gex_Memvec_t) && offsetof(gasnet_memvec_t, len) ==
                   offsetof(gex_Memvec_t, gex_len),
               "gasnet_memvec_t is a gex_Memvec_t");
_Static_assert(sizeof(size_t) == sizeof(ptrdiff_t), "GASNet-1 strides are EX strides");
#define MV(l) ((const gex_Memvec_t *)(l))
#define ST(s) ((const ptrdiff_t *)(s))

void gasnet_putv_bulk(gex_Rank_t dstnode, size_t dstcount, gasnet_memvec_t const dstlist[], size_t srccount,
                      gasnet_memvec_t const srclist[]) {
  (void)gex_VIS_VectorPutBlocking(_stp_legacy_tm, dstnode, dstcount, MV(dstlist), srccount, MV(srclist), 0);
}
gex_Event_t gasnet_putv_nb_bulk(gex_Rank_t dstnode, size_t dstcount, gasnet_memvec_t const dstlist[], size_t srccount,
                                gasnet_memvec_t const srclist[]) {
  return gex_VIS_VectorPutNB(_stp_legacy_tm, dstnode, dstcount, MV(dstlist), srccount, MV(srclist), 0);
}
void gasnet_putv_nbi_bulk(gex_Rank_t dstnode, size_t dstcount, gasnet_memvec_t const dstlist[], size_t srccount,
                          gasnet_memvec_t const srclist[]) {
  (void)gex_VIS_VectorPutNBI(_stp_legacy_tm, dstnode, dstcount, MV(dstlist), srccount, MV(srclist), 0);
}
void gasnet_getv_bulk(size_t dstcount, gasnet_memvec_t const dstlist[], gex_Rank_t srcnode, size_t srccount,
                      gasnet_memvec_t const srclist[]) {
  (void)gex_VIS_VectorGetBlocking(_stp_legacy_tm, dstcount, MV(dstlist), srcnode, srccount, MV(srclist), 0);
}
gex_Event_t gasnet_getv_nb_bulk(size_t dstcount, gasnet_memvec_t const dstlist[], gex_Rank_t srcnode, size_t srccount,
                                gasnet_memvec_t const srclist[]) {
  return gex_VIS_VectorGetNB(_stp_legacy_tm, dstcount, MV(dstlist), srcnode, srccount, MV(srclist), 0);
}
void gasnet_getv_nbi_bulk(size_t dstcount, gasnet_memvec_t const dstlist[], gex_Rank_t srcnode, size_t srccount,
                          gasnet_memvec_t const srclist[]) {
  (void)gex_VIS_VectorGetNBI(_stp_legacy_tm, dstcount, MV(dstlist), srcnode, srccount, MV(srclist), 0);
}

void gasnet_puti_bulk(gex_Rank_t dstnode, size_t dstcount, void *const dstlist[], size_t dstlen, size_t srccount,
                      void *const srclist[], size_t srclen) {
  (void)gex_VIS_IndexedPutBlocking(_stp_legacy_tm, dstnode, dstcount, dstlist, dstlen, srccount, srclist, srclen, 0);
}
gex_Event_t gasnet_puti_nb_bulk(gex_Rank_t dstnode, size_t dstcount, void *const dstlist[], size_t dstlen,
                                size_t srccount, void *const srclist[], size_t srclen) {
  return gex_VIS_IndexedPutNB(_stp_legacy_tm, dstnode, dstcount, dstlist, dstlen, srccount, srclist, srclen, 0);
}
void gasnet_puti_nbi_bulk(gex_Rank_t dstnode, size_t dstcount, void *const dstlist[], size_t dstlen, size_t srccount,
                          void *const srclist[], size_t srclen) {
  (void)gex_VIS_IndexedPutNBI(_stp_legacy_tm, dstnode, dstcount, dstlist, dstlen, srccount, srclist, srclen, 0);
}
void gasnet_geti_bulk(size_t dstcount, void *const dstlist[], size_t dstlen, gex_Rank_t srcnode, size_t srccount,
                      void *const srclist[], size_t srclen) {
  (void)gex_VIS_IndexedGetBlocking(_stp_legacy_tm, dstcount, dstlist, dstlen, srcnode, srccount, srclist, srclen, 0);
}
gex_Event_t gasnet_geti_nb_bulk(size_t dstcount, void *const dstlist[], size_t dstlen, gex_Rank_t srcnode,
                                size_t srccount, void *const srclist[], size_t srclen) {
  return gex_VIS_IndexedGetNB(_stp_legacy_tm, dstcount, dstlist, dstlen, srcnode, srccount, srclist, srclen, 0);
}
void gasnet_geti_nbi_bulk(size_t dstcount, void *const dstlist[], size_t dstlen, gex_Rank_t srcnode, size_t srccount,
                          void *const srclist[], size_t srclen) {
  (void)gex_VIS_IndexedGetNBI(_stp_legacy_tm, dstcount, dstlist, dstlen, srcnode, srccount, srclist, srclen, 0);
}

/* (count[0]: the chunk; count + 1: the stridelevels extents) */
#define LEGACY_COUNT(fn, count, stridelevels) \
  do { (void)(stridelevels); if (!(count)) _stp_Fatal(fn ": the count array is NULL"); } while (0)
void gasnet_puts_bulk(gex_Rank_t dstnode, void *dstaddr, const size_t dststrides[], void *srcaddr,
                      const size_t srcstrides[], const size_t count[], size_t stridelevels) {
  LEGACY_COUNT("gasnet_puts_bulk", count, stridelevels);
  (void)gex_VIS_StridedPutBlocking(_stp_legacy_tm, dstnode, dstaddr, ST(dststrides), srcaddr, ST(srcstrides), count[0],
                                   count + 1, stridelevels, 0);
}
gex_Event_t gasnet_puts_nb_bulk(gex_Rank_t dstnode, void *dstaddr, const size_t dststrides[], void *srcaddr,
                                const size_t srcstrides[], const size_t count[], size_t stridelevels) {
  LEGACY_COUNT("gasnet_puts_nb_bulk", count, stridelevels);
  return gex_VIS_StridedPutNB(_stp_legacy_tm, dstnode, dstaddr, ST(dststrides), srcaddr, ST(srcstrides), count[0],
                              count + 1, stridelevels, 0);
}
void gasnet_puts_nbi_bulk(gex_Rank_t dstnode, void *dstaddr, const size_t dststrides[], void *srcaddr,
                          const size_t srcstrides[], const size_t count[], size_t stridelevels) {
  LEGACY_COUNT("gasnet_puts_nbi_bulk", count, stridelevels);
  (void)gex_VIS_StridedPutNBI(_stp_legacy_tm, dstnode, dstaddr, ST(dststrides), srcaddr, ST(srcstrides), count[0],
                              count + 1, stridelevels, 0);
}
void gasnet_gets_bulk(void *dstaddr, const size_t dststrides[], gex_Rank_t srcnode, void *srcaddr,
                      const size_t srcstrides[], const size_t count[], size_t stridelevels) {
  LEGACY_COUNT("gasnet_gets_bulk", count, stridelevels);
  (void)gex_VIS_StridedGetBlocking(_stp_legacy_tm, dstaddr, ST(dststrides), srcnode, srcaddr, ST(srcstrides), count[0],
                                   count + 1, stridelevels, 0);
}
gex_Event_t gasnet_gets_nb_bulk(void *dstaddr, const size_t dststrides[], gex_Rank_t srcnode, void *srcaddr,
                                const size_t srcstrides[], const size_t count[], size_t stridelevels) {
  LEGACY_COUNT("gasnet_gets_nb_bulk", count, stridelevels);
  return gex_VIS_StridedGetNB(_stp_legacy_tm, dstaddr, ST(dststrides), srcnode, srcaddr, ST(srcstrides), count[0],
                              count + 1, stridelevels, 0);
}
void gasnet_gets_nbi_bulk(void *dstaddr, const size_t dststrides[], gex_Rank_t srcnode, void *srcaddr,
                          const size_t srcstrides[], const size_t count[], size_t stridelevels) {
  LEGACY_COUNT("gasnet_gets_nbi_bulk", count, stridelevels);
  (void)gex_VIS_StridedGetNBI(_stp_legacy_tm, dstaddr, ST(dststrides), srcnode, srcaddr, ST(srcstrides), count[0],
                              count + 1, stridelevels, 0);
}
