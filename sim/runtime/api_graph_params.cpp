// sim/runtime/api_graph_params.cpp — the calls that take any node type's parameters as one tagged union
// (cudaGraphNodeParams): cudaGraphAddNode, cudaGraphNodeSetParams and cudaGraphExecNodeSetParams, each
// handing the union's member to the call of that node type (api_graph.cpp, api_graph_exec.cpp,
// graph_memory.cpp).
#include "sim/runtime/runtime.hpp"

#include <algorithm>

#include "sim/runtime/graph.hpp"
#include "sim/runtime/streams.hpp"

using warpsim::runtime::Runtime;

namespace {

cudaKernelNodeParams kernel_params(const cudaKernelNodeParamsV2& k) {
    cudaKernelNodeParams p{};
    p.func = k.func;
    p.gridDim = k.gridDim;
    p.blockDim = k.blockDim;
    p.sharedMemBytes = k.sharedMemBytes;
    p.kernelParams = k.kernelParams;
    p.extra = k.extra;
    return p;
}

cudaMemsetParams memset_params(const cudaMemsetParamsV2& m) {
    cudaMemsetParams p{};
    p.dst = m.dst;
    p.pitch = m.pitch;
    p.value = m.value;
    p.elementSize = m.elementSize;
    p.width = m.width;
    p.height = m.height;
    return p;
}

cudaHostNodeParams host_params(const cudaHostNodeParamsV2& h) {
    cudaHostNodeParams p{};
    p.fn = h.fn;
    p.userData = h.userData;
    return p;
}

// The fields the documentation says must be zero.
bool reserved_zero(const cudaGraphNodeParams& p) {
    return p.reserved0[0] == 0 && p.reserved0[1] == 0 && p.reserved0[2] == 0 && p.reserved2 == 0;
}
bool memcpy_reserved_zero(const cudaMemcpyNodeParams& m) {
    return m.flags == 0 && m.reserved[0] == 0 && m.reserved[1] == 0 && m.reserved[2] == 0;
}

bool default_edges(const cudaGraphEdgeData* data, size_t count) {
    if (!data) return true;
    return std::all_of(data, data + count, [](const cudaGraphEdgeData& e) {
        return e.type == 0 && e.from_port == 0 && e.to_port == 0;
    });
}

}  // namespace

extern "C" {

cudaError_t cudaGraphAddNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                             const cudaGraphNode_t* pDependencies, const cudaGraphEdgeData* dependencyData,
                             size_t numDependencies, struct cudaGraphNodeParams* nodeParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!nodeParams || !reserved_zero(*nodeParams)) return Runtime::finish(cudaErrorInvalidValue);
    if (!default_edges(dependencyData, numDependencies))
        return warpsim::runtime::not_supported("cudaGraphAddNode with edge data");
    cudaGraphNodeParams& p = *nodeParams;
    cudaGraphNode_t* out = pGraphNode;
    const cudaGraphNode_t* deps = pDependencies;
    const size_t n = numDependencies;
    switch (p.type) {
        case cudaGraphNodeTypeKernel: {
            const cudaKernelNodeParams k = kernel_params(p.kernel);
            return cudaGraphAddKernelNode(out, graph, deps, n, &k);
        }
        case cudaGraphNodeTypeMemcpy:
            if (!memcpy_reserved_zero(p.memcpy)) return Runtime::finish(cudaErrorInvalidValue);
            return cudaGraphAddMemcpyNode(out, graph, deps, n, &p.memcpy.copyParams);
        case cudaGraphNodeTypeMemset: {
            const cudaMemsetParams m = memset_params(p.memset);
            return cudaGraphAddMemsetNode(out, graph, deps, n, &m);
        }
        case cudaGraphNodeTypeHost: {
            const cudaHostNodeParams h = host_params(p.host);
            return cudaGraphAddHostNode(out, graph, deps, n, &h);
        }
        case cudaGraphNodeTypeGraph:
            if (p.graph.ownership != cudaGraphChildGraphOwnershipClone)
                return warpsim::runtime::not_supported(
                    "cudaGraphAddNode of a child graph moved into its node");
            return cudaGraphAddChildGraphNode(out, graph, deps, n, p.graph.graph);
        case cudaGraphNodeTypeEmpty:
            return cudaGraphAddEmptyNode(out, graph, deps, n);
        case cudaGraphNodeTypeWaitEvent:
            return cudaGraphAddEventWaitNode(out, graph, deps, n, p.eventWait.event);
        case cudaGraphNodeTypeEventRecord:
            return cudaGraphAddEventRecordNode(out, graph, deps, n, p.eventRecord.event);
        case cudaGraphNodeTypeExtSemaphoreSignal:
        case cudaGraphNodeTypeExtSemaphoreWait:
            return warpsim::runtime::not_supported("external-semaphore graph nodes");
        case cudaGraphNodeTypeMemAlloc: {
            cudaMemAllocNodeParams a{};
            a.poolProps = p.alloc.poolProps;
            a.accessDescs = p.alloc.accessDescs;
            a.accessDescCount = p.alloc.accessDescCount;
            a.bytesize = p.alloc.bytesize;
            const cudaError_t e = cudaGraphAddMemAllocNode(out, graph, deps, n, &a);
            if (e == cudaSuccess) p.alloc.dptr = a.dptr;  // the documentation's "out parameter"
            return e;
        }
        case cudaGraphNodeTypeMemFree:
            return cudaGraphAddMemFreeNode(out, graph, deps, n, p.free.dptr);
        case cudaGraphNodeTypeConditional:
            return warpsim::runtime::add_conditional_node(rt, out, graph, deps, n, p.conditional);
        default:
            return Runtime::finish(cudaErrorInvalidValue);
    }
}

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node, struct cudaGraphNodeParams* nodeParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = rt.streams().find_node(node);
    if (!n || !nodeParams || !reserved_zero(*nodeParams) ||
        warpsim::runtime::node_type(n->step.kind) != nodeParams->type)
        return Runtime::finish(cudaErrorInvalidValue);
    cudaGraphNodeParams& p = *nodeParams;
    switch (p.type) {
        case cudaGraphNodeTypeKernel: {
            const cudaKernelNodeParams k = kernel_params(p.kernel);
            return cudaGraphKernelNodeSetParams(node, &k);
        }
        case cudaGraphNodeTypeMemcpy:
            if (!memcpy_reserved_zero(p.memcpy)) return Runtime::finish(cudaErrorInvalidValue);
            return cudaGraphMemcpyNodeSetParams(node, &p.memcpy.copyParams);
        case cudaGraphNodeTypeMemset: {
            const cudaMemsetParams m = memset_params(p.memset);
            return cudaGraphMemsetNodeSetParams(node, &m);
        }
        case cudaGraphNodeTypeHost: {
            const cudaHostNodeParams h = host_params(p.host);
            return cudaGraphHostNodeSetParams(node, &h);
        }
        case cudaGraphNodeTypeEmpty:
            return cudaSuccess;  // nothing to set
        case cudaGraphNodeTypeWaitEvent:
            return cudaGraphEventWaitNodeSetEvent(node, p.eventWait.event);
        case cudaGraphNodeTypeEventRecord:
            return cudaGraphEventRecordNodeSetEvent(node, p.eventRecord.event);
        case cudaGraphNodeTypeMemAlloc:
        case cudaGraphNodeTypeMemFree:  // the documentation: not supported for them
            return Runtime::finish(cudaErrorNotSupported);
        default:
            return warpsim::runtime::not_supported("cudaGraphNodeSetParams of this node type");
    }
}

cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t graphExec, cudaGraphNode_t node,
                                       struct cudaGraphNodeParams* nodeParams) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    CUgraphNode_st* n = rt.streams().valid_exec(graphExec) ? rt.streams().find_node(node) : nullptr;
    if (!n || !nodeParams || !reserved_zero(*nodeParams) ||
        warpsim::runtime::node_type(n->step.kind) != nodeParams->type)
        return Runtime::finish(cudaErrorInvalidValue);
    cudaGraphNodeParams& p = *nodeParams;
    switch (p.type) {
        case cudaGraphNodeTypeKernel: {
            const cudaKernelNodeParams k = kernel_params(p.kernel);
            return cudaGraphExecKernelNodeSetParams(graphExec, node, &k);
        }
        case cudaGraphNodeTypeMemcpy:
            if (!memcpy_reserved_zero(p.memcpy)) return Runtime::finish(cudaErrorInvalidValue);
            return cudaGraphExecMemcpyNodeSetParams(graphExec, node, &p.memcpy.copyParams);
        case cudaGraphNodeTypeMemset: {
            const cudaMemsetParams m = memset_params(p.memset);
            return cudaGraphExecMemsetNodeSetParams(graphExec, node, &m);
        }
        case cudaGraphNodeTypeHost: {
            const cudaHostNodeParams h = host_params(p.host);
            return cudaGraphExecHostNodeSetParams(graphExec, node, &h);
        }
        case cudaGraphNodeTypeGraph:
            return cudaGraphExecChildGraphNodeSetParams(graphExec, node, p.graph.graph);
        case cudaGraphNodeTypeEmpty:
            return cudaSuccess;
        case cudaGraphNodeTypeWaitEvent:
            return cudaGraphExecEventWaitNodeSetEvent(graphExec, node, p.eventWait.event);
        case cudaGraphNodeTypeEventRecord:
            return cudaGraphExecEventRecordNodeSetEvent(graphExec, node, p.eventRecord.event);
        case cudaGraphNodeTypeMemAlloc:
        case cudaGraphNodeTypeMemFree:  // the documentation: "API unsupported" for them
            return Runtime::finish(cudaErrorNotSupported);
        default:
            return warpsim::runtime::not_supported("cudaGraphExecNodeSetParams of this node type");
    }
}

}  // extern "C"
