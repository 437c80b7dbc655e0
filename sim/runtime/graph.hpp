// sim/runtime/graph.hpp — CUDA graphs: the work a stream captured (cudaStreamBeginCapture .. EndCapture) or
// a program added node by node, kept as stream-ordered steps and replayed by cudaGraphLaunch (api_graph.cpp).
// Nodes run one after another in the order they were added, which respects every dependency (a node can
// only depend on nodes added before it); nodes a GPU could overlap are not overlapped on the clock.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include <cuda_runtime_api.h>

namespace warpsim::runtime {

struct Kernel;

// One step of a graph, with its arguments copied when the node was made (as CUDA copies them).
struct GraphStep {
    enum class Kind { kernel, copy, memset, host, empty } kind = Kind::empty;
    // kernel
    Kernel* kernel = nullptr;
    dim3 grid, block;
    size_t shared_bytes = 0;
    std::optional<std::array<uint32_t, 3>> cluster;
    bool cooperative = false;
    std::vector<uint8_t> params;        // the parameters packed at their .param offsets
    std::vector<size_t> param_offsets;  // where parameter i starts in `params`
    // copy and memset
    void* dst = nullptr;
    const void* src = nullptr;
    size_t bytes = 0;
    cudaMemcpyKind copy_kind = cudaMemcpyDefault;
    int value = 0;
    // host
    cudaHostFn_t fn = nullptr;
    void* data = nullptr;

    // The steps a capture records and the node API adds alike.
    static GraphStep copy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
        GraphStep s;
        s.kind = Kind::copy;
        s.dst = dst;
        s.src = src;
        s.bytes = bytes;
        s.copy_kind = kind;
        return s;
    }
    static GraphStep memset(void* dst, int value, size_t bytes) {
        GraphStep s;
        s.kind = Kind::memset;
        s.dst = dst;
        s.value = value;
        s.bytes = bytes;
        return s;
    }
    static GraphStep host(cudaHostFn_t fn, void* data) {
        GraphStep s;
        s.kind = Kind::host;
        s.fn = fn;
        s.data = data;
        return s;
    }
};

}  // namespace warpsim::runtime

// The objects behind cudaGraph_t, cudaGraphNode_t and cudaGraphExec_t (the CUDA headers only name them).
struct CUgraphNode_st {
    CUgraph_st* graph = nullptr;
    warpsim::runtime::GraphStep step;
};
struct CUgraph_st {
    std::vector<std::unique_ptr<CUgraphNode_st>> nodes;  // in the order they were added
    CUgraphNode_st* add(warpsim::runtime::GraphStep step) {
        nodes.push_back(std::make_unique<CUgraphNode_st>());
        nodes.back()->graph = this;
        nodes.back()->step = std::move(step);
        return nodes.back().get();
    }
};
struct CUgraphExec_st {
    std::vector<warpsim::runtime::GraphStep> steps;
};

namespace warpsim::runtime {

class Runtime;

// The graph stream `s` is capturing into, or nullptr: then the caller runs its work now. A call that captures
// a step returns cudaSuccess without running anything (api_graph.cpp). The caller holds the runtime's lock.
CUgraph_st* capture_target(Runtime& rt, cudaStream_t s);
// A call the runtime refuses while `s` captures (cudaStreamSynchronize, cudaStreamQuery): the capture is
// invalidated, and the answer is cudaErrorStreamCaptureUnsupported, as the H200's runtime answers. Returns
// cudaSuccess when `s` is not capturing.
cudaError_t refuse_while_capturing(Runtime& rt, cudaStream_t s);

// Stream-ordered work a graph step replays; the caller holds the lock (api_memory.cpp).
cudaError_t copy_on_stream(Runtime& rt, void* dst, const void* src, size_t n, cudaMemcpyKind kind,
                           cudaStream_t stream);
cudaError_t memset_on_stream(Runtime& rt, void* p, int value, size_t n, cudaStream_t stream);

}  // namespace warpsim::runtime
