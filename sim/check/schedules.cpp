// sim/check/schedules.cpp — the launch under several seeded schedules and a byte-level comparison of its
// buffers (see header).
#include "sim/check/schedules.hpp"

#include <fmt/format.h>
#include <cstring>

namespace warpsim::check {
namespace {

// One component of an element, as a number when the type says how to read it.
std::string component_text(launch::ElemType t, const uint8_t* p) {
    using E = launch::ElemType;
    const uint32_t n = launch::scalar_bytes(t);
    uint64_t bits = 0;
    std::memcpy(&bits, p, n);
    switch (launch::elem_scalar(t)) {
        case E::f32: {
            float f;
            std::memcpy(&f, p, 4);
            return fmt::format("{}", f);
        }
        case E::f64: {
            double d;
            std::memcpy(&d, p, 8);
            return fmt::format("{}", d);
        }
        case E::f16:
        case E::bf16:
            return fmt::format("0x{:04x}", bits);
        case E::i8:
            return fmt::format("{}", static_cast<int8_t>(bits));
        case E::i16:
            return fmt::format("{}", static_cast<int16_t>(bits));
        case E::i32:
            return fmt::format("{}", static_cast<int32_t>(bits));
        case E::i64:
            return fmt::format("{}", static_cast<int64_t>(bits));
        default:
            return fmt::format("{}", bits);
    }
}

std::string element_text(launch::ElemType t, const uint8_t* p) {
    const uint32_t comps = launch::elem_components(t);
    if (comps == 1) return component_text(t, p);
    std::string s;
    for (uint32_t c = 0; c < comps; ++c)
        s += (c ? ", " : "") + component_text(t, p + c * launch::scalar_bytes(t));
    return "(" + s + ")";
}

std::string schedule_name(const ScheduleRun& r, size_t index) {
    return fmt::format("schedule {} (seed {})", index, r.seed);
}

// "args[1] out (f32): schedule 2 (seed 2) differs from schedule 0 (seed 0) in 12 of 16384 bytes, 3 of 4096
// elements; first at element 7 (byte 28): 248 in schedule 0, 0 in schedule 2"; empty when equal.
std::string buffer_difference(const BufferSnapshot& a, const BufferSnapshot& b, const std::string& name_a,
                              const std::string& name_b) {
    const uint64_t elem = std::max<uint32_t>(1, launch::elem_bytes(a.type));
    const uint64_t n = std::min(a.bytes.size(), b.bytes.size());
    uint64_t bytes = 0, elements = 0, first = n;
    uint64_t last_elem = UINT64_MAX;
    for (uint64_t i = 0; i < n; ++i) {
        if (a.bytes[i] == b.bytes[i]) continue;
        ++bytes;
        if (first == n) first = i;
        if (i / elem != last_elem) {
            ++elements;
            last_elem = i / elem;
        }
    }
    if (!bytes) return {};
    const uint64_t e = first / elem;
    return fmt::format(
        "{} ({}): {} differs from {} in {} of {} bytes, {} of {} elements; first at element {} (byte "
        "{}): {} in {}, {} in {}",
        a.name, launch::elem_name(a.type), name_b, name_a, bytes, n, elements, n / elem, e, e * elem,
        element_text(a.type, a.bytes.data() + e * elem), name_a,
        element_text(b.type, b.bytes.data() + e * elem), name_b);
}

}  // namespace

std::vector<BufferSnapshot> read_buffers(const session::PreparedLaunch& p,
                                         const session::LaunchSetup& setup) {
    std::vector<BufferSnapshot> out;
    for (size_t i = 0; i < p.spec.args.size(); ++i) {
        const auto& a = p.spec.args[i];
        if (a.kind != launch::ArgSpec::Kind::buffer) continue;
        BufferSnapshot b;
        b.arg = i;
        b.name = a.name.empty() ? fmt::format("args[{}]", i) : fmt::format("args[{}] {}", i, a.name);
        b.type = a.type;
        if (auto bytes = setup.sim->read(setup.addresses[i], a.buffer_bytes())) b.bytes = std::move(*bytes);
        out.push_back(std::move(b));
    }
    return out;
}

launch::Outcome<ScheduleRun> run_schedule(const session::PreparedLaunch& p,
                                          const device::DevicePreset& preset, int registers, uint64_t seed,
                                          uint64_t max_instructions, engine::LaunchProgress* progress) {
    auto setup = session::setup_launch(p, preset, registers);
    if (!setup) return launch::Outcome<ScheduleRun>::failure(setup.error());
    engine::LaunchConfig& cfg = setup->cfg;
    cfg.max_instructions = max_instructions;
    cfg.host_workers = 1;
    cfg.schedule_seed = seed;
    cfg.progress = progress;
    ScheduleRun run;
    run.seed = seed;
    auto result = setup->sim->launch(*p.module, *p.kernel, cfg, setup->params, nullptr);
    run.error = result.error;
    run.buffers = read_buffers(p, *setup);
    return run;
}

std::optional<Finding> compare_schedules(const std::vector<ScheduleRun>& runs) {
    if (runs.size() < 2) return std::nullopt;
    Finding f;
    f.tool = Tool::schedules;
    f.kind = "schedule.results_differ";
    f.title = "Results depend on the warp schedule: buffers differ between legal orders";
    f.count = 0;
    std::vector<bool> named(runs.front().buffers.size(), false);
    const ScheduleRun& base = runs.front();
    const std::string base_name = schedule_name(base, 0);
    for (size_t k = 1; k < runs.size(); ++k) {
        const std::string name = schedule_name(runs[k], k);
        const auto& err = runs[k].error;
        if (err.has_value() != base.error.has_value() || (err && err->kind != base.error->kind)) {
            f.notes.push_back(fmt::format("{} {}, {} {}", base_name,
                                          base.error ? "stopped with " + base.error->name : "finished", name,
                                          err ? "stopped with " + err->name : "finished"));
            ++f.count;
        }
        for (size_t b = 0; b < base.buffers.size() && b < runs[k].buffers.size(); ++b) {
            std::string d = buffer_difference(base.buffers[b], runs[k].buffers[b], base_name, name);
            if (d.empty()) continue;
            f.notes.push_back(std::move(d));
            ++f.count;
            if (!named[b]) f.variable += (f.variable.empty() ? "" : ", ") + base.buffers[b].name;
            named[b] = true;
        }
    }
    if (f.notes.empty()) return std::nullopt;
    if (!f.variable.empty()) f.variable = "differing buffers: " + f.variable;
    f.fix =
        "a result that depends on the order in which warps or blocks run comes from a race: run racecheck "
        "(warpsim check --tool racecheck) and order the accesses it names with a barrier, or make them "
        "atomic";
    return f;
}

}  // namespace warpsim::check
