// sim/runtime/program_inspect.cpp — a minimal ELF64 reader: section headers, the dynamic section's DT_NEEDED,
// and the fatbinary sections (.nv_fatbin, __nv_relfatbin) parsed with fatbin.hpp.
#include "sim/runtime/program_inspect.hpp"

#include <elf.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string_view>

#include "sim/runtime/fatbin.hpp"

namespace warpsim::runtime {
namespace {

template <class T>
bool load(const std::string& bytes, uint64_t off, T& out) {
    if (off > bytes.size() || sizeof(T) > bytes.size() - off) return false;
    std::memcpy(&out, bytes.data() + off, sizeof(T));
    return true;
}

struct Section {
    std::string name;
    Elf64_Shdr header{};
};

std::vector<Section> sections(const std::string& bytes) {
    std::vector<Section> out;
    Elf64_Ehdr eh{};
    if (!load(bytes, 0, eh) || eh.e_shentsize != sizeof(Elf64_Shdr)) return out;
    std::vector<Elf64_Shdr> headers(eh.e_shnum);
    for (uint16_t i = 0; i < eh.e_shnum; ++i)
        if (!load(bytes, eh.e_shoff + uint64_t(i) * sizeof(Elf64_Shdr), headers[i])) return {};
    if (eh.e_shstrndx >= headers.size()) return out;
    const auto& names = headers[eh.e_shstrndx];
    for (const auto& h : headers) {
        Section s;
        s.header = h;
        const uint64_t at = names.sh_offset + h.sh_name;
        if (at < bytes.size())
            s.name = std::string(bytes.c_str() + at, strnlen(bytes.c_str() + at, bytes.size() - at));
        out.push_back(std::move(s));
    }
    return out;
}

void read_fatbins(const std::string& bytes, const Elf64_Shdr& h, ProgramInfo& info) {
    if (h.sh_type == SHT_NOBITS || h.sh_offset > bytes.size() || h.sh_size > bytes.size() - h.sh_offset)
        return;
    const auto* p = reinterpret_cast<const uint8_t*>(bytes.data() + h.sh_offset);
    uint64_t off = 0;
    while (off + 16 <= h.sh_size) {
        const FatbinContents c = read_fatbin(p + off, h.sh_size - off);
        if (!c.error.empty() || c.size == 0) {
            off += 8;  // containers are 8-byte aligned; skip padding between them
            continue;
        }
        for (const auto& e : c.entries) {
            if (e.kind == FatbinEntry::Kind::ptx) info.ptx_archs.push_back(e.arch);
            if (e.kind == FatbinEntry::Kind::elf) info.sass_archs.push_back(e.arch);
        }
        off += (c.size + 7) / 8 * 8;
    }
}

}  // namespace

ProgramInfo inspect_program(const std::string& path) {
    ProgramInfo info;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        info.error = "cannot read " + path;
        return info;
    }
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.size() < sizeof(Elf64_Ehdr) || std::memcmp(bytes.data(), ELFMAG, SELFMAG) != 0 ||
        bytes[EI_CLASS] != ELFCLASS64) {
        info.kind = ProgramInfo::Kind::not_elf;
        return info;
    }
    const auto secs = sections(bytes);
    bool has_fatbin = false;
    const Section* dynamic = nullptr;
    for (const auto& s : secs) {
        if (s.name == ".nv_fatbin" || s.name == "__nv_relfatbin") {
            has_fatbin = true;
            read_fatbins(bytes, s.header, info);
            if (s.name == "__nv_relfatbin") info.relocatable = true;
        }
        if (s.name == ".nvFatBinSegment") has_fatbin = true;
        if (s.header.sh_type == SHT_DYNAMIC) dynamic = &s;
    }
    if (dynamic && dynamic->header.sh_link < secs.size()) {
        const auto& strtab = secs[dynamic->header.sh_link].header;
        for (uint64_t off = 0; off + sizeof(Elf64_Dyn) <= dynamic->header.sh_size; off += sizeof(Elf64_Dyn)) {
            Elf64_Dyn d{};
            if (!load(bytes, dynamic->header.sh_offset + off, d) || d.d_tag == DT_NULL) break;
            if (d.d_tag != DT_NEEDED) continue;
            const uint64_t at = strtab.sh_offset + d.d_un.d_val;
            if (at >= bytes.size()) continue;
            const std::string_view name(bytes.c_str() + at);
            constexpr std::string_view prefix = "libcudart.so.";
            if (name.substr(0, prefix.size()) == prefix) {
                info.kind = ProgramInfo::Kind::shared_cudart;
                info.cudart_major = std::atoi(std::string(name.substr(prefix.size())).c_str());
            }
        }
    }
    for (auto* archs : {&info.ptx_archs, &info.sass_archs}) {
        std::sort(archs->begin(), archs->end());
        archs->erase(std::unique(archs->begin(), archs->end()), archs->end());
    }
    if (info.kind != ProgramInfo::Kind::shared_cudart)
        info.kind = has_fatbin ? ProgramInfo::Kind::static_cudart : ProgramInfo::Kind::no_cuda;
    return info;
}

}  // namespace warpsim::runtime
