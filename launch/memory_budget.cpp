// launch/memory_budget.cpp — MemAvailable, cgroup and RLIMIT_AS, read from /proc and /sys.
#include "launch/memory_budget.hpp"

#include <sys/resource.h>

#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace warpsim::launch {
namespace {

std::optional<uint64_t> read_number(const std::string& path) {
    std::ifstream in(path);
    std::string word;
    if (!(in >> word) || word == "max") return std::nullopt;
    try {
        return std::stoull(word);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// A "Key:   123 kB" line of /proc/meminfo or /proc/self/status, in bytes.
std::optional<uint64_t> read_kb_field(const std::string& path, const std::string& key) {
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind(key + ":", 0) != 0) continue;
        std::istringstream fields(line.substr(key.size() + 1));
        uint64_t kb = 0;
        if (fields >> kb) return kb * 1024;
    }
    return std::nullopt;
}

// The cgroup v2 path of this process ("0::/user.slice/..."), "" when not on v2.
std::string cgroup_v2_dir() {
    std::ifstream in("/proc/self/cgroup");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("0::", 0) == 0) return "/sys/fs/cgroup" + line.substr(3);
    }
    return "";
}

void consider(std::optional<AvailableMemory>& best, uint64_t bytes, std::string source) {
    if (!best || bytes < best->bytes) best = AvailableMemory{bytes, std::move(source)};
}

}  // namespace

std::optional<AvailableMemory> available_memory() {
    std::optional<AvailableMemory> best;
    if (auto avail = read_kb_field("/proc/meminfo", "MemAvailable")) consider(best, *avail, "MemAvailable");
    if (std::string dir = cgroup_v2_dir(); !dir.empty()) {
        auto max = read_number(dir + "/memory.max");
        auto cur = read_number(dir + "/memory.current");
        if (max && cur) consider(best, *max > *cur ? *max - *cur : 0, "the cgroup's memory.max");
    } else {
        auto max = read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes");
        auto cur = read_number("/sys/fs/cgroup/memory/memory.usage_in_bytes");
        if (max && cur && *max < (uint64_t{1} << 60))
            consider(best, *max > *cur ? *max - *cur : 0, "the cgroup's memory limit");
    }
    struct rlimit lim {};
    if (::getrlimit(RLIMIT_AS, &lim) == 0 && lim.rlim_cur != RLIM_INFINITY) {
        uint64_t used = read_kb_field("/proc/self/status", "VmSize").value_or(0);
        uint64_t cap = static_cast<uint64_t>(lim.rlim_cur);
        consider(best, cap > used ? cap - used : 0, "the address-space limit (ulimit -v)");
    }
    return best;
}

std::string check_memory_budget(uint64_t needed, const std::string& what) {
    auto avail = available_memory();
    if (!avail || needed <= avail->bytes) return "";
    auto gib = [](uint64_t b) { return static_cast<double>(b) / (1024.0 * 1024.0 * 1024.0); };
    return fmt::format(
        "{} need {} bytes ({:.2f} GiB) of host memory, but only {} bytes ({:.2f} GiB) are available "
        "({}): make the buffers smaller or free memory",
        what, needed, gib(needed), avail->bytes, gib(avail->bytes), avail->source);
}

}  // namespace warpsim::launch
