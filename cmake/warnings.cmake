# Project-wide warning and sanitizer flags, applied through warpsim_options.
add_library(warpsim_options INTERFACE)
target_compile_options(warpsim_options INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                       -Wcast-align -Wunused -Woverloaded-virtual -Wimplicit-fallthrough)
if(WARPSIM_WERROR)
  target_compile_options(warpsim_options INTERFACE -Werror)
  # GCC 12 at -O3 reports -Wrestrict on std::string's own inlined _M_replace (operator+ and insert on
  # strings; GCC bug 105329, fixed in GCC 13): a warning there, never an error.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(warpsim_options INTERFACE -Wno-error=restrict)
  endif()
endif()
target_include_directories(warpsim_options INTERFACE ${PROJECT_SOURCE_DIR})
if(WARPSIM_SANITIZE)
  # GCC 12 reports false maybe-uninitialized warnings inside <regex> under ASan (Catch2 uses it).
  target_compile_options(warpsim_options INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                         $<$<CXX_COMPILER_ID:GNU>:-Wno-maybe-uninitialized>
                         -fno-sanitize-recover=undefined)
  target_link_options(warpsim_options INTERFACE -fsanitize=address,undefined)
endif()
