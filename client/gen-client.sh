#!/bin/sh
# gen-client.sh SRCDIR OUTDIR STAGE -- make one stage's client files from
# the templates in SRCDIR (client/Makefile.am runs it for every built stage):
#
#   OUTDIR/STAGE-conduit/stageport_conduit.h    (stageport_conduit.h.in)
#   OUTDIR/STAGE-conduit/gasnet_core.h          (gasnet_core.h, as is)
#   OUTDIR/STAGE-conduit/STAGE-MODE.mak         (conduit.mak.in), MODE seq, par, parsync
#   OUTDIR/gasnetrun_STAGE                      (gasnetrun.in)
#
# A template's @NAME@ is replaced by the environment's GEN_NAME, literally;
# a template naming a value it was not given is an error.  The caller sets
# GEN_PREFIX, GEN_LIBDIR, GEN_INCLUDEDIR, GEN_CC, GEN_CXX, GEN_CFLAGS,
# GEN_LDFLAGS, GEN_UCX_LIBS, GEN_MPIRUN, GEN_VERSION; this script adds
# GEN_STAGE, GEN_TOKEN (the stage as a C token: ucx-mpi -> UCX_MPI),
# GEN_MODE, GEN_MODE_UC, and GEN_LIBDIR_MAK / GEN_INCLUDEDIR_MAK (libdir and
# includedir in the fragments' terms: under $(GASNET_PREFIX) when they are
# under the prefix, so that an installation can be moved or staged).
set -eu
src=$1 out=$2 stage=$3

GEN_STAGE=$stage
GEN_TOKEN=$(echo "$stage" | tr 'a-z-' 'A-Z_')
under_prefix() { # DIR: DIR with the prefix spelled $(GASNET_PREFIX)
  case $1 in
    "$GEN_PREFIX") echo '$(GASNET_PREFIX)' ;;
    "$GEN_PREFIX"/*) echo '$(GASNET_PREFIX)'"${1#"$GEN_PREFIX"}" ;;
    *) echo "$1" ;;
  esac
}
GEN_LIBDIR_MAK=$(under_prefix "$GEN_LIBDIR")
GEN_INCLUDEDIR_MAK=$(under_prefix "$GEN_INCLUDEDIR")
export GEN_STAGE GEN_TOKEN GEN_LIBDIR_MAK GEN_INCLUDEDIR_MAK

subst() { # TEMPLATE OUTPUT
  awk '
    BEGIN { for (k in ENVIRON) if (k ~ /^GEN_/) val["@" substr(k, 5) "@"] = ENVIRON[k] }
    {
      line = $0
      for (p in val) {
        done = ""
        while ((i = index(line, p)) > 0) {
          done = done substr(line, 1, i - 1) val[p]
          line = substr(line, i + length(p))
        }
        line = done line
      }
      if (match(line, /@[A-Z][A-Z_]*@/)) {
        printf "%s:%d: no value for %s\n", FILENAME, FNR, substr(line, RSTART, RLENGTH) > "/dev/stderr"
        bad = 1
      }
      print line
    }
    END { exit bad }' "$1" >"$2.tmp"
  mv "$2.tmp" "$2"
}

dir=$out/$stage-conduit
mkdir -p "$dir"
subst "$src/stageport_conduit.h.in" "$dir/stageport_conduit.h"
cp "$src/gasnet_core.h" "$dir/gasnet_core.h"
for GEN_MODE in seq par parsync; do
  GEN_MODE_UC=$(echo "$GEN_MODE" | tr a-z A-Z)
  export GEN_MODE GEN_MODE_UC
  subst "$src/conduit.mak.in" "$dir/$stage-$GEN_MODE.mak"
done
subst "$src/gasnetrun.in" "$out/gasnetrun_$stage"
chmod +x "$out/gasnetrun_$stage"
