/*
 * ref_coll.c -- the reference collectives over the Core's AMs (coll.h):
 * the barrier (with a value) and broadcast on the primordial team.
 *
 * Every operation is an instance named by its kind's sequence number
 * (operations of a kind are initiated in the same order everywhere).  A
 * message for an instance not yet initiated here creates it and waits in
 * it; initiation finds it.  Instances complete in any order.
 *
 * Barrier: dissemination -- in round r process i sends its accumulated
 * value to (i + 2^r) mod N and takes the one from (i - 2^r) mod N; after
 * ceil(log2 N) rounds every process has combined every process's value.
 * Combining (GASNet-1's rules): anonymous matches anything and takes the
 * other's id; two different ids make a mismatch, which stays.  Rounds are
 * sent from the progress hook (every poll while a barrier waits, never from
 * a handler or inside a request being sent), so a process that entered a
 * barrier and computes while polling still relays for the others.
 *
 * Broadcast: the root sends the data to every other process in Medium
 * requests of at most max_medium bytes, each naming its offset; a process
 * copies what arrives into its dst -- or, before it has initiated the
 * broadcast, into a buffer of its instance, copied over at initiation.  A
 * non-root completes when every byte is in; the root when its requests
 * have returned (its data has left).
 */
#include "stp_internal.h"

#include <stdlib.h>

#define MAX_ROUNDS 32
enum { K_BARRIER = 0, K_BCAST = 1 };

typedef struct inst {
  struct inst *next;
  uint8_t kind;
  uint32_t seq;
  stp_ev_t *ev; /* NULL until initiated here */
  /* barrier */
  int nrounds, round, sent;
  stp_bval_t acc;
  uint8_t arrived[MAX_ROUNDS];
  stp_bval_t in[MAX_ROUNDS];
  /* broadcast */
  char *dst;
  size_t n, got;
  char *early; /* data that came before initiation */
} inst_t;

static struct {
  inst_t *list;
  uint32_t seq[2];  /* the next instance of each kind to initiate here */
  unsigned waiting; /* initiated barriers with rounds to go */
} cr;

static inst_t *find(int kind, uint32_t seq, int create) {
  inst_t *i;
  for (i = cr.list; i; i = i->next)
    if (i->kind == kind && i->seq == seq) return i;
  if (!create) return NULL;
  if (!(i = calloc(1, sizeof(*i)))) stp_fatal("collectives: out of memory");
  i->kind = (uint8_t)kind;
  i->seq = seq;
  i->next = cr.list;
  cr.list = i;
  return i;
}

static void drop(inst_t *d) {
  for (inst_t **p = &cr.list; *p; p = &(*p)->next)
    if (*p == d) {
      *p = d->next;
      free(d->early);
      free(d);
      return;
    }
}

/* ------------------------------------------------------------------ */
/* barrier                                                             */
/* ------------------------------------------------------------------ */
static inline void merge(stp_bval_t *acc, const stp_bval_t *in) {
  uint8_t mism = (uint8_t)((acc->flags | in->flags) & STP_BV_MISMATCH);
  if (acc->flags & STP_BV_ANON) {
    acc->flags = (uint8_t)(in->flags | mism);
    acc->id = in->id;
  } else {
    if (!(in->flags & STP_BV_ANON) && in->id != acc->id) mism = STP_BV_MISMATCH;
    acc->flags = (uint8_t)(acc->flags | mism);
  }
}

static void barrier_handler(gex_Token_t token, gex_AM_Arg_t seq, gex_AM_Arg_t round, gex_AM_Arg_t flags,
                            gex_AM_Arg_t id) {
  inst_t *i = find(K_BARRIER, (uint32_t)seq, 1);
  (void)token;
  if ((uint32_t)round >= MAX_ROUNDS || i->arrived[round])
    stp_fatal("barrier: protocol error (barrier %u round %u delivered twice)", (unsigned)seq, (unsigned)round);
  i->arrived[round] = 1;
  i->in[round].flags = (uint8_t)flags;
  i->in[round].id = id;
}

static void send_round(inst_t *i) {
  gex_AM_Arg_t args[4] = {(gex_AM_Arg_t)i->seq, i->round, i->acc.flags, i->acc.id};
  gex_Rank_t peer = (gex_Rank_t)(((uint64_t)stp.mynode + (1ull << i->round)) % stp.nodes);
  stp_am_t am = {STP_AM_SHORT, 0, STP_H_COLL_BARRIER, 4, args, NULL, 0, NULL, 0, NULL, 0};
  i->sent = i->round + 1;
  stp_am_request(peer, &am);
}

/* 1 when the barrier is complete (its event finished, the instance gone). */
static int barrier_advance(inst_t *i) {
  while (i->round < i->nrounds) {
    if (i->sent <= i->round) send_round(i);
    if (!i->arrived[i->round]) return 0;
    merge(&i->acc, &i->in[i->round]);
    i->round++;
  }
  i->ev->val = ((uint64_t)i->acc.flags << 32) | (uint32_t)i->acc.id;
  stp_ev_finish(i->ev, STP_EC_COLL);
  cr.waiting--;
  stp.coll_active = cr.waiting != 0;
  drop(i);
  return 1;
}

