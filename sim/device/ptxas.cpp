// Runs ptxas -v (through launch::run_process: an argv, never a shell) and parses its resource report;
// estimates otherwise.
#include "sim/device/ptxas.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <tuple>

#include "launch/cleanup.hpp"
#include "launch/log.hpp"
#include "launch/process.hpp"
#include "launch/tools.hpp"

namespace warpsim::device {
namespace {

bool write_all(int fd, std::string_view text) {
    while (!text.empty()) {
        ssize_t n = ::write(fd, text.data(), text.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        text.remove_prefix(static_cast<std::size_t>(n));
    }
    return true;
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

bool is_ident_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

// Offset of ".entry NAME" for the kernel, or npos.
std::size_t find_entry(std::string_view ptx, std::string_view kernel) {
    for (std::size_t at = ptx.find(".entry"); at != std::string_view::npos; at = ptx.find(".entry", at + 6)) {
        std::size_t name = ptx.find_first_not_of(" \t\r\n", at + 6);
        if (name == std::string_view::npos || name == at + 6) continue;
        std::size_t end = name;
        while (end < ptx.size() && is_ident_char(ptx[end])) ++end;
        if (names_kernel(ptx.substr(name, end - name), kernel)) return at;
    }
    return std::string_view::npos;
}

// 32-bit words of the ".reg .TYPE %name<N>, %other;" declarations in a kernel body (64-bit types count 2,
// 128-bit 4, predicates 0).
long long declared_register_words(std::string_view body) {
    long long words = 0;
    for (std::size_t at = body.find(".reg"); at != std::string_view::npos; at = body.find(".reg", at + 4)) {
        std::size_t type = body.find_first_not_of(" \t", at + 4);
        if (type == std::string_view::npos || type == at + 4 || body[type] != '.') continue;
        std::size_t type_end = type + 1;
        while (type_end < body.size() && is_ident_char(body[type_end])) ++type_end;
        std::string_view type_name = body.substr(type + 1, type_end - type - 1);
        int width =
            type_name == "pred" ? 0 : (type_name.ends_with("128") ? 4 : (type_name.ends_with("64") ? 2 : 1));
        std::size_t semi = body.find(';', type_end);
        if (semi == std::string_view::npos) break;
        std::string_view names = body.substr(type_end, semi - type_end);
        while (!names.empty()) {
            std::size_t comma = names.find(',');
            std::string_view item = names.substr(0, comma);
            long long count = 1;
            if (std::size_t lt = item.find('<'); lt != std::string_view::npos) {
                std::string_view digits = item.substr(lt + 1, item.find('>', lt) - lt - 1);
                count = (!digits.empty() && digits.size() < 9 &&
                         digits.find_first_not_of("0123456789") == std::string_view::npos)
                            ? std::stoll(std::string(digits))
                            : 0;
            }
            words += count * width;
            if (comma == std::string_view::npos) break;
            names.remove_prefix(comma + 1);
        }
    }
    return words;
}

}  // namespace

std::optional<std::string> find_ptxas() {
    std::string found = launch::find_cuda_program("ptxas");
    if (found.empty()) return std::nullopt;
    return found;
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
            entries.push_back(PtxasUsage{std::string(rest.substr(0, rest.find('\''))), 0, 0, 0, 0, 0, 0});
        } else if (std::size_t p = line.find("Function properties for "); p != std::string_view::npos) {
            properties_for = std::string(line.substr(p + 24));
        } else if (line.find("spill stores") != std::string_view::npos) {
            if (!entries.empty() && properties_for == entries.back().function) {
                entries.back().spill_stores = number_before(line, "bytes spill stores");
                entries.back().spill_loads = number_before(line, "bytes spill loads");
                entries.back().stack_frame_bytes = number_before(line, "bytes stack frame");
            }
        } else if (line.find("Used ") != std::string_view::npos && !entries.empty()) {
            entries.back().registers = static_cast<int>(number_before(line, "registers"));
            entries.back().barriers = static_cast<int>(number_before(line, "barriers"));
            entries.back().shared_bytes = number_before(line, "bytes smem");
        }
    }
    return entries;
}

std::string ptxas_target_arch(std::string_view ptx_text, std::string_view arch) {
    const std::string variant = std::string(arch) + "a";
    for (std::size_t at = ptx_text.find(".target"); at != std::string_view::npos;
         at = ptx_text.find(".target", at + 1)) {
        if (at > 0 && ptx_text[at - 1] != '\n' && ptx_text[at - 1] != ' ' && ptx_text[at - 1] != '\t')
            continue;
        std::string_view rest = ptx_text.substr(at + 7);
        const std::size_t eol = rest.find('\n');
        rest = rest.substr(0, eol);
        const std::size_t first = rest.find_first_not_of(" \t");
        if (first == std::string_view::npos) break;
        rest = rest.substr(first);
        const std::string_view name = rest.substr(0, rest.find_first_of(" \t,\r"));
        return name == variant ? variant : std::string(arch);
    }
    return std::string(arch);
}

std::optional<std::vector<PtxasUsage>> ptxas_usage_all(std::string_view ptx_text, std::string_view arch,
                                                       std::string* log, std::string* cubin_bytes) {
    std::string scratch;
    std::string& out = log ? *log : scratch;
    out.clear();
    std::optional<std::string> ptxas = find_ptxas();
    if (!ptxas) {
        out = "ptxas not found (looked in " + launch::cuda_program_search_words() + ")";
        return std::nullopt;
    }
    const std::string target = ptxas_target_arch(ptx_text, arch);
    // A process launches the same PTX many times (a program's kernels under the runtime, a notebook's cells,
    // the Python module): ptxas runs once per PTX text, architecture, option set and ptxas, and its output
    // and cubin are kept for the process. Failures are not kept.
    using Key = std::tuple<std::string, std::string, bool, std::string>;
    struct Compiled {
        std::string log, cubin;
    };
    static std::mutex cache_mutex;
    static std::map<Key, Compiled> cache;
    Key key{*ptxas, target, cubin_bytes != nullptr, std::string(ptx_text)};
    {
        std::lock_guard<std::mutex> lock(cache_mutex);
        if (auto it = cache.find(key); it != cache.end()) {
            launch::log::logger().debug(
                "ptxas -arch={}: this PTX ({} bytes) was compiled before, its output "
                "from the process's cache",
                target, ptx_text.size());
            out = it->second.log;
            if (cubin_bytes) *cubin_bytes = it->second.cubin;
            return parse_ptxas_verbose(out);
        }
    }
    auto ptx = launch::TempPath::make_file("warpsim-", ".ptx");
    auto cubin = launch::TempPath::make_file("warpsim-", ".cubin");
    if (!ptx || !cubin || !write_all(ptx->fd(), ptx_text)) {
        out = std::string("cannot write a temporary file: ") + std::strerror(errno);
        return std::nullopt;
    }
    std::vector<std::string> args{*ptxas, "-v", "-arch=" + target, "-o", cubin->path(), ptx->path()};
    if (cubin_bytes)
        args.insert(args.begin() + 1, "-lineinfo");  // line info changes no code, only adds a table
    const auto started = std::chrono::steady_clock::now();
    launch::ProcessResult run = launch::run_process(args);
    launch::log::logger().info(
        "ran {} -v -arch={} on the PTX ({} bytes) for registers and SASS: {:.0f} ms, exit {}", *ptxas, target,
        ptx_text.size(),
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count(),
        run.status);
    out = std::move(run.output);
    const int status = run.status;
    if (status != 0) {
        if (status > 0) out = "ptxas failed (exit " + std::to_string(status) + "):\n" + out;
        return std::nullopt;
    }
    Compiled compiled{out, {}};
    if (cubin_bytes) {
        std::ifstream in(cubin->path(), std::ios::binary);
        cubin_bytes->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        compiled.cubin = *cubin_bytes;
    }
    {
        std::lock_guard<std::mutex> lock(cache_mutex);
        cache.emplace(std::move(key), std::move(compiled));
    }
    return parse_ptxas_verbose(out);
}

std::optional<PtxasUsage> ptxas_usage(std::string_view ptx_text, std::string_view arch,
                                      std::string_view kernel_name, std::string* log,
                                      std::string* cubin_bytes) {
    std::string scratch;
    std::string& out = log ? *log : scratch;
    std::optional<std::vector<PtxasUsage>> all = ptxas_usage_all(ptx_text, arch, &out, cubin_bytes);
    if (!all) return std::nullopt;
    const std::vector<PtxasUsage>& entries = *all;
    std::vector<const PtxasUsage*> matches;
    for (const PtxasUsage& e : entries) {
        if (names_kernel(e.function, kernel_name)) matches.push_back(&e);
    }
    auto exact = std::find_if(matches.begin(), matches.end(),
                              [&](const PtxasUsage* e) { return e->function == kernel_name; });
    if (exact != matches.end()) return **exact;
    if (matches.size() == 1) return *matches.front();
    std::string names;
    for (const PtxasUsage& e : entries) names += " " + e.function;
    out += (matches.empty() ? "\nkernel '" : "\nambiguous kernel name '") + std::string(kernel_name) +
           "'; ptxas compiled:" + names;
    return std::nullopt;
}

std::optional<int> registers_from_ptxas(std::string_view ptx_text, std::string_view arch,
                                        std::string_view kernel_name, std::string* log) {
    std::optional<PtxasUsage> usage = ptxas_usage(ptx_text, arch, kernel_name, log);
    if (!usage) return std::nullopt;
    return usage->registers;
}

std::optional<RegisterEstimate> estimate_registers(std::string_view ptx_text, std::string_view kernel_name) {
    std::size_t begin = find_entry(ptx_text, kernel_name);
    if (begin == std::string_view::npos) return std::nullopt;
    std::size_t open = ptx_text.find('{', begin);
    if (open == std::string_view::npos) return std::nullopt;
    std::size_t close = open;
    for (int depth = 0; close < ptx_text.size(); ++close) {
        if (ptx_text[close] == '{') ++depth;
        if (ptx_text[close] == '}' && --depth == 0) break;
    }
    std::string_view header = ptx_text.substr(begin, open - begin);
    if (std::size_t at = header.find(".maxnreg"); at != std::string_view::npos) {
        std::string_view rest = header.substr(at + 8);
        rest.remove_prefix(std::min(rest.find_first_not_of(" \t"), rest.size()));
        std::string_view digits = rest.substr(0, rest.find_first_not_of("0123456789"));
        if (!digits.empty() && digits.size() < 6) {
            int cap = std::clamp(std::stoi(std::string(digits)), 1, 255);
            return RegisterEstimate{
                cap, "the kernel's .maxnreg " + std::string(digits) + " directive (ptxas may use fewer)"};
        }
    }
    long long words = declared_register_words(ptx_text.substr(open, close - open));
    long long estimate = std::clamp((words + 2 + 7) / 8 * 8, 16LL, 255LL);
    return RegisterEstimate{
        static_cast<int>(estimate),
        std::to_string(words) +
            " 32-bit words of PTX virtual registers + 2, rounded up to 8, clamped to 16..255 "
            "(ptxas usually needs fewer)"};
}

}  // namespace warpsim::device
