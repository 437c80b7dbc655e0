// tests/examples/report_test.cpp — the learner's report and the HTML page on the examples: access rows split
// by kind, the sentences with strides and banks worked out by hand, the lane sample, and the lane-to-sector
// and lane-to-bank mappings in the HTML.
#include <algorithm>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/report/html_report.hpp"
#include "sim/report/lane_sample.hpp"
#include "sim/report/report_model.hpp"
#include "sim/report/text_report.hpp"
#include "tests/examples/example_support.hpp"

using namespace warpsim;
using namespace warpsim::examples_test;

namespace {

struct Reported {
    session::PreparedLaunch p;
    session::SimRun run;
    report::LaneSamples samples;
};

Reported run_with_samples(const std::string& name) {
    Reported r{prepare_example(name), {}, {}};
    r.run = simulate(r.p);
    auto s = report::sample_lanes(r.p, r.run);
    REQUIRE(s.ok());
    r.samples = std::move(s.value());
    return r;
}

// The (lane, value) pairs of the SVG lines that carry data-lane and `attr` ("data-sector", "data-bank").
std::vector<std::pair<int, uint64_t>> lane_map(const std::string& html, const std::string& attr) {
    std::vector<std::pair<int, uint64_t>> out;
    const std::regex re("<line data-lane=\"(\\d+)\" " + attr + "=\"(\\d+)\"");
    for (auto it = std::sregex_iterator(html.begin(), html.end(), re); it != std::sregex_iterator(); ++it) {
        out.emplace_back(std::stoi((*it)[1]), std::stoull((*it)[2]));
    }
    return out;
}

}  // namespace

TEST_CASE("report rows: a line with a strided load and a coalesced store says which is which",
          "[examples][report]") {
    auto r = run_with_samples("coalescing_stride8");
    const auto m = report::build_model(r.p, r.run, &r.samples);
    // in[i * 8]: the load moves 32 sectors per request where 4 would do; out[i] = ...: 4, the ideal.
    const report::SourceRow* row = nullptr;
    for (const auto& sr : m.rows)
        if (sr.accesses.size() == 2) row = &sr;
    REQUIRE(row != nullptr);
    const auto& ld = row->accesses[0];
    const auto& st = row->accesses[1];
    CHECK(ld.kind == report::AccessKind::load);
    CHECK(ld.per_request() == 32.0);
    CHECK(ld.ideal_per_request() == 4.0);
    CHECK(ld.efficiency() == 0.125);
    CHECK(st.kind == report::AccessKind::store);
    CHECK(st.per_request() == 4.0);
    CHECK(st.note.empty());
    // 8 floats = 32 bytes between lanes.
    CHECK_THAT(ld.note, Catch::Contains("32 bytes apart") && Catch::Contains("12.5 %"));
    REQUIRE(m.worst_global);
    CHECK(&m.rows[m.worst_global->row] == row);

    const std::string text = report::text_report(r.p, r.run, {40, &r.samples});
    CHECK_THAT(text, Catch::Contains("global load: lanes read addresses 32 bytes apart"));
    for (size_t pos = 0, next; pos < text.size(); pos = next + 1) {
        next = text.find('\n', pos);
        if (next == std::string::npos) next = text.size();
        INFO(text.substr(pos, next - pos));
        CHECK(next - pos <= 110);
    }
}

TEST_CASE("report sentences: the naive transpose writes 4096 bytes apart, the [32][32] tile is 32-way",
          "[examples][report]") {
    {
        auto r = run_with_samples("transpose_naive_1024");
        const std::string text = report::text_report(r.p, r.run, {40, &r.samples});
        // out[x * M + (y + j)] with M = 1024 floats: consecutive x are 4096 bytes apart.
        CHECK_THAT(text, Catch::Contains("global store: lanes write addresses 4096 bytes apart"));
        // transpose.cu:10 is 68 characters of code: the default 35-column source cell holds its first 32 and
        // "..."; with room for 100 the column widens to the longest line shown and holds it whole.
        CHECK_THAT(text, Catch::Contains("   10  if (x < N && y + j < M) out[x * ...   "));
        report::TextReportOptions wide{40, &r.samples};
        wide.source_width = 100;
        const std::string full = report::text_report(r.p, r.run, wide);
        CHECK_THAT(full, Catch::Contains(
                             "   10  if (x < N && y + j < M) out[x * M + (y + j)] = in[(y + j) * N + x]"));
        CHECK_THAT(full, !Catch::Contains("..."));
        wide.source_width = 50;  // 47 characters and "..."
        CHECK_THAT(report::text_report(r.p, r.run, wide),
                   Catch::Contains("   10  if (x < N && y + j < M) out[x * M + (y + j)] = ...  "));
    }
    {
        auto r = run_with_samples("shared_tile_32x32");
        const std::string text = report::text_report(r.p, r.run, {40, &r.samples});
        // tile[c][r], c = lane: words 32 apart (128 bytes), all in one bank.
        CHECK_THAT(text, Catch::Contains("32-way bank conflict: lanes access words 32 apart (128 bytes)"));
        CHECK_THAT(text, Catch::Contains("32.00 wavefronts per request where 1.00 would do"));
    }
    {
        auto r = run_with_samples("coalescing_offset1");
        const auto m = report::build_model(r.p, r.run, &r.samples);
        REQUIRE(m.worst_global);
        // in[i + 1]: the first float of warp 0 is at byte 4 of its sector.
        CHECK_THAT(m.rows[m.worst_global->row].accesses[m.worst_global->access].note,
                   Catch::Contains("starts 4 bytes into a 32-byte sector"));
    }
}

