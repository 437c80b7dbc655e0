// launch/source.cpp — reading .ptx sources and compiling .cu sources with nvcc (fork/exec, no shell).
#include "launch/source.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace warpsim::launch {
namespace {

namespace fs = std::filesystem;

Outcome<std::string> read_text(const std::string& path, const std::string& context) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Outcome<std::string>::failure(context + ": cannot open " + path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool is_executable(const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0;
}

// Replaces the child with argv; on failure writes the reason to the pipe and exits with 127.
// Only async-signal-safe calls here: the parent may have other threads (no allocation after fork).
[[noreturn]] void exec_child(char* const* args, int out_fd) {
    ::dup2(out_fd, STDOUT_FILENO);
    ::dup2(out_fd, STDERR_FILENO);
    ::close(out_fd);
    ::execv(args[0], args);
    static constexpr char kMsg[] = "exec failed\n";
    ssize_t ignored = ::write(STDERR_FILENO, kMsg, sizeof kMsg - 1);
    (void)ignored;
    ::_exit(127);
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv) {
    ProcessResult result;
    if (argv.empty()) return result;
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        result.output = std::string("pipe: ") + std::strerror(errno);
        return result;
    }
    pid_t pid = ::fork();
    if (pid < 0) {
        result.output = std::string("fork: ") + std::strerror(errno);
        ::close(fds[0]);
        ::close(fds[1]);
        return result;
    }
    if (pid == 0) {
        ::close(fds[0]);
        exec_child(args.data(), fds[1]);
    }
    ::close(fds[1]);
    char buf[4096];
    for (;;) {
        ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n > 0) result.output.append(buf, size_t(n));
        else if (n == 0 || errno != EINTR) break;
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

std::string find_nvcc() {
    if (const char* path = std::getenv("PATH")) {
        std::string_view rest = path;
        while (!rest.empty()) {
            auto colon = rest.find(':');
            std::string dir(rest.substr(0, colon));
            rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
            if (!dir.empty() && is_executable(fs::path(dir) / "nvcc")) return (fs::path(dir) / "nvcc").string();
        }
    }
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
        const char* root = std::getenv(var);
        if (root && *root && is_executable(fs::path(root) / "bin" / "nvcc")) return (fs::path(root) / "bin" / "nvcc").string();
    }
    if (is_executable("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
    return {};
}

// nvcc -ptx on cu_path, or on `source` written to a temporary file of cu_path's name when it is not empty.
static Outcome<std::string> nvcc_ptx(const std::string& nvcc, const std::string& arch, const std::string& cu_path,
                              const std::string& source, const std::string& context) {
    char tmpl[] = "/tmp/warpsim-nvcc-XXXXXX";
    if (!::mkdtemp(tmpl)) return Outcome<std::string>::failure(context + ": cannot make a temporary folder");
    const fs::path tmpdir(tmpl);
    std::error_code ec;
    std::string input = cu_path;
    if (!source.empty()) {
        input = (tmpdir / fs::path(cu_path).filename()).string();
        std::ofstream(input, std::ios::binary) << source;
    }
    const std::string out = (tmpdir / (fs::path(cu_path).stem().string() + ".ptx")).string();
    ProcessResult r = run_process({nvcc, "-ptx", "-arch=" + arch, "-lineinfo", "-o", out, input});
    Outcome<std::string> text = r.status == 0 ? read_text(out, context)
                                              : Outcome<std::string>::failure(
                                                    "nvcc failed on " + cu_path + " (exit " +
                                                    std::to_string(r.status) + "):\n" + r.output);
    fs::remove_all(tmpdir, ec);
    return text;
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
        return Outcome<std::string>::failure("compiling " + spec.source_path +
                                             " needs nvcc from the CUDA toolkit; install it or give the .ptx");
    return nvcc_ptx(nvcc, spec.arch, spec.source_path, "", context);
}

Outcome<std::string> compile_cu_text(const std::string& source, const std::string& name, const std::string& arch) {
    const std::string nvcc = find_nvcc();
    if (nvcc.empty())
        return Outcome<std::string>::failure("compiling " + name +
                                             " needs nvcc from the CUDA toolkit; install it or give the .ptx");
    return nvcc_ptx(nvcc, arch, name, source, name);
}

}  // namespace warpsim::launch
