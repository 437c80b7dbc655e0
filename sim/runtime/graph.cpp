// sim/runtime/graph.cpp — what the graph entry points share (graph.hpp): copies of graphs (cudaGraphClone,
// child-graph nodes, instantiation), dependents, node types, and the comparison cudaGraphExecUpdate makes.
#include "sim/runtime/graph.hpp"

#include <algorithm>

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
        std::vector<CUgraphNode_st*> deps;
        for (const CUgraphNode_st* d : node->deps) deps.push_back(local.at(d));
        CUgraphNode_st* made = copy->add(node->step, std::move(deps));
        if (node->child) made->child = clone_graph(*node->child, mapping);
        local[node.get()] = made;
    }
    if (mapping) mapping->insert(local.begin(), local.end());
    return copy;
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
