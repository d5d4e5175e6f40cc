#!/usr/bin/env bash
# navier: install what is missing (Debian 12 packages), build, then run the default case or the tests.
#
#   ./bootstrap.sh run [navier run arguments]   build, then run a case (default: the 2D cavity, Re = 100)
#   ./bootstrap.sh test [ctest arguments]       build, then run the test suite without the gpu and long labels;
#                                               then the single-precision build (BUILD_DIR-single) and its tests
#   ./bootstrap.sh build                        only install and build
#
# Environment: BUILD_DIR (default build), BUILD_TYPE (default Release), JOBS (default: all cores).
set -euo pipefail
cd "$(dirname "$0")"

BUILD_DIR=${BUILD_DIR:-build}
BUILD_TYPE=${BUILD_TYPE:-Release}
JOBS=${JOBS:-$(nproc)}

# Debian packages the build and the tests need; only the missing ones are installed.
# libhdf5-openmpi-dev: HDF5 snapshots (NAV_ENABLE_HDF5); libfftw3-dev: the FFT pressure solver on the CPU; liblapack-dev: its
# dense transforms of grids stretched in two or three directions; python3-numpy, -matplotlib, -h5py: `navier plot`
# and the output tests. For the tests only (TEST_PACKAGES): python3-paraview (with paraview: pvbatch), the
# test that ParaView opens fields.xmf; clang, libFuzzer for the fuzz test of the input readers (bench/fuzz.sh);
# petsc-dev (with hypre): navier-petsc, its example, mpi_petsc_poisson and navier::petsc in unit_install (about 15 s of apt-get here,
# 57 packages on top of the ones above).
PACKAGES="cmake make gcc pkg-config libopenmpi-dev openmpi-bin libinih-dev python3 git libhdf5-openmpi-dev libfftw3-dev
          liblapack-dev python3-numpy python3-matplotlib python3-h5py"
TEST_PACKAGES="python3-paraview clang petsc-dev"

need_packages() { # need_packages PACKAGE...
  local missing="" pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
  done
  if [ -n "$missing" ]; then
    echo "bootstrap: installing$missing"
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
  fi
}

build() {
  need_packages $PACKAGES
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" >/dev/null
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

# ctest without the gpu and long labels, then one summary line that counts the skipped tests apart
# from the passed ones, and the reason of each skip (the test's "skipped: ..." line).
run_tests() {
  local rc=0
  ctest -LE "gpu|long" --output-on-failure "$@" | tee ctest.log || rc=$?
  local passed skipped failed
  passed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .* +Passed ' ctest.log || true)
  skipped=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*\*\*\*Skipped' ctest.log || true)
  failed=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#[0-9]+: .*(\*\*\*Failed|\*\*\*Timeout|\*\*\*Exception|Not Run)' ctest.log || true)
  echo "bootstrap: tests: $passed passed, $skipped skipped, $failed failed"
  if [ "$skipped" -gt 0 ]; then
    # LastTest.log holds every test's output: the last "skipped:" line of each skipped test
    awk '/^[0-9]+\/[0-9]+ Testing: /{name=$3} /^skipped:/{why[name]=$0} END{for (n in why) print "  " n ": " why[n]}' \
      Testing/Temporary/LastTest.log 2>/dev/null
  fi
  [ "$rc" -eq 0 ] && [ "$failed" -eq 0 ]
}

cmd=${1:-run}
shift || true
case "$cmd" in
  build) build ;;
  run) build; export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}; exec "$BUILD_DIR/navier" run "$@" ;;
  test)
    need_packages $TEST_PACKAGES
    build
    rc=0
    (cd "$BUILD_DIR" && run_tests "$@") || rc=1
    # the single-precision build and its tests (label single: tests/CMakeLists.txt says which and why)
    cmake -S . -B "$BUILD_DIR-single" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DNAV_SINGLE_PRECISION=ON -DNAV_ENABLE_CUDA=OFF >/dev/null
    cmake --build "$BUILD_DIR-single" -j "$JOBS"
    (cd "$BUILD_DIR-single" && ctest -L single -LE "gpu|long" --output-on-failure "$@") || rc=1
    exit $rc ;;
  *) echo "usage: ./bootstrap.sh run|test|build [arguments]" >&2; exit 2 ;;
esac
