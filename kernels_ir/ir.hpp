// kernels_ir/ir.hpp — the PTX intermediate representation: plain values, no pointers into the simulator.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim::ir {

// ---------------------------------------------------------------------------------------------
// Opcodes: one table (opcodes.def) drives the enum, the spelling and the execution class.
// ---------------------------------------------------------------------------------------------
enum class ExecClass : uint8_t {
    int_alu,
    fp32,
    fp64,
    fp16,
    sfu,
    mem,
    branch,
    barrier,
    warp,
    async,
    tensor,
    misc
};

// The opcode families (opcodes.def's fifth column) and operand signatures (its sixth; see opcodes.def).
enum class Family : uint8_t {
    arithmetic,
    compare,
    logic,
    memory,
    control,
    barrier,
    warp,
    async,
    tensor,
    texture,
    video
};
enum class OperandSig : uint8_t { def, use, acc, form };

enum class Opcode : uint16_t {
#define WARPSIM_OPCODE(id, spelling, cls, family, sig, section) id,
#include "kernels_ir/opcodes.def"
#undef WARPSIM_OPCODE
};

inline constexpr std::size_t kOpcodeCount = 0
#define WARPSIM_OPCODE(id, spelling, cls, family, sig, section) +1
#include "kernels_ir/opcodes.def"
#undef WARPSIM_OPCODE
    ;

std::string_view opcode_name(Opcode op);
ExecClass exec_class(Opcode op);
Family family(Opcode op);
std::string_view isa_section(Opcode op);  // "9.7.15.16" (PTX ISA 9.4 documentation)

inline constexpr OperandSig kOperandSigs[] = {
#define WARPSIM_OPCODE(id, spelling, cls, family, sig, section) OperandSig::sig,
#include "kernels_ir/opcodes.def"
#undef WARPSIM_OPCODE
};
constexpr OperandSig operand_signature(Opcode op) {
    return kOperandSigs[static_cast<std::size_t>(op)];
}
std::optional<Opcode> opcode_from_name(std::string_view spelling);
std::string_view exec_class_name(ExecClass c);

// ---------------------------------------------------------------------------------------------
// Types, state spaces and instruction modifiers
// ---------------------------------------------------------------------------------------------
enum class Type : uint8_t {
    none,
    pred,
    b8,
    b16,
    b32,
    b64,
    b128,
    u8,
    u16,
    u32,
    u64,
    s8,
    s16,
    s32,
    s64,
    f16,
    f16x2,
    bf16,
    bf16x2,
    f32,
    f64,
    tf32,
    e4m3,
    e5m2,
    e4m3x2,
    e5m2x2,
    e2m1x2,
    e2m3x2,
    e3m2x2,
    ue8m0x2,
    u16x2,
    s16x2,
    s4,
    u4,
    b1,
};

std::string_view type_name(Type t);  // "f32" (no dot)
std::optional<Type> type_from_name(std::string_view name);
uint32_t type_bytes(Type t);   // 0 for pred/none; sub-byte types round up to 1
bool is_float(Type t);         // f16 f16x2 bf16 bf16x2 f32 f64 tf32 and the fp8 family
bool is_signed_int(Type t);    // s8 .. s64
bool is_unsigned_int(Type t);  // u8 .. u64
bool is_bits(Type t);          // b8 .. b128

enum class Space : uint8_t {
    none,
    reg,
    sreg,
    const_,
    global,
    local,
    param,
    shared,
    shared_cta,
    shared_cluster,
    generic,
    tex,
    surf
};
std::string_view space_name(Space s);  // "global", "shared::cta", ...

enum class Rounding : uint8_t { none, rn, rz, rm, rp, rna, rs, rni, rzi, rmi, rpi };
enum class CmpOp : uint8_t {
    none,
    eq,
    ne,
    lt,
    le,
    gt,
    ge,
    lo,
    ls,
    hi,
    hs,
    equ,
    neu,
    ltu,
    leu,
    gtu,
    geu,
    num,
    nan
};
enum class BoolOp : uint8_t { none, and_, or_, xor_ };
enum class MulMode : uint8_t { none, lo, hi, wide };
enum class AtomOp : uint8_t { none, add, min, max, inc, dec, cas, exch, and_, or_, xor_, popc };
enum class MemSem : uint8_t { none, weak, relaxed, acquire, release, acq_rel, sc, volatile_, mmio };
enum class Scope : uint8_t { none, cta, cluster, gpu, sys };
enum class CacheOp : uint8_t { none, ca, cg, cs, lu, cv, wb, wt };
enum class ShflMode : uint8_t { none, up, down, bfly, idx };
enum class VoteMode : uint8_t { none, all, any, uni, ballot };
enum class BarMode : uint8_t { none, sync, arrive, red, warp_sync };
enum class ShiftMode : uint8_t { none, clamp, wrap, l, r };

