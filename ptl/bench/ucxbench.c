/*
 * ucxbench.c -- the raw-UCX baseline for ptlbench: the ceiling every
 * UCX-based stage is judged against.  Same sizes, same memory kind
 * (UCX-allocated, registered), same output format, mode "raw":
 *
 *   mpirun -np 2 ucxbench [-n ITERS]
 *
 *   putlat     ucp_put_nbx + ucp_ep_flush_nbx, completed       8 B .. 4 KiB
 *   putlat_wf  ucp_put_nbx + ucp_worker_flush_nbx, completed   8 B .. 4 KiB
 *   getlat     ucp_get_nbx, completed                          8 B .. 4 KiB
 *   putbw      64 ucp_put_nbx, then one flush, repeated        1 KiB .. 4 MiB
 *   amlat      ucp_am_send_nbx ping, the peer's handler        8 B .. 4 KiB
 *              answers with the same size: half the round trip
 *
 * putlat and putlat_wf are the two ways to complete one Put remotely (the
 * worker flush needs nothing else in flight on the worker); the ceiling
 * for Put+ACK is the faster of them.  amlat is the floor of any scheme in
 * which the target's CPU takes part (ptl host mode): one message each way.
 *
 * UCX setup is the shared module's (ucx/stp_ucx.h).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "boot_mpi.h"
#include "stp_ucx.h"

#define SEG_BYTES (8u << 20)
#define WINDOW 64

static int rank, iters = 10000;
static stp_ucx_t u;
static stp_ucx_region_t seg, src;
static stp_ucx_remote_t *rseg;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void check(ucs_status_t st, const char *what) {
  if (st == UCS_OK) return;
  fprintf(stderr, "ucxbench rank %d: %s: %s\n", rank, what, ucs_status_string(st));
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static void put(size_t n, uint64_t off) {
  ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_MEMH, .memh = src.memh};
  check(stp_ucx_wait(u.worker, ucp_put_nbx(u.ep[1], src.addr, n, rseg[1].addr + off, rseg[1].rkey, &p)), "put");
}

static void flush(void) {
  ucp_request_param_t p = {.op_attr_mask = 0};
  check(stp_ucx_wait(u.worker, ucp_ep_flush_nbx(u.ep[1], &p)), "flush");
}

static void worker_flush(void) {
  ucp_request_param_t p = {.op_attr_mask = 0};
  check(stp_ucx_wait(u.worker, ucp_worker_flush_nbx(u.worker, &p)), "worker flush");
}

/* AM ping-pong: rank 0 sends AM_PING, rank 1's handler answers with
 * AM_PONG of the same size (from the handler, eagerly: sizes here fit). */
enum { AM_PING = 1, AM_PONG = 2 };
static volatile int am_pongs, am_pings;

static ucs_status_t am_cb(void *arg, const void *hdr, size_t hlen, void *data, size_t len,
                          const ucp_am_recv_param_t *param) {
  (void)hdr, (void)hlen, (void)data, (void)param;
  if ((intptr_t)arg == AM_PONG) {
    am_pongs++;
  } else {
    ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_AM_SEND_FLAG_EAGER};
    ucs_status_ptr_t r = ucp_am_send_nbx(u.ep[0], AM_PONG, NULL, 0, src.addr, len, &p);
    if (UCS_PTR_IS_ERR(r)) check(UCS_PTR_STATUS(r), "am pong");
    if (r) ucp_request_free(r); /* src never changes: nothing waits for it */
    am_pings++;
  }
  return UCS_OK;
}

static void am_handler(unsigned id) {
  ucp_am_handler_param_t hp = {.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_CB |
                                             UCP_AM_HANDLER_PARAM_FIELD_ARG,
                               .id = id,
                               .cb = am_cb,
                               .arg = (void *)(intptr_t)id};
  check(ucp_worker_set_am_recv_handler(u.worker, &hp), "am handler");
}

static void am_ping(size_t n) {
  ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS, .flags = UCP_AM_SEND_FLAG_EAGER};
  int want = am_pongs + 1;
  check(stp_ucx_wait(u.worker, ucp_am_send_nbx(u.ep[1], AM_PING, NULL, 0, src.addr, n, &p)), "am ping");
  while (am_pongs < want) stp_ucx_progress(&u);
}

