// sim/runtime/api_capture.cpp — stream capture (graph.hpp): cudaStreamBeginCapture/EndCapture, the streams
// that join a capture by waiting on an event recorded in it (the fork) and must be joined back before it
// ends, cudaStreamIsCapturing, cudaStreamGetCaptureInfo, cudaStreamUpdateCaptureDependencies and the capture
// modes (cudaThreadExchangeStreamCaptureMode). The answers to what a capture refuses are the H200's
// (tests/programs/cuda_graphs.cu run `illegal`, tests/programs/graph_fork_join.cu run `errors`).
#include "sim/runtime/runtime.hpp"

#include <algorithm>
#include <set>

#include "sim/runtime/graph.hpp"
#include "sim/runtime/streams.hpp"

using warpsim::runtime::CaptureSequence;
using warpsim::runtime::GraphStep;
using warpsim::runtime::Runtime;

namespace {

// A stream of the program's own, or the calling thread's per-thread default stream (an object of the
// runtime's); nullptr for the legacy default stream, which is not an object.
CUstream_st* own_stream(Runtime& rt, cudaStream_t s) {
    if (s == cudaStreamPerThread) return rt.streams().per_thread_stream();
    if (s == nullptr || s == cudaStreamLegacy || !rt.streams().valid_stream(s)) return nullptr;
    return s;
}

// Invalidated by a capture rule: EndCapture then sets the program's graph pointer to null (the H200's
// answer).
void invalidate(CaptureSequence& c) {
    if (!c.invalidated) c.keeps_graph_pointer = false;
    c.invalidated = true;
}

// Every node `deps` reach through their dependencies, themselves included.
std::set<const CUgraphNode_st*> reached_from(const std::vector<CUgraphNode_st*>& deps) {
    std::set<const CUgraphNode_st*> seen;
    std::vector<const CUgraphNode_st*> todo(deps.begin(), deps.end());
    while (!todo.empty()) {
        const CUgraphNode_st* n = todo.back();
        todo.pop_back();
        if (!seen.insert(n).second) continue;
        todo.insert(todo.end(), n->deps.begin(), n->deps.end());
    }
    return seen;
}

// A stream of the capture whose captured work the origin's next work would not depend on: not joined back.
bool has_unjoined_stream(Runtime& rt, const CaptureSequence& c) {
    const auto joined = reached_from(c.origin->capture_deps);
    for (cudaStream_t s : rt.streams().streams()) {
        if (s->capture != &c || s == c.origin) continue;
        for (const CUgraphNode_st* d : s->capture_deps)
            if (!joined.count(d)) return true;
    }
    return false;
}

// The checks of cudaStreamBeginCapture(ToGraph), then the capture begun (into `into` when given) on the
// stream *origin becomes.
cudaError_t begin(Runtime& rt, cudaStream_t stream, cudaStreamCaptureMode mode, CUgraph_st* into,
                  CUstream_st** origin = nullptr) {
    if (!rt.streams().valid_stream(stream)) return cudaErrorInvalidResourceHandle;
    if (cudaError_t e = rt.sticky()) return e;
    if (mode != cudaStreamCaptureModeGlobal && mode != cudaStreamCaptureModeThreadLocal &&
        mode != cudaStreamCaptureModeRelaxed)
        return cudaErrorInvalidValue;
    // The legacy default stream cannot be captured (the H200's answer).
    if (stream == nullptr || stream == cudaStreamLegacy) return cudaErrorStreamCaptureUnsupported;
    CUstream_st* own = own_stream(rt, stream);
    if (own->capture) return cudaErrorIllegalState;
    rt.streams().begin_capture(own, mode, into);
    if (origin) *origin = own;
    return cudaSuccess;
}

void add_dependencies(CUstream_st& s, const std::vector<CUgraphNode_st*>& deps) {
    for (CUgraphNode_st* d : deps)
        if (std::find(s.capture_deps.begin(), s.capture_deps.end(), d) == s.capture_deps.end())
            s.capture_deps.push_back(d);
}

}  // namespace

