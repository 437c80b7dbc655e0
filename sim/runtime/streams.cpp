// sim/runtime/streams.cpp — the program's stream and event handles.
#include "sim/runtime/streams.hpp"

#include "sim/runtime/graph.hpp"

namespace warpsim::runtime {

cudaStream_t Streams::create_stream(unsigned flags, int priority, timing::StreamClock& clock) {
    auto* s = new CUstream_st{flags, priority};
    streams_.insert(s);
    clock.add_stream(reinterpret_cast<timing::StreamClock::StreamId>(s),
                     (flags & cudaStreamNonBlocking) == 0);
    return s;
}

CUgraph_st* Streams::create_graph() {
    auto* g = new CUgraph_st;
    graphs_.insert(g);
    return g;
}

bool Streams::destroy_graph(CUgraph_st* g) {
    if (graphs_.erase(g) == 0) return false;
    delete g;
    return true;
}

CUgraphExec_st* Streams::create_exec() {
    auto* e = new CUgraphExec_st;
    execs_.insert(e);
    return e;
}

bool Streams::destroy_exec(CUgraphExec_st* e) {
    if (execs_.erase(e) == 0) return false;
    delete e;
    return true;
}

bool Streams::destroy_stream(cudaStream_t s, timing::StreamClock& clock) {
    if (streams_.count(s) && s->capture) destroy_graph(s->capture);  // a capture never ended
    if (streams_.erase(s) == 0) return false;
    clock.remove_stream(reinterpret_cast<timing::StreamClock::StreamId>(s));
    delete s;
    return true;
}

bool Streams::valid_stream(cudaStream_t s) const {
    return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread || streams_.count(s) != 0;
}

cudaEvent_t Streams::create_event(unsigned flags) {
    auto* e = new CUevent_st{flags, false, 0};
    events_.insert(e);
    return e;
}

bool Streams::destroy_event(cudaEvent_t e) {
    if (events_.erase(e) == 0) return false;
    delete e;
    return true;
}

}  // namespace warpsim::runtime