// Decoded modifiers. `mods` keeps every dotted suffix as written (without its dot), in order: the printer
// prints them back and the decoded fields below are a pure function of them (see decode_details()).
struct Details {
    Type type = Type::none;   // the instruction type (destination type for cvt)
    Type type2 = Type::none;  // second type: cvt's source, setp/set's compare type for set, slct's selector
    Rounding rnd = Rounding::none;
    CmpOp cmp = CmpOp::none;
    BoolOp bop = BoolOp::none;  // setp.eq.and / set ... / bar.red.and
    MulMode mul = MulMode::none;
    AtomOp atom = AtomOp::none;  // atom/red/redux/bar.red operation
    MemSem sem = MemSem::none;
    Scope scope = Scope::none;
    CacheOp cache = CacheOp::none;
    Space space = Space::none;  // ld/st/atom/red/cvta(.to)/isspacep/prefetch
    ShflMode shfl = ShflMode::none;
    VoteMode vote = VoteMode::none;
    BarMode bar = BarMode::none;
    ShiftMode shift = ShiftMode::none;  // shf.l/.r with .clamp/.wrap are stored in shift + shift_wrap
    bool shift_wrap = false;
    uint8_t vec = 1;  // .v2 / .v4 / .v8
    bool ftz = false, sat = false, approx = false, full = false, cc = false, uni = false;
    bool nc = false, to = false, sync = false, aligned = false, relu = false, nan = false, xorsign = false;
    bool abs = false, shiftamt = false, noftz = false;
};

// ---------------------------------------------------------------------------------------------
// Operands
// ---------------------------------------------------------------------------------------------
enum class SpecialReg : uint8_t {
    tid,
    ntid,
    ctaid,
    nctaid,
    laneid,
    warpid,
    nwarpid,
    smid,
    nsmid,
    gridid,
    lanemask_eq,
    lanemask_le,
    lanemask_lt,
    lanemask_ge,
    lanemask_gt,
    clock,
    clock_hi,
    clock64,
    globaltimer,
    globaltimer_lo,
    globaltimer_hi,
    dynamic_smem_size,
    total_smem_size,
    aggr_smem_size,
    clusterid,
    nclusterid,
    cluster_ctaid,
    cluster_nctaid,
    cluster_ctarank,
    cluster_nctarank,
    is_explicit_cluster,
    envreg,
    pm,
    pm64,
    reserved_smem_offset_begin,
    reserved_smem_offset_end,
    reserved_smem_offset_cap,
    reserved_smem_offset_0,
    reserved_smem_offset_1,
    current_graph_exec,
};
std::string_view special_reg_name(SpecialReg r);  // "tid" (no %)
std::optional<SpecialReg> special_reg_from_name(std::string_view name);

inline constexpr uint32_t kNoReg = 0xffffffffu;

struct Operand {
    enum class Kind : uint8_t {
        reg,      // %r5                          -> reg
        special,  // %tid.x                       -> sreg, component (0 x, 1 y, 2 z, 3 none); index for
                  // %envreg3/%pm2
        imm_int,  // 42, -1, 0x10                 -> imm (two's complement bits)
        imm_f32,  // 0f3F800000                   -> imm holds the 32 bits
        imm_f64,  // 0d3FF0000000000000           -> imm holds the 64 bits
        symbol,   // a variable, function or label name -> name (label targets resolved into imm = pc)
        address,  // [%rd1+8], [sym+4], [sym], [0x100] -> reg or name, plus imm as the offset
        vector,   // {%f1, %f2, _, %f4}           -> elems
        sink,     // _
        list,     // (a, b, c) in call            -> elems
        pair,     // %r1|%p1 (shfl/setp destinations) -> elems {first, second}
    };
    Kind kind = Kind::sink;
    bool negated = false;  // !%p as a source predicate
    uint32_t reg = kNoReg;
    SpecialReg sreg = SpecialReg::tid;
    uint8_t component = 3;
    int64_t imm = 0;
    std::string name;
    std::vector<Operand> elems;

