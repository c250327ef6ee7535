/* coreprobe -- the round trip of one cache line between two CPUs of this
 * machine, in nanoseconds: the state of the machine under a measurement.
 *
 * On a VM the hypervisor may place the virtual CPUs on neighbouring cores
 * or far apart (another socket), and move them while a job runs; on this
 * project's 2-CPU VM the round trip is 80-130 ns or 380-430 ns, and every
 * shared-memory latency in stageport moves with it (an AM round trip
 * 0.26 us or 0.68 us).  bench/compare.py runs this before and after the
 * runs that are compared with each other and repeats them when the
 * machine changed in between (compare.py's core_probe).
 *
 *   coreprobe [ROUNDTRIPS]   (default 20000, best of 5 batches)
 *
 * Two threads, pinned to the first two CPUs this process may use, bounce
 * one cache line.  Prints "<ns> cpu<a> cpu<b>", or "none <why>" (fewer
 * than two CPUs, pinning refused, or a batch over a second: the machine
 * is too busy to say).  Exit status 0 either way; 2 on a usage error.
 * Plain C and pthreads: no MPI, no stageport. */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BATCHES 5
#define BATCH_LIMIT_NS 1000000000.0

static _Atomic long line __attribute__((aligned(64)));
static _Atomic int quit;
static long trips;

static double now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

static int pin(int cpu) {
  cpu_set_t s;
  CPU_ZERO(&s);
  CPU_SET(cpu, &s);
  return pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

/* the far side: answers every odd value with the next even one */
static void *echo(void *arg) {
  long i, n = trips * BATCHES;
  if (pin(*(int *)arg)) return (void *)1;
  for (i = 0; i < n; i++) {
    long want = 2 * i + 1;
    while (atomic_load_explicit(&line, memory_order_acquire) != want)
      if (atomic_load_explicit(&quit, memory_order_relaxed)) return NULL;
    atomic_store_explicit(&line, want + 1, memory_order_release);
  }
  return NULL;
}

int main(int argc, char **argv) {
  cpu_set_t mine;
  int cpu[2], found = 0, b;
  long i, k = 0;
  double best = 0;
  pthread_t t;
  void *echo_rc = NULL;
  char *end;
  trips = argc > 1 ? strtol(argv[1], &end, 10) : 20000;
  if (argc > 2 || trips <= 0 || (argc > 1 && *end)) {
    fprintf(stderr, "usage: coreprobe [ROUNDTRIPS]  (a positive number; default 20000)\n");
    return 2;
  }
  if (sched_getaffinity(0, sizeof mine, &mine)) {
    puts("none sched_getaffinity failed");
    return 0;
  }
  for (i = 0; i < CPU_SETSIZE && found < 2; i++)
    if (CPU_ISSET(i, &mine)) cpu[found++] = (int)i;
  if (found < 2) {
    puts("none fewer than two CPUs");
    return 0;
  }
  if (pin(cpu[0]) || pthread_create(&t, NULL, echo, &cpu[1])) {
    puts("none pinning or thread creation refused");
    return 0;
  }
  for (b = 0; b < BATCHES; b++) {
    double t0 = now_ns(), ns;
    for (i = 0; i < trips; i++, k++) {
      long want = 2 * k + 2;
      unsigned spins = 0;
      atomic_store_explicit(&line, want - 1, memory_order_release);
      while (atomic_load_explicit(&line, memory_order_acquire) != want)
        if (!(++spins & 4095) && now_ns() - t0 > BATCH_LIMIT_NS) goto busy;
    }
    ns = (now_ns() - t0) / trips;
    if (!b || ns < best) best = ns;
  }
  pthread_join(t, NULL); /* (an echo that could not pin never answered: busy below) */
  printf("%.1f cpu%d cpu%d\n", best, cpu[0], cpu[1]);
  return 0;
busy:
  atomic_store(&quit, 1);
  pthread_join(t, &echo_rc);
  puts(echo_rc ? "none pinning refused" : "none a batch took over a second (a busy machine)");
  return 0;
}
