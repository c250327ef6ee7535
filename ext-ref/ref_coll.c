/*
 * ref_coll.c -- the reference collectives over the Core's AMs (coll.h):
 * the barrier (with a value), the personalized exchange and the
 * reductions, on any team.
 *
 * Every operation is an instance named by its team's identity, its kind
 * and its sequence number (operations of a kind on a team are initiated in
 * the same order everywhere).  A message for an instance not yet initiated
 * here creates it and waits in it; initiation finds it.  Instances
 * complete in any order.  Messages name team ranks; the token's source is
 * never needed.
 *
 * Barrier: dissemination -- in round r team rank i sends its accumulated
 * value to (i + 2^r) mod N and takes the one from (i - 2^r) mod N; after
 * ceil(log2 N) rounds every member has combined every member's value.
 * Combining (GASNet-1's rules): anonymous matches anything and takes the
 * other's id; two different ids make a mismatch, which stays.  Rounds are
 * sent from the progress hook (every poll while a barrier waits, never from
 * a handler or inside a request being sent), so a process that entered a
 * barrier and computes while polling still relays for the others.
 *
 * Exchange: at initiation every block leaves in Medium requests of at most
 * max_medium bytes, each naming the sender's team rank and its offset; the
 * receiver copies it into the block's destination -- or, before it has
 * initiated the exchange, keeps a copy in the instance, replayed at
 * initiation.  Complete when every expected byte is in.
 *
 * Reduction: a binomial tree rooted at team rank 0 in which rank r's
 * subtree is the contiguous ranks [r, r + lowbit(r)): r takes its children
 * r+1, r+2, r+4, ... in that order, so its partial result is
 * src[r] op src[r+1] op ... in rank order (exact for non-commutative user
 * operations).  A child's vector is kept whole (fragments by offset) and
 * combined once complete; a rank whose children are all in sends its
 * partial result to its parent (from the progress hook).  Rank 0 holds
 * the result: it copies it to its dst and sends it on to the root (to
 * one) or to every member (to all), as phase-1 messages of the same
 * instance.
 */
#include "stp_internal.h"

#include <stdlib.h>

#define MAX_ROUNDS 32

typedef struct early { /* an exchange fragment that came before initiation */
  struct early *next;
  gex_Rank_t from;
  size_t off, len;
  char data[];
} early_t;

typedef struct kid { /* a reduction child's vector (or, phase 1, the result) */
  gex_Rank_t from;
  size_t got, n;
  char *buf;
} kid_t;

typedef struct inst {
  struct inst *next;
  uint64_t team;
  uint8_t kind;
  uint32_t seq;
  stp_ev_t *ev;   /* NULL until initiated here */
  stp_cteam_t *t; /* from initiation */
  int pending;    /* counted in cr.pending (advances from the progress hook) */
  int sending;    /* its initiation is sending (a handler that completes it leaves the freeing to it) */
  /* barrier */
  int nrounds, round, sent;
  stp_bval_t acc;
  uint8_t arrived[MAX_ROUNDS];
  stp_bval_t in[MAX_ROUNDS];
  /* exchange */
  char **rdst;
  size_t *rn;
  size_t need, got;
  early_t *early, **early_tail;
  /* reduction */
  gex_Rank_t root;
  char *dst;
  uint32_t dt, op;
  size_t esz, cnt, bytes;
  stp_reduce_fn_t fn;
  const void *cdata;
  int nkids, kids_done, contributed, want_result;
  kid_t kids[MAX_ROUNDS];
  char *accb;
  size_t res_got;
} inst_t;

static struct {
  inst_t *list;
  unsigned pending; /* initiated instances with steps to take outside handlers */
} cr;

static inst_t *find(uint64_t team, int kind, uint32_t seq, int create) {
  inst_t *i;
  for (i = cr.list; i; i = i->next)
    if (i->seq == seq && i->kind == kind && i->team == team) return i;
  if (!create) return NULL;
  if (!(i = calloc(1, sizeof(*i)))) stp_fatal("collectives: out of memory");
  i->team = team;
  i->kind = (uint8_t)kind;
  i->seq = seq;
  i->early_tail = &i->early;
  i->next = cr.list;
  cr.list = i;
  return i;
}

