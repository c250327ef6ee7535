/*
 * pmpi_count.c -- MPI traffic accounting: MPI_* wrappers (Open MPI 4.1's
 * signatures) that count calls, messages, bytes and receives per phase,
 * then call PMPI_*.  What is counted, the phases, the report file and the
 * query API: pmpi_count.h.
 *
 * Linked into a test program, or preloaded as libstpmpicount.so; it needs
 * nothing of stageport.  Counters are added atomically (relaxed): a client
 * may call MPI from several threads.  A collective counts as one message
 * of its local bytes; the messages MPI itself makes of it are not seen.
 */
#define _GNU_SOURCE 1
#include "pmpi_count.h"

#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every wrapped call, X(name, comm): comm 1 for a communication call. */
#define PMPI_WRAPPED(X)                                                                                     \
  /* point-to-point (the persistent inits set up communication: counted as such) */                        \
  X(Send, 1) X(Isend, 1) X(Ssend, 1) X(Issend, 1) X(Rsend, 1) X(Irsend, 1) X(Bsend, 1) X(Ibsend, 1)         \
  X(Recv, 1) X(Irecv, 1) X(Sendrecv, 1) X(Sendrecv_replace, 1)                                              \
  X(Send_init, 1) X(Ssend_init, 1) X(Rsend_init, 1) X(Bsend_init, 1) X(Recv_init, 1)                        \
  X(Start, 1) X(Startall, 1)                                                                                \
  X(Probe, 1) X(Iprobe, 1) X(Improbe, 1) X(Mprobe, 1) X(Mrecv, 1) X(Imrecv, 1)                              \
  /* completion */                                                                                          \
  X(Test, 1) X(Testall, 1) X(Testany, 1) X(Testsome, 1) X(Wait, 1) X(Waitall, 1) X(Waitany, 1)              \
  X(Waitsome, 1) X(Cancel, 1) X(Request_free, 1) X(Request_get_status, 1)                                   \
  /* collectives */                                                                                         \
  X(Barrier, 1) X(Ibarrier, 1) X(Bcast, 1) X(Ibcast, 1) X(Allgather, 1) X(Iallgather, 1)                    \
  X(Allgatherv, 1) X(Iallgatherv, 1) X(Allreduce, 1) X(Iallreduce, 1) X(Reduce, 1) X(Ireduce, 1)            \
  X(Alltoall, 1) X(Ialltoall, 1) X(Alltoallv, 1) X(Ialltoallv, 1) X(Gather, 1) X(Igather, 1)                \
  X(Gatherv, 1) X(Igatherv, 1) X(Scatter, 1) X(Iscatter, 1) X(Scatterv, 1) X(Iscatterv, 1)                  \
  X(Reduce_scatter, 1) X(Reduce_scatter_block, 1) X(Scan, 1) X(Exscan, 1)                                   \
  X(Comm_dup, 1) X(Comm_split, 1) X(Comm_split_type, 1) X(Comm_create, 1)                                   \
  /* one-sided */                                                                                           \
  X(Put, 1) X(Get, 1) X(Accumulate, 1) X(Get_accumulate, 1) X(Fetch_and_op, 1) X(Compare_and_swap, 1)       \
  X(Rput, 1) X(Rget, 1) X(Win_create, 1) X(Win_allocate, 1) X(Win_allocate_shared, 1)                       \
  X(Win_create_dynamic, 1) X(Win_free, 1) X(Win_fence, 1) X(Win_lock, 1) X(Win_unlock, 1)                   \
  X(Win_lock_all, 1) X(Win_unlock_all, 1) X(Win_flush, 1) X(Win_flush_all, 1) X(Win_flush_local, 1)         \
  X(Win_flush_local_all, 1) X(Win_sync, 1)                                                                  \
  /* local */                                                                                               \
  X(Init, 0) X(Init_thread, 0) X(Finalize, 0) X(Initialized, 0) X(Finalized, 0) X(Abort, 0)                 \
  X(Query_thread, 0) X(Comm_rank, 0) X(Comm_size, 0) X(Comm_free, 0) X(Comm_set_errhandler, 0)              \
  X(Comm_create_errhandler, 0) X(Comm_call_errhandler, 0) X(Errhandler_free, 0) X(Error_string, 0)          \
  X(Type_size, 0) X(Get_count, 0) X(Wtime, 0)

