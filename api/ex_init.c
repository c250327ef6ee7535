/*
 * ex_init.c -- the lifecycle (gex_Client_Init, gex_Segment_Attach, exit),
 * the objects it makes (one client, its primordial endpoint and team, the
 * segment) and every query about them and the job.
 *
 * One visible sequence, run by this file and nothing below it:
 *
 *   gex_Client_Init     stage selection, bootstrap (boot/boot_mpi.h), segment
 *                       limits; the library's handlers; network open, Core
 *                       attach, RMA attach (AMs work from here on); a barrier
 *   gex_Segment_Attach  the network's segment (or ordinary memory), the
 *                       segment table, Core segment step; a barrier
 *   exit                exit protocol (every node agrees on the code), RMA
 *                       detach, Core detach, network close, bootstrap close
 *
 * Exit protocol: the node that exits first sends an EXIT(code) notice to
 * every peer (through the network once it is open everywhere, else the
 * bootstrap's channel); a node that takes a notice while polling (the exit
 * hook) joins with that code.  Every exiting node notifies every peer, so
 * each expects N-1 notices; with all in, it tears down and exits with the
 * code.  A peer that does not answer within STAGEPORT_EXIT_TIMEOUT seconds
 * (computing without calling GASNet, or hung) gets the job aborted with
 * the same code.
 */
#include "api.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "boot_mpi.h"

/* ------------------------------------------------------------------ */
/* segment sizing                                                      */
/* ------------------------------------------------------------------ */
static uint64_t meminfo_kib(const char *key) {
  FILE *f = fopen("/proc/meminfo", "r");
  char line[256];
  uint64_t v = 0;
  size_t klen = strlen(key);
  if (!f) return 0;
  while (fgets(line, sizeof(line), f))
    if (!strncmp(line, key, klen) && line[klen] == ':') {
      v = strtoull(line + klen + 1, NULL, 10);
      break;
    }
  fclose(f);
  return v;
}

/* What this node can back with memory: available RAM shared among the
 * processes on this host, bounded by the address-space limit, and an
 * actual reservation of that size must succeed.  STAGEPORT_MAX_SEGSIZE caps it. */
static uintptr_t max_local_segment(void) {
  uint64_t avail = meminfo_kib("MemAvailable") * 1024;
  uint64_t cap = stp_env_u64("STAGEPORT_MAX_SEGSIZE", UINT64_MAX);
  struct rlimit rl;
  uint64_t sz;
  if (!avail) avail = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);
  sz = avail / (uint64_t)(stp.local_procs > 0 ? stp.local_procs : 1);
  if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY) sz = STP_MIN(sz, (uint64_t)rl.rlim_cur / 2);
  sz = STP_MIN(sz, cap);
  sz &= ~(uint64_t)(GASNET_PAGESIZE - 1);
  while (sz >= GASNET_PAGESIZE) {
    void *p = mmap(NULL, sz, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p != MAP_FAILED) {
      munmap(p, sz);
      break;
    }
    sz = (sz / 2) & ~(uint64_t)(GASNET_PAGESIZE - 1);
  }
  return (uintptr_t)sz;
}

/* ------------------------------------------------------------------ */
/* init                                                                */
/* ------------------------------------------------------------------ */
static struct {
  int notices;  /* exit notices taken from peers */
  int exiting;  /* the exit protocol has started */
} life;

/* How the exit protocol was entered. */
enum { BY_GASNET_EXIT, BY_PROCESS_EXIT, BY_PEER };
static void lifecycle_exit(int code, int how);

/* ------------------------------------------------------------------ */
/* exiting from any thread (GASNET_PAR)                                */
/* ------------------------------------------------------------------ */
/* gasnet_exit is legal while the caller holds an HSL (spec 3.3: it is one
 * of the calls allowed in a No-Interrupt Section), and so is exit().  But
 * the thread holding the library lock may be running a handler that waits
 * for that very HSL: the exiting thread would wait for the library lock
 * for ever.  So a thread that cannot take the lock at once posts its exit
 * here, and whichever thread holds the lock runs the exit protocol for it
 * -- at its next poll (the exit hook) or while it waits for an HSL (a
 * handler: gasnet_hsl_lock); if no holder lets go or acts within
 * STAGEPORT_EXIT_TIMEOUT seconds, the job is aborted with the code. */
static struct {
  atomic_int posted; /* 0 none, 1 being written, 2 posted */
  int code, how;
} exit_req;

/* The library lock for an exit by `how` with `code` (GASNET_PAR), or the
 * job ends from here or from the holder. */
