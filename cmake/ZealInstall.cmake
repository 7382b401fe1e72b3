# Install rules: libzeal.so in lib/, the adapter and the CPU driver in lib/zeal/ (the loader
# looks in libzeal.so's folder and its zeal/ subfolder; the adapter finds the driver beside
# itself), tools in bin/, headers, and a CMake package for find_package(zeal).
include(CMakePackageConfigHelpers)

set(ZEAL_INSTALL_PLUGIN_DIR ${CMAKE_INSTALL_LIBDIR}/zeal)
set(ZEAL_INSTALL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/zeal)

install(TARGETS zeal EXPORT zealTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS zeal_adapter_level_zero ze_zeal_cpu
  LIBRARY DESTINATION ${ZEAL_INSTALL_PLUGIN_DIR})
foreach(tool zeal-pack zeal-ls zeal-spirv zeal-aot)
  if(TARGET ${tool})
    set_target_properties(${tool} PROPERTIES INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
    install(TARGETS ${tool} EXPORT zealTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()
install(DIRECTORY include/zeal DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

install(EXPORT zealTargets NAMESPACE zeal:: DESTINATION ${ZEAL_INSTALL_CMAKE_DIR})
configure_package_config_file(cmake/zealConfig.cmake.in ${CMAKE_CURRENT_BINARY_DIR}/zealConfig.cmake
  INSTALL_DESTINATION ${ZEAL_INSTALL_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/zealConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/zealConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/zealConfigVersion.cmake
  cmake/ZealDeviceCode.cmake DESTINATION ${ZEAL_INSTALL_CMAKE_DIR})