    static Operand make_reg(uint32_t r) {
        Operand o;
        o.kind = Kind::reg;
        o.reg = r;
        return o;
    }
    static Operand make_imm(int64_t v) {
        Operand o;
        o.kind = Kind::imm_int;
        o.imm = v;
        return o;
    }
    bool operator==(const Operand&) const = default;
};

struct Guard {
    uint32_t reg = kNoReg;  // kNoReg: unpredicated
    bool negated = false;
    bool operator==(const Guard&) const = default;
};

// A position in the PTX text and, where a .loc directive precedes the instruction, in the CUDA source.
// Inlined code (`.loc F L C, function_name S, inlined_at F2 L2 C2`) keeps its innermost position here and the
// chain of call sites in Module::inline_sites (kernels_ir/source_chain.hpp walks it).
struct SrcLoc {
    uint32_t ptx_line = 0, ptx_col = 0;
    uint32_t file = 0, line = 0, col = 0;  // file 0 / line 0: no .loc
    uint32_t inlined_at = 0;               // 1 + index into Module::inline_sites; 0: not inlined
    bool operator==(const SrcLoc&) const = default;
};

// A call site that inlined code came from: the function named by `function_name` (a label of the
// `.section .debug_str`, plus a byte offset) was inlined at file:line:col, which lies in the caller; the
// caller is itself inlined at `parent`, or is the function that holds the instruction when `parent` is 0.
struct InlineSite {
    uint32_t file = 0, line = 0, col = 0;
    std::string callee;          // "$L__info_string3" as written; "" when the .loc names none
    uint32_t callee_offset = 0;  // `function_name $L__info_string3+8`
    uint32_t parent = 0;         // 1 + index into Module::inline_sites, always below this site's own index
    bool operator==(const InlineSite&) const = default;
};

// A label of `.section .debug_str` and the bytes it labels (`$L__info_string0: .b8 95,90,...,0`).
struct DebugString {
    std::string label;
    std::vector<uint8_t> bytes;
    bool operator==(const DebugString&) const = default;
};

// The typed form of an instruction's modifiers (kernels_ir/forms/form.hpp): what an mbarrier, cp, wgmma, ...
// instruction is, decoded once. Declared here only, so that ir.hpp does not depend on every family's form.
struct Form;

struct Instruction {
    Opcode op = Opcode::mov;
    std::vector<std::string> mods;  // dotted suffixes as written, without dots: {"global","v4","f32"}
    Details d;                      // decoded from mods
    // Decoded from op and mods by the parser (forms::attach_form) for the families that have typed forms;
    // null for the others. Immutable once made, so copies of the instruction share it.
    std::shared_ptr<const Form> form;
    std::vector<Operand> args;  // destination(s) first, as in the PTX text
    Guard pred;
    SrcLoc loc;
    // Whether `m` is one of the dotted suffixes as written ("cluster", "satfinite", "trans").
    bool has_mod(std::string_view m) const { return std::find(mods.begin(), mods.end(), m) != mods.end(); }
    bool operator==(const Instruction& o) const {
        return op == o.op && mods == o.mods && args == o.args && pred == o.pred && loc == o.loc;
    }
};

// ---------------------------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------------------------
enum class Linkage : uint8_t { none, visible, extern_, weak, common };

struct Param {
    std::string name;
    Type type = Type::none;
    uint32_t align = 0;             // .align N (0: natural)
    uint32_t array = 0;             // element count for `.b8 name[16]`; 0 for a scalar
    Space ptr_space = Space::none;  // .ptr .global etc. (kernel params)
    uint32_t ptr_align = 0;
    uint64_t size_bytes() const { return uint64_t(type_bytes(type)) * (array ? array : 1); }
    bool operator==(const Param&) const = default;
};

struct RegDecl {
    std::string name;  // "%r12"
    Type type = Type::none;
    bool operator==(const RegDecl&) const = default;
};

