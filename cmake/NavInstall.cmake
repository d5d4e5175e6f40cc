# `cmake --install BUILD --prefix P`: what a user of navier gets, and how other builds find it.
#
#   P/bin/navier                         the command (runs cases from any folder)
#   P/lib/libnavier.so, libnavier.a      the library, shared and static (libnavier_cuda.a beside it with CUDA,
#                                        libnavier-petsc.a with PETSc)
#   P/include/navier/*.h                 public headers: poisson.h, flow.h, petsc.h, nav_types.h
#   P/lib/cmake/navier/                  find_package(navier CONFIG): navier::navier (shared), navier::static,
#                                        navier::petsc (where built, and PETSc of the same minor version is
#                                        found by pkg-config), with their MPI/OpenMP/CUDA/PETSc requirements
#   P/lib/pkgconfig/navier.pc            pkg-config --cflags --libs navier (--static: the static library)
#   P/share/navier/{cases,data,tools,python,docs}  shipped cases and reference data (the cases name their
#                                        files relative to their folder), the plot tool of `navier plot`
#                                        (found beside bin/), the Python package (pip install P/share/navier/python)
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(NAV_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/navier)

# The include folders of the targets: the source tree while building, P/include once installed.
set(nav_build_includes "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include;${PROJECT_SOURCE_DIR}/src>")
set_property(TARGET navier_core PROPERTY INTERFACE_INCLUDE_DIRECTORIES
             "${nav_build_includes};$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
set_target_properties(navier_core PROPERTIES OUTPUT_NAME navier EXPORT_NAME static)
set(nav_targets navier_core)
if(NAV_HAVE_CUDA)
  set_target_properties(navier_cuda PROPERTIES EXPORT_NAME cuda)
  # nvcc's objects need the C++ run time, which a C program linking libnavier.a does not bring by itself
  target_link_libraries(navier_cuda INTERFACE "$<INSTALL_INTERFACE:stdc++>")
  list(APPEND nav_targets navier_cuda)
endif()
if(NAV_BUILD_SHARED)
  set_property(TARGET navier_shared PROPERTY INTERFACE_INCLUDE_DIRECTORIES
               "$<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>;$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  # the public headers include mpi.h; nav_real follows the precision of the build
  target_link_libraries(navier_shared INTERFACE MPI::MPI_C)
  if(NAV_SINGLE_PRECISION)
    target_compile_definitions(navier_shared INTERFACE NAV_SINGLE_PRECISION)
  endif()
  set_target_properties(navier_shared PROPERTIES EXPORT_NAME navier INSTALL_RPATH "$ORIGIN")
  list(APPEND nav_targets navier_shared)
endif()

install(TARGETS navier RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS ${nav_targets} EXPORT navierTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/navier DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h")
install(EXPORT navierTargets NAMESPACE navier:: DESTINATION ${NAV_CMAKE_DIR})
# navier::petsc in an export file of its own, which navierConfig.cmake loads only where PETSc is found:
# without PETSc a user still gets navier::navier and navier::static
if(NAV_HAVE_PETSC)
  set_target_properties(navier_petsc PROPERTIES EXPORT_NAME petsc)
  install(TARGETS navier_petsc EXPORT navierPetscTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  install(EXPORT navierPetscTargets NAMESPACE navier:: DESTINATION ${NAV_CMAKE_DIR})
endif()

# navierConfig.cmake finds the dependencies the targets name (imported targets of MPI, OpenMP, CUDA,
# the pkg-config target of HDF5) before it loads navierTargets.cmake, then PETSc's pkg-config target
# before navierPetscTargets.cmake.
set(NAV_CONFIG_HDF5_PC "")
if(NAV_HAVE_HDF5 AND TARGET PkgConfig::HDF5)
  set(NAV_CONFIG_HDF5_PC hdf5-openmpi)
endif()
set(NAV_PETSC_MINOR "") # the PETSc navier-petsc was compiled against (PETSc's ABI changes between minor versions)
if(NAV_HAVE_PETSC)
  string(REGEX MATCH "^[0-9]+\\.[0-9]+" NAV_PETSC_MINOR "${PETSC_VERSION}")
endif()
set(NAV_PRECISION double)
if(NAV_SINGLE_PRECISION)
  set(NAV_PRECISION single)
endif()
configure_package_config_file(cmake/navierConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/navierConfig.cmake
                              INSTALL_DESTINATION ${NAV_CMAKE_DIR} PATH_VARS CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/navierConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/navierConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/navierConfigVersion.cmake
        DESTINATION ${NAV_CMAKE_DIR})

# navier.pc: the shared library with MPI's flags; Libs.private lists what the static library needs.
set(nav_pc_cflags "")
foreach(dir ${MPI_C_INCLUDE_DIRS})
  string(APPEND nav_pc_cflags " -I${dir}")
endforeach()
if(NAV_SINGLE_PRECISION)
  string(APPEND nav_pc_cflags " -DNAV_SINGLE_PRECISION")
endif()
set(nav_pc_libs "")
foreach(lib ${MPI_C_LIBRARIES})
  string(APPEND nav_pc_libs " ${lib}")
endforeach()
set(nav_pc_private " ${INIH_LIBRARY} -lm")
if(NAV_HAVE_FFTW)
  string(APPEND nav_pc_private " ${FFTW_OMP_LIBRARY} ${FFTW_LIBRARY}")
endif()
foreach(lib ${LAPACK_LIBRARIES})
  string(APPEND nav_pc_private " ${lib}")
endforeach()
if(NAV_HAVE_HDF5)
  foreach(lib ${HDF5_LINK_LIBRARIES} ${HDF5_C_LIBRARIES})
    string(APPEND nav_pc_private " ${lib}")
  endforeach()
endif()
if(NAV_ENABLE_OPENMP)
  string(APPEND nav_pc_private " ${OpenMP_C_FLAGS}")
endif()
if(NAV_HAVE_CUDA)
  string(APPEND nav_pc_private " -lnavier_cuda -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -lcufft -lcublas -ldl -lrt -lstdc++")
endif()
# relocatable: the prefix is found from the .pc file's own folder (cmake --install --prefix P)
file(RELATIVE_PATH nav_pc_up /nav/${CMAKE_INSTALL_LIBDIR}/pkgconfig /nav)
set(nav_pc_prefix "\${pcfiledir}/${nav_pc_up}")
configure_file(cmake/navier.pc.in ${CMAKE_CURRENT_BINARY_DIR}/navier.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/navier.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

set(NAV_SHARE ${CMAKE_INSTALL_DATADIR}/navier)
install(DIRECTORY cases data DESTINATION ${NAV_SHARE})
install(PROGRAMS tools/navier-plot tools/navier-grid tools/navier-icosphere DESTINATION ${NAV_SHARE}/tools)
install(DIRECTORY python/ DESTINATION ${NAV_SHARE}/python PATTERN "__pycache__" EXCLUDE PATTERN "*.egg-info" EXCLUDE
        PATTERN "build" EXCLUDE)
install(DIRECTORY docs/ DESTINATION ${NAV_SHARE}/docs FILES_MATCHING PATTERN "*.md")
install(FILES README.md DESTINATION ${NAV_SHARE})