enum {
#define FN_ENUM(name, comm) F_##name,
  PMPI_WRAPPED(FN_ENUM)
#undef FN_ENUM
  NFN
};
static const struct {
  const char *name;
  int comm;
} fn[NFN] = {
#define FN_ROW(name, comm) {"MPI_" #name, comm},
    PMPI_WRAPPED(FN_ROW)
#undef FN_ROW
};

/* ------------------------------------------------------------------ */
/* phases and counters                                                 */
/* ------------------------------------------------------------------ */
#define MAX_PHASES 16 /* the 16th and later share the last, "(more)" */

typedef struct {
  char name[32];
  unsigned long long tot[STP_PMPI_RECVS + 1]; /* indexed by STP_PMPI_* */
  unsigned long long by_fn[NFN];
} phase_t;

static phase_t phases[MAX_PHASES] = {{.name = "init"}};
static int nphases = 1, cur;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int mpi_up, rank = -1, reported;

static void add(unsigned long long *c, unsigned long long n) {
  if (n) __atomic_fetch_add(c, n, __ATOMIC_RELAXED);
}

static void note(int f, unsigned long long msgs, unsigned long long bytes, unsigned long long recvs) {
  phase_t *p = &phases[__atomic_load_n(&cur, __ATOMIC_RELAXED)];
  add(&p->tot[STP_PMPI_CALLS], 1);
  add(&p->by_fn[f], 1);
  add(&p->tot[STP_PMPI_COMM_CALLS], (unsigned long long)fn[f].comm);
  add(&p->tot[STP_PMPI_MSGS], msgs);
  add(&p->tot[STP_PMPI_BYTES], bytes);
  add(&p->tot[STP_PMPI_RECVS], recvs);
}

void stp_pmpi_phase(const char *name) {
  char key[sizeof(phases[0].name)];
  int i;
  if (!name) return;
  snprintf(key, sizeof(key), "%s", name);
  for (char *c = key; *c; c++) /* the report keeps one word a field */
    if (*c <= ' ' || *c == '=' || *c == ',' || *c == ':') *c = '_';
  pthread_mutex_lock(&lock);
  for (i = 0; i < nphases; i++)
    if (!strcmp(phases[i].name, key)) break;
  if (i == MAX_PHASES) {
    i = MAX_PHASES - 1;
  } else if (i == nphases) {
    snprintf(phases[i].name, sizeof(key), "%s", i < MAX_PHASES - 1 ? key : "(more)");
    nphases++;
  }
  __atomic_store_n(&cur, i, __ATOMIC_RELAXED);
  pthread_mutex_unlock(&lock);
}

unsigned long long stp_pmpi_total(int what) {
  unsigned long long n = 0;
  if (what < 0 || what > STP_PMPI_RECVS) return 0;
  for (int i = 0; i < MAX_PHASES; i++) n += __atomic_load_n(&phases[i].tot[what], __ATOMIC_RELAXED);
  return n;
}

/* ------------------------------------------------------------------ */
/* the report                                                          */
/* ------------------------------------------------------------------ */
static void write_names(FILE *f, const phase_t *p) {
  int done[NFN] = {0};
  const char *sep = "";
  for (;;) { /* by count, most first */
    int best = -1;
    for (int k = 0; k < NFN; k++)
      if (fn[k].comm && !done[k] && p->by_fn[k] && (best < 0 || p->by_fn[k] > p->by_fn[best])) best = k;
    if (best < 0) return;
    done[best] = 1;
    fprintf(f, "%s%s:%llu", sep, fn[best].name, p->by_fn[best]);
    sep = ",";
  }
}

static void report(void) {
  const char *out = getenv("STP_PMPI_OUT");
  char path[4096], tmp[4200];
  FILE *f;
  if (!mpi_up || __atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED) || !out || !*out) return;
  snprintf(path, sizeof(path), "%s.%d", out, rank);
  snprintf(tmp, sizeof(tmp), "%s.tmp", path);
  f = fopen(tmp, "w");
  if (!f) {
    fprintf(stderr, "pmpi_count: rank %d: cannot write %s: %s\n", rank, tmp, strerror(errno));
    return;
  }
  pthread_mutex_lock(&lock);
  for (int i = 0; i < nphases; i++) {
    const phase_t *p = &phases[i];
    fprintf(f, "phase=%s calls=%llu comm_calls=%llu msgs=%llu bytes=%llu recvs=%llu names=", p->name,
            p->tot[STP_PMPI_CALLS], p->tot[STP_PMPI_COMM_CALLS], p->tot[STP_PMPI_MSGS], p->tot[STP_PMPI_BYTES],
            p->tot[STP_PMPI_RECVS]);
    write_names(f, p);
    fputc('\n', f);
  }
  pthread_mutex_unlock(&lock);
  if (fclose(f) || rename(tmp, path))
    fprintf(stderr, "pmpi_count: rank %d: cannot write %s: %s\n", rank, path, strerror(errno));
}

