// sim/engine/printf.cpp — device printf: the format string from guest memory, arguments from the packed
// buffer, formatted with the host's snprintf one conversion at a time (never with guest-controlled varargs).
#include "sim/engine/printf.hpp"

#include <algorithm>
#include <charconv>
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
        default:
            p = x.launch->memory->translate(addr, n);
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
    std::string spec;  // "%-8.3f" with the length modifier removed
    char conv = 0;
    uint32_t arg_bytes = 0;
    bool too_wide = false;  // a width or precision above kMaxPrintfField: printed as written
};

// Whether any number in the flags/width/precision text exceeds kMaxPrintfField.
bool field_too_wide(std::string_view flags_width) {
    for (std::size_t i = 0; i < flags_width.size();) {
        if (flags_width[i] < '0' || flags_width[i] > '9') {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < flags_width.size() && flags_width[j] >= '0' && flags_width[j] <= '9') ++j;
        uint64_t v = 0;
        auto [ptr, ec] = std::from_chars(flags_width.data() + i, flags_width.data() + j, v);
        (void)ptr;
        if (ec != std::errc() || v > kMaxPrintfField) return true;
        i = j;
    }
    return false;
}

// snprintf of one conversion into `out`, however long the result (bounded by kMaxPrintfField).
template <class T>
void append_formatted(std::string& out, const char* spec, T value) {
    char small[128];
    int n = std::snprintf(small, sizeof small, spec, value);
    if (n < 0) return;
    if (static_cast<std::size_t>(n) < sizeof small) {
        out.append(small, static_cast<std::size_t>(n));
        return;
    }
    const std::size_t at = out.size();
    out.resize(at + static_cast<std::size_t>(n) + 1);
    std::snprintf(out.data() + at, static_cast<std::size_t>(n) + 1, spec, value);
    out.resize(at + static_cast<std::size_t>(n));
}

// Parses one conversion starting at format[i] == '%'; advances i past it.
Conversion parse_conversion(const std::string& f, std::size_t& i) {
    Conversion c;
    std::size_t j = i + 1;
    std::string flags_width;
    while (j < f.size() && std::strchr("-+ #0123456789.*", f[j])) flags_width.push_back(f[j++]);
    std::string len;
    while (j < f.size() && std::strchr("hlLqjzt", f[j])) len.push_back(f[j++]);
    c.conv = j < f.size() ? f[j] : 0;
    c.too_wide = field_too_wide(flags_width);
    i = j + 1;
    const bool wide = len == "l" || len == "ll" || len == "j" || len == "z" || len == "t" || len == "q";
    switch (c.conv) {
        case 'd':
        case 'i':
        case 'u':
        case 'x':
        case 'X':
        case 'o':
        case 'c':
            c.arg_bytes = wide ? 8 : 4;
            c.spec = "%" + flags_width + (wide ? "ll" : "") + c.conv;
            break;
        case 'f':
        case 'F':
        case 'e':
        case 'E':
        case 'g':
        case 'G':
        case 'a':
        case 'A':
        case 's':  // a pointer, 8 bytes like a double
        case 'p':
            c.arg_bytes = 8;
            c.spec = "%" + flags_width + c.conv;
            break;
        default:
            c.spec = "%" + flags_width + len + std::string(1, c.conv);
            c.arg_bytes = 0;
    }
    return c;
}

}  // namespace

std::string format_device_printf(const std::string& f, const uint8_t* args, std::size_t args_size) {
    std::string out;
    std::size_t off = 0;
    for (std::size_t i = 0; i < f.size();) {
        if (f[i] != '%') {
            out.push_back(f[i++]);
            continue;
        }
        if (i + 1 < f.size() && f[i + 1] == '%') {
            out.push_back('%');
            i += 2;
            continue;
        }
        const std::size_t start = i;
        Conversion c = parse_conversion(f, i);
        if (c.spec.find('*') != std::string::npos || c.arg_bytes == 0) {
            out += c.spec;
            continue;
        }
        off = (off + c.arg_bytes - 1) / c.arg_bytes * c.arg_bytes;
        uint64_t raw = 0;
        if (off + c.arg_bytes <= args_size) std::memcpy(&raw, args + off, c.arg_bytes);
        off += c.arg_bytes;
        if (c.too_wide) {  // the argument is consumed, the conversion printed as written
            out.append(f, start, std::min(i, f.size()) - start);
            continue;
        }
        const char* spec = c.spec.c_str();
        switch (c.conv) {
            case 'f':
            case 'F':
            case 'e':
            case 'E':
            case 'g':
            case 'G':
            case 'a':
            case 'A': {
                double d;
                std::memcpy(&d, &raw, 8);
                append_formatted(out, spec, d);
                break;
            }
            case 's':
                out += "<string>";
                break;  // replaced by the caller
            case 'p':
                append_formatted(out, "0x%llx", static_cast<unsigned long long>(raw));
                break;
            case 'd':
            case 'i':
                if (c.arg_bytes == 8)
                    append_formatted(out, spec, static_cast<long long>(raw));
                else
                    append_formatted(out, spec, static_cast<int>(static_cast<int32_t>(raw)));
                break;
            default:
                if (c.arg_bytes == 8)
                    append_formatted(out, spec, static_cast<unsigned long long>(raw));
                else
                    append_formatted(out, spec, static_cast<unsigned>(raw));
        }
    }
    return out;
}

