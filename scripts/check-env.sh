#!/usr/bin/env bash
# check-env.sh -- the README's table of environment variables, the code that
# reads them and every text that mentions them (--help, docs) agree.
#
#   bash scripts/check-env.sh
#
# 1. every variable the library reads (getenv / stp_env_u64 in the library's
#    directories) is a row of the README table;
# 2. every row is read by the library (UCX's own variables excepted);
# 3. every STAGEPORT_* name mentioned anywhere in the tree (help texts,
#    scripts, documents) is a row, or a macro of stageport.h or of the
#    conduit headers (client/).
# Prints each disagreement and ends with "env: N disagreements".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
libdirs="boot credits ucx ptl common net-ucx net-portals core-mpi core-ucx core-portals ext-ref ext-ucx ext-portals api legacy"
bad=0

# the table: rows of README.md's "Environment knobs" table, first column
table=$(awk '/^Environment knobs/ { on = 1 } on && /^\| `/ { print } on && /^$/ && seen { exit } on && /^\|/ { seen = 1 }' README.md |
  cut -d'|' -f2 | grep -oE '`[A-Z][A-Z0-9_]*`' | tr -d '`' | sort -u)
if [ -z "$table" ]; then
  echo "env: no \"Environment knobs\" table found in README.md"
  echo "env: 1 disagreements"
  exit 1
fi

# what the library reads (its own sources; ptl's tests and bench are clients)
read_by_lib=$(find $libdirs -name '*.c' -not -path 'ptl/tests/*' -not -path 'ptl/bench/*' -print0 |
  xargs -0 grep -ohE '(getenv|stp_env_u64|native_or_reference)\("[A-Z][A-Z0-9_]*"' | grep -oE '"[A-Z0-9_]+"' | tr -d '"' | sort -u)

for v in $read_by_lib; do
  grep -qx "$v" <<<"$table" || { echo "env: the library reads $v, which the README table does not list"; bad=$((bad + 1)); }
done
for v in $table; do
  case $v in UCX_*) continue ;; esac
  grep -qx "$v" <<<"$read_by_lib" || { echo "env: the README table lists $v, which the library never reads"; bad=$((bad + 1)); }
done

# every mention of a STAGEPORT_ name
macros="STAGEPORT_VERSION STAGEPORT_H STAGEPORT_CLIENT_STAGE STAGEPORT_CONDUIT_H STAGEPORT_GASNET_CORE_H"
mentions=$(git ls-files 2>/dev/null | grep -E '\.(c|h|in|py|sh|md|am|ac|txt)$|^\.ci/' |
  xargs grep -ohE '\bSTAGEPORT_[A-Z0-9_]*[A-Z0-9]\b' 2>/dev/null | sort -u)
for v in $mentions; do
  case " $macros " in *" $v "*) continue ;; esac
  grep -qx "$v" <<<"$table" || {
    echo "env: $v is mentioned in $(git grep -l -w "$v" | head -3 | tr '\n' ' ')but is not in the README table"
    bad=$((bad + 1))
  }
done

echo "env: $(wc -w <<<"$table") variables in the table, $(wc -w <<<"$read_by_lib") read by the library"
echo "env: $bad disagreements"
[ "$bad" -eq 0 ]
