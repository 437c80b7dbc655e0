// sim/runtime/report_writer.cpp — the files of `warpsim exec --report DIR`.
#include "sim/runtime/report_writer.hpp"

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

namespace warpsim::runtime {

void write_reports(const std::string& dir, const LaunchLog& log, const device::DevicePreset& preset, std::FILE* err) {
    (void)preset;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) {
        std::fprintf(err, "warpsim: --report %s: cannot create the folder: %s\n", dir.c_str(), ec.message().c_str());
        return;
    }
    const std::string path = dir + "/launches.jsonl";
    std::ofstream out(path, std::ios::binary);
    for (const auto& r : log.records()) {
        auto j = nlohmann::ordered_json::parse(r.json, nullptr, false);
        if (j.is_discarded()) continue;
        j["stream"] = r.stream;
        j["reused"] = r.reused;   // the result of an identical earlier launch on unchanged memory
        out << j.dump() << '\n';
    }
    if (!out) std::fprintf(err, "warpsim: %s: cannot write\n", path.c_str());
}

}  // namespace warpsim::runtime
