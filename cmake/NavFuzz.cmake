# NAV_FUZZ=ON: libFuzzer targets of the input readers (tests/fuzz), for a clang build:
#   CC=clang cmake -S . -B build-fuzz -DNAV_FUZZ=ON -DNAV_ENABLE_CUDA=OFF -DNAV_ENABLE_HDF5=OFF -DNAV_ENABLE_OPENMP=OFF
# bench/fuzz.sh does this and runs them. The whole core is instrumented for coverage, AddressSanitizer
# and UndefinedBehaviorSanitizer (a UB report aborts, so the fuzzer keeps it as a crash).
if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "navier: NAV_FUZZ=ON needs clang (libFuzzer): configure with CC=clang (Debian: clang)")
endif()
set(NAV_FUZZ_FLAGS -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -g)
target_compile_options(navier_core PUBLIC ${NAV_FUZZ_FLAGS})
target_link_options(navier_core PUBLIC -fsanitize=address,undefined)
foreach(target fuzz_config fuzz_checkpoint fuzz_geom_points fuzz_geom_stl)
  add_executable(${target} ${CMAKE_CURRENT_SOURCE_DIR}/tests/fuzz/${target}.c)
  target_link_libraries(${target} PRIVATE navier_core)
  target_link_options(${target} PRIVATE -fsanitize=fuzzer)
endforeach()