static void exit_lock(int code, int how) {
  uint64_t wait_s;
  int none = 0;
  if (!stp_par || stp_par_lock_within(0)) return;
  if (atomic_compare_exchange_strong(&exit_req.posted, &none, 1)) { /* (the first code wins) */
    exit_req.code = code;
    exit_req.how = how;
    atomic_store_explicit(&exit_req.posted, 2, memory_order_release);
  }
  wait_s = stp_env_u64("STAGEPORT_EXIT_TIMEOUT", 2);
  if (stp_par_lock_within((unsigned)STP_MIN(wait_s * 1000u, (uint64_t)UINT32_MAX))) return;
  fprintf(stderr,
          "stageport: node %u: %s ends the job with exit code %d, but another thread of this process holds the "
          "library lock and did not let go within %" PRIu64 " s (a handler waiting for something this thread "
          "holds?); aborting the job with code %d\n",
          (unsigned)stp.mynode, how == BY_GASNET_EXIT ? "gasnet_exit" : "exit() or a return from main", code, wait_s,
          code);
  stp_abort(code);
}

void stp_exit_posted(void) {
  if (STP_LIKELY(atomic_load_explicit(&exit_req.posted, memory_order_acquire) != 2) || life.exiting) return;
  /* this thread holds the library lock: it exits for the thread that posted */
  lifecycle_exit(exit_req.code, exit_req.how); /* (by gasnet_exit: does not return) */
  fflush(NULL);
  _exit(exit_req.code); /* by exit(): that thread is inside exit() already, its hooks waiting here */
}

/* exit(N) or returning N from main after init runs the exit protocol too,
 * with N (spec 2.1.5: the job ends with the code the process exited with). */
#if HAVE_ON_EXIT
static void stp_on_exit(int status, void *arg) {
  (void)arg;
  if (!stp.inited) return;
  exit_lock(status, BY_PROCESS_EXIT);
  if (!life.exiting) lifecycle_exit(status, BY_PROCESS_EXIT);
  if (stp_par) stp_par_unlock();
}
#else
static void stp_atexit(void) { /* (no on_exit: the status is not known here) */
  if (!stp.inited) return;
  exit_lock(0, BY_PROCESS_EXIT);
  if (!life.exiting) lifecycle_exit(0, BY_PROCESS_EXIT);
  if (stp_par) stp_par_unlock();
}
#endif

/* STAGEPORT_STAGE, else the stage the client's conduit directory names,
 * else the build's default. */
static const stp_stage_t *select_stage(const char *client_stage) {
  const char *name = getenv("STAGEPORT_STAGE"), *from = "STAGEPORT_STAGE=";
  const stp_stage_t *st;
  char list[2048];
  if (!name || !*name) {
    name = client_stage ? client_stage : STP_DEFAULT_STAGE;
    from = client_stage ? "the client's conduit (STAGEPORT_CLIENT_STAGE) names" : "the default stage";
  }
  st = stp_stage_find(name);
  if (st) return st;
  stp_stage_list(list, sizeof(list));
  fprintf(stderr, "stageport: fatal error: gex_Client_Init: %s\"%s\" is not a stage of this build; built stages:\n%s\n",
          from, name, list);
  return NULL;
}

static void init_waitmode(void) {
  const char *w = getenv("STAGEPORT_WAITMODE");
  int mode = GASNET_WAIT_SPIN;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  stp.oversubscribed = ncpu > 0 && stp.local_procs > ncpu;
  if (w && !strcmp(w, "block")) mode = GASNET_WAIT_BLOCK;
  else if (w && !strcmp(w, "spinblock")) mode = GASNET_WAIT_SPINBLOCK;
  else if (w && *w && strcmp(w, "spin")) stp_fatal("STAGEPORT_WAITMODE=\"%s\": use spin, block or spinblock", w);
  gasnet_set_waitmode(mode);
}

/* Exit notices travel over the network once it is open on every node,
 * if it has a channel of its own (then a running job makes no MPI calls),
 * else over the bootstrap's. */
static int net_up; /* the network is open on every node (gex_Client_Init's barrier passed) */
static int net_notices(void) { return net_up && stp.net && stp.net->exit_take; }
static int take_notice(int *code) {
  return net_notices() ? stp.net->exit_take(code) : stp.boot.exit_take(code);
}

/* The exit hook of the progress path: take peers' notices (every 64
 * polls), and join a pending exit unless a handler is running. */
static void exit_hook(void) {
  int code;
  if (STP_UNLIKELY(stp_par)) stp_exit_posted(); /* another thread's exit */
  if (!life.exiting && take_notice(&code)) {
    if (!life.notices++) stp.exit_code = code; /* the first code wins */
    stp.exit_pending = 1;
  }
  if (stp.exit_pending && !stp.in_handler) lifecycle_exit(stp.exit_code, BY_PEER);
}

/* The node table: hosts from the bootstrap's locality. */
static void init_nodeinfo(void) {
  const int *host = stp.boot.host;
  stp.local_procs = stp.boot.local;
  stp.nodeinfo = calloc(stp.nodes, sizeof(*stp.nodeinfo));
  if (!stp.nodeinfo) stp_fatal("gex_Client_Init: out of memory");
  for (gex_Rank_t i = 0; i < stp.nodes; i++) {
    stp.nodeinfo[i].host = (gex_Rank_t)host[i];
    stp.nodeinfo[i].supernode = i;
    stp.nodeinfo[i].offset = 0;
  }
}

