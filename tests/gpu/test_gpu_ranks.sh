#!/usr/bin/env bash
# GPU runs over several ranks (label gpu; exit 77 = skipped where the GPUs are missing).
#   transport T [splits S]  2 ranks on 2 GPUs (splits S, default 2,1,1:1,2,1) against 1 rank on 1 GPU, with
#                 [run] halo_transport = T: fields to <= TOL relative, pressure iterations within one
#                 (tests/mpi/mpi_compare.py). Skipped with fewer than 2 GPUs, or when the transport
#                 is not available here (cuda-aware needs a CUDA-aware MPI library).
#   share         4 ranks on 1 GPU (CUDA_VISIBLE_DEVICES=0): one rank computes, the others wait;
#                 the fields equal those of 1 rank bit for bit and every rank exits 0.
# usage: test_gpu_ranks.sh MPIEXEC NAVIER PYTHON MPI_COMPARE SCRATCH TOL CASE MODE [T [splits S]] [--set k=v ...]
set -u
MPIEXEC=$1 NAVIER=$2 PY=$3 MPICMP=$4 SCRATCH=$5 TOL=$6 CASE=$7 MODE=$8
shift 8
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
mkdir -p "$SCRATCH"
if [ "$MODE" = transport ]; then
  T=$1 splits=2,1,1:1,2,1
  shift
  if [ "${1:-}" = splits ]; then splits=$2; shift 2; fi
  if [ "${gpus:-0}" -lt 2 ]; then echo "SKIP: 2 GPUs needed, $gpus visible"; exit 77; fi
  # is the transport available? (navier --version says, from one process: no race with mpirun
  # aborting the job before rank 0's message is forwarded)
  avail=$("$NAVIER" --version | grep '^halo transports:')
  echo "$avail"
  if ! echo "$avail" | grep -q "$T: yes"; then
    echo "SKIP: halo transport $T is not available here"
    exit 77
  fi
  exec "$PY" "$MPICMP" "$MPIEXEC" "$NAVIER" "$SCRATCH" "$TOL" run "$CASE" "$splits" --set run.backend=cuda \
    --set run.halo_transport="$T" "$@"
fi
# share
if [ "${gpus:-0}" -lt 1 ]; then echo "SKIP: no GPU visible"; exit 77; fi
export CUDA_VISIBLE_DEVICES=0
common=(run "$CASE" --set run.backend=cuda --set output.dump_final=true "$@")
"$MPIEXEC" -n 1 "$NAVIER" "${common[@]}" --output "$SCRATCH/one" >"$SCRATCH/one.log" 2>&1 || { cat "$SCRATCH/one.log"; exit 1; }
"$MPIEXEC" -n 4 --oversubscribe "$NAVIER" "${common[@]}" --output "$SCRATCH/four" >"$SCRATCH/four.log" 2>&1
rc=$?
grep "one rank per device" "$SCRATCH/four.log" || { echo "FAIL: no one-rank-per-device message"; cat "$SCRATCH/four.log"; exit 1; }
[ $rc -eq 0 ] || { echo "FAIL: 4 ranks exited $rc"; tail -20 "$SCRATCH/four.log"; exit 1; }
cmp "$SCRATCH/one/final_fields.bin" "$SCRATCH/four/final_fields.bin" || { echo "FAIL: fields differ"; exit 1; }
echo "4 ranks on 1 GPU: one rank computed, fields equal to 1 rank bit for bit, exit 0"
