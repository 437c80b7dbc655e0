// sim/runtime/api_graph.cpp — CUDA graphs built and read node by node (graph.hpp): kernel, memcpy (1D and of
// cudaMemcpy3DParms: graph_copies.cpp), memset, host, empty, child-graph (the child copied into the node),
// event record and event wait nodes; the parameters of kernel, memcpy, memset and host nodes read and
// changed; the graph's nodes, roots, edges, a node's type, dependencies and dependents; edges added and
// removed, nodes destroyed; cudaGraphClone and cudaGraphNodeFindInClone. Capture is api_capture.cpp,
// instantiation and launch api_graph_exec.cpp. The answers to bad handles are the H200's where measured
// (tests/programs/graph_fork_join.cu, run `errors`).
#include "sim/runtime/runtime.hpp"

#include <algorithm>
#include <cstring>

#include "kernels_ir/layout.hpp"
#include "sim/runtime/graph.hpp"
#include "sim/runtime/streams.hpp"

using warpsim::runtime::GraphStep;
using warpsim::runtime::Runtime;

namespace warpsim::runtime {

cudaError_t kernel_step(Runtime& rt, const cudaKernelNodeParams* p, GraphStep& step) {
    if (!p) return cudaErrorInvalidValue;
    if (p->extra) return not_supported("cudaGraphAddKernelNode/SetParams with `extra` arguments");
    Kernel* k = rt.kernel_by_host_function(p->func);
    if (!k) return cudaErrorInvalidDeviceFunction;
    if (rt.ensure_loaded(*k->module) || !k->function) return cudaErrorInvalidDeviceFunction;
    const auto layout = ir::param_layout(k->function->params);
    GraphStep s;
    s.kind = GraphStep::Kind::kernel;
    s.kernel = k;
    s.grid = p->gridDim;
    s.block = p->blockDim;
    s.shared_bytes = p->sharedMemBytes;
    s.params.resize(layout.total);
    s.param_offsets.assign(layout.offsets.begin(), layout.offsets.end());
    for (size_t i = 0; i < k->function->params.size(); ++i) {
        if (!p->kernelParams || !p->kernelParams[i]) return cudaErrorInvalidValue;
        std::memcpy(s.params.data() + layout.offsets[i], p->kernelParams[i],
                    k->function->params[i].size_bytes());
    }
    step = std::move(s);
    return cudaSuccess;
}

}  // namespace warpsim::runtime

