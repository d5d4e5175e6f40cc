#!/usr/bin/env bash
# Prepare a CUDA build for the device machine (no HDF5, inih or FFTW/LAPACK there): copy the build tree's
# binaries, test files and the host libraries they load into .carry/ (git-ignored), small enough for the
# device tool's 64 MiB. On the device, `source bench/gpu_env.sh` makes `ctest` of that tree run there.
#
# usage (repository root, after `cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release -DNAV_ENABLE_HDF5=OFF
#        -DNAV_ENABLE_PETSC=OFF -DCMAKE_CUDA_ARCHITECTURES=90 && cmake --build build-gpu -j`):
#   bash bench/gpu_carry.sh [BUILD_DIR]      then carry .carry in the device call
set -euo pipefail
B=${1:-build-gpu}
D=.carry/bg
rm -rf "$D" .carry/lib
mkdir -p "$D" .carry/lib
# every file of the tree but the objects, static libraries and CMake's own work files
(cd "$B" && find . -type f ! -name '*.o' ! -name '*.a' ! -path '*/CMakeFiles/*' ! -name 'Makefile' \
  ! -name 'CMakeCache.txt' ! -path './tests/scratch/*' ! -path './fuzz/*' ! -path './Testing/*' -print0 | tar --null -cf - -T -) | (cd "$D" && tar -xf -)
(cd "$B" && find . -type l -print0 | tar --null -cf - -T -) | (cd "$D" && tar -xf -)
echo "$(readlink -f "$B")" >"$D/.source_dir"
git rev-parse --short HEAD >"$D/.commit"
# the host libraries of Debian 12 that the device's Ubuntu lacks
for l in libfftw3.so.3 libfftw3_omp.so.3 libinih.so.1 liblapack.so.3 libblas.so.3 libgfortran.so.5 libquadmath.so.0; do
  p=$(ldconfig -p | awk -v l="$l" '$1 == l && !n++ {print $NF}')
  if [ -n "$p" ]; then cp -L "$p" .carry/lib/; fi
done
du -sh .carry