static void up(int rc) {
  static int once;
  if (rc != MPI_SUCCESS || __atomic_exchange_n(&once, 1, __ATOMIC_RELAXED)) return;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  mpi_up = 1;
  atexit(report); /* a process that ends without MPI_Finalize */
}

/* ------------------------------------------------------------------ */
/* persistent requests: what each Start sends or receives              */
/* ------------------------------------------------------------------ */
/* An open-addressing table keyed by the request handle's bits (0: empty;
 * no live request is 0), linear probing, deletion by backward shift. */
typedef struct {
  uintptr_t key;
  int recv;
  unsigned long long bytes;
} pers_t;

_Static_assert(sizeof(MPI_Request) <= sizeof(uintptr_t), "MPI_Request wider than a pointer");

static pers_t *ptab;
static size_t pcap, pcount; /* capacity: a power of 2 */

static uintptr_t key_of(MPI_Request r) {
  uintptr_t k = 0;
  memcpy(&k, &r, sizeof(r));
  return k;
}
static size_t slot_of(uintptr_t k) { return (size_t)((k >> 3) * 0x9E3779B97F4A7C15ull >> 17) & (pcap - 1); }

static pers_t *pers_find(uintptr_t k) {
  if (!pcap) return NULL;
  for (size_t i = slot_of(k);; i = (i + 1) & (pcap - 1)) {
    if (ptab[i].key == k) return &ptab[i];
    if (!ptab[i].key) return NULL;
  }
}

static void pers_put(pers_t e) {
  size_t i = slot_of(e.key);
  while (ptab[i].key && ptab[i].key != e.key) i = (i + 1) & (pcap - 1);
  pcount += !ptab[i].key;
  ptab[i] = e;
}

static void pers_add(MPI_Request r, int recv, unsigned long long bytes) {
  pthread_mutex_lock(&lock);
  if (2 * (pcount + 1) > pcap) {
    pers_t *old = ptab;
    size_t n = pcap;
    ptab = calloc(pcap ? 2 * pcap : 256, sizeof(*ptab));
    if (!ptab) {
      fprintf(stderr, "pmpi_count: out of memory\n");
      abort();
    }
    pcap = n ? 2 * n : 256;
    pcount = 0;
    for (size_t i = 0; i < n; i++)
      if (old[i].key) pers_put(old[i]);
    free(old);
  }
  pers_put((pers_t){key_of(r), recv, bytes});
  pthread_mutex_unlock(&lock);
}

static void pers_del(MPI_Request r) {
  pthread_mutex_lock(&lock);
  pers_t *e = pers_find(key_of(r));
  if (e) {
    size_t i = (size_t)(e - ptab), j = i, m = pcap - 1;
    pcount--;
    for (;;) { /* move back each later entry of the run that may not stay behind the hole */
      j = (j + 1) & m;
      if (!ptab[j].key) break;
      size_t h = slot_of(ptab[j].key);
      if (i <= j ? (i < h && h <= j) : (i < h || h <= j)) continue;
      ptab[i] = ptab[j];
      i = j;
    }
    ptab[i].key = 0;
  }
  pthread_mutex_unlock(&lock);
}

static void started(int f, const MPI_Request *r, int n) {
  unsigned long long msgs = 0, bytes = 0, recvs = 0;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < n; i++) {
    const pers_t *e = pers_find(key_of(r[i]));
    if (!e) continue;
    recvs += e->recv == 1;
    msgs += e->recv == 0;
    bytes += e->recv ? 0 : e->bytes;
  }
  pthread_mutex_unlock(&lock);
  note(f, msgs, bytes, recvs);
}