namespace warpsim::runtime {

CUstream_st* capture_target(Runtime& rt, cudaStream_t s) {
    CUstream_st* own = own_stream(rt, s);
    return own && own->capture ? own : nullptr;
}

cudaError_t capture_add(CUstream_st& s, GraphStep step) {
    if (s.capture->invalidated) return cudaErrorStreamCaptureInvalidated;
    CUgraphNode_st* node = s.capture->graph->add(std::move(step), s.capture_deps);
    s.capture_deps.assign(1, node);
    return cudaSuccess;
}

cudaError_t refuse_while_capturing(Runtime& rt, cudaStream_t s) {
    CUstream_st* own = capture_target(rt, s);
    if (!own) return cudaSuccess;
    if (!own->capture->invalidated) own->capture->keeps_graph_pointer = true;
    own->capture->invalidated = true;
    return cudaErrorStreamCaptureUnsupported;
}

cudaError_t refuse_implicit_sync(Runtime& rt, cudaStream_t s) {
    if (s != nullptr && s != cudaStreamLegacy) return cudaSuccess;
    bool refused = false;
    for (cudaStream_t own : rt.streams().streams())
        if (own->capture && (own->flags & cudaStreamNonBlocking) == 0) {
            invalidate(*own->capture);
            refused = true;
        }
    return refused ? cudaErrorStreamCaptureImplicit : cudaSuccess;
}

cudaError_t refuse_unsafe_call(Runtime& rt) {
    const cudaStreamCaptureMode mode = thread_capture_mode();
    if (mode == cudaStreamCaptureModeRelaxed) return cudaSuccess;
    const auto me = std::this_thread::get_id();
    bool refused = false;
    for (const auto& [id, c] : rt.streams().captures()) {
        const bool mine = c->thread == me;
        if ((mine && c->mode != cudaStreamCaptureModeRelaxed) ||
            (!mine && mode == cudaStreamCaptureModeGlobal && c->mode == cudaStreamCaptureModeGlobal)) {
            invalidate(*c);
            refused = true;
        }
    }
    return refused ? cudaErrorStreamCaptureUnsupported : cudaSuccess;
}

std::optional<cudaError_t> capture_event_record(Runtime& rt, cudaEvent_t event, cudaStream_t stream,
                                                unsigned flags) {
    CUstream_st* s = capture_target(rt, stream);
    if (!s) return std::nullopt;
    if (s->capture->invalidated) return cudaErrorStreamCaptureInvalidated;
    if (flags & cudaEventRecordExternal)
        return capture_add(*s, GraphStep::on_event(GraphStep::Kind::event_record, event));
    event->capture_id = s->capture->id;
    event->capture_deps = s->capture_deps;
    return cudaSuccess;
}

std::optional<cudaError_t> capture_event_wait(Runtime& rt, cudaStream_t stream, cudaEvent_t event,
                                              unsigned flags) {
    CaptureSequence* from = event->capture_id ? rt.streams().find_capture(event->capture_id) : nullptr;
    CUstream_st* s = capture_target(rt, stream);
    if (!from && !s) return std::nullopt;
    if (s && s->capture->invalidated) return cudaErrorStreamCaptureInvalidated;
    if (s && (flags & cudaEventWaitExternal))
        return capture_add(*s, GraphStep::on_event(GraphStep::Kind::event_wait, event));
    if (!from) {  // a dependency on work outside the capture
        invalidate(*s->capture);
        return cudaErrorStreamCaptureIsolation;
    }
    CUstream_st* own = own_stream(rt, stream);
    if (!own)
        return not_supported("cudaStreamWaitEvent of the default stream on an event recorded in a capture");
    if (s && s->capture != from) {  // two captures would merge
        invalidate(*s->capture);
        invalidate(*from);
        return cudaErrorStreamCaptureMerge;
    }
    if (from->invalidated) return cudaErrorStreamCaptureInvalidated;
    if (!s) {  // the stream joins the capture: its next work depends on what the event marks
        own->capture = from;
        own->capture_deps = event->capture_deps;
        return cudaSuccess;
    }
    add_dependencies(*s, event->capture_deps);
    return cudaSuccess;
}

}  // namespace warpsim::runtime

using warpsim::runtime::capture_target;

