// sim/sass/cubin.hpp — the parts of a cubin (the ELF file ptxas writes) that the SASS decoder reads: the
// sections, the symbol table, and the line table ptxas -lineinfo writes into .nv_debug_line_sass, which maps
// every SASS instruction to the PTX line it was compiled from.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::sass {

struct CubinSection {
    std::string name;
    uint64_t flags = 0, offset = 0, size = 0;
    uint32_t type = 0;
    bool executable() const { return (flags & 4) != 0; }  // SHF_EXECINSTR
};

struct CubinSymbol {
    uint16_t section = 0;
    uint64_t value = 0;
};

// A cubin read in place: `bytes` must outlive it.
struct Cubin {
    std::string_view bytes;
    std::vector<CubinSection> sections;
    std::vector<CubinSymbol> symbols;

    std::string_view data(const CubinSection& s) const { return bytes.substr(s.offset, s.size); }
    const CubinSection* find(std::string_view name) const;
};

// The sections and symbols of a 64-bit little-endian ELF; nullopt with `error` set when it is none or
// its headers point outside the bytes.
std::optional<Cubin> read_cubin(std::string_view bytes, std::string& error);

// One row of the SASS line table: from `address` of section `section` on, instructions come from PTX line
// `line`.
struct LineRow {
    int section = -1;
    uint64_t address = 0;
    uint32_t line = 0;
};

// The rows of .nv_debug_line_sass (DWARF 2-4 line programs; addresses relocated to their .text section),
// sorted by section and address. Empty when the cubin has no such section (ptxas without -lineinfo); false
// with `error` set when the table is malformed.
bool read_ptx_line_table(const Cubin& cubin, std::vector<LineRow>& rows, std::string& error);

// The PTX line of the instruction at `address` of `section`: the last row at or before it (0: none).
// `rows` as read_ptx_line_table returns them.
uint32_t ptx_line_at(const std::vector<LineRow>& rows, int section, uint64_t address);

}  // namespace warpsim::sass
