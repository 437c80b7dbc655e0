// launch/source.cpp — reading .ptx sources and compiling .cu sources with nvcc (launch/process: no shell).
#include "launch/source.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "launch/cleanup.hpp"
#include "launch/input_file.hpp"
#include "launch/process.hpp"
#include "launch/tools.hpp"

namespace warpsim::launch {
namespace {

namespace fs = std::filesystem;

Outcome<std::string> read_text(const std::string& path, const std::string& context) {
    auto text = read_input_file(path, kMaxSourceBytes, "source");
    if (!text) return Outcome<std::string>::failure(context + ": " + text.error());
    return text;
}

}  // namespace

std::string find_nvcc() {
    return find_cuda_program("nvcc");
}

// nvcc -ptx on cu_path, or on `source` written to a temporary file of cu_path's name when it is not empty.
// The folder is a TempPath (removed on fatal signals too) and nvcc's TMPDIR, so its own temporary files go
// with it.
static Outcome<std::string> nvcc_ptx(const std::string& nvcc, const std::string& arch,
                                     const std::string& cu_path, const std::string& source,
                                     const std::string& context) {
    auto tmpdir = TempPath::make_dir("warpsim-nvcc-");
    if (!tmpdir) {
        return Outcome<std::string>::failure(context +
                                             ": cannot make a temporary folder: " + std::strerror(errno));
    }
    const fs::path folder(tmpdir->path());
    std::string input = cu_path;
    if (!source.empty()) {
        input = (folder / fs::path(cu_path).filename()).string();
        std::ofstream(input, std::ios::binary) << source;
    }
    const std::string out = (folder / (fs::path(cu_path).stem().string() + ".ptx")).string();
    ProcessResult r =
        run_process({nvcc, "-ptx", "-arch=" + arch, "-lineinfo", "-o", out, input}, tmpdir->path());
    return r.status == 0 ? read_text(out, context)
                         : Outcome<std::string>::failure("nvcc failed on " + cu_path + " (exit " +
                                                         std::to_string(r.status) + "):\n" + r.output);
}

Outcome<std::string> load_source(const LaunchSpec& spec) {
    const std::string ext = fs::path(spec.source_path).extension().string();
    const std::string context = spec.path + ": source";
    if (ext == ".ptx") return read_text(spec.source_path, context);
    if (ext != ".cu")
        return Outcome<std::string>::failure(context + ": " + spec.source +
                                             " is neither a .ptx nor a .cu file");
    return compile_cu(spec, find_nvcc());
}

Outcome<std::string> compile_cu(const LaunchSpec& spec, const std::string& nvcc) {
    const std::string context = spec.path + ": source";
    std::error_code ec;
    if (!fs::is_regular_file(spec.source_path, ec))
        return Outcome<std::string>::failure(context + ": cannot open " + spec.source_path);
    if (nvcc.empty())
        return Outcome<std::string>::failure(
            "compiling " + spec.source_path +
            " needs nvcc from the CUDA toolkit; install it or give the .ptx");
    return nvcc_ptx(nvcc, spec.arch, spec.source_path, "", context);
}

Outcome<std::string> compile_cu_text(const std::string& source, const std::string& name,
                                     const std::string& arch) {
    const std::string nvcc = find_nvcc();
    if (nvcc.empty())
        return Outcome<std::string>::failure(
            "compiling " + name + " needs nvcc from the CUDA toolkit; install it or give the .ptx");
    return nvcc_ptx(nvcc, arch, name, source, name);
}

}  // namespace warpsim::launch
