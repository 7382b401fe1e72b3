# Where programs find the UR SDK's loader at run time: ZEAL_UR_LIBRARY_PATH, empty when the SDK's own
# lib/ serves. An SDK copied without its symbolic links (lib/libur_loader.so.0 a small text file naming
# libur_loader.so.0.12.0, as in a copy that flattened them) cannot be loaded by soname; then the build tree
# gets the link the SDK lost, in ur-loader/, and tests put that folder first in LD_LIBRARY_PATH (which the
# dynamic loader searches before a RUNPATH). Nothing of the SDK is copied.
get_target_property(zeal_ur_loader_file unified-runtime::ur_loader IMPORTED_LOCATION_RELEASE)
get_target_property(zeal_ur_loader_soname unified-runtime::ur_loader IMPORTED_SONAME_RELEASE)
set(ZEAL_UR_LIBRARY_PATH "")
if(zeal_ur_loader_file AND zeal_ur_loader_soname)
  get_filename_component(zeal_ur_lib_dir "${zeal_ur_loader_file}" DIRECTORY)
  set(zeal_ur_soname_file "${zeal_ur_lib_dir}/${zeal_ur_loader_soname}")
  file(SIZE "${zeal_ur_loader_file}" zeal_ur_loader_size)
  set(zeal_ur_soname_size 0)
  if(EXISTS "${zeal_ur_soname_file}")
    file(SIZE "${zeal_ur_soname_file}" zeal_ur_soname_size)
  endif()
  if(NOT zeal_ur_soname_size EQUAL zeal_ur_loader_size)
    set(ZEAL_UR_LIBRARY_PATH "${CMAKE_BINARY_DIR}/ur-loader")
    file(MAKE_DIRECTORY "${ZEAL_UR_LIBRARY_PATH}")
    file(CREATE_LINK "${zeal_ur_loader_file}" "${ZEAL_UR_LIBRARY_PATH}/${zeal_ur_loader_soname}" SYMBOLIC)
    message(STATUS "UR SDK: ${zeal_ur_soname_file} is not the loader (its link was lost); "
                   "tests load ${zeal_ur_loader_file} through ${ZEAL_UR_LIBRARY_PATH}")
  endif()
endif()
