// launch/cleanup.cpp — the signal handler's registry of temporary paths and children.
//
// A signal handler can only reach state that is global to the process: the registry is the one mutable
// global of the project, fixed-size, lock-free and touched only by async-signal-safe operations.
#include "launch/cleanup.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

namespace warpsim::launch {
namespace {

constexpr int kSlots = 64;
constexpr std::size_t kPathBytes = 1024;
constexpr int kFatalSignals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

enum SlotState : int { kFree = 0, kFilling = 1, kActive = 2 };

struct PathSlot {
    std::atomic<int> state{kFree};
    char path[kPathBytes];
};

PathSlot g_paths[kSlots];
std::atomic<pid_t> g_children[kSlots];

int claim_path_slot(const std::string& path) {
    if (path.size() >= kPathBytes) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = kFree;
        if (!g_paths[i].state.compare_exchange_strong(expected, kFilling)) continue;
        std::memcpy(g_paths[i].path, path.c_str(), path.size() + 1);
        g_paths[i].state.store(kActive);
        return i;
    }
    return -1;
}

// Removes a file, or a folder and the files in it (getdents64: no allocation, async-signal-safe).
void remove_path_signal_safe(const char* path) {
    if (::unlink(path) == 0 || errno == ENOENT) return;
    int dir = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        alignas(8) char buf[4096];
        for (;;) {
            long n = ::syscall(SYS_getdents64, dir, buf, sizeof buf);
            if (n <= 0) break;
            for (long off = 0; off < n;) {
                // struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, char name[]
                unsigned short reclen = 0;
                std::memcpy(&reclen, buf + off + 16, sizeof reclen);
                const char* name = buf + off + 19;
                if (std::strcmp(name, ".") != 0 && std::strcmp(name, "..") != 0) ::unlinkat(dir, name, 0);
                off += reclen;
            }
        }
        ::close(dir);
    }
    ::rmdir(path);
}

void on_fatal_signal(int sig) {
    int saved_errno = errno;
    for (auto& child : g_children) {
        pid_t pid = child.load();
        if (pid <= 0) continue;
        ::kill(-pid, SIGKILL);  // its process group: nvcc's own children (cicc, ptxas) too
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
    }
    for (auto& slot : g_paths) {
        if (slot.state.load() == kActive) remove_path_signal_safe(slot.path);
    }
    errno = saved_errno;
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

void release_path_slot(int slot) {
    if (slot >= 0) g_paths[slot].state.store(kFree);
}

}  // namespace

void install_cleanup_on_signals() {
    struct sigaction sa {};
    sa.sa_handler = on_fatal_signal;
    sigemptyset(&sa.sa_mask);
    for (int s : kFatalSignals) sigaddset(&sa.sa_mask, s);
    for (int s : kFatalSignals) {
        struct sigaction old {};
        // A signal the invoking shell ignores (nohup, background jobs) stays ignored.
        if (::sigaction(s, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        ::sigaction(s, &sa, nullptr);
    }
    ::signal(SIGPIPE, SIG_IGN);
}

SignalsBlocked::SignalsBlocked() {
    static_assert(sizeof(sigset_t) <= sizeof(saved_));
    sigset_t block;
    sigemptyset(&block);
    for (int s : kFatalSignals) sigaddset(&block, s);
    ::pthread_sigmask(SIG_BLOCK, &block, reinterpret_cast<sigset_t*>(saved_));
}

SignalsBlocked::~SignalsBlocked() {
    ::pthread_sigmask(SIG_SETMASK, reinterpret_cast<sigset_t*>(saved_), nullptr);
}

void SignalsBlocked::restore_in_child() const {
    ::sigprocmask(SIG_SETMASK, reinterpret_cast<const sigset_t*>(saved_), nullptr);
}

std::optional<TempPath> TempPath::make_dir(const std::string& prefix) {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    SignalsBlocked blocked;
    if (!::mkdtemp(buf.data())) return std::nullopt;
    std::string path(buf.data());
    int slot = claim_path_slot(path);
    return TempPath(std::move(path), -1, slot);
}

std::optional<TempPath> TempPath::make_file(const std::string& prefix, const std::string& suffix) {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "XXXXXX")).string() + suffix;
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    SignalsBlocked blocked;
    int fd = ::mkstemps(buf.data(), static_cast<int>(suffix.size()));
    if (fd < 0) return std::nullopt;
    std::string path(buf.data());
    int slot = claim_path_slot(path);
    return TempPath(std::move(path), fd, slot);
}

TempPath::TempPath(TempPath&& other) noexcept
    : path_(std::move(other.path_)), fd_(other.fd_), slot_(other.slot_) {
    other.path_.clear();
    other.fd_ = -1;
    other.slot_ = -1;
}

TempPath::~TempPath() {
    if (fd_ >= 0) ::close(fd_);
    if (!path_.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    release_path_slot(slot_);
}

ChildGuard::ChildGuard(pid_t pid) {
    for (int i = 0; i < kSlots; ++i) {
        pid_t expected = 0;
        if (g_children[i].compare_exchange_strong(expected, pid)) {
            slot_ = i;
            return;
        }
    }
}

ChildGuard::~ChildGuard() {
    if (slot_ >= 0) g_children[slot_].store(0);
}

}  // namespace warpsim::launch
