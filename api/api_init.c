/*
 * api_init.c -- the lifecycle (gasnet_init, gasnet_attach, exit) and the
 * job queries.
 *
 * One visible sequence, run by this file and nothing below it:
 *
 *   gasnet_init    stage selection, bootstrap (boot/boot_mpi.h), segment limits
 *   gasnet_attach  handler table, network open, segment, segment table,
 *                  Core attach, Extended attach, attach barrier
 *   exit           exit protocol (every node agrees on the code), Extended
 *                  detach, Core detach, network close, bootstrap close
 *
 * Exit protocol: the node that exits first sends an EXIT(code) notice to
 * every peer through the bootstrap's notice channel; a node that takes a
 * notice while polling (the exit hook) joins with that code.  Every exiting
 * node notifies every peer, so each expects N-1 notices; with all in, it
 * tears down and exits with the code.  A peer that does not answer within
 * STAGEPORT_EXIT_TIMEOUT seconds (computing without calling GASNet, or
 * hung) gets the job aborted with the same code.
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
  fprintf(stderr, "stageport: fatal error: gasnet_init: %s\"%s\" is not a stage of this build; built stages:\n%s\n",
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

/* Exit notices travel over the network once every node is attached, if it
 * has a channel of its own (then a running job makes no MPI calls), else
 * over the bootstrap's. */
static int net_notices(void) { return stp.attached && stp.net && stp.net->exit_take; }
static int take_notice(int *code) {
  return net_notices() ? stp.net->exit_take(code) : stp_boot_mpi_exit_take(code);
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
  const int *host = stp_boot_mpi_hosts(&stp.local_procs);
  stp.nodeinfo = calloc(stp.nodes, sizeof(*stp.nodeinfo));
  if (!stp.nodeinfo) stp_fatal("gasnet_init: out of memory");
  for (gasnet_node_t i = 0; i < stp.nodes; i++) {
    stp.nodeinfo[i].host = (gasnet_node_t)host[i];
    stp.nodeinfo[i].supernode = i;
    stp.nodeinfo[i].offset = 0;
  }
}

/* The smallest of every node's v. */
static uint64_t allmin_u64(uint64_t v) {
  uint64_t *all = malloc(stp.nodes * sizeof(*all)), m = v;
  if (!all) stp_fatal("gasnet_init: out of memory");
  stp.boot.allgather(stp.boot.ctx, &v, all, sizeof(v));
  for (gasnet_node_t i = 0; i < stp.nodes; i++) m = STP_MIN(m, all[i]);
  free(all);
  return m;
}

/* gasnet.h's gasnet_init: threads = 0 (GASNET_SEQ), 1 (GASNET_PARSYNC) or
 * 2 (GASNET_PAR), stage = the client's conduit's, or NULL. */
