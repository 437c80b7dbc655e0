// tests/engine/test_fault_table.cpp — sim/engine/faults.def: each kind's cudaError_t value is the one the
// CUDA toolkit's driver_types.h gives its name, names map back to kinds, and the hangs are three distinct
// kinds.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "sim/engine/fault.hpp"

using namespace warpsim::engine;

namespace {

// "cudaErrorIllegalAddress = 700," and the like, from the toolkit's header.
std::map<std::string, int> toolkit_codes(const std::string& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    std::map<std::string, int> out;
    const std::regex row(R"((cudaError\w+)\s*=\s*(\d+))");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), row); it != std::sregex_iterator(); ++it)
        out.emplace((*it)[1], std::stoi((*it)[2]));
    return out;
}

}  // namespace

TEST_CASE("fault table: codes as in the CUDA toolkit's driver_types.h") {
    const std::string header = "/usr/local/cuda/include/driver_types.h";
    const auto codes = toolkit_codes(header);
    if (codes.empty()) {
        WARN("no CUDA toolkit at /usr/local/cuda: the codes are not compared");
        return;
    }
    for (const auto& row : kFaultTable) {
        INFO(row.kind_name);
        const auto it = codes.find(std::string(row.cuda_name));
        REQUIRE(it != codes.end());
        CHECK(it->second == row.cuda_code);
    }
}

TEST_CASE("fault table: one row per kind, kinds found by CUDA name, the hangs told apart") {
    std::set<std::string_view> kinds;
    for (const auto& row : kFaultTable) {
        CHECK(kinds.insert(row.kind_name).second);
        CHECK_FALSE(row.words.empty());
        CHECK(cuda_name(row.kind) == row.cuda_name);
    }
    CHECK(fault_from_cuda_name("cudaErrorIllegalAddress") == Fault::illegal_address);
    CHECK(fault_from_cuda_name("cudaErrorMisalignedAddress") == Fault::misaligned_address);
    CHECK_FALSE(fault_from_cuda_name("cudaErrorNoSuchThing").has_value());
    // A GPU reports all of these as cudaErrorLaunchTimeout (702); warpsim keeps them apart.
    for (Fault f : {Fault::budget_exhausted, Fault::time_limit, Fault::barrier_deadlock,
                    Fault::cluster_deadlock, Fault::mbarrier_deadlock}) {
        CHECK(cuda_name(f) == "cudaErrorLaunchTimeout");
        CHECK(cuda_code(f) == 702);
    }
    CHECK_FALSE(is_deadlock(Fault::budget_exhausted));
    CHECK(is_deadlock(Fault::barrier_deadlock));
    CHECK(is_deadlock(Fault::cluster_deadlock));
    CHECK(is_deadlock(Fault::mbarrier_deadlock));
    CHECK_FALSE(is_deadlock(Fault::time_limit));
    CHECK(cuda_words(Fault::illegal_address) == "an illegal memory access was encountered");
}
