# Installs the build into a fresh prefix, then checks that the installed zeal-ls finds the
# installed adapter and CPU driver, and that a project outside the tree builds and runs
# against it with find_package(zeal).
# Inputs: BUILD_DIR, WORK_DIR, SOURCE_DIR (the consumer project), CXX_FLAGS, LINKER_FLAGS.
set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "command failed (${code}): ${ARGN}\n${out}${err}")
  endif()
  set(run_output "${out}${err}" PARENT_SCOPE)
endfunction()

run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

set(ENV{ZEAL_LOG_LEVEL} info)
unset(ENV{ZEAL_ADAPTERS_SEARCH_PATH})
unset(ENV{ZE_ENABLE_ALT_DRIVERS})
run(${prefix}/bin/zeal-ls)
if(NOT run_output MATCHES "loaded adapter '${prefix}/lib/zeal/libzeal_adapter_level_zero.so'")
  message(FATAL_ERROR "the installed zeal-ls did not load the installed adapter:\n${run_output}")
endif()
if(NOT run_output MATCHES "\\[level_zero:cpu\\]\\[level_zero:0\\] zeal CPU")
  message(FATAL_ERROR "the installed zeal-ls did not list the CPU device:\n${run_output}")
endif()
unset(ENV{ZEAL_LOG_LEVEL})

run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/consumer -G Ninja -DCMAKE_PREFIX_PATH=${prefix}
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${LINKER_FLAGS}")
run(${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run(${WORK_DIR}/consumer/consumer)
if(NOT run_output MATCHES "consumer: OK on zeal CPU")
  message(FATAL_ERROR "the consumer did not run:\n${run_output}")
endif()
message(STATUS "${run_output}")
file(REMOVE_RECURSE ${WORK_DIR})