/* The smallest of every node's v. */
static uint64_t allmin_u64(uint64_t v) {
  uint64_t *all = malloc(stp.nodes * sizeof(*all)), m = v;
  if (!all) stp_fatal("gex_Client_Init: out of memory");
  stp.boot.allgather(stp.boot.ctx, &v, all, sizeof(v));
  for (gex_Rank_t i = 0; i < stp.nodes; i++) m = STP_MIN(m, all[i]);
  free(all);
  return m;
}

/* Agree on an outcome of a collective step: every node's rc (one
 * allgather, which is also a barrier); the first failing node's error, or
 * GASNET_OK.  A node that failed has said why; the others say whose error
 * they return. */
int stp_agree(const char *fn, int rc, const char *step) {
  int *all = malloc(stp.nodes * sizeof(int)), out = GASNET_OK;
  gex_Rank_t who = 0;
  if (!all) stp_fatal("%s: out of memory", fn);
  stp.boot.allgather(stp.boot.ctx, &rc, all, sizeof(int));
  for (gex_Rank_t i = 0; i < stp.nodes && out == GASNET_OK; i++)
    if (all[i] != GASNET_OK) out = all[i], who = i;
  free(all);
  if (out != GASNET_OK && rc == GASNET_OK)
    fprintf(stderr, "stageport: node %u: %s: node %u failed (%s, %s); returning the same error here\n",
            (unsigned)stp.mynode, fn, (unsigned)who, gasnet_ErrorName(out), step);
  return out;
}

/* ------------------------------------------------------------------ */
/* the objects                                                         */
/* ------------------------------------------------------------------ */
struct _stp_client stp_client;
struct stp_prim stp_prim; /* the primordial endpoint and team (api.h) */
struct _stp_segment stp_seg0;

/* ------------------------------------------------------------------ */
/* gex_Client_Init                                                     */
/* ------------------------------------------------------------------ */
/* A native|reference switch (unset or empty: native): 1 for reference. */
static int native_or_reference(const char *var, const char *native, const char *reference) {
  const char *v = getenv(var);
  if (!v || !*v || !strcmp(v, "native")) return 0;
  if (!strcmp(v, "reference")) return 1;
  stp_fatal("%s=\"%s\": use native (%s) or reference (%s)", var, v, native, reference);
}

/* clientName: the description asks for [A-Z][A-Z0-9_]+, but GASNet's
 * own test programs pass lower-case names ("testhello") and GASNet takes
 * them: any non-empty name is taken (kept to its first 63 characters). */
static int good_name(const char *n) { return n && *n; }

/* The library's own handlers, the network, the Core, the RMA backend:
 * every step collective and agreed, so a node that fails makes every node
 * return its error.  (A failure inside a network's open ends the job.) */
static int open_stage(void) {
  int rc = GASNET_OK;
  if (stp.net) {
    stp_net_args_t args = {&stp.boot, stp_stage->oos, 0};
    rc = stp.net->open(&args);
    if ((rc = stp_agree("gex_Client_Init", rc, "opening the network")) != GASNET_OK) return rc;
    stp.net_threads = args.threads;
    gasnet_set_waitmode(stp.waitmode); /* (its threads count now) */
  }
  stp_register_internal(stp.rma->handlers, stp.rma->nhandlers);
  stp_coll_ref_register();
  stp_ad_ref_register(); /* (the reference atomics' handlers: every stage, ratomic.h) */
  stp_vis_init();
  rc = stp.core->attach();
  if (rc == GASNET_OK && stp.rma->attach) rc = stp.rma->attach();
  rc = stp_agree("gex_Client_Init", rc, "attaching the Core and the RMA backend"); /* (the init barrier) */
  if (rc == GASNET_OK) net_up = 1;
  return rc;
}

