// CUDA graphs across streams: a capture that forks from one stream into two (cudaEventRecord +
// cudaStreamWaitEvent) and joins back, queried with cudaStreamGetCaptureInfo, replayed with a kernel
// parameter changed in the instantiated graph (cudaGraphExecKernelNodeSetParams) and after a change of the
// graph itself (cudaGraphKernelNodeSetParams + cudaGraphExecUpdate); a 2D copy in the capture; a child graph,
// cloned into its node; cudaGraphClone; event record and wait nodes. `graph_fork_join errors` prints what the
// runtime answers to an unjoined fork, an event from outside the capture, updates whose topology or node
// types differ, and cudaMalloc inside captures of each mode. Self-checking.
#include <algorithm>
#include <vector>
#include "common.h"

__global__ void scale(float* out, const float* in, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = s * in[i];
}

__global__ void combine(float* out, const float* a, const float* b, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a[i] + b[i];
}

__global__ void add_const(float* v, float c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += c;
}

static const int n = 1 << 14, threads = 256, blocks = n / threads;
static const int width = 128, height = n / width, sub_width = 64;  // dout as 128 rows of 128 floats

static const char* status_name(cudaStream_t s) {
    cudaStreamCaptureStatus st;
    cudaError_t e = cudaStreamIsCapturing(s, &st);
    if (e != cudaSuccess) return cudaGetErrorName(e);
    return st == cudaStreamCaptureStatusNone     ? "none"
           : st == cudaStreamCaptureStatusActive ? "active"
                                                 : "invalidated";
}

static const char* yes(bool b) { return b ? "yes" : "no"; }

// The node the stream's next work would depend on (its one capture dependency), or null.
static cudaGraphNode_t last_node(cudaStream_t s) {
    cudaStreamCaptureStatus st;
    const cudaGraphNode_t* deps = nullptr;
    size_t count = 0;
    CHECK(cudaStreamGetCaptureInfo(s, &st, nullptr, nullptr, &deps, nullptr, &count));
    return count == 1 ? deps[0] : nullptr;
}

static size_t node_count(cudaGraph_t g) {
    size_t count = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &count));
    return count;
}

static void count_types(cudaGraph_t g, const char* what) {
    size_t count = node_count(g);
    std::vector<cudaGraphNode_t> nodes(count);
    CHECK(cudaGraphGetNodes(g, nodes.data(), &count));
    int by_type[16] = {};
    for (cudaGraphNode_t node : nodes) {
        cudaGraphNodeType t;
        CHECK(cudaGraphNodeGetType(node, &t));
        if (int(t) < 16) ++by_type[t];
    }
    size_t roots = 0, edges = 0;
    CHECK(cudaGraphGetRootNodes(g, nullptr, &roots));
    CHECK(cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges));
    printf("%s: %zu nodes (kernel %d, memcpy %d, memset %d, graph %d, empty %d, wait %d, record %d), "
           "%zu roots, %zu edges\n",
           what, count, by_type[cudaGraphNodeTypeKernel], by_type[cudaGraphNodeTypeMemcpy],
           by_type[cudaGraphNodeTypeMemset], by_type[cudaGraphNodeTypeGraph], by_type[cudaGraphNodeTypeEmpty],
           by_type[cudaGraphNodeTypeWaitEvent], by_type[cudaGraphNodeTypeEventRecord], roots, edges);
}

static cudaKernelNodeParams scale_params(void** args) {
    cudaKernelNodeParams kp = {};
    kp.func = reinterpret_cast<void*>(scale);
    kp.gridDim = dim3(blocks);
    kp.blockDim = dim3(threads);
    kp.kernelParams = args;
    return kp;
}

