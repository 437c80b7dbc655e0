// sim/runtime/api_graph_exec.cpp — executable graphs (graph.hpp): cudaGraphInstantiate (WithFlags,
// WithParams; AutoFreeOnLaunch, Upload and UseNodePriority flags) copies the graph; cudaGraphUpload has
// nothing to do; cudaGraphLaunch replays the copy's steps on the stream in the order the nodes were added (a
// child graph's steps where its node stands, event record and wait nodes on the launching stream's clock);
// the updates of an instantiated graph: cudaGraphExec{Kernel,Memcpy1D,Memset,Host,ChildGraph}NodeSetParams,
// cudaGraphExecEvent{Record,Wait}NodeSetEvent and cudaGraphExecUpdate, whose answers to graphs that differ
// are the H200's (tests/programs/graph_fork_join.cu, run `errors`).
#include "sim/runtime/runtime.hpp"

#include "sim/runtime/graph.hpp"
#include "sim/runtime/streams.hpp"

using warpsim::runtime::GraphStep;
using warpsim::runtime::Runtime;

namespace {

cudaError_t launch_step(Runtime& rt, const GraphStep& step, cudaStream_t stream) {
    switch (step.kind) {
        case GraphStep::Kind::kernel: {
            std::vector<void*> args(step.param_offsets.size());
            for (size_t i = 0; i < args.size(); ++i)
                args[i] = const_cast<uint8_t*>(step.params.data()) + step.param_offsets[i];
            warpsim::runtime::LaunchRequest req;
            req.grid = step.grid;
            req.block = step.block;
            req.args = args.data();
            req.shared_bytes = step.shared_bytes;
            req.stream = stream;
            req.cluster = step.cluster;
            req.cooperative = step.cooperative;
            return warpsim::runtime::launch_kernel(rt, *step.kernel, req);
        }
        case GraphStep::Kind::copy:
            return warpsim::runtime::copy_on_stream(rt, step.dst, step.src, step.bytes, step.copy_kind,
                                                    stream);
        case GraphStep::Kind::copy2d:
            return warpsim::runtime::copy_2d_on_stream(rt, step.dst, step.dst_pitch, step.src, step.src_pitch,
                                                       step.bytes, step.rows, step.copy_kind, stream);
        case GraphStep::Kind::copy3d:
            return warpsim::runtime::copy_3d_on_stream(rt, step, stream);
        case GraphStep::Kind::memset:
            return warpsim::runtime::memset_rows_on_stream(rt, step.dst, step.dst_pitch, step.value,
                                                           step.element_size, step.bytes / step.element_size,
                                                           step.rows, stream);
        case GraphStep::Kind::host:
            // In stream order, as cudaLaunchHostFunc: everything before it in the stream has run.
            rt.clock().marker(Runtime::stream_id(stream));
            step.fn(step.data);
            return cudaSuccess;
        case GraphStep::Kind::event_record:
        case GraphStep::Kind::event_wait:
            if (!rt.streams().valid_event(step.event)) return cudaErrorInvalidResourceHandle;
            if (step.kind == GraphStep::Kind::event_record) {
                step.event->time_us = rt.clock().marker(Runtime::stream_id(stream));
                step.event->recorded = true;
                step.event->capture_id = 0;
            } else if (step.event->recorded) {
                rt.clock().wait_until(Runtime::stream_id(stream), step.event->time_us);
            }
            return cudaSuccess;
        case GraphStep::Kind::mem_alloc:
        case GraphStep::Kind::mem_free:
            return warpsim::runtime::run_memory_step(rt, step);
        case GraphStep::Kind::empty:
        case GraphStep::Kind::child:        // its steps are the child graph's (launch_graph)
        case GraphStep::Kind::conditional:  // its bodies' (launch_graph)
            return cudaSuccess;
    }
    return cudaSuccess;
}

cudaError_t launch_graph(Runtime& rt, const CUgraph_st& g, cudaStream_t stream) {
    for (const CUgraphNode_st* node : warpsim::runtime::run_order(g)) {
        if (!node->enabled) continue;  // a disabled node is an empty node until enabled again
        cudaError_t e = node->child ? launch_graph(rt, *node->child, stream)
                        : node->step.kind == GraphStep::Kind::conditional
                            ? warpsim::runtime::run_conditional(rt, *node, stream, &launch_graph)
                            : launch_step(rt, node->step, stream);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

// The instantiated copy of `node` (a node of the graph `exec` was made from) when it is of `kind`'s node
// type.
CUgraphNode_st* exec_node(Runtime& rt, cudaGraphExec_t exec, cudaGraphNode_t node, GraphStep::Kind kind) {
    if (!rt.streams().valid_exec(exec)) return nullptr;
    auto it = exec->node_of.find(node);
    if (it == exec->node_of.end() ||
        warpsim::runtime::node_type(it->second->step.kind) != warpsim::runtime::node_type(kind))
        return nullptr;
    return it->second;
}

// The instantiated copy of a kernel, memset or memcpy node, the kinds cudaGraphNodeSetEnabled takes.
CUgraphNode_st* switchable_node(Runtime& rt, cudaGraphExec_t exec, cudaGraphNode_t node) {
    if (!rt.streams().valid_exec(exec)) return nullptr;
    auto it = exec->node_of.find(node);
    if (it == exec->node_of.end()) return nullptr;
    const cudaGraphNodeType t = warpsim::runtime::node_type(it->second->step.kind);
    return t == cudaGraphNodeTypeKernel || t == cudaGraphNodeTypeMemset || t == cudaGraphNodeTypeMemcpy
               ? it->second
               : nullptr;
}

// What cudaGraphExecMemcpyNodeSetParams accepts: a copy of one row in one slice, not of zero bytes.
bool one_dimensional(const cudaMemcpy3DParms& p) {
    return p.extent.width > 0 && p.extent.height == 1 && p.extent.depth == 1;
}

// What cudaGraphExecMemsetNodeSetParams accepts: a 2D memset keeps its width, rows, element size and pitch; a
// 1D memset its single row; neither may become empty.
bool memset_update_allowed(const GraphStep& now, const GraphStep& next) {
    if (next.bytes == 0) return false;
    if (now.rows > 1)
        return next.rows == now.rows && next.bytes == now.bytes && next.element_size == now.element_size &&
               next.dst_pitch == now.dst_pitch;
    return next.rows == 1;
}

// The step `make` builds replaces the instantiated node's; the graph itself is not changed.
template <class Make>
cudaError_t set_exec_step(cudaGraphExec_t exec, cudaGraphNode_t node, GraphStep::Kind kind, Make make) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = exec_node(rt, exec, node, kind);
    if (!n) return Runtime::finish(cudaErrorInvalidValue);
    GraphStep step;
    if (cudaError_t e = make(rt, step)) return Runtime::finish(e);
    n->step = std::move(step);
    return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!pGraphExec || !rt.streams().valid_graph_or_child(graph))
        return Runtime::finish(cudaErrorInvalidValue);
    constexpr unsigned long long known =
        cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
        cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagUseNodePriority;
    if ((flags & ~known) || ((flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) &&
                             (flags & cudaGraphInstantiateFlagDeviceLaunch)))
        return Runtime::finish(cudaErrorInvalidValue);  // the documentation: the two cannot be combined
    if (flags & cudaGraphInstantiateFlagDeviceLaunch)
        return warpsim::runtime::not_supported(
            "cudaGraphInstantiateFlagDeviceLaunch (graphs launched from kernels)");
    // A graph with memory or conditional nodes has at most one instantiated graph at a time (the
    // documentation).
    if ((warpsim::runtime::has_memory_nodes(*graph) || warpsim::runtime::has_conditional_nodes(*graph)) &&
        rt.streams().has_exec_of(graph))
        return Runtime::finish(cudaErrorInvalidValue);
    CUgraphExec_st* exec = rt.streams().create_exec();
    exec->graph = warpsim::runtime::clone_graph(*graph, &exec->node_of);
    exec->source = graph;
    exec->flags = flags;  // Upload has nothing to do, UseNodePriority no effect: the nodes run one by one
    *pGraphExec = exec;
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags) {
    return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                           cudaGraphInstantiateParams* instantiateParams) {
    if (!instantiateParams) return Runtime::finish(cudaErrorInvalidValue);
    instantiateParams->errNode_out = nullptr;
    const cudaError_t e = cudaGraphInstantiate(pGraphExec, graph, instantiateParams->flags);
    instantiateParams->result_out =
        e == cudaSuccess ? cudaGraphInstantiateSuccess : cudaGraphInstantiateError;
    return e;
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t graphExec, unsigned long long* flags) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!flags || !rt.streams().valid_exec(graphExec)) return Runtime::finish(cudaErrorInvalidValue);
    *flags = graphExec->flags;
    return cudaSuccess;
}

