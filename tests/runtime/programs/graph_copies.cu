// Memset and memcpy graph nodes beyond bytes and single rows, each printing one line whose expected value is
// worked out by hand from the CUDA runtime API's documentation (tests/runtime/exec_programs.sh holds it):
// memsets of 2- and 4-byte elements over pitched rows, memcpy nodes of cudaMemcpy3DParms between host memory,
// device memory and a CUDA array, their parameters read and changed in the graph and in an instantiated
// graph, and cudaMemset2DAsync and cudaMemcpy3DAsync in a capture.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#include "check_call.h"

static const char* yes(bool b) { return b ? "yes" : "no"; }

static cudaError_t run_once(cudaGraph_t g, cudaStream_t s) {
    cudaGraphExec_t exec;
    cudaError_t e = cudaGraphInstantiate(&exec, g, 0);
    if (e == cudaSuccess) e = cudaGraphLaunch(exec, s);
    if (e == cudaSuccess) e = cudaStreamSynchronize(s);
    cudaGraphExecDestroy(exec);
    return e;
}

static cudaMemsetParams memset_params(void* dst, unsigned value, unsigned size, size_t width, size_t height,
                                      size_t pitch) {
    cudaMemsetParams p = {};
    p.dst = dst;
    p.value = value;
    p.elementSize = size;
    p.width = width;
    p.height = height;
    p.pitch = pitch;
    return p;
}