int _stp_Client_Init(gex_Client_t *client_p, gex_EP_t *ep_p, gex_TM_t *tm_p, const char *clientName, int *argc,
                     char ***argv, gex_Flags_t flags, int threads, const char *stage) {
  int rc;
  if (stp.inited) {
    fprintf(stderr, "stageport: gex_Client_Init: called twice (one client per process; GASNET_ERR_RESOURCE)\n");
    return GASNET_ERR_RESOURCE;
  }
  if (threads < 0 || threads > 2) {
    fprintf(stderr, "stageport: gex_Client_Init: unknown threading configuration %d (gasnetex.h and the library "
                    "disagree)\n", threads);
    return GASNET_ERR_BAD_ARG;
  }
  if (!good_name(clientName)) {
    fprintf(stderr, "stageport: gex_Client_Init: no client name (NULL or empty)\n");
    return GASNET_ERR_BAD_ARG;
  }
  if (flags & ~(GEX_FLAG_USES_GASNET1 | GEX_FLAG_DEFER_THREADS | _STP_FLAG_LEGACY)) {
    fprintf(stderr, "stageport: gex_Client_Init: unknown flags 0x%x\n", (unsigned)flags);
    return GASNET_ERR_BAD_ARG;
  }
  stp_par = threads != 0; /* before anything takes the library lock */
  stp_stage = select_stage(stage);
  if (!stp_stage) exit(1);
  stp.net = stp_stage->net;
  stp.core = stp_stage->core;
  stp.rma = stp_stage->rma ? stp_stage->rma : &stp_rma_ref_ops;
  stp.net_poll = stp.net ? stp.net->poll : NULL;
  stp.hook_exit = exit_hook;
  stp.hook_coll = stp_coll_ref_progress;
  stp_lc_reference = native_or_reference("STAGEPORT_LC", "local completion as the network reports it",
                                         "with remote completion");
  stp_np_reference = native_or_reference("STAGEPORT_NP", "a GASNet-allocated Prepare hands out the Core's send memory",
                                         "the API layer's buffer, copied at the Commit");

  if (stp_boot_mpi_open(argc, argv, "stageport: gex_Client_Init", stp_par, &stp.boot)) return GASNET_ERR_RESOURCE;
  if (stp.boot.size > GASNET_MAXNODES) {
    fprintf(stderr, "stageport: gex_Client_Init: %d processes, more than GASNET_MAXNODES (%d)\n", stp.boot.size,
            GASNET_MAXNODES);
    return GASNET_ERR_RESOURCE;
  }
  stp.mynode = (gex_Rank_t)stp.boot.rank;
  stp.nodes = (gex_Rank_t)stp.boot.size;
  {
    /* every node runs the same stage (say, an MPMD launch with the
     * variable given to one program only): else their first collectives
     * would not match; and chooses atomic domains' implementations alike
     * (else one member's CPU atomics and another's NIC atomics on the
     * same memory) */
    const char *names[64] = {NULL};
    static const char *const ad_impls[] = {"native", "reference", NULL};
    stp_setting_t set[2] = {{"STAGEPORT_STAGE", 0, names},
                            {"STAGEPORT_AD_IMPL", (uint64_t)stp_ad_force_reference(), ad_impls}};
    for (int i = 0; i < stp_nstages && i < 63; i++) {
      names[i] = stp_stages[i].name;
      if (&stp_stages[i] == stp_stage) set[0].value = (uint64_t)i;
    }
    stp_settings_agree("gex_Client_Init", set, 2);
  }
  init_nodeinfo();
  stp.inited = 1;
#if HAVE_ON_EXIT
  on_exit(stp_on_exit, NULL);
#else
  atexit(stp_atexit);
#endif
  init_waitmode();
  stp.max_local_seg = max_local_segment();
  stp.max_global_seg = (uintptr_t)allmin_u64(stp.max_local_seg);
  stp_ev_init(&stp.thr0.nbi, STP_EV_NBI);
  if (stp_par) (void)stp_thread(); /* this thread's state is thr0 */

  snprintf(stp_client.name, sizeof(stp_client.name), "%s", clientName);
  stp.legacy = (flags & _STP_FLAG_LEGACY) != 0;
  stp.may_send = !stp.legacy;
  stp_client.flags = flags & ~_STP_FLAG_LEGACY;
  stp_ep0.caps = GEX_EP_CAPABILITY_ALL;
  stp_tm0.rank = stp.mynode;
  stp_tm0.size = stp.nodes;
  stp_tm0.state = STP_TM_LIVE;
  stp_tm0.coll.id = 0;
  stp_tm0.coll.rank = stp.mynode;
  stp_tm0.coll.size = stp.nodes;
  {
    STP_API_GUARD();
    rc = open_stage();
  }
  if (rc != GASNET_OK) return rc;
  if (client_p) *client_p = STP_CLIENT;
  if (ep_p) *ep_p = STP_EP0;
  if (tm_p) *tm_p = STP_TM0;
  return GASNET_OK;
}

int(gex_Client_Init)(gex_Client_t *client_p, gex_EP_t *ep_p, gex_TM_t *tm_p, const char *clientName, int *argc,
                     char ***argv, gex_Flags_t flags) {
  return _stp_Client_Init(client_p, ep_p, tm_p, clientName, argc, argv, flags, 0, NULL);
}

