# warpsim_add_simulated_test(TARGET [NAME test-name] [DEVICE preset] [ARGS arg...]): builds the CUDA executable
# TARGET the way `warpsim exec` needs it (the shared CUDA runtime, line information, PTX for the preset's
# architecture) and registers a CTest that runs it under `warpsim exec`. The test passes when the program exits
# 0, as it would on a GPU. WARPSIM_EXECUTABLE names warpsim (default: the `warpsim` target of this build, else
# `warpsim` on the PATH); WARPSIM_PTX_ARCH the architecture (default 90).
function(warpsim_add_simulated_test target)
  cmake_parse_arguments(WARPSIM_TEST "" "NAME;DEVICE" "ARGS" ${ARGN})
  if(NOT WARPSIM_TEST_NAME)
    set(WARPSIM_TEST_NAME ${target}_simulated)
  endif()
  if(NOT WARPSIM_TEST_DEVICE)
    set(WARPSIM_TEST_DEVICE h200)
  endif()
  if(NOT WARPSIM_PTX_ARCH)
    set(WARPSIM_PTX_ARCH 90)
  endif()
  if(WARPSIM_EXECUTABLE)
    set(warpsim ${WARPSIM_EXECUTABLE})
  elseif(TARGET warpsim)
    set(warpsim $<TARGET_FILE:warpsim>)
  else()
    find_program(warpsim_found warpsim REQUIRED)
    set(warpsim ${warpsim_found})
  endif()
  set_target_properties(${target} PROPERTIES CUDA_RUNTIME_LIBRARY Shared)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo --generate-code=arch=compute_${WARPSIM_PTX_ARCH},code=compute_${WARPSIM_PTX_ARCH}>)
  add_test(NAME ${WARPSIM_TEST_NAME}
           COMMAND ${warpsim} exec --device ${WARPSIM_TEST_DEVICE} $<TARGET_FILE:${target}> ${WARPSIM_TEST_ARGS})
endfunction()
