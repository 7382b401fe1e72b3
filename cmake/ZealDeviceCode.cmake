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
if(NOT DEFINED ZEAL_SPIRV_TARGET)
  set(ZEAL_SPIRV_TARGET zeal-spirv)
endif()
if(NOT DEFINED ZEAL_AOT_TARGET)
  set(ZEAL_AOT_TARGET zeal-aot)
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
            -dependency-file "${ARG_OUTPUT}.d" -MT "${ARG_OUTPUT}"
            "${source}" -o "${bc}"
    COMMAND ${ZEAL_LLVM_SPIRV} "${bc}" -o "${ARG_OUTPUT}" --spirv-ext=+all
    DEPENDS "${source}"
    # Headers the source includes rebuild it too.
    DEPFILE "${ARG_OUTPUT}.d"
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

# zeal_add_device_code(TARGET <target> SOURCES <a.cl>...
#                      [SPLIT per_kernel|per_source|off|auto] [OPTIONS <clang -cc1 options>...]
#                      [FUNCTION_PROPERTIES <fn> <key>=<value>... [<fn2> <key>=<value>...]]
#                      [KERNEL_PROPERTIES <kernel> <key>=<value>... [<kernel2> <key>=<value>...]])
# Compiles OpenCL C to SPIR-V, splits the device code as asked (per_kernel: an image per
# kernel plus one of the exports; per_source, and auto: an image per source; off: one
# image), and embeds the images with their metadata into <target>. FUNCTION_PROPERTIES
# declare what an exported (or imported) function was compiled for, e.g.
#   FUNCTION_PROPERTIES helper sub_group_size=16 range_type=int
# which become the metadata function.helper.sub_group_size=16 and function.helper.range_type=int.
# KERNEL_PROPERTIES do the same for kernels, e.g. KERNEL_PROPERTIES k range_type=int gives
# kernel.k.range_type=int (the keys are those of include/zeal/zeal_adapter.h).
# AOT compiles each image (after splitting) with zeal-aot into a native binary for zeal's CPU
# driver and embeds that instead of the SPIR-V, with the metadata read from the SPIR-V. The
# binary runs only on the build machine's CPU model with the driver version that built it.
function(zeal_add_device_code)
  cmake_parse_arguments(ARG "AOT" "TARGET;SPLIT" "SOURCES;OPTIONS;FUNCTION_PROPERTIES;KERNEL_PROPERTIES" ${ARGN})
  if("${ARG_SPLIT}" STREQUAL "") # not if(NOT ARG_SPLIT): "off" is false to CMake
    set(ARG_SPLIT auto)
  endif()
  if(NOT ARG_SPLIT MATCHES "^(per_kernel|per_source|off|auto)$")
    message(FATAL_ERROR "zeal_add_device_code(${ARG_TARGET}): SPLIT '${ARG_SPLIT}' is not one of "
                        "per_kernel, per_source, off, auto")
  endif()

  set(spv_files "")
  foreach(src IN LISTS ARG_SOURCES)
    get_filename_component(stem "${src}" NAME_WE)
    set(spv "${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}_${stem}.spv")
    zeal_compile_opencl(OUTPUT "${spv}" SOURCE "${src}" OPTIONS ${ARG_OPTIONS})
    list(APPEND spv_files "${spv}")
  endforeach()

  set(metadata_args "")
  foreach(kind IN ITEMS function kernel)
    string(TOUPPER "${kind}_PROPERTIES" option)
    set(name "")
    foreach(token IN LISTS ARG_${option})
      if(token MATCHES "^([A-Za-z_][A-Za-z0-9_]*)=(.+)$")
        if(name STREQUAL "")
          message(FATAL_ERROR "zeal_add_device_code(${ARG_TARGET}): ${option} '${token}' "
                              "comes before any ${kind} name")
        endif()
        list(APPEND metadata_args --metadata "${kind}.${name}.${CMAKE_MATCH_1}=${CMAKE_MATCH_2}")
      else()
        set(name "${token}")
      endif()
    endforeach()
  endforeach()

  set(out "${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}_device_images.cpp")
  if(ARG_SPLIT STREQUAL "per_source" OR ARG_SPLIT STREQUAL "auto")
    set(split_commands "")
    set(images ${spv_files})
    set(split_depends "")
  else()
    set(dir "${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}_images")
    set(split_commands
      COMMAND ${CMAKE_COMMAND} -E rm -rf "${dir}"
      COMMAND ${CMAKE_COMMAND} -E make_directory "${dir}"
      COMMAND ${ZEAL_SPIRV_TARGET} split ${spv_files} --mode ${ARG_SPLIT} -o "${dir}")
    set(images "${dir}")
    set(split_depends ${ZEAL_SPIRV_TARGET})
  endif()
  set(aot_commands "")
  set(aot_depends "")
  set(native_args "")
  set(what "SPIR-V")
  if(ARG_AOT)
    set(native_dir "${CMAKE_CURRENT_BINARY_DIR}/${ARG_TARGET}_native")
    set(aot_commands
      COMMAND ${CMAKE_COMMAND} -E rm -rf "${native_dir}"
      COMMAND ${ZEAL_AOT_TARGET} --output-dir "${native_dir}" ${images})
    set(aot_depends ${ZEAL_AOT_TARGET})
    set(native_args --native-dir "${native_dir}")
    set(what "native (AOT)")
  endif()
  add_custom_command(
    OUTPUT "${out}"
    ${split_commands}
    ${aot_commands}
    COMMAND ${ZEAL_PACK_TARGET} --output "${out}" --name "${ARG_TARGET}" ${metadata_args} ${native_args} ${images}
    DEPENDS ${ZEAL_PACK_TARGET} ${split_depends} ${aot_depends} ${spv_files}
    COMMENT "Embedding ${what} device images (split ${ARG_SPLIT}) into ${ARG_TARGET}"
    VERBATIM)
  target_sources(${ARG_TARGET} PRIVATE "${out}")
  target_link_libraries(${ARG_TARGET} PRIVATE ${ZEAL_RUNTIME_TARGET})
endfunction()
