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
# libhdf5-openmpi-dev: HDF5 snapshots (NAV_ENABLE_HDF5); python3-numpy, -matplotlib, -h5py: tools/navier-plot
# and the output tests.
PACKAGES="cmake make gcc pkg-config libopenmpi-dev openmpi-bin libinih-dev python3 git libhdf5-openmpi-dev libfftw3-dev
          python3-numpy python3-matplotlib python3-h5py"

need_packages() {
  local missing="" pkg
  for pkg in $PACKAGES; do
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
  need_packages
  cmake -S . -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" >/dev/null
  cmake --build "$BUILD_DIR" -j "$JOBS"
}

cmd=${1:-run}
shift || true
case "$cmd" in
  build) build ;;
  run) build; export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}; exec "$BUILD_DIR/navier" run "$@" ;;
  test)
    build
    (cd "$BUILD_DIR" && ctest -LE "gpu|long" --output-on-failure "$@")
    # the single-precision build and its tests (label single, tests/CMakeLists.txt says which and why)
    cmake -S . -B "$BUILD_DIR-single" -DCMAKE_BUILD_TYPE="$BUILD_TYPE" -DNAV_SINGLE_PRECISION=ON -DNAV_ENABLE_CUDA=OFF >/dev/null
    cmake --build "$BUILD_DIR-single" -j "$JOBS"
    cd "$BUILD_DIR-single"
    exec ctest -L single -LE "gpu|long" --output-on-failure "$@" ;;
  *) echo "usage: ./bootstrap.sh run|test|build [arguments]" >&2; exit 2 ;;
esac