/* ------------------------------------------------------------------ */
/* sizes                                                               */
/* ------------------------------------------------------------------ */
static unsigned long long tbytes(long long count, MPI_Datatype t) {
  int sz = 0;
  if (count <= 0 || t == MPI_DATATYPE_NULL || PMPI_Type_size(t, &sz) != MPI_SUCCESS || sz <= 0) return 0;
  return (unsigned long long)count * (unsigned)sz;
}
static int csize(MPI_Comm c) {
  int n = 0;
  if (c != MPI_COMM_NULL) PMPI_Comm_size(c, &n);
  return n;
}
static int crank(MPI_Comm c) {
  int r = -1;
  if (c != MPI_COMM_NULL) PMPI_Comm_rank(c, &r);
  return r;
}
static int is_root(int root, MPI_Comm c) { return root == MPI_ROOT || root == crank(c); }
static unsigned long long vbytes(const int *counts, int n, MPI_Datatype t) {
  long long sum = 0;
  for (int i = 0; counts && i < n; i++) sum += counts[i];
  return tbytes(sum, t);
}
/* a collective's local bytes when the send buffer may be MPI_IN_PLACE */
#define LOCAL(sbuf, sbytes, in_place_bytes) ((sbuf) == MPI_IN_PLACE ? (in_place_bytes) : (sbytes))

/* ------------------------------------------------------------------ */
/* the wrappers                                                        */
/* ------------------------------------------------------------------ */
/* WRAP(name, (parameters), (arguments), messages, bytes, receives) */
#define WRAP(name, params, args, msgs, bytes, recvs) \
  int MPI_##name params {                            \
    note(F_##name, msgs, bytes, recvs);              \
    return PMPI_##name args;                         \
  }
#define WRAP0(name, params, args) WRAP(name, params, args, 0, 0, 0)

/* point-to-point */
#define SEND_P (const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c)
#define SEND_A (buf, n, t, dest, tag, c)
#define ISEND_P (const void *buf, int n, MPI_Datatype t, int dest, int tag, MPI_Comm c, MPI_Request *r)
#define ISEND_A (buf, n, t, dest, tag, c, r)
WRAP(Send, SEND_P, SEND_A, 1, tbytes(n, t), 0)
WRAP(Ssend, SEND_P, SEND_A, 1, tbytes(n, t), 0)
WRAP(Rsend, SEND_P, SEND_A, 1, tbytes(n, t), 0)
WRAP(Bsend, SEND_P, SEND_A, 1, tbytes(n, t), 0)
WRAP(Isend, ISEND_P, ISEND_A, 1, tbytes(n, t), 0)
WRAP(Issend, ISEND_P, ISEND_A, 1, tbytes(n, t), 0)
WRAP(Irsend, ISEND_P, ISEND_A, 1, tbytes(n, t), 0)
WRAP(Ibsend, ISEND_P, ISEND_A, 1, tbytes(n, t), 0)
WRAP(Recv, (void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Status *st),
     (buf, n, t, src, tag, c, st), 0, 0, 1)
WRAP(Irecv, (void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm c, MPI_Request *r),
     (buf, n, t, src, tag, c, r), 0, 0, 1)
WRAP(Sendrecv,
     (const void *sbuf, int sn, MPI_Datatype st, int dest, int stag, void *rbuf, int rn, MPI_Datatype rt, int src,
      int rtag, MPI_Comm c, MPI_Status *s),
     (sbuf, sn, st, dest, stag, rbuf, rn, rt, src, rtag, c, s), 1, tbytes(sn, st), 1)
WRAP(Sendrecv_replace,
     (void *buf, int n, MPI_Datatype t, int dest, int stag, int src, int rtag, MPI_Comm c, MPI_Status *s),
     (buf, n, t, dest, stag, src, rtag, c, s), 1, tbytes(n, t), 1)

/* persistent: what a Start will send or receive, kept by request */
#define WRAP_INIT(name, bufconst, recv)                                                                    \
  int MPI_##name(bufconst void *buf, int n, MPI_Datatype t, int peer, int tag, MPI_Comm c, MPI_Request *r) { \
    int rc;                                                                                                \
    note(F_##name, 0, 0, 0);                                                                               \
    rc = PMPI_##name(buf, n, t, peer, tag, c, r);                                                          \
    if (rc == MPI_SUCCESS) pers_add(*r, recv, tbytes(n, t));                                               \
    return rc;                                                                                             \
  }