TEST_CASE("lane sample: vector add n = 1000, block 3 warp 7 has 8 working lanes, every other warp 32",
          "[examples][report][seed]") {
    auto r = run_with_samples("vector_add_1000");
    CHECK(r.samples.complete);
    REQUIRE(r.samples.warps.size() == 4);
    for (const auto& [block, warps] : r.samples.warps) {
        REQUIRE(warps.size() == 8);
        for (size_t w = 0; w < warps.size(); ++w) {
            INFO("block " << block << " warp " << w);
            CHECK(warps[w].lanes_existing == 32);
            CHECK(warps[w].lanes_working == (block == 3 && w == 7 ? 8u : 32u));
        }
    }
    const std::string text = report::text_report(r.p, r.run, {40, &r.samples});
    CHECK_THAT(text, Catch::Contains("1000 of 1024 threads touched memory"));
    CHECK_THAT(text, Catch::Contains("block 3 warp 7 (8 of 32 lanes)"));
}

TEST_CASE("lane stride of a sample", "[examples][report]") {
    report::LaneSample s;
    s.active_mask = 0xffffffffu;
    for (int l = 0; l < 32; ++l) s.addr[l] = 1000 + 12 * static_cast<uint64_t>(l);
    CHECK(report::lane_stride(s) == 12);
    s.active_mask = 0b1011;  // lanes 0, 1, 3: still 12 bytes per lane
    CHECK(report::lane_stride(s) == 12);
    s.addr[3] = 5;
    CHECK_FALSE(report::lane_stride(s).has_value());
    s.active_mask = 1;
    CHECK_FALSE(report::lane_stride(s).has_value());
}

TEST_CASE("HTML: stride 8 maps lane l to sector l; stride 1 maps lane l to sector l / 8",
          "[examples][html]") {
    {
        auto r = run_with_samples("coalescing_stride8");
        const std::string html = report::html_report(r.p, r.run, &r.samples);
        CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
        // Self-contained: the only URL is the SVG namespace name, which is never fetched.
        const std::string no_ns =
            std::regex_replace(html, std::regex("xmlns=\"http://www.w3.org/2000/svg\""), "");
        CHECK(no_ns.find("http") == std::string::npos);
        CHECK(no_ns.find("src=") == std::string::npos);
        const auto map = lane_map(html, "data-sector");
        REQUIRE(map.size() == 32);  // one line per lane: a float never crosses a sector
        std::set<int> lanes;
        for (const auto& [lane, sector] : map) {
            INFO("lane " << lane);
            CHECK(sector == static_cast<uint64_t>(lane));  // byte 32 l of the warp's first sector
            lanes.insert(lane);
        }
        CHECK(lanes.size() == 32);
    }
    {
        auto r = run_with_samples("coalescing_stride1");
        const std::string html = report::html_report(r.p, r.run, &r.samples);
        const auto map = lane_map(html, "data-sector");
        REQUIRE(map.size() == 32);
        for (const auto& [lane, sector] : map) CHECK(sector == static_cast<uint64_t>(lane / 8));
    }
}

