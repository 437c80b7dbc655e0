// sim/sass/cubin.cpp — reads a cubin's sections, symbols and SASS line table (.nv_debug_line_sass).
#include "sim/sass/cubin.hpp"

#include <algorithm>
#include <map>

namespace warpsim::sass {

namespace {

// Little-endian reads that fail (return false) past the end instead of reading outside the bytes.
struct Reader {
    std::string_view bytes;
    std::size_t pos = 0;
    bool ok = true;

    uint64_t fixed(std::size_t n) {
        if (pos + n > bytes.size()) {
            ok = false;
            pos = bytes.size();
            return 0;
        }
        uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i)
            v |= uint64_t(static_cast<unsigned char>(bytes[pos + i])) << (8 * i);
        pos += n;
        return v;
    }
    uint64_t uleb() {
        uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            uint64_t b = fixed(1);
            if (!ok) return 0;
            v |= (b & 0x7f) << shift;
            if (!(b & 0x80)) return v;
        }
        ok = false;
        return 0;
    }
    int64_t sleb() {
        int64_t v = 0;
        int shift = 0;
        uint64_t b = 0;
        do {
            b = fixed(1);
            if (!ok) return 0;
            v |= int64_t(b & 0x7f) << shift;
            shift += 7;
        } while ((b & 0x80) && shift < 64);
        if (shift < 64 && (b & 0x40)) v |= -(int64_t(1) << shift);
        return v;
    }
    void skip_string() {
        while (pos < bytes.size() && bytes[pos] != '\0') ++pos;
        fixed(1);
    }
};

// The section a DW_LNE_set_address operand at `pos` of the line section points into: its relocation's symbol.
int relocated_section(const Cubin& elf, const std::map<uint64_t, std::pair<uint32_t, int64_t>>& relocs,
                      uint64_t pos, uint64_t& address) {
    auto it = relocs.find(pos);
    if (it == relocs.end() || it->second.first >= elf.symbols.size()) return -1;
    const CubinSymbol& sym = elf.symbols[it->second.first];
    address += sym.value + static_cast<uint64_t>(it->second.second);
    return sym.section;
}

struct LineHeader {
    std::size_t unit_end = 0, program = 0;
    uint64_t min_len = 1, line_range = 1, opcode_base = 1;
    int8_t line_base = 0;
    std::vector<uint64_t> arg_count;  // operands of each standard opcode
};

// The header of one line-number unit (DWARF 2-4, 32- or 64-bit offsets); false when unsupported or cut off.
bool read_line_header(Reader& r, LineHeader& h) {
    uint64_t unit_length = r.fixed(4);
    std::size_t offset_size = 4;
    if (unit_length == 0xffffffffu) {
        unit_length = r.fixed(8);
        offset_size = 8;
    }
    h.unit_end = r.pos + unit_length;
    uint64_t version = r.fixed(2);
    uint64_t header_length = r.fixed(offset_size);
    h.program = r.pos + header_length;
    h.min_len = r.fixed(1);
    if (version >= 4) r.fixed(1);  // maximum_operations_per_instruction
    r.fixed(1);                    // default_is_stmt
    h.line_base = static_cast<int8_t>(r.fixed(1));
    h.line_range = r.fixed(1);
    h.opcode_base = r.fixed(1);
    h.arg_count.assign(h.opcode_base > 0 ? h.opcode_base - 1 : 0, 0);
    for (auto& a : h.arg_count) a = r.fixed(1);
    return r.ok && h.unit_end <= r.bytes.size() && version >= 2 && version <= 4 && h.line_range != 0 &&
           h.opcode_base != 0;
}

// Runs one unit's line program, appending a row for every row the program emits.
void run_line_program(Reader& r, const LineHeader& h, const Cubin& elf,
                      const std::map<uint64_t, std::pair<uint32_t, int64_t>>& relocs, int only_text,
                      std::vector<LineRow>& rows) {
    const LineRow start{only_text >= 0 ? only_text : -1, 0, 1};
    LineRow row = start;
    r.pos = h.program;
    while (r.ok && r.pos < h.unit_end) {
        uint64_t op = r.fixed(1);
        if (op >= h.opcode_base) {  // special opcode: advance address and line, emit a row
            uint64_t adj = op - h.opcode_base;
            row.address += (adj / h.line_range) * h.min_len;
            row.line = static_cast<uint32_t>(int64_t(row.line) + h.line_base + int64_t(adj % h.line_range));
            rows.push_back(row);
        } else if (op == 0) {  // extended opcode
            uint64_t len = r.uleb();
            std::size_t next = r.pos + len;
            uint64_t sub = len > 0 ? r.fixed(1) : 0;
            if (sub == 1) {  // end_sequence
                rows.push_back(row);
                row = start;
            } else if (sub == 2) {  // set_address, relocated against the function's section
                uint64_t at = r.pos;
                row.address = r.fixed(len - 1);
                int sec = relocated_section(elf, relocs, at, row.address);
                if (sec >= 0) row.section = sec;
            }
            r.pos = next;
        } else if (op == 1) {  // copy
            rows.push_back(row);
        } else if (op == 2) {  // advance_pc
            row.address += r.uleb() * h.min_len;
        } else if (op == 3) {  // advance_line
            row.line = static_cast<uint32_t>(int64_t(row.line) + r.sleb());
        } else if (op == 8) {  // const_add_pc
            row.address += ((255 - h.opcode_base) / h.line_range) * h.min_len;
        } else if (op == 9) {  // fixed_advance_pc
            row.address += r.fixed(2);
        } else {
            for (uint64_t k = 0; k < h.arg_count[op - 1]; ++k) r.uleb();
        }
    }
}

}  // namespace

