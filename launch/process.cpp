// launch/process.cpp — starting other programs: fork and execve with the output captured (run_process), or
// exec in place (replace_process). No shell anywhere.
#include "launch/process.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>

#include "launch/cleanup.hpp"

extern char** environ;

namespace warpsim::launch {
namespace {

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

int replace_process(const std::string& path, char* const* argv, std::string& error) {
    std::fflush(nullptr);  // what this process printed so far would otherwise be lost with it
    ::execv(path.c_str(), argv);
    const int err = errno;
    error = path + ": " + std::strerror(err);
    return err == ENOENT ? 127 : 126;
}

}  // namespace warpsim::launch
