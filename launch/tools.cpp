// launch/tools.cpp — the toolkit search order (see tools.hpp).
#include "launch/tools.hpp"

#include <unistd.h>

#include <cstdlib>

namespace warpsim::launch {
namespace fs = std::filesystem;
namespace {

bool is_executable_file(const fs::path& p) {
    std::error_code ec;
    return !p.empty() && fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

}  // namespace

std::vector<fs::path> cuda_roots() {
    std::vector<fs::path> roots;
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
        if (const char* root = std::getenv(var); root && *root) roots.emplace_back(root);
    }
    roots.emplace_back("/usr/local/cuda");
    return roots;
}

std::string find_in_path_list(std::string_view name, std::string_view path_list) {
    if (name.empty()) return {};
    if (name.find('/') != std::string_view::npos)
        return is_executable_file(fs::path(std::string(name))) ? std::string(name) : std::string();
    std::string_view rest = path_list;
    while (!rest.empty()) {
        const auto colon = rest.find(':');
        const std::string_view dir = rest.substr(0, colon);
        rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
        if (dir.empty()) continue;
        if (fs::path p = fs::path(std::string(dir)) / std::string(name); is_executable_file(p))
            return p.string();
    }
    return {};
}

std::string find_on_path(std::string_view name) {
    const char* path = std::getenv("PATH");
    return find_in_path_list(name, path ? path : "");
}

std::string find_cuda_program(std::string_view name, const std::vector<fs::path>& extra) {
    if (name.empty() || name.find('/') != std::string_view::npos) return {};
    if (std::string on_path = find_on_path(name); !on_path.empty()) return on_path;
    for (const auto& root : cuda_roots()) {
        if (fs::path p = root / "bin" / std::string(name); is_executable_file(p)) return p.string();
    }
    for (const auto& dir : extra) {
        if (fs::path p = dir / std::string(name); is_executable_file(p)) return p.string();
    }
    return {};
}

std::string cuda_program_search_words() {
    return "PATH, $CUDA_HOME/bin, $CUDA_PATH/bin and /usr/local/cuda/bin";
}

}  // namespace warpsim::launch