extern "C" {

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                          const cudaGraphNode_t* dependencies,
                                          const cudaGraphEdgeData* dependencyData, size_t numDependencies,
                                          enum cudaStreamCaptureMode mode) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_graph_or_child(graph) || (numDependencies > 0 && !dependencies))
        return Runtime::finish(cudaErrorInvalidValue);
    std::vector<CUgraphNode_st*> deps;
    for (size_t i = 0; i < numDependencies; ++i) {
        const bool in_graph = std::any_of(graph->nodes.begin(), graph->nodes.end(),
                                          [&](const auto& node) { return node.get() == dependencies[i]; });
        if (!in_graph) return Runtime::finish(cudaErrorInvalidValue);
        if (dependencyData && (dependencyData[i].type != 0 || dependencyData[i].from_port != 0 ||
                               dependencyData[i].to_port != 0))
            return warpsim::runtime::not_supported("cudaStreamBeginCaptureToGraph with edge data");
        deps.push_back(dependencies[i]);
    }
    CUstream_st* origin = nullptr;
    if (cudaError_t e = begin(rt, stream, mode, graph, &origin)) return Runtime::finish(e);
    origin->capture_deps = std::move(deps);
    return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    return Runtime::finish(begin(rt, stream, mode, nullptr));
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* pGraph) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    CUstream_st* own = capture_target(rt, stream);
    if (!own) return Runtime::finish(cudaErrorIllegalState);
    CaptureSequence& c = *own->capture;
    if (own !=
        c.origin) {  // ended on a stream that joined it: the capture is invalidated (the H200's answer)
        invalidate(c);
        if (pGraph) *pGraph = nullptr;
        return Runtime::finish(cudaErrorStreamCaptureUnmatched);
    }
    if (c.mode != cudaStreamCaptureModeRelaxed && c.thread != std::this_thread::get_id())
        return Runtime::finish(cudaErrorStreamCaptureWrongThread);
    CUgraph_st* graph = c.graph;
    cudaError_t result = cudaSuccess;
    if (c.invalidated)
        result = cudaErrorStreamCaptureInvalidated;
    else if (has_unjoined_stream(rt, c))
        result = cudaErrorStreamCaptureUnjoined;
    else if (!pGraph)
        result = cudaErrorInvalidValue;
    const bool keep_pointer = c.invalidated && c.keeps_graph_pointer;
    const bool c_graph_given = c.graph_given;
    rt.streams().end_capture(c);
    if (result != cudaSuccess) {
        if (!c_graph_given) rt.streams().destroy_graph(graph);
        if (pGraph && !keep_pointer) *pGraph = nullptr;
        return Runtime::finish(result);
    }
    *pGraph = graph;
    return cudaSuccess;
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, enum cudaStreamCaptureStatus* pCaptureStatus) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!pCaptureStatus) return Runtime::finish(cudaErrorInvalidValue);
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    CUstream_st* own = capture_target(rt, stream);
    *pCaptureStatus = !own                        ? cudaStreamCaptureStatusNone
                      : own->capture->invalidated ? cudaStreamCaptureStatusInvalidated
                                                  : cudaStreamCaptureStatusActive;
    return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, enum cudaStreamCaptureStatus* captureStatus_out,
                                     unsigned long long* id_out, cudaGraph_t* graph_out,
                                     const cudaGraphNode_t** dependencies_out,
                                     const cudaGraphEdgeData** edgeData_out, size_t* numDependencies_out) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!captureStatus_out || (edgeData_out && !dependencies_out))
        return Runtime::finish(cudaErrorInvalidValue);
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    CUstream_st* own = capture_target(rt, stream);
    if (!own) {
        *captureStatus_out = cudaStreamCaptureStatusNone;
        return cudaSuccess;
    }
    const CaptureSequence& c = *own->capture;
    *captureStatus_out = c.invalidated ? cudaStreamCaptureStatusInvalidated : cudaStreamCaptureStatusActive;
    if (c.invalidated) return cudaSuccess;  // the other outputs are valid only while the capture is active
    if (id_out) *id_out = c.id;
    if (graph_out) *graph_out = c.graph;
    own->capture_edge_data.assign(own->capture_deps.size(), cudaGraphEdgeData{});
    if (dependencies_out) *dependencies_out = own->capture_deps.data();
    if (edgeData_out) *edgeData_out = own->capture_edge_data.data();
    if (numDependencies_out) *numDependencies_out = own->capture_deps.size();
    return cudaSuccess;
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t* dependencies,
                                                const cudaGraphEdgeData* dependencyData,
                                                size_t numDependencies, unsigned int flags) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!rt.streams().valid_stream(stream)) return Runtime::finish(cudaErrorInvalidResourceHandle);
    CUstream_st* own = capture_target(rt, stream);
    if (!own) return Runtime::finish(cudaErrorIllegalState);
    if ((flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies) ||
        (numDependencies > 0 && !dependencies))
        return Runtime::finish(cudaErrorInvalidValue);
    std::vector<CUgraphNode_st*> deps;
    for (size_t i = 0; i < numDependencies; ++i) {
        const auto& nodes = own->capture->graph->nodes;
        const bool in_graph = std::any_of(nodes.begin(), nodes.end(),
                                          [&](const auto& node) { return node.get() == dependencies[i]; });
        if (!in_graph) return Runtime::finish(cudaErrorInvalidValue);
        if (dependencyData && (dependencyData[i].type != 0 || dependencyData[i].from_port != 0 ||
                               dependencyData[i].to_port != 0))
            return warpsim::runtime::not_supported("cudaStreamUpdateCaptureDependencies with edge data");
        deps.push_back(dependencies[i]);
    }
    if (flags == cudaStreamSetCaptureDependencies) own->capture_deps.clear();
    add_dependencies(*own, deps);
    return cudaSuccess;
}

cudaError_t cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode* mode) {
    if (!mode || (*mode != cudaStreamCaptureModeGlobal && *mode != cudaStreamCaptureModeThreadLocal &&
                  *mode != cudaStreamCaptureModeRelaxed))
        return Runtime::finish(cudaErrorInvalidValue);
    std::swap(*mode, warpsim::runtime::thread_capture_mode());
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
cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t s, enum cudaStreamCaptureStatus* st,
                                          unsigned long long* id, cudaGraph_t* g,
                                          const cudaGraphNode_t** deps, const cudaGraphEdgeData** edges,
                                          size_t* n) {
    return cudaStreamGetCaptureInfo(s == nullptr ? cudaStreamPerThread : s, st, id, g, deps, edges, n);
}
cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t s, cudaGraphNode_t* deps,
                                                     const cudaGraphEdgeData* edges, size_t n,
                                                     unsigned int flags) {
    return cudaStreamUpdateCaptureDependencies(s == nullptr ? cudaStreamPerThread : s, deps, edges, n, flags);
}
}  // extern "C"