TEST_CASE("HTML: the [32][32] column read sends every lane to one bank, [32][33] to 32 banks",
          "[examples][html]") {
    {
        auto r = run_with_samples("shared_tile_32x32");
        const auto map = lane_map(report::html_report(r.p, r.run, &r.samples), "data-bank");
        REQUIRE(map.size() == 32);
        std::set<uint64_t> banks;
        for (const auto& [lane, bank] : map) banks.insert(bank);
        CHECK(banks.size() == 1);
    }
    {
        auto r = run_with_samples("shared_tile_32x33");
        const auto map = lane_map(report::html_report(r.p, r.run, &r.samples), "data-bank");
        REQUIRE(map.size() == 32);
        std::set<uint64_t> banks;
        for (const auto& [lane, bank] : map) banks.insert(bank);
        CHECK(banks.size() == 32);
    }
}

TEST_CASE("HTML: the launch picture shades the partial warp of the 4x4 multiply", "[examples][html]") {
    auto r = run_with_samples("matmul_tiled2_4x4");
    const std::string html = report::html_report(r.p, r.run, &r.samples);
    // 4 blocks of one warp each, 4 of whose 32 lanes exist.
    CHECK_THAT(html, Catch::Contains("block 3 warp 0: 4 of 32 lanes exist, 4 did memory work"));
    CHECK(html.find("block 4 warp 0") == std::string::npos);
    // The header says what the predicted time rests on: the default h200 preset's fit, its 1980 MHz boost.
    CHECK_THAT(html,
               Catch::Contains("<dt>timing parameters</dt><dd class=\"value\">measured</dd><dd "
                               "class=\"sub\">expected error: calibration 8.0 %, validation 7.2 % (MAPE, "
                               "tests/timing/sets.json), held-out corpus 19.5 % mean (docs/TIMING.md); "
                               "clock 1980 MHz, the preset&#39;s SM boost clock (clocks.sm_boost_mhz), "
                               "sustained under load (measured: clocks.sm_sustained_mhz)</dd>"));
}