/* ------------------------------------------------------------------ */
/* gex_Segment_Attach                                                  */
/* ------------------------------------------------------------------ */
/* This node's segment: from the network, or ordinary memory. */
static int attach_memory(uintptr_t segsize, gasnet_seginfo_t *mine) {
  int rc = GASNET_OK;
  if (stp.net && stp.net->segment) {
    rc = stp.net->segment(segsize, &mine->addr); /* collective: also on failure */
    if (rc != GASNET_OK) return rc;
    if (mine->addr) mine->size = segsize;
  }
  if (segsize && !mine->addr) {
    void *p = mmap(NULL, segsize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      fprintf(stderr, "stageport: node %u: gex_Segment_Attach: cannot map a %" PRIuPTR "-byte segment\n",
              (unsigned)stp.mynode, segsize);
      return GASNET_ERR_RESOURCE;
    }
    mine->addr = p;
    mine->size = segsize;
  }
  /* a GASNET_PAGESIZE-aligned base (the size is a multiple already) */
  if (mine->addr && (uintptr_t)mine->addr % GASNET_PAGESIZE) {
    fprintf(stderr, "stageport: node %u: gex_Segment_Attach: the %s segment at %p is not GASNET_PAGESIZE (%d) aligned\n",
            (unsigned)stp.mynode, stp.net && stp.net->segment ? "network's" : "mapped", mine->addr, GASNET_PAGESIZE);
    return GASNET_ERR_RESOURCE;
  }
  return rc;
}

/* Collective over the primordial team; one per process.  Every collective
 * step is entered by every node or by none: the nodes agree on each
 * step's outcome before the next.  size 0 is stageport's own use (the
 * legacy layer's gasnet_attach with no segment): no segment, the barrier
 * all the same. */
int gex_Segment_Attach(gex_Segment_t *segment_p, gex_TM_t tm, uintptr_t size) {
  STP_API_GUARD();
  gasnet_seginfo_t mine = {NULL, 0};
  int rc = GASNET_OK;
  STP_CHECK_INITED("gex_Segment_Attach");
  STP_CHECK_NOT_IN_HANDLER("gex_Segment_Attach");
  if (STP_UNLIKELY(tm != STP_TM0)) stp_check_tm_fail("gex_Segment_Attach (the primordial team only)", tm);
  if (stp.attached) {
    fprintf(stderr, "stageport: node %u: gex_Segment_Attach: called twice (one segment per process)\n",
            (unsigned)stp.mynode);
    return GASNET_ERR_RESOURCE;
  }
  if (size % GASNET_PAGESIZE) {
    fprintf(stderr, "stageport: node %u: gex_Segment_Attach: size %" PRIuPTR " is not a multiple of GASNET_PAGESIZE (%d)\n",
            (unsigned)stp.mynode, size, GASNET_PAGESIZE);
    rc = GASNET_ERR_BAD_ARG;
  } else if (size > stp.max_local_seg) {
    fprintf(stderr, "stageport: node %u: gex_Segment_Attach: size %" PRIuPTR " is larger than "
            "gasnet_getMaxLocalSegmentSize() (%" PRIuPTR ")\n", (unsigned)stp.mynode, size, stp.max_local_seg);
    rc = GASNET_ERR_BAD_ARG;
  }
  if ((rc = stp_agree("gex_Segment_Attach", rc, "its arguments")) != GASNET_OK) return rc;
  rc = stp_agree("gex_Segment_Attach", attach_memory(size, &mine), "its segment");
  if (rc != GASNET_OK) return rc;
  stp.seg = calloc(stp.nodes, sizeof(*stp.seg));
  if (!stp.seg) stp_fatal("gex_Segment_Attach: out of memory");
  stp.boot.allgather(stp.boot.ctx, &mine, stp.seg, sizeof(mine));
  if (stp.core->segment) rc = stp.core->segment();
  rc = stp_agree("gex_Segment_Attach", rc, "the Core's segment step"); /* (the attach barrier) */
  if (rc != GASNET_OK) return rc;
  stp.attached = 1;
  stp.may_send = 1;
  stp_seg0.addr = mine.addr;
  stp_seg0.size = mine.size;
  if (mine.addr) stp_ep0.seg = &stp_seg0;
  if (segment_p) *segment_p = mine.addr ? (gex_Segment_t)&stp_seg0 : GEX_SEGMENT_INVALID;
  return GASNET_OK;
}

