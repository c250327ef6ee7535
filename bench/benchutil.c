/*
 * benchutil.c -- timer, options, sizes, budgets and the table/CSV writer
 * shared by stpbench and mpibench (see benchutil.h).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* getopt_long, clock_gettime */
#endif

#include "benchutil.h"

#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

double bu_now_usec(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

int bu_parse_size(const char *s, size_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (end == s || errno != 0 || *s == '-') return -1;
  unsigned shift = 0;
  switch (*end) {
    case '\0': break;
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: return -1;
  }
  if (*end != '\0' || (shift && v > (SIZE_MAX >> shift))) return -1;
  *out = (size_t)(v << shift);
  return 0;
}

int bu_list_has(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len == n && strncmp(p, name, n) == 0) return 1;
    if (!comma) break;
    p = comma + 1;
  }
  return 0;
}

/* long-only option codes of the common set */
enum { OPT_STEP = 1000, OPT_MAX_BYTES, OPT_CSV, OPT_LABEL };

static const struct option common_opts[] = {
  {"tests", required_argument, NULL, 't'},
  {"iters", required_argument, NULL, 'i'},
  {"warmup", required_argument, NULL, 'w'},
  {"min", required_argument, NULL, 'm'},
  {"max", required_argument, NULL, 'M'},
  {"step", required_argument, NULL, OPT_STEP},
  {"max-bytes", required_argument, NULL, OPT_MAX_BYTES},
  {"csv", required_argument, NULL, OPT_CSV},
  {"label", required_argument, NULL, OPT_LABEL},
  {"help", no_argument, NULL, 'h'},
};
#define N_COMMON (sizeof(common_opts) / sizeof(common_opts[0]))

static int parse_long(const char *s, long lo, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || errno != 0 || v < lo) return -1;
  *out = v;
  return 0;
}

static int bad_option(const char *prog, const char *what, const char *arg) {
  fprintf(stderr, "%s: bad %s '%s' (see --help)\n", prog, what, arg ? arg : "");
  return -1;
}

int bu_parse_args(int argc, char **argv, bu_opts_t *o, const struct option *extra,
                  int (*cb)(int val, const char *arg, void *ctx), void *ctx,
                  const char *usage) {
  const char *prog = argc > 0 ? argv[0] : "bench";
  o->tests = NULL;
  o->iters = BU_DEFAULT_ITERS;
  o->warmup = -1;
  o->min = o->max = BU_SIZE_DEFAULT;
  o->step = 2;
  o->max_bytes = BU_DEFAULT_MAX_BYTES;
  o->csv = NULL;
  o->label = NULL;

  size_t n_extra = 0;
  while (extra && extra[n_extra].name) n_extra++;
  struct option *all = calloc(N_COMMON + n_extra + 1, sizeof(*all));
  if (!all) return bad_option(prog, "allocation", "options");
  memcpy(all, common_opts, sizeof(common_opts));
  if (n_extra) memcpy(all + N_COMMON, extra, n_extra * sizeof(*all));

  int rc = 0, c;
  long l;
  opterr = 0;
  while (rc == 0 && (c = getopt_long(argc, argv, ":t:i:w:m:M:h", all, NULL)) != -1) {
    switch (c) {
      case 't': o->tests = optarg; break;
      case 'i':
        if (parse_long(optarg, 1, &o->iters)) rc = bad_option(prog, "iteration count", optarg);
        break;
      case 'w':
        if (parse_long(optarg, 0, &l)) rc = bad_option(prog, "warm-up count", optarg);
        else o->warmup = l;
        break;
      case 'm':
        if (bu_parse_size(optarg, &o->min)) rc = bad_option(prog, "minimum size", optarg);
        break;
      case 'M':
        if (bu_parse_size(optarg, &o->max)) rc = bad_option(prog, "maximum size", optarg);
        break;
      case OPT_STEP:
        if (bu_parse_size(optarg, &o->step) || o->step < 2) rc = bad_option(prog, "--step (>= 2)", optarg);
        break;
      case OPT_MAX_BYTES:
        if (bu_parse_size(optarg, &o->max_bytes)) rc = bad_option(prog, "--max-bytes", optarg);
        break;
      case OPT_CSV: o->csv = optarg; break;
      case OPT_LABEL: o->label = optarg; break;
      case 'h': fputs(usage, stdout); rc = 1; break;
      case ':': rc = bad_option(prog, "option (missing argument)", argv[optind - 1]); break;
      case '?': rc = bad_option(prog, "option", argv[optind - 1]); break;
      default:
        if (!cb || cb(c, optarg, ctx) != 0) rc = bad_option(prog, "option", argv[optind - 1]);
        break;
    }
  }
  if (rc == 0 && optind < argc) rc = bad_option(prog, "argument", argv[optind]);
  if (rc == 0 && o->min != BU_SIZE_DEFAULT && o->max != BU_SIZE_DEFAULT && o->min > o->max)
    rc = bad_option(prog, "size range (-m larger than -M)", "");
  free(all);
  return rc;
}