static void set_pending(inst_t *i, int on) {
  if (i->pending == on) return;
  i->pending = on;
  if (on) cr.pending++;
  else cr.pending--;
  stp.coll_active = cr.pending != 0;
}

/* The instance is complete here: its event finished, the instance gone. */
static void done(inst_t *d) {
  set_pending(d, 0);
  stp_ev_finish(d->ev, STP_EC_COLL);
  for (inst_t **p = &cr.list; *p; p = &(*p)->next)
    if (*p == d) {
      *p = d->next;
      break;
    }
  while (d->early) {
    early_t *e = d->early;
    d->early = e->next;
    free(e);
  }
  for (int k = 0; k < d->nkids; k++) free(d->kids[k].buf);
  free(d->rdst);
  free(d->rn);
  free(d->accb);
  free(d);
}

static stp_ev_t *initiated(inst_t *i, stp_cteam_t *t) {
  stp_ev_t *ev = stp_ev_alloc(STP_EV_ROOT);
  i->ev = ev;
  i->t = t;
  stp_ev_start(ev, STP_EC_COLL);
  return ev;
}

#define TEAM_ARGS(id) STP_ARG_LO(id), STP_ARG_HI(id)

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

static void barrier_handler(gex_Token_t token, gex_AM_Arg_t id_lo, gex_AM_Arg_t id_hi, gex_AM_Arg_t seq,
                            gex_AM_Arg_t round, gex_AM_Arg_t flags, gex_AM_Arg_t id) {
  inst_t *i = find(STP_ARG_U64(id_lo, id_hi), STP_CK_BARRIER, (uint32_t)seq, 1);
  (void)token;
  if ((uint32_t)round >= MAX_ROUNDS || i->arrived[round])
    stp_fatal("barrier: protocol error (team %" PRIx64 " barrier %u round %u delivered twice)", i->team,
              (unsigned)seq, (unsigned)round);
  i->arrived[round] = 1;
  i->in[round].flags = (uint8_t)flags;
  i->in[round].id = id;
}

static void send_round(inst_t *i) {
  gex_AM_Arg_t args[6] = {TEAM_ARGS(i->team), (gex_AM_Arg_t)i->seq, i->round, i->acc.flags, i->acc.id};
  gex_Rank_t peer = (gex_Rank_t)(((uint64_t)i->t->rank + (1ull << i->round)) % i->t->size);
  stp_am_t am = {STP_AM_SHORT, 0, STP_H_COLL_BARRIER, 6, args, NULL, 0, NULL, 0, NULL, 0};
  i->sent = i->round + 1;
  stp_am_request(stp_cteam_jobrank(i->t, peer), &am);
}

static void barrier_advance(inst_t *i) {
  while (i->round < i->nrounds) {
    if (i->sent <= i->round) send_round(i);
    if (!i->arrived[i->round]) return;
    merge(&i->acc, &i->in[i->round]);
    i->round++;
  }
  i->ev->val = ((uint64_t)i->acc.flags << 32) | (uint32_t)i->acc.id;
  done(i);
}

stp_ev_t *stp_coll_barrier(stp_cteam_t *t, const stp_bval_t *v) {
  inst_t *i = find(t->id, STP_CK_BARRIER, t->seq[STP_CK_BARRIER]++, 1);
  stp_ev_t *ev = initiated(i, t);
  i->acc = *v;
  if (i->acc.flags & STP_BV_MISMATCH) i->acc.flags |= STP_BV_ANON; /* (GASNet-1: a MISMATCH notify is anonymous) */
  while ((1ull << i->nrounds) < t->size) i->nrounds++;
  set_pending(i, 1);
  barrier_advance(i); /* (a team of one: complete, the instance gone) */
  return ev;
}

/* ------------------------------------------------------------------ */
/* personalized exchange                                               */
/* ------------------------------------------------------------------ */
static void xchg_take(inst_t *i, gex_Rank_t from, size_t off, const void *buf, size_t nbytes) {
  if (STP_UNLIKELY(from >= i->t->size || off > i->rn[from] || nbytes > i->rn[from] - off))
    stp_fatal("collective exchange (team %" PRIx64 " #%u): %zu bytes at offset %zu from team rank %u, which this "
              "process expects %zu bytes from (the members disagree on the sizes)",
              i->team, (unsigned)i->seq, nbytes, off, (unsigned)from, from < i->t->size ? i->rn[from] : (size_t)0);
  memcpy(i->rdst[from] + off, buf, nbytes);
  i->got += nbytes;
}

