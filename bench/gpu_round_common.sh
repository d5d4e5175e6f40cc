# Sourced by the device rounds (bench/gpu_x2_round.sh, bench/gpu_one_round.sh) with ROUND set to their name: the
# carried environment (bench/gpu_env.sh), BIN (the carried build), OUT (default /tmp/ROUND) and W (their work
# folder), SUM (the table) and note (a line to the screen and the table), and the table's first line (the GPUs,
# the cores, the binaries' commit).
set -u
source bench/gpu_env.sh
BIN=${BIN:-.carry/bg}
OUT=${OUT:-/tmp/$ROUND}
W=/tmp/${ROUND}_runs
mkdir -p "$OUT" "$W"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-8}
SUM=$OUT/summary.txt
note() { echo "$*" | tee -a "$SUM"; }
note "$(nvidia-smi --query-gpu=name --format=csv,noheader | sort | uniq -c | xargs) | $(nproc --all) cores | binaries of $(cat $BIN/.commit 2>/dev/null || echo "(none carried)")"