static int pipeline() {
    float *x, *out, *sub;  // pinned, as copies in graphs usually are
    CHECK(cudaMallocHost(&x, n * sizeof(float)));
    CHECK(cudaMallocHost(&out, n * sizeof(float)));
    CHECK(cudaMallocHost(&sub, sub_width * height * sizeof(float)));
    for (int i = 0; i < n; ++i) x[i] = float(i % 7);
    float *dx, *dy1, *dy2, *dout;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy1, n * sizeof(float)));
    CHECK(cudaMalloc(&dy2, n * sizeof(float)));
    CHECK(cudaMalloc(&dout, n * sizeof(float)));
    cudaStream_t s0, s1, s2;
    CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t fork, join1, join2;
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&join1, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&join2, cudaEventDisableTiming));
    bool ok = true;

    // 1. Capture: upload on s0, fork to s1 (y1 = f1 x) and s2 (y2 = 10 x), join on s0: out = y1 + y2,
    // download all of it and, by a 2D copy, the left half of each row.
    printf("s1 before the capture: %s\n", status_name(s1));
    CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemcpyAsync(dx, x, n * sizeof(float), cudaMemcpyHostToDevice, s0));
    cudaGraphNode_t upload = last_node(s0);
    CHECK(cudaEventRecord(fork, s0));
    CHECK(cudaStreamWaitEvent(s1, fork, 0));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    printf("s1 after waiting on the fork: %s\n", status_name(s1));
    cudaStreamCaptureStatus st0, st1;
    unsigned long long id0 = 0, id1 = 0;
    cudaGraph_t g0 = nullptr, g1 = nullptr;
    const cudaGraphNode_t* deps1 = nullptr;
    size_t nd0 = 0, nd1 = 0;
    CHECK(cudaStreamGetCaptureInfo(s0, &st0, &id0, &g0, nullptr, nullptr, &nd0));
    CHECK(cudaStreamGetCaptureInfo(s1, &st1, &id1, &g1, &deps1, nullptr, &nd1));
    printf("s1 in s0's capture: same id %s, same graph %s, dependencies %zu and %zu, on the upload %s\n",
           yes(id0 == id1), yes(g0 == g1), nd0, nd1, yes(nd1 == 1 && deps1[0] == upload));
    float f1 = 1.0f, f2 = 10.0f;
    int count = n;
    scale<<<blocks, threads, 0, s1>>>(dy1, dx, f1, n);
    CHECK(cudaGetLastError());
    cudaGraphNode_t scale1 = last_node(s1);
    scale<<<blocks, threads, 0, s2>>>(dy2, dx, f2, n);
    CHECK(cudaEventRecord(join1, s1));
    CHECK(cudaEventRecord(join2, s2));
    CHECK(cudaStreamWaitEvent(s0, join1, 0));
    CHECK(cudaStreamWaitEvent(s0, join2, 0));
    CHECK(cudaStreamGetCaptureInfo(s0, &st0, nullptr, nullptr, nullptr, nullptr, &nd0));
    printf("s0 after the join: %zu dependencies\n", nd0);
    combine<<<blocks, threads, 0, s0>>>(dout, dy1, dy2, n);
    cudaGraphNode_t joined = last_node(s0);
    CHECK(cudaMemcpy2DAsync(sub, sub_width * sizeof(float), dout, width * sizeof(float),
                            sub_width * sizeof(float), height, cudaMemcpyDeviceToHost, s0));
    CHECK(cudaMemcpyAsync(out, dout, n * sizeof(float), cudaMemcpyDeviceToHost, s0));
    cudaGraph_t graph;
    CHECK(cudaStreamEndCapture(s0, &graph));
    printf("after the capture: s0 %s, s1 %s, s2 %s\n", status_name(s0), status_name(s1), status_name(s2));
    count_types(graph, "captured");
    size_t ndeps = 0, ndependents = 0;
    CHECK(cudaGraphNodeGetDependencies(joined, nullptr, nullptr, &ndeps));
    cudaGraphNode_t after_scale1[4] = {};
    ndependents = 4;
    CHECK(cudaGraphNodeGetDependentNodes(scale1, after_scale1, nullptr, &ndependents));
    printf("combine depends on %zu nodes; scale(f1) is followed by %zu node(s), the combine %s\n", ndeps,
           ndependents, yes(ndependents == 1 && after_scale1[0] == joined));

    // 2. Replays with f1 set in the instantiated graph: out = (f1 + 10) x.
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    void* args[] = {&dy1, &dx, &f1, &count};
    for (int r = 0; r < 3; ++r) {
        f1 = float(r + 1);
        cudaKernelNodeParams kp = scale_params(args);
        CHECK(cudaGraphExecKernelNodeSetParams(exec, scale1, &kp));
        std::fill(out, out + n, -1.0f);
        CHECK(cudaGraphLaunch(exec, s0));
        CHECK(cudaStreamSynchronize(s0));
        bool good = true;
        for (int i = 0; i < n; ++i) good = good && out[i] == (f1 + 10.0f) * x[i];
        for (int row = 0; row < height; ++row)
            for (int c = 0; c < sub_width; ++c)
                good = good && sub[row * sub_width + c] == out[row * width + c];
        ok = ok && good;
        printf("replay %d: f1 %.0f, out[5] %.1f, 2D copy [%d][%d] %.1f, %s\n", r, f1, out[5], height - 1,
               sub_width - 1, sub[(height - 1) * sub_width + sub_width - 1], good ? "right" : "WRONG");
    }
    cudaKernelNodeParams got = {};
    CHECK(cudaGraphKernelNodeGetParams(scale1, &got));
    printf("the graph's node still has f1 %.0f, grid %u, block %u, same function %s\n",
           *static_cast<float*>(got.kernelParams[2]), got.gridDim.x, got.blockDim.x,
           yes(got.func == reinterpret_cast<void*>(scale)));

    // 3. The graph changed (f1 = 5): the instantiated graph keeps f1 = 3 until cudaGraphExecUpdate.
    f1 = 5.0f;
    cudaKernelNodeParams kp5 = scale_params(args);
    CHECK(cudaGraphKernelNodeSetParams(scale1, &kp5));
    f1 = 0.0f;  // the node copied the 5
    CHECK(cudaGraphLaunch(exec, s0));
    CHECK(cudaStreamSynchronize(s0));
    printf("graph changed, exec not updated: out[5] %.1f\n", out[5]);
    ok = ok && out[5] == 13.0f * x[5];
    cudaGraphExecUpdateResultInfo info = {};
    cudaError_t e = cudaGraphExecUpdate(exec, graph, &info);
    printf("cudaGraphExecUpdate: %s, result %d\n", cudaGetErrorName(e), int(info.result));
    CHECK(cudaGraphLaunch(exec, s0));
    CHECK(cudaStreamSynchronize(s0));
    printf("after the update: out[5] %.1f\n", out[5]);
    ok = ok && out[5] == 15.0f * x[5];

    // 4. A child graph (v += 1, then v = 2v) added twice to a parent between an upload and a download:
    // v = 2(2(x + 1) + 1) + ... = 4x + 6. The child is cloned into each node: changing it afterwards changes
    // nothing in the parent.
    cudaGraph_t child, parent;
    CHECK(cudaGraphCreate(&child, 0));
    float one = 1.0f, two = 2.0f;
    void* add_args[] = {&dout, &one, &count};
    cudaKernelNodeParams add_kp = {};
    add_kp.func = reinterpret_cast<void*>(add_const);
    add_kp.gridDim = dim3(blocks);
    add_kp.blockDim = dim3(threads);
    add_kp.kernelParams = add_args;
    cudaGraphNode_t child_add, child_scale, up, c1, c2, down;
    CHECK(cudaGraphAddKernelNode(&child_add, child, nullptr, 0, &add_kp));
    void* double_args[] = {&dout, &dout, &two, &count};
    cudaKernelNodeParams double_kp = scale_params(double_args);
    CHECK(cudaGraphAddKernelNode(&child_scale, child, &child_add, 1, &double_kp));
    CHECK(cudaGraphCreate(&parent, 0));
    CHECK(cudaGraphAddMemcpyNode1D(&up, parent, nullptr, 0, dout, x, n * sizeof(float),
                                   cudaMemcpyHostToDevice));
    CHECK(cudaGraphAddChildGraphNode(&c1, parent, &up, 1, child));
    CHECK(cudaGraphAddChildGraphNode(&c2, parent, &c1, 1, child));
    CHECK(cudaGraphAddMemcpyNode1D(&down, parent, &c2, 1, out, dout, n * sizeof(float),
                                   cudaMemcpyDeviceToHost));
    one = 100.0f;
    cudaKernelNodeParams add100 = add_kp;
    CHECK(cudaGraphKernelNodeSetParams(child_add, &add100));  // the child changes, the parent's copies not
    cudaGraph_t embedded = nullptr;
    CHECK(cudaGraphChildGraphNodeGetGraph(c1, &embedded));
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(c1, &t));
    size_t embedded_roots = 1;
    cudaGraphNode_t embedded_root;
    CHECK(cudaGraphGetRootNodes(embedded, &embedded_root, &embedded_roots));
    cudaKernelNodeParams embedded_kp = {};
    CHECK(cudaGraphKernelNodeGetParams(embedded_root, &embedded_kp));
    printf("child node: type %d, its graph is a copy %s, %zu nodes, its first adds %.0f\n", int(t),
           yes(embedded != child), node_count(embedded), *static_cast<float*>(embedded_kp.kernelParams[1]));
    count_types(parent, "parent");
    cudaGraphExec_t parent_exec;
    CHECK(cudaGraphInstantiate(&parent_exec, parent, 0));
    std::fill(out, out + n, -1.0f);
    CHECK(cudaGraphLaunch(parent_exec, s1));
    CHECK(cudaStreamSynchronize(s1));
    bool good = true;
    for (int i = 0; i < n; ++i) good = good && out[i] == 4.0f * x[i] + 6.0f;
    ok = ok && good;
    printf("parent: out[5] %.1f, %s\n", out[5], good ? "right" : "WRONG");
    cudaGraph_t copy;
    CHECK(cudaGraphClone(&copy, parent));
    count_types(copy, "clone");
    cudaGraphExec_t copy_exec;
    CHECK(cudaGraphInstantiate(&copy_exec, copy, 0));
    std::fill(out, out + n, -1.0f);
    CHECK(cudaGraphLaunch(copy_exec, s2));
    CHECK(cudaStreamSynchronize(s2));
    good = true;
    for (int i = 0; i < n; ++i) good = good && out[i] == 4.0f * x[i] + 6.0f;
    ok = ok && good;
    printf("clone: out[5] %.1f, %s\n", out[5], good ? "right" : "WRONG");

    // 5. A graph launched inside a capture becomes a child-graph node of the captured graph.
    CHECK(cudaStreamBeginCapture(s2, cudaStreamCaptureModeGlobal));
    e = cudaGraphLaunch(parent_exec, s2);
    cudaGraph_t outer = nullptr;
    cudaError_t end = cudaStreamEndCapture(s2, &outer);
    printf("graph launch in a capture: %s, end %s\n", cudaGetErrorName(e), cudaGetErrorName(end));
    if (end == cudaSuccess && outer) {
        count_types(outer, "outer");
        cudaGraphExec_t outer_exec;
        CHECK(cudaGraphInstantiate(&outer_exec, outer, 0));
        std::fill(out, out + n, -1.0f);
        CHECK(cudaGraphLaunch(outer_exec, s2));
        CHECK(cudaStreamSynchronize(s2));
        good = out[5] == 4.0f * x[5] + 6.0f && out[n - 1] == 4.0f * x[n - 1] + 6.0f;
        ok = ok && good;
        printf("outer: out[5] %.1f, %s\n", out[5], good ? "right" : "WRONG");
        CHECK(cudaGraphExecDestroy(outer_exec));
        CHECK(cudaGraphDestroy(outer));
    }

    // 6. Event nodes: a graph on s2 waits for an event s1 records after its kernel (v += 1 on x), doubles v
    // and records another event that s0 waits on before its download: out = 2(x + 1).
    cudaEvent_t gate, done;
    CHECK(cudaEventCreate(&gate));
    CHECK(cudaEventCreate(&done));
    cudaGraph_t ev_graph;
    CHECK(cudaGraphCreate(&ev_graph, 0));
    cudaGraphNode_t wait_node, doubled, record_node;
    CHECK(cudaGraphAddEventWaitNode(&wait_node, ev_graph, nullptr, 0, gate));
    two = 2.0f;
    CHECK(cudaGraphAddKernelNode(&doubled, ev_graph, &wait_node, 1, &double_kp));
    CHECK(cudaGraphAddEventRecordNode(&record_node, ev_graph, &doubled, 1, done));
    cudaEvent_t got_wait = nullptr, got_record = nullptr;
    CHECK(cudaGraphEventWaitNodeGetEvent(wait_node, &got_wait));
    CHECK(cudaGraphEventRecordNodeGetEvent(record_node, &got_record));
    printf("event nodes: wait on the gate %s, record the done event %s\n", yes(got_wait == gate),
           yes(got_record == done));
    count_types(ev_graph, "events");
    cudaGraphExec_t ev_exec;
    CHECK(cudaGraphInstantiate(&ev_exec, ev_graph, 0));
    CHECK(cudaMemcpyAsync(dout, x, n * sizeof(float), cudaMemcpyHostToDevice, s1));
    one = 1.0f;
    add_const<<<blocks, threads, 0, s1>>>(dout, one, n);
    CHECK(cudaEventRecord(gate, s1));
    CHECK(cudaGraphLaunch(ev_exec, s2));
    CHECK(cudaStreamWaitEvent(s0, done, 0));
    std::fill(out, out + n, -1.0f);
    CHECK(cudaMemcpyAsync(out, dout, n * sizeof(float), cudaMemcpyDeviceToHost, s0));
    CHECK(cudaStreamSynchronize(s0));
    CHECK(cudaEventSynchronize(done));
    printf("done event: %s\n", cudaGetErrorName(cudaEventQuery(done)));
    good = true;
    for (int i = 0; i < n; ++i) good = good && out[i] == 2.0f * (x[i] + 1.0f);
    ok = ok && good;
    printf("event graph: out[5] %.1f, %s\n", out[5], good ? "right" : "WRONG");

    CHECK(cudaGraphExecDestroy(ev_exec));
    CHECK(cudaGraphExecDestroy(copy_exec));
    CHECK(cudaGraphExecDestroy(parent_exec));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(ev_graph));
    CHECK(cudaGraphDestroy(copy));
    CHECK(cudaGraphDestroy(parent));
    CHECK(cudaGraphDestroy(child));
    CHECK(cudaGraphDestroy(graph));
    for (cudaEvent_t ev : {fork, join1, join2, gate, done}) CHECK(cudaEventDestroy(ev));
    for (cudaStream_t s : {s0, s1, s2}) CHECK(cudaStreamDestroy(s));
    for (float* p : {dx, dy1, dy2, dout}) CHECK(cudaFree(p));
    for (float* p : {x, out, sub}) CHECK(cudaFreeHost(p));
    return finish(ok);
}

