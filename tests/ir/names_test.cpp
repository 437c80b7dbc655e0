// tests/ir/names_test.cpp — demangled kernel base names and kernel look-up.
#include <catch2/catch.hpp>

#include "kernels_ir/names.hpp"
#include "kernels_ir/parser.hpp"

using namespace warpsim::ir;

TEST_CASE("base names of mangled kernels", "[names]") {
    CHECK(demangled_base_name("_Z6vecAddPKfS0_Pfi") == "vecAdd");
    CHECK(demangled_base_name("_Z11tiledMatMulILi32EEvPKfS1_Pfi") == "tiledMatMul");
    CHECK(demangled_base_name("_ZN2ns6kernelEv") == "kernel");
    CHECK(demangled_base_name("_ZN2ns4kernILi4EEEvPKfPfi") == "kern");
    CHECK(demangled_base_name("_ZN5outer5inner3fooIfEEvPT_") == "foo");
    CHECK(demangled_base_name("_ZN12_GLOBAL__N_16kernelEPf") == "kernel");
    CHECK(demangled_base_name("_ZL6staticPf") == "static");
    CHECK(demangled_base_name("_ZN2ns6kernelILin3EEEvv") == "kernel");
    CHECK(demangled_base_name("vector_add") == "vector_add");
    CHECK(demangled_base_name("_Z") == "_Z");
    CHECK(demangled_base_name("_Z99short") == "_Z99short");
    CHECK(demangled_base_name("_ZN3abc") == "abc");
    // Substitutions whose seq-id is a letter that also opens a list (SI_, SN_): a Thrust kernel's name as
    // nvcc 13 mangles it (c++filt: void
    // thrust::THRUST_300001_SM_900_NS::cuda_cub::core::detail::_kernel_agent<...>(...)).
    CHECK(demangled_base_name("_ZN6thrust23THRUST_300001_SM_900_NS8cuda_cub4core6detail13_kernel_agentINS1_8_"
                              "_reduce11ReduceAgentINS0_"
                              "18transform_iteratorINS1_9__extrema12arg_minmax_fIilN4cuda3std3__"
                              "44lessIiEEE15duplicate_tupleENS0_12zip_"
                              "iteratorINSC_5tupleIJNS0_6detail15normal_iteratorINS0_10device_ptrIiEEEENS0_"
                              "17counting_iteratorIlNS0_"
                              "11use_defaultESP_SP_EEEEEEENSI_IJNSI_IJilEEEST_EEESU_EEPSU_SU_iSF_EEJSV_SW_"
                              "iN3cub17CUB_300001_SM_"
                              "90013GridEvenShareIiEENSZ_9GridQueueIjEESF_EEEvDpT0_") == "_kernel_agent");
}

TEST_CASE("find_kernel: exact, base name, ambiguous, missing", "[names]") {
    const char* src = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry _Z6kernelIfEvPT_(.param .u64 p) { ret; }
.visible .entry _Z6kernelIdEvPT_(.param .u64 p) { ret; }
.visible .entry _Z6vecAddPKfS0_Pfi() { ret; }
.visible .entry plain() { ret; }
.func helper() { ret; }
)";
    ParseResult r = parse_ptx(src, "k.ptx");
    REQUIRE(r.ok());
    auto exact = find_kernel(r.module, "_Z6kernelIdEvPT_");
    REQUIRE(exact.function);
    CHECK(exact.function->name == "_Z6kernelIdEvPT_");
    auto base = find_kernel(r.module, "vecAdd");
    REQUIRE(base.function);
    CHECK(base.function->name == "_Z6vecAddPKfS0_Pfi");
    CHECK(find_kernel(r.module, "plain").function == &r.module.functions[3]);
    auto amb = find_kernel(r.module, "kernel");
    CHECK(amb.function == nullptr);
    CHECK(amb.candidates == std::vector<std::string>{"_Z6kernelIfEvPT_", "_Z6kernelIdEvPT_"});
    CHECK(amb.error == "kernel name 'kernel' is ambiguous; candidates: _Z6kernelIfEvPT_, _Z6kernelIdEvPT_");
    auto none = find_kernel(r.module, "helper");  // a .func is not a kernel
    CHECK(none.function == nullptr);
    CHECK(none.candidates.size() == 4);
    CHECK(none.error.rfind("no kernel named 'helper' in the module; kernels: _Z6kernelIfEvPT_", 0) == 0);
}
