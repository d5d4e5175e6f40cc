#!/bin/bash
# Run the invariance set (every case in cases/ and `navier run` without a case, CPU backend, 1 and 4
# ranks, final fields dumped; the table of runs and overrides is CASES in invariance.py) with one binary.
#   tests/invariance/run_cases.sh NAVIER_BINARY OUTDIR [--only NAME,...] [--ranks 1,4] [--cases DIR]
# Writes OUTDIR/<name>_np<ranks>/{final_fields.bin,summary.json,run.log}; exit 1 if a run failed.
# OMP_NUM_THREADS=1 in every run (INVARIANCE_THREADS=N to change it, equal on both sides of a comparison).
set -euo pipefail
[ $# -ge 2 ] || { sed -n '2,7p' "$0"; exit 2; }
exec /usr/bin/python3 "$(dirname "$0")/invariance.py" run "$@"