static const char* graph_state(cudaGraph_t g) {
    return g == reinterpret_cast<cudaGraph_t>(1) ? "unchanged" : g ? "set" : "null";
}

// A chain of `kernels` scale nodes (v = 2v each), optionally after a memset node instead of the first kernel.
static cudaGraph_t chain(float** v, int* count, float* s, int kernels, bool memset_first,
                         cudaGraphNode_t* first = nullptr) {
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    void* args[] = {v, v, s, count};
    cudaKernelNodeParams kp = scale_params(args);
    cudaGraphNode_t prev = nullptr, node;
    for (int k = 0; k < kernels; ++k) {
        if (k == 0 && memset_first) {
            cudaMemsetParams mp = {};
            mp.dst = *v;
            mp.elementSize = 1;
            mp.width = n * sizeof(float);
            mp.height = 1;
            CHECK(cudaGraphAddMemsetNode(&node, g, nullptr, 0, &mp));
        } else {
            CHECK(cudaGraphAddKernelNode(&node, g, prev ? &prev : nullptr, prev ? 1 : 0, &kp));
        }
        if (k == 0 && first) *first = node;
        prev = node;
    }
    return g;
}

static cudaStream_t new_stream() {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    return s;
}

static int errors() {
    float* dv;
    CHECK(cudaMalloc(&dv, n * sizeof(float)));
    CHECK(cudaMemset(dv, 0, n * sizeof(float)));
    cudaEvent_t e, outside;
    CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&outside, cudaEventDisableTiming));
    std::vector<cudaStream_t> made;

    // An unjoined fork: s1 does work after waiting on s0's event and never rejoins s0.
    cudaStream_t s0 = new_stream(), s1 = new_stream();
    made.push_back(s0), made.push_back(s1);
    CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    add_const<<<blocks, threads, 0, s0>>>(dv, 1.0f, n);
    CHECK(cudaEventRecord(e, s0));
    CHECK(cudaStreamWaitEvent(s1, e, 0));
    add_const<<<blocks, threads, 0, s1>>>(dv, 1.0f, n);
    cudaGraph_t g = reinterpret_cast<cudaGraph_t>(1);
    cudaError_t r = cudaStreamEndCapture(s0, &g);
    printf("unjoined: end capture %s, graph %s\n", cudaGetErrorName(r), graph_state(g));
    printf("unjoined: last error %s, s0 %s, s1 %s\n", cudaGetErrorName(cudaGetLastError()), status_name(s0),
           status_name(s1));
    add_const<<<blocks, threads, 0, s1>>>(dv, 1.0f, n);
    printf("unjoined: s1 afterwards: launch %s, synchronize %s\n", cudaGetErrorName(cudaGetLastError()),
           cudaGetErrorName(cudaStreamSynchronize(s1)));
    cudaGetLastError();

    // A fork that did no work after waiting counts as joined.
    s0 = new_stream(), s1 = new_stream();
    made.push_back(s0), made.push_back(s1);
    CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    add_const<<<blocks, threads, 0, s0>>>(dv, 1.0f, n);
    CHECK(cudaEventRecord(e, s0));
    CHECK(cudaStreamWaitEvent(s1, e, 0));
    g = reinterpret_cast<cudaGraph_t>(1);
    r = cudaStreamEndCapture(s0, &g);
    printf("idle fork: end capture %s, graph %s, s1 %s\n", cudaGetErrorName(r), graph_state(g),
           status_name(s1));
    if (r == cudaSuccess) cudaGraphDestroy(g);
    cudaGetLastError();

    // Ending the capture on the joined stream instead of the one that began it.
    s0 = new_stream(), s1 = new_stream();
    made.push_back(s0), made.push_back(s1);
    CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    CHECK(cudaEventRecord(e, s0));
    CHECK(cudaStreamWaitEvent(s1, e, 0));
    add_const<<<blocks, threads, 0, s1>>>(dv, 1.0f, n);
    g = reinterpret_cast<cudaGraph_t>(1);
    r = cudaStreamEndCapture(s1, &g);
    printf("end on the joined stream: %s, graph %s, s0 %s, s1 %s\n", cudaGetErrorName(r), graph_state(g),
           status_name(s0), status_name(s1));
    cudaGetLastError();
    cudaError_t r1 = cudaEventRecord(e, s1);
    cudaError_t r2 = cudaStreamWaitEvent(s0, e, 0);
    g = reinterpret_cast<cudaGraph_t>(1);
    r = cudaStreamEndCapture(s0, &g);
    printf("then join and end on the origin: record %s, wait %s, end %s, graph %s, s0 %s, s1 %s\n",
           cudaGetErrorName(r1), cudaGetErrorName(r2), cudaGetErrorName(r), graph_state(g), status_name(s0),
           status_name(s1));
    if (r == cudaSuccess) cudaGraphDestroy(g);
    cudaGetLastError();

    // Waiting inside a capture on an event recorded outside it.
    s0 = new_stream(), s1 = new_stream();
    made.push_back(s0), made.push_back(s1);
    add_const<<<blocks, threads, 0, s1>>>(dv, 1.0f, n);
    CHECK(cudaEventRecord(outside, s1));
    CHECK(cudaStreamSynchronize(s1));
    CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    r = cudaStreamWaitEvent(s0, outside, 0);
    printf("wait on an outside event: %s, s0 %s\n", cudaGetErrorName(r), status_name(s0));
    g = reinterpret_cast<cudaGraph_t>(1);
    r = cudaStreamEndCapture(s0, &g);
    printf("wait on an outside event: end %s, graph %s\n", cudaGetErrorName(r), graph_state(g));
    if (r == cudaSuccess) cudaGraphDestroy(g);
    cudaGetLastError();

    // cudaMalloc while a capture runs, in each capture mode.
    const cudaStreamCaptureMode modes[] = {cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal,
                                           cudaStreamCaptureModeRelaxed};
    const char* mode_names[] = {"global", "thread-local", "relaxed"};
    for (int m = 0; m < 3; ++m) {
        s0 = new_stream();
        made.push_back(s0);
        CHECK(cudaStreamBeginCapture(s0, modes[m]));
        void* p = nullptr;
        r = cudaMalloc(&p, 256);
        printf("%s capture: cudaMalloc %s, s0 %s", mode_names[m], cudaGetErrorName(r), status_name(s0));
        if (r == cudaSuccess) cudaFree(p);
        g = reinterpret_cast<cudaGraph_t>(1);
        r = cudaStreamEndCapture(s0, &g);
        printf(", end %s\n", cudaGetErrorName(r));
        if (r == cudaSuccess) cudaGraphDestroy(g);
        cudaGetLastError();
    }
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
    printf("the thread's capture mode was %d\n", int(mode));
    s0 = new_stream();
    made.push_back(s0);
    CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
    void* p = nullptr;
    r = cudaMalloc(&p, 256);
    printf("relaxed thread, global capture: cudaMalloc %s, s0 %s\n", cudaGetErrorName(r), status_name(s0));
    if (r == cudaSuccess) cudaFree(p);
    g = reinterpret_cast<cudaGraph_t>(1);
    r = cudaStreamEndCapture(s0, &g);
    if (r == cudaSuccess) cudaGraphDestroy(g);
    CHECK(cudaThreadExchangeStreamCaptureMode(&mode));
    printf("the thread's capture mode was %d\n", int(mode));
    cudaGetLastError();
    s0 = new_stream();
    made.push_back(s0);

    // Updates: an instantiated chain of two kernels against graphs that differ.
    int count = n;
    float s = 2.0f;
    cudaGraphNode_t a_first;
    cudaGraph_t a = chain(&dv, &count, &s, 2, false, &a_first);
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, a, 0));
    struct Case {
        const char* name;
        cudaGraph_t graph;
        cudaGraphNode_t first;
    } cases[4];
    cases[0].name = "three kernels";
    cases[0].graph = chain(&dv, &count, &s, 3, false, &cases[0].first);
    cases[1].name = "memset then kernel";
    cases[1].graph = chain(&dv, &count, &s, 2, true, &cases[1].first);
    cases[2].name = "two roots";
    CHECK(cudaGraphCreate(&cases[2].graph, 0));
    {
        void* args[] = {&dv, &dv, &s, &count};
        cudaKernelNodeParams kp = scale_params(args);
        cudaGraphNode_t x1, x2;
        CHECK(cudaGraphAddKernelNode(&x1, cases[2].graph, nullptr, 0, &kp));
        CHECK(cudaGraphAddKernelNode(&x2, cases[2].graph, nullptr, 0, &kp));
        cases[2].first = x1;
    }
    cases[3].name = "other function";
    cases[3].graph = chain(&dv, &count, &s, 2, false, &cases[3].first);
    {
        float c = 3.0f;
        void* args[] = {&dv, &c, &count};
        cudaKernelNodeParams kp = {};
        kp.func = reinterpret_cast<void*>(add_const);
        kp.gridDim = dim3(blocks);
        kp.blockDim = dim3(threads);
        kp.kernelParams = args;
        CHECK(cudaGraphKernelNodeSetParams(cases[3].first, &kp));
    }
    for (const Case& c : cases) {
        cudaGraphExecUpdateResultInfo info;
        info.result = cudaGraphExecUpdateError;
        info.errorNode = reinterpret_cast<cudaGraphNode_t>(1);
        info.errorFromNode = reinterpret_cast<cudaGraphNode_t>(1);
        r = cudaGraphExecUpdate(exec, c.graph, &info);
        const char* err_node = info.errorNode == reinterpret_cast<cudaGraphNode_t>(1) ? "unchanged"
                               : info.errorNode == c.first                           ? "its first node"
                               : info.errorNode                                      ? "another node"
                                                                                     : "null";
        const char* from_node = info.errorFromNode == reinterpret_cast<cudaGraphNode_t>(1) ? "unchanged"
                                : info.errorFromNode                                      ? "set"
                                                                                          : "null";
        printf("update with %s: %s, result %d, error node %s, from node %s, last error %s\n", c.name,
               cudaGetErrorName(r), int(info.result), err_node, from_node,
               cudaGetErrorName(cudaGetLastError()));
    }
    // The exec launched after the updates: v = 0 -> the last update that succeeded decides.
    CHECK(cudaMemset(dv, 0, n * sizeof(float)));
    CHECK(cudaGraphLaunch(exec, s0));
    CHECK(cudaStreamSynchronize(s0));
    float v5 = -1.0f;
    CHECK(cudaMemcpy(&v5, dv + 5, sizeof(float), cudaMemcpyDeviceToHost));
    printf("exec after the updates: v[5] %.1f\n", v5);
    void* args[] = {&dv, &dv, &s, &count};
    cudaKernelNodeParams kp = scale_params(args);
    printf("exec set params of a node of another graph: %s\n",
           cudaGetErrorName(cudaGraphExecKernelNodeSetParams(exec, cases[0].first, &kp)));
    cudaGetLastError();
    printf("kernel params of a memset node: %s\n",
           cudaGetErrorName(cudaGraphKernelNodeGetParams(cases[1].first, &kp)));
    cudaGetLastError();
    printf("child graph of a kernel node: %s\n",
           cudaGetErrorName(cudaGraphChildGraphNodeGetGraph(a_first, &g)));
    cudaGetLastError();

    CHECK(cudaGraphExecDestroy(exec));
    for (const Case& c : cases) CHECK(cudaGraphDestroy(c.graph));
    CHECK(cudaGraphDestroy(a));
    CHECK(cudaEventDestroy(e));
    CHECK(cudaEventDestroy(outside));
    for (cudaStream_t st : made) cudaStreamDestroy(st);
    CHECK(cudaFree(dv));
    return finish(true);
}

int main(int argc, char** argv) {
    if (argc > 1) return errors();
    return pipeline();
}