static void xchg_handler(gex_Token_t token, void *buf, size_t nbytes, gex_AM_Arg_t id_lo, gex_AM_Arg_t id_hi,
                         gex_AM_Arg_t seq, gex_AM_Arg_t from, gex_AM_Arg_t off_lo, gex_AM_Arg_t off_hi) {
  inst_t *i = find(STP_ARG_U64(id_lo, id_hi), STP_CK_XCHG, (uint32_t)seq, 1);
  size_t off = (size_t)STP_ARG_U64(off_lo, off_hi);
  (void)token;
  if (!i->ev) { /* before initiation here: keep it */
    early_t *e = malloc(sizeof(*e) + nbytes);
    if (!e) stp_fatal("collective exchange: out of memory for %zu bytes that came early", nbytes);
    e->next = NULL;
    e->from = (gex_Rank_t)from;
    e->off = off;
    e->len = nbytes;
    memcpy(e->data, buf, nbytes);
    *i->early_tail = e;
    i->early_tail = &e->next;
    return;
  }
  xchg_take(i, (gex_Rank_t)from, off, buf, nbytes);
  if (i->got == i->need && !i->sending) done(i);
}

/* Send n bytes from src to team rank `to` as fragments of instance i's kind
 * (phase: the reduction's; the exchange has none). */
static void send_frags(inst_t *i, gex_Rank_t to, const void *src, size_t n, int phase) {
  size_t chunk = stp.core->max_medium;
  gex_AM_Arg_t args[9] = {TEAM_ARGS(i->team), (gex_AM_Arg_t)i->seq, (gex_AM_Arg_t)i->t->rank, 0, 0, 0, 0, 0};
  int red = i->kind == STP_CK_REDUCE;
  stp_am_t am = {STP_AM_MEDIUM, 0, red ? STP_H_COLL_REDUCE : STP_H_COLL_XCHG, red ? 9 : 6, args, NULL, 0, NULL, 0,
                 NULL, 0};
  gex_Rank_t job = stp_cteam_jobrank(i->t, to);
  for (size_t off = 0; off < n; off += chunk) {
    if (red) {
      args[4] = phase;
      args[5] = STP_ARG_LO(off);
      args[6] = STP_ARG_HI(off);
      args[7] = STP_ARG_LO(n);
      args[8] = STP_ARG_HI(n);
    } else {
      args[4] = STP_ARG_LO(off);
      args[5] = STP_ARG_HI(off);
    }
    am.src = (const char *)src + off;
    am.nbytes = STP_MIN(chunk, n - off);
    stp_am_request(job, &am);
  }
}

stp_ev_t *stp_coll_xchg(stp_cteam_t *t, const void *const *send, const size_t *send_n, void *const *recv,
                        const size_t *recv_n) {
  inst_t *i = find(t->id, STP_CK_XCHG, t->seq[STP_CK_XCHG]++, 1);
  stp_ev_t *ev = initiated(i, t);
  gex_Rank_t me = t->rank, n = t->size;
  if (!(i->rdst = malloc(n * sizeof(char *))) || !(i->rn = malloc(n * sizeof(size_t))))
    stp_fatal("collective exchange: out of memory");
  for (gex_Rank_t r = 0; r < n; r++) {
    i->rdst[r] = recv[r];
    i->rn[r] = r == me ? 0 : recv_n[r];
    i->need += i->rn[r];
  }
  if (recv_n[me] != send_n[me])
    stp_fatal("collective exchange: this process sends itself %zu bytes and expects %zu", send_n[me], recv_n[me]);
  if (send_n[me] && recv[me] != send[me]) memmove(recv[me], send[me], send_n[me]);
  i->sending = 1; /* (a send may poll: the instance's last fragment may come meanwhile) */
  for (gex_Rank_t k = 1; k < n; k++) { /* (starting after me: not every member sends to rank 0 first) */
    gex_Rank_t r = (gex_Rank_t)(((uint64_t)me + k) % n);
    if (send_n[r]) send_frags(i, r, send[r], send_n[r], 0);
  }
  i->sending = 0;
  while (i->early) { /* what came before initiation */
    early_t *e = i->early;
    i->early = e->next;
    xchg_take(i, e->from, e->off, e->data, e->len);
    free(e);
  }
  if (i->got == i->need) done(i);
  return ev;
}

