// sim/sass/compile.cpp — runs ptxas -lineinfo on a PTX text and reads back the cubin.
#include "sim/sass/compile.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

#include "launch/cleanup.hpp"
#include "launch/process.hpp"
#include "launch/tools.hpp"
#include "sim/device/ptxas.hpp"

namespace warpsim::sass {

std::optional<std::string> compile_cubin(std::string_view ptx_text, std::string_view arch, std::string* log) {
    std::string scratch;
    std::string& out = log ? *log : scratch;
    auto ptxas = device::find_ptxas();
    if (!ptxas) {
        out = "ptxas not found (looked in " + launch::cuda_program_search_words() + ")";
        return std::nullopt;
    }
    namespace fs = std::filesystem;
    // Removed when it goes out of scope, and also on a fatal signal (launch::TempPath).
    auto temp = launch::TempPath::make_dir("warpsim-sass-");
    if (!temp) {
        out = std::string("cannot make a temporary folder: ") + std::strerror(errno);
        return std::nullopt;
    }
    fs::path folder(temp->path());
    std::optional<std::string> result;
    {
        std::ofstream(folder / "kernel.ptx", std::ios::binary) << ptx_text;
        std::vector<std::string> args{*ptxas,
                                      "-lineinfo",
                                      "-arch=" + device::ptxas_target_arch(ptx_text, arch),
                                      "-o",
                                      (folder / "kernel.cubin").string(),
                                      (folder / "kernel.ptx").string()};
        const launch::ProcessResult ptxas_run = launch::run_process(args);
        const int status = ptxas_run.status;
        const std::string& ptxas_output = ptxas_run.output;
        std::ifstream in(folder / "kernel.cubin", std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        if (status != 0)
            out = "ptxas -lineinfo failed (exit " + std::to_string(status) + "): " + ptxas_output;
        else
            result = std::move(bytes);
    }
    return result;
}

}  // namespace warpsim::sass
