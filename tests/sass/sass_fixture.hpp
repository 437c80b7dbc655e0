// tests/sass/sass_fixture.hpp — the SASS tests' common start: a spec of tests/sass/specs prepared, its PTX
// compiled by ptxas for sm_90 (-lineinfo) and decoded, and the kernel's SASS handed to the plan the test is
// about.
#pragma once

#include <catch2/catch.hpp>

#include <string>

#include "sim/counts/sass_plan.hpp"
#include "sim/sass/compile.hpp"
#include "sim/sass/decode.hpp"
#include "sim/session/run.hpp"

namespace warpsim::sass_test {

struct Planned {
    session::PreparedLaunch prep;
    counts::SassPlan plan;
};

// tests/sass/specs/KERNEL.json prepared and compiled; make_plan(Planned&, const sass::Function&) fills the
// plan.
template <class MakePlan>
Planned plan_of(const std::string& kernel, MakePlan make_plan) {
    auto prep = session::prepare(std::string(WARPSIM_SOURCE_DIR) + "/tests/sass/specs/" + kernel + ".json");
    REQUIRE(bool(prep));
    std::string log;
    auto cubin = sass::compile_cubin(prep.value().ptx, "sm_90", &log);
    INFO(log);
    REQUIRE(cubin.has_value());
    auto program = sass::decode_cubin(*cubin);
    REQUIRE(program.has_value());
    const sass::Function* code = program->find(prep.value().kernel->name);
    REQUIRE(code != nullptr);
    Planned out{prep.value(), {}};
    make_plan(out, *code);
    return out;
}

}  // namespace warpsim::sass_test
