// launch/source.cpp — reading .ptx sources and compiling .cu sources with nvcc (fork/exec, no shell).
#include "launch/source.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "launch/cleanup.hpp"
#include "launch/input_file.hpp"
#include "launch/tools.hpp"

extern char** environ;

namespace warpsim::launch {
namespace {

namespace fs = std::filesystem;

Outcome<std::string> read_text(const std::string& path, const std::string& context) {
    auto text = read_input_file(path, kMaxSourceBytes, "source");
    if (!text) return Outcome<std::string>::failure(context + ": " + text.error());
    return text;
}

// Replaces the child with argv; on failure writes the reason to the pipe and exits with 127. The child leads
// its own process group (the signal handler kills the group: nvcc's children too) and dies with its parent.
// Only async-signal-safe calls here: the parent may have other threads (no allocation after fork).
[[noreturn]] void exec_child(char* const* args, char* const* env, int out_fd, const SignalsBlocked& blocked) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    blocked.restore_in_child();
    ::dup2(out_fd, STDOUT_FILENO);
    ::dup2(out_fd, STDERR_FILENO);
    ::close(out_fd);
    ::execve(args[0], args, env);
    static constexpr char kMsg[] = "exec failed\n";
    ssize_t ignored = ::write(STDERR_FILENO, kMsg, sizeof kMsg - 1);
    (void)ignored;
    ::_exit(127);
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv, const std::string& tmpdir) {
    ProcessResult result;
    if (argv.empty()) return result;
    std::vector<char*> args;
    args.reserve(argv.size() + 1);
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    // The environment, with TMPDIR pointing into our own temporary folder when one is given: the child's
    // temporary files are then removed with it.
    std::vector<std::string> env_text;
    for (char** e = environ; e && *e; ++e) {
        if (tmpdir.empty() || std::strncmp(*e, "TMPDIR=", 7) != 0) env_text.emplace_back(*e);
    }
    if (!tmpdir.empty()) env_text.push_back("TMPDIR=" + tmpdir);
    std::vector<char*> env;
    env.reserve(env_text.size() + 1);
    for (auto& e : env_text) env.push_back(e.data());
    env.push_back(nullptr);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        result.output = std::string("pipe: ") + std::strerror(errno);
        return result;
    }
    std::optional<SignalsBlocked>
        blocked;  // until the child is registered: a signal in between would orphan it
    blocked.emplace();
    pid_t pid = ::fork();
    if (pid < 0) {
        result.output = std::string("fork: ") + std::strerror(errno);
        ::close(fds[0]);
        ::close(fds[1]);
        return result;
    }
    if (pid == 0) {
        ::close(fds[0]);
        exec_child(args.data(), env.data(), fds[1], *blocked);
    }
    ::setpgid(pid, pid);
    ChildGuard guard(pid);
    blocked.reset();
    ::close(fds[1]);
    char buf[4096];
    for (;;) {
        ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n > 0)
            result.output.append(buf, size_t(n));
        else if (n == 0 || errno != EINTR)
            break;
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return result;
}

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