namespace {

// The text of the SVG group that starts with `head`, up to its </g> (the groups drawn here do not nest).
std::string svg_group(const std::string& html, const std::string& head) {
    const size_t at = html.find(head);
    if (at == std::string::npos) return "";
    return html.substr(at, html.find("</g>", at) - at);
}

size_t count_of(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("HTML: blocks per SM over time shows 1057 blocks as a full wave and a one-block tail",
          "[examples][html]") {
    {
        // 8 blocks per SM on 132 SMs: 1056 per wave; block 1057 is a second wave on SM 0 alone.
        auto r = run_with_samples("waves_tail_1057");
        const std::string html = report::html_report(r.p, r.run, &r.samples);
        CHECK_THAT(html, Catch::Contains("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"sm-timeline\""));
        const std::string full = svg_group(html, "<g class=\"wave\" data-waves=\"1-1\">");
        REQUIRE_FALSE(full.empty());
        CHECK(count_of(full, "<rect") == 1);  // every SM holds 8: one bar over all rows
        const std::string tail = svg_group(html, "<g class=\"wave partial tail\" data-waves=\"2-2\">");
        REQUIRE_FALSE(tail.empty());
        CHECK(count_of(tail, "<rect") == 1);  // SM 0 alone
        CHECK_THAT(tail, Catch::Contains("wave 2 (tail): 1 block on 1 SM"));
        CHECK_THAT(html, Catch::Contains("The last wave holds 1 block on 1 of 132 SMs (0.1 % full)"));
    }
    {
        auto r = run_with_samples("waves_full_1056");
        const std::string html = report::html_report(r.p, r.run, &r.samples);
        CHECK_FALSE(svg_group(html, "<g class=\"wave\" data-waves=\"1-1\">").empty());
        CHECK(html.find("wave partial") == std::string::npos);
    }
}

TEST_CASE("HTML: the threads of an (8, 32) block form warps of 4 rows", "[examples][html]") {
    auto r = run_with_samples("scale_matrix_1000_8x32");
    const std::string html = report::html_report(r.p, r.run, &r.samples);
    const size_t at = html.find("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"thread-layout\"");
    REQUIRE(at != std::string::npos);
    const std::string svg = html.substr(at, html.find("</svg>", at) - at);
    // 256 threads, 8 warps of 32; warp 1 is threads 32-63: rows y = 4..7 of 8 threads each.
    CHECK(count_of(svg, "<g data-warp=") == 8);
    const std::string warp1 = svg_group(svg, "<g data-warp=\"1\">");
    CHECK_THAT(warp1, Catch::Contains("warp 1: threads 32 to 63 (32 threads)"));
    CHECK(count_of(warp1, "<rect") == 32);
    std::set<std::string> ys;
    const std::regex y_of("<rect x=\"\\d+\" y=\"(\\d+)\"");
    for (auto it = std::sregex_iterator(warp1.begin(), warp1.end(), y_of); it != std::sregex_iterator(); ++it)
        ys.insert((*it)[1]);
    CHECK(ys.size() == 4);
}

TEST_CASE("report: a float4 shared load at its ideal is no bank conflict, a strided one is",
          "[examples][report]") {
    auto p = session::prepare(std::string(WARPSIM_SOURCE_DIR) + "/tests/specs/bank_patterns_wide.json");
    REQUIRE(p.ok());
    const auto run = simulate(p.value());
    const std::string text = report::text_report(p.value(), run);
    // s4[lane]: 16 lanes x 4 words per half-warp pass = 64 words, 2 per bank: 4 wavefronts, the ideal.
    const size_t c = text.find("float4 c = s4[lane];");
    REQUIRE(c != std::string::npos);
    const std::string row_c = text.substr(c, text.find('\n', c) - c);
    CHECK_THAT(row_c, Catch::EndsWith("4.00   4.00"));
    // s2[lane * 16]: 128 bytes apart, 32 wavefronts where 4 would do.
    const size_t b = text.find("float2 b = s2[lane * 16];");
    REQUIRE(b != std::string::npos);
    CHECK_THAT(text.substr(b, text.find('\n', b) - b), Catch::EndsWith("16-way"));
}

namespace {

// The JSON the HTML page's script draws from: the text of <script type="application/json" id="line-data">.
nlohmann::json line_data(const std::string& html) {
    const std::string head = "<script type=\"application/json\" id=\"line-data\">";
    const size_t at = html.find(head);
    if (at == std::string::npos) return nullptr;
    const size_t from = at + head.size();
    return nlohmann::json::parse(html.substr(from, html.find("</script>", from) - from));
}

// The model row (the data's key) of a CUDA source line, or "" when the page has no row for it.
std::string row_key(const std::string& html, uint32_t line) {
    const std::regex re("<tr class=\"srcline act\" data-line=\"" + std::to_string(line) +
                        "\" data-row=\"(\\d+)\"");
    std::smatch m;
    return std::regex_search(html, m, re) ? std::string(m[1]) : std::string();
}

}  // namespace

TEST_CASE("HTML source view: the [32][32] tile's lines carry their banks as data, the header its launch",
          "[examples][html]") {
    auto r = run_with_samples("shared_tile_32x32");
    const std::string html = report::html_report(r.p, r.run, &r.samples);
    CHECK_THAT(html, Catch::Contains("<dl class=\"header\" id=\"launch-header\">"));
    CHECK_THAT(html, Catch::Contains(
                         fmt::format("<dd class=\"value\">{} per thread</dd>", r.run.registers.registers)));
    CHECK_THAT(html, Catch::Contains("<dt>predicted time</dt>"));
    CHECK_THAT(html, Catch::Contains("<dt>bound</dt>"));
    const auto data = line_data(html);
    REQUIRE(data.is_object());
    // Line 11, out[...] = tile[c][r]: lane c of warp r reads word 32 c + r, all in bank r: one bank asked for
    // 32 different words, the 31 others for none.
    const std::string read = row_key(html, 11);
    REQUIRE_FALSE(read.empty());
    const auto& accesses = data.at(read).at("accesses");
    const auto shared = std::find_if(accesses.begin(), accesses.end(),
                                     [](const auto& a) { return a.at("space") == "shared"; });
    REQUIRE(shared != accesses.end());
    const auto& s = shared->at("sample");
    const uint32_t warp = s.at("warp");
    for (uint32_t lane = 0; lane < 32; ++lane)
        CHECK(s.at("lane_banks").at(lane) == nlohmann::json::array({warp}));
    for (uint32_t bank = 0; bank < 32; ++bank) CHECK(s.at("bank_count").at(bank) == (bank == warp ? 32 : 0));
    // Line 9, tile[r][c] = in[...]: lane c writes word 32 r + c, bank c; it reads in[base + 32 r + c], 8
    // lanes to a sector.
    const std::string write = row_key(html, 9);
    REQUIRE_FALSE(write.empty());
    for (const auto& a : data.at(write).at("accesses")) {
        const auto& t = a.at("sample");
        for (uint32_t lane = 0; lane < 32; ++lane) {
            if (a.at("space") == "shared")
                CHECK(t.at("lane_banks").at(lane) == nlohmann::json::array({lane}));
            else
                CHECK(t.at("lane_sectors").at(lane) == nlohmann::json::array({lane / 8}));
        }
    }
    // Lines 7, 8 and 10 (index arithmetic, __syncthreads) have nothing to draw: no data row.
    CHECK(row_key(html, 10).empty());
}
