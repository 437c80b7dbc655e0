// sim/runtime/streams.hpp — the program's streams and events: the handles the runtime gave out. Their work is
// placed on the runtime's simulated clock (Runtime::clock(), sim/timing/stream_clock): kernels in
// api_launch.cpp, copies and memsets in api_memory.cpp, waits in api_sync.cpp, api_stream.cpp, api_event.cpp.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>

#include "sim/runtime/graph.hpp"
#include "sim/timing/stream_clock.hpp"

// The objects behind cudaStream_t and cudaEvent_t (the CUDA headers only name them).
struct CUstream_st {
    unsigned flags = 0;  // cudaStreamDefault or cudaStreamNonBlocking
    int priority = 0;
    // The capture the stream began or joined (graph.hpp, api_capture.cpp); null: none. Its next captured
    // work depends on `capture_deps`.
    warpsim::runtime::CaptureSequence* capture = nullptr;
    std::vector<CUgraphNode_st*> capture_deps;
    std::vector<cudaGraphEdgeData> capture_edge_data;  // as many as capture_deps, all zero (plain edges)
};
struct CUevent_st {
    unsigned flags = 0;  // cudaEventDisableTiming, cudaEventBlockingSync, ...
    bool recorded = false;
    double time_us = 0;  // when the stream reached the record, on the simulated clock
    // Recorded in a capture: its id (0: not) and the nodes a stream waiting on it then depends on.
    unsigned long long capture_id = 0;
    std::vector<CUgraphNode_st*> capture_deps;
};

namespace warpsim::runtime {

class Streams {
  public:
    // A new stream, known to `clock` from now on (blocking unless cudaStreamNonBlocking).
    cudaStream_t create_stream(unsigned flags, int priority, timing::StreamClock& clock);
    bool destroy_stream(cudaStream_t s, timing::StreamClock& clock);
    // A handle the program may use: 0, cudaStreamLegacy, cudaStreamPerThread or a live stream of its own.
    bool valid_stream(cudaStream_t s) const;

    cudaEvent_t create_event(unsigned flags);
    bool destroy_event(cudaEvent_t e);
    bool valid_event(cudaEvent_t e) const { return events_.count(e) != 0; }

    // Graphs (api_graph.cpp) and their executable copies.
    CUgraph_st* create_graph();
    bool destroy_graph(CUgraph_st* g);
    bool valid_graph(CUgraph_st* g) const { return graphs_.count(g) != 0; }
    CUgraphExec_st* create_exec();
    bool destroy_exec(CUgraphExec_st* e);
    bool valid_exec(CUgraphExec_st* e) const { return execs_.count(e) != 0; }
    // A graph the program may name: one it made, or a child graph inside one of those (api_graph.cpp).
    bool valid_graph_or_child(const CUgraph_st* g) const;
    // The node `n` is when it is a node of a graph valid_graph_or_child accepts; nullptr otherwise (`n` is
    // compared, never followed, until found).
    CUgraphNode_st* find_node(const void* n) const;

    // Captures (api_capture.cpp): begun on `origin`, ended (and forgotten) by end_capture, which also takes
    // every stream of the capture out of it.
    // Into `into` when given (cudaStreamBeginCaptureToGraph), else into a new graph.
    warpsim::runtime::CaptureSequence& begin_capture(cudaStream_t origin, cudaStreamCaptureMode mode,
                                                     CUgraph_st* into = nullptr);
    void end_capture(warpsim::runtime::CaptureSequence& c);
    warpsim::runtime::CaptureSequence* find_capture(unsigned long long id) const;
    const std::map<unsigned long long, std::unique_ptr<warpsim::runtime::CaptureSequence>>& captures() const {
        return captures_;
    }
    const std::set<cudaStream_t>& streams() const { return streams_; }
    // The calling thread's per-thread default stream (cudaStreamPerThread) as an object of the runtime's own,
    // made at its first use: what a capture of that stream records in (api_capture.cpp). Not one of
    // streams().
    CUstream_st* per_thread_stream();
    // The addresses allocation nodes were given (graph_memory.cpp), with their sizes: kept for the program's
    // lifetime, as CUDA keeps an allocation node's address fixed.
    std::map<uint64_t, uint64_t>& graph_allocations() { return graph_allocations_; }
    // Whether an instantiated graph made from `g` exists.
    bool has_exec_of(const CUgraph_st* g) const {
        for (const CUgraphExec_st* e : execs_)
            if (e->source == g) return true;
        return false;
    }

  private:
    std::map<unsigned long long, std::unique_ptr<warpsim::runtime::CaptureSequence>> captures_;
    unsigned long long next_capture_id_ = 1;
    std::set<cudaStream_t> streams_;
    std::set<cudaEvent_t> events_;
    std::set<CUgraph_st*> graphs_;
    std::map<uint64_t, uint64_t> graph_allocations_;
    std::map<std::thread::id, std::unique_ptr<CUstream_st>> per_thread_;
    std::set<CUgraphExec_st*> execs_;
};

}  // namespace warpsim::runtime
