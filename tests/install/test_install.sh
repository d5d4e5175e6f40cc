#!/bin/sh
# cmake --install to a prefix, then a project outside the source tree builds against it with
# find_package(navier) (shared and static library) and with pkg-config, and runs: the Poisson example
# (examples/poisson_solve.c, its own check) and the cavity through the flow C API for 100 steps
# (examples/flow_cavity.c), and where navier-petsc is installed PETSc's CG with navier's preconditioners
# through navier::petsc (examples/petsc_poisson.c -check -check_order, 16^3); the installed navier runs a shipped case from another folder and plots quietly.
# usage: test_install.sh BUILD_DIR SOURCE_DIR SCRATCH
set -eu
stamp() { echo "[$(date +%s)] $*"; }
build=$1 src=$2 scratch=$3
rm -rf "$scratch" && mkdir -p "$scratch/project" "$scratch/elsewhere"
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" > "$scratch/install.log"
for f in bin/navier include/navier/flow.h include/navier/poisson.h lib/cmake/navier/navierConfig.cmake \
         share/navier/cases/cavity2d_re100.ini share/navier/data/ghia1982.csv share/navier/tools/navier-plot; do
  test -e "$prefix/$f" || { echo "FAIL: $prefix/$f not installed"; exit 1; }
done
ls "$prefix"/lib*/libnavier.so "$prefix"/lib*/libnavier.a "$prefix"/lib*/pkgconfig/navier.pc
cp "$src/tests/install/project/CMakeLists.txt" "$src/examples/poisson_solve.c" "$src/examples/flow_cavity.c" \
   "$src/examples/petsc_poisson.c" "$scratch/project/"
mkdir "$scratch/app" && cp "$src/app/nav_bench_rhs.h" "$scratch/app/" # petsc_poisson.c's ../app/nav_bench_rhs.h
cd "$scratch/project"
stamp configure
cmake -S . -B b -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release > cmake.log
cmake --build b > build.log
stamp run
./b/poisson_solve
./b/flow_cavity out_cmake | tee flow_cmake.txt
sed -i /^summary:/d flow_cmake.txt
./b/flow_cavity_static out_static > flow_static.txt
sed -i /^summary:/d flow_static.txt
cmp flow_cmake.txt flow_static.txt || { echo "FAIL: static and shared library runs differ"; exit 1; }
# navier::petsc: where navier-petsc is installed, the project must have built petsc_poisson against it
if ls "$prefix"/lib*/libnavier-petsc.a > /dev/null 2>&1; then
  test -x b/petsc_poisson || { echo "FAIL: navier-petsc is installed but find_package gave no navier::petsc"; cat cmake.log; exit 1; }
  ./b/petsc_poisson -n 16 -check -check_order
else
  grep -q "navier::petsc: not provided" cmake.log || { echo "FAIL: the project did not report navier::petsc"; exit 1; }
  echo "navier::petsc: navier was built without PETSc: petsc_poisson skipped"
fi
stamp pkg-config
# pkg-config: the shared library (run-time path from the .pc's libdir)
export PKG_CONFIG_PATH="$(dirname "$(ls "$prefix"/lib*/pkgconfig/navier.pc)")"
libdir=$(pkg-config --variable=libdir navier)
cc -O2 flow_cavity.c $(pkg-config --cflags --libs navier) -Wl,-rpath,"$libdir" -o flow_cavity_pc
cc -O2 poisson_solve.c $(pkg-config --cflags --libs navier) -Wl,-rpath,"$libdir" -lm -o poisson_solve_pc
./poisson_solve_pc
./flow_cavity_pc out_pc > flow_pc.txt
sed -i /^summary:/d flow_pc.txt
cmp flow_cmake.txt flow_pc.txt || { echo "FAIL: pkg-config and find_package builds differ"; exit 1; }
grep -q '"status": "completed"' out_pc/summary.json || { echo "FAIL: no completed summary.json"; exit 1; }
stamp command
# the installed command, from another folder: a shipped case with its grid files (relative to the case)
cd "$scratch/elsewhere"
"$prefix/bin/navier" run "$prefix/share/navier/cases/cylinder2d_re40.ini" --set time.max_steps=2 > run.log
"$prefix/bin/navier" plot output/cylinder2d_re40 > plot_all.log
test -f output/cylinder2d_re40/plots/monitor.png || { echo "FAIL: the installed navier plot made no figure"; cat plot_all.log; exit 1; }
if grep -q skipped plot_all.log; then echo "FAIL: navier plot reports skipped figures without -v"; cat plot_all.log; exit 1; fi
"$prefix/bin/navier" plot output/cylinder2d_re40 -v > plot_v.log
grep -q skipped plot_v.log || { echo "FAIL: -v names no skipped figure"; cat plot_v.log; exit 1; }
echo "install test passed"