/* ------------------------------------------------------------------ */
/* exit                                                                */
/* ------------------------------------------------------------------ */
static double now_sec(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The exit protocol, then teardown in the reverse order of init.  From
 * the process's own exit (exit(N), return from main) it returns, and the
 * process goes on exiting; else it exits. */
static void lifecycle_exit(int code, int how) {
  int peers = (int)stp.nodes - 1, pcode, from_exit = how == BY_PROCESS_EXIT;
  uint64_t wait_s;
  double deadline;

  if (life.exiting) {
    if (from_exit) return;
    _exit(code); /* exit() again while exiting (e.g. from a handler during teardown) */
  }
  life.exiting = 1;
  if (!stp.boot.usable()) { /* the client finalized MPI itself */
    if (!from_exit) exit(code);
    return;
  }
  if (stp.exit_pending) { /* a peer ended the job first: adopt its code */
    code = stp.exit_code;
    how = BY_PEER;
  }
  if (code && how != BY_PEER) /* say which node ended the job, and how */
    fprintf(stderr, "stageport: node %u: %s ends the job with exit code %d\n", (unsigned)stp.mynode,
            how == BY_GASNET_EXIT ? "gasnet_exit" : "exit() or a return from main", code);
  fflush(stdout);
  fflush(stderr);

  if (net_notices()) stp.net->exit_notify(code);
  else stp.boot.exit_notify(code);
  wait_s = stp_env_u64("STAGEPORT_EXIT_TIMEOUT", 2);
  deadline = now_sec() + (double)wait_s;
  while (life.notices < peers && now_sec() < deadline) {
    /* both channels: a peer that exited before its network was open used the bootstrap's */
    if (take_notice(&pcode) || (net_notices() && stp.boot.exit_take(&pcode))) life.notices++;
    else sched_yield();
  }
  if (life.notices < peers) {
    fprintf(stderr,
            "stageport: node %u: exit with code %d: %d of %d peers did not take part in the exit within %" PRIu64
            " s (computing without calling GASNet, or hung); aborting the job with code %d\n",
            (unsigned)stp.mynode, code, peers - life.notices, peers, wait_s, code);
    stp_abort(code);
  }

  if (net_up) {
    if (stp.rma->detach) stp.rma->detach();
    stp.core->detach();
    if (stp.net) stp.net->close();
  }
  stp.boot.close(1);
  if (!from_exit) exit(code);
}

void gasnet_exit(int exitcode) {
  if (!stp.inited) exit(exitcode);
  exit_lock(exitcode, BY_GASNET_EXIT); /* (held until the process ends) */
  lifecycle_exit(exitcode, BY_GASNET_EXIT);
  exit(exitcode); /* not reached */
}

/* ------------------------------------------------------------------ */
/* queries: the job, the system                                        */
/* ------------------------------------------------------------------ */
gex_TM_t _stp_TM_Primordial(void) { return stp.inited ? STP_TM0 : GEX_TM_INVALID; }

gex_Rank_t gex_System_QueryJobRank(void) {
  STP_CHECK_INITED("gex_System_QueryJobRank");
  return stp.mynode;
}

gex_Rank_t gex_System_QueryJobSize(void) {
  STP_CHECK_INITED("gex_System_QueryJobSize");
  return stp.nodes;
}

uint64_t gex_System_QueryMaxThreads(void) { return stp_par ? UINT64_MAX : 1; }

int gex_System_QueryHiddenAMConcurrencyLevel(void) {
  STP_CHECK_INITED("gex_System_QueryHiddenAMConcurrencyLevel");
  return GASNET_HIDDEN_AM_CONCURRENCY_LEVEL;
}

int gex_System_QueryProgressThreads(gex_Client_t client, unsigned int *count_p,
                                    const gex_ProgressThreadInfo_t **info_p, gex_Flags_t flags) {
  if (!count_p || !info_p || flags || client != STP_CLIENT) return GASNET_ERR_BAD_ARG;
  if (!(stp_client.flags & GEX_FLAG_DEFER_THREADS)) return GASNET_ERR_RESOURCE;
  *count_p = 0; /* nothing deferred: a network's own progress thread (ptl's) is the network's */
  *info_p = NULL;
  return GASNET_OK;
}

/* The neighbourhood: the processes whose segments are cross-mapped with
 * this one's -- none in stageport, so the caller alone.  The host: every
 * process on this machine (the launcher's locality), in job-rank order. */
static struct {
  gex_Rank_t *self, *host;
  gex_Rank_t nhost, my_host_index, nhosts, host_rank;
} pos;

static void positions(void) {
  gex_Rank_t n = 0, *firsts;
  if (pos.self) return;
  pos.self = malloc(sizeof(gex_Rank_t));
  pos.host = malloc(stp.nodes * sizeof(gex_Rank_t));
  firsts = malloc(stp.nodes * sizeof(gex_Rank_t));
  if (!pos.self || !pos.host || !firsts) stp_fatal("gex_System_Query*: out of memory");
  *pos.self = stp.mynode;
  for (gex_Rank_t i = 0; i < stp.nodes; i++) {
    if (stp.nodeinfo[i].host == stp.nodeinfo[stp.mynode].host) {
      if (i == stp.mynode) pos.my_host_index = pos.nhost;
      pos.host[pos.nhost++] = i;
    }
    if (stp.nodeinfo[i].host == i) { /* (a host is named by its lowest rank) */
      if (i == stp.nodeinfo[stp.mynode].host) pos.host_rank = n;
      firsts[n++] = i;
    }
  }
  pos.nhosts = n;
  free(firsts);
}

void gex_System_QueryNbrhdInfo(gex_RankInfo_t **info_p, gex_Rank_t *info_count_p, gex_Rank_t *my_info_index_p) {
  STP_CHECK_INITED("gex_System_QueryNbrhdInfo");
  positions();
  if (info_p) *info_p = (gex_RankInfo_t *)pos.self;
  if (info_count_p) *info_count_p = 1;
  if (my_info_index_p) *my_info_index_p = 0;
}

void gex_System_QueryHostInfo(gex_RankInfo_t **info_p, gex_Rank_t *info_count_p, gex_Rank_t *my_info_index_p) {
  STP_CHECK_INITED("gex_System_QueryHostInfo");
  positions();
  if (info_p) *info_p = (gex_RankInfo_t *)pos.host;
  if (info_count_p) *info_count_p = pos.nhost;
  if (my_info_index_p) *my_info_index_p = pos.my_host_index;
}

void gex_System_QueryMyPosition(gex_Rank_t *nbrhd_set_size_p, gex_Rank_t *nbrhd_set_rank_p,
                                gex_Rank_t *host_set_size_p, gex_Rank_t *host_set_rank_p) {
  STP_CHECK_INITED("gex_System_QueryMyPosition");
  positions();
  if (nbrhd_set_size_p) *nbrhd_set_size_p = stp.nodes; /* every process is its own neighbourhood */
  if (nbrhd_set_rank_p) *nbrhd_set_rank_p = stp.mynode;
  if (host_set_size_p) *host_set_size_p = pos.nhosts;
  if (host_set_rank_p) *host_set_rank_p = pos.host_rank;
}

/* As GASNet-1 releases, valid from init on (the legacy layer's
 * gasnet_getNodeInfo: every process's host, which no gex_ query gives). */
int _stp_NodeInfo(gasnet_nodeinfo_t *table, int numentries) {
  STP_CHECK_INITED("gasnet_getNodeInfo");
  if (numentries < 0 || (numentries > 0 && !table)) return GASNET_ERR_BAD_ARG;
  for (int i = 0; i < numentries && (gex_Rank_t)i < stp.nodes; i++) table[i] = stp.nodeinfo[i];
  return GASNET_OK;
}

uintptr_t gasnet_getMaxLocalSegmentSize(void) {
  STP_CHECK_INITED("gasnet_getMaxLocalSegmentSize");
  return stp.max_local_seg;
}

uintptr_t gasnet_getMaxGlobalSegmentSize(void) {
  STP_CHECK_INITED("gasnet_getMaxGlobalSegmentSize");
  return stp.max_global_seg;
}

char *gasnet_getenv(const char *name) {
  STP_CHECK_INITED("gasnet_getenv");
  return name ? getenv(name) : NULL;
}

/* ------------------------------------------------------------------ */
/* queries: the objects                                                */
/* ------------------------------------------------------------------ */
#define CHECK_OBJ(fn, obj, mine)                                                            \
  do {                                                                                      \
    if (STP_UNLIKELY((obj) != (mine))) stp_fatal("%s: %p is not a valid object", fn, (const void *)(obj)); \
  } while (0)
/* The endpoint a team (or TM-pair) names. */
static inline struct _stp_ep *tm_ep(const char *fn, gex_TM_t tm) {
  if (tm == STP_TM0 || (uintptr_t)tm == ((uintptr_t)STP_EP0 | 1u)) return &stp_ep0;
  (void)stp_tm_team(fn, tm);
  return &stp_ep0;
}

void gex_Client_SetCData(gex_Client_t c, const void *v) { CHECK_OBJ("gex_Client_SetCData", c, STP_CLIENT); stp_client.cdata = v; }
void *gex_Client_QueryCData(gex_Client_t c) { CHECK_OBJ("gex_Client_QueryCData", c, STP_CLIENT); return (void *)stp_client.cdata; }
gex_Flags_t gex_Client_QueryFlags(gex_Client_t c) { CHECK_OBJ("gex_Client_QueryFlags", c, STP_CLIENT); return stp_client.flags; }
const char *gex_Client_QueryName(gex_Client_t c) { CHECK_OBJ("gex_Client_QueryName", c, STP_CLIENT); return stp_client.name; }

void gex_Segment_SetCData(gex_Segment_t s, const void *v) { CHECK_OBJ("gex_Segment_SetCData", s, (gex_Segment_t)&stp_seg0); stp_seg0.cdata = v; }
void *gex_Segment_QueryCData(gex_Segment_t s) { CHECK_OBJ("gex_Segment_QueryCData", s, (gex_Segment_t)&stp_seg0); return (void *)stp_seg0.cdata; }
gex_Client_t gex_Segment_QueryClient(gex_Segment_t s) { CHECK_OBJ("gex_Segment_QueryClient", s, (gex_Segment_t)&stp_seg0); return STP_CLIENT; }
gex_Flags_t gex_Segment_QueryFlags(gex_Segment_t s) { CHECK_OBJ("gex_Segment_QueryFlags", s, (gex_Segment_t)&stp_seg0); return stp_seg0.flags; }
void *gex_Segment_QueryAddr(gex_Segment_t s) { CHECK_OBJ("gex_Segment_QueryAddr", s, (gex_Segment_t)&stp_seg0); return stp_seg0.addr; }
uintptr_t gex_Segment_QuerySize(gex_Segment_t s) { CHECK_OBJ("gex_Segment_QuerySize", s, (gex_Segment_t)&stp_seg0); return stp_seg0.size; }

void gex_EP_SetCData(gex_EP_t ep, const void *v) { CHECK_OBJ("gex_EP_SetCData", ep, STP_EP0); stp_ep0.cdata = v; }
void *gex_EP_QueryCData(gex_EP_t ep) { CHECK_OBJ("gex_EP_QueryCData", ep, STP_EP0); return (void *)stp_ep0.cdata; }
gex_Client_t gex_EP_QueryClient(gex_EP_t ep) { CHECK_OBJ("gex_EP_QueryClient", ep, STP_EP0); return STP_CLIENT; }
gex_Flags_t gex_EP_QueryFlags(gex_EP_t ep) { CHECK_OBJ("gex_EP_QueryFlags", ep, STP_EP0); return stp_ep0.flags; }
gex_Segment_t gex_EP_QuerySegment(gex_EP_t ep) {
  CHECK_OBJ("gex_EP_QuerySegment", ep, STP_EP0);
  return stp_ep0.seg ? (gex_Segment_t)stp_ep0.seg : GEX_SEGMENT_INVALID;
}
gex_EP_Index_t gex_EP_QueryIndex(gex_EP_t ep) { CHECK_OBJ("gex_EP_QueryIndex", ep, STP_EP0); return 0; }

int gex_EP_Create(gex_EP_t *ep_p, gex_Client_t client, gex_EP_Capabilities_t capabilities, gex_Flags_t flags) {
  STP_CHECK_INITED("gex_EP_Create");
  CHECK_OBJ("gex_EP_Create", client, STP_CLIENT);
  if (!ep_p || !capabilities || (capabilities & ~GEX_EP_CAPABILITY_ALL) || flags) return GASNET_ERR_BAD_ARG;
  if (gex_System_GetVerboseErrors())
    fprintf(stderr, "stageport: node %u: gex_EP_Create: GASNET_MAXEPS is %d (the primordial endpoint is the only "
                    "one): GASNET_ERR_RESOURCE\n", (unsigned)stp.mynode, GASNET_MAXEPS);
  return GASNET_ERR_RESOURCE;
}

/* Every segment is known from the table gex_Segment_Attach exchanged: no
 * communication, GEX_EVENT_INVALID with or without IMMEDIATE. */
gex_Event_t gex_EP_QueryBoundSegmentNB(gex_TM_t tm, gex_Rank_t rank, void **owneraddr_p, void **localaddr_p,
                                       uintptr_t *size_p, gex_Flags_t flags) {
  (void)tm_ep("gex_EP_QueryBoundSegmentNB", tm);
  (void)flags;
  STP_CHECK_INITED("gex_EP_QueryBoundSegmentNB");
  rank = STP_TM_JOBRANK("gex_EP_QueryBoundSegmentNB", tm, rank);
  STP_CHECK_NODE("gex_EP_QueryBoundSegmentNB", rank);
  if (!stp.seg || !stp.seg[rank].size) { /* unsuccessful: no bound segment */
    if (size_p) *size_p = 0;
    return GEX_EVENT_INVALID;
  }
  if (owneraddr_p) *owneraddr_p = stp.seg[rank].addr;
  if (localaddr_p) *localaddr_p = rank == stp.mynode ? stp.seg[rank].addr : NULL;
  if (size_p) *size_p = stp.seg[rank].size;
  return GEX_EVENT_INVALID;
}

int gex_Segment_QueryBound(gex_TM_t tm, gex_Rank_t rank, void **owneraddr_p, void **localaddr_p, uintptr_t *size_p) {
  STP_CHECK_NOT_IN_HANDLER("gex_Segment_QueryBound");
  (void)tm_ep("gex_Segment_QueryBound", tm);
  STP_CHECK_INITED("gex_Segment_QueryBound");
  STP_CHECK_NODE("gex_Segment_QueryBound", STP_TM_JOBRANK("gex_Segment_QueryBound", tm, rank));
  if (!stp.seg || !stp.seg[STP_TM_JOBRANK("gex_Segment_QueryBound", tm, rank)].size) return 1; /* outputs unchanged */
  return (int)(intptr_t)gex_EP_QueryBoundSegmentNB(tm, rank, owneraddr_p, localaddr_p, size_p, 0);
}

/* Every bound segment is published at attach. */
int gex_EP_PublishBoundSegment(gex_TM_t tm, gex_EP_t *eps, size_t num_eps, gex_Flags_t flags) {
  CHECK_OBJ("gex_EP_PublishBoundSegment", tm, STP_TM0);
  for (size_t i = 0; i < num_eps; i++) CHECK_OBJ("gex_EP_PublishBoundSegment", eps[i], STP_EP0);
  if (flags) return GASNET_ERR_BAD_ARG;
  gex_Coll_BarrierBlocking(tm, 0);
  return GASNET_OK;
}
