// sim/engine/program.hpp — the pre-decoded form of a Function: operand slots as register indices (constants
// and special registers become pseudo registers), a handler per instruction chosen once, resolved symbols.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kernels_ir/ir.hpp"
#include "kernels_ir/layout.hpp"

namespace warpsim::engine {

struct Exec;
struct DInst;
using Handler = void (*)(Exec& x, const DInst& in, uint32_t exec);

inline constexpr uint32_t kNone = 0xffffffffu;

// Address base of a memory operand, resolved at decode time.
enum class AddrSpace : uint8_t { global, shared, local, const_, kernel_param, frame_param, generic };

// A second or third memory operand (cp.async's source, cp.async.bulk's mbarrier): register + constant.
struct ExtraAddr {
    uint32_t reg = kNone;
    int64_t offset = 0;
    AddrSpace space = AddrSpace::global;
    bool frame_relative = false;
};

// What an instruction's modifiers say about its memory accesses, for the counters (memory_access.hpp's
// access_header): read from the IR once at decode time instead of at every warp-level access.
// One byte (bit-fields), so that DInst keeps its size.
struct AccessFlags {
    bool valid : 1 = false;            // filled (decode_module); false: read the IR
    bool non_coherent : 1 = false;     // ld.global.nc or ldu
    bool l1_cache_op : 1 = false;      // a cache operator other than .cg/.cs/.cv
    bool combinable_atom : 1 = false;  // atom/red op add/min/max/and/or/xor
    bool async_copy : 1 = false;       // cp other than cp.async.bulk
    bool barrier_object : 1 = false;   // counts::is_barrier_object_op
};

// What wgmma.mma_async's selector read off the operands (the immediates and where A comes from); its
// shape, types and .satfinite are the instruction's WgmmaForm. One byte: it lives in DInst's padding.
struct WgmmaOperands {
    bool a_regs : 1 = false;   // A is a vector of registers, not a matrix descriptor
    bool neg_a : 1 = false;    // imm-scale-a is -1
    bool neg_b : 1 = false;    // imm-scale-b is -1
    bool trans_a : 1 = false;  // imm-trans-a is 1
    bool trans_b : 1 = false;  // imm-trans-b is 1
};

inline constexpr uint8_t kNoMemberMask = 0xff;

// The small fields sit where DInst had padding (after `space` and after `guard_neg`), so that the struct
// keeps its size and the hot fields their offsets.
struct DInst {
    Handler fn = nullptr;
    ir::Type type = ir::Type::none;
    ir::Type type2 = ir::Type::none;
    uint8_t ndst = 0, nsrc = 0;
    uint8_t vec = 1;
    uint8_t neg_mask = 0;  // bit i: source i is a negated predicate
    AddrSpace space = AddrSpace::global;
    // Warp collectives (.sync forms): which source holds the member mask; kNoMemberMask: the form has none.
    uint8_t member_src = kNoMemberMask;
    uint32_t guard = kNone;
    bool guard_neg = false;
    // The symbol of the first memory operand (or mov/cvta's symbol source) is a .local depot or frame
    // .param variable: `offset` is relative to the frame's local or param base, added at run time.
    bool frame_relative = false;
    // mov/cvt of %clock, %clock64, %globaltimer...: read when the warp executes, not a pseudo register.
    std::optional<ir::SpecialReg> dynamic_sreg;
    // Up to 8 destinations/sources: ld/st .v8 (sm_100's 256-bit .b32/.f32 vectors) has eight registers.
    std::array<uint32_t, 8> dst{kNone, kNone, kNone, kNone, kNone, kNone, kNone, kNone};
    std::array<uint32_t, 8> src{kNone, kNone, kNone, kNone, kNone, kNone, kNone, kNone};
    uint32_t addr_reg = kNone;   // memory operand's register, kNone for [sym+imm] / [imm]
    int64_t offset = 0;          // memory operand's constant part (symbol base + imm)
    uint32_t target = kNone;     // branch target pc / callee function index
    uint32_t rpc = kNone;        // reconvergence pc of a branch
    uint32_t call_site = kNone;  // call: its CallSite in DecodedFunction::calls
    uint32_t pc = 0;
    std::array<ExtraAddr, 2> more_addr;  // memory operands after the first, in order
    uint8_t naddr = 0;                   // memory operands in all
    AccessFlags access;
    WgmmaOperands wgmma;
    // tex/tld4/suld/sust/sured: the geometry (handlers_texture.cpp's Geometry); tld4: the component (r, g, b,
    // a: 0-3); txq/suq: the TextureQuery.
    uint8_t texture_geometry = 0, gather_component = 0, texture_query = 0;
    // shfl whose b and c hold one value in every lane, known at decode (a constant operand, or a register
    // only ever set by one mov of a constant: live_in.hpp's known_constant_registers), for the handler
    // shfl_with_known_lanes gives: the bits shfl reads, b's bits 0-4 in bits 0-4, c's clamp value (its bits
    // 0-4) in bits 5-9 and c's segment mask (its bits 8-12) in bits 10-14.
    uint16_t shfl_lanes = 0;
    const ir::Instruction* ir = nullptr;
};
static_assert(sizeof(DInst) <= 184, "DInst is on the engine's hot path: keep it within its 184 bytes");

// A call site: where the caller's argument/return .param variables live and how many bytes each has.
struct CallSite {
    uint32_t callee = kNone;        // function index; kNone for an indirect call
    uint32_t indirect_reg = kNone;  // indirect call: the register holding the function address
    struct Slot {
        bool from_reg = false;  // a register or immediate argument instead of a .param variable
        uint32_t reg = kNone;
        uint32_t caller_off = 0;  // offset in the caller's param area
    };
    std::vector<Slot> args, rets;
};

// Pseudo registers whose value depends only on the lane and the launch (filled when a frame starts).
struct SregSlot {
    ir::SpecialReg sreg;
    uint8_t component;
    uint32_t reg;
};

struct DecodedFunction {
    const ir::Function* fn = nullptr;
    uint32_t index = 0;              // in Module::functions
    uint32_t num_regs = 0;           // declared + constants + special pseudo registers
    std::vector<uint64_t> reg_init;  // (reg, value) pairs flattened: constants
    std::vector<uint32_t> const_regs;
    std::vector<SregSlot> sregs;
    std::vector<uint64_t> reg_width_mask;
    // What a new frame zeroes: every register, or (zero_every_register false) only `zeroed_registers`, those
    // a path may read before writing (live_in.hpp); the others may hold a previous frame's values unseen.
    bool zero_every_register = true;
    std::vector<uint32_t> zeroed_registers;
    std::vector<DInst> code;
    std::vector<CallSite> calls;
    uint32_t local_bytes = 0;              // this frame's .local depot size per thread
    uint32_t param_bytes = 0;              // this frame's .param area (formals, returns, call-site variables)
    std::vector<uint32_t> formal_offsets;  // formals in the param area
    // .local depot variables and call-site .param variables: frame-relative offsets.
    std::map<std::string, std::pair<AddrSpace, uint32_t>, std::less<>> frame_symbols;
    std::vector<uint32_t> return_offsets;
    bool uses_global_atomics = false;  // non-commutative cross-block interaction (see launch schedule)
    uint32_t static_shared = 0;  // kernels: bytes of static shared memory (dynamic starts after, 16-aligned)
};

struct Program {
    const ir::Module* module = nullptr;
    std::vector<DecodedFunction> functions;  // same order as Module::functions
    ir::SharedLayout shared;                 // the module's shared-memory window (kernels_ir/layout)
    std::vector<std::string> problems;       // decode-time notes (unresolved symbols, ...)
};

}  // namespace warpsim::engine
