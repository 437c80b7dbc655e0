// tests/examples/example_support.cpp — helpers for the seed-number tests (see example_support.hpp).
#include "tests/examples/example_support.hpp"

#include <algorithm>
#include <cstring>

#include <catch2/catch.hpp>

#include "launch/buffer_init.hpp"
#include "launch/params.hpp"

namespace warpsim::examples_test {

session::PreparedLaunch prepare_example(const std::string& name, bool ours) {
    const std::string dir = ours ? "/tests/examples/specs/" : "/examples/specs/";
    auto p = session::prepare(std::string(WARPSIM_SOURCE_DIR) + dir + name + ".json");
    INFO(name << ": " << (p ? std::string() : p.error()));
    REQUIRE(p.ok());
    return std::move(p.value());
}

session::SimRun simulate(const session::PreparedLaunch& p, uint64_t max_instructions) {
    session::SimOptions o;
    o.workers = 2;
    o.max_instructions = max_instructions;
    auto run = session::run_simulated(p, o);
    INFO(p.spec.path << ": " << (run ? std::string() : run.error()));
    REQUIRE(run.ok());
    return std::move(run.value());
}

AccessTotals totals(const session::PreparedLaunch& p, const session::SimRun& run, ir::Opcode op,
                    ir::Space space) {
    AccessTotals t;
    for (const auto& [key, s] : run.counters.per_pc()) {
        const auto& body = p.module->functions.at(key.first).body;
        if (key.second >= body.size()) continue;
        const auto& inst = body[key.second];
        if (inst.op != op || inst.d.space != space) continue;
        ++t.instructions;
        t.warp_insts += s.warp_insts;
        t.lanes += s.thread_insts_pred_on;
        t.requests += s.requests;
        t.sectors += s.sectors;
        t.ideal_sectors += s.ideal_sectors;
        t.wavefronts += s.wavefronts;
        t.ideal_wavefronts += s.ideal_wavefronts;
    }
    return t;
}

std::vector<float> Readback::floats(size_t arg) const {
    std::vector<float> out(buffers.at(arg).size() / sizeof(float));
    std::memcpy(out.data(), buffers[arg].data(), out.size() * sizeof(float));
    return out;
}

std::vector<int32_t> Readback::ints(size_t arg) const {
    std::vector<int32_t> out(buffers.at(arg).size() / sizeof(int32_t));
    std::memcpy(out.data(), buffers[arg].data(), out.size() * sizeof(int32_t));
    return out;
}

Readback run_and_read(const session::PreparedLaunch& p) {
    engine::Simulator sim;
    std::vector<uint64_t> addresses(p.spec.args.size(), 0);
    for (size_t i = 0; i < p.spec.args.size(); ++i) {
        const auto& a = p.spec.args[i];
        if (a.kind != launch::ArgSpec::Kind::buffer) continue;
        auto bytes = launch::make_buffer(p.spec, i);
        REQUIRE(bytes.ok());
        addresses[i] = sim.malloc(std::max<uint64_t>(a.buffer_bytes(), 1));
        REQUIRE(addresses[i] != 0);
        REQUIRE(sim.write(addresses[i], bytes.value()));
    }
    const auto params = launch::pack_params(*p.kernel, addresses, p.spec);
    engine::LaunchConfig cfg;  // the engine's default limits are the compute capability 9.0 ones
    cfg.grid = p.spec.grid;
    cfg.block = p.spec.block;
    cfg.dynamic_shared_bytes = p.spec.shared_bytes;
    cfg.max_dynamic_shared_optin = p.spec.max_dynamic_shared_bytes.value_or(0);
    cfg.host_workers = 2;
    Readback r;
    r.result = sim.launch(*p.module, *p.kernel, cfg, params, nullptr);
    r.buffers.resize(p.spec.args.size());
    for (size_t i = 0; i < p.spec.args.size(); ++i) {
        if (p.spec.args[i].kind != launch::ArgSpec::Kind::buffer) continue;
        auto bytes = sim.read(addresses[i], p.spec.args[i].buffer_bytes());
        REQUIRE(bytes.has_value());
        r.buffers[i] = std::move(*bytes);
    }
    return r;
}

}  // namespace warpsim::examples_test
