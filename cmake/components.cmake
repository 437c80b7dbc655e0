# One static library per component, linked along the design's arrows, and the record the layering test reads.
#
# warpsim_component(<name> DIR <folder> [DEPENDS <components>...] [LINK <targets>...]
#                   [PRIVATE_HEADERS <headers>...])
#   builds <folder>/*.cpp into warpsim_<name>, links the warpsim_<dep> of every DEPENDS entry and the LINK
#   targets, and records <folder>, DEPENDS and PRIVATE_HEADERS for the layering test (tests/layering/): a file
#   of this component may include only its own headers and the public headers of the components in DEPENDS.
# warpsim_layer(<name> DIR <folder> [DEPENDS ...] [PRIVATE_HEADERS ...]) records a component that is not a
#   library (the command line).
# warpsim_layering_exception(<file> <header> <reason>) allows one include of a private header, written down.

function(warpsim_layer name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "DIR" "DEPENDS;PRIVATE_HEADERS")
  get_filename_component(abs ${arg_DIR} ABSOLUTE BASE_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  file(RELATIVE_PATH dir ${PROJECT_SOURCE_DIR} ${abs})
  set(private "")
  foreach(header IN LISTS arg_PRIVATE_HEADERS)
    list(APPEND private ${dir}/${header})
  endforeach()
  list(JOIN arg_DEPENDS "," deps)
  list(JOIN private "," private)
  set_property(GLOBAL APPEND PROPERTY WARPSIM_LAYERS "layer|${name}|${dir}|${deps}|${private}")
endfunction()

function(warpsim_component name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "DIR" "DEPENDS;LINK;PRIVATE_HEADERS")
  file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/${arg_DIR}/*.cpp)
  add_library(warpsim_${name} STATIC ${srcs})
  # Position-independent: the simulated CUDA runtime (sim/runtime, libcudart.so.13) links them.
  set_target_properties(warpsim_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  set(deps "")
  foreach(dep IN LISTS arg_DEPENDS)
    list(APPEND deps warpsim_${dep})
  endforeach()
  target_link_libraries(warpsim_${name} PUBLIC warpsim_options ${deps} ${arg_LINK})
  warpsim_layer(${name} DIR ${arg_DIR} DEPENDS ${arg_DEPENDS} PRIVATE_HEADERS ${arg_PRIVATE_HEADERS})
endfunction()

function(warpsim_layering_exception file header reason)
  set_property(GLOBAL APPEND PROPERTY WARPSIM_LAYERS "exception|${file}|${header}")
endfunction()

# Writes the records to <path>, one a line: "layer|name|folder|deps|private headers" (lists comma-separated)
# and "exception|file|header".
function(warpsim_write_layers path)
  get_property(records GLOBAL PROPERTY WARPSIM_LAYERS)
  list(JOIN records "\n" text)
  file(WRITE ${path} "${text}\n")
endfunction()
