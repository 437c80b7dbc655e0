// sim/sass/compile.cpp — runs ptxas -lineinfo on a PTX text and reads back the cubin.
#include "sim/sass/compile.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "sim/device/ptxas.hpp"

namespace warpsim::sass {

std::optional<std::string> compile_cubin(std::string_view ptx_text, std::string_view arch, std::string* log) {
    std::string scratch;
    std::string& out = log ? *log : scratch;
    auto ptxas = device::find_ptxas();
    if (!ptxas) {
        out = "ptxas not found (looked in PATH, $CUDA_HOME/bin and /usr/local/cuda/bin)";
        return std::nullopt;
    }
    namespace fs = std::filesystem;
    std::string pattern = (fs::temp_directory_path() / "warpsim-sass-XXXXXX").string();
    std::vector<char> dir(pattern.begin(), pattern.end());
    dir.push_back('\0');
    if (!::mkdtemp(dir.data())) {
        out = std::string("cannot make a temporary folder: ") + std::strerror(errno);
        return std::nullopt;
    }
    fs::path folder(dir.data());
    std::optional<std::string> result;
    {
        std::ofstream(folder / "kernel.ptx", std::ios::binary) << ptx_text;
        std::vector<std::string> args{*ptxas, "-lineinfo", "-arch=" + device::ptxas_target_arch(ptx_text, arch), "-o",
                                      (folder / "kernel.cubin").string(), (folder / "kernel.ptx").string()};
        std::string ptxas_output;
        int status = device::run_capture(args, ptxas_output);
        std::ifstream in(folder / "kernel.cubin", std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (status != 0)
            out = "ptxas -lineinfo failed (exit " + std::to_string(status) + "): " + ptxas_output;
        else
            result = std::move(bytes);
    }
    std::error_code ec;
    fs::remove_all(folder, ec);
    return result;
}

}  // namespace warpsim::sass
