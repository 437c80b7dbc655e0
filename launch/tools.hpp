// launch/tools.hpp — where the CUDA toolkit's programs and libraries are: one search order for every tool
// warpsim runs (nvcc, ptxas, ncu) or loads (NVRTC).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::launch {

// The first executable file named `name` in the folders of `path_list` (the form of $PATH: folders separated
// by ':', empty entries skipped); "" when there is none. A name with a '/' is a path, not searched: itself
// when it is an executable file, else "".
std::string find_in_path_list(std::string_view name, std::string_view path_list);

// find_in_path_list over $PATH.
std::string find_on_path(std::string_view name);

// The toolkit folders, in search order: $CUDA_HOME, $CUDA_PATH (each when set and not empty),
// /usr/local/cuda.
std::vector<std::filesystem::path> cuda_roots();

// The program `name` (for example "ptxas"): the first executable file of that name in the folders of $PATH,
// then in bin/ of each cuda_roots() folder, then in `extra` folders; "" when there is none (also for a name
// with a '/').
std::string find_cuda_program(std::string_view name, const std::vector<std::filesystem::path>& extra = {});

// The search order in words, for messages: "PATH, $CUDA_HOME/bin, $CUDA_PATH/bin and /usr/local/cuda/bin".
std::string cuda_program_search_words();

}  // namespace warpsim::launch
