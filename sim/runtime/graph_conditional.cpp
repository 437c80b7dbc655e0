// sim/runtime/graph_conditional.cpp — conditional graph nodes (graph.hpp): handles
// (cudaGraphConditionalHandleCreate), IF, WHILE and SWITCH nodes added with cudaGraphAddNode, their bodies
// run as the condition says. A handle is the address of a 4-byte cell of simulated device memory: the
// device's cudaGraphSetConditional stores into it (sim/engine/handlers_control.cpp), the node reads it when
// it runs.
#include "sim/runtime/runtime.hpp"

#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#include "sim/runtime/graph.hpp"
#include "sim/runtime/streams.hpp"

using warpsim::runtime::GraphStep;
using warpsim::runtime::Runtime;

namespace {

// A WHILE node whose condition never becomes zero would run forever: it stops after this many iterations,
// which no real program's loop in a graph reaches by accident.
constexpr uint64_t kMaxWhileIterations = 1u << 20;

uint32_t read_condition(Runtime& rt, uint64_t cell) {
    uint32_t value = 0;
    if (const uint8_t* p = rt.sim().memory().translate(cell, sizeof value))
        std::memcpy(&value, p, sizeof value);
    return value;
}

void write_condition(Runtime& rt, uint64_t cell, uint32_t value) {
    if (uint8_t* p = rt.sim().memory().translate(cell, sizeof value)) std::memcpy(p, &value, sizeof value);
}

// The graph holding `handle`'s cell among `g` and the graphs inside it (a handle is made for one graph).
bool owns_handle(const CUgraph_st& g, uint64_t handle) {
    return std::any_of(g.conditional_handles.begin(), g.conditional_handles.end(),
                       [&](const auto& h) { return h.cell == handle; });
}

}  // namespace

namespace warpsim::runtime {

bool has_conditional_nodes(const CUgraph_st& g) {
    return std::any_of(g.nodes.begin(), g.nodes.end(), [](const auto& n) {
        return n->step.kind == GraphStep::Kind::conditional || (n->child && has_conditional_nodes(*n->child));
    });
}

void assign_condition_defaults(Runtime& rt, const CUgraph_st& g) {
    for (const auto& h : g.conditional_handles)
        if (h.assign_default) write_condition(rt, h.cell, h.default_value);
    for (const auto& n : g.nodes) {
        if (n->child) assign_condition_defaults(rt, *n->child);
        for (const auto& body : n->bodies) assign_condition_defaults(rt, *body);
    }
}

cudaError_t run_conditional(Runtime& rt, const CUgraphNode_st& node, cudaStream_t stream, GraphRunner run) {
    const uint64_t cell = node.step.condition;
    switch (node.step.condition_type) {
        case cudaGraphCondTypeIf: {
            const uint32_t value = read_condition(rt, cell);
            if (value != 0) return run(rt, *node.bodies[0], stream);
            return node.bodies.size() > 1 ? run(rt, *node.bodies[1], stream) : cudaSuccess;
        }
        case cudaGraphCondTypeWhile:
            for (uint64_t i = 0; read_condition(rt, cell) != 0; ++i) {
                if (i == kMaxWhileIterations) {
                    std::fprintf(
                        stderr,
                        "warpsim: a WHILE graph node ran its body %llu times and its condition is still "
                        "not zero: stopped (does a kernel of the body call cudaGraphSetConditional(handle, "
                        "0) when the loop is done?)\n",
                        static_cast<unsigned long long>(kMaxWhileIterations));
                    return cudaErrorLaunchTimeout;
                }
                if (cudaError_t e = run(rt, *node.bodies[0], stream)) return e;
            }
            return cudaSuccess;
        case cudaGraphCondTypeSwitch: {
            const uint32_t value = read_condition(rt, cell);
            return value < node.bodies.size() ? run(rt, *node.bodies[value], stream) : cudaSuccess;
        }
    }
    return cudaSuccess;
}

cudaError_t add_conditional_node(Runtime& rt, cudaGraphNode_t* out, cudaGraph_t graph,
                                 const cudaGraphNode_t* deps, size_t count,
                                 cudaConditionalNodeParams& params) {
    if (!rt.streams().valid_graph_or_child(graph) || !owns_handle(*graph, params.handle))
        return Runtime::finish(cudaErrorInvalidValue);
    // The sizes the documentation allows: 1 for WHILE, 1 or 2 for IF, at least 1 for SWITCH.
    const unsigned size = params.size;
    const bool size_ok = params.type == cudaGraphCondTypeWhile    ? size == 1
                         : params.type == cudaGraphCondTypeIf     ? size == 1 || size == 2
                         : params.type == cudaGraphCondTypeSwitch ? size >= 1
                                                                  : false;
    if (!size_ok) return Runtime::finish(cudaErrorInvalidValue);
    GraphStep step;
    step.kind = GraphStep::Kind::conditional;
    step.condition = params.handle;
    step.condition_type = params.type;
    if (cudaError_t e = add_node(rt, out, graph, deps, count, std::move(step))) return e;
    CUgraphNode_st* node = *out;
    for (unsigned i = 0; i < size; ++i) {
        node->bodies.push_back(std::make_unique<CUgraph_st>());
        node->body_handles.push_back(node->bodies.back().get());
    }
    params.phGraph_out = node->body_handles.data();
    return cudaSuccess;
}

}  // namespace warpsim::runtime

extern "C" {

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle* pHandle_out, cudaGraph_t graph,
                                             unsigned int defaultLaunchValue, unsigned int flags) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!pHandle_out || !rt.streams().valid_graph_or_child(graph) || (flags & ~cudaGraphCondAssignDefault))
        return Runtime::finish(cudaErrorInvalidValue);
    const uint64_t cell = rt.sim().memory().malloc(
        sizeof(uint32_t), fmt::format("conditional handle #{}", graph->conditional_handles.size() + 1));
    if (!cell) return Runtime::finish(cudaErrorMemoryAllocation);
    rt.sim().memory().mark_host_written(cell, sizeof(uint32_t));
    graph->conditional_handles.push_back(
        {cell, defaultLaunchValue, (flags & cudaGraphCondAssignDefault) != 0});
    *pHandle_out = cell;
    return cudaSuccess;
}

}  // extern "C"