// A symbol initialiser reference: at byte `offset` of the variable's init, the address of `symbol`
// (generic() when `generic` is set) plus `addend`, stored in `bytes` bytes.
struct InitReloc {
    uint64_t offset = 0;
    std::string symbol;
    int64_t addend = 0;
    uint8_t bytes = 8;
    bool generic = false;
    bool operator==(const InitReloc&) const = default;
};

struct Variable {
    std::string name;
    Space space = Space::none;
    Type type = Type::none;
    Linkage linkage = Linkage::none;
    uint32_t align = 0;
    uint8_t vec = 1;             // .v2/.v4 variables: each element is `vec` values of `type`
    std::vector<uint64_t> dims;  // [] scalar; {0} unsized extern array; {4, 8} a 4x8 array
    std::vector<uint8_t> init;   // empty: zero/uninitialised
    std::vector<InitReloc> relocs;
    bool has_init = false;
    SrcLoc loc;
    uint64_t size_bytes() const;  // 0 for an unsized extern array
    bool operator==(const Variable&) const = default;
};

struct Label {
    std::string name;
    uint32_t pc = 0;  // index into Function::body of the instruction it precedes
    bool operator==(const Label&) const = default;
};

// `name: .callprototype (.param .b32 _) _ (.param .b64 _);` declared in a body, used by indirect calls.
struct CallPrototype {
    std::string name;
    std::vector<Param> returns;
    std::vector<Param> params;
    bool noreturn = false;
    bool operator==(const CallPrototype&) const = default;
};

// `name: .branchtargets L1, L2, ...;` used by brx.idx; pcs are filled like label operands.
struct BranchTable {
    std::string name;
    std::vector<std::string> labels;
    std::vector<uint32_t> pcs;
    bool operator==(const BranchTable&) const = default;
};

struct PerfDirectives {
    std::array<uint32_t, 3> maxntid{0, 0, 0};
    std::array<uint32_t, 3> reqntid{0, 0, 0};
    std::array<uint32_t, 3> reqnctapercluster{0, 0, 0};
    uint32_t minnctapersm = 0;
    uint32_t maxnctapersm = 0;
    uint32_t maxnreg = 0;
    uint32_t maxclusterrank = 0;
    bool noreturn = false;
    bool explicitcluster = false;
    std::vector<std::string> pragmas;  // .pragma "nounroll";
    bool operator==(const PerfDirectives&) const = default;
};

struct Function {
    std::string name;
    bool is_entry = false;
    Linkage linkage = Linkage::none;
    bool has_body = false;  // false for prototypes such as `.extern .func vprintf`
    std::vector<Param> params;
    std::vector<Param> returns;    // .func (.param .b32 retval0) name(...)
    std::vector<RegDecl> regs;     // every register, in declaration order; Operand::reg indexes this
    std::vector<Variable> locals;  // .shared/.local/.const/.param declared inside the body
    std::vector<Instruction> body;
    std::vector<Label> labels;  // sorted by pc, then declaration order
    PerfDirectives perf;
    SrcLoc loc;
    std::vector<CallPrototype> prototypes;   // .callprototype declarations in the body
    std::vector<BranchTable> branch_tables;  // .branchtargets declarations in the body
    bool operator==(const Function&) const = default;
};

struct SourceFile {
    uint32_t index = 0;
    std::string path;
    bool operator==(const SourceFile&) const = default;
};

struct Module {
    uint32_t version_major = 0, version_minor = 0;
    std::vector<std::string> target;  // {"sm_90"} or {"sm_90a", "debug"}
    uint32_t address_size = 64;
    std::vector<Variable> globals;           // module-scope .global/.shared/.const/.local variables
    std::vector<Function> functions;         // entries and .funcs, in order of appearance
    std::vector<SourceFile> files;           // .file directives (the source map)
    std::vector<InlineSite> inline_sites;    // the call sites of inlined code, shared by all functions
    std::vector<DebugString> debug_strings;  // `.section .debug_str` (the names of inlined functions)
    bool operator==(const Module&) const = default;

    const Function* find_function(std::string_view name) const;
    const Variable* find_global(std::string_view name) const;
    std::string_view file_path(uint32_t index) const;  // "" when unknown
    // The NUL-terminated text at `offset` bytes into the .debug_str label; "" when unknown.
    std::string debug_string(std::string_view label, uint32_t offset = 0) const;
};

}  // namespace warpsim::ir