int main() {
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    unsigned char* d;  // 128 bytes of device memory
    CHECK(cudaMalloc(&d, 128));
    unsigned char h[128];

    // 1. 2-byte elements: 5 of 0x1234 (the low half of the value) in each of 3 rows 16 bytes apart.
    CHECK(cudaMemset(d, 0xff, 128));
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t m2, m4;
    cudaMemsetParams p2 = memset_params(d, 0xabcd1234u, 2, 5, 3, 16);
    CHECK(cudaGraphAddMemsetNode(&m2, g, nullptr, 0, &p2));
    CHECK(run_once(g, s));
    CHECK(cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost));
    unsigned short halves[24];
    memcpy(halves, h, 48);
    int set = 0;
    for (int i = 0; i < 24; ++i) set += halves[i] == 0x1234;
    printf("2-byte memset: row 1 %04x %04x %04x %04x %04x %04x, %d elements set\n", halves[8], halves[9],
           halves[10], halves[11], halves[12], halves[13], set);

    // 2. 4-byte elements: 3 of 0xdeadbeef in each of 2 rows 16 bytes apart, after the 2-byte node.
    CHECK(cudaMemset(d, 0, 128));
    cudaMemsetParams p4 = memset_params(d + 64, 0xdeadbeefu, 4, 3, 2, 16);
    CHECK(cudaGraphAddMemsetNode(&m4, g, &m2, 1, &p4));
    CHECK(run_once(g, s));
    CHECK(cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost));
    unsigned words[8];
    memcpy(words, h + 64, 32);
    printf("4-byte memset: %08x %08x %08x %08x | %08x %08x %08x %08x\n", words[0], words[1], words[2], words[3],
           words[4], words[5], words[6], words[7]);
    cudaMemsetParams q = {};
    CHECK(cudaGraphMemsetNodeGetParams(m4, &q));
    printf("its parameters: value 0x%x, element size %u, width %zu, height %zu, pitch %zu\n", q.value,
           q.elementSize, q.width, q.height, q.pitch);

    // 3. What a memset node refuses: an element of 3 bytes, a destination not aligned to its 4-byte
    // elements, rows that overlap (a pitch below the row's bytes).
    cudaGraphNode_t bad;
    cudaMemsetParams p3 = memset_params(d, 0, 3, 4, 1, 0);
    cudaMemsetParams pa = memset_params(d + 2, 0, 4, 4, 1, 0);
    cudaMemsetParams pp = memset_params(d, 0, 4, 4, 2, 8);
    printf("refused: element size 3 %s, misaligned %s, pitch 8 for 16-byte rows %s\n",
           cudaGetErrorName(cudaGraphAddMemsetNode(&bad, g, nullptr, 0, &p3)),
           cudaGetErrorName(cudaGraphAddMemsetNode(&bad, g, nullptr, 0, &pa)),
           cudaGetErrorName(cudaGraphAddMemsetNode(&bad, g, nullptr, 0, &pp)));
    cudaGetLastError();

    // 4. The instantiated 2D memset: its value and destination may change, its dimensions not.
    cudaGraphExec_t exec;
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    cudaMemsetParams value_only = memset_params(d + 64, 0x01020304u, 4, 3, 2, 16);
    cudaMemsetParams wider = memset_params(d + 64, 0x01020304u, 4, 4, 2, 16);
    const cudaError_t narrow_ok = cudaGraphExecMemsetNodeSetParams(exec, m4, &value_only);
    const cudaError_t wide_refused = cudaGraphExecMemsetNodeSetParams(exec, m4, &wider);
    cudaGetLastError();
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(words, d + 64, 32, cudaMemcpyDeviceToHost));
    printf("exec memset update: value %s, width %s; word 4 0x%08x, word 3 0x%08x\n", cudaGetErrorName(narrow_ok),
           cudaGetErrorName(wide_refused), words[4], words[3]);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    // 5. A 3D copy of linear memory: 4 bytes x 2 rows x 2 slices from (2, 1, 0) of a host block of
    // 8-byte rows, 3 rows a slice (byte = 100 z + 10 y + x), to (1, 0, 0) of device rows of 16 bytes, 4 a
    // slice.
    unsigned char block[2][3][8];
    for (int z = 0; z < 2; ++z)
        for (int y = 0; y < 3; ++y)
            for (int x = 0; x < 8; ++x) block[z][y][x] = static_cast<unsigned char>(100 * z + 10 * y + x);
    CHECK(cudaMemset(d, 0, 128));
    cudaMemcpy3DParms c = {};
    c.srcPtr = make_cudaPitchedPtr(block, 8, 8, 3);
    c.srcPos = make_cudaPos(2, 1, 0);
    c.dstPtr = make_cudaPitchedPtr(d, 16, 16, 4);
    c.dstPos = make_cudaPos(1, 0, 0);
    c.extent = make_cudaExtent(4, 2, 2);
    c.kind = cudaMemcpyHostToDevice;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t c3;
    CHECK(cudaGraphAddMemcpyNode(&c3, g, nullptr, 0, &c));
    CHECK(run_once(g, s));
    CHECK(cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost));
    int nonzero = 0;
    for (int i = 0; i < 128; ++i) nonzero += h[i] != 0;
    printf("3D copy: slice 0 row 0 %d %d %d %d, slice 1 row 1 %d %d %d %d, %d bytes written\n", h[1], h[2], h[3],
           h[4], h[64 + 16 + 1], h[64 + 16 + 2], h[64 + 16 + 3], h[64 + 16 + 4], nonzero);
    cudaGraphNodeType type;
    CHECK(cudaGraphNodeGetType(c3, &type));
    cudaMemcpy3DParms back = {};
    CHECK(cudaGraphMemcpyNodeGetParams(c3, &back));
    printf("its node: type memcpy %s, parameters as given %s\n", yes(type == cudaGraphNodeTypeMemcpy),
           yes(back.srcPtr.ptr == block && back.srcPos.x == 2 && back.dstPtr.pitch == 16 && back.extent.depth == 2 &&
               back.kind == cudaMemcpyHostToDevice));

    // 6. A CUDA array of 4 x 3 floats: 3 elements x 2 rows from byte 4 of host rows of 6 floats (value
    // 10 r + c) to element (1, 1); the extent counts the array's elements.
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &fd, 4, 3));
    float zeros[12] = {};
    CHECK(cudaMemcpy2DToArray(arr, 0, 0, zeros, 16, 16, 3, cudaMemcpyHostToDevice));
    float rows[2][6];
    for (int r = 0; r < 2; ++r)
        for (int col = 0; col < 6; ++col) rows[r][col] = static_cast<float>(10 * r + col);
    cudaMemcpy3DParms ca = {};
    ca.srcPtr = make_cudaPitchedPtr(rows, 24, 6, 2);
    ca.srcPos = make_cudaPos(4, 0, 0);
    ca.dstArray = arr;
    ca.dstPos = make_cudaPos(1, 1, 0);
    ca.extent = make_cudaExtent(3, 2, 1);
    ca.kind = cudaMemcpyHostToDevice;
    CHECK(cudaGraphMemcpyNodeSetParams(c3, &ca));  // the node now copies into the array
    CHECK(run_once(g, s));
    float out[3][4];
    CHECK(cudaMemcpy2DFromArray(out, 16, arr, 0, 0, 16, 3, cudaMemcpyDeviceToHost));
    printf("into the array: %g %g %g %g | %g %g %g %g | %g %g %g %g\n", out[0][0], out[0][1], out[0][2], out[0][3],
           out[1][0], out[1][1], out[1][2], out[1][3], out[2][0], out[2][1], out[2][2], out[2][3]);

    // 7. From the array to device memory (a kind that claims the array is on the host is corrected), and
    // what cudaMemcpy3D's rules refuse: an array and a pointer on one side, a region beyond the array.
    cudaMemcpy3DParms cb = {};
    cb.srcArray = arr;
    cb.srcPos = make_cudaPos(1, 2, 0);
    cb.dstPtr = make_cudaPitchedPtr(d, 128, 128, 1);
    cb.extent = make_cudaExtent(3, 1, 1);
    cb.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemset(d, 0, 128));
    CHECK(cudaGraphMemcpyNodeSetParams(c3, &cb));
    CHECK(run_once(g, s));
    float got[3];
    CHECK(cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost));
    cudaMemcpy3DParms both = cb;
    both.srcPtr = make_cudaPitchedPtr(rows, 24, 6, 2);
    cudaMemcpy3DParms beyond = cb;
    beyond.srcPos = make_cudaPos(2, 2, 0);
    printf("from the array: %g %g %g; refused: array and pointer %s, beyond the array %s\n", got[0], got[1], got[2],
           cudaGetErrorName(cudaGraphMemcpyNodeSetParams(c3, &both)),
           cudaGetErrorName(cudaGraphMemcpyNodeSetParams(c3, &beyond)));
    cudaGetLastError();

    // 8. The instantiated memcpy node: 1-dimensional operands may change (before and after), others not.
    cudaMemcpy3DParms one_row = {};
    float src4[4] = {1.5f, 2.5f, 3.5f, 4.5f};
    one_row.srcPtr = make_cudaPitchedPtr(src4, 16, 16, 1);
    one_row.dstPtr = make_cudaPitchedPtr(d + 16, 16, 16, 1);
    one_row.extent = make_cudaExtent(16, 1, 1);
    one_row.kind = cudaMemcpyHostToDevice;
    CHECK(cudaGraphMemcpyNodeSetParams(c3, &one_row));
    CHECK(cudaGraphInstantiate(&exec, g, 0));
    cudaMemcpy3DParms two_rows = one_row;
    two_rows.extent = make_cudaExtent(8, 2, 1);
    two_rows.srcPtr = make_cudaPitchedPtr(src4, 8, 8, 2);
    cudaMemcpy3DParms moved = one_row;
    moved.dstPtr = make_cudaPitchedPtr(d + 32, 16, 16, 1);
    const cudaError_t two_refused = cudaGraphExecMemcpyNodeSetParams(exec, c3, &two_rows);
    cudaGetLastError();
    const cudaError_t moved_ok = cudaGraphExecMemcpyNodeSetParams(exec, c3, &moved);
    CHECK(cudaMemset(d, 0, 128));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    float f[12];
    CHECK(cudaMemcpy(f, d, 48, cudaMemcpyDeviceToHost));
    printf("exec memcpy update: two rows %s, another destination %s; floats 4 and 8 %g %g\n",
           cudaGetErrorName(two_refused), cudaGetErrorName(moved_ok), f[4], f[8]);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    // 9. Captured: cudaMemset2DAsync is one memset node of its rows, cudaMemcpy3DAsync one memcpy node.
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemset2DAsync(d, 32, 0x5a, 8, 3, s));
    CHECK(cudaMemcpy3DAsync(&c, s));
    CHECK(cudaStreamEndCapture(s, &g));
    size_t n = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &n));
    cudaGraphNode_t nodes[2] = {};
    CHECK(cudaGraphGetNodes(g, nodes, &n));
    cudaMemsetParams ms = {};
    CHECK(cudaGraphMemsetNodeGetParams(nodes[0], &ms));
    CHECK(cudaMemset(d, 0, 128));
    CHECK(run_once(g, s));
    CHECK(cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost));
    nonzero = 0;
    for (int i = 0; i < 128; ++i) nonzero += h[i] != 0;
    printf("captured: %zu nodes, memset width %zu height %zu pitch %zu; byte 64 0x%02x, byte 65 %d, %d bytes "
           "written\n",
           n, ms.width, ms.height, ms.pitch, h[64], h[65], nonzero);
    CHECK(cudaGraphDestroy(g));

    CHECK(cudaFreeArray(arr));
    CHECK(cudaFree(d));
    CHECK(cudaStreamDestroy(s));
    printf("done\n");
    return 0;
}
