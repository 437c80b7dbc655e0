// sim/runtime/graph_memory.cpp — graph memory (graph.hpp): allocation and free nodes
// (cudaGraphAddMemAllocNode, cudaGraphAddMemFreeNode, their Get calls, cudaMallocAsync and cudaFreeAsync in a
// capture). An allocation node's address is chosen when the node is made and stays the same for every launch
// (the documentation's promise): the simulated heap hands it out and takes it back at once, and never hands
// it out again (DeviceMemory only moves forward), so the node can allocate exactly there each time it runs.
#include "sim/runtime/runtime.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "sim/runtime/graph.hpp"
#include "sim/runtime/streams.hpp"

using warpsim::runtime::GraphStep;
using warpsim::runtime::Runtime;

namespace {

uint64_t addr(const void* p) {
    return reinterpret_cast<uint64_t>(p);
}

// The pools warpsim's single device has: pinned device memory on device 0, without export handles.
cudaError_t check_pool(const cudaMemPoolProps& props) {
    if (props.allocType != cudaMemAllocationTypePinned || props.handleTypes != cudaMemHandleTypeNone)
        return cudaErrorInvalidValue;
    if (props.location.type != cudaMemLocationTypeDevice)
        return warpsim::runtime::not_supported("graph allocations outside device memory");
    if (props.location.id != 0) return cudaErrorInvalidValue;  // the one simulated device
    return cudaSuccess;
}

// A new allocation node's step: its address reserved, its parameters kept for cudaGraphMemAllocNodeGetParams.
cudaError_t alloc_step(Runtime& rt, const cudaMemPoolProps& props, const cudaMemAccessDesc* descs,
                       size_t desc_count, size_t bytes, GraphStep& step) {
    if (bytes == 0 || (desc_count > 0 && !descs)) return cudaErrorInvalidValue;
    if (cudaError_t e = check_pool(props)) return e;
    auto& memory = rt.sim().memory();
    const uint64_t total = static_cast<uint64_t>(rt.preset().memory.bytes);
    if (total && bytes > total - std::min<uint64_t>(total, memory.device_bytes_in_use()))
        return cudaErrorMemoryAllocation;
    const uint64_t base = memory.malloc(bytes);
    if (!base) return cudaErrorMemoryAllocation;
    memory.free(base);  // reserved: malloc never hands this range out again
    rt.streams().graph_allocations()[base] = bytes;
    GraphStep s;
    s.kind = GraphStep::Kind::mem_alloc;
    s.dst = reinterpret_cast<void*>(base);
    s.bytes = bytes;
    s.pool_props = props;
    s.access_descs.assign(descs, descs + desc_count);
    step = std::move(s);
    return cudaSuccess;
}

// A free node's step: the address must be one an allocation node was given, not freed by another free
// node of `graph` already (the documentation's cudaErrorInvalidValue cases).
cudaError_t free_step(Runtime& rt, const CUgraph_st& graph, void* ptr, GraphStep& step) {
    if (!rt.streams().graph_allocations().count(addr(ptr))) return cudaErrorInvalidValue;
    for (const auto& n : graph.nodes)
        if (n->step.kind == GraphStep::Kind::mem_free && n->step.dst == ptr) return cudaErrorInvalidValue;
    GraphStep s;
    s.kind = GraphStep::Kind::mem_free;
    s.dst = ptr;
    step = std::move(s);
    return cudaSuccess;
}

bool allocation_live(Runtime& rt, const void* ptr) {
    const warpsim::memory::Allocation* a = rt.sim().memory().find(addr(ptr));
    return a && a->base == addr(ptr);
}

}  // namespace

