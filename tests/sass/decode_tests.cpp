// tests/sass/decode_tests.cpp — the SASS decoder (sim/sass) against nvdisasm: every instruction of every
// cubin of tests/sass/corpus (made here by ptxas from the project's PTX, disassembled on the H200 machine
// with nvdisasm -hex -gp, see tests/sass/README.md) must have nvdisasm's opcode, guard predicate, PTX line,
// branch target, and, for loads and stores, its width, data and address registers and address offset.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "sim/sass/decode.hpp"

using namespace warpsim::sass;
namespace fs = std::filesystem;

namespace {

const fs::path kCorpus = fs::path(WARPSIM_SOURCE_DIR) / "tests/sass/corpus";

std::string read_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// One instruction as nvdisasm lists it.
struct Listed {
    uint32_t offset = 0;
    uint64_t lo = 0;
    std::string text;       // "@!P0 LDS.128 R8, [R16+0x10]"
    uint32_t ptx_line = 0;  // from the last "//## File ..., line N" before it in its section
    std::string label;      // the `(.L_x_N) operand, if any
};

struct ListedFunction {
    std::vector<Listed> code;
    std::map<std::string, uint32_t> labels;  // label -> offset of the instruction after it
};

// Parses an nvdisasm -hex -gp listing (blank runs squeezed, see README.md).
std::map<std::string, ListedFunction> parse_listing(const std::string& text) {
    std::map<std::string, ListedFunction> out;
    ListedFunction* f = nullptr;
    uint32_t line = 0;
    std::vector<std::string> pending;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        if (l.rfind(".section .text.", 0) == 0) {
            f = &out[l.substr(15, l.find(',') - 15)];
            line = 0;
            pending.clear();
        } else if (!f) {
            continue;
        } else if (auto at = l.find("//## File "); at != std::string::npos) {
            line = static_cast<uint32_t>(std::stoul(l.substr(l.rfind("line ") + 5)));
        } else if (l.rfind(".L_x_", 0) == 0 && l.back() == ':') {
            pending.push_back(l.substr(0, l.size() - 1));
        } else if (l.rfind("/*", 0) == 0 && l.size() > 8 && l[6] == '*') {
            Listed inst;
            inst.offset = static_cast<uint32_t>(std::stoul(l.substr(2, 4), nullptr, 16));
            const auto semi = l.rfind(" ; /* 0x");
            const auto hex = l.rfind("/* 0x");
            inst.text = l.substr(8, (semi != std::string::npos ? semi : hex) - 8);
            inst.text.erase(0, inst.text.find_first_not_of(" "));
            while (!inst.text.empty() && (inst.text.back() == ' ' || inst.text.back() == ';'))
                inst.text.pop_back();
            inst.lo = std::stoull(l.substr(hex + 5, 16), nullptr, 16);
            inst.ptx_line = line;
            if (auto b = inst.text.find("`(.L_x_"); b != std::string::npos)
                inst.label = inst.text.substr(b + 2, inst.text.find(')', b) - b - 2);
            for (const auto& p : pending) f->labels[p] = inst.offset;
            pending.clear();
            f->code.push_back(inst);
        }
    }
    return out;
}

