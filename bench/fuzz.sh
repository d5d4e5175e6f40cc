#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer, Debian clang) of the readers of hostile input:
#   fuzz_config      the case-file parser with its --set overrides (tests/fuzz/fuzz_config.c)
#   fuzz_checkpoint  the checkpoint reader (tests/fuzz/fuzz_checkpoint.c)
#   fuzz_geom_points the polyline reader of points bodies (tests/fuzz/fuzz_geom_points.c)
#   fuzz_geom_stl    the STL reader of stl bodies, ASCII and binary (tests/fuzz/fuzz_geom_stl.c)
# Builds a clang build with AddressSanitizer and UBSan (NAV_FUZZ=ON) in BUILD_DIR, first replays
# every regression input of tests/fuzz/regressions/<target>/ (each one a finding that was fixed),
# then fuzzes each target for SECONDS from the seeds (cases/*.ini; a checkpoint of a small case; the
# data/ body files), the two geometry readers (small, two file formats) for a third of SECONDS each,
# and prints one line per target: executions, corpus size, findings. Exit status 1 when a
# regression input or a new input crashes, hangs (> 10 s) or trips a sanitizer; new findings are
# kept in BUILD_DIR/findings/<target>/ (add each, once fixed, to tests/fuzz/regressions/<target>/).
#
#   bench/fuzz.sh [SECONDS] [BUILD_DIR]     default: 600 s per target, build-fuzz
#
# CI runs it with 30 s per target (ctest fuzz_short). Environment: NICE (default 10), JOBS (default 2).
set -uo pipefail
cd "$(dirname "$0")/.."
src=$PWD
seconds=${1:-600}
build=${2:-build-fuzz}
nice_level=${NICE:-10}
jobs=${JOBS:-2}

cc=$(command -v clang || true)
if [ -z "$cc" ]; then
  echo "fuzz: clang not found (Debian: clang; ./bootstrap.sh installs it)" >&2
  echo "skipped: needs clang (libFuzzer)"
  [ -n "${NAV_CI:-}" ] && { echo "NAV_CI is set: the fuzz test must run in CI" >&2; exit 1; }
  exit 77
fi
mkdir -p "$build"
if ! { CC=$cc cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNAV_FUZZ=ON -DNAV_ENABLE_CUDA=OFF \
         -DNAV_ENABLE_HDF5=OFF -DNAV_ENABLE_OPENMP=OFF >"$build/configure.log" 2>&1 &&
       nice -n "$nice_level" cmake --build "$build" -j "$jobs" --target fuzz_config fuzz_checkpoint \
         fuzz_geom_points fuzz_geom_stl >"$build/build.log" 2>&1; }; then
  echo "fuzz: the clang build failed; see $build/configure.log and $build/build.log" >&2
  tail -20 "$build/build.log" >&2 2>/dev/null
  exit 1
fi

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
# One rank, MPI-IO through Open MPI's OMPIO: the same reader code as navier's (which picks ROMIO for
# collective writes on several ranks), and about 7 times the executions per second of ROMIO here.
export OMPI_MCA_io=${OMPI_MCA_io:-ompio} OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fails=0

# seeds: the ready cases (config), a checkpoint of the fuzz target's own case (checkpoint), the body
# files of data/ with a square and a tetrahedron (geom_points, geom_stl)
seeds=$build/seeds
rm -rf "$seeds"
mkdir -p "$seeds/config" "$seeds/checkpoint" "$seeds/geom_points" "$seeds/geom_stl"
cp cases/*.ini "$seeds/config/"
cp data/snake_cross_section.csv "$seeds/geom_points/"
printf '# a square, explicitly closed\nx y\n0 0\n1,0\n1\t1\n0, 1\n0 0\n' >"$seeds/geom_points/square"
cp data/sphere_d1.stl "$seeds/geom_stl/"
{
  echo "solid tetrahedron"
  for f in "0 0 0|0 1 0|1 0 0" "0 0 0|1 0 0|0 0 1" "0 0 0|0 0 1|0 1 0" "1 0 0|0 1 0|0 0 1"; do
    echo " facet normal 0 0 0"
    echo "  outer loop"
    IFS='|' read -r a b c <<<"$f"
    printf '   vertex %s\n   vertex %s\n   vertex %s\n' "$a" "$b" "$c"
    echo "  endloop"
    echo " endfacet"
  done
  echo "endsolid tetrahedron"
} >"$seeds/geom_stl/tetrahedron.stl"
printf '[grid]\nnx = 16\0grid.ny=16\0time.max_steps=3\0output.format=vtk' >"$seeds/config/sets"
NAV_FUZZ_SEED_DIR=$seeds/checkpoint "$build/fuzz_checkpoint" -runs=0 >"$build/seed.log" 2>&1
# a dictionary of the case-file words: sections, keys and choices of docs/case-file.md
{
  grep -o '^## \[[a-z]*\]' docs/case-file.md | sed 's/^## //'
  grep -o '^| `[a-z_0-9]*`' docs/case-file.md | sed 's/^| //'
  grep -o '`[a-z][a-z0-9_.-]*`' docs/case-file.md | sort -u
} | tr -d '`' | sort -u | sed 's/.*/"&"/' >"$build/config.dict"
printf '"navier checkpoint\\x0a"\n"\\x0aheader_checksum "\n"format "\n"precision_bytes "\n"byte_order "\n"arrays "\n"points "\n"array "\n"step "\n"time "\n"dt_old "\n"key grid.nx "\n' \
  >"$build/checkpoint.dict"
printf '"#"\n","\n"x,y"\n"nan"\n"inf"\n"1e308"\n"-0"\n"\\x0a"\n"\\x09"\n' >"$build/geom_points.dict"
printf '"solid"\n"facet"\n"normal"\n"outer"\n"loop"\n"vertex"\n"endloop"\n"endfacet"\n"endsolid"\n"nan"\n"1e308"\n' \
  >"$build/geom_stl.dict"

for target in config checkpoint geom_points geom_stl; do
  bin=$build/fuzz_$target
  secs=$seconds
  case $target in geom_*) secs=$(((seconds + 2) / 3)) ;; esac
  reg=tests/fuzz/regressions/$target
  # 1. every fixed finding stays fixed
  if compgen -G "$reg/*" >/dev/null; then
    if "$bin" "$reg"/* >"$build/regressions_$target.log" 2>&1; then
      echo "fuzz_$target: $(ls "$reg" | wc -l) regression input(s) pass"
    else
      echo "fuzz_$target: FAIL: a regression input of $reg fails again:" >&2
      tail -30 "$build/regressions_$target.log" >&2
      fails=$((fails + 1))
    fi
  fi
  # 2. fuzz
  corpus=$build/corpus/$target findings=$build/findings/$target
  mkdir -p "$corpus" "$findings"
  nice -n "$nice_level" "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -dict="$build/$target.dict" -artifact_prefix="$findings/" "$corpus" "$seeds/$target" >"$build/fuzz_$target.log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/fuzz_$target.log" | grep -o '[0-9]*$')
  n_find=$(ls "$findings" | wc -l)
  echo "fuzz_$target: $secs s, ${execs:-?} executions, corpus $(ls "$corpus" | wc -l) inputs, $n_find finding(s)" \
       "(exit $rc; log $build/fuzz_$target.log)"
  if [ "$rc" -ne 0 ] || [ "$n_find" -gt 0 ]; then
    grep -A25 -m1 'ERROR\|SUMMARY\|fuzz_'"$target"':' "$build/fuzz_$target.log" | head -40 >&2
    fails=$((fails + 1))
  fi
done
exit $((fails > 0))
