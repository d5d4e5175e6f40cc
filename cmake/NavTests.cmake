# nav_add_test(<name> COMMAND <cmd...> [NRANKS n] [THREADS t] [LABELS l...] [TIMEOUT s])
# Wraps add_test: runs under mpiexec when NRANKS is given (with --oversubscribe, so CI machines
# with 2 cores can run 4 ranks) and sets OMP_NUM_THREADS (default 2).
function(nav_add_test name)
  cmake_parse_arguments(T "" "NRANKS;THREADS;TIMEOUT" "COMMAND;LABELS" ${ARGN})
  if(NOT T_THREADS)
    set(T_THREADS 2)
  endif()
  set(cmd ${T_COMMAND})
  if(T_NRANKS)
    set(cmd ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${T_NRANKS} --oversubscribe ${MPIEXEC_PREFLAGS} ${T_COMMAND})
  endif()
  add_test(NAME ${name} COMMAND ${cmd})
  # OpenMPI refuses to start as root (CI containers) unless told it may. OMP_WAIT_POLICY=passive:
  # OpenMP threads that spin-wait on a machine shared with other jobs slow a run down many times
  # (the Ghia test: over 600 s instead of 36 s at a load of 15 on 2 cores); tests check results, not speed
  set(env "OMP_NUM_THREADS=${T_THREADS};OMP_WAIT_POLICY=passive;OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
  # The mpi tests without the gpu or backend label check the CPU ranks' decompositions: on a machine with GPUs,
  # run.backend = auto would take CUDA with fewer computing ranks than blocks (navier refuses such a
  # decomposition), so they see no GPU there, as in CI
  if("mpi" IN_LIST T_LABELS AND NOT "gpu" IN_LIST T_LABELS AND NOT "backend" IN_LIST T_LABELS)
    list(APPEND env "CUDA_VISIBLE_DEVICES=")
  endif()
  set_tests_properties(${name} PROPERTIES LABELS "${T_LABELS}" ENVIRONMENT "${env}")
  if(T_TIMEOUT)
    set_tests_properties(${name} PROPERTIES TIMEOUT ${T_TIMEOUT})
  endif()
endfunction()