const CubinSection* Cubin::find(std::string_view name) const {
    for (const auto& s : sections)
        if (s.name == name) return &s;
    return nullptr;
}

std::optional<Cubin> read_cubin(std::string_view bytes, std::string& error) {
    if (bytes.size() < 64 ||
        bytes.substr(0, 4) !=
            "\x7f"
            "ELF" ||
        bytes[4] != 2 || bytes[5] != 1) {
        error = "not a 64-bit little-endian ELF file (a cubin from ptxas is one)";
        return std::nullopt;
    }
    Reader r{bytes, 0x28};
    uint64_t shoff = r.fixed(8);
    r.pos = 0x3a;
    uint64_t shentsize = r.fixed(2), shnum = r.fixed(2), shstrndx = r.fixed(2);
    if (shentsize < 64 || shoff + shnum * shentsize > bytes.size() || shstrndx >= shnum) {
        error = "section headers outside the file";
        return std::nullopt;
    }
    Cubin elf;
    elf.bytes = bytes;
    std::vector<uint32_t> name_at(shnum);
    for (uint64_t i = 0; i < shnum; ++i) {
        r.pos = shoff + i * shentsize;
        CubinSection s;
        name_at[i] = static_cast<uint32_t>(r.fixed(4));
        s.type = static_cast<uint32_t>(r.fixed(4));
        s.flags = r.fixed(8);
        r.fixed(8);
        s.offset = r.fixed(8);
        s.size = r.fixed(8);
        if (s.type != 8 /* SHT_NOBITS */ && s.offset + s.size > bytes.size()) {
            error = "section " + std::to_string(i) + " lies outside the file";
            return std::nullopt;
        }
        if (s.type == 8) s.size = 0;
        elf.sections.push_back(s);
    }
    std::string_view names = elf.data(elf.sections[shstrndx]);
    for (uint64_t i = 0; i < shnum; ++i) {
        if (name_at[i] >= names.size()) continue;
        auto end = names.find('\0', name_at[i]);
        elf.sections[i].name = std::string(names.substr(name_at[i], end - name_at[i]));
    }
    if (const CubinSection* symtab = elf.find(".symtab")) {
        Reader s{elf.data(*symtab)};
        while (s.pos + 24 <= s.bytes.size()) {
            s.fixed(6);
            CubinSymbol sym;
            sym.section = static_cast<uint16_t>(s.fixed(2));
            sym.value = s.fixed(8);
            s.fixed(8);
            elf.symbols.push_back(sym);
        }
    }
    return elf;
}

bool read_ptx_line_table(const Cubin& elf, std::vector<LineRow>& rows, std::string& error) {
    const CubinSection* lines = elf.find(".nv_debug_line_sass");
    if (!lines) return true;                                  // no -lineinfo: every access gets line 0
    std::map<uint64_t, std::pair<uint32_t, int64_t>> relocs;  // offset -> (symbol, addend)
    if (const CubinSection* rela = elf.find(".rela.nv_debug_line_sass")) {
        Reader r{elf.data(*rela)};
        while (r.pos + 24 <= r.bytes.size()) {
            uint64_t off = r.fixed(8), info = r.fixed(8);
            relocs[off] = {static_cast<uint32_t>(info >> 32), static_cast<int64_t>(r.fixed(8))};
        }
    }
    int only_text = -1;  // the one .text section, if there is only one (-2: several)
    for (std::size_t i = 0; i < elf.sections.size(); ++i)
        if (elf.sections[i].name.rfind(".text.", 0) == 0) only_text = only_text == -1 ? int(i) : -2;
    Reader r{elf.data(*lines)};
    while (r.ok && r.pos < r.bytes.size()) {
        LineHeader h;
        if (!read_line_header(r, h)) {
            error = ".nv_debug_line_sass: unsupported or truncated line table header";
            return false;
        }
        run_line_program(r, h, elf, relocs, only_text, rows);
        if (!r.ok) {
            error = ".nv_debug_line_sass: truncated line program";
            return false;
        }
        r.pos = h.unit_end;
    }
    std::stable_sort(rows.begin(), rows.end(), [](const LineRow& a, const LineRow& b) {
        return a.section != b.section ? a.section < b.section : a.address < b.address;
    });
    return true;
}

uint32_t ptx_line_at(const std::vector<LineRow>& rows, int section, uint64_t address) {
    // The last row of `section` at or before `address`; rows at the same address: the last one wins, as
    // a line program's later row for one address supersedes the earlier.
    auto it = std::upper_bound(rows.begin(), rows.end(), std::pair<int, uint64_t>(section, address),
                               [](const std::pair<int, uint64_t>& key, const LineRow& row) {
                                   return key.first != row.section ? key.first < row.section
                                                                   : key.second < row.address;
                               });
    if (it == rows.begin()) return 0;
    --it;
    return it->section == section ? it->line : 0;
}

}  // namespace warpsim::sass
