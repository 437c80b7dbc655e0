// tests/engine/test_shared_window.cpp — a block's shared window: dynamic shared memory at its 16-byte-aligned
// start after a small static variable is inside the window (it once faulted: the block got static + dynamic
// bytes while the dynamic array started at the aligned offset).
#include <catch2/catch.hpp>

#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

// __global__ void flag_and_dynamic(float* out) {
//     __shared__ bool flag; extern __shared__ float dyn[];
//     if (threadIdx.x == 0) flag = true;
//     dyn[threadIdx.x] = threadIdx.x;
//     __syncthreads();
//     out[threadIdx.x] = flag ? dyn[127 - threadIdx.x] : -1.0f;
// }
// written as nvcc lays it out: the bool at .align 1, the extern array at module scope, .align 16.
constexpr const char* kFlagAndDynamic = R"(.version 8.0
.target sm_90
.address_size 64
.extern .shared .align 16 .b8 dyn[];
.visible .entry flag_and_dynamic(.param .u64 out)
{
    .shared .align 1 .u8 flag;
    .reg .pred %p<3>;
    .reg .b16 %rs<3>;
    .reg .b32 %r<8>;
    .reg .f32 %f<4>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %tid.x;
    setp.ne.s32 %p1, %r1, 0;
    @%p1 bra $L1;
    mov.u16 %rs1, 1;
    st.shared.u8 [flag], %rs1;
$L1:
    cvt.rn.f32.u32 %f1, %r1;
    shl.b32 %r2, %r1, 2;
    mov.u32 %r3, dyn;
    add.s32 %r4, %r3, %r2;
    st.shared.f32 [%r4], %f1;
    bar.sync 0;
    ld.shared.u8 %rs2, [flag];
    setp.eq.s16 %p2, %rs2, 0;
    sub.s32 %r5, 127, %r1;
    shl.b32 %r6, %r5, 2;
    add.s32 %r7, %r3, %r6;
    ld.shared.f32 %f2, [%r7];
    selp.f32 %f3, 0fBF800000, %f2, %p2;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd2, %rd3;
    st.global.f32 [%rd4], %f3;
    ret;
}
)";

}  // namespace

TEST_CASE("shared window: 512 dynamic bytes after a one-byte static bool are all inside the block's window") {
    auto k = test::parse(kFlagAndDynamic);
    INFO(k.diagnostics);
    REQUIRE(k.parsed.ok());
    const ir::Function* fn = k.find("flag_and_dynamic");
    REQUIRE(fn);
    engine::Simulator sim;
    const uint64_t out = test::upload(sim, std::vector<float>(128, 0.0f));
    test::Params p;
    p.add(out);
    auto cfg = test::config({1, 1, 1}, {128, 1, 1});
    cfg.dynamic_shared_bytes = 512;
    const auto r = sim.launch(k.parsed.module, *fn, cfg, p.span(), nullptr);
    INFO((r.error ? r.error->message + "\n" + r.error->details : std::string{}));
    REQUIRE_FALSE(r.error);
    const auto got = test::download<float>(sim, out, 128);
    for (int i = 0; i < 128; ++i) {
        INFO(i);
        CHECK(got[i] == static_cast<float>(127 - i));  // by hand: thread i reads what thread 127-i stored
    }
}
