// sim/runtime/streams.cpp — the program's stream and event handles.
#include "sim/runtime/streams.hpp"

#include "sim/runtime/graph.hpp"

namespace warpsim::runtime {

cudaStream_t Streams::create_stream(unsigned flags, int priority, timing::StreamClock& clock) {
    auto* s = new CUstream_st;
    s->flags = flags;
    s->priority = priority;
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
    if (streams_.count(s) && s->capture && s->capture->origin == s) {  // a capture never ended
        if (!s->capture->graph_given) destroy_graph(s->capture->graph);
        end_capture(*s->capture);
    }
    if (streams_.erase(s) == 0) return false;
    clock.remove_stream(reinterpret_cast<timing::StreamClock::StreamId>(s));
    delete s;
    return true;
}

bool Streams::valid_stream(cudaStream_t s) const {
    return s == nullptr || s == cudaStreamLegacy || s == cudaStreamPerThread || streams_.count(s) != 0;
}

namespace {
// A child graph node's graph and a conditional node's bodies.
template <class F>
bool any_inner_graph(const CUgraphNode_st& node, F&& f) {
    if (node.child && f(*node.child)) return true;
    for (const auto& body : node.bodies)
        if (f(*body)) return true;
    return false;
}
bool holds_child(const CUgraph_st& g, const CUgraph_st* child) {
    for (const auto& node : g.nodes)
        if (any_inner_graph(
                *node, [&](const CUgraph_st& inner) { return &inner == child || holds_child(inner, child); }))
            return true;
    return false;
}
CUgraphNode_st* node_in(const CUgraph_st& g, const void* n) {
    for (const auto& node : g.nodes) {
        if (node.get() == n) return node.get();
        CUgraphNode_st* found = nullptr;
        if (any_inner_graph(*node,
                            [&](const CUgraph_st& inner) { return (found = node_in(inner, n)) != nullptr; }))
            return found;
    }
    return nullptr;
}
}  // namespace

bool Streams::valid_graph_or_child(const CUgraph_st* g) const {
    if (!g) return false;
    if (graphs_.count(const_cast<CUgraph_st*>(g))) return true;
    for (const CUgraph_st* top : graphs_)
        if (holds_child(*top, g)) return true;
    return false;
}

CUgraphNode_st* Streams::find_node(const void* n) const {
    if (!n) return nullptr;
    for (const CUgraph_st* top : graphs_)
        if (CUgraphNode_st* found = node_in(*top, n)) return found;
    return nullptr;
}

CaptureSequence& Streams::begin_capture(cudaStream_t origin, cudaStreamCaptureMode mode, CUgraph_st* into) {
    auto c = std::make_unique<CaptureSequence>();
    c->id = next_capture_id_++;
    c->graph = into ? into : create_graph();
    c->graph_given = into != nullptr;
    c->origin = origin;
    c->mode = mode;
    c->thread = std::this_thread::get_id();
    origin->capture = c.get();
    origin->capture_deps.clear();
    origin->capture_edge_data.clear();
    return *captures_.emplace(c->id, std::move(c)).first->second;
}

void Streams::end_capture(CaptureSequence& c) {
    auto leave = [&](CUstream_st* s) {
        if (s->capture != &c) return;
        s->capture = nullptr;
        s->capture_deps.clear();
        s->capture_edge_data.clear();
    };
    for (cudaStream_t s : streams_) leave(s);
    for (auto& [thread, s] : per_thread_) leave(s.get());
    captures_.erase(c.id);
}

CUstream_st* Streams::per_thread_stream() {
    auto& s = per_thread_[std::this_thread::get_id()];
    if (!s) s = std::make_unique<CUstream_st>();
    return s.get();
}

CaptureSequence* Streams::find_capture(unsigned long long id) const {
    auto it = captures_.find(id);
    return it == captures_.end() ? nullptr : it->second.get();
}

cudaEvent_t Streams::create_event(unsigned flags) {
    auto* e = new CUevent_st;
    e->flags = flags;
    events_.insert(e);
    return e;
}

bool Streams::destroy_event(cudaEvent_t e) {
    if (events_.erase(e) == 0) return false;
    delete e;
    return true;
}

}  // namespace warpsim::runtime
