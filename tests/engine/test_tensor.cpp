// tests/engine/test_tensor.cpp — ldmatrix / stmatrix in every .m8n8 form and mma.sync on f16, bf16, tf32 and
// 8-bit integers (tests/ptx/tensor_mma.cu). Expected values come from the PTX ISA's fragment layouts written
// out again here, and from plain integer arithmetic (all floating-point inputs are small integers, so every
// sum is exact and no rounding model is involved).
#include <catch2/catch.hpp>

#include "tests/engine/engine_harness.hpp"

using namespace warpsim;

namespace {

std::string details(const engine::LaunchResult& r) { return r.error ? r.error->message + "\n" + r.error->details : ""; }

const test::Kernel& tensor_kernels() {
    static const test::Kernel k =
        test::parse(test::read_text(std::string(WARPSIM_SOURCE_DIR) + "/tests/ptx/tensor_mma.sm_90.lineinfo.ptx"));
    return k;
}

// Lane l's register for 8x8 matrix m (elements m[row][col]): row l/4, columns 2(l%4) and 2(l%4)+1; transposed,
// column l/4 of rows 2(l%4) and 2(l%4)+1. The first element is the low half.
uint32_t fragment(const uint16_t* m, uint32_t l, bool trans) {
    const uint32_t r = l / 4, c = 2 * (l % 4);
    return trans ? m[c * 8 + r] | uint32_t{m[(c + 1) * 8 + r]} << 16 : m[r * 8 + c] | uint32_t{m[r * 8 + c + 1]} << 16;
}

// What stmatrix writes for matrix i from every lane's register (the inverse of `fragment`).
void store_fragment(uint16_t* m, const std::array<uint32_t, 32>& reg, bool trans) {
    for (uint32_t l = 0; l < 32; ++l) {
        const uint32_t r = l / 4, c = 2 * (l % 4);
        const uint16_t lo = static_cast<uint16_t>(reg[l]), hi = static_cast<uint16_t>(reg[l] >> 16);
        if (trans) m[c * 8 + r] = lo, m[(c + 1) * 8 + r] = hi;
        else m[r * 8 + c] = lo, m[r * 8 + c + 1] = hi;
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
    const std::vector<std::pair<uint32_t, bool>> forms{{1, false}, {1, true}, {2, false}, {2, true}, {4, true}, {4, false}};
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
        const std::string name = std::string(kind) == "tf32" ? "mma_tf32_m16n8k8" : "mma_" + std::string(kind) + "_m16n8k16";
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
