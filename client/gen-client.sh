#!/bin/sh
# gen-client.sh SRCDIR OUTDIR STAGE -- make one stage's client files from
# the templates in SRCDIR (client/Makefile.am runs it for every built stage):
#
#   OUTDIR/STAGE-conduit/stageport_conduit.h    (stageport_conduit.h.in)
#   OUTDIR/STAGE-conduit/gasnet_core.h          (gasnet_core.h, as is)
#   OUTDIR/STAGE-conduit/STAGE-MODE.mak         (conduit.mak.in), MODE seq, par, parsync
#   OUTDIR/pkgconfig/gasnet-STAGE-MODE.pc       (gasnet.pc.in, and the values of
#                                                STAGE-MODE.mak, evaluated by make)
#   OUTDIR/gasnetrun_STAGE                      (gasnetrun.in)
#
# A template's @NAME@ is replaced by the environment's GEN_NAME, literally;
# a template naming a value it was not given is an error.  The caller sets
# GEN_PREFIX, GEN_LIBDIR, GEN_INCLUDEDIR, GEN_CC, GEN_CXX, GEN_CFLAGS,
# GEN_LDFLAGS, GEN_UCX_LIBS, GEN_MPIRUN, GEN_VERSION (stageport's),
# GEN_GASNET_RELEASE (gasnet_config.h's) and GEN_MAKE (a GNU make); this
# script adds GEN_STAGE, GEN_TOKEN (the stage as a C token: ucx-mpi ->
# UCX_MPI), GEN_MODE, GEN_MODE_UC, GEN_LIBDIR_MAK / GEN_INCLUDEDIR_MAK
# (libdir and includedir in the fragments' terms: under $(GASNET_PREFIX)
# when they are under the prefix, so that an installation can be moved or
# staged) and GEN_PC_VARIABLES (the fragment's values, with the prefix
# spelled ${GASNET_PREFIX}).
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
# what the stage's Core does natively for a negotiated-payload AM with a
# GASNet-allocated buffer (core.h np_prepare: the Portals Core's ReqSB slot
# and RplSB buffer, Medium and packed Long; the UCX Core's mailbox image,
# Medium); GASNet's macros, defined to 1 where it does
np() { for c in "$@"; do printf '#define GASNET_NATIVE_NP_ALLOC_%s 1\n' "$c"; done; }
case $stage in
  portals | firehose) GEN_NP_NATIVE=$(np REQ_MEDIUM REP_MEDIUM REQ_LONG REP_LONG) ;;
  ucx) GEN_NP_NATIVE=$(np REQ_MEDIUM REP_MEDIUM) ;;
  *) GEN_NP_NATIVE='/* (none: this stage'"'"'s Core has the reference NP-AM) */' ;;
esac
export GEN_NP_NATIVE
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
# the variables of GASNet's .pc files, in its order (GASNET_PREFIX first
# here: pkg-config expands a variable where it is defined); a variable the
# fragment leaves undefined is left out, as GASNet leaves it out
PC_VARS="GASNET_CC GASNET_OPT_CFLAGS GASNET_MISC_CFLAGS GASNET_MISC_CPPFLAGS GASNET_DEFINES GASNET_INCLUDES
  GASNET_CXX GASNET_OPT_CXXFLAGS GASNET_MISC_CXXFLAGS GASNET_MISC_CXXCPPFLAGS GASNET_LD GASNET_LDFLAGS GASNET_LIBS
  GASNET_LD_REQUIRES_CXX GASNET_LD_REQUIRES_MPI
  GASNET_SPAWNER_DEFAULT GASNET_SPAWNER_PMI GASNET_SPAWNER_MPI GASNET_SPAWNER_SSH"
pc_values() { # FRAGMENT: NAME=value lines, the fragment's values with no MANUAL_*
  printf '%s\n' 'include $(FRAGMENT)' \
    '$(foreach v,$(PC_VARS),$(if $(filter undefined,$(origin $(v))),,$(info $(v)=$(strip $($(v))))))' \
    'all: ;' >"$1.eval.mk"
  # (a make of its own: none of the calling make's flags or variables)
  env -u MAKEFLAGS -u MFLAGS -u GNUMAKEFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
    -u MANUAL_DEFINES -u MANUAL_CFLAGS -u MANUAL_CXXFLAGS -u MANUAL_LDFLAGS -u MANUAL_LIBS \
    "${GEN_MAKE:-make}" -s --no-print-directory -f "$1.eval.mk" FRAGMENT="$1" PC_VARS="$PC_VARS" \
    'GASNET_PREFIX=$${GASNET_PREFIX}' all >"$1.eval.out"
  grep '^GASNET_[A-Z_]*=' "$1.eval.out"
  rm -f "$1.eval.mk" "$1.eval.out"
}
mkdir -p "$out/pkgconfig"
for GEN_MODE in seq par parsync; do
  GEN_MODE_UC=$(echo "$GEN_MODE" | tr a-z A-Z)
  export GEN_MODE GEN_MODE_UC
  subst "$src/conduit.mak.in" "$dir/$stage-$GEN_MODE.mak"
  GEN_PC_VARIABLES=$(pc_values "$dir/$stage-$GEN_MODE.mak")
  export GEN_PC_VARIABLES
  subst "$src/gasnet.pc.in" "$out/pkgconfig/gasnet-$stage-$GEN_MODE.pc"
done
unset GEN_PC_VARIABLES
subst "$src/gasnetrun.in" "$out/gasnetrun_$stage"
chmod +x "$out/gasnetrun_$stage"