void bu_range(const bu_opts_t *o, size_t def_lo, size_t def_hi, size_t *lo, size_t *hi) {
  *lo = o->min != BU_SIZE_DEFAULT ? o->min : def_lo;
  *hi = o->max != BU_SIZE_DEFAULT ? o->max : def_hi;
}

size_t bu_sizes(size_t lo, size_t hi, size_t step, size_t *out, size_t cap) {
  size_t n = 0, s = lo ? lo : 1;
  if (lo == 0 && n < cap) out[n++] = 0;
  for (; s <= hi && n < cap; s = (s > SIZE_MAX / step) ? SIZE_MAX : s * step) {
    out[n++] = s;
    if (s == SIZE_MAX) break;
  }
  if (hi > 0 && n < cap && (n == 0 || out[n - 1] < hi)) out[n++] = hi;
  return n;
}

long bu_iters_for(size_t size, long iters, size_t max_bytes) {
  if (max_bytes == 0 || size == 0 || (double)size * (double)iters <= (double)max_bytes) return iters;
  long budget = (long)(max_bytes / size);
  if (budget < BU_MIN_ITERS) budget = BU_MIN_ITERS;
  return budget < iters ? budget : iters;
}

long bu_warmup_for(long iters, long warmup_opt) {
  if (warmup_opt >= 0) return warmup_opt;
  long w = iters / 10;
  return w < 1 ? 1 : (w > 100 ? 100 : w);
}

int bu_report_open(bu_report_t *r, const char *csv_path, const char *extra_name, int msgs) {
  r->csv = NULL;
  r->extra_name = extra_name;
  r->msgs = msgs;
  if (!csv_path) return 0;
  r->csv = fopen(csv_path, "a");
  if (!r->csv) {
    fprintf(stderr, "cannot open CSV file '%s': %s\n", csv_path, strerror(errno));
    return -1;
  }
  fseek(r->csv, 0, SEEK_END);
  if (ftell(r->csv) == 0) fprintf(r->csv, "%s\n", BU_CSV_HEADER);
  return 0;
}

static double mb_per_s(size_t size, double usec) {
  return usec > 0 ? (double)size / usec * 1e6 / (double)(1UL << 20) : 0.0;
}

/* the extra column's width: its title's, at least 12 */
static int extra_width(const bu_report_t *r) {
  size_t n = strlen(r->extra_name);
  return n > 12 ? (int)n : 12;
}

void bu_report_header(const bu_report_t *r) {
  printf("%-14s %-12s %9s %8s %12s %11s", "stage", "test", "size", "iters", "usec/op", "MB/s");
  if (r->extra_name) printf(" %*s", extra_width(r), r->extra_name);
  if (r->msgs) printf(" %9s", "MPImsg/op");
  printf("\n");
  fflush(stdout);
}

void bu_report_row(const bu_report_t *r, const bu_row_t *w) {
  double mbs = mb_per_s(w->bytes, w->usec_per_op);
  char msgs[32] = "";
  if (w->msgs >= 0) snprintf(msgs, sizeof msgs, "%.3f", w->msgs);
  printf("%-14s %-12s %9zu %8ld %12.3f %11.2f", w->stage, w->test, w->size, w->iters, w->usec_per_op, mbs);
  if (r->extra_name) printf(" %*s", extra_width(r), w->extra ? w->extra : "-");
  if (r->msgs) printf(" %9s", msgs[0] ? msgs : "-");
  printf("\n");
  fflush(stdout);
  if (r->csv) {
    fprintf(r->csv, "%s,%s,%zu,%ld,%.4f,%.4f,%s,%s\n", w->stage, w->test, w->size, w->iters, w->usec_per_op,
            mbs, msgs, w->counters ? w->counters : "");
    fflush(r->csv);
  }
}

void bu_report_close(bu_report_t *r) {
  if (r->csv) fclose(r->csv);
  r->csv = NULL;
}
