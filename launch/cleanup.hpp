// launch/cleanup.hpp — temporary files and child processes (nvcc, ptxas) that a signal must not leave
// behind: a fatal signal kills the registered children and removes the registered paths before the process
// dies of it.
#pragma once

#include <sys/types.h>

#include <optional>
#include <string>

namespace warpsim::launch {

// Installs the handler for SIGINT, SIGTERM, SIGHUP and SIGQUIT (the command line calls it once, first thing)
// and ignores SIGPIPE, so that a closed output pipe is a write error the program reports.
void install_cleanup_on_signals();

// A temporary file or folder (flat: files only) that exists from creation to destruction, removed by the
// destructor and, while it lives, by the signal handler. Created with signals blocked, so that no signal
// falls between making it and registering it.
class TempPath {
  public:
    // mkdtemp of "$TMPDIR/<prefix>XXXXXX"; nullopt (errno set) when it cannot be made.
    static std::optional<TempPath> make_dir(const std::string& prefix);
    // mkstemps of "$TMPDIR/<prefix>XXXXXX<suffix>"; the open descriptor is fd().
    static std::optional<TempPath> make_file(const std::string& prefix, const std::string& suffix);
    ~TempPath();
    TempPath(TempPath&& other) noexcept;
    TempPath& operator=(TempPath&&) = delete;
    TempPath(const TempPath&) = delete;
    TempPath& operator=(const TempPath&) = delete;

    const std::string& path() const { return path_; }
    int fd() const { return fd_; }

  private:
    TempPath(std::string path, int fd, int slot) : path_(std::move(path)), fd_(fd), slot_(slot) {}
    std::string path_;
    int fd_ = -1;
    int slot_ = -1;  // the signal handler's registry slot (-1: none)
};

// Registers a child (and its process group) for the signal handler from construction to destruction.
class ChildGuard {
  public:
    explicit ChildGuard(pid_t pid);
    ~ChildGuard();
    ChildGuard(const ChildGuard&) = delete;
    ChildGuard& operator=(const ChildGuard&) = delete;

  private:
    int slot_ = -1;
};

// Blocks the fatal signals on this thread for its lifetime (for a fork and its registration).
class SignalsBlocked {
  public:
    SignalsBlocked();
    ~SignalsBlocked();
    SignalsBlocked(const SignalsBlocked&) = delete;
    SignalsBlocked& operator=(const SignalsBlocked&) = delete;
    // The mask to restore in a forked child before exec (async-signal-safe).
    void restore_in_child() const;

  private:
    unsigned char saved_[128];  // a sigset_t, kept opaque here
};

}  // namespace warpsim::launch