namespace {

// Like format_device_printf, but %s arguments are read from guest memory; `arguments` counts the
// conversions that took an argument.
std::string format_lane(Exec& x, uint32_t lane, const std::string& f, uint64_t args_addr,
                        int32_t& arguments) {
    std::string out;
    arguments = 0;
    std::size_t off = 0;
    for (std::size_t i = 0; i < f.size();) {
        if (f[i] != '%') {
            out.push_back(f[i++]);
            continue;
        }
        if (i + 1 < f.size() && f[i + 1] == '%') {
            out.push_back('%');
            i += 2;
            continue;
        }
        const std::size_t start = i;
        Conversion c = parse_conversion(f, i);
        if (c.arg_bytes == 0 || c.spec.find('*') != std::string::npos) {
            out += f.substr(start, i - start);
            continue;
        }
        ++arguments;
        off = (off + c.arg_bytes - 1) / c.arg_bytes * c.arg_bytes;
        uint8_t raw[8] = {};
        if (args_addr) read_guest(x, lane, args_addr + off, raw, c.arg_bytes);
        off += c.arg_bytes;
        if (c.conv == 's') {
            uint64_t p = 0;
            std::memcpy(&p, raw, 8);
            std::string s = p ? read_guest_string(x, p, lane) : "(null)";
            if (c.too_wide) {
                out += f.substr(start, i - start);
            } else {
                append_formatted(out, c.spec.c_str(), s.c_str());
            }
        } else {
            out += format_device_printf(c.spec, raw, c.arg_bytes);
        }
    }
    return out;
}

}  // namespace

void exec_vprintf(Exec& x, const DInst& in, uint32_t exec) {
    const CallSite& cs = x.frame->code->calls[in.call_site];
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
            const std::string format = read_guest_string(x, format_addr, l);
            std::string text = format_lane(x, l, format, arg(1), n);
            // The formatting is work the instruction budget pays for: one thread-instruction a byte read or
            // made.
            x.launch->budget_used->fetch_add(format.size() + text.size(), std::memory_order_relaxed);
            x.block->printf_bytes += text.size();
            x.block->printf_records.push_back({x.warp->index, x.block->printf_seq++, std::move(text)});
            if (x.block->printf_bytes > 2 * x.launch->cfg->printf_fifo_bytes) {
                trim_block_printf(*x.block, x.launch->cfg->printf_fifo_bytes);
            }
        }
        if (!cs.rets.empty() && !cs.rets[0].from_reg) {
            std::memcpy(x.warp->params[l].data() + x.frame->param_base + cs.rets[0].caller_off, &n, 4);
        }
    });
}

void trim_block_printf(BlockContext& b, uint64_t capacity) {
    auto& records = b.printf_records;
    std::stable_sort(records.begin(), records.end(),
                     [](const PrintfRecord& x, const PrintfRecord& z) { return x.warp < z.warp; });
    std::size_t drop = 0;
    while (drop < records.size() && b.printf_bytes > capacity) {
        b.printf_bytes -= records[drop].text.size();
        b.printf_dropped_bytes += records[drop].text.size();
        ++drop;
    }
    b.printf_dropped_records += drop;
    records.erase(records.begin(), records.begin() + static_cast<std::ptrdiff_t>(drop));
}

void PrintfFifo::push(std::string text) {
    bytes_ += text.size();
    records_.push_back(std::move(text));
    trim();
}

void PrintfFifo::append(PrintfFifo&& later) {
    for (auto& r : later.records_) {
        bytes_ += r.size();
        records_.push_back(std::move(r));
    }
    dropped_records_ += later.dropped_records_;
    dropped_bytes_ += later.dropped_bytes_;
    later.records_.clear();
    later.bytes_ = 0;
    trim();
}

void PrintfFifo::trim() {
    while (bytes_ > capacity_ && !records_.empty()) {
        bytes_ -= records_.front().size();
        dropped_bytes_ += records_.front().size();
        ++dropped_records_;
        records_.pop_front();
    }
}

std::string PrintfFifo::text() const {
    std::string out;
    out.reserve(bytes_);
    for (const auto& r : records_) out += r;
    return out;
}

}  // namespace warpsim::engine
