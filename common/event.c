/*
 * event.c -- the event records' pool, handles and tests (event.h).
 */
#include "stp_internal.h"

#include <stdlib.h>

static stp_ev_t *ev_free_list;
static stp_ev_t **ev_chunk; /* every chunk of records, in index order */
static uint32_t ev_nchunks;
#define EV_CHUNK 256u
#define EV_MAX_CHUNKS ((STP_EV_LEAF_BIT - 1u) / EV_CHUNK) /* indices stay below the leaf bit */

stp_ev_t *stp_ev_alloc(int kind) {
  stp_ev_t *e = ev_free_list;
  uint32_t index, gen;
  if (STP_UNLIKELY(!e)) {
    stp_ev_t *chunk = calloc(EV_CHUNK, sizeof(*chunk));
    stp_ev_t **tab = realloc(ev_chunk, (ev_nchunks + 1) * sizeof(*tab));
    if (!chunk || !tab || ev_nchunks >= EV_MAX_CHUNKS)
      stp_fatal("out of memory allocating event records (%u in use)", ev_nchunks * EV_CHUNK);
    ev_chunk = tab;
    ev_chunk[ev_nchunks] = chunk;
    for (uint32_t i = 0; i < EV_CHUNK; i++) {
      chunk[i].index = ev_nchunks * EV_CHUNK + i;
      chunk[i].next = i + 1 < EV_CHUNK ? &chunk[i + 1] : NULL;
    }
    ev_nchunks++;
    e = chunk;
  }
  ev_free_list = e->next;
  index = e->index;
  gen = e->gen;
  stp_ev_init(e, kind);
  e->index = index;
  e->gen = gen;
  return e;
}

void stp_ev_free(stp_ev_t *e) {
  e->kind = STP_EV_FREE;
  e->gen++; /* every handle to this use is stale now */
  e->next = ev_free_list;
  ev_free_list = e;
}

stp_ev_t *stp_ev_lookup(gex_Event_t h, int *leaf) {
  uint64_t v = (uint64_t)(uintptr_t)h;
  uint32_t lo = (uint32_t)v, index = (lo & ~STP_EV_LEAF_BIT) - 1, gen = (uint32_t)(v >> 32);
  stp_ev_t *e;
  if (leaf) *leaf = (lo & STP_EV_LEAF_BIT) != 0;
  if (!(lo & ~STP_EV_LEAF_BIT) || h == GEX_EVENT_NO_OP || index / EV_CHUNK >= ev_nchunks) return NULL;
  e = &ev_chunk[index / EV_CHUNK][index % EV_CHUNK];
  return e->gen == gen && e->kind != STP_EV_FREE ? e : NULL;
}

int stp_ev_test(stp_ev_t *e, unsigned mask) {
  for (int c = 0; c < STP_EC_N; c++)
    if ((mask & STP_EC_MASK(c)) && e->n[c]) return 0;
  if ((mask & STP_EC_MASK(STP_EC_PUT)) && e->put_sync) {
    stp.rma->sync(e);
    return !e->n[STP_EC_PUT] && !e->put_sync;
  }
  return 1;
}

void stp_ev_wait(stp_ev_t *e, unsigned mask) {
  unsigned spins = 0;
  if (stp_ev_test(e, mask)) return;
  /* the network's own progress first (an RMA backend's completion events
   * are often already there), then the full poll */
  if (stp.net_poll) {
    stp.net_poll();
    if (stp_ev_test(e, mask)) return;
  }
  while (!stp_ev_test(e, mask)) stp_api_wait_step(&spins);
}