// Nothing to upload: the simulated device reads the instantiated graph where it lies.
cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t stream) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_exec(graphExec)) return Runtime::finish(cudaErrorInvalidValue);
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_exec(graphExec)) return Runtime::finish(cudaErrorInvalidValue);
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    // Refused in a capture, which it invalidates (the H200's answer): CUDA 13 makes no child-graph node of
    // it.
    if (cudaError_t e = warpsim::runtime::refuse_while_capturing(rt, stream)) return Runtime::finish(e);
    const bool auto_free = (graphExec->flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) != 0;
    if (cudaError_t e = warpsim::runtime::prepare_allocations(rt, *graphExec->graph, auto_free))
        return Runtime::finish(e);
    warpsim::runtime::assign_condition_defaults(rt, *graphExec->graph);
    return Runtime::finish(launch_graph(rt, *graphExec->graph, stream));
}

// Only kernel, memset and memcpy nodes may be disabled (the documentation's note); others are
// cudaErrorInvalidValue.
cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                    unsigned int isEnabled) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = switchable_node(rt, hGraphExec, hNode);
    if (!n) return Runtime::finish(cudaErrorInvalidValue);
    n->enabled = isEnabled != 0;
    return cudaSuccess;
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                    unsigned int* isEnabled) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = switchable_node(rt, hGraphExec, hNode);
    if (!n || !isEnabled) return Runtime::finish(cudaErrorInvalidValue);
    *isEnabled = n->enabled ? 1 : 0;
    return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().destroy_exec(graphExec)) return Runtime::finish(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaKernelNodeParams* pNodeParams) {
    return set_exec_step(hGraphExec, node, GraphStep::Kind::kernel, [&](Runtime& rt, GraphStep& step) {
        return warpsim::runtime::kernel_step(rt, pNodeParams, step);
    });
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t hGraphExec, cudaGraphNode_t node, void* dst,
                                               const void* src, size_t count, enum cudaMemcpyKind kind) {
    return set_exec_step(hGraphExec, node, GraphStep::Kind::copy, [&](Runtime&, GraphStep& step) {
        if (count > 0 && (!dst || !src)) return cudaErrorInvalidValue;
        step = GraphStep::copy(dst, src, count, kind);
        return cudaSuccess;
    });
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemcpy3DParms* pNodeParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = exec_node(rt, hGraphExec, node, GraphStep::Kind::copy);
    if (!n || !pNodeParams || !one_dimensional(*pNodeParams) ||
        !one_dimensional(warpsim::runtime::copy_params(n->step)))
        return Runtime::finish(cudaErrorInvalidValue);
    GraphStep step;
    if (cudaError_t e = warpsim::runtime::copy3d_step(rt, pNodeParams, step)) return Runtime::finish(e);
    n->step = std::move(step);
    return cudaSuccess;
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const struct cudaMemsetParams* pNodeParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = exec_node(rt, hGraphExec, node, GraphStep::Kind::memset);
    if (!n) return Runtime::finish(cudaErrorInvalidValue);
    GraphStep step;
    if (cudaError_t e = warpsim::runtime::memset_step(pNodeParams, step)) return Runtime::finish(e);
    if (!memset_update_allowed(n->step, step)) return Runtime::finish(cudaErrorInvalidValue);
    n->step = std::move(step);
    return cudaSuccess;
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                           const struct cudaHostNodeParams* pNodeParams) {
    return set_exec_step(hGraphExec, node, GraphStep::Kind::host, [&](Runtime&, GraphStep& step) {
        if (!pNodeParams || !pNodeParams->fn) return cudaErrorInvalidValue;
        step = GraphStep::host(pNodeParams->fn, pNodeParams->userData);
        return cudaSuccess;
    });
}

cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                                 cudaEvent_t event) {
    return set_exec_step(hGraphExec, hNode, GraphStep::Kind::event_record, [&](Runtime& rt, GraphStep& step) {
        if (!rt.streams().valid_event(event)) return cudaErrorInvalidValue;
        step = GraphStep::on_event(GraphStep::Kind::event_record, event);
        return cudaSuccess;
    });
}

cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t hGraphExec, cudaGraphNode_t hNode,
                                               cudaEvent_t event) {
    return set_exec_step(hGraphExec, hNode, GraphStep::Kind::event_wait, [&](Runtime& rt, GraphStep& step) {
        if (!rt.streams().valid_event(event)) return cudaErrorInvalidValue;
        step = GraphStep::on_event(GraphStep::Kind::event_wait, event);
        return cudaSuccess;
    });
}

// The child graph must have the instantiated child's topology; its steps replace the child's.
cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                                 cudaGraph_t childGraph) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = exec_node(rt, hGraphExec, node, GraphStep::Kind::child);
    if (!n || !rt.streams().valid_graph_or_child(childGraph)) return Runtime::finish(cudaErrorInvalidValue);
    CUgraphNode_st* error_node = nullptr;
    if (warpsim::runtime::compare_for_update(*n->child, *childGraph, &error_node) !=
        cudaGraphExecUpdateSuccess)
        return Runtime::finish(cudaErrorInvalidValue);
    warpsim::runtime::take_steps(*n->child, *childGraph);
    return cudaSuccess;
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo* resultInfo) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!resultInfo || !rt.streams().valid_exec(hGraphExec) || !rt.streams().valid_graph_or_child(hGraph))
        return Runtime::finish(cudaErrorInvalidValue);
    CUgraphNode_st* error_node = nullptr;
    resultInfo->result = warpsim::runtime::compare_for_update(*hGraphExec->graph, *hGraph, &error_node);
    resultInfo->errorNode = error_node;
    resultInfo->errorFromNode = nullptr;
    if (resultInfo->result != cudaGraphExecUpdateSuccess)
        return Runtime::finish(cudaErrorGraphExecUpdateFailure);
    warpsim::runtime::take_steps(*hGraphExec->graph, *hGraph);
    return cudaSuccess;
}

}  // extern "C"

extern "C" {
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t e, cudaStream_t s) {
    return cudaGraphLaunch(e, s == nullptr ? cudaStreamPerThread : s);
}
cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t e, cudaStream_t s) {
    return cudaGraphUpload(e, s == nullptr ? cudaStreamPerThread : s);
}
cudaError_t cudaGraphInstantiateWithParams_ptsz(cudaGraphExec_t* e, cudaGraph_t g,
                                                cudaGraphInstantiateParams* p) {
    return cudaGraphInstantiateWithParams(e, g, p);
}
}  // extern "C"
