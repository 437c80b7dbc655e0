// sim/runtime/options.cpp — the runtime's options from the environment `warpsim exec` sets.
#include "sim/runtime/options.hpp"

#include <cstdlib>
#include <string_view>

namespace warpsim::runtime {
namespace {

const char* env(const char* name) {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
}

bool flag(const char* name, bool fallback) {
    const char* v = env(name);
    if (!v) return fallback;
    const std::string_view s(v);
    return !(s == "0" || s == "no" || s == "false" || s == "off");
}

uint64_t number(const char* name, uint64_t fallback, std::string& problems) {
    const char* v = env(name);
    if (!v) return fallback;
    char* end = nullptr;
    const double d = std::strtod(v, &end);
    if (end == v || *end != '\0' || d < 0) {
        problems += std::string(name) + "=" + v + " is not a non-negative number; using the default\n";
        return fallback;
    }
    return static_cast<uint64_t>(d);
}

}  // namespace

Options options_from_environment(std::string& problems) {
    Options o;
    if (const char* d = env("WARPSIM_DEVICE")) o.device = d;
    if (const char* r = env("WARPSIM_REPORT")) o.report_dir = r;
    o.check = flag("WARPSIM_CHECK", false);
    o.quiet = flag("WARPSIM_QUIET", false);
    o.reuse = flag("WARPSIM_REUSE", true);
    o.workers = static_cast<uint32_t>(number("WARPSIM_THREADS", 0, problems));
    o.max_instructions = number("WARPSIM_MAX_INSTRUCTIONS", o.max_instructions, problems);
    return o;
}

}  // namespace warpsim::runtime
