/*
 * benchutil.h -- what stpbench and mpibench share: the timer, option
 * parsing, size sequences, iteration budgets and the one table/CSV writer.
 *
 * Nothing here knows about GASNet or MPI, so it builds in every bench
 * (against stageport, against a real GASNet, plain MPI).
 */
#ifndef BENCHUTIL_H
#define BENCHUTIL_H

#include <stddef.h>
#include <stdio.h>

/* CSV columns, in order (MB = 2^20 bytes; mpi_msgs_per_op is empty when
 * not counted: see bu_row_t; counters_per_op is empty when not counted,
 * otherwise "NAME=VALUE;NAME=VALUE..." per operation, e.g.
 * "PAPI_TOT_CYC=312.4000;PAPI_TOT_INS=289.0000": see bu_row_t).
 * New columns go last, so readers by column name keep working. */
#define BU_CSV_HEADER "stage,test,size,iters,usec_per_op,MB_per_s,mpi_msgs_per_op,counters_per_op"

/* Defaults shared by both benches. */
#define BU_DEFAULT_ITERS 10000L
#define BU_DEFAULT_MAX_BYTES (1UL << 30) /* per-size byte budget, see bu_iters_for */

/* Monotonic wall clock in microseconds (clock_gettime(CLOCK_MONOTONIC)). */
double bu_now_usec(void);

/* Parse "4096", "4K", "4k", "4M", "1G" (K = 2^10).  Returns 0 on success. */
int bu_parse_size(const char *s, size_t *out);

/* 1 when name is one of the comma-separated words in list. */
int bu_list_has(const char *list, const char *name);

/* Options common to every bench. */
typedef struct bu_opts {
  const char *tests;    /* -t: comma-separated test names, NULL = defaults */
  long iters;           /* -i: iterations per size */
  long warmup;          /* -w: warm-up iterations per size, -1 = automatic */
  size_t min, max;      /* -m/-M: size range, (size_t)-1 = each test's default */
  size_t step;          /* --step: size multiplier (2 = powers of two) */
  size_t max_bytes;     /* --max-bytes: per-size byte budget, 0 = none */
  const char *csv;      /* --csv FILE: append rows */
  const char *label;    /* --label NAME: stage name override */
} bu_opts_t;

#define BU_SIZE_DEFAULT ((size_t)-1)

/* Parse argv.  Common options: -t -i -w -m -M --step --max-bytes --csv
 * --label -h/--help.  A program's own long options (flag-only or with an
 * argument) are passed in `extra` (terminated by a zeroed entry, may be
 * NULL) and reported through `cb(val, optarg, ctx)`, which returns 0 when
 * the value is accepted.  --help prints `usage` to stdout and returns 1;
 * a bad option prints a one-line message to stderr and returns -1;
 * success returns 0. */
struct option;
int bu_parse_args(int argc, char **argv, bu_opts_t *o, const struct option *extra,
                  int (*cb)(int val, const char *arg, void *ctx), void *ctx,
                  const char *usage);

/* A test's size range: its defaults, replaced by -m / -M when given. */
void bu_range(const bu_opts_t *o, size_t def_lo, size_t def_hi, size_t *lo, size_t *hi);

/* The sizes of one test: 0 first when lo == 0, then lo', lo'*step, ...
 * while <= hi (lo' = max(lo, 1)), then hi itself if the sequence skipped it.
 * Writes at most cap sizes into out; returns how many. */
size_t bu_sizes(size_t lo, size_t hi, size_t step, size_t *out, size_t cap);

/* Iterations for one size: iters, reduced so that size * iters stays near
 * max_bytes (never below BU_MIN_ITERS, never above iters). */
#define BU_MIN_ITERS 100L
long bu_iters_for(size_t size, long iters, size_t max_bytes);

/* Warm-up iterations for one size: the -w value, or iters/10 in [1, 100]. */
long bu_warmup_for(long iters, long warmup_opt);

/* The one writer: a readable table on stdout and (optionally) CSV rows.
 * extra_name: title of an optional extra table column (NULL = none; the
 * column is as wide as its title, at least 12);
 * msgs: 1 to show the MPI messages per operation in the table too (the CSV
 * always has the column). */
typedef struct bu_report {
  FILE *csv;
  const char *extra_name;
  int msgs;
} bu_report_t;

/* One row.  size: the size column, bytes or what the test says it is
 * (stpbench aminject: the queue depth); bytes: the payload per operation,
 * what MB/s is computed from; iters: the operations timed, what
 * usec_per_op and mpi_msgs_per_op are per. */
typedef struct bu_row {
  const char *stage, *test;
  size_t size, bytes;
  long iters;
  double usec_per_op;
  const char *extra;    /* the extra column's text, NULL prints "-" */
  double msgs;          /* MPI messages per operation, < 0: not counted (empty) */
  const char *counters; /* the CSV's counters_per_op: "NAME=VALUE" pairs joined by ';'
                           (no commas or quotes); NULL: empty */
} bu_row_t;

int bu_report_open(bu_report_t *r, const char *csv_path, const char *extra_name, int msgs);
void bu_report_header(const bu_report_t *r);
void bu_report_row(const bu_report_t *r, const bu_row_t *row);
void bu_report_close(bu_report_t *r);

#endif /* BENCHUTIL_H */
