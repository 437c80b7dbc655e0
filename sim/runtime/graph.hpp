// sim/runtime/graph.hpp — CUDA graphs: the work streams captured (cudaStreamBeginCapture .. EndCapture,
// forked to other streams and joined back through events: api_capture.cpp) or a program added node by node
// (api_graph.cpp), and the executable copies cudaGraphInstantiate makes of them (api_graph_exec.cpp).
// Nodes run one after another in an order that respects every dependency: of the nodes whose dependencies
// have run, the one added first (run_order; cudaGraphAddDependencies may make a node depend on one added
// after it, never close a cycle); a child graph's nodes run in their order where the child node stands; nodes
// a GPU could overlap are not overlapped on the clock.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>

namespace warpsim::runtime {

struct Kernel;

// One step of a graph, with its arguments copied when the node was made (as CUDA copies them).
struct GraphStep {
    enum class Kind {
        kernel,
        copy,
        copy2d,
        copy3d,
        memset,
        host,
        empty,
        child,
        event_record,
        event_wait,
        mem_alloc,
        mem_free,
        conditional
    };
    Kind kind = Kind::empty;
    // kernel
    Kernel* kernel = nullptr;
    dim3 grid, block;
    size_t shared_bytes = 0;
    std::optional<std::array<uint32_t, 3>> cluster;
    bool cooperative = false;
    std::vector<uint8_t> params;        // the parameters packed at their .param offsets
    std::vector<size_t> param_offsets;  // where parameter i starts in `params`
    // copy, copy2d (`bytes` per row, `rows` rows), copy3d (`slices` of those, `dst_slice` and `src_slice`
    // bytes apart) and memset (`rows` rows of `bytes`, filled with `element_size`-byte elements of `value`)
    void* dst = nullptr;
    const void* src = nullptr;
    size_t bytes = 0;
    size_t rows = 1, dst_pitch = 0, src_pitch = 0;
    size_t slices = 1, dst_slice = 0, src_slice = 0;
    cudaMemcpyKind copy_kind = cudaMemcpyDefault;
    unsigned value = 0;
    unsigned element_size = 1;
    // copy3d: the parameters as the program gave them (cudaGraphMemcpyNodeGetParams hands them back)
    cudaMemcpy3DParms copy_params{};
    // host
    cudaHostFn_t fn = nullptr;
    void* data = nullptr;
    // event_record, event_wait
    cudaEvent_t event = nullptr;
    // mem_alloc (`dst` the allocation's address, `bytes` its size, the pool's properties and access
    // descriptors as given: graph_memory.cpp) and mem_free (`dst`)
    cudaMemPoolProps pool_props{};
    std::vector<cudaMemAccessDesc> access_descs;
    // conditional: the handle (the address of its 4-byte cell) and the node's type (graph_conditional.cpp)
    uint64_t condition = 0;
    cudaGraphConditionalNodeType condition_type = cudaGraphCondTypeIf;

    // The steps a capture records and the node API adds alike.
    static GraphStep copy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind) {
        GraphStep s;
        s.kind = Kind::copy;
        s.dst = dst;
        s.src = src;
        s.bytes = bytes;
        s.copy_kind = kind;
        return s;
    }
    static GraphStep copy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                            size_t height, cudaMemcpyKind kind) {
        GraphStep s = copy(dst, src, width, kind);
        s.kind = Kind::copy2d;
        s.rows = height;
        s.dst_pitch = dpitch;
        s.src_pitch = spitch;
        return s;
    }
    static GraphStep memset(void* dst, int value, size_t bytes) {
        GraphStep s;
        s.kind = Kind::memset;
        s.dst = dst;
        s.value = static_cast<unsigned>(value) & 0xffu;
        s.bytes = bytes;
        s.dst_pitch = bytes;
        return s;
    }
    static GraphStep host(cudaHostFn_t fn, void* data) {
        GraphStep s;
        s.kind = Kind::host;
        s.fn = fn;
        s.data = data;
        return s;
    }
    static GraphStep on_event(Kind kind, cudaEvent_t event) {
        GraphStep s;
        s.kind = kind;
        s.event = event;
        return s;
    }
};

