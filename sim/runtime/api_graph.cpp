// sim/runtime/api_graph.cpp — CUDA graphs (graph.hpp): stream capture (cudaStreamBeginCapture/EndCapture/
// IsCapturing), graphs built node by node (kernel, memcpy, memset, host and empty nodes), instantiation and
// cudaGraphLaunch, which replays the steps on the stream in the order they were added. The answers to what
// capture refuses are the H200's (tests/programs/cuda_graphs.cu, run `illegal`).
#include "sim/runtime/runtime.hpp"

#include <algorithm>
#include <cstring>

#include "kernels_ir/layout.hpp"
#include "sim/runtime/graph.hpp"
#include "sim/runtime/streams.hpp"

using warpsim::runtime::GraphStep;
using warpsim::runtime::Runtime;

namespace warpsim::runtime {

namespace {
// A stream of the program's own (the default and per-thread handles are not objects).
CUstream_st* own_stream(Runtime& rt, cudaStream_t s) {
    if (s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread || !rt.streams().valid_stream(s))
        return nullptr;
    return s;
}
}  // namespace

CUgraph_st* capture_target(Runtime& rt, cudaStream_t s) {
    CUstream_st* own = own_stream(rt, s);
    return own ? own->capture : nullptr;
}

cudaError_t refuse_while_capturing(Runtime& rt, cudaStream_t s) {
    CUstream_st* own = own_stream(rt, s);
    if (!own || !own->capture) return cudaSuccess;
    own->capture_invalidated = true;
    return cudaErrorStreamCaptureUnsupported;
}

}  // namespace warpsim::runtime