stp_ev_t *stp_coll_bcast(stp_cteam_t *t, gex_Rank_t root, void *dst, const void *src, size_t n) {
  gex_Rank_t size = t->size;
  const void **send = calloc(size, sizeof(void *));
  void **recv = calloc(size, sizeof(void *));
  size_t *sn = calloc(size, sizeof(size_t)), *rn = calloc(size, sizeof(size_t));
  stp_ev_t *ev;
  if (!send || !recv || !sn || !rn) stp_fatal("gex_Coll_BroadcastNB: out of memory");
  if (t->rank == root)
    for (gex_Rank_t r = 0; r < size; r++) send[r] = src, sn[r] = n;
  recv[root] = dst;
  rn[root] = n;
  ev = stp_coll_xchg(t, send, sn, recv, rn);
  free(send), free(recv), free(sn), free(rn);
  return ev;
}

/* ------------------------------------------------------------------ */
/* reductions                                                          */
/* ------------------------------------------------------------------ */
/* Built-in operations: out[i] = in[i] op out[i].  Integers wrap (in the
 * unsigned type of the width: no signed overflow). */
typedef void (*red_fn_t)(const void *in, void *out, size_t n);
#define RED(name, T, expr)                                       \
  static void name(const void *in_, void *out_, size_t n) {      \
    const T *in = in_;                                           \
    T *out = out_;                                               \
    for (size_t k = 0; k < n; k++) {                             \
      T x = in[k], y = out[k];                                   \
      out[k] = (expr);                                           \
    }                                                            \
  }
