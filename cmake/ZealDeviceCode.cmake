# Build-time device code: OpenCL C -> SPIR-V (clang-15 + llvm-spirv-15), and
# embedding of device images into a target through zeal-pack.

# In this repository the targets are zeal-pack and zeal; through find_package(zeal)
# they are the imported zeal::zeal-pack and zeal::zeal.
if(NOT DEFINED ZEAL_PACK_TARGET)
  set(ZEAL_PACK_TARGET zeal-pack)
endif()
if(NOT DEFINED ZEAL_RUNTIME_TARGET)
  set(ZEAL_RUNTIME_TARGET zeal)
endif()

find_program(ZEAL_CLANG clang-15 REQUIRED)
find_program(ZEAL_LLVM_SPIRV llvm-spirv-15 REQUIRED)

set(ZEAL_OPENCL_EXTENSIONS
  "+cl_khr_subgroups,+cl_intel_subgroups,+cl_intel_required_subgroup_size,+cl_khr_fp64,+cl_khr_fp16,+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics")

# zeal_compile_opencl(OUTPUT <file.spv> SOURCE <file.cl> [OPTIONS <clang -cc1 options>...])
# -no-opaque-pointers: llvm-spirv-15 aborts on some opaque-pointer IR clang-15 emits.
function(zeal_compile_opencl)
  cmake_parse_arguments(ARG "" "OUTPUT;SOURCE" "OPTIONS" ${ARGN})
  get_filename_component(source "${ARG_SOURCE}" ABSOLUTE)
  set(bc "${ARG_OUTPUT}.bc")
  add_custom_command(
    OUTPUT "${ARG_OUTPUT}"
    COMMAND ${ZEAL_CLANG} -cc1 -triple spir64-unknown-unknown -cl-std=CL2.0
            -finclude-default-header -cl-ext=${ZEAL_OPENCL_EXTENSIONS}
            -no-opaque-pointers -emit-llvm-bc -O2 ${ARG_OPTIONS}
            "${source}" -o "${bc}"
    COMMAND ${ZEAL_LLVM_SPIRV} "${bc}" -o "${ARG_OUTPUT}" --spirv-ext=+all
    DEPENDS "${source}"
    COMMENT "Compiling OpenCL C ${ARG_SOURCE} to SPIR-V"
    VERBATIM)
endfunction()

# zeal_embed_device_images(TARGET <target> IMAGES <a.spv>...)
# Generates, with zeal-pack, a C++ source holding the images and a registrar
# that registers them with libzeal when the target is loaded.
function(zeal_embed_device_images)
  cmake_parse_arguments(ARG "" "TARGET" "IMAGES" ${ARGN})
  set(out "${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}_device_images.cpp")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${ZEAL_PACK_TARGET} --output "${out}" --name "${ARG_TARGET}" ${ARG_IMAGES}
    DEPENDS ${ZEAL_PACK_TARGET} ${ARG_IMAGES}
    COMMENT "Embedding device images into ${ARG_TARGET}"
    VERBATIM)
  target_sources(${ARG_TARGET} PRIVATE "${out}")
  target_link_libraries(${ARG_TARGET} PRIVATE ${ZEAL_RUNTIME_TARGET})
endfunction()
