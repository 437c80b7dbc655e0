// tests/engine/test_tensor.cpp — ldmatrix / stmatrix in every .m8n8 form and mma.sync on f16, bf16, tf32 and
// 8-bit integers (tests/ptx/tensor_mma.cu); mma.sync with f16 accumulators and movmatrix
// (tests/ptx/mma_f16acc.cu); wmma in every shape, type and layout and a small nvcuda::wmma GEMM
// (tests/ptx/wmma.cu), checked against plain integer matrix products; the tf32 two-step case and the rejected
// forms worked out by hand. Expected values come from the PTX ISA's fragment layouts written out again here,
// and from plain integer arithmetic (all floating-point inputs are small integers, so every sum is exact and
// no rounding model is involved).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <tuple>

#include "kernels_ir/forms/form.hpp"
#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

std::string details(const engine::LaunchResult& r) {
    return r.error ? r.error->message + "\n" + r.error->details : "";
}

const test::Kernel& tensor_kernels() {
    static const test::Kernel k = test::parse(
        test::read_text(std::string(WARPSIM_SOURCE_DIR) + "/tests/ptx/tensor_mma.sm_90.lineinfo.ptx"));
    return k;
}

// Lane l's register for 8x8 matrix m (elements m[row][col]): row l/4, columns 2(l%4) and 2(l%4)+1;
// transposed, column l/4 of rows 2(l%4) and 2(l%4)+1. The first element is the low half.
uint32_t fragment(const uint16_t* m, uint32_t l, bool trans) {
    const uint32_t r = l / 4, c = 2 * (l % 4);
    return trans ? m[c * 8 + r] | uint32_t{m[(c + 1) * 8 + r]} << 16
                 : m[r * 8 + c] | uint32_t{m[r * 8 + c + 1]} << 16;
}

// What stmatrix writes for matrix i from every lane's register (the inverse of `fragment`).
void store_fragment(uint16_t* m, const std::array<uint32_t, 32>& reg, bool trans) {
    for (uint32_t l = 0; l < 32; ++l) {
        const uint32_t r = l / 4, c = 2 * (l % 4);
        const uint16_t lo = static_cast<uint16_t>(reg[l]), hi = static_cast<uint16_t>(reg[l] >> 16);
        if (trans)
            m[c * 8 + r] = lo, m[(c + 1) * 8 + r] = hi;
        else
            m[r * 8 + c] = lo, m[r * 8 + c + 1] = hi;
    }
}

uint16_t to_f16(int v) {  // small non-negative integers (< 2048) only
    if (v == 0) return 0;
    int e = 0;
    while ((v >> (e + 1)) != 0) ++e;
    return static_cast<uint16_t>(((e + 15) << 10) | ((v << (10 - e)) & 0x3ff));
}
uint16_t to_bf16(int v) {  // integers < 256: exact
    float f = static_cast<float>(v);
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return static_cast<uint16_t>(b >> 16);
}

}  // namespace