#define RED_INT(sfx, T, U)                                 \
  RED(add_##sfx, T, (T)((U)x + (U)y))                      \
  RED(mult_##sfx, T, (T)((U)x * (U)y))                     \
  RED(min_##sfx, T, x < y ? x : y)                         \
  RED(max_##sfx, T, x > y ? x : y)                         \
  RED(and_##sfx, T, (T)(x & y))                            \
  RED(or_##sfx, T, (T)(x | y))                             \
  RED(xor_##sfx, T, (T)(x ^ y))
#define RED_FP(sfx, T)         \
  RED(add_##sfx, T, x + y)     \
  RED(mult_##sfx, T, x * y)    \
  RED(min_##sfx, T, x < y ? x : y) \
  RED(max_##sfx, T, x > y ? x : y)
RED_INT(i32, int32_t, uint32_t)
RED_INT(u32, uint32_t, uint32_t)
RED_INT(i64, int64_t, uint64_t)
RED_INT(u64, uint64_t, uint64_t)
RED_FP(flt, float)
RED_FP(dbl, double)

#define INT_ROW(sfx) {add_##sfx, mult_##sfx, min_##sfx, max_##sfx, and_##sfx, or_##sfx, xor_##sfx}
#define FP_ROW(sfx) {add_##sfx, mult_##sfx, min_##sfx, max_##sfx, NULL, NULL, NULL}
static const red_fn_t red_table[6][7] = {INT_ROW(i32), INT_ROW(u32), INT_ROW(i64), INT_ROW(u64), FP_ROW(flt), FP_ROW(dbl)};
static const uint32_t red_ops[7] = {GEX_OP_ADD, GEX_OP_MULT, GEX_OP_MIN, GEX_OP_MAX, GEX_OP_AND, GEX_OP_OR, GEX_OP_XOR};
static const uint32_t red_dts[6] = {GEX_DT_I32, GEX_DT_U32, GEX_DT_I64, GEX_DT_U64, GEX_DT_FLT, GEX_DT_DBL};
static const size_t red_sizes[6] = {4, 4, 8, 8, sizeof(float), sizeof(double)};

static red_fn_t red_lookup(uint32_t dt, uint32_t op) {
  int d = -1, o = -1;
  for (int k = 0; k < 6; k++)
    if (red_dts[k] == dt) d = k;
  for (int k = 0; k < 7; k++)
    if (red_ops[k] == op) o = k;
  return d < 0 || o < 0 ? NULL : red_table[d][o];
}

size_t stp_coll_dt_size(uint32_t dt) {
  for (int k = 0; k < 6; k++)
    if (red_dts[k] == dt) return red_sizes[k];
  return 0;
}

int stp_coll_op_valid(uint32_t dt, uint32_t op) {
  if (op == GEX_OP_USER || op == GEX_OP_USER_NC) return dt == GEX_DT_USER || stp_coll_dt_size(dt) != 0;
  return red_lookup(dt, op) != NULL;
}

/* out = in op out over the whole vector */
static void combine(inst_t *i, const void *in, void *out) {
  if (i->op == GEX_OP_USER || i->op == GEX_OP_USER_NC) i->fn(in, out, i->cnt, i->cdata);
  else red_lookup(i->dt, i->op)(in, out, i->cnt);
}

static inline gex_Rank_t lowbit(gex_Rank_t r) { return r & (gex_Rank_t)(0u - r); }

static kid_t *kid_of(inst_t *i, gex_Rank_t from, size_t n) {
  for (int k = 0; k < i->nkids; k++)
    if (i->kids[k].from == from) return &i->kids[k];
  if (i->nkids == MAX_ROUNDS) stp_fatal("reduction: protocol error (more than %d senders)", MAX_ROUNDS);
  {
    kid_t *c = &i->kids[i->nkids++];
    c->from = from;
    c->n = n;
    if (!(c->buf = malloc(n ? n : 1))) stp_fatal("reduction: out of memory for %zu bytes", n);
    return c;
  }
}

static void reduce_handler(gex_Token_t token, void *buf, size_t nbytes, gex_AM_Arg_t id_lo, gex_AM_Arg_t id_hi,
                           gex_AM_Arg_t seq, gex_AM_Arg_t from, gex_AM_Arg_t phase, gex_AM_Arg_t off_lo,
                           gex_AM_Arg_t off_hi, gex_AM_Arg_t n_lo, gex_AM_Arg_t n_hi) {
  inst_t *i = find(STP_ARG_U64(id_lo, id_hi), STP_CK_REDUCE, (uint32_t)seq, 1);
  size_t off = (size_t)STP_ARG_U64(off_lo, off_hi), n = (size_t)STP_ARG_U64(n_lo, n_hi);
  (void)token;
  if (phase) { /* the result, from rank 0: this process contributed (initiated) before it could exist */
    if (STP_UNLIKELY(!i->ev || !i->want_result || n != i->bytes || off > n || nbytes > n - off))
      stp_fatal("reduction (team %" PRIx64 " #%u): a result of %zu bytes at offset %zu that this process does not "
                "expect", i->team, (unsigned)seq, nbytes, off);
    memcpy(i->dst + off, buf, nbytes);
    i->res_got += nbytes;
    return; /* (completed by the progress hook: a handler does not free what the poll loop walks) */
  }
  {
    kid_t *c = kid_of(i, (gex_Rank_t)from, n);
    if (STP_UNLIKELY(c->n != n || off > n || nbytes > n - off || (i->ev && n != i->bytes)))
      stp_fatal("reduction (team %" PRIx64 " #%u): team rank %u sends %zu bytes at offset %zu of %zu, this process "
                "expects %zu (the members disagree on dt_sz * dt_cnt)", i->team, (unsigned)seq, (unsigned)from, nbytes,
                off, n, i->ev ? i->bytes : c->n);
    memcpy(c->buf + off, buf, nbytes);
    c->got += nbytes;
  }
}

/* Combine the children in order as far as they are complete; once all
 * are in, send up (or, at rank 0, hand the result on); complete when
 * nothing more is expected here. */
static void reduce_advance(inst_t *i) {
  gex_Rank_t me = i->t->rank, size = i->t->size;
  gex_Rank_t span = me ? lowbit(me) : 0;
  while (!i->contributed) {
    gex_Rank_t step = (gex_Rank_t)1u << i->kids_done, child = me + step;
    kid_t *c = NULL;
    if ((me == 0 || step < span) && child < size && child > me) { /* the next child, in rank order */
      for (int k = 0; k < i->nkids; k++)
        if (i->kids[k].from == child) c = &i->kids[k];
      if (!c || c->got < c->n) return;
      if (STP_UNLIKELY(c->n != i->bytes))
        stp_fatal("reduction (team %" PRIx64 " #%u): team rank %u sent %zu bytes, this process expects %zu", i->team,
                  (unsigned)i->seq, (unsigned)child, c->n, i->bytes);
      combine(i, i->accb, c->buf); /* c = acc op c: acc's ranks come first */
      { char *tmp = i->accb; i->accb = c->buf; c->buf = tmp; }
      i->kids_done++;
      continue;
    }
    i->contributed = 1;
    if (me) {
      send_frags(i, me - span, i->accb, i->bytes, 0);
    } else if (i->root == STP_ROOT_ALL) {
      if (i->bytes) memcpy(i->dst, i->accb, i->bytes);
      for (gex_Rank_t r = 1; r < size; r++) send_frags(i, r, i->accb, i->bytes, 1);
    } else if (i->root == 0) {
      if (i->bytes) memcpy(i->dst, i->accb, i->bytes);
    } else {
      send_frags(i, i->root, i->accb, i->bytes, 1);
    }
  }
  if (i->want_result && i->res_got < i->bytes) return;
  done(i);
}

stp_ev_t *stp_coll_reduce(stp_cteam_t *t, gex_Rank_t root, void *dst, const void *src, uint32_t dt, size_t dt_sz,
                          size_t cnt, uint32_t op, stp_reduce_fn_t user_fn, const void *user_cdata) {
  inst_t *i = find(t->id, STP_CK_REDUCE, t->seq[STP_CK_REDUCE]++, 1);
  stp_ev_t *ev = initiated(i, t);
  i->root = root;
  i->dst = dst;
  i->dt = dt;
  i->op = op;
  i->esz = dt_sz;
  i->cnt = cnt;
  i->bytes = dt_sz * cnt;
  i->fn = user_fn;
  i->cdata = user_cdata;
  i->want_result = t->rank != 0 && (root == STP_ROOT_ALL || root == t->rank) && i->bytes;
  if (!(i->accb = malloc(i->bytes ? i->bytes : 1))) stp_fatal("reduction: out of memory for %zu bytes", i->bytes);
  if (i->bytes) memcpy(i->accb, src, i->bytes); /* (src may be dst: taken before any result lands) */
  set_pending(i, 1);
  reduce_advance(i);
  return ev;
}

/* ------------------------------------------------------------------ */
/* setup and progress                                                  */
/* ------------------------------------------------------------------ */
void stp_coll_ref_register(void) {
  static const stp_handler_reg_t regs[] = {{STP_H_COLL_BARRIER, (gex_AM_Fn_t)barrier_handler},
                                           {STP_H_COLL_XCHG, (gex_AM_Fn_t)xchg_handler},
                                           {STP_H_COLL_REDUCE, (gex_AM_Fn_t)reduce_handler}};
  for (size_t k = 0; k < sizeof(regs) / sizeof(regs[0]); k++) {
    stp.handler[regs[k].index].fn = regs[k].fn;
    memset(&stp.handler[regs[k].index].entry, 0, sizeof(gex_AM_Entry_t));
  }
}

/* The progress hook: barrier rounds and reduction steps advance from every
 * poll, but not from inside a handler or a request being sent.  (A step
 * that sends may poll and run handlers, which may add instances: the walk
 * restarts after each instance that completes.) */
void stp_coll_ref_progress(void) {
  inst_t *i;
  if (stp.in_am_send || stp.in_handler) return;
again:
  for (i = cr.list; i; i = i->next) {
    unsigned before = cr.pending;
    if (!i->pending) continue;
    if (i->kind == STP_CK_BARRIER) barrier_advance(i);
    else reduce_advance(i);
    if (cr.pending != before) goto again; /* (i is gone) */
  }
}
