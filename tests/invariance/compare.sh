#!/bin/bash
# Invariance of a change: run the invariance set (run_cases.sh) with both binaries and compare
# final_fields.bin bit for bit (cmp) and summary.json except its timings (wall_s, loop_s, profile).
#   tests/invariance/compare.sh OLD_BINARY NEW_BINARY [WORKDIR]
# WORKDIR (default: a new folder under /tmp) gets old/ and new/; one line per run (name, ranks,
# SAME or DIFF and why), then a count; exit 1 on any DIFF or failed run.
# Reference OLD_BINARY of issue 39: /work/baseline-35594cc/build/navier (commit 35594cc, CPU build).
set -uo pipefail
[ $# -ge 2 ] || { sed -n '2,8p' "$0"; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
old="$1" new="$2" work="${3:-$(mktemp -d /tmp/invariance.XXXXXX)}"
for b in "$old" "$new"; do [ -x "$b" ] || { echo "compare.sh: $b is not an executable" >&2; exit 2; }; done
start=$SECONDS
echo "== old: $old"; /usr/bin/python3 "$here/invariance.py" run "$old" "$work/old"; rc_old=$?
echo "== new: $new"; /usr/bin/python3 "$here/invariance.py" run "$new" "$work/new"; rc_new=$?
echo "== compare ($work)"
/usr/bin/python3 "$here/invariance.py" compare "$work/old" "$work/new"; rc=$?
echo "compare.sh: $((SECONDS - start)) s in all"
[ $rc_old -eq 0 ] && [ $rc_new -eq 0 ] && [ $rc -eq 0 ]