stp_ev_t *stp_coll_barrier(const stp_bval_t *v) {
  inst_t *i = find(K_BARRIER, cr.seq[K_BARRIER]++, 1);
  stp_ev_t *ev = stp_ev_alloc(STP_EV_ROOT);
  i->ev = ev;
  stp_ev_start(ev, STP_EC_COLL);
  i->acc = *v;
  if (i->acc.flags & STP_BV_MISMATCH) i->acc.flags |= STP_BV_ANON; /* (GASNet-1: a MISMATCH notify is anonymous) */
  while ((1ull << i->nrounds) < stp.nodes) i->nrounds++;
  cr.waiting++;
  stp.coll_active = 1;
  (void)barrier_advance(i); /* (a job of one: complete, the instance gone) */
  return ev;
}

/* ------------------------------------------------------------------ */
/* broadcast                                                           */
/* ------------------------------------------------------------------ */
static void bcast_done(inst_t *i) {
  stp_ev_finish(i->ev, STP_EC_COLL);
  drop(i);
}

static void bcast_handler(gex_Token_t token, void *buf, size_t nbytes, gex_AM_Arg_t seq, gex_AM_Arg_t off_lo,
                          gex_AM_Arg_t off_hi, gex_AM_Arg_t n_lo, gex_AM_Arg_t n_hi) {
  inst_t *i = find(K_BCAST, (uint32_t)seq, 1);
  size_t off = (size_t)STP_ARG_U64(off_lo, off_hi), n = (size_t)STP_ARG_U64(n_lo, n_hi);
  (void)token;
  if (!i->ev && !i->early) { /* before initiation here: keep it */
    if (!(i->early = malloc(n ? n : 1))) stp_fatal("broadcast: out of memory for %zu bytes that came early", n);
    i->n = n;
  }
  if (STP_UNLIKELY(n != i->n || off > n || nbytes > n - off))
    stp_fatal("broadcast %u: %zu bytes at offset %zu of %zu, this process expects %zu", (unsigned)seq, nbytes, off, n,
              i->n);
  memcpy((i->ev ? i->dst : i->early) + off, buf, nbytes);
  i->got += nbytes;
  if (i->ev && i->got == i->n) bcast_done(i);
}

stp_ev_t *stp_coll_bcast(gex_Rank_t root, void *dst, const void *src, size_t n) {
  uint32_t seq = cr.seq[K_BCAST]++;
  stp_ev_t *ev = stp_ev_alloc(STP_EV_ROOT);
  if (stp.mynode == root) {
    size_t chunk = stp.core->max_medium;
    gex_AM_Arg_t args[5] = {(gex_AM_Arg_t)seq, 0, 0, STP_ARG_LO(n), STP_ARG_HI(n)};
    stp_am_t am = {STP_AM_MEDIUM, 0, STP_H_COLL_BCAST, 5, args, NULL, 0, NULL, 0, NULL, 0};
    if (dst != src) memcpy(dst, src, n);
    for (gex_Rank_t r = 0; r < stp.nodes; r++) {
      if (r == root) continue;
      for (size_t off = 0; off < n; off += chunk) {
        args[1] = STP_ARG_LO(off);
        args[2] = STP_ARG_HI(off);
        am.src = (const char *)src + off;
        am.nbytes = STP_MIN(chunk, n - off);
        stp_am_request(r, &am);
      }
    }
    return ev; /* (its data has left: complete) */
  }
  if (!n) return ev;
  {
    inst_t *i = find(K_BCAST, seq, 1);
    i->ev = ev;
    i->dst = dst;
    stp_ev_start(ev, STP_EC_COLL);
    if (i->early) {
      if (STP_UNLIKELY(i->n != n))
        stp_fatal("broadcast %u: the root sends %zu bytes, this process expects %zu", (unsigned)seq, i->n, n);
      memcpy(dst, i->early, i->got);
      free(i->early);
      i->early = NULL;
    }
    i->n = n;
    if (i->got == n) bcast_done(i);
  }
  return ev;
}

/* ------------------------------------------------------------------ */
/* setup and progress                                                  */
/* ------------------------------------------------------------------ */
void stp_coll_ref_register(void) {
  static const stp_handler_reg_t regs[] = {{STP_H_COLL_BARRIER, (gex_AM_Fn_t)barrier_handler},
                                           {STP_H_COLL_BCAST, (gex_AM_Fn_t)bcast_handler}};
  for (size_t k = 0; k < sizeof(regs) / sizeof(regs[0]); k++) {
    stp.handler[regs[k].index].fn = regs[k].fn;
    memset(&stp.handler[regs[k].index].entry, 0, sizeof(gex_AM_Entry_t));
  }
}

/* The progress hook: barrier rounds advance from every poll, but not from
 * inside a handler or a request being sent. */
void stp_coll_ref_progress(void) {
  inst_t *i, *next;
  if (stp.in_am_send || stp.in_handler) return;
  for (i = cr.list; i; i = next) {
    next = i->next;
    if (i->kind == K_BARRIER && i->ev) (void)barrier_advance(i);
  }
}