// A stream capture: begun on one stream (the origin), joined by every stream that waits on an event one of
// its streams recorded, ended on the origin.
struct CaptureSequence {
    unsigned long long id = 0;
    CUgraph_st* graph = nullptr;
    CUstream_st* origin = nullptr;
    cudaStreamCaptureMode mode = cudaStreamCaptureModeGlobal;
    std::thread::id thread;  // the thread that began it
    bool invalidated = false;
    // Invalidated by a synchronising call of a capturing stream: EndCapture then leaves the program's graph
    // pointer as it was; an invalidation by a capture rule (unmatched end, isolation, an unsafe call) sets it
    // to null. Both as the H200 answers (tests/programs/cuda_graphs.cu, graph_fork_join.cu).
    bool keeps_graph_pointer = false;
    bool graph_given = false;  // cudaStreamBeginCaptureToGraph: the program's graph, never destroyed here
};

}  // namespace warpsim::runtime

// The objects behind cudaGraph_t, cudaGraphNode_t and cudaGraphExec_t (the CUDA headers only name them).
struct CUgraphNode_st;
struct CUgraph_st {
    std::vector<std::unique_ptr<CUgraphNode_st>> nodes;  // in the order they were added
    // Made by cudaGraphClone: each node of the original (at every depth) with its copy here, for
    // cudaGraphNodeFindInClone.
    std::map<const CUgraphNode_st*, CUgraphNode_st*> cloned_from;
    // The conditional handles made for it (cudaGraphConditionalHandleCreate): each one's cell, the value
    // given it at every launch when `assign_default`.
    struct ConditionalHandle {
        uint64_t cell = 0;
        unsigned default_value = 0;
        bool assign_default = false;
    };
    std::vector<ConditionalHandle> conditional_handles;
    CUgraphNode_st* add(warpsim::runtime::GraphStep step, std::vector<CUgraphNode_st*> deps = {});
};
struct CUgraphNode_st {
    CUgraph_st* graph = nullptr;
    warpsim::runtime::GraphStep step;
    std::vector<CUgraphNode_st*> deps;  // nodes of the same graph, never one that depends on this one
    std::unique_ptr<CUgraph_st> child;  // Kind::child: the node's own copy of the graph it was given
    std::vector<void*> param_pointers;  // the kernelParams cudaGraphKernelNodeGetParams hands out
    bool enabled = true;                // of an instantiated graph: false, it runs as an empty node
    // Kind::conditional: its body graphs, and the handles to them phGraph_out points at.
    std::vector<std::unique_ptr<CUgraph_st>> bodies;
    std::vector<CUgraph_st*> body_handles;
};
inline CUgraphNode_st* CUgraph_st::add(warpsim::runtime::GraphStep step, std::vector<CUgraphNode_st*> deps) {
    nodes.push_back(std::make_unique<CUgraphNode_st>());
    CUgraphNode_st* node = nodes.back().get();
    node->graph = this;
    node->step = std::move(step);
    node->deps = std::move(deps);
    return node;
}
struct CUgraphExec_st {
    std::unique_ptr<CUgraph_st> graph;   // the copy it runs
    const CUgraph_st* source = nullptr;  // the graph it was instantiated from (compared, never followed)
    unsigned long long flags = 0;        // cudaGraphInstantiateFlag*
    // The nodes of the graph it was instantiated from (the handles cudaGraphExec*SetParams take), to the
    // copy's.
    std::map<const CUgraphNode_st*, CUgraphNode_st*> node_of;
};