int stp_init_client(int *argc, char ***argv, int threads, const char *stage) {
  if (stp.inited) {
    fprintf(stderr, "stageport: gasnet_init: called twice (GASNET_ERR_RESOURCE)\n");
    return GASNET_ERR_RESOURCE;
  }
  if (threads < 0 || threads > 2) {
    fprintf(stderr, "stageport: gasnet_init: unknown threading configuration %d (gasnet.h and the library disagree)\n",
            threads);
    return GASNET_ERR_BAD_ARG;
  }
  stp_par = threads != 0; /* before anything takes the library lock */
  stp_stage = select_stage(stage);
  if (!stp_stage) exit(1);
  stp.net = stp_stage->net;
  stp.core = stp_stage->core;
  stp.ext = stp_stage->ext;
  stp.net_poll = stp.net ? stp.net->poll : NULL;
  stp.hook_exit = exit_hook;
  stp.hook_barrier = stp_barrier_poll;

  if (stp_boot_mpi_open(argc, argv, "stageport: gasnet_init", stp_par, &stp.boot)) return GASNET_ERR_RESOURCE;
  if (stp.boot.size > GASNET_MAXNODES) {
    fprintf(stderr, "stageport: gasnet_init: %d processes, more than GASNET_MAXNODES (%d)\n", stp.boot.size,
            GASNET_MAXNODES);
    return GASNET_ERR_RESOURCE;
  }
  stp.mynode = (gasnet_node_t)stp.boot.rank;
  stp.nodes = (gasnet_node_t)stp.boot.size;
  {
    /* every node runs the same stage (say, an MPMD launch with the
     * variable given to one program only): else their first collectives
     * would not match */
    const char *names[64] = {NULL};
    stp_setting_t set = {"STAGEPORT_STAGE", 0, names};
    for (int i = 0; i < stp_nstages && i < 63; i++) {
      names[i] = stp_stages[i].name;
      if (&stp_stages[i] == stp_stage) set.value = (uint64_t)i;
    }
    stp_settings_agree("gasnet_init", &set, 1);
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
  stp_op_init(&stp.thr0.iop, STP_OP_IMPLICIT);
  if (stp_par) (void)stp_thread(); /* this thread's state is thr0 */
  return GASNET_OK;
}

int(gasnet_init)(int *argc, char ***argv) { return stp_init_client(argc, argv, 0, NULL); }


/* ------------------------------------------------------------------ */
/* attach                                                              */
/* ------------------------------------------------------------------ */
/* Register the client table: fixed indices first, then "don't care" ones
 * from the top of the client range down, in table order -- the same table
 * gives the same assignment on every node. */
static int register_client_handlers(gasnet_handlerentry_t *table, int n) {
  for (int i = 0; i < n; i++) {
    unsigned idx = table[i].index;
    if (!idx) continue;
    if (idx < STP_H_FIRST_CLIENT) {
      fprintf(stderr, "stageport: node %u: gasnet_attach: handler index %u is reserved (client indices are 128..255)\n",
              (unsigned)stp.mynode, idx);
      return GASNET_ERR_BAD_ARG;
    }
    if (stp.handler[idx]) {
      fprintf(stderr, "stageport: node %u: gasnet_attach: handler index %u registered twice\n",
              (unsigned)stp.mynode, idx);
      return GASNET_ERR_BAD_ARG;
    }
    if (!table[i].fnptr) {
      fprintf(stderr, "stageport: node %u: gasnet_attach: handler %u has a NULL function\n", (unsigned)stp.mynode, idx);
      return GASNET_ERR_BAD_ARG;
    }
    stp.handler[idx] = table[i].fnptr;
  }
  for (int i = 0; i < n; i++) {
    unsigned idx;
    if (table[i].index) continue;
    for (idx = 255; idx >= STP_H_FIRST_CLIENT && stp.handler[idx]; idx--) {
    }
    if (idx < STP_H_FIRST_CLIENT) {
      fprintf(stderr, "stageport: node %u: gasnet_attach: more than 128 client handlers\n", (unsigned)stp.mynode);
      return GASNET_ERR_RESOURCE;
    }
    if (!table[i].fnptr) {
      fprintf(stderr, "stageport: node %u: gasnet_attach: table entry %d has a NULL function\n", (unsigned)stp.mynode, i);
      return GASNET_ERR_BAD_ARG;
    }
    stp.handler[idx] = table[i].fnptr;
    table[i].index = (gasnet_handler_t)idx;
  }
  return GASNET_OK;
}

/* The library's own handlers: the API layer's, then the Extended backend's. */
static void register_internal(const stp_handler_reg_t *regs, int n) {
  for (int i = 0; i < n; i++) stp.handler[regs[i].index] = regs[i].fn;
}

/* Agree on an outcome of attach: every node's rc (one allgather, which is
 * also a barrier); the first failing node's error, or GASNET_OK.  A node
 * that failed has said why; the others say whose error they return. */
static int agree(int rc, const char *step) {
  int *all = malloc(stp.nodes * sizeof(int)), out = GASNET_OK;
  gasnet_node_t who = 0;
  if (!all) stp_fatal("gasnet_attach: out of memory");
  stp.boot.allgather(stp.boot.ctx, &rc, all, sizeof(int));
  for (gasnet_node_t i = 0; i < stp.nodes && out == GASNET_OK; i++)
    if (all[i] != GASNET_OK) out = all[i], who = i;
  free(all);
  if (out != GASNET_OK && rc == GASNET_OK)
    fprintf(stderr, "stageport: node %u: gasnet_attach: node %u failed (%s, %s); returning the same error here\n",
            (unsigned)stp.mynode, (unsigned)who, gasnet_ErrorName(out), step);
  return out;
}

/* Arguments and handler table; nothing collective. */
static int attach_args(gasnet_handlerentry_t *table, int numentries, uintptr_t segsize) {
  int rc;
  if (segsize % GASNET_PAGESIZE) {
    fprintf(stderr, "stageport: node %u: gasnet_attach: segsize %" PRIuPTR " is not a multiple of GASNET_PAGESIZE (%d)\n",
            (unsigned)stp.mynode, segsize, GASNET_PAGESIZE);
    return GASNET_ERR_BAD_ARG;
  }
  if (numentries < 0 || (numentries > 0 && !table)) {
    fprintf(stderr, "stageport: node %u: gasnet_attach: bad handler table (%p, %d entries)\n", (unsigned)stp.mynode,
            (void *)table, numentries);
    return GASNET_ERR_BAD_ARG;
  }
  rc = register_client_handlers(table, numentries);
  if (rc != GASNET_OK) return rc;
  register_internal(stp_barrier_handlers, stp_barrier_nhandlers);
  register_internal(stp_memset_handlers, stp_memset_nhandlers);
  register_internal(stp.ext->handlers, stp.ext->nhandlers);
  return GASNET_OK;
}

/* This node's segment: from the network, or ordinary memory. */
static int attach_segment(uintptr_t segsize, gasnet_seginfo_t *mine) {
  int rc = GASNET_OK;
  if (stp.net && stp.net->segment) {
    rc = stp.net->segment(segsize, &mine->addr); /* collective: also on failure */
    if (rc != GASNET_OK) return rc;
    if (mine->addr) mine->size = segsize;
  }
  if (segsize && !mine->addr) {
    void *p = mmap(NULL, segsize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      fprintf(stderr, "stageport: node %u: gasnet_attach: cannot map a %" PRIuPTR "-byte segment\n",
              (unsigned)stp.mynode, segsize);
      return GASNET_ERR_RESOURCE;
    }
    mine->addr = p;
    mine->size = segsize;
  }
  /* spec 2.1.2: a GASNET_PAGESIZE-aligned base (the size is a multiple already) */
  if (mine->addr && (uintptr_t)mine->addr % GASNET_PAGESIZE) {
    fprintf(stderr, "stageport: node %u: gasnet_attach: the %s segment at %p is not GASNET_PAGESIZE (%d) aligned\n",
            (unsigned)stp.mynode, stp.net && stp.net->segment ? "network's" : "mapped", mine->addr, GASNET_PAGESIZE);
    return GASNET_ERR_RESOURCE;
  }
  return rc;
}

/* Every collective step of attach is entered by every node or by none: the
 * nodes agree on each step's outcome before the next, so a node that fails
 * makes every node return its error instead of leaving them in a
 * collective.  (A failure inside a network's open ends the job.) */
int gasnet_attach(gasnet_handlerentry_t *table, int numentries, uintptr_t segsize, uintptr_t minheapoffset) {
  STP_API_GUARD();
  gasnet_seginfo_t mine = {NULL, 0};
  int rc;
  (void)minheapoffset; /* the segment is its own mapping; the heap is not affected */
  if (!stp.inited) stp_fatal("gasnet_attach: called before gasnet_init");
  if (stp.attached) {
#if STP_CHECKS
    stp_fatal("gasnet_attach: called twice");
#else
    return GASNET_ERR_RESOURCE;
#endif
  }
  rc = agree(attach_args(table, numentries, segsize), "its arguments");
  if (rc != GASNET_OK) {
    memset(stp.handler, 0, sizeof(stp.handler)); /* as before the call */
    return rc;
  }

  /* network, then the segment it reaches best (or ordinary memory) */
  if (segsize > stp.max_local_seg) segsize = stp.max_local_seg;
  if (stp.net) {
    stp_net_args_t args = {&stp.boot, stp_stage->oos, 0};
    rc = stp.net->open(&args);
    if ((rc = agree(rc, "opening the network")) != GASNET_OK) return rc;
    stp.net_threads = args.threads;
    gasnet_set_waitmode(stp.waitmode); /* (its threads count now) */
  }
  rc = agree(attach_segment(segsize, &mine), "its segment");
  if (rc != GASNET_OK) return rc;
  stp.seg = calloc(stp.nodes, sizeof(*stp.seg));
  if (!stp.seg) stp_fatal("gasnet_attach: out of memory");
  stp.boot.allgather(stp.boot.ctx, &mine, stp.seg, sizeof(mine));

  rc = stp.core->attach();
  if (rc == GASNET_OK && stp.ext->attach) rc = stp.ext->attach();
  rc = agree(rc, "attaching the Core and the Extended API"); /* (the attach barrier) */
  if (rc != GASNET_OK) return rc;
  stp.attached = 1;
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

/* The exit protocol, then teardown in the reverse order of attach.  From
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
  if (!stp_boot_mpi_usable()) { /* the client finalized MPI itself */
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
  else stp_boot_mpi_exit_notify(code);
  wait_s = stp_env_u64("STAGEPORT_EXIT_TIMEOUT", 2);
  deadline = now_sec() + (double)wait_s;
  while (life.notices < peers && now_sec() < deadline) {
    /* both channels: a peer that exited before it attached used the bootstrap's */
    if (take_notice(&pcode) || (net_notices() && stp_boot_mpi_exit_take(&pcode))) life.notices++;
    else sched_yield();
  }
  if (life.notices < peers) {
    fprintf(stderr,
            "stageport: node %u: exit with code %d: %d of %d peers did not take part in the exit within %" PRIu64
            " s (computing without calling GASNet, or hung); aborting the job with code %d\n",
            (unsigned)stp.mynode, code, peers - life.notices, peers, wait_s, code);
    stp_abort(code);
  }

  if (stp.attached) {
    if (stp.ext->detach) stp.ext->detach();
    stp.core->detach();
    if (stp.net) stp.net->close();
  }
  stp_boot_mpi_close(1);
  if (!from_exit) exit(code);
}

void gasnet_exit(int exitcode) {
  if (!stp.inited) exit(exitcode);
  exit_lock(exitcode, BY_GASNET_EXIT); /* (held until the process ends) */
  lifecycle_exit(exitcode, BY_GASNET_EXIT);
  exit(exitcode); /* not reached */
}


/* ------------------------------------------------------------------ */
/* queries                                                             */
/* ------------------------------------------------------------------ */
gasnet_node_t gasnet_mynode(void) {
  STP_CHECK_INITED("gasnet_mynode");
  return stp.mynode;
}

gasnet_node_t gasnet_nodes(void) {
  STP_CHECK_INITED("gasnet_nodes");
  return stp.nodes;
}

uintptr_t gasnet_getMaxLocalSegmentSize(void) {
  STP_CHECK_INITED("gasnet_getMaxLocalSegmentSize");
  return stp.max_local_seg;
}

uintptr_t gasnet_getMaxGlobalSegmentSize(void) {
  STP_CHECK_INITED("gasnet_getMaxGlobalSegmentSize");
  return stp.max_global_seg;
}

int gasnet_getSegmentInfo(gasnet_seginfo_t *seginfo_table, int numentries) {
  STP_CHECK_ATTACHED("gasnet_getSegmentInfo");
  if (numentries < 0 || (numentries > 0 && !seginfo_table)) return GASNET_ERR_BAD_ARG;
  for (int i = 0; i < numentries && (gasnet_node_t)i < stp.nodes; i++) seginfo_table[i] = stp.seg[i];
  return GASNET_OK;
}

/* As in GASNet-1 releases, valid from gasnet_init on (the table is made there). */
int gasnet_getNodeInfo(gasnet_nodeinfo_t *nodeinfo_table, int numentries) {
  STP_CHECK_INITED("gasnet_getNodeInfo");
  if (numentries < 0 || (numentries > 0 && !nodeinfo_table)) return GASNET_ERR_BAD_ARG;
  for (int i = 0; i < numentries && (gasnet_node_t)i < stp.nodes; i++) nodeinfo_table[i] = stp.nodeinfo[i];
  return GASNET_OK;
}

char *gasnet_getenv(const char *name) {
  STP_CHECK_INITED("gasnet_getenv");
  return name ? getenv(name) : NULL;
}