namespace {

bool in_graph(const CUgraph_st* graph, const void* node) {
    return std::any_of(graph->nodes.begin(), graph->nodes.end(),
                       [&](const auto& n) { return n.get() == node; });
}

// The dependencies a new node names must be nodes of the same graph.
bool dependencies_ok(const CUgraph_st* graph, const cudaGraphNode_t* deps, size_t count) {
    if (count > 0 && !deps) return false;
    for (size_t i = 0; i < count; ++i)
        if (!in_graph(graph, deps[i])) return false;
    return true;
}

// The checks every cudaGraphAdd*Node makes; cudaSuccess when the node may be added.
cudaError_t check_add(Runtime& rt, cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps,
                      size_t count) {
    if (!out || !rt.streams().valid_graph_or_child(graph) || !dependencies_ok(graph, deps, count))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

// Adds a node the checks allowed.
cudaError_t add(Runtime& rt, cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps,
                size_t count, GraphStep step) {
    if (cudaError_t e = check_add(rt, out, graph, deps, count)) return Runtime::finish(e);
    *out = graph->add(std::move(step), std::vector<CUgraphNode_st*>(deps, deps + count));
    return cudaSuccess;
}

}  // namespace

namespace warpsim::runtime {
cudaError_t add_node(Runtime& rt, cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps,
                     size_t count, GraphStep step) {
    return add(rt, out, graph, deps, count, std::move(step));
}
}  // namespace warpsim::runtime

namespace {

// A node handle the program passed, when it is one of a live graph and (if `kind` is given) of that kind.
CUgraphNode_st* node_of(Runtime& rt, cudaGraphNode_t node,
                        std::optional<GraphStep::Kind> kind = std::nullopt) {
    CUgraphNode_st* n = rt.streams().find_node(node);
    if (!n || (kind && n->step.kind != *kind)) return nullptr;
    return n;
}

// A memcpy node of any form (1D, 2D or of cudaMemcpy3DParms).
CUgraphNode_st* memcpy_node_of(Runtime& rt, cudaGraphNode_t node) {
    CUgraphNode_st* n = node_of(rt, node);
    return n && warpsim::runtime::node_type(n->step.kind) == cudaGraphNodeTypeMemcpy ? n : nullptr;
}

// The list calls' convention (cudaGraphGetNodes and the like): with no array, the count; with one, up to
// *count entries, the rest of the array null, and *count the number written.
template <class T>
void hand_out(const std::vector<T>& items, T* out, size_t* count) {
    if (!out) {
        *count = items.size();
        return;
    }
    for (size_t i = 0; i < *count; ++i) out[i] = i < items.size() ? items[i] : T{};
    *count = std::min(*count, items.size());
}

void zero_edge_data(cudaGraphEdgeData* data, size_t count) {
    if (data)
        for (size_t i = 0; i < count; ++i) data[i] = cudaGraphEdgeData{};
}

std::vector<cudaGraphNode_t> all_nodes(const CUgraph_st& g) {
    std::vector<cudaGraphNode_t> v;
    for (const auto& n : g.nodes) v.push_back(n.get());
    return v;
}

}  // namespace

extern "C" {

cudaError_t cudaGraphCreate(cudaGraph_t* pGraph, unsigned int flags) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!pGraph || flags != 0) return Runtime::finish(cudaErrorInvalidValue);
    *pGraph = rt.streams().create_graph();
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    // A graph a capture still adds to (cudaStreamGetCaptureInfo or cudaStreamBeginCaptureToGraph gave it
    // out): refused rather than left to a capture that would write into freed memory.
    for (const auto& [id, c] : rt.streams().captures())
        if (c->graph == graph) return Runtime::finish(cudaErrorInvalidValue);
    if (!rt.streams().destroy_graph(graph)) return Runtime::finish(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaGraphClone(cudaGraph_t* pGraphClone, cudaGraph_t originalGraph) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    // A graph with memory or conditional nodes cannot be cloned (the documentation).
    if (!pGraphClone || !rt.streams().valid_graph_or_child(originalGraph) ||
        warpsim::runtime::has_memory_nodes(*originalGraph) ||
        warpsim::runtime::has_conditional_nodes(*originalGraph))
        return Runtime::finish(cudaErrorInvalidValue);
    CUgraph_st* copy = rt.streams().create_graph();
    std::map<const CUgraphNode_st*, CUgraphNode_st*> mapping;
    *copy = std::move(*warpsim::runtime::clone_graph(*originalGraph, &mapping));
    for (auto& node : copy->nodes) node->graph = copy;
    copy->cloned_from = std::move(mapping);
    *pGraphClone = copy;
    return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* numNodes) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!numNodes || !rt.streams().valid_graph_or_child(graph)) return Runtime::finish(cudaErrorInvalidValue);
    hand_out(all_nodes(*graph), nodes, numNodes);
    return cudaSuccess;
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t* pRootNodes, size_t* pNumRootNodes) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!pNumRootNodes || !rt.streams().valid_graph_or_child(graph))
        return Runtime::finish(cudaErrorInvalidValue);
    std::vector<cudaGraphNode_t> roots;
    for (const auto& n : graph->nodes)
        if (n->deps.empty()) roots.push_back(n.get());
    hand_out(roots, pRootNodes, pNumRootNodes);
    return cudaSuccess;
}

cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t* from, cudaGraphNode_t* to,
                              cudaGraphEdgeData* edgeData, size_t* numEdges) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!numEdges || !rt.streams().valid_graph_or_child(graph) || (!from != !to) || (edgeData && !from))
        return Runtime::finish(cudaErrorInvalidValue);
    std::vector<cudaGraphNode_t> sources, targets;
    for (const auto& n : graph->nodes)
        for (CUgraphNode_st* d : n->deps) {
            sources.push_back(d);
            targets.push_back(n.get());
        }
    size_t count = *numEdges;
    hand_out(sources, from, &count);
    hand_out(targets, to, numEdges);
    zero_edge_data(edgeData, *numEdges);
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, enum cudaGraphNodeType* pType) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = node_of(rt, node);
    if (!n || !pType) return Runtime::finish(cudaErrorInvalidValue);
    *pType = warpsim::runtime::node_type(n->step.kind);
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node, cudaGraphNode_t* pDependencies,
                                         cudaGraphEdgeData* edgeData, size_t* pNumDependencies) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = node_of(rt, node);
    if (!n || !pNumDependencies || (edgeData && !pDependencies))
        return Runtime::finish(cudaErrorInvalidValue);
    hand_out(std::vector<cudaGraphNode_t>(n->deps.begin(), n->deps.end()), pDependencies, pNumDependencies);
    zero_edge_data(edgeData, *pNumDependencies);
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node, cudaGraphNode_t* pDependentNodes,
                                           cudaGraphEdgeData* edgeData, size_t* pNumDependentNodes) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = node_of(rt, node);
    if (!n || !pNumDependentNodes || (edgeData && !pDependentNodes))
        return Runtime::finish(cudaErrorInvalidValue);
    hand_out(warpsim::runtime::dependents(*n->graph, n), pDependentNodes, pNumDependentNodes);
    zero_edge_data(edgeData, *pNumDependentNodes);
    return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const struct cudaKernelNodeParams* p) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = check_add(rt, pGraphNode, graph, pDependencies, numDependencies))
        return Runtime::finish(e);
    GraphStep step;
    if (cudaError_t e = warpsim::runtime::kernel_step(rt, p, step)) return Runtime::finish(e);
    return add(rt, pGraphNode, graph, pDependencies, numDependencies, std::move(step));
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node, struct cudaKernelNodeParams* pNodeParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = node_of(rt, node, GraphStep::Kind::kernel);
    if (!n || !pNodeParams) return Runtime::finish(cudaErrorInvalidValue);
    const GraphStep& s = n->step;
    n->param_pointers.clear();
    for (size_t offset : s.param_offsets) n->param_pointers.push_back(n->step.params.data() + offset);
    pNodeParams->func = const_cast<void*>(s.kernel->host_function);
    pNodeParams->gridDim = s.grid;
    pNodeParams->blockDim = s.block;
    pNodeParams->sharedMemBytes = static_cast<unsigned>(s.shared_bytes);
    pNodeParams->kernelParams = n->param_pointers.data();
    pNodeParams->extra = nullptr;
    return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
                                         const struct cudaKernelNodeParams* pNodeParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = node_of(rt, node, GraphStep::Kind::kernel);
    if (!n) return Runtime::finish(cudaErrorInvalidValue);
    GraphStep step;
    if (cudaError_t e = warpsim::runtime::kernel_step(rt, pNodeParams, step)) return Runtime::finish(e);
    n->step = std::move(step);
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies, void* dst,
                                     const void* src, size_t count, enum cudaMemcpyKind kind) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (count > 0 && (!dst || !src)) return Runtime::finish(cudaErrorInvalidValue);
    return add(rt, pGraphNode, graph, pDependencies, numDependencies, GraphStep::copy(dst, src, count, kind));
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams* p) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = check_add(rt, pGraphNode, graph, pDependencies, numDependencies))
        return Runtime::finish(e);
    GraphStep step;
    if (cudaError_t e = warpsim::runtime::memset_step(p, step)) return Runtime::finish(e);
    return add(rt, pGraphNode, graph, pDependencies, numDependencies, std::move(step));
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                 const struct cudaHostNodeParams* p) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!p || !p->fn) return Runtime::finish(cudaErrorInvalidValue);
    return add(rt, pGraphNode, graph, pDependencies, numDependencies, GraphStep::host(p->fn, p->userData));
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t* pDependencies, size_t numDependencies) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    return add(rt, pGraphNode, graph, pDependencies, numDependencies, GraphStep{});
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                       cudaGraph_t childGraph) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    // A graph with memory nodes may only be moved into a child node, never cloned (the documentation).
    // Nor one with conditional nodes be a child at all.
    if (!rt.streams().valid_graph_or_child(childGraph) || warpsim::runtime::has_memory_nodes(*childGraph) ||
        warpsim::runtime::has_conditional_nodes(*childGraph))
        return Runtime::finish(cudaErrorInvalidValue);
    GraphStep step;
    step.kind = GraphStep::Kind::child;
    auto copy = warpsim::runtime::clone_graph(*childGraph);  // before the node exists: a graph holds no cycle
    if (cudaError_t e = add(rt, pGraphNode, graph, pDependencies, numDependencies, step)) return e;
    for (auto& node : copy->nodes) node->graph = copy.get();
    (*pGraphNode)->child = std::move(copy);
    return cudaSuccess;
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t* pGraph) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = node_of(rt, node, GraphStep::Kind::child);
    if (!n || !pGraph) return Runtime::finish(cudaErrorInvalidValue);
    *pGraph = n->child.get();
    return cudaSuccess;
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                        const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                        cudaEvent_t event) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_event(event)) return Runtime::finish(cudaErrorInvalidValue);
    return add(rt, pGraphNode, graph, pDependencies, numDependencies,
               GraphStep::on_event(GraphStep::Kind::event_record, event));
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                      const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                      cudaEvent_t event) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_event(event)) return Runtime::finish(cudaErrorInvalidValue);
    return add(rt, pGraphNode, graph, pDependencies, numDependencies,
               GraphStep::on_event(GraphStep::Kind::event_wait, event));
}

}  // extern "C"