namespace warpsim::runtime {

class Runtime;

// A copy of `g` (child graphs copied too); `mapping`, when given, receives each node of `g` (at every
// depth) with its copy.
std::unique_ptr<CUgraph_st> clone_graph(const CUgraph_st& g,
                                        std::map<const CUgraphNode_st*, CUgraphNode_st*>* mapping = nullptr);
// The nodes of `g` in the order a launch runs them: each after its dependencies, the first added first.
std::vector<const CUgraphNode_st*> run_order(const CUgraph_st& g);
// Whether `node` depends on `other`, directly or through other nodes.
bool depends_on(const CUgraphNode_st* node, const CUgraphNode_st* other);
// The nodes of `g` that depend on `node`, in the order they were added.
std::vector<CUgraphNode_st*> dependents(const CUgraph_st& g, const CUgraphNode_st* node);
// The node type CUDA reports for a step.
cudaGraphNodeType node_type(GraphStep::Kind kind);
// How `g` differs from `current` as cudaGraphExecUpdate judges it: cudaGraphExecUpdateSuccess when the
// nodes, their types and their edges match pairwise in the order they were added (child graphs alike);
// otherwise the reason, with the node of `g` it concerns in *error_node (null for a node count that differs).
cudaGraphExecUpdateResult compare_for_update(const CUgraph_st& current, const CUgraph_st& g,
                                             CUgraphNode_st** error_node);
// Copies the steps (and child graphs' steps) of `g` into `target`, which compare_for_update matched.
void take_steps(CUgraph_st& target, const CUgraph_st& g);

// The step of a kernel node (cudaGraphAddKernelNode, cudaGraph[Exec]KernelNodeSetParams): the function
// resolved, the arguments copied; cudaSuccess, or the error the call returns (api_graph.cpp).
cudaError_t kernel_step(Runtime& rt, const cudaKernelNodeParams* p, GraphStep& step);
// The step of a memset node (cudaGraphAddMemsetNode, cudaGraph[Exec]MemsetNodeSetParams): elements of 1, 2
// or 4 bytes, `height` rows `pitch` bytes apart.
cudaError_t memset_step(const cudaMemsetParams* p, GraphStep& step);
// The parameters cudaGraphMemsetNodeGetParams reports for a memset step.
cudaMemsetParams memset_params(const GraphStep& step);
// The step of a memcpy node of cudaMemcpy3DParms (cudaGraphAddMemcpyNode,
// cudaGraph[Exec]MemcpyNodeSetParams): linear memory or CUDA arrays (api_texture.cpp), checked as
// cudaMemcpy3D checks them.
cudaError_t copy3d_step(Runtime& rt, const cudaMemcpy3DParms* p, GraphStep& step);
// The cudaMemcpy3DParms a memcpy step of any form (1D, 2D, 3D) describes.
cudaMemcpy3DParms copy_params(const GraphStep& step);

// Graph memory (graph_memory.cpp): whether `g` holds allocation or free nodes (at any depth), which the
// documentation's restrictions then apply to (one instantiation at a time, no clone, no child graph, no node
// or edge deleted).
bool has_memory_nodes(const CUgraph_st& g);
// Before a launch of `g`: an allocation of one of its allocation nodes that is still live is freed when
// `auto_free` (cudaGraphInstantiateFlagAutoFreeOnLaunch), else the launch is refused (cudaErrorInvalidValue).
cudaError_t prepare_allocations(Runtime& rt, const CUgraph_st& g, bool auto_free);
// The work of allocation and free nodes when a launch reaches them.
cudaError_t run_memory_step(Runtime& rt, const GraphStep& step);
// cudaMallocAsync and cudaFreeAsync on a capturing stream become allocation and free nodes; nullopt when
// `stream` does not capture.
std::optional<cudaError_t> capture_malloc(Runtime& rt, void** ptr, size_t size, cudaStream_t stream);
std::optional<cudaError_t> capture_free(Runtime& rt, void* ptr, cudaStream_t stream);
// Adds a node as every cudaGraphAdd*Node does (api_graph.cpp).
cudaError_t add_node(Runtime& rt, cudaGraphNode_t* out, cudaGraph_t graph, const cudaGraphNode_t* deps,
                     size_t count, GraphStep step);

// Conditional nodes (graph_conditional.cpp): whether `g` holds one (at any depth); at the start of a launch
// of `g`, the default values of the handles that assign one; the node run: its body as the condition says.
bool has_conditional_nodes(const CUgraph_st& g);
void assign_condition_defaults(Runtime& rt, const CUgraph_st& g);
using GraphRunner = cudaError_t (*)(Runtime& rt, const CUgraph_st& g, cudaStream_t stream);
cudaError_t run_conditional(Runtime& rt, const CUgraphNode_st& node, cudaStream_t stream, GraphRunner run);
// cudaGraphAddNode of a conditional node.
cudaError_t add_conditional_node(Runtime& rt, cudaGraphNode_t* out, cudaGraph_t graph,
                                 const cudaGraphNode_t* deps, size_t count,
                                 cudaConditionalNodeParams& params);

// The stream of the program's own that captures into a graph, when `s` is one; nullptr otherwise: then the
// caller runs its work now. The caller holds the runtime's lock.
CUstream_st* capture_target(Runtime& rt, cudaStream_t s);
// Adds `step` to the capture of `s` (a capture_target), depending on the stream's last captured work, and
// makes it that work; cudaErrorStreamCaptureInvalidated when the capture was invalidated.
cudaError_t capture_add(CUstream_st& s, GraphStep step);
// A call the runtime refuses while `s` captures (cudaStreamSynchronize, cudaStreamQuery, cudaGraphLaunch):
// the capture is invalidated, and the answer is cudaErrorStreamCaptureUnsupported, as the H200's runtime
// answers. Returns cudaSuccess when `s` is not capturing.
cudaError_t refuse_while_capturing(Runtime& rt, cudaStream_t s);
// Work on the legacy default stream (0 or cudaStreamLegacy; not the per-thread one) while a blocking stream
// (one made without cudaStreamNonBlocking) captures would make the legacy stream depend on it: every such
// capture is invalidated (EndCapture then answers cudaErrorStreamCaptureInvalidated and sets the graph
// pointer to null) and the call fails with cudaErrorStreamCaptureImplicit, doing nothing, in every capture
// mode; a capture of non-blocking streams does not mind (tests/programs/capture_implicit.cu, as the H200
// answers). Returns cudaSuccess when the call may go on.
cudaError_t refuse_implicit_sync(Runtime& rt, cudaStream_t s);
// A call CUDA deems unsafe during a capture (cudaMalloc): refused with cudaErrorStreamCaptureUnsupported,
// and the capture invalidated, when the calling thread's capture mode (cudaThreadExchangeStreamCaptureMode)
// forbids it: global forbids it during this thread's captures begun in global or thread-local mode and
// during other threads' global captures, thread-local only during this thread's, relaxed never.
cudaError_t refuse_unsafe_call(Runtime& rt);
// cudaEventRecord and cudaStreamWaitEvent when a capture is involved (api_capture.cpp); nullopt when none
// is and the caller goes on as outside captures.
std::optional<cudaError_t> capture_event_record(Runtime& rt, cudaEvent_t event, cudaStream_t stream,
                                                unsigned flags);
std::optional<cudaError_t> capture_event_wait(Runtime& rt, cudaStream_t stream, cudaEvent_t event,
                                              unsigned flags);

// Stream-ordered work a graph step replays; the caller holds the lock (api_memory.cpp).
cudaError_t copy_on_stream(Runtime& rt, void* dst, const void* src, size_t n, cudaMemcpyKind kind,
                           cudaStream_t stream);
cudaError_t copy_2d_on_stream(Runtime& rt, void* dst, size_t dpitch, const void* src, size_t spitch,
                              size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t memset_on_stream(Runtime& rt, void* p, int value, size_t n, cudaStream_t stream);
// The rows of every slice of a copy3d step (graph_copies.cpp).
cudaError_t copy_3d_on_stream(Runtime& rt, const GraphStep& step, cudaStream_t stream);
// `height` rows, `pitch` bytes apart, of `width` elements of `element_size` (1, 2 or 4) bytes set to `value`.
cudaError_t memset_rows_on_stream(Runtime& rt, void* p, size_t pitch, unsigned value, unsigned element_size,
                                  size_t width, size_t height, cudaStream_t stream);

}  // namespace warpsim::runtime
