/*
 * exittest.c -- job termination: gasnet_exit from one node while the others
 * wait in a barrier or compute without calling GASNet, from a handler, from
 * every node, before attach; returning from main; a crashing node.
 *
 * Usage: mpirun -np N exittest MODE      (exittest --list: the modes)
 *
 * Built twice: exittest (GASNET_SEQ) and exittest_par (GASNET_PAR, the
 * modes named par_*: exits from one thread while another runs handlers).
 *
 * Every line this program prints starts with "exittest:".  The node that
 * ends the job prints "exittest: EXIT_AT <seconds>" (CLOCK_REALTIME) just
 * before it calls gasnet_exit or crashes; run-suite.sh measures from there to
 * the end of mpirun, and checks the exit status (and, where the job ends
 * normally, that nothing else was printed).
 */
#define _GNU_SOURCE 1
#include <gasnet.h>

#ifdef GASNET_PAR
#include <pthread.h>
#endif
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the table's function type (gasnet_handlerfn_t is not in GASNet-1) */
typedef __typeof__(((gasnet_handlerentry_t *)0)->fnptr) handlerfn_t;

static gasnet_node_t me, nodes;

static double now(clockid_t c) {
  struct timespec ts;
  clock_gettime(c, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
static void mark(void) {
  printf("exittest: EXIT_AT %.6f node %u\n", now(CLOCK_REALTIME), (unsigned)me);
  fflush(stdout);
}
static void barrier(void) {
  gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
  gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
}
static void stuck_in_barrier(void) {
  barrier();
  printf("exittest: node %u: left the barrier although a node ended the job\n", (unsigned)me);
  fflush(stdout);
}
/* poll for a while, so the other nodes are where they should be */
static void settle(double s) {
  double end = now(CLOCK_MONOTONIC) + s;
  while (now(CLOCK_MONOTONIC) < end) gasnet_AMPoll();
}

/* compute for 60 s without any GASNet call */
static void compute(void) {
  double end = now(CLOCK_MONOTONIC) + 60;
  volatile unsigned long x = 0;
  while (now(CLOCK_MONOTONIC) < end) x++;
  printf("exittest: node %u: computed for 60 s, was not ended\n", (unsigned)me);
}
/* poll without end (as a node waiting for a message would) */
static void poll_forever(void) {
  static volatile int never = 0;
  GASNET_BLOCKUNTIL(never);
}

static void h_exit(gasnet_token_t t, gasnet_handlerarg_t code) {
  (void)t;
  mark();
  gasnet_exit(code);
}
static volatile long flood_seen;
static void h_flood(gasnet_token_t t) {
  (void)t;
  flood_seen++;
}
static void h_flood_payload(gasnet_token_t t, void *buf, size_t n) {
  (void)t, (void)buf, (void)n;
  flood_seen++;
}
#ifdef GASNET_PAR
/* a handler that takes the HSL a thread exiting holds */
static gasnet_hsl_t hsl = GASNET_HSL_INITIALIZER;
static void h_hsl(gasnet_token_t t) {
  (void)t;
  gasnet_hsl_lock(&hsl);
  flood_seen++;
  gasnet_hsl_unlock(&hsl);
}
static void *poll_thread(void *arg) {
  (void)arg;
  for (;;) gasnet_AMPoll();
  return NULL;
}
#else
static void h_hsl(gasnet_token_t t) { (void)t; }
#endif
static gasnet_handlerentry_t table[] = {
    {200, (handlerfn_t)h_exit}, {201, (handlerfn_t)h_flood}, {202, (handlerfn_t)h_hsl},
    {203, (handlerfn_t)h_flood_payload}};

typedef struct {
  const char *name;
  const char *about;
} mode_t_;
static const mode_t_ modes[] = {
#ifdef GASNET_PAR
    {"par_exit_hsl", "GASNET_PAR: on node 0 a thread holding an HSL calls gasnet_exit(3) while another polls, its "
                     "handlers waiting for that HSL (the others flood node 0): status 3"},
    {"par_plain_exit_hsl", "GASNET_PAR: as par_exit_hsl, with exit(18): status 18"},
#else
    {"exit_barrier", "last node gasnet_exit(7) while the others wait in a barrier: status 7"},
    {"exit_zero_one", "last node gasnet_exit(0) while the others wait in a barrier: status 0"},
    {"exit_busy", "last node gasnet_exit(5) while the others compute without GASNet calls: status 5"},
    {"exit_in_handler", "a handler on the last node calls gasnet_exit(9): status 9"},
    {"exit_during_flood", "last node gasnet_exit(6) while the others flood it with requests: status 6"},
    {"exit_all", "every node calls gasnet_exit(3) without a barrier: status 3"},
    {"exit_all_different", "node i calls gasnet_exit(10 + i) without a barrier: status one of them"},
    {"exit_before_attach", "node 0 calls gasnet_exit(4) between init and attach: status 4"},
    {"return_main", "every node returns 0 from main after a barrier: status 0, no other output"},
    {"exit_zero", "every node calls gasnet_exit(0) after a barrier: status 0, no other output"},
    {"exit_poll", "last node gasnet_exit(12) while the others poll (GASNET_BLOCKUNTIL): status 12"},
    {"exit_plain_barrier", "last node calls exit(13) while the others wait in a barrier: status 13"},
    {"exit_plain_busy", "last node calls exit(14) while the others compute without GASNet calls: status 14"},
    {"exit_plain_poll", "last node calls exit(15) while the others poll: status 15"},
    {"return_code", "last node returns 16 from main while the others wait in a barrier: status 16"},
    {"return_code_busy", "last node returns 17 from main while the others compute: status 17"},
    {"exit_inflight", "last node starts puts and gets (in and out of the segment) and calls gasnet_exit(0) without "
                      "syncing them: status 0, no crash"},
    {"exit_inflight_am", "last node sends AM requests of every category to every node (the UCX Core's mailbox and "
                         "RMA Long payloads) and calls gasnet_exit(0) at once: status 0, no error"},
    {"crash_segv", "last node raises SIGSEGV while the others wait in a barrier: non-zero, no hang"},
    {"crash_abort", "last node calls abort() while the others wait in a barrier: non-zero, no hang"},
    {"crash_kill", "last node is killed (SIGKILL) while the others poll: non-zero, no hang"},
    {"crash_segv_busy", "last node raises SIGSEGV while the others compute: non-zero, no hang"},
#endif
};
#define NMODES ((int)(sizeof(modes) / sizeof(modes[0])))

int main(int argc, char **argv) {
  const char *mode = NULL;
  for (int i = 0; argc > 1 && i < NMODES; i++)
    if (!strcmp(argv[1], modes[i].name)) mode = modes[i].name;
  if (!mode) {
    int help = argc > 1 && (!strcmp(argv[1], "--list") || !strcmp(argv[1], "--help"));
    FILE *f = help ? stdout : stderr;
    fprintf(f, "usage: mpirun -np N exittest MODE\nmodes:\n");
    for (int i = 0; i < NMODES; i++) fprintf(f, "  %-20s %s\n", modes[i].name, modes[i].about);
    return help ? 0 : 2;
  }
  if (gasnet_init(&argc, &argv) != GASNET_OK) return 3;
  me = gasnet_mynode();
  nodes = gasnet_nodes();
  gasnet_node_t last = nodes - 1;
#define IS(m) (!strcmp(mode, (m)))

  if (IS("exit_before_attach") && me == 0) {
    mark();
    gasnet_exit(4);
  }
  /* exit_zero attaches without handlers and without a segment (both allowed) */
  int plain = IS("exit_zero");
  if (gasnet_attach(plain ? NULL : table, plain ? 0 : 4, plain ? 0 : GASNET_PAGESIZE * 16, 0) != GASNET_OK) {
    printf("exittest: node %u: gasnet_attach(%s) failed\n", (unsigned)me,
           plain ? "NULL, 0, 0, 0" : "table, 2, 16 pages, 0");
    gasnet_exit(3);
  }
  if (IS("exit_before_attach")) {
    stuck_in_barrier();
    return 0;
  }
  if (IS("exit_all")) gasnet_exit(3);
  if (IS("exit_all_different")) gasnet_exit(10 + (int)me);
  barrier();

  if (IS("par_exit_hsl") || IS("par_plain_exit_hsl")) {
#ifdef GASNET_PAR
    if (me == 0) {
      pthread_t t;
      if (pthread_create(&t, NULL, poll_thread, NULL)) {
        printf("exittest: node 0: pthread_create failed\n");
        gasnet_exit(2);
      }
      while (flood_seen < 100) sched_yield(); /* (the poller runs the handlers) */
      gasnet_hsl_lock(&hsl);
      {
        /* long enough for the poller to be inside a handler, waiting for the HSL with the library lock held */
        double end = now(CLOCK_MONOTONIC) + 0.2;
        while (now(CLOCK_MONOTONIC) < end) {
        }
      }
      mark();
      if (IS("par_exit_hsl")) gasnet_exit(3);
      exit(18);
    }
    for (;;) gasnet_AMRequestShort0(0, 202);
#endif
  } else if (IS("exit_barrier") || IS("exit_zero_one")) {
    if (me == last) {
      settle(0.2);
      mark();
      gasnet_exit(IS("exit_barrier") ? 7 : 0);
    }
    stuck_in_barrier();
  } else if (IS("exit_busy")) {
    if (me == last) {
      settle(0.3);
      mark();
      gasnet_exit(5);
    }
    compute();
  } else if (IS("exit_in_handler")) {
    if (me == last) poll_forever(); /* until the handler ends the job (this node never notifies, so the
                                     * others stay in the barrier) */
    if (me == 0) {
      settle(0.2);
      gasnet_AMRequestShort1(last, 200, 9);
    }
    stuck_in_barrier();
  } else if (IS("exit_during_flood")) {
    if (me == last) {
      GASNET_BLOCKUNTIL(flood_seen >= 1000);
      mark();
      gasnet_exit(6);
    }
    /* requests without end: once the last node stops taking them, the
     * senders stall for flow control and must still notice the exit */
    for (;;) gasnet_AMRequestShort0(last, 201);
  } else if (IS("return_main")) {
    barrier();
    return 0;
  } else if (IS("exit_zero")) {
    barrier();
    gasnet_exit(0);
  } else if (IS("crash_segv") || IS("crash_abort")) {
    if (me == last) {
      settle(0.2);
      mark();
      if (IS("crash_segv")) raise(SIGSEGV);
      abort();
    }
    stuck_in_barrier();
  } else if (IS("exit_poll") || IS("exit_plain_poll") || IS("crash_kill")) {
    if (me == last) {
      settle(0.3);
      mark();
      if (IS("exit_poll")) gasnet_exit(12);
      if (IS("exit_plain_poll")) exit(15);
      raise(SIGKILL);
    }
    poll_forever();
  } else if (IS("exit_inflight")) {
    if (me == last) {
      /* operations still in flight when the library tears down: their
       * completions must not touch freed state (checked under the
       * sanitizers) */
      size_t n = GASNET_PAGESIZE * 16, big = 2 << 20;
      gasnet_seginfo_t *si = calloc(nodes, sizeof(*si));
      char *out = malloc(big);
      memset(out, 7, big);
      gasnet_getSegmentInfo(si, (int)nodes);
      for (int i = 0; i < 16; i++) {
        gasnet_put_nbi_bulk(0, si[0].addr, out + (size_t)i * 4096, n);        /* out of the segment */
        gasnet_get_nbi_bulk(out + (size_t)i * 65536, 0, si[0].addr, n);       /* into it, likewise */
        gasnet_put_nbi_bulk(0, si[0].addr, si[me].addr, n / 2);              /* from the segment */
      }
      mark();
      gasnet_exit(0);
    }
    stuck_in_barrier();
  } else if (IS("exit_inflight_am")) {
    if (me == last) {
      /* requests whose puts may still be on their way when the notices go:
       * each target unmaps its mailbox and segment once every notice is in */
      static char payload[4096];
      gasnet_seginfo_t *si = calloc(nodes, sizeof(*si));
      gasnet_getSegmentInfo(si, (int)nodes);
      memset(payload, 5, sizeof(payload));
      for (int i = 0; i < 8; i++)
        for (gasnet_node_t p = 0; p < nodes; p++) {
          if (p == me) continue;
          gasnet_AMRequestShort0(p, 201);
          gasnet_AMRequestMedium0(p, 203, payload, 256);
          gasnet_AMRequestLongAsync0(p, 203, payload, sizeof(payload), si[p].addr);
        }
      mark();
      gasnet_exit(0);
    }
    stuck_in_barrier();
  } else if (IS("exit_plain_barrier") || IS("return_code")) {
    if (me == last) {
      settle(0.2);
      mark();
      if (IS("return_code")) return 16;
      exit(13);
    }
    stuck_in_barrier();
  } else if (IS("exit_plain_busy") || IS("return_code_busy") || IS("crash_segv_busy")) {
    if (me == last) {
      settle(0.3);
      mark();
      if (IS("return_code_busy")) return 17;
      if (IS("crash_segv_busy")) raise(SIGSEGV);
      exit(14);
    }
    compute();
  }
  fflush(stdout);
  gasnet_exit(0);
  return 0;
}
