// kernels_ir/forms/async.cpp — cp.async, cp.async.bulk(.tensor), cp.reduce.async.bulk and mbarrier modifiers
// into CpForm and MbarrierForm, with the grammar of PTX ISA 9.7.10.28 and 9.7.15.16 (checked against ptxas).
#include "kernels_ir/forms/async.hpp"

#include <string>
#include <string_view>

#include "kernels_ir/forms/form.hpp"
#include "kernels_ir/forms/mods.hpp"

namespace warpsim::ir {
namespace forms_detail {
namespace {

constexpr std::string_view kCpSection = "9.7.10.28";
constexpr std::string_view kMbarrierSection = "9.7.15.16";

// Every modifier of the cp family (PTX ISA 9.7.10.28) and of mbarrier (9.7.15.16), besides the type names.
constexpr std::string_view kCpWords[] = {
    "async",
    "bulk",
    "tensor",
    "prefetch",
    "commit_group",
    "wait_group",
    "wait_all",
    "mbarrier",
    "arrive",
    "noinc",
    "read",
    "ca",
    "cg",
    "shared",
    "shared::cta",
    "shared::cluster",
    "global",
    "L2",
    "L2::cache_hint",
    "L2::64B",
    "L2::128B",
    "L2::256B",
    "multicast::cluster",
    "cp_mask",
    "mbarrier::complete_tx::bytes",
    "bulk_group",
    "1d",
    "2d",
    "3d",
    "4d",
    "5d",
    "tile",
    "tile::gather4",
    "tile::scatter4",
    "im2col",
    "im2col::w",
    "im2col::w::128",
    "im2col_no_offs",
    "cta_group::1",
    "cta_group::2",
    "add",
    "min",
    "max",
    "inc",
    "dec",
    "and",
    "or",
    "xor",
    "noftz",
};
constexpr std::string_view kMbarrierWords[] = {
    "init",     "inval",         "arrive",     "arrive_drop", "expect_tx",   "complete_tx",     "test_wait",
    "try_wait", "pending_count", "noComplete", "parity",      "release",     "acquire",         "relaxed",
    "acq_rel",  "cta",           "cluster",    "shared",      "shared::cta", "shared::cluster",
};

std::optional<Space> take_space(ModReader& r, std::size_t& index) {
    for (std::size_t i = 0; i < r.size(); ++i) {
        if (r.claimed(i)) continue;
        const std::string& m = r.at(i);
        Space s = Space::none;
        if (m == "shared") s = Space::shared;
        if (m == "shared::cta") s = Space::shared_cta;
        if (m == "shared::cluster") s = Space::shared_cluster;
        if (m == "global") s = Space::global;
        if (s == Space::none) continue;
        r.claim(i);
        index = i;
        return s;
    }
    return std::nullopt;
}

bool is_cta_shared(Space s) {
    return s == Space::shared || s == Space::shared_cta;
}

std::optional<CpCompletion> take_completion(ModReader& r) {
    return r.one<CpCompletion>({{"mbarrier::complete_tx::bytes", CpCompletion::mbarrier_complete_tx},
                                {"bulk_group", CpCompletion::bulk_group}},
                               "completion mechanism");
}

void take_cache_hint(ModReader& r, CpForm& f) {
    f.cache_hint = r.flag("L2::cache_hint");
}

// .1d .. .5d of the tensor forms.
void take_dims(ModReader& r, CpForm& f) {
    auto d = r.one<uint8_t>({{"1d", 1}, {"2d", 2}, {"3d", 3}, {"4d", 4}, {"5d", 5}}, "tensor dimension");
    if (!d) return r.missing("a tensor copy needs its dimension, .1d to .5d");
    f.dims = *d;
}

void take_load_mode(ModReader& r, CpForm& f) {
    using M = TensorLoadMode;
    auto m = r.one<M>({{"tile", M::tile},
                       {"tile::gather4", M::tile_gather4},
                       {"tile::scatter4", M::tile_scatter4},
                       {"im2col", M::im2col},
                       {"im2col::w", M::im2col_w},
                       {"im2col::w::128", M::im2col_w_128},
                       {"im2col_no_offs", M::im2col_no_offs}},
                      "load mode");
    f.load_mode = m.value_or(M::tile);
}

// The two state spaces of a bulk copy, destination first, and the completion mechanism they allow:
// .shared::cluster|.shared::cta <- .global and .shared::cluster <- .shared::cta complete on an mbarrier,
// .global <- .shared::cta on a bulk async-group.
void take_bulk_direction(ModReader& r, CpForm& f, bool shared_to_shared) {
    std::size_t di = 0, si = 0;
    auto dst = take_space(r, di);
    auto src = take_space(r, si);
    auto completion = take_completion(r);
    if (r.failed()) return;
    if (!dst || !src)
        return r.missing("needs a destination and a source state space, e.g. .shared::cluster.global");
    if (!completion)
        return r.missing("needs a completion mechanism, .mbarrier::complete_tx::bytes or .bulk_group");
    f.dst = *dst;
    f.src = *src;
    f.completion = *completion;
    const bool to_shared =
        (f.dst == Space::shared_cluster || f.dst == Space::shared_cta) && f.src == Space::global;
    const bool within_cluster =
        shared_to_shared && f.dst == Space::shared_cluster && f.src == Space::shared_cta;
    const bool to_global = f.dst == Space::global && f.src == Space::shared_cta;
    if (!to_shared && !within_cluster && !to_global) {
        return r.fail(si, "'." + r.at(di) + "." + r.at(si) +
                              "' is not a direction of the copy (expected .shared::cluster.global, "
                              ".shared::cta.global" +
                              std::string(shared_to_shared ? ", .shared::cluster.shared::cta" : "") +
                              " or .global.shared::cta)");
    }
    if (to_global != (f.completion == CpCompletion::bulk_group)) {
        r.fail(FormError::kWholeInstruction,
               to_global ? "a copy to .global completes on .bulk_group"
                         : "a copy to shared memory completes on .mbarrier::complete_tx::bytes");
    }
}

void decode_cp_async_plain(ModReader& r, CpForm& f) {
    f.op = CpOp::async_copy;
    f.cache = *r.one<CacheOp>({{"ca", CacheOp::ca}, {"cg", CacheOp::cg}}, "cache operator");
    std::size_t di = 0, si = 0;
    auto dst = take_space(r, di);
    auto src = take_space(r, si);
    if (!dst || !src) return r.missing("needs .shared{::cta}.global");
    if (!is_cta_shared(*dst) || *src != Space::global) {
        return r.fail(
            di, "'." + r.at(di) + "." + r.at(si) +
                    "' is not a direction of cp.async (expected .shared.global or .shared::cta.global)");
    }
    f.dst = *dst;
    f.src = *src;
    take_cache_hint(r, f);
    auto pf = r.one<uint16_t>({{"L2::64B", 64}, {"L2::128B", 128}, {"L2::256B", 256}}, "prefetch size");
    f.prefetch_bytes = pf.value_or(0);
}

void decode_cp_async_bulk(ModReader& r, CpForm& f) {
    if (r.flag("commit_group")) {
        f.op = CpOp::bulk_commit_group;
        return r.rename("cp.async.bulk.commit_group");
    }
    if (r.flag("wait_group")) {
        f.op = CpOp::bulk_wait_group;
        f.read = r.flag("read");
        return r.rename("cp.async.bulk.wait_group");
    }
    const bool tensor = r.flag("tensor");
    if (r.flag("prefetch")) {
        f.op = tensor ? CpOp::bulk_prefetch_tensor : CpOp::bulk_prefetch;
        r.rename(tensor ? "cp.async.bulk.prefetch.tensor" : "cp.async.bulk.prefetch");
        if (tensor) take_dims(r, f);
        if (!r.flag("L2")) return r.missing("a bulk prefetch needs .L2");
        std::size_t si = 0;
        auto src = take_space(r, si);
        if (!src || *src != Space::global) return r.missing("a bulk prefetch reads .global");
        f.src = *src;
        if (tensor) take_load_mode(r, f);
        return take_cache_hint(r, f);
    }
    if (tensor) {
        f.op = CpOp::bulk_tensor;
        r.rename("cp.async.bulk.tensor");
        take_dims(r, f);
        take_bulk_direction(r, f, false);
        take_load_mode(r, f);
        f.cta_group = r.one<uint8_t>({{"cta_group::1", 1}, {"cta_group::2", 2}}, "CTA group").value_or(0);
    } else {
        f.op = CpOp::bulk_copy;
        take_bulk_direction(r, f, true);
        f.cp_mask = r.flag("cp_mask");
    }
    f.multicast = r.flag("multicast::cluster");
    take_cache_hint(r, f);
    if (f.multicast && !(f.dst == Space::shared_cluster && f.src == Space::global))
        r.fail(FormError::kWholeInstruction, "'.multicast::cluster' needs a .shared::cluster.global copy");
}

// The reductions cp.reduce.async.bulk allows per destination (the PTX ISA's table of .redOp and type).
bool reduction_allowed(Space dst, AtomOp op, Type t, bool noftz) {
    using A = AtomOp;
    using T = Type;
    auto in = [t](std::initializer_list<Type> ts) {
        for (Type x : ts) {
            if (x == t) return true;
        }
        return false;
    };
    if (noftz) return dst == Space::global && op == A::add && in({T::f16, T::bf16});
    if (dst == Space::shared_cluster) {
        switch (op) {
            case A::add:
                return in({T::u32, T::s32, T::u64});
            case A::min:
            case A::max:
                return in({T::u32, T::s32});
            case A::inc:
            case A::dec:
                return in({T::u32});
            case A::and_:
            case A::or_:
            case A::xor_:
                return in({T::b32});
            default:
                return false;
        }
    }
    switch (op) {
        case A::add:
            return in({T::u32, T::s32, T::u64, T::f32, T::f64});
        case A::min:
        case A::max:
            return in({T::u32, T::s32, T::u64, T::s64, T::f16, T::bf16});
        case A::inc:
        case A::dec:
            return in({T::u32});
        case A::and_:
        case A::or_:
        case A::xor_:
            return in({T::b32, T::b64});
        default:
            return false;
    }
}

std::optional<Type> take_type(ModReader& r, std::size_t& index) {
    for (std::size_t i = 0; i < r.size(); ++i) {
        if (r.claimed(i)) continue;
        if (auto t = type_from_name(r.at(i))) {
            r.claim(i);
            index = i;
            return t;
        }
    }
    return std::nullopt;
}

std::string_view atom_name(AtomOp op) {
    switch (op) {
        case AtomOp::add:
            return "add";
        case AtomOp::min:
            return "min";
        case AtomOp::max:
            return "max";
        case AtomOp::inc:
            return "inc";
        case AtomOp::dec:
            return "dec";
        case AtomOp::and_:
            return "and";
        case AtomOp::or_:
            return "or";
        default:
            return "xor";
    }
}

std::optional<AtomOp> take_reduction(ModReader& r) {
    using A = AtomOp;
    return r.one<A>({{"add", A::add},
                     {"min", A::min},
                     {"max", A::max},
                     {"inc", A::inc},
                     {"dec", A::dec},
                     {"and", A::and_},
                     {"or", A::or_},
                     {"xor", A::xor_}},
                    "reduction");
}

}  // namespace

Form decode_cp(const std::vector<std::string>& mods) {
    ModReader r(mods, "cp", kCpSection, kCpWords);
    CpForm f;
    if (mods.empty() || mods[0] != "async") {
        r.fail(0, mods.empty() ? "'cp' needs a form such as .async"
                               : "'." + mods[0] + "' is not a form of cp (expected .async)");
        return r.finish(f, "");
    }
    r.claim(0);
    r.rename("cp.async");
    if (r.flag("bulk")) {
        r.rename("cp.async.bulk");
        decode_cp_async_bulk(r, f);
        return r.finish(f, "");
    }
    // The group operations take no further modifier.
    static constexpr struct {
        std::string_view flag;
        CpOp op;
        std::string_view accepted;
    } kGroupOps[] = {
        {"commit_group", CpOp::async_commit_group, "nothing after cp.async.commit_group"},
        {"wait_group", CpOp::async_wait_group, "nothing after cp.async.wait_group"},
        {"wait_all", CpOp::async_wait_all, "nothing after cp.async.wait_all"},
    };
    for (const auto& g : kGroupOps) {
        if (!r.flag(g.flag)) continue;
        f.op = g.op;
        return r.finish(f, g.accepted);
    }
    if (r.flag("mbarrier")) {
        f.op = CpOp::async_mbarrier_arrive;
        r.rename("cp.async.mbarrier.arrive");
        if (!r.flag("arrive")) r.missing("needs .arrive");
        f.noinc = r.flag("noinc");
        std::size_t si = 0;
        if (auto s = take_space(r, si)) {
            if (!is_cta_shared(*s))
                r.fail(si, "'." + r.at(si) + "' is not allowed (expected .shared or .shared::cta)");
            f.dst = *s;
        }
        if (!r.flag("b64")) r.missing("needs .b64");
        return r.finish(f, ".noinc, .shared{::cta}, .b64");
    }
    if (r.find("ca") || r.find("cg")) {
        decode_cp_async_plain(r, f);
        return r.finish(f, ".L2::cache_hint or .L2::64B/128B/256B");
    }
    r.fail(mods.size() > 1 ? 1 : FormError::kWholeInstruction,
           mods.size() > 1 ? "'." + mods[1] +
                                 "' is not a form of cp.async (expected .ca, .cg, .bulk, .commit_group, "
                                 ".wait_group, .wait_all or .mbarrier.arrive)"
                           : "cp.async needs a form such as .ca or .bulk");
    return r.finish(f, "");
}

Form decode_cp_reduce(const std::vector<std::string>& mods) {
    ModReader r(mods, "cp.reduce.async.bulk", kCpSection, kCpWords);
    CpForm f;
    if (mods.size() < 2 || mods[0] != "async" || mods[1] != "bulk") {
        r.missing("cp.reduce is written cp.reduce.async.bulk");
        return r.finish(f, "");
    }
    r.claim(0);
    r.claim(1);
    const bool tensor = r.flag("tensor");
    f.op = tensor ? CpOp::reduce_bulk_tensor : CpOp::reduce_bulk;
    if (tensor) {
        r.rename("cp.reduce.async.bulk.tensor");
        take_dims(r, f);
    }
    take_bulk_direction(r, f, !tensor);
    if (r.failed()) return r.finish(f, "");
    if (f.src != Space::shared_cta)
        r.fail(FormError::kWholeInstruction, "the source of a bulk reduction is .shared::cta");
    take_cache_hint(r, f);
    if (f.cache_hint && f.dst != Space::global)
        r.fail(FormError::kWholeInstruction, "'.L2::cache_hint' needs a .global destination");
    auto red = take_reduction(r);
    f.noftz = r.flag("noftz");
    if (!red)
        return r.missing("needs a reduction: .add, .min, .max, .inc, .dec, .and, .or or .xor"),
               r.finish(f, "");
    f.red = *red;
    if (tensor) {
        take_load_mode(r, f);
        return r.finish(f, "");
    }
    std::size_t ti = 0;
    auto t = take_type(r, ti);
    if (!t) return r.missing("needs an element type such as .u32"), r.finish(f, "");
    f.type = *t;
    if (!r.failed() && !reduction_allowed(f.dst, f.red, f.type, f.noftz)) {
        const std::string op(atom_name(f.red));
        r.fail(ti, "'." + op + (f.noftz ? ".noftz" : "") + "." + r.at(ti) + "' is not a reduction to ." +
                       std::string(space_name(f.dst)));
    }
    return r.finish(f, "");
}

Form decode_mbarrier(const std::vector<std::string>& mods) {
    ModReader r(mods, "mbarrier", kMbarrierSection, kMbarrierWords);
    MbarrierForm f;
    using O = MbarrierOp;
    static constexpr std::pair<std::string_view, O> kOps[] = {
        {"init", O::init},
        {"inval", O::inval},
        {"arrive", O::arrive},
        {"arrive_drop", O::arrive_drop},
        {"expect_tx", O::expect_tx},
        {"complete_tx", O::complete_tx},
        {"test_wait", O::test_wait},
        {"try_wait", O::try_wait},
        {"pending_count", O::pending_count},
    };
    constexpr std::string_view kOpList =
        ".init, .inval, .arrive, .arrive_drop, .expect_tx, .complete_tx, .test_wait, .try_wait or "
        ".pending_count";
    bool found = false;
    if (!mods.empty()) {
        for (const auto& [name, op] : kOps) {
            if (mods[0] == name) f.op = op, found = true;
        }
    }
    if (!found) {
        if (mods.empty()) {
            r.missing("mbarrier needs an operation: " + std::string(kOpList));
        } else {
            r.fail(0,
                   "'." + mods[0] + "' is not an mbarrier operation (expected " + std::string(kOpList) + ")");
        }
        return r.finish(f, "");
    }
    r.claim(0);
    r.rename("mbarrier." + mods[0]);
    const bool arrive = f.op == O::arrive || f.op == O::arrive_drop;
    const bool tx = f.op == O::expect_tx || f.op == O::complete_tx;
    const bool wait = f.op == O::test_wait || f.op == O::try_wait;
    std::string accepted;
    if (arrive) {
        f.expect_tx = r.flag("expect_tx");
        f.no_complete = r.flag("noComplete");
        accepted =
            ".expect_tx, .noComplete, .release, .relaxed, .cta, .cluster, .shared{::cta}, .shared::cluster, "
            ".b64";
    } else if (wait) {
        f.parity = r.flag("parity");
        accepted = ".parity, .acquire, .relaxed, .cta, .cluster, .shared{::cta}, .b64";
    } else if (tx) {
        accepted = ".relaxed, .cta, .cluster, .shared{::cta}, .shared::cluster, .b64";
    } else if (f.op == O::pending_count) {
        accepted = ".b64";
    } else {
        accepted = ".shared{::cta}, .b64";
    }
    if (arrive || wait || tx) {
        auto sem = r.one<MemSem>({{"release", MemSem::release},
                                  {"acquire", MemSem::acquire},
                                  {"relaxed", MemSem::relaxed},
                                  {"acq_rel", MemSem::acq_rel}},
                                 "memory ordering");
        if (sem) {
            const bool ok = *sem == MemSem::relaxed || (arrive && *sem == MemSem::release) ||
                            (wait && *sem == MemSem::acquire);
            if (!ok) r.fail(r.picked(), "'." + r.at(r.picked()) + "' is not an ordering it takes");
            f.sem = *sem;
        }
        const std::size_t sem_at = r.picked();
        auto scope = r.one<Scope>({{"cta", Scope::cta}, {"cluster", Scope::cluster}}, "scope");
        f.scope = scope.value_or(Scope::none);
        // ptxas: an ordering and a scope come together or not at all.
        if (sem && !scope) r.fail(sem_at, "'." + r.at(sem_at) + "' needs a scope, .cta or .cluster, with it");
        if (scope && !sem) {
            r.fail(r.picked(), "'." + r.at(r.picked()) + "' needs an ordering, " +
                                   std::string(arrive ? ".release or .relaxed"
                                               : wait ? ".acquire or .relaxed"
                                                      : ".relaxed") +
                                   ", with it");
        }
    }
    if (f.op != O::pending_count) {
        std::size_t si = 0;
        if (auto s = take_space(r, si)) {
            const bool ok = is_cta_shared(*s) || (*s == Space::shared_cluster && (arrive || tx));
            if (!ok) r.fail(si, "'." + r.at(si) + "' is not a state space it takes");
            f.space = *s;
        }
    }
    if (f.no_complete && (f.expect_tx || f.scope == Scope::cluster || f.space == Space::shared_cluster ||
                          f.sem == MemSem::relaxed)) {
        r.fail(FormError::kWholeInstruction, "'.noComplete' takes only .release, .cta and .shared{::cta}");
    }
    if (!r.flag("b64") && !r.failed()) {
        if (auto t = [&]() -> std::optional<std::size_t> {
                for (std::size_t i = 0; i < mods.size(); ++i) {
                    if (!r.claimed(i) && type_from_name(mods[i])) return i;
                }
                return std::nullopt;
            }()) {
            r.fail(*t, "'." + mods[*t] + "' is not its type, .b64");
        } else {
            r.missing("needs .b64");
        }
    }
    return r.finish(f, accepted);
}

}  // namespace forms_detail
}  // namespace warpsim::ir
