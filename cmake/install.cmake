# cmake --install: the public header, libwarpsim, the warpsim command and the CUDA runtime it loads into
# programs, the device presets, the CMake package (find_package(warpsim CONFIG) -> warpsim::warpsim) and the
# license. Paths are relative to the prefix, so an installed tree can be moved.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(WARPSIM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/warpsim)
set(WARPSIM_INSTALL_PRESETDIR ${CMAKE_INSTALL_DATADIR}/warpsim/presets)

install(TARGETS warpsim_api EXPORT warpsimTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/warpsim/warpsim.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/warpsim)
install(TARGETS warpsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The simulated CUDA runtime where `warpsim exec` looks for it beside an installed command (../lib/warpsim).
if(TARGET warpsim_cudart)
  install(TARGETS warpsim_cudart LIBRARY DESTINATION lib/warpsim NAMELINK_SKIP)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sim/device/presets/ DESTINATION ${WARPSIM_INSTALL_PRESETDIR}
        FILES_MATCHING PATTERN "*.json")
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md ${PROJECT_SOURCE_DIR}/README.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})

install(EXPORT warpsimTargets NAMESPACE warpsim:: DESTINATION ${WARPSIM_INSTALL_CMAKEDIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/warpsimConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/warpsimConfig.cmake
                              INSTALL_DESTINATION ${WARPSIM_INSTALL_CMAKEDIR}
                              PATH_VARS WARPSIM_INSTALL_PRESETDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/warpsimConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/warpsimConfig.cmake ${PROJECT_BINARY_DIR}/warpsimConfigVersion.cmake
        DESTINATION ${WARPSIM_INSTALL_CMAKEDIR})
