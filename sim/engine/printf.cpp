// sim/engine/printf.cpp — device printf: the format string from guest memory, arguments from the packed
// buffer, formatted with the host's snprintf one conversion at a time (never with guest-controlled varargs).
#include "sim/engine/printf.hpp"

#include <cstdio>
#include <cstring>

#include "sim/engine/handler_util.hpp"
#include "sim/memory/address_map.hpp"

namespace warpsim::engine {

bool read_guest(Exec& x, uint32_t lane, uint64_t addr, void* out, std::size_t n) {
    const uint8_t* p = nullptr;
    switch (memory::classify_generic(addr)) {
    case memory::GenericSpace::shared: {
        const uint64_t off = addr - memory::kSharedWindow;
        const auto& sh = x.block->shared;
        if (off <= sh.size() && n <= sh.size() - off) p = sh.data() + off;
        break;
    }
    case memory::GenericSpace::local: {
        const uint64_t off = addr - memory::kLocalWindow;
        const auto& st = x.warp->local[lane];
        if (off <= st.size() && n <= st.size() - off) p = st.data() + off;
        break;
    }
    default: p = x.launch->memory->translate(addr, n);
    }
    if (!p) return false;
    std::memcpy(out, p, n);
    return true;
}

std::string read_guest_string(Exec& x, uint64_t addr, uint32_t lane) {
    std::string s;
    for (std::size_t i = 0; i < 4096; ++i) {
        char c = 0;
        if (!read_guest(x, lane, addr + i, &c, 1) || c == 0) break;
        s.push_back(c);
    }
    return s;
}

namespace {

struct Conversion {
    std::string spec;   // "%-8.3f" with the length modifier removed
    char conv = 0;
    uint32_t arg_bytes = 0;
};

// Parses one conversion starting at format[i] == '%'; advances i past it.
Conversion parse_conversion(const std::string& f, std::size_t& i) {
    Conversion c;
    std::size_t j = i + 1;
    std::string flags_width;
    while (j < f.size() && std::strchr("-+ #0123456789.*", f[j])) flags_width.push_back(f[j++]);
    std::string len;
    while (j < f.size() && std::strchr("hlLqjzt", f[j])) len.push_back(f[j++]);
    c.conv = j < f.size() ? f[j] : 0;
    i = j + 1;
    const bool wide = len == "l" || len == "ll" || len == "j" || len == "z" || len == "t" || len == "q";
    switch (c.conv) {
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'c':
        c.arg_bytes = wide ? 8 : 4;
        c.spec = "%" + flags_width + (wide ? "ll" : "") + c.conv;
        break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
        c.arg_bytes = 8;
        c.spec = "%" + flags_width + c.conv;
        break;
    case 's': case 'p':
        c.arg_bytes = 8;
        c.spec = "%" + flags_width + c.conv;
        break;
    default: c.spec = "%" + flags_width + len + std::string(1, c.conv); c.arg_bytes = 0;
    }
    return c;
}

}  // namespace

std::string format_device_printf(const std::string& f, const uint8_t* args, std::size_t args_size) {
    std::string out;
    std::size_t off = 0;
    char buf[512];
    for (std::size_t i = 0; i < f.size();) {
        if (f[i] != '%') { out.push_back(f[i++]); continue; }
        if (i + 1 < f.size() && f[i + 1] == '%') { out.push_back('%'); i += 2; continue; }
        Conversion c = parse_conversion(f, i);
        if (c.spec.find('*') != std::string::npos || c.arg_bytes == 0) { out += c.spec; continue; }
        off = (off + c.arg_bytes - 1) / c.arg_bytes * c.arg_bytes;
        uint64_t raw = 0;
        if (off + c.arg_bytes <= args_size) std::memcpy(&raw, args + off, c.arg_bytes);
        off += c.arg_bytes;
        switch (c.conv) {
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
            double d;
            std::memcpy(&d, &raw, 8);
            std::snprintf(buf, sizeof buf, c.spec.c_str(), d);
            break;
        }
        case 's': std::snprintf(buf, sizeof buf, "%s", "<string>"); break;  // replaced by the caller
        case 'p': std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(raw)); break;
        case 'd': case 'i':
            if (c.arg_bytes == 8) std::snprintf(buf, sizeof buf, c.spec.c_str(), static_cast<long long>(raw));
            else std::snprintf(buf, sizeof buf, c.spec.c_str(), static_cast<int>(static_cast<int32_t>(raw)));
            break;
        default:
            if (c.arg_bytes == 8) std::snprintf(buf, sizeof buf, c.spec.c_str(), static_cast<unsigned long long>(raw));
            else std::snprintf(buf, sizeof buf, c.spec.c_str(), static_cast<unsigned>(raw));
        }
        out += buf;
    }
    return out;
}

namespace {

// Like format_device_printf, but %s arguments are read from guest memory; `arguments` counts the
// conversions that took an argument.
std::string format_lane(Exec& x, uint32_t lane, const std::string& f, uint64_t args_addr, int32_t& arguments) {
    std::string out;
    arguments = 0;
    std::size_t off = 0;
    for (std::size_t i = 0; i < f.size();) {
        if (f[i] != '%') { out.push_back(f[i++]); continue; }
        if (i + 1 < f.size() && f[i + 1] == '%') { out.push_back('%'); i += 2; continue; }
        const std::size_t start = i;
        Conversion c = parse_conversion(f, i);
        if (c.arg_bytes == 0 || c.spec.find('*') != std::string::npos) { out += f.substr(start, i - start); continue; }
        ++arguments;
        off = (off + c.arg_bytes - 1) / c.arg_bytes * c.arg_bytes;
        uint8_t raw[8] = {};
        if (args_addr) read_guest(x, lane, args_addr + off, raw, c.arg_bytes);
        off += c.arg_bytes;
        if (c.conv == 's') {
            uint64_t p = 0;
            std::memcpy(&p, raw, 8);
            std::string s = p ? read_guest_string(x, p, lane) : "(null)";
            char buf[4200];
            std::snprintf(buf, sizeof buf, c.spec.c_str(), s.c_str());
            out += buf;
        } else {
            out += format_device_printf(c.spec, raw, c.arg_bytes);
        }
    }
    return out;
}

}  // namespace

void exec_vprintf(Exec& x, const DInst& in, uint32_t exec) {
    const CallSite& cs = x.frame->code->calls[in.aux];
    for_lanes(exec, [&](uint32_t l) {
        auto arg = [&](std::size_t i) -> uint64_t {
            if (i >= cs.args.size()) return 0;
            if (cs.args[i].from_reg) return x.R[cs.args[i].reg * 32 + l];
            uint64_t v = 0;
            std::memcpy(&v, x.warp->params[l].data() + x.frame->param_base + cs.args[i].caller_off, 8);
            return v;
        };
        // CUDA's printf returns the number of arguments it parsed (0 without any), -1 for a null format
        // (CUDA C++ Programming Guide, "Formatted Output"; the H200 returned 3, 8 and 0: tests/programs,
        // device_printf), not the byte count of C's printf.
        int32_t n = -1;
        if (const uint64_t format_addr = arg(0)) {
            std::string text = format_lane(x, l, read_guest_string(x, format_addr, l), arg(1), n);
            x.block->printf_records.push_back({x.warp->index, x.block->printf_seq++, std::move(text)});
        }
        if (!cs.rets.empty() && !cs.rets[0].from_reg) {
            std::memcpy(x.warp->params[l].data() + x.frame->param_base + cs.rets[0].caller_off, &n, 4);
        }
    });
}

}  // namespace warpsim::engine
