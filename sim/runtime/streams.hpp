// sim/runtime/streams.hpp — the program's streams and events: the handles the runtime gave out. Their work is
// placed on the runtime's simulated clock (Runtime::clock(), sim/timing/stream_clock): kernels in
// api_launch.cpp, copies and memsets in api_memory.cpp, waits in api_sync.cpp, api_stream.cpp, api_event.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <set>

#include <cuda_runtime_api.h>

#include "sim/timing/stream_clock.hpp"

// The objects behind cudaStream_t and cudaEvent_t (the CUDA headers only name them).
struct CUgraph_st;
struct CUgraphExec_st;
struct CUstream_st {
    unsigned flags = 0;  // cudaStreamDefault or cudaStreamNonBlocking
    int priority = 0;
    CUgraph_st* capture = nullptr;  // the graph the stream captures into (cudaStreamBeginCapture); null: none
    bool capture_invalidated = false;  // a call the capture cannot hold was made (api_graph.cpp)
};
struct CUevent_st {
    unsigned flags = 0;  // cudaEventDisableTiming, cudaEventBlockingSync, ...
    bool recorded = false;
    double time_us = 0;  // when the stream reached the record, on the simulated clock
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

  private:
    std::set<cudaStream_t> streams_;
    std::set<cudaEvent_t> events_;
    std::set<CUgraph_st*> graphs_;
    std::set<CUgraphExec_st*> execs_;
};

}  // namespace warpsim::runtime