WRAP_INIT(Send_init, const, 0)
WRAP_INIT(Ssend_init, const, 0)
WRAP_INIT(Rsend_init, const, 0)
WRAP_INIT(Bsend_init, const, 0)
WRAP_INIT(Recv_init, , 1)

int MPI_Start(MPI_Request *r) {
  started(F_Start, r, 1);
  return PMPI_Start(r);
}
int MPI_Startall(int n, MPI_Request r[]) {
  started(F_Startall, r, n);
  return PMPI_Startall(n, r);
}
int MPI_Request_free(MPI_Request *r) {
  note(F_Request_free, 0, 0, 0);
  if (r) pers_del(*r);
  return PMPI_Request_free(r);
}

WRAP0(Probe, (int src, int tag, MPI_Comm c, MPI_Status *s), (src, tag, c, s))
WRAP0(Iprobe, (int src, int tag, MPI_Comm c, int *flag, MPI_Status *s), (src, tag, c, flag, s))
WRAP0(Improbe, (int src, int tag, MPI_Comm c, int *flag, MPI_Message *m, MPI_Status *s), (src, tag, c, flag, m, s))
WRAP0(Mprobe, (int src, int tag, MPI_Comm c, MPI_Message *m, MPI_Status *s), (src, tag, c, m, s))
WRAP(Mrecv, (void *buf, int n, MPI_Datatype t, MPI_Message *m, MPI_Status *s), (buf, n, t, m, s), 0, 0, 1)
WRAP(Imrecv, (void *buf, int n, MPI_Datatype t, MPI_Message *m, MPI_Request *r), (buf, n, t, m, r), 0, 0, 1)

/* completion */
WRAP0(Test, (MPI_Request *r, int *flag, MPI_Status *s), (r, flag, s))
WRAP0(Testall, (int n, MPI_Request r[], int *flag, MPI_Status s[]), (n, r, flag, s))
WRAP0(Testany, (int n, MPI_Request r[], int *idx, int *flag, MPI_Status *s), (n, r, idx, flag, s))
WRAP0(Testsome, (int n, MPI_Request r[], int *out, int idx[], MPI_Status s[]), (n, r, out, idx, s))
WRAP0(Wait, (MPI_Request *r, MPI_Status *s), (r, s))
WRAP0(Waitall, (int n, MPI_Request r[], MPI_Status *s), (n, r, s))
WRAP0(Waitany, (int n, MPI_Request r[], int *idx, MPI_Status *s), (n, r, idx, s))
WRAP0(Waitsome, (int n, MPI_Request r[], int *out, int idx[], MPI_Status s[]), (n, r, out, idx, s))
WRAP0(Cancel, (MPI_Request *r), (r))
WRAP0(Request_get_status, (MPI_Request r, int *flag, MPI_Status *s), (r, flag, s))

/* collectives: one message each, of the local bytes */
WRAP(Barrier, (MPI_Comm c), (c), 1, 0, 0)
WRAP(Ibarrier, (MPI_Comm c, MPI_Request *r), (c, r), 1, 0, 0)
WRAP(Bcast, (void *buf, int n, MPI_Datatype t, int root, MPI_Comm c), (buf, n, t, root, c), 1, tbytes(n, t), 0)
WRAP(Ibcast, (void *buf, int n, MPI_Datatype t, int root, MPI_Comm c, MPI_Request *r), (buf, n, t, root, c, r), 1,
     tbytes(n, t), 0)

#define GATHER_P \
  (const void *sbuf, int sn, MPI_Datatype st, void *rbuf, int rn, MPI_Datatype rt, MPI_Comm c)
#define GATHER_A (sbuf, sn, st, rbuf, rn, rt, c)
#define IGATHER_P \
  (const void *sbuf, int sn, MPI_Datatype st, void *rbuf, int rn, MPI_Datatype rt, MPI_Comm c, MPI_Request *r)
#define IGATHER_A (sbuf, sn, st, rbuf, rn, rt, c, r)
WRAP(Allgather, GATHER_P, GATHER_A, 1, LOCAL(sbuf, tbytes(sn, st), tbytes(rn, rt)), 0)
WRAP(Iallgather, IGATHER_P, IGATHER_A, 1, LOCAL(sbuf, tbytes(sn, st), tbytes(rn, rt)), 0)
WRAP(Alltoall, GATHER_P, GATHER_A, 1, LOCAL(sbuf, tbytes(sn, st), tbytes(rn, rt)) * (unsigned)csize(c), 0)
WRAP(Ialltoall, IGATHER_P, IGATHER_A, 1, LOCAL(sbuf, tbytes(sn, st), tbytes(rn, rt)) * (unsigned)csize(c), 0)