namespace {

using warpsim::runtime::own_stream;

// The dependencies a new node names must be nodes of the same graph (so they were added before it).
bool dependencies_ok(CUgraph_st* graph, const cudaGraphNode_t* deps, size_t count) {
    if (count > 0 && !deps) return false;
    for (size_t i = 0; i < count; ++i)
        if (!deps[i] || deps[i]->graph != graph) return false;
    return true;
}

// The checks every cudaGraphAdd*Node makes; cudaSuccess when the node may be added.
cudaError_t check_add(Runtime& rt, cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps,
                      size_t count) {
    if (!out || !rt.streams().valid_graph(graph) || !dependencies_ok(graph, deps, count))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

cudaError_t launch_steps(Runtime& rt, const CUgraphExec_st& exec, cudaStream_t stream) {
    for (const GraphStep& step : exec.steps) {
        cudaError_t e = cudaSuccess;
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
                e = warpsim::runtime::launch_kernel(rt, *step.kernel, req);
                break;
            }
            case GraphStep::Kind::copy:
                e = warpsim::runtime::copy_on_stream(rt, step.dst, step.src, step.bytes, step.copy_kind,
                                                     stream);
                break;
            case GraphStep::Kind::memset:
                e = warpsim::runtime::memset_on_stream(rt, step.dst, step.value, step.bytes, stream);
                break;
            case GraphStep::Kind::host:
                // In stream order, as cudaLaunchHostFunc: everything before it in the stream has run.
                rt.clock().marker(Runtime::stream_id(stream));
                step.fn(step.data);
                break;
            case GraphStep::Kind::empty:
                break;
        }
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    // The legacy default stream cannot be captured (the H200's answer).
    if (stream == nullptr || stream == cudaStreamLegacy)
        return Runtime::finish(cudaErrorStreamCaptureUnsupported);
    if (stream == cudaStreamPerThread)
        return warpsim::runtime::not_supported("cudaStreamBeginCapture of the per-thread stream");
    if (stream->capture) return Runtime::finish(cudaErrorIllegalState);
    stream->capture = rt.streams().create_graph();
    stream->capture_invalidated = false;
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    CUstream_st* own = own_stream(rt, stream);
    if (!own || !own->capture) return Runtime::finish(cudaErrorIllegalState);
    CUgraph_st* graph = own->capture;
    own->capture = nullptr;
    if (own->capture_invalidated) {
        // The H200 leaves *pGraph as it was.
        own->capture_invalidated = false;
        rt.streams().destroy_graph(graph);
        return Runtime::finish(cudaErrorStreamCaptureInvalidated);
    }
    if (!pGraph) {
        rt.streams().destroy_graph(graph);
        return Runtime::finish(cudaErrorInvalidValue);
    }
    *pGraph = graph;
    return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus* pCaptureStatus) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!pCaptureStatus) return Runtime::finish(cudaErrorInvalidValue);
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    CUstream_st* own = own_stream(rt, stream);
    *pCaptureStatus = !own || !own->capture      ? cudaStreamCaptureStatusNone
                      : own->capture_invalidated ? cudaStreamCaptureStatusInvalidated
                                                 : cudaStreamCaptureStatusActive;
    return cudaSuccess;
}

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
    if (!rt.streams().destroy_graph(graph)) return Runtime::finish(cudaErrorInvalidValue);
    return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t* nodes, size_t* numNodes) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!numNodes || !rt.streams().valid_graph(graph)) return Runtime::finish(cudaErrorInvalidValue);
    const size_t have = graph->nodes.size();
    if (nodes) {
        for (size_t i = 0; i < *numNodes; ++i) nodes[i] = i < have ? graph->nodes[i].get() : nullptr;
        *numNodes = std::min(*numNodes, have);
    } else {
        *numNodes = have;
    }
    return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const struct cudaKernelNodeParams* p) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = check_add(rt, pGraphNode, graph, pDependencies, numDependencies))
        return Runtime::finish(e);
    if (!p) return Runtime::finish(cudaErrorInvalidValue);
    if (p->extra) return warpsim::runtime::not_supported("cudaGraphAddKernelNode with `extra` arguments");
    warpsim::runtime::Kernel* k = rt.kernel_by_host_function(p->func);
    if (!k) return Runtime::finish(cudaErrorInvalidDeviceFunction);
    if (rt.ensure_loaded(*k->module) || !k->function) return Runtime::finish(cudaErrorInvalidDeviceFunction);
    const auto layout = warpsim::ir::param_layout(k->function->params);
    GraphStep step;
    step.kind = GraphStep::Kind::kernel;
    step.kernel = k;
    step.grid = p->gridDim;
    step.block = p->blockDim;
    step.shared_bytes = p->sharedMemBytes;
    step.params.resize(layout.total);
    step.param_offsets.assign(layout.offsets.begin(), layout.offsets.end());
    for (size_t i = 0; i < k->function->params.size(); ++i) {
        if (!p->kernelParams || !p->kernelParams[i]) return Runtime::finish(cudaErrorInvalidValue);
        std::memcpy(step.params.data() + layout.offsets[i], p->kernelParams[i],
                    k->function->params[i].size_bytes());
    }
    *pGraphNode = graph->add(std::move(step));
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t* pDependencies, size_t numDependencies, void* dst,
                                     const void* src, size_t count, enum cudaMemcpyKind kind) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = check_add(rt, pGraphNode, graph, pDependencies, numDependencies))
        return Runtime::finish(e);
    if (count > 0 && (!dst || !src)) return Runtime::finish(cudaErrorInvalidValue);
    *pGraphNode = graph->add(GraphStep::copy(dst, src, count, kind));
    return cudaSuccess;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                   const struct cudaMemsetParams* p) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = check_add(rt, pGraphNode, graph, pDependencies, numDependencies))
        return Runtime::finish(e);
    if (!p || !p->dst) return Runtime::finish(cudaErrorInvalidValue);
    if (p->elementSize != 1 || p->height > 1)
        return warpsim::runtime::not_supported(
            "cudaGraphAddMemsetNode with elementSize 2 or 4, or height above 1");
    *pGraphNode = graph->add(GraphStep::memset(p->dst, static_cast<int>(p->value & 0xff), p->width));
    return cudaSuccess;
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                 const cudaGraphNode_t* pDependencies, size_t numDependencies,
                                 const struct cudaHostNodeParams* p) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = check_add(rt, pGraphNode, graph, pDependencies, numDependencies))
        return Runtime::finish(e);
    if (!p || !p->fn) return Runtime::finish(cudaErrorInvalidValue);
    *pGraphNode = graph->add(GraphStep::host(p->fn, p->userData));
    return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t* pGraphNode, cudaGraph_t graph,
                                  const cudaGraphNode_t* pDependencies, size_t numDependencies) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = check_add(rt, pGraphNode, graph, pDependencies, numDependencies))
        return Runtime::finish(e);
    *pGraphNode = graph->add(GraphStep{});
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t* pGraphExec, cudaGraph_t graph, unsigned long long flags) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!pGraphExec || !rt.streams().valid_graph(graph)) return Runtime::finish(cudaErrorInvalidValue);
    if (flags != 0) return warpsim::runtime::not_supported("cudaGraphInstantiate with flags");
    CUgraphExec_st* exec = rt.streams().create_exec();
    for (const auto& node : graph->nodes) exec->steps.push_back(node->step);
    *pGraphExec = exec;
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t* pGraphExec, cudaGraph_t graph,
                                          unsigned long long flags) {
    return cudaGraphInstantiate(pGraphExec, graph, flags);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_exec(graphExec)) return Runtime::finish(cudaErrorInvalidValue);
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    if (warpsim::runtime::capture_target(rt, stream))
        return warpsim::runtime::not_supported("cudaGraphLaunch in a stream capture (child graphs)");
    return Runtime::finish(launch_steps(rt, *graphExec, stream));
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().destroy_exec(graphExec)) return Runtime::finish(cudaErrorInvalidValue);
    return cudaSuccess;
}

}  // extern "C"

// The per-thread-default-stream spellings: stream 0 is the calling thread's default stream there.
extern "C" {
cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t s, enum cudaStreamCaptureMode mode) {
    return cudaStreamBeginCapture(s == nullptr ? cudaStreamPerThread : s, mode);
}
cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t s, cudaGraph_t* g) {
    return cudaStreamEndCapture(s == nullptr ? cudaStreamPerThread : s, g);
}
cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t s, enum cudaStreamCaptureStatus* st) {
    return cudaStreamIsCapturing(s == nullptr ? cudaStreamPerThread : s, st);
}
cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t e, cudaStream_t s) {
    return cudaGraphLaunch(e, s == nullptr ? cudaStreamPerThread : s);
}
}  // extern "C"