static void get(size_t n) {
  ucp_request_param_t p = {.op_attr_mask = UCP_OP_ATTR_FIELD_MEMH, .memh = src.memh};
  check(stp_ucx_wait(u.worker, ucp_get_nbx(u.ep[1], src.addr, n, rseg[1].addr, rseg[1].rkey, &p)), "get");
}

static void result(const char *test, size_t param, double v, const char *unit) {
  printf("RESULT raw %s %zu %.4f %s\n", test, param, v, unit);
}

int main(int argc, char **argv) {
  int nprocs;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (nprocs < 2) {
    if (!rank) fprintf(stderr, "usage: mpirun -np 2 ucxbench [-n ITERS]\n");
    MPI_Finalize();
    return 2;
  }
  if (argc > 2 && !strcmp(argv[1], "-n")) iters = atoi(argv[2]);
  stp_boot_t boot;
  if (stp_boot_mpi_open(&argc, &argv, "ucxbench", 0, &boot)) MPI_Abort(MPI_COMM_WORLD, 1);
  check(stp_ucx_open(&u, &boot, UCP_FEATURE_RMA | UCP_FEATURE_AM, 0, "ucxbench", NULL), "open");
  am_handler(AM_PING);
  am_handler(AM_PONG);
  check(stp_ucx_region_map(&u, NULL, SEG_BYTES, STP_UCX_ALLOCATE | STP_UCX_RKEY, &seg), "segment");
  check(stp_ucx_region_map(&u, NULL, SEG_BYTES, STP_UCX_ALLOCATE, &src), "source");
  memset(seg.addr, 0, SEG_BYTES);
  memset(src.addr, 1, SEG_BYTES);
  rseg = calloc((size_t)nprocs, sizeof(*rseg));
  check(stp_ucx_exchange(&u, &seg, rseg), "exchange");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    for (size_t n = 8; n <= 4096; n *= 2) {
      for (int i = 0; i < iters / 10; i++) put(n, 0), flush();
      double t0 = now();
      for (int i = 0; i < iters; i++) put(n, 0), flush();
      result("putlat", n, (now() - t0) / iters * 1e6, "us");
      for (int i = 0; i < iters / 10; i++) put(n, 0), worker_flush();
      t0 = now();
      for (int i = 0; i < iters; i++) put(n, 0), worker_flush();
      result("putlat_wf", n, (now() - t0) / iters * 1e6, "us");
    }
    for (size_t n = 8; n <= 4096; n *= 2) {
      for (int i = 0; i < iters / 10; i++) get(n);
      double t0 = now();
      for (int i = 0; i < iters; i++) get(n);
      result("getlat", n, (now() - t0) / iters * 1e6, "us");
    }
    for (size_t n = 1024; n <= (4u << 20); n *= 4) {
      long total = (long)((256ull << 20) / n);
      int rounds = (int)((total < 4 * WINDOW ? 4 * WINDOW : total) / WINDOW);
      double t0 = 0;
      for (int w = -1; w < rounds; w++) {
        if (w == 0) t0 = now();
        for (int k = 0; k < WINDOW; k++) put(n, (uint64_t)k * n % (SEG_BYTES - n));
        flush();
      }
      result("putbw", n, (double)n * rounds * WINDOW / (now() - t0) / 1e9, "GB/s");
    }
    for (size_t n = 8; n <= 4096; n *= 2) {
      for (int i = 0; i < iters / 10; i++) am_ping(n);
      double t0 = now();
      for (int i = 0; i < iters; i++) am_ping(n);
      result("amlat", n, (now() - t0) / iters / 2 * 1e6, "us");
    }
    am_ping(0); /* 0 bytes: the end */
  } else if (rank == 1) {
    /* answer every ping: 10 sizes of iters / 10 + iters, then the last */
    int total = 10 * (iters + iters / 10) + 1;
    while (am_pings < total) stp_ucx_progress(&u);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  stp_ucx_remote_release(&u, rseg);
  stp_ucx_region_unmap(&u, &seg);
  stp_ucx_region_unmap(&u, &src);
  stp_ucx_close(&u);
  free(rseg);
  stp_boot_mpi_close(1);
  return 0;
}
