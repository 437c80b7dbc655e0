// sim/runtime/graph.cpp — what the graph entry points share (graph.hpp): copies of graphs (cudaGraphClone,
// child-graph nodes, instantiation), dependents, node types, and the comparison cudaGraphExecUpdate makes.
#include "sim/runtime/graph.hpp"

#include <algorithm>
#include <cassert>
#include <functional>
#include <queue>
#include <set>

namespace warpsim::runtime {

namespace {

size_t index_of(const CUgraph_st& g, const CUgraphNode_st* node) {
    for (size_t i = 0; i < g.nodes.size(); ++i)
        if (g.nodes[i].get() == node) return i;
    return g.nodes.size();
}

// The indices of a node's dependencies and of its dependents, sorted: the node's edges as a comparable value.
std::pair<std::vector<size_t>, std::vector<size_t>> edges_of(const CUgraph_st& g,
                                                             const CUgraphNode_st* node) {
    std::vector<size_t> in, out;
    for (const CUgraphNode_st* d : node->deps) in.push_back(index_of(g, d));
    for (const CUgraphNode_st* d : dependents(g, node)) out.push_back(index_of(g, d));
    std::sort(in.begin(), in.end());
    std::sort(out.begin(), out.end());
    return {in, out};
}

}  // namespace

std::unique_ptr<CUgraph_st> clone_graph(const CUgraph_st& g,
                                        std::map<const CUgraphNode_st*, CUgraphNode_st*>* mapping) {
    auto copy = std::make_unique<CUgraph_st>();
    std::map<const CUgraphNode_st*, CUgraphNode_st*> local;
    for (const auto& node : g.nodes) {
        CUgraphNode_st* made = copy->add(node->step);
        made->enabled = node->enabled;
        if (node->child) made->child = clone_graph(*node->child, mapping);
        for (const auto& body : node->bodies) {
            made->bodies.push_back(clone_graph(*body, mapping));
            made->body_handles.push_back(made->bodies.back().get());
        }
        local[node.get()] = made;
    }
    // The edges once every node has its copy: a node may depend on one added after it.
    for (const auto& node : g.nodes)
        for (const CUgraphNode_st* d : node->deps) local.at(node.get())->deps.push_back(local.at(d));
    if (mapping) mapping->insert(local.begin(), local.end());
    copy->conditional_handles = g.conditional_handles;
    return copy;
}

std::vector<const CUgraphNode_st*> run_order(const CUgraph_st& g) {
    std::map<const CUgraphNode_st*, size_t> index;
    for (size_t i = 0; i < g.nodes.size(); ++i) index[g.nodes[i].get()] = i;
    std::vector<size_t> waiting(g.nodes.size());             // dependencies not run yet
    std::vector<std::vector<size_t>> after(g.nodes.size());  // the nodes that depend on each
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        waiting[i] = g.nodes[i]->deps.size();
        for (const CUgraphNode_st* d : g.nodes[i]->deps) after[index.at(d)].push_back(i);
    }
    std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;  // the first added on top
    for (size_t i = 0; i < g.nodes.size(); ++i)
        if (waiting[i] == 0) ready.push(i);
    std::vector<const CUgraphNode_st*> order;
    while (!ready.empty()) {
        const size_t i = ready.top();
        ready.pop();
        order.push_back(g.nodes[i].get());
        for (size_t j : after[i])
            if (--waiting[j] == 0) ready.push(j);
    }
    assert(order.size() == g.nodes.size() && "a graph holds no cycle (cudaGraphAddDependencies refuses one)");
    return order;
}

bool depends_on(const CUgraphNode_st* node, const CUgraphNode_st* other) {
    std::set<const CUgraphNode_st*> seen;
    std::vector<const CUgraphNode_st*> todo(node->deps.begin(), node->deps.end());
    while (!todo.empty()) {
        const CUgraphNode_st* n = todo.back();
        todo.pop_back();
        if (n == other) return true;
        if (!seen.insert(n).second) continue;
        todo.insert(todo.end(), n->deps.begin(), n->deps.end());
    }
    return false;
}

std::vector<CUgraphNode_st*> dependents(const CUgraph_st& g, const CUgraphNode_st* node) {
    std::vector<CUgraphNode_st*> out;
    for (const auto& other : g.nodes)
        if (std::find(other->deps.begin(), other->deps.end(), node) != other->deps.end())
            out.push_back(other.get());
    return out;
}

cudaGraphNodeType node_type(GraphStep::Kind kind) {
    switch (kind) {
        case GraphStep::Kind::kernel:
            return cudaGraphNodeTypeKernel;
        case GraphStep::Kind::copy:
        case GraphStep::Kind::copy2d:
        case GraphStep::Kind::copy3d:
            return cudaGraphNodeTypeMemcpy;
        case GraphStep::Kind::memset:
            return cudaGraphNodeTypeMemset;
        case GraphStep::Kind::host:
            return cudaGraphNodeTypeHost;
        case GraphStep::Kind::empty:
            return cudaGraphNodeTypeEmpty;
        case GraphStep::Kind::child:
            return cudaGraphNodeTypeGraph;
        case GraphStep::Kind::event_record:
            return cudaGraphNodeTypeEventRecord;
        case GraphStep::Kind::event_wait:
            return cudaGraphNodeTypeWaitEvent;
        case GraphStep::Kind::mem_alloc:
            return cudaGraphNodeTypeMemAlloc;
        case GraphStep::Kind::mem_free:
            return cudaGraphNodeTypeMemFree;
        case GraphStep::Kind::conditional:
            return cudaGraphNodeTypeConditional;
    }
    return cudaGraphNodeTypeEmpty;
}

// Measured on the H200 (tests/programs/graph_fork_join.cu, run `errors`): a node count that differs is a
// topology change with no error node; edges that differ name the first node (in the order added) whose
// dependencies or dependents differ; a type that differs names that node.
cudaGraphExecUpdateResult compare_for_update(const CUgraph_st& current, const CUgraph_st& g,
                                             CUgraphNode_st** error_node) {
    *error_node = nullptr;
    if (current.nodes.size() != g.nodes.size()) return cudaGraphExecUpdateErrorTopologyChanged;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
        const CUgraphNode_st& a = *current.nodes[i];
        CUgraphNode_st& b = *g.nodes[i];
        if (edges_of(current, &a) != edges_of(g, &b)) {
            *error_node = &b;
            return cudaGraphExecUpdateErrorTopologyChanged;
        }
        if (node_type(a.step.kind) != node_type(b.step.kind)) {
            *error_node = &b;
            return cudaGraphExecUpdateErrorNodeTypeChanged;
        }
        if (a.child && b.child) {
            CUgraphNode_st* inner = nullptr;
            if (cudaGraphExecUpdateResult r = compare_for_update(*a.child, *b.child, &inner);
                r != cudaGraphExecUpdateSuccess) {
                *error_node = &b;
                return r;
            }
        }
    }
    return cudaGraphExecUpdateSuccess;
}

void take_steps(CUgraph_st& target, const CUgraph_st& g) {
    for (size_t i = 0; i < g.nodes.size() && i < target.nodes.size(); ++i) {
        target.nodes[i]->step = g.nodes[i]->step;
        if (target.nodes[i]->child && g.nodes[i]->child)
            take_steps(*target.nodes[i]->child, *g.nodes[i]->child);
    }
}

}  // namespace warpsim::runtime