namespace {

cudaError_t get_event(cudaGraphNode_t node, GraphStep::Kind kind, cudaEvent_t* out) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = node_of(rt, node, kind);
    if (!n || !out) return Runtime::finish(cudaErrorInvalidValue);
    *out = n->step.event;
    return cudaSuccess;
}

cudaError_t set_event(cudaGraphNode_t node, GraphStep::Kind kind, cudaEvent_t event) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = node_of(rt, node, kind);
    if (!n || !rt.streams().valid_event(event)) return Runtime::finish(cudaErrorInvalidValue);
    n->step.event = event;
    return cudaSuccess;
}

}  // namespace

extern "C" {
cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
    return get_event(node, GraphStep::Kind::event_record, event_out);
}
cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
    return set_event(node, GraphStep::Kind::event_record, event);
}
cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t* event_out) {
    return get_event(node, GraphStep::Kind::event_wait, event_out);
}
cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node, cudaEvent_t event) {
    return set_event(node, GraphStep::Kind::event_wait, event);
}
}  // extern "C"

namespace {

// The edges cudaGraphAdd/RemoveDependencies name, checked: two different nodes of `graph`.
cudaError_t check_edges(Runtime& rt, cudaGraph_t graph, const cudaGraphNode_t* from,
                        const cudaGraphNode_t* to, const cudaGraphEdgeData* edgeData, size_t count) {
    if (!rt.streams().valid_graph_or_child(graph) || (count > 0 && (!from || !to)))
        return cudaErrorInvalidValue;
    for (size_t i = 0; i < count; ++i) {
        if (!in_graph(graph, from[i]) || !in_graph(graph, to[i]) || from[i] == to[i])
            return cudaErrorInvalidValue;
        if (edgeData && (edgeData[i].type != 0 || edgeData[i].from_port != 0 || edgeData[i].to_port != 0))
            return warpsim::runtime::not_supported("graph edges with edge data");
    }
    return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t* pNode, cudaGraphNode_t originalNode,
                                     cudaGraph_t clonedGraph) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!pNode || !rt.streams().valid_graph_or_child(clonedGraph))
        return Runtime::finish(cudaErrorInvalidValue);
    auto it = clonedGraph->cloned_from.find(originalNode);
    // The copy must still be a node of the clone (cudaGraphDestroyNode may have removed it).
    if (it == clonedGraph->cloned_from.end() || rt.streams().find_node(it->second) != it->second)
        return Runtime::finish(cudaErrorInvalidValue);
    *pNode = it->second;
    return cudaSuccess;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                     const cudaGraphNode_t* to, const cudaGraphEdgeData* edgeData,
                                     size_t numDependencies) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = check_edges(rt, graph, from, to, edgeData, numDependencies))
        return Runtime::finish(e);
    // An edge that exists (the documentation's error), or that would close a cycle (`from` already depends on
    // `to`, maybe through an edge of this call: a graph is acyclic; the documentation names no error for it,
    // cudaErrorInvalidValue is the one it lists), is refused and the call's edges are taken back.
    for (size_t i = 0; i < numDependencies; ++i) {
        auto& deps = to[i]->deps;
        if (std::find(deps.begin(), deps.end(), from[i]) != deps.end() ||
            warpsim::runtime::depends_on(from[i], to[i])) {
            for (size_t j = i; j-- > 0;) to[j]->deps.pop_back();
            return Runtime::finish(cudaErrorInvalidValue);
        }
        deps.push_back(from[i]);
    }
    return cudaSuccess;
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph, const cudaGraphNode_t* from,
                                        const cudaGraphNode_t* to, const cudaGraphEdgeData* edgeData,
                                        size_t numDependencies) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = check_edges(rt, graph, from, to, edgeData, numDependencies))
        return Runtime::finish(e);
    // Nor its edges (the documentation).
    if (warpsim::runtime::has_memory_nodes(*graph)) return Runtime::finish(cudaErrorInvalidValue);
    for (size_t i = 0; i < numDependencies; ++i) {
        auto& deps = to[i]->deps;
        if (std::find(deps.begin(), deps.end(), from[i]) == deps.end())
            return Runtime::finish(cudaErrorInvalidValue);
    }
    for (size_t i = 0; i < numDependencies; ++i) {
        auto& deps = to[i]->deps;
        deps.erase(std::find(deps.begin(), deps.end(), from[i]));
    }
    return cudaSuccess;
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = node_of(rt, node);
    // The nodes of a graph with memory nodes cannot be deleted (the documentation).
    if (!n || warpsim::runtime::has_memory_nodes(*n->graph)) return Runtime::finish(cudaErrorInvalidValue);
    CUgraph_st* graph = n->graph;
    for (auto& other : graph->nodes) std::erase(other->deps, n);
    std::erase_if(graph->nodes, [&](const auto& p) { return p.get() == n; });
    return cudaSuccess;
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node, struct cudaHostNodeParams* pNodeParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = node_of(rt, node, GraphStep::Kind::host);
    if (!n || !pNodeParams) return Runtime::finish(cudaErrorInvalidValue);
    pNodeParams->fn = n->step.fn;
    pNodeParams->userData = n->step.data;
    return cudaSuccess;
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node, const struct cudaHostNodeParams* pNodeParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = node_of(rt, node, GraphStep::Kind::host);
    if (!n || !pNodeParams || !pNodeParams->fn) return Runtime::finish(cudaErrorInvalidValue);
    n->step = GraphStep::host(pNodeParams->fn, pNodeParams->userData);
    return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node, struct cudaMemsetParams* pNodeParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = node_of(rt, node, GraphStep::Kind::memset);
    if (!n || !pNodeParams) return Runtime::finish(cudaErrorInvalidValue);
    *pNodeParams = warpsim::runtime::memset_params(n->step);
    return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node, const struct cudaMemsetParams* pNodeParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = node_of(rt, node, GraphStep::Kind::memset);
    if (!n) return Runtime::finish(cudaErrorInvalidValue);
    GraphStep step;
    if (cudaError_t e = warpsim::runtime::memset_step(pNodeParams, step)) return Runtime::finish(e);
    n->step = std::move(step);
    return cudaSuccess;
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void* dst, const void* src, size_t count,
                                           enum cudaMemcpyKind kind) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = memcpy_node_of(rt, node);
    if (!n || (count > 0 && (!dst || !src))) return Runtime::finish(cudaErrorInvalidValue);
    n->step = GraphStep::copy(dst, src, count, kind);
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const struct cudaMemcpy3DParms* pCopyParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = check_add(rt, pGraphNode, graph, pDependencies, numDependencies))
        return Runtime::finish(e);
    GraphStep step;
    if (cudaError_t e = warpsim::runtime::copy3d_step(rt, pCopyParams, step)) return Runtime::finish(e);
    return add(rt, pGraphNode, graph, pDependencies, numDependencies, std::move(step));
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node, struct cudaMemcpy3DParms* pNodeParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = memcpy_node_of(rt, node);
    if (!n || !pNodeParams) return Runtime::finish(cudaErrorInvalidValue);
    *pNodeParams = warpsim::runtime::copy_params(n->step);
    return cudaSuccess;
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node, const struct cudaMemcpy3DParms* pNodeParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = memcpy_node_of(rt, node);
    if (!n) return Runtime::finish(cudaErrorInvalidValue);
    GraphStep step;
    if (cudaError_t e = warpsim::runtime::copy3d_step(rt, pNodeParams, step)) return Runtime::finish(e);
    n->step = std::move(step);
    return cudaSuccess;
}

}  // extern "C"
