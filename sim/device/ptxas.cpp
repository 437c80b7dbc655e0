// Runs ptxas -v (posix_spawn with an argv, never a shell) and parses its resource report; estimates otherwise.
#include "sim/device/ptxas.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>

extern char** environ;

namespace warpsim::device {
namespace {

bool is_executable(const std::string& path) { return !path.empty() && ::access(path.c_str(), X_OK) == 0; }

// A file in the temporary directory with a unique name, removed when this goes out of scope.
class TempFile {
public:
    explicit TempFile(std::string_view suffix) {
        std::string pattern = (std::filesystem::temp_directory_path() / "warpsim-XXXXXX").string() + std::string(suffix);
        std::vector<char> buf(pattern.begin(), pattern.end());
        buf.push_back('\0');
        fd_ = ::mkstemps(buf.data(), static_cast<int>(suffix.size()));
        if (fd_ >= 0) path_ = buf.data();
    }
    ~TempFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!path_.empty()) ::unlink(path_.c_str());
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    bool ok() const { return fd_ >= 0; }
    const std::string& path() const { return path_; }
    bool write_all(std::string_view text) {
        while (!text.empty()) {
            ssize_t n = ::write(fd_, text.data(), text.size());
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            text.remove_prefix(static_cast<std::size_t>(n));
        }
        return true;
    }

private:
    int fd_ = -1;
    std::string path_;
};

// Runs argv[0] with stdout and stderr captured together; returns the exit status (-1 if it could not run).
int run_capture(const std::vector<std::string>& args, std::string& output) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        output = std::string("pipe failed: ") + std::strerror(errno);
        return -1;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = 0;
    int rc = ::posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        output = "cannot run " + args[0] + ": " + std::strerror(rc);
        return -1;
    }
    char buf[4096];
    for (;;) {
        ssize_t n = ::read(fds[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        output.append(buf, static_cast<std::size_t>(n));
    }
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// "transpose" names "_Z9transposePfS_": the Itanium mangling of a function at namespace scope.
bool names_kernel(std::string_view entry, std::string_view kernel) {
    if (entry == kernel) return true;
    std::string prefix = "_Z" + std::to_string(kernel.size()) + std::string(kernel);
    return entry.starts_with(prefix);
}

long long number_before(std::string_view line, std::string_view unit) {
    std::size_t at = line.find(unit);
    if (at == std::string_view::npos) return 0;
    std::size_t end = at;
    while (end > 0 && line[end - 1] == ' ') --end;
    std::size_t start = end;
    while (start > 0 && std::isdigit(static_cast<unsigned char>(line[start - 1]))) --start;
    if (start == end) return 0;
    return std::stoll(std::string(line.substr(start, end - start)));
}

}  // namespace

std::optional<std::string> find_ptxas() {
    if (const char* path = std::getenv("PATH")) {
        std::string_view dirs(path);
        while (!dirs.empty()) {
            std::size_t colon = dirs.find(':');
            std::string_view dir = dirs.substr(0, colon);
            if (!dir.empty() && is_executable(std::string(dir) + "/ptxas")) return std::string(dir) + "/ptxas";
            if (colon == std::string_view::npos) break;
            dirs.remove_prefix(colon + 1);
        }
    }
    if (const char* home = std::getenv("CUDA_HOME")) {
        if (is_executable(std::string(home) + "/bin/ptxas")) return std::string(home) + "/bin/ptxas";
    }
    if (is_executable("/usr/local/cuda/bin/ptxas")) return std::string("/usr/local/cuda/bin/ptxas");
    return std::nullopt;
}

std::vector<PtxasUsage> parse_ptxas_verbose(std::string_view output) {
    std::vector<PtxasUsage> entries;
    std::string properties_for;
    while (!output.empty()) {
        std::size_t nl = output.find('\n');
        std::string_view line = output.substr(0, nl);
        output.remove_prefix(nl == std::string_view::npos ? output.size() : nl + 1);
        if (std::size_t at = line.find("Compiling entry function '"); at != std::string_view::npos) {
            std::string_view rest = line.substr(at + 26);
            entries.push_back(PtxasUsage{std::string(rest.substr(0, rest.find('\''))), 0, 0, 0, 0, 0});
        } else if (std::size_t p = line.find("Function properties for "); p != std::string_view::npos) {
            properties_for = std::string(line.substr(p + 24));
        } else if (line.find("spill stores") != std::string_view::npos) {
            if (!entries.empty() && properties_for == entries.back().function) {
                entries.back().spill_stores = number_before(line, "bytes spill stores");
                entries.back().spill_loads = number_before(line, "bytes spill loads");
            }
        } else if (line.find("Used ") != std::string_view::npos && !entries.empty()) {
            entries.back().registers = static_cast<int>(number_before(line, "registers"));
            entries.back().barriers = static_cast<int>(number_before(line, "barriers"));
            entries.back().shared_bytes = number_before(line, "bytes smem");
        }
    }
    return entries;
}

std::optional<PtxasUsage> ptxas_usage(std::string_view ptx_text, std::string_view arch, std::string_view kernel_name,
                                      std::string* log) {
    std::string scratch;
    std::string& out = log ? *log : scratch;
    out.clear();
    std::optional<std::string> ptxas = find_ptxas();
    if (!ptxas) {
        out = "ptxas not found (looked in PATH, $CUDA_HOME/bin and /usr/local/cuda/bin)";
        return std::nullopt;
    }
    TempFile ptx(".ptx");
    TempFile cubin(".cubin");
    if (!ptx.ok() || !cubin.ok() || !ptx.write_all(ptx_text)) {
        out = std::string("cannot write a temporary file: ") + std::strerror(errno);
        return std::nullopt;
    }
    std::vector<std::string> args{*ptxas, "-v", "-arch=" + std::string(arch), "-o", cubin.path(), ptx.path()};
    int status = run_capture(args, out);
    if (status != 0) {
        if (status > 0) out = "ptxas failed (exit " + std::to_string(status) + "):\n" + out;
        return std::nullopt;
    }
    std::vector<PtxasUsage> entries = parse_ptxas_verbose(out);
    std::vector<const PtxasUsage*> matches;
    for (const PtxasUsage& e : entries) {
        if (names_kernel(e.function, kernel_name)) matches.push_back(&e);
    }
    auto exact = std::find_if(matches.begin(), matches.end(), [&](const PtxasUsage* e) { return e->function == kernel_name; });
    if (exact != matches.end()) return **exact;
    if (matches.size() == 1) return *matches.front();
    std::string names;
    for (const PtxasUsage& e : entries) names += " " + e.function;
    out += (matches.empty() ? "\nkernel '" : "\nambiguous kernel name '") + std::string(kernel_name) +
           "'; ptxas compiled:" + names;
    return std::nullopt;
}

std::optional<int> registers_from_ptxas(std::string_view ptx_text, std::string_view arch, std::string_view kernel_name,
                                        std::string* log) {
    std::optional<PtxasUsage> usage = ptxas_usage(ptx_text, arch, kernel_name, log);
    if (!usage) return std::nullopt;
    return usage->registers;
}

std::optional<RegisterEstimate> estimate_registers(std::string_view ptx_text, std::string_view kernel_name) {
    const std::regex entry_re(R"(\.entry\s+([A-Za-z_$][\w$]*))");
    std::string text(ptx_text);
    std::size_t begin = std::string::npos;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), entry_re); it != std::sregex_iterator(); ++it) {
        if (names_kernel((*it)[1].str(), kernel_name)) {
            begin = static_cast<std::size_t>(it->position(0));
            break;
        }
    }
    if (begin == std::string::npos) return std::nullopt;
    std::size_t open = text.find('{', begin);
    if (open == std::string::npos) return std::nullopt;
    std::size_t close = open;
    for (int depth = 0; close < text.size(); ++close) {
        if (text[close] == '{') ++depth;
        if (text[close] == '}' && --depth == 0) break;
    }
    std::string header = text.substr(begin, open - begin);
    const std::regex maxnreg_re(R"(\.maxnreg\s+(\d+))");
    if (std::smatch m; std::regex_search(header, m, maxnreg_re)) {
        int cap = std::clamp(std::stoi(m[1].str()), 1, 255);
        return RegisterEstimate{cap, "the kernel's .maxnreg " + m[1].str() + " directive (ptxas may use fewer)"};
    }
    std::string body = text.substr(open, close - open);
    const std::regex reg_re(R"(\.reg\s+\.(\w+)\s+%\w+(?:<(\d+)>)?\s*;)");
    long long words = 0;
    for (auto it = std::sregex_iterator(body.begin(), body.end(), reg_re); it != std::sregex_iterator(); ++it) {
        std::string type = (*it)[1].str();
        long long count = (*it)[2].matched ? std::stoll((*it)[2].str()) : 1;
        int width = type == "pred" ? 0 : (type.ends_with("64") ? 2 : (type.ends_with("128") ? 4 : 1));
        words += count * width;
    }
    long long estimate = std::clamp((words + 2 + 7) / 8 * 8, 16LL, 255LL);
    return RegisterEstimate{static_cast<int>(estimate),
                            "estimate without ptxas: " + std::to_string(words) +
                                " 32-bit words of PTX virtual registers + 2, rounded up to 8, clamped to 16..255 "
                                "(ptxas usually needs fewer)"};
}

}  // namespace warpsim::device