#define GATHERV_P \
  (const void *sbuf, int sn, MPI_Datatype st, void *rbuf, const int rn[], const int displs[], MPI_Datatype rt, MPI_Comm c)
#define GATHERV_A (sbuf, sn, st, rbuf, rn, displs, rt, c)
WRAP(Allgatherv, GATHERV_P, GATHERV_A, 1, LOCAL(sbuf, tbytes(sn, st), tbytes(rn[crank(c)], rt)), 0)
WRAP(Iallgatherv,
     (const void *sbuf, int sn, MPI_Datatype st, void *rbuf, const int rn[], const int displs[], MPI_Datatype rt,
      MPI_Comm c, MPI_Request *r),
     (sbuf, sn, st, rbuf, rn, displs, rt, c, r), 1, LOCAL(sbuf, tbytes(sn, st), tbytes(rn[crank(c)], rt)), 0)

#define ALLTOALLV_P                                                                                     \
  (const void *sbuf, const int sn[], const int sd[], MPI_Datatype st, void *rbuf, const int rn[], const int rd[], \
   MPI_Datatype rt, MPI_Comm c)
WRAP(Alltoallv, ALLTOALLV_P, (sbuf, sn, sd, st, rbuf, rn, rd, rt, c), 1,
     LOCAL(sbuf, vbytes(sn, csize(c), st), vbytes(rn, csize(c), rt)), 0)
WRAP(Ialltoallv,
     (const void *sbuf, const int sn[], const int sd[], MPI_Datatype st, void *rbuf, const int rn[], const int rd[],
      MPI_Datatype rt, MPI_Comm c, MPI_Request *r),
     (sbuf, sn, sd, st, rbuf, rn, rd, rt, c, r), 1, LOCAL(sbuf, vbytes(sn, csize(c), st), vbytes(rn, csize(c), rt)), 0)

#define REDUCE_P (const void *sbuf, void *rbuf, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c)
#define REDUCE_A (sbuf, rbuf, n, t, op, c)
WRAP(Allreduce, REDUCE_P, REDUCE_A, 1, tbytes(n, t), 0)
WRAP(Scan, REDUCE_P, REDUCE_A, 1, tbytes(n, t), 0)
WRAP(Exscan, REDUCE_P, REDUCE_A, 1, tbytes(n, t), 0)
WRAP(Iallreduce, (const void *sbuf, void *rbuf, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c, MPI_Request *r),
     (sbuf, rbuf, n, t, op, c, r), 1, tbytes(n, t), 0)
WRAP(Reduce, (const void *sbuf, void *rbuf, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c),
     (sbuf, rbuf, n, t, op, root, c), 1, tbytes(n, t), 0)
WRAP(Ireduce,
     (const void *sbuf, void *rbuf, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c, MPI_Request *r),
     (sbuf, rbuf, n, t, op, root, c, r), 1, tbytes(n, t), 0)
WRAP(Reduce_scatter, (const void *sbuf, void *rbuf, const int rn[], MPI_Datatype t, MPI_Op op, MPI_Comm c),
     (sbuf, rbuf, rn, t, op, c), 1, vbytes(rn, csize(c), t), 0)
WRAP(Reduce_scatter_block, (const void *sbuf, void *rbuf, int rn, MPI_Datatype t, MPI_Op op, MPI_Comm c),
     (sbuf, rbuf, rn, t, op, c), 1, tbytes((long long)rn * csize(c), t), 0)

/* rooted: the root hands in what it sends; the others what they send */
#define ROOTED_P \
  (const void *sbuf, int sn, MPI_Datatype st, void *rbuf, int rn, MPI_Datatype rt, int root, MPI_Comm c)
#define ROOTED_A (sbuf, sn, st, rbuf, rn, rt, root, c)
#define IROOTED_P                                                                                              \
  (const void *sbuf, int sn, MPI_Datatype st, void *rbuf, int rn, MPI_Datatype rt, int root, MPI_Comm c, \
   MPI_Request *r)