TEST_CASE("ldmatrix and stmatrix .m8n8 .x1/.x2/.x4 with and without .trans") {
    const auto& k = tensor_kernels();
    REQUIRE(k.parsed.ok());
    const ir::Function* fn = test::kernel_named(k, "ldmatrix_forms");
    REQUIRE(fn);
    engine::Simulator sim;
    std::vector<uint16_t> tile(256);
    for (int i = 0; i < 256; ++i) tile[i] = static_cast<uint16_t>(i * 7 + 3);
    const uint64_t din = test::upload(sim, tile), dout = test::upload(sim, std::vector<uint32_t>(448, 0)),
                   dback = test::upload(sim, std::vector<uint16_t>(1536, 0));
    test::Params p;
    p.add(din).add(dout).add(dback);
    auto r = sim.launch(k.parsed.module, *fn, test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto out = test::download<uint32_t>(sim, dout, 448);
    auto back = test::download<uint16_t>(sim, dback, 1536);
    // Forms in the order the kernel stores them: (matrices, transposed).
    const std::vector<std::pair<uint32_t, bool>> forms{{1, false}, {1, true}, {2, false},
                                                       {2, true},  {4, true}, {4, false}};
    std::size_t at = 0;
    for (auto [num, trans] : forms)
        for (uint32_t i = 0; i < num; ++i, at += 32)
            for (uint32_t l = 0; l < 32; ++l) {
                INFO("x" << num << (trans ? ".trans" : "") << " register " << i << " lane " << l);
                REQUIRE(out[at + l] == fragment(&tile[i * 64], l, trans));
            }
    // stmatrix: the x4 registers xor (lane * 0x00010001), stored by the forms in the kernel's order.
    std::array<std::array<uint32_t, 32>, 4> reg{};
    for (uint32_t i = 0; i < 4; ++i)
        for (uint32_t l = 0; l < 32; ++l) reg[i][l] = fragment(&tile[i * 64], l, false) ^ (l * 0x00010001u);
    std::vector<uint16_t> want(1536, 0);
    store_fragment(&want[0], reg[0], false);
    store_fragment(&want[256], reg[1], true);
    store_fragment(&want[512], reg[0], false), store_fragment(&want[512 + 64], reg[1], false);
    store_fragment(&want[768], reg[2], true), store_fragment(&want[768 + 64], reg[3], true);
    for (uint32_t i = 0; i < 4; ++i) store_fragment(&want[1024 + 64 * i], reg[i], false);
    for (uint32_t i = 0; i < 4; ++i) store_fragment(&want[1280 + 64 * i], reg[3 - i], true);
    for (std::size_t i = 0; i < want.size(); ++i) {
        INFO("back[" << i << "]");
        REQUIRE(back[i] == want[i]);
    }
}

TEST_CASE("mma.sync m16n8k16 f16 and bf16 -> f32, m16n8k8 tf32 -> f32 on exact integer data") {
    const auto& k = tensor_kernels();
    for (const char* kind : {"f16", "bf16", "tf32"}) {
        const std::string name =
            std::string(kind) == "tf32" ? "mma_tf32_m16n8k8" : "mma_" + std::string(kind) + "_m16n8k16";
        const ir::Function* fn = test::kernel_named(k, name);
        REQUIRE(fn);
        const int K = std::string(kind) == "tf32" ? 8 : 16;
        // a[r * K + k] = (r * 3 + k * 5) % 23, b[n * K + k] = (n + 2 * k) % 13, c[r * 8 + n] = r - n.
        std::vector<int> ai(16 * K), bi(8 * K);
        for (int r = 0; r < 16; ++r)
            for (int kk = 0; kk < K; ++kk) ai[r * K + kk] = (r * 3 + kk * 5) % 23;
        for (int n = 0; n < 8; ++n)
            for (int kk = 0; kk < K; ++kk) bi[n * K + kk] = (n + 2 * kk) % 13;
        std::vector<float> c(128);
        for (int i = 0; i < 128; ++i) c[i] = static_cast<float>(i / 8 - i % 8);
        engine::Simulator sim;
        uint64_t da, db;
        if (K == 8) {
            da = test::upload(sim, std::vector<float>(ai.begin(), ai.end()));
            db = test::upload(sim, std::vector<float>(bi.begin(), bi.end()));
        } else {
            auto conv = [&](const std::vector<int>& v) {
                std::vector<uint16_t> h;
                for (int x : v) h.push_back(std::string(kind) == "f16" ? to_f16(x) : to_bf16(x));
                return h;
            };
            da = test::upload(sim, conv(ai));
            db = test::upload(sim, conv(bi));
        }
        const uint64_t dc = test::upload(sim, c), dd = test::upload(sim, std::vector<float>(128, -1));
        test::Params p;
        p.add(da).add(db).add(dc).add(dd).add(int32_t{0});
        auto r = sim.launch(k.parsed.module, *fn, test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
        INFO(kind << ": " << details(r));
        REQUIRE(r.ok());
        auto d = test::download<float>(sim, dd, 128);
        for (int row = 0; row < 16; ++row)
            for (int n = 0; n < 8; ++n) {
                int sum = row - n;
                for (int kk = 0; kk < K; ++kk) sum += ai[row * K + kk] * bi[n * K + kk];
                INFO(kind << " D[" << row << "][" << n << "]");
                REQUIRE(d[row * 8 + n] == static_cast<float>(sum));
            }
    }
}

TEST_CASE("mma.sync m16n8k32 s8/u8 -> s32, wrapping without .satfinite and clamping with it") {
    const auto& k = tensor_kernels();
    const ir::Function* fn = test::kernel_named(k, "mma_int8_m16n8k32");
    REQUIRE(fn);
    std::vector<uint8_t> a(512), b(256);
    for (int i = 0; i < 512; ++i) a[i] = static_cast<uint8_t>(i * 37 + 11);
    for (int i = 0; i < 256; ++i) b[i] = static_cast<uint8_t>(i * 91 + 5);
    for (int32_t c0 : {-7, 2147480000}) {
        engine::Simulator sim;
        std::vector<int32_t> c(128);
        for (int i = 0; i < 128; ++i) c[i] = c0 + (c0 < 0 ? i : 0);
        const uint64_t da = test::upload(sim, a), db = test::upload(sim, b), dc = test::upload(sim, c),
                       dd = test::upload(sim, std::vector<int32_t>(384, 0));
        test::Params p;
        p.add(da).add(db).add(dc).add(dd);
        auto r = sim.launch(k.parsed.module, *fn, test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
        INFO(details(r));
        REQUIRE(r.ok());
        auto d = test::download<int32_t>(sim, dd, 384);
        bool clamped = false;
        for (int row = 0; row < 16; ++row)
            for (int n = 0; n < 8; ++n) {
                int64_t ss = c[row * 8 + n], us = ss;
                for (int kk = 0; kk < 32; ++kk) {
                    const int64_t bs = static_cast<int8_t>(b[n * 32 + kk]);
                    ss += static_cast<int8_t>(a[row * 32 + kk]) * bs;
                    us += a[row * 32 + kk] * bs;
                }
                INFO("c0 " << c0 << " D[" << row << "][" << n << "]");
                CHECK(d[row * 8 + n] == static_cast<int32_t>(static_cast<uint32_t>(ss)));
                CHECK(d[128 + row * 8 + n] == static_cast<int32_t>(static_cast<uint32_t>(us)));
                const int64_t sat = std::clamp<int64_t>(ss, INT32_MIN, INT32_MAX);
                clamped = clamped || sat != ss;
                CHECK(d[256 + row * 8 + n] == sat);
            }
        if (c0 > 0) CHECK(clamped);  // the data does reach the clamp
    }
}

// ---- f16 accumulators, movmatrix, wmma (tests/ptx/mma_f16acc.cu, tests/ptx/wmma.cu)
// -------------------------

namespace {

const test::Kernel& f16acc_kernels() {
    static const test::Kernel k = test::parse(
        test::read_text(std::string(WARPSIM_SOURCE_DIR) + "/tests/ptx/mma_f16acc.sm_90.lineinfo.ptx"));
    return k;
}

const test::Kernel& wmma_kernels() {
    static const test::Kernel k =
        test::parse(test::read_text(std::string(WARPSIM_SOURCE_DIR) + "/tests/ptx/wmma.sm_90.lineinfo.ptx"));
    return k;
}

uint32_t f32_bits(float f) {
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

}  // namespace

TEST_CASE("mma.sync m16n8k16 and m16n8k8 with f16 C and D on exact integer data") {
    const auto& k = f16acc_kernels();
    REQUIRE(k.parsed.ok());
    for (const int K : {16, 8}) {
        const ir::Function* fn =
            test::kernel_named(k, K == 16 ? "mma_f16acc_m16n8k16" : "mma_f16acc_m16n8k8");
        REQUIRE(fn);
        // a[r][k] = (3r + 5k) % 7, b[n][k] = (n + 2k) % 5, c[r][n] = 2r + n: every sum is an integer below
        // 2048.
        std::vector<uint16_t> a(16 * K), b(8 * K), c16(128);
        std::vector<float> c32(128);
        for (int r = 0; r < 16; ++r)
            for (int kk = 0; kk < K; ++kk) a[r * K + kk] = to_f16((3 * r + 5 * kk) % 7);
        for (int n = 0; n < 8; ++n)
            for (int kk = 0; kk < K; ++kk) b[n * K + kk] = to_f16((n + 2 * kk) % 5);
        for (int i = 0; i < 128; ++i)
            c16[i] = to_f16(2 * (i / 8) + i % 8), c32[i] = static_cast<float>(2 * (i / 8) + i % 8);
        engine::Simulator sim;
        const uint64_t da = test::upload(sim, a), db = test::upload(sim, b), dc16 = test::upload(sim, c16),
                       dc32 = test::upload(sim, c32),
                       dd16 = test::upload(sim, std::vector<uint16_t>(128, 0xffff)),
                       dd32 = test::upload(sim, std::vector<float>(128, -1));
        test::Params p;
        p.add(da).add(db).add(dc16).add(dc32).add(dd16).add(dd32).add(int32_t{0});
        auto r = sim.launch(k.parsed.module, *fn, test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
        INFO("K " << K << ": " << details(r));
        REQUIRE(r.ok());
        auto d16 = test::download<uint16_t>(sim, dd16, 128);
        auto d32 = test::download<float>(sim, dd32, 128);
        for (int row = 0; row < 16; ++row)
            for (int n = 0; n < 8; ++n) {
                int sum = 2 * row + n;
                for (int kk = 0; kk < K; ++kk) sum += ((3 * row + 5 * kk) % 7) * ((n + 2 * kk) % 5);
                INFO("K " << K << " D[" << row << "][" << n << "]");
                CHECK(d16[row * 8 + n] == to_f16(sum));
                CHECK(d32[row * 8 + n] == static_cast<float>(sum));
            }
    }
}

TEST_CASE(
    "mma.sync f16 forms the H200 does not have and ldmatrix .b8 shapes of sm_100a stop with a clear error") {
    auto k = test::parse(R"(
.version 8.7
.target sm_90
.address_size 64
.visible .entry mixed(.param .u64 out)
{
    .reg .b32 %r<12>;
    .reg .f32 %f<8>;
    mov.b32 %r1, 0;
    mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16 {%f1, %f2, %f3, %f4}, {%r1, %r1, %r1, %r1}, {%r1, %r1}, {%r1, %r1};
    ret;
}
.visible .entry b8(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    mov.u64 %rd1, 0;
    ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r1, %r2}, [%rd1];
    ret;
}
.visible .entry st_b8(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .b64 %rd<2>;
    mov.u64 %rd1, 0;
    mov.b32 %r1, 0;
    stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 [%rd1], {%r1};
    ret;
}
)");
    REQUIRE(k.parsed.ok());
    engine::Simulator sim;
    const uint64_t out = test::upload(sim, std::vector<uint32_t>(4, 0));
    test::Params p;
    p.add(out);
    auto mixed = sim.launch(k.parsed.module, *test::kernel_named(k, "mixed"),
                            test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
    REQUIRE(mixed.error);
    CHECK_THAT(mixed.error->message, Catch::Contains("need .dtype equal to .ctype"));
    CHECK_THAT(mixed.error->message, Catch::Contains("test.ptx:10"));
    auto b8 = sim.launch(k.parsed.module, *test::kernel_named(k, "b8"), test::config({1, 1, 1}, {32, 1, 1}),
                         p.span(), nullptr);
    REQUIRE(b8.error);
    CHECK_THAT(b8.error->message, Catch::Contains("need sm_100a"));
    CHECK_THAT(b8.error->message, Catch::Contains("test.ptx:18"));
    auto st = sim.launch(k.parsed.module, *test::kernel_named(k, "st_b8"),
                         test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
    REQUIRE(st.error);
    CHECK_THAT(st.error->message, Catch::Contains("need sm_100a"));
    CHECK_THAT(st.error->message, Catch::Contains("test.ptx:27"));
}

TEST_CASE(
    "mma.sp parses into its form and stops with the engine's not-executed error, an ill-formed one with "
    "the form's") {
    auto k = test::parse(R"(
.version 8.7
.target sm_90
.address_size 64
.visible .entry sparse(.param .u64 out)
{
    .reg .b32 %r<4>;
    .reg .f32 %f<8>;
    mov.b32 %r1, 0;
    mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r1}, {%r1, %r1}, {%f1, %f2, %f3, %f4}, %r1, 0x0;
    ret;
}
.visible .entry sparse_k8(.param .u64 out)
{
    .reg .b32 %r<4>;
    mov.b32 %r1, 0;
    mma.sp.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%r1, %r2}, {%r1, %r1}, {%r1, %r1}, {%r1, %r2}, %r1, 0x0;
    ret;
}
)");
    REQUIRE(k.parsed.ok());
    const ir::Function* sparse = test::kernel_named(k, "sparse");
    REQUIRE(sparse);
    const ir::MmaForm* f = ir::form_as<ir::MmaForm>(sparse->body.at(1));
    REQUIRE(f);
    CHECK(f->sparsity == ir::MmaSparsity::sp_ordered_metadata);
    engine::Simulator sim;
    const uint64_t out = test::upload(sim, std::vector<uint32_t>(4, 0));
    test::Params p;
    p.add(out);
    auto r = sim.launch(k.parsed.module, *sparse, test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
    REQUIRE(r.error);
    CHECK(r.error->message ==
          "warpsim does not execute `mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32` "
          "yet "
          "(test.ptx:10)");
    auto k8 = sim.launch(k.parsed.module, *test::kernel_named(k, "sparse_k8"),
                         test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
    REQUIRE(k8.error);
    CHECK_THAT(k8.error->message, Catch::Contains("'.m16n8k8' is not an mma.sp shape for .f16"));
    CHECK_THAT(k8.error->message, Catch::Contains("test.ptx:17"));
}

TEST_CASE("movmatrix.m8n8.trans.b16 transposes the matrix held in the ldmatrix fragment layout") {
    const auto& k = f16acc_kernels();
    const ir::Function* fn = test::kernel_named(k, "movmatrix_trans");
    REQUIRE(fn);
    std::vector<uint16_t> m(128);
    for (int i = 0; i < 128; ++i) m[i] = static_cast<uint16_t>(i * 37 + 5);
    engine::Simulator sim;
    const uint64_t din = test::upload(sim, m), dout = test::upload(sim, std::vector<uint32_t>(128, 0)),
                   d16 = test::upload(sim, std::vector<uint16_t>(128, 0));
    test::Params p;
    p.add(din).add(dout).add(d16);
    auto r = sim.launch(k.parsed.module, *fn, test::config({2, 1, 1}, {32, 1, 1}), p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto t = test::download<uint16_t>(sim, d16, 128);
    auto regs = test::download<uint32_t>(sim, dout, 128);
    for (int blk = 0; blk < 2; ++blk)
        for (int i = 0; i < 8; ++i)
            for (int j = 0; j < 8; ++j) {
                INFO("block " << blk << " element (" << i << ", " << j << ")");
                CHECK(t[blk * 64 + i * 8 + j] == m[blk * 64 + j * 8 + i]);
            }
    // Lane 1 holds row 0, columns 2 and 3 before; after, the transpose's row 0, columns 2 and 3: m[2][0],
    // m[3][0].
    CHECK(regs[64 + 32 + 1] == (m[64 + 16] | uint32_t{m[64 + 24]} << 16));
}

TEST_CASE(
    "wmma.load/mma/store on f16 (f32 and f16 accumulators), every shape and layout, exact integer data") {
    const auto& k = wmma_kernels();
    REQUIRE(k.parsed.ok());
    // Block b: A column-major if b & 1, B column-major if b & 2, C and D column-major if b & 4; leading
    // dimensions the matrix's own + 16; blocks 8-15 repeat 0-7 with the f16 accumulator; each block's
    // matrices start at 2048 b.
    for (auto [name, M, N] :
         {std::tuple{"wmma_f16_m16n16k16", 16, 16}, std::tuple{"wmma_f16_m32n8k16", 32, 8},
          std::tuple{"wmma_f16_m8n32k16", 8, 32}}) {
        const ir::Function* fn = test::kernel_named(k, name);
        REQUIRE(fn);
        const int K = 16, R = 2048;
        std::vector<uint16_t> a(16 * R), b(16 * R), c16(16 * R);
        std::vector<float> c32(16 * R);
        for (int i = 0; i < 16 * R; ++i) {
            a[i] = to_f16(i % 5), b[i] = to_f16((i / 3) % 4);
            c16[i] = to_f16(i % 9), c32[i] = static_cast<float>(i % 9);
        }
        engine::Simulator sim;
        const uint64_t da = test::upload(sim, a), db = test::upload(sim, b), dc32 = test::upload(sim, c32),
                       dc16 = test::upload(sim, c16), dd32 = test::upload(sim, std::vector<float>(16 * R, 0)),
                       dd16 = test::upload(sim, std::vector<uint16_t>(16 * R, 0));
        test::Params p;
        p.add(da).add(db).add(dc32).add(dc16).add(dd32).add(dd16);
        auto r = sim.launch(k.parsed.module, *fn, test::config({16, 1, 1}, {32, 1, 1}), p.span(), nullptr);
        INFO(name << ": " << details(r));
        REQUIRE(r.ok());
        auto d32 = test::download<float>(sim, dd32, 16 * R);
        auto d16 = test::download<uint16_t>(sim, dd16, 16 * R);
        for (int blk = 0; blk < 16; ++blk) {
            const bool acol = blk & 1, bcol = blk & 2, ccol = blk & 4;
            const int off = blk * R, lda = (acol ? M : K) + 16, ldb = (bcol ? K : N) + 16,
                      ldc = (ccol ? M : N) + 16;
            for (int i = 0; i < M; ++i)
                for (int j = 0; j < N; ++j) {
                    const int ci = off + (ccol ? j * ldc + i : i * ldc + j);
                    int sum = ci % 9;
                    for (int kk = 0; kk < K; ++kk)
                        sum += ((off + (acol ? kk * lda + i : i * lda + kk)) % 5) *
                               (((off + (bcol ? j * ldb + kk : kk * ldb + j)) / 3) % 4);
                    INFO(name << " block " << blk << " D[" << i << "][" << j << "]");
                    if (blk < 8)
                        CHECK(d32[ci] == static_cast<float>(sum));
                    else
                        CHECK(d16[ci] == to_f16(sum));
                }
        }
    }
}

TEST_CASE("wmma on s8/u8 (wrapping, and clamping with .satfinite), every shape and layout") {
    const auto& k = wmma_kernels();
    for (auto [name, M, N] :
         {std::tuple{"wmma_int8_m16n16k16", 16, 16}, std::tuple{"wmma_int8_m32n8k16", 32, 8},
          std::tuple{"wmma_int8_m8n32k16", 8, 32}}) {
        const ir::Function* fn = test::kernel_named(k, name);
        REQUIRE(fn);
        const int K = 16, R = 2048;
        std::vector<uint8_t> a(24 * R), b(24 * R);
        std::vector<int32_t> c(24 * R);
        for (int i = 0; i < 24 * R; ++i) {
            a[i] = static_cast<uint8_t>(i * 37 + 11), b[i] = static_cast<uint8_t>(i * 91 + 5);
            c[i] = (i % 3 == 0) ? 2147483000 - i : (i % 3 == 1 ? -2147483000 + i : i);  // near both limits
        }
        engine::Simulator sim;
        const uint64_t da = test::upload(sim, a), db = test::upload(sim, b), dc = test::upload(sim, c),
                       dd = test::upload(sim, std::vector<int32_t>(24 * R, 0));
        test::Params p;
        p.add(da).add(db).add(dc).add(dd);
        auto r = sim.launch(k.parsed.module, *fn, test::config({24, 1, 1}, {32, 1, 1}), p.span(), nullptr);
        INFO(name << ": " << details(r));
        REQUIRE(r.ok());
        auto d = test::download<int32_t>(sim, dd, 24 * R);
        for (int blk = 0; blk < 24; ++blk) {
            const bool acol = blk & 1, bcol = blk & 2, ccol = blk & 4, u8 = blk >= 8 && blk < 16,
                       sat = blk >= 16;
            const int off = blk * R, lda = (acol ? M : K) + 16, ldb = (bcol ? K : N) + 16,
                      ldc = (ccol ? M : N) + 16;
            for (int i = 0; i < M; ++i)
                for (int j = 0; j < N; ++j) {
                    const int ci = off + (ccol ? j * ldc + i : i * ldc + j);
                    int64_t sum = c[ci];
                    for (int kk = 0; kk < K; ++kk) {
                        const uint8_t x = a[off + (acol ? kk * lda + i : i * lda + kk)];
                        const uint8_t y = b[off + (bcol ? j * ldb + kk : kk * ldb + j)];
                        sum += u8 ? int64_t{x} * y : int64_t{static_cast<int8_t>(x)} * static_cast<int8_t>(y);
                    }
                    const int32_t want =
                        sat ? static_cast<int32_t>(std::clamp<int64_t>(sum, INT32_MIN, INT32_MAX))
                            : static_cast<int32_t>(static_cast<uint32_t>(sum));
                    INFO(name << " block " << blk << " D[" << i << "][" << j << "]");
                    CHECK(d[ci] == want);
                }
        }
    }
}

TEST_CASE("wmma m16n16k8 tf32 adds in two k4 steps with the f32 result truncated in between") {
    const auto& k = wmma_kernels();
    const ir::Function* fn = test::kernel_named(k, "wmma_tf32_m16n16k8");
    REQUIRE(fn);
    // Block 0: A (16 x 8, ld 24), B (8 x 16, ld 32), C (16 x 16, ld 32), all row-major; 2^-12 = 0x39800000.
    std::vector<float> a(2048, 0), b(2048, 0), c(2048, 0);
    const float t = 1.0f / 4096;
    // D[0][0] = 1 + 2^-24 (k = 0) + 2^-24 (k = 4): each k4 step truncates 1 + 2^-24 to 1, so 1.0.
    a[0 * 24 + 0] = t, b[0 * 32 + 0] = t, a[0 * 24 + 4] = t, b[4 * 32 + 0] = t, c[0] = 1;
    // D[1][1] = 1 + 2^-24 (k = 0) + 2^-24 (k = 1): one step, 1 + 2^-23 exactly (0x3f800001).
    a[1 * 24 + 0] = t, a[1 * 24 + 1] = t, b[0 * 32 + 1] = t, b[1 * 32 + 1] = t, c[1 * 32 + 1] = 1;
    engine::Simulator sim;
    const uint64_t da = test::upload(sim, a), db = test::upload(sim, b), dc = test::upload(sim, c),
                   dd = test::upload(sim, std::vector<float>(2048, -1));
    test::Params p;
    p.add(da).add(db).add(dc).add(dd);
    auto r = sim.launch(k.parsed.module, *fn, test::config({1, 1, 1}, {32, 1, 1}), p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto d = test::download<float>(sim, dd, 2048);
    CHECK(f32_bits(d[0]) == 0x3f800000u);
    CHECK(f32_bits(d[1 * 32 + 1]) == 0x3f800001u);
    CHECK(d[2 * 32 + 3] == 0.0f);
}

TEST_CASE("an nvcuda::wmma GEMM staged through shared memory: C = 1.5 A B - 0.5 C on exact data") {
    const auto& k = wmma_kernels();
    const ir::Function* fn = test::kernel_named(k, "wmma_gemm");
    REQUIRE(fn);
    const int n = 64;
    std::vector<uint16_t> A(n * n), B(n * n);  // A row-major, B column-major (B[col * n + k])
    std::vector<float> C(n * n);
    for (int i = 0; i < n * n; ++i)
        A[i] = to_f16(i % 7), B[i] = to_f16((i / 5) % 3), C[i] = static_cast<float>(2 * (i % 11));
    engine::Simulator sim;
    const uint64_t da = test::upload(sim, A), db = test::upload(sim, B), dc = test::upload(sim, C);
    test::Params p;
    p.add(da).add(db).add(dc).add(int32_t{n}).add(int32_t{n}).add(int32_t{n}).add(1.5f).add(-0.5f);
    auto r = sim.launch(k.parsed.module, *fn, test::config({2, 2, 1}, {128, 1, 1}), p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto out = test::download<float>(sim, dc, n * n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            int s = 0;
            for (int kk = 0; kk < n; ++kk) s += ((i * n + kk) % 7) * (((j * n + kk) / 5) % 3);
            INFO("C[" << i << "][" << j << "]");
            CHECK(out[i * n + j] == 1.5f * static_cast<float>(s) - 0.5f * C[i * n + j]);
        }
}

TEST_CASE("wmma.mma takes immediate C elements; wmma.load without a stride uses the matrix's own width") {
    auto k = test::parse(R"(
.version 8.7
.target sm_90
.address_size 64
.visible .entry imm_c(.param .u64 pa, .param .u64 pb, .param .u64 pd)
{
    .reg .b32 %r<20>;
    .reg .f32 %f<10>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [pd];
    wmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];
    wmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16}, [%rd2];
    wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, {%r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16}, {0f3F800000, 0f3F800000, 0f3F800000, 0f3F800000, 0f3F800000, 0f3F800000, 0f3F800000, 0f3F800000};
    wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd3], {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};
    ret;
}
)");
    REQUIRE(k.parsed.ok());
    // A row-major 16 x 16 (ld 16), B column-major (column n at b[16 n]), D row-major (ld 16): D = A B + 1.
    std::vector<uint16_t> a(256), b(256);
    for (int i = 0; i < 256; ++i) a[i] = to_f16(i % 6), b[i] = to_f16((i * 7) % 5);
    engine::Simulator sim;
    const uint64_t da = test::upload(sim, a), db = test::upload(sim, b),
                   dd = test::upload(sim, std::vector<float>(256, -1));
    test::Params p;
    p.add(da).add(db).add(dd);
    auto r = sim.launch(k.parsed.module, *test::kernel_named(k, "imm_c"), test::config({1, 1, 1}, {32, 1, 1}),
                        p.span(), nullptr);
    INFO(details(r));
    REQUIRE(r.ok());
    auto d = test::download<float>(sim, dd, 256);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            int s = 1;
            for (int kk = 0; kk < 16; ++kk) s += ((i * 16 + kk) % 6) * (((j * 16 + kk) * 7) % 5);
            INFO("D[" << i << "][" << j << "]");
            CHECK(d[i * 16 + j] == static_cast<float>(s));
        }
}
