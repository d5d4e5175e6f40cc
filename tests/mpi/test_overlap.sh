#!/usr/bin/env bash
# [run] halo_overlap: the split smoothing sweep (block shell, then core beside the halo exchange)
# gives the same fields as the plain sweep, bit for bit, on each decomposition given, and it ran:
# with on, rank 0 reports more than 0 colour sweeps overlapped with their halo exchange.
# usage: test_overlap.sh MPIEXEC NAVIER SCRATCH CASE SPLIT... -- [--set k=v ...]
set -u
MPIEXEC=$1 NAVIER=$2 SCRATCH=$3 CASE=$4
shift 4
splits=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do splits+=("$1"); shift; done
[ $# -gt 0 ] && shift
mkdir -p "$SCRATCH"
for split in "${splits[@]}"; do
  n=$((${split//,/*}))
  for mode in off on; do
    out=$SCRATCH/${split//,/x}_$mode
    rm -rf "$out"
    "$MPIEXEC" -n "$n" --oversubscribe "$NAVIER" run "$CASE" --output "$out" --set run.decomposition="$split" \
      --set run.halo_overlap=$mode --set output.dump_final=true "$@" >"$out.log" 2>&1 ||
      { echo "FAIL: $split overlap $mode exited $?"; tail -20 "$out.log"; exit 1; }
  done
  sweeps=$(sed -n 's/^halo overlap: \([0-9]*\) colour sweeps.*/\1/p' "$SCRATCH/${split//,/x}_on.log")
  [ "${sweeps:-0}" -gt 0 ] || { echo "FAIL: split $split: overlap on, but no sweep overlapped (log: '${sweeps}')"; exit 1; }
  cmp "$SCRATCH/${split//,/x}_off/final_fields.bin" "$SCRATCH/${split//,/x}_on/final_fields.bin" ||
    { echo "FAIL: split $split: overlap on and off differ"; exit 1; }
  echo "split $split: $sweeps colour sweeps of rank 0 overlapped; overlap on = off, bit for bit ($(stat -c %s "$SCRATCH/${split//,/x}_on/final_fields.bin") bytes)"
done