#define IROOTED_A (sbuf, sn, st, rbuf, rn, rt, root, c, r)
WRAP(Gather, ROOTED_P, ROOTED_A, 1, LOCAL(sbuf, tbytes(sn, st), tbytes(rn, rt)), 0)
WRAP(Igather, IROOTED_P, IROOTED_A, 1, LOCAL(sbuf, tbytes(sn, st), tbytes(rn, rt)), 0)
WRAP(Scatter, ROOTED_P, ROOTED_A, 1, is_root(root, c) ? tbytes((long long)sn * csize(c), st) : 0, 0)
WRAP(Iscatter, IROOTED_P, IROOTED_A, 1, is_root(root, c) ? tbytes((long long)sn * csize(c), st) : 0, 0)
WRAP(Gatherv,
     (const void *sbuf, int sn, MPI_Datatype st, void *rbuf, const int rn[], const int displs[], MPI_Datatype rt,
      int root, MPI_Comm c),
     (sbuf, sn, st, rbuf, rn, displs, rt, root, c), 1, LOCAL(sbuf, tbytes(sn, st), tbytes(rn[root], rt)), 0)
WRAP(Igatherv,
     (const void *sbuf, int sn, MPI_Datatype st, void *rbuf, const int rn[], const int displs[], MPI_Datatype rt,
      int root, MPI_Comm c, MPI_Request *r),
     (sbuf, sn, st, rbuf, rn, displs, rt, root, c, r), 1, LOCAL(sbuf, tbytes(sn, st), tbytes(rn[root], rt)), 0)
WRAP(Scatterv,
     (const void *sbuf, const int sn[], const int displs[], MPI_Datatype st, void *rbuf, int rn, MPI_Datatype rt,
      int root, MPI_Comm c),
     (sbuf, sn, displs, st, rbuf, rn, rt, root, c), 1, is_root(root, c) ? vbytes(sn, csize(c), st) : 0, 0)
WRAP(Iscatterv,
     (const void *sbuf, const int sn[], const int displs[], MPI_Datatype st, void *rbuf, int rn, MPI_Datatype rt,
      int root, MPI_Comm c, MPI_Request *r),
     (sbuf, sn, displs, st, rbuf, rn, rt, root, c, r), 1, is_root(root, c) ? vbytes(sn, csize(c), st) : 0, 0)

WRAP(Comm_dup, (MPI_Comm c, MPI_Comm *out), (c, out), 1, 0, 0)
WRAP(Comm_split, (MPI_Comm c, int color, int key, MPI_Comm *out), (c, color, key, out), 1, 0, 0)
WRAP(Comm_split_type, (MPI_Comm c, int type, int key, MPI_Info info, MPI_Comm *out), (c, type, key, info, out), 1,
     0, 0)
WRAP(Comm_create, (MPI_Comm c, MPI_Group g, MPI_Comm *out), (c, g, out), 1, 0, 0)

/* one-sided: an operation is a message (a Get's carries no payload of
 * ours); window creation, freeing and fences are collectives; the other
 * synchronizations are communication calls without a message of their own */
#define RMA_P                                                                                          \
  (const void *o, int on, MPI_Datatype ot, int target, MPI_Aint disp, int tn, MPI_Datatype tt, MPI_Win w)
WRAP(Put, RMA_P, (o, on, ot, target, disp, tn, tt, w), 1, tbytes(on, ot), 0)
WRAP(Rput,
     (const void *o, int on, MPI_Datatype ot, int target, MPI_Aint disp, int tn, MPI_Datatype tt, MPI_Win w,
      MPI_Request *r),
     (o, on, ot, target, disp, tn, tt, w, r), 1, tbytes(on, ot), 0)
WRAP(Get, (void *o, int on, MPI_Datatype ot, int target, MPI_Aint disp, int tn, MPI_Datatype tt, MPI_Win w),
     (o, on, ot, target, disp, tn, tt, w), 1, 0, 0)
WRAP(Rget,
     (void *o, int on, MPI_Datatype ot, int target, MPI_Aint disp, int tn, MPI_Datatype tt, MPI_Win w,
      MPI_Request *r),
     (o, on, ot, target, disp, tn, tt, w, r), 1, 0, 0)
WRAP(Accumulate,
     (const void *o, int on, MPI_Datatype ot, int target, MPI_Aint disp, int tn, MPI_Datatype tt, MPI_Op op,
      MPI_Win w),
     (o, on, ot, target, disp, tn, tt, op, w), 1, tbytes(on, ot), 0)