namespace warpsim::runtime {

bool has_memory_nodes(const CUgraph_st& g) {
    return std::any_of(g.nodes.begin(), g.nodes.end(), [](const auto& n) {
        return n->step.kind == GraphStep::Kind::mem_alloc || n->step.kind == GraphStep::Kind::mem_free ||
               (n->child && has_memory_nodes(*n->child));
    });
}

cudaError_t prepare_allocations(Runtime& rt, const CUgraph_st& g, bool auto_free) {
    for (const auto& n : g.nodes) {
        if (n->step.kind != GraphStep::Kind::mem_alloc || !allocation_live(rt, n->step.dst)) continue;
        if (!auto_free) return cudaErrorInvalidValue;  // the last launch's allocation was never freed
        rt.sim().free(addr(n->step.dst));
    }
    return cudaSuccess;
}

cudaError_t run_memory_step(Runtime& rt, const GraphStep& step) {
    if (step.kind == GraphStep::Kind::mem_alloc) {
        auto& memory = rt.sim().memory();
        if (!memory.malloc_at(addr(step.dst), step.bytes,
                              fmt::format("graph allocation #{}", rt.next_allocation_serial())))
            return cudaErrorInvalidValue;
        // New bytes at an address seen before: what launch reuse knew of the old allocation no longer holds.
        rt.reuse().wrote(memory, addr(step.dst), step.bytes);
        return cudaSuccess;
    }
    // A free node of an allocation that is not live (freed already) is refused, as a double free.
    return rt.sim().free(addr(step.dst)) ? cudaSuccess : cudaErrorInvalidValue;
}

std::optional<cudaError_t> capture_malloc(Runtime& rt, void** ptr, size_t size, cudaStream_t stream) {
    CUstream_st* s = capture_target(rt, stream);
    if (!s) return std::nullopt;
    if (!ptr) return cudaErrorInvalidValue;
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    GraphStep step;
    if (cudaError_t e = alloc_step(rt, props, nullptr, 0, size, step)) return e;
    void* base = step.dst;
    if (cudaError_t e = capture_add(*s, std::move(step))) return e;
    *ptr = base;
    return cudaSuccess;
}

std::optional<cudaError_t> capture_free(Runtime& rt, void* ptr, cudaStream_t stream) {
    CUstream_st* s = capture_target(rt, stream);
    if (!s) return std::nullopt;
    GraphStep step;
    if (cudaError_t e = free_step(rt, *s->capture->graph, ptr, step)) return e;
    return capture_add(*s, std::move(step));
}

}  // namespace warpsim::runtime

extern "C" {

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                     struct cudaMemAllocNodeParams* nodeParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!nodeParams || !pGraphNode || !rt.streams().valid_graph_or_child(graph))
        return Runtime::finish(cudaErrorInvalidValue);
    GraphStep step;
    if (cudaError_t e = alloc_step(rt, nodeParams->poolProps, nodeParams->accessDescs,
                                   nodeParams->accessDescCount, nodeParams->bytesize, step))
        return Runtime::finish(e);
    void* base = step.dst;
    if (cudaError_t e = warpsim::runtime::add_node(rt, pGraphNode, graph, pDependencies, numDependencies,
                                                   std::move(step)))
        return e;
    nodeParams->dptr = base;
    return cudaSuccess;
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, struct cudaMemAllocNodeParams* params_out) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = rt.streams().find_node(node);
    if (!n || n->step.kind != GraphStep::Kind::mem_alloc || !params_out)
        return Runtime::finish(cudaErrorInvalidValue);
    *params_out = cudaMemAllocNodeParams{};
    params_out->poolProps = n->step.pool_props;
    params_out->accessDescs = n->step.access_descs.empty() ? nullptr : n->step.access_descs.data();
    params_out->accessDescCount = n->step.access_descs.size();
    params_out->bytesize = n->step.bytes;
    params_out->dptr = n->step.dst;
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                    const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                    void* dptr) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!pGraphNode || !rt.streams().valid_graph_or_child(graph))
        return Runtime::finish(cudaErrorInvalidValue);
    GraphStep step;
    if (cudaError_t e = free_step(rt, *graph, dptr, step)) return Runtime::finish(e);
    return warpsim::runtime::add_node(rt, pGraphNode, graph, pDependencies, numDependencies, std::move(step));
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void* dptr_out) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = rt.streams().find_node(node);
    if (!n || n->step.kind != GraphStep::Kind::mem_free || !dptr_out)
        return Runtime::finish(cudaErrorInvalidValue);
    *static_cast<void**>(dptr_out) = n->step.dst;
    return cudaSuccess;
}

// Graph memory is taken from the simulated heap and given back when freed: no cache to trim.
cudaError_t cudaDeviceGraphMemTrim(int device) {
    return Runtime::finish(device == 0 ? cudaSuccess : cudaErrorInvalidDevice);
}

}  // extern "C"
