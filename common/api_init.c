/*
 * api_init.c -- gasnet_init, gasnet_attach, gasnet_exit and the job queries.
 */
#include "stp_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

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
static void stp_atexit(void) {
  if (stp.inited && !stp.exiting) stp_boot_exit(0, 1);
}

static const stp_stage_t *select_stage(void) {
  const char *name = getenv("STAGEPORT_STAGE");
  const stp_stage_t *st;
  char list[256] = "";
  if (!name || !*name) name = STP_DEFAULT_STAGE;
  st = stp_stage_find(name);
  if (st) return st;
  for (int i = 0; i < stp_nstages; i++) {
    if (i) strncat(list, ", ", sizeof(list) - strlen(list) - 1);
    strncat(list, stp_stages[i].name, sizeof(list) - strlen(list) - 1);
  }
  fprintf(stderr, "stageport: fatal error: gasnet_init: STAGEPORT_STAGE=\"%s\" is not a stage of this build (built stages: %s)\n",
          name, list);
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

int gasnet_init(int *argc, char ***argv) {
  int rc;
  if (stp.inited) {
    fprintf(stderr, "stageport: gasnet_init: called twice (GASNET_ERR_RESOURCE)\n");
    return GASNET_ERR_RESOURCE;
  }
  stp.stage = select_stage();
  if (!stp.stage) exit(1);
  stp.core = stp.stage->core;
  stp.ext = stp.stage->ext;
  rc = stp_boot_init(argc, argv);
  if (rc != GASNET_OK) return rc;
  stp.inited = 1;
  atexit(stp_atexit);
  init_waitmode();
  stp.max_local_seg = max_local_segment();
  stp.max_global_seg = (uintptr_t)stp_boot_min_u64(stp.max_local_seg);
  stp_op_init(&stp.iop, STP_OP_IMPLICIT);
  return GASNET_OK;
}

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

static void register_internal(const stp_handler_reg_t *regs, int n) {
  for (int i = 0; i < n; i++) stp.handler[regs[i].index] = regs[i].fn;
}

extern const stp_handler_reg_t stp_barrier_handlers[];
extern const int stp_barrier_nhandlers;

int gasnet_attach(gasnet_handlerentry_t *table, int numentries, uintptr_t segsize, uintptr_t minheapoffset) {
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
  register_internal(stp_ext_ref_ops.handlers, stp_ext_ref_ops.nhandlers); /* the AM fallbacks */
  register_internal(stp.ext->handlers, stp.ext->nhandlers);

  if (segsize > stp.max_local_seg) segsize = stp.max_local_seg;
  if (stp.ext->segment_alloc) {
    rc = stp.ext->segment_alloc(segsize, &mine.addr);
    if (rc != GASNET_OK) return rc;
    if (mine.addr) mine.size = segsize;
  }
  if (segsize && !mine.addr) {
    void *p = mmap(NULL, segsize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) {
      fprintf(stderr, "stageport: node %u: gasnet_attach: cannot map a %" PRIuPTR "-byte segment\n",
              (unsigned)stp.mynode, segsize);
      return GASNET_ERR_RESOURCE;
    }
    mine.addr = p;
    mine.size = segsize;
  }
  stp.seg = calloc(stp.nodes, sizeof(*stp.seg));
  if (!stp.seg) stp_fatal("gasnet_attach: out of memory");
  stp_boot_allgather(&mine, stp.seg, sizeof(mine));

  rc = stp.core->attach();
  if (rc != GASNET_OK) return rc;
  rc = stp.ext->attach ? stp.ext->attach() : GASNET_OK;
  if (rc != GASNET_OK) return rc;
  stp.attached = 1;
  stp_boot_barrier();
  return GASNET_OK;
}

/* ------------------------------------------------------------------ */
/* exit                                                                */
/* ------------------------------------------------------------------ */
void gasnet_exit(int exitcode) {
  if (!stp.inited) exit(exitcode);
  stp_boot_exit(exitcode, 0);
  exit(exitcode); /* not reached */
}

void stp_exit_now(int code) {
  stp_boot_exit(code, 0);
  exit(code); /* not reached */
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

int gasnet_getNodeInfo(gasnet_nodeinfo_t *nodeinfo_table, int numentries) {
  STP_CHECK_ATTACHED("gasnet_getNodeInfo");
  if (numentries < 0 || (numentries > 0 && !nodeinfo_table)) return GASNET_ERR_BAD_ARG;
  for (int i = 0; i < numentries && (gasnet_node_t)i < stp.nodes; i++) nodeinfo_table[i] = stp.nodeinfo[i];
  return GASNET_OK;
}

char *gasnet_getenv(const char *name) {
  STP_CHECK_INITED("gasnet_getenv");
  return name ? getenv(name) : NULL;
}