std::vector<std::string> split_operands(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    int depth = 0;
    for (char c : s) {
        if (c == '[') ++depth;
        if (c == ']') --depth;
        if (c == ',' && depth == 0) {
            out.push_back(cur);
            cur.clear();
            continue;
        }
        if (c != ' ' || !cur.empty()) cur += c;
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

// "R12" -> 12, "RZ" -> 255; -1 for anything else.
int reg_of(const std::string& s) {
    if (s == "RZ") return 255;
    if (s.size() < 2 || s[0] != 'R' || !std::isdigit(static_cast<unsigned char>(s[1]))) return -1;
    std::size_t end = 0;
    int r = std::stoi(s.substr(1), &end);
    return end + 1 == s.size() ? r : -1;
}

// The differences between a decoded instruction and nvdisasm's, as text (empty: none).
std::vector<std::string> compare(const Instruction& got, const Listed& want, const ListedFunction& lf) {
    std::vector<std::string> diff;
    std::string text = want.text;
    bool negated = false, uniform = false;
    int guard = 7;
    if (text[0] == '@') {
        std::size_t p = 1;
        if (text[p] == '!') negated = true, ++p;
        if (text[p] == 'U') uniform = true, ++p;
        ++p;  // 'P'
        guard = text[p] == 'T' ? 7 : text[p] - '0';
        text = text.substr(text.find(' ') + 1);
    }
    const std::string opcode = text.substr(0, text.find(' '));
    const std::string mnemonic = opcode.substr(0, opcode.find('.'));
    if (got.lo != want.lo) diff.push_back(fmt::format("encoding {:016x} vs {:016x}", got.lo, want.lo));
    if (got.mnemonic() != mnemonic)
        diff.push_back(fmt::format("mnemonic {} vs {}", got.mnemonic(), mnemonic));
    if (got.guard != guard || got.guard_negated != negated ||
        (got.op && !got.always() && got.op->uniform_guard != uniform))
        diff.push_back(fmt::format("guard {}{} vs {}", got.guard_negated ? "!" : "", got.guard, want.text));
    if (got.ptx_line != want.ptx_line)
        diff.push_back(fmt::format("PTX line {} vs {}", got.ptx_line, want.ptx_line));
    if (!want.label.empty()) {
        auto it = lf.labels.find(want.label);
        int64_t target = it == lf.labels.end() ? -2 : int64_t(it->second);
        if (got.target != target) diff.push_back(fmt::format("target {:#x} vs {:#x}", got.target, target));
    } else if (got.target >= 0 && got.mnemonic() != "LEPC") {
        diff.push_back(fmt::format("target {:#x} where nvdisasm shows no label", got.target));
    }
    if (!got.op || (got.op->mem != MemOp::Load && got.op->mem != MemOp::Store) ||
        got.op->space == MemSpace::Constant)
        return diff;
    int width = 4;
    bool is_signed = false;
    for (const char* w : {".U8", ".S8", ".U16", ".S16", ".64", ".128"})
        if (opcode.find(w) != std::string::npos &&
            (opcode.find(std::string(w) + ".") != std::string::npos ||
             opcode.size() >= std::strlen(w) &&
                 opcode.compare(opcode.size() - std::strlen(w), std::string::npos, w) == 0)) {
            std::string ws(w + 2 - (w[1] == 'U' || w[1] == 'S' ? 0 : 1));
            width = std::atoi(ws.c_str()) / 8;
            is_signed = w[1] == 'S';
        }
    if (mnemonic == "LDSM" || mnemonic == "STSM") return diff;  // matrix fragments: no per-lane width
    if (got.width != width || got.width_signed != is_signed)
        diff.push_back(fmt::format("width {}{} vs {}", got.width_signed ? "S" : "", got.width, opcode));
    if (mnemonic == "LDGSTS") return diff;  // two addresses (shared and global): not decoded
    auto ops = split_operands(text.substr(opcode.size()));
    const bool store = got.op->mem == MemOp::Store;
    if (ops.size() < 2) return diff;
    std::string addr = store ? ops[0] : ops[1], data = store ? ops[1] : ops[0];
    if (auto d = addr.find("desc["); d != std::string::npos) addr = addr.substr(addr.find(']') + 1);
    // Only the plain [Rn], [Rn+0xK], [Rn.64+0xK] forms: uniform-register and immediate addresses are not
    // decoded.
    if (addr.size() < 3 || addr[0] != '[' || addr.find("UR") != std::string::npos) return diff;
    std::string inner = addr.substr(1, addr.size() - 2);
    std::string base = inner.substr(0, inner.find_first_of("+-"));
    if (base.size() > 3 && base.compare(base.size() - 3, 3, ".64") == 0) base.resize(base.size() - 3);
    int offset = 0;
    if (auto plus = inner.find_first_of("+-"); plus != std::string::npos) {
        std::string k = inner.substr(plus);
        bool neg = k.find('-') != std::string::npos;
        offset = static_cast<int>(std::stol(k.substr(k.find("0x") + 2), nullptr, 16)) * (neg ? -1 : 1);
    }
    const int base_reg = reg_of(base), data_reg = reg_of(data);
    if (base_reg < 0) return diff;
    if (got.addr_reg != base_reg || got.addr_offset != offset)
        diff.push_back(fmt::format("address R{}{:+#x} vs {}", got.addr_reg, got.addr_offset, addr));
    if (data_reg >= 0 && got.data_reg != data_reg)
        diff.push_back(fmt::format("data R{} vs {}", got.data_reg, data));
    return diff;
}

}  // namespace

TEST_CASE("SASS decoder: every instruction of the corpus as nvdisasm lists it", "[sass][decode]") {
    std::size_t cubins = 0, instructions = 0, memory = 0, branches = 0, mismatches = 0;
    std::vector<std::string> report;
    for (const auto& entry : fs::directory_iterator(kCorpus)) {
        if (entry.path().extension() != ".cubin") continue;
        const fs::path listing_path = fs::path(entry.path()).replace_extension(".sass");
        REQUIRE(fs::exists(listing_path));
        const std::string name = entry.path().stem().string();
        std::string err;
        const std::string bytes = read_bytes(entry.path());
        auto program = decode_cubin(bytes, &err);
        INFO(name << ": " << err);
        REQUIRE(program.has_value());
        auto listed = parse_listing(read_bytes(listing_path));
        REQUIRE(listed.size() == program->functions.size());
        ++cubins;
        for (const auto& [fname, lf] : listed) {
            const Function* f = program->find(fname);
            INFO(name << " " << fname);
            REQUIRE(f != nullptr);
            REQUIRE(f->code.size() == lf.code.size());
            for (std::size_t i = 0; i < lf.code.size(); ++i) {
                const Instruction& got = f->code[i];
                ++instructions;
                memory += got.memory();
                branches += lf.code[i].label.empty() ? 0 : 1;
                auto diff = compare(got, lf.code[i], lf);
                if (diff.empty()) continue;
                ++mismatches;
                if (report.size() < 30)
                    report.push_back(fmt::format("{} {} {:04x} '{}': {}", name, fname, lf.code[i].offset,
                                                 lf.code[i].text, fmt::join(diff, "; ")));
            }
        }
    }
    INFO(fmt::format("{}", fmt::join(report, "\n")));
    CHECK(cubins >= 50);
    CHECK(instructions > 30000);
    CHECK(memory > 2500);
    CHECK(branches > 1000);
    CHECK(mismatches == 0);
}

TEST_CASE("SASS decoder: bytes that are no cubin, and an opcode the table does not know", "[sass][decode]") {
    std::string err;
    CHECK_FALSE(decode_cubin("not an ELF file", &err).has_value());
    CHECK(err.find("ELF") != std::string::npos);
    // 0x000 is no sm_90 opcode: the instruction keeps its guard but has no mnemonic.
    Instruction inst = decode_instruction(0x0000000000000000ull | (0x3u << 12), 0, 0x40);
    CHECK(inst.op == nullptr);
    CHECK(inst.guard == 3);
    CHECK(describe(inst) == "@P3 <opcode 0x000>");
}

TEST_CASE("SASS decoder: the words of LDS.128 R8, [R16+0x10] and @!P0 BRA from the tiled multiply",
          "[sass][decode]") {
    // Words from tests/sass/corpus/sass_cases.sass (matmul_tile16 at 0x03b0 and 0x05a0), fields by hand.
    Instruction lds = decode_instruction(0x0000100010047984ull, 0x000f280000000c00ull, 0x3b0);
    REQUIRE(lds.op != nullptr);
    CHECK(lds.mnemonic() == "LDS");
    CHECK(lds.op->space == MemSpace::Shared);
    CHECK(lds.width == 16);
    CHECK(lds.data_reg == 4);
    CHECK(lds.addr_reg == 16);
    CHECK(lds.addr_offset == 0x10);
    CHECK(describe(lds) == "LDS.128 R4, [R16+0x10]");
    Instruction bra = decode_instruction(0xfffffffc00408947ull, 0x000fea000383ffffull, 0x5a0);
    CHECK(bra.mnemonic() == "BRA");
    CHECK(bra.guard == 0);
    CHECK(bra.guard_negated);
    CHECK(bra.target == 0x2b0);
    CHECK(describe(bra) == "@!P0 BRA 0x2b0");
}