WRAP(Get_accumulate,
     (const void *o, int on, MPI_Datatype ot, void *res, int rn, MPI_Datatype rt, int target, MPI_Aint disp, int tn,
      MPI_Datatype tt, MPI_Op op, MPI_Win w),
     (o, on, ot, res, rn, rt, target, disp, tn, tt, op, w), 1, tbytes(on, ot), 0)
WRAP(Fetch_and_op, (const void *o, void *res, MPI_Datatype t, int target, MPI_Aint disp, MPI_Op op, MPI_Win w),
     (o, res, t, target, disp, op, w), 1, tbytes(1, t), 0)
WRAP(Compare_and_swap,
     (const void *o, const void *cmp, void *res, MPI_Datatype t, int target, MPI_Aint disp, MPI_Win w),
     (o, cmp, res, t, target, disp, w), 1, tbytes(2, t), 0)
WRAP(Win_create, (void *base, MPI_Aint size, int unit, MPI_Info info, MPI_Comm c, MPI_Win *w),
     (base, size, unit, info, c, w), 1, 0, 0)
WRAP(Win_allocate, (MPI_Aint size, int unit, MPI_Info info, MPI_Comm c, void *base, MPI_Win *w),
     (size, unit, info, c, base, w), 1, 0, 0)
WRAP(Win_allocate_shared, (MPI_Aint size, int unit, MPI_Info info, MPI_Comm c, void *base, MPI_Win *w),
     (size, unit, info, c, base, w), 1, 0, 0)
WRAP(Win_create_dynamic, (MPI_Info info, MPI_Comm c, MPI_Win *w), (info, c, w), 1, 0, 0)
WRAP(Win_free, (MPI_Win *w), (w), 1, 0, 0)
WRAP(Win_fence, (int a, MPI_Win w), (a, w), 1, 0, 0)
WRAP0(Win_lock, (int type, int target, int a, MPI_Win w), (type, target, a, w))
WRAP0(Win_unlock, (int target, MPI_Win w), (target, w))
WRAP0(Win_lock_all, (int a, MPI_Win w), (a, w))
WRAP0(Win_unlock_all, (MPI_Win w), (w))
WRAP0(Win_flush, (int target, MPI_Win w), (target, w))
WRAP0(Win_flush_all, (MPI_Win w), (w))
WRAP0(Win_flush_local, (int target, MPI_Win w), (target, w))
WRAP0(Win_flush_local_all, (MPI_Win w), (w))
WRAP0(Win_sync, (MPI_Win w), (w))

/* local */
int MPI_Init(int *argc, char ***argv) {
  int rc;
  note(F_Init, 0, 0, 0);
  rc = PMPI_Init(argc, argv);
  up(rc);
  return rc;
}
int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int rc;
  note(F_Init_thread, 0, 0, 0);
  rc = PMPI_Init_thread(argc, argv, required, provided);
  up(rc);
  return rc;
}
int MPI_Finalize(void) {
  note(F_Finalize, 0, 0, 0);
  report();
  return PMPI_Finalize();
}
int MPI_Abort(MPI_Comm c, int code) {
  note(F_Abort, 0, 0, 0);
  report();
  return PMPI_Abort(c, code);
}
double MPI_Wtime(void) {
  note(F_Wtime, 0, 0, 0);
  return PMPI_Wtime();
}
WRAP0(Initialized, (int *flag), (flag))
WRAP0(Finalized, (int *flag), (flag))
WRAP0(Query_thread, (int *provided), (provided))
WRAP0(Comm_rank, (MPI_Comm c, int *r), (c, r))
WRAP0(Comm_size, (MPI_Comm c, int *n), (c, n))
WRAP0(Comm_free, (MPI_Comm *c), (c))
WRAP0(Comm_set_errhandler, (MPI_Comm c, MPI_Errhandler e), (c, e))
WRAP0(Comm_create_errhandler, (MPI_Comm_errhandler_function *f, MPI_Errhandler *e), (f, e))
WRAP0(Comm_call_errhandler, (MPI_Comm c, int code), (c, code))
WRAP0(Errhandler_free, (MPI_Errhandler *e), (e))
WRAP0(Error_string, (int code, char *s, int *len), (code, s, len))
WRAP0(Type_size, (MPI_Datatype t, int *n), (t, n))
WRAP0(Get_count, (const MPI_Status *s, MPI_Datatype t, int *n), (s, t, n))
