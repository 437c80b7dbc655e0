// One CUDA error case per process (a kernel fault is sticky): `error_cases NAME` runs the case, prints
// what each call returned (value, name, string), then probes whether the error stuck: the last error, a
// fresh cudaMalloc, a good launch and cudaDeviceSynchronize. `error_cases list` prints the case names.
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

static void show(const char* what, cudaError_t e) {
    printf("%s -> %d %s: %s\n", what, (int)e, cudaGetErrorName(e), cudaGetErrorString(e));
}

__global__ void fill(int* p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}
__global__ void dyn_shared(int* out) {
    extern __shared__ int s[];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[blockDim.x - 1 - threadIdx.x];
}
__global__ void __launch_bounds__(256) bounded(int* p) { p[threadIdx.x] = threadIdx.x; }
__global__ void read_misaligned(const char* p, int* out) { out[threadIdx.x] = *(const int*)(p + 1); }
__global__ void device_assert(const int* p) { assert(p[threadIdx.x] == 0); }
__global__ void device_trap() { __trap(); }
__global__ void write_far(int* p) { p[(size_t)1 << 32] = 1; }
__global__ void grid_sync_kernel(int* p) {
    cg::grid_group g = cg::this_grid();
    p[blockIdx.x] = 1;
    g.sync();
}
__global__ void spin(long long cycles) {
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {
    }
}
// Many live values: ptxas needs far more than 64 registers per thread, so 1024 threads cannot fit.
__global__ void many_registers(float* p) {
    float r[96];
#pragma unroll
    for (int k = 0; k < 96; ++k) r[k] = p[threadIdx.x + k * 1024];
#pragma unroll
    for (int it = 0; it < 4; ++it) {
#pragma unroll
        for (int k = 0; k < 96; ++k) r[k] = r[k] * r[(k + 1) % 96] + r[(k + 7) % 96];
    }
    float s = 0;
#pragma unroll
    for (int k = 0; k < 96; ++k) s += r[k] * (float)k;
    p[threadIdx.x] = s;
}
__device__ int dev_symbol[4];

static int* g_dev = nullptr;

static void probe_sticky() {
    show("after: cudaGetLastError", cudaGetLastError());
    show("after: cudaGetLastError again", cudaGetLastError());
    int* q = nullptr;
    show("after: cudaMalloc", cudaMalloc(&q, 256));
    fill<<<1, 32>>>(g_dev, 32, 5);
    show("after: good launch", cudaGetLastError());
    show("after: cudaDeviceSynchronize", cudaDeviceSynchronize());
}

static int run(const char* name) {
    int* d = g_dev;
    if (!strcmp(name, "block_too_big")) {
        fill<<<1, 2048>>>(d, 32, 1);
        show("fill<<<1,2048>>> cudaPeekAtLastError", cudaPeekAtLastError());
        show("cudaGetLastError", cudaGetLastError());
    } else if (!strcmp(name, "block_1025")) {
        fill<<<1, 1025>>>(d, 32, 1);
        show("fill<<<1,1025>>> cudaGetLastError", cudaGetLastError());
    } else if (!strcmp(name, "block_z_too_big")) {
        fill<<<1, dim3(1, 1, 65)>>>(d, 32, 1);
        show("fill<<<1,(1,1,65)>>> cudaGetLastError", cudaGetLastError());
    } else if (!strcmp(name, "block_zero")) {
        fill<<<1, 0>>>(d, 32, 1);
        show("fill<<<1,0>>> cudaGetLastError", cudaGetLastError());
    } else if (!strcmp(name, "grid_zero")) {
        fill<<<0, 32>>>(d, 32, 1);
        show("fill<<<0,32>>> cudaGetLastError", cudaGetLastError());
    } else if (!strcmp(name, "grid_y_too_big")) {
        fill<<<dim3(1, 65536), 32>>>(d, 32, 1);
        show("fill<<<(1,65536),32>>> cudaGetLastError", cudaGetLastError());
    } else if (!strcmp(name, "grid_x_too_big")) {
        fill<<<dim3(0x80000000u), 32>>>(d, 32, 1);
        show("fill<<<2^31,32>>> cudaGetLastError", cudaGetLastError());
    } else if (!strcmp(name, "dyn_shared_48k_plus_1")) {
        dyn_shared<<<1, 32, 49153>>>(d);
        show("dyn_shared<<<1,32,49153>>> cudaGetLastError", cudaGetLastError());
        show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    } else if (!strcmp(name, "dyn_shared_optin")) {
        show("cudaFuncSetAttribute(MaxDynamicSharedMemorySize, 232448)",
             cudaFuncSetAttribute(dyn_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 232448));
        dyn_shared<<<1, 32, 232448>>>(d);
        show("dyn_shared<<<1,32,232448>>> cudaGetLastError", cudaGetLastError());
        show("cudaDeviceSynchronize", cudaDeviceSynchronize());
        dyn_shared<<<1, 32, 232449>>>(d);
        show("dyn_shared<<<1,32,232449>>> cudaGetLastError", cudaGetLastError());
    } else if (!strcmp(name, "dyn_shared_optin_too_big")) {
        show("cudaFuncSetAttribute(MaxDynamicSharedMemorySize, 232449)",
             cudaFuncSetAttribute(dyn_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 232449));
        show("cudaFuncSetAttribute(PreferredSharedMemoryCarveout, 101)",
             cudaFuncSetAttribute(dyn_shared, cudaFuncAttributePreferredSharedMemoryCarveout, 101));
    } else if (!strcmp(name, "launch_bounds_exceeded")) {
        bounded<<<1, 512>>>(d);
        show("bounded(256)<<<1,512>>> cudaGetLastError", cudaGetLastError());
    } else if (!strcmp(name, "too_many_registers")) {
        cudaFuncAttributes a;
        cudaFuncGetAttributes(&a, many_registers);
        printf("many_registers: numRegs %d maxThreadsPerBlock %d\n", a.numRegs, a.maxThreadsPerBlock);
        float* f = nullptr;
        cudaMalloc(&f, 96 * 1024 * sizeof(float));
        many_registers<<<1, 1024>>>(f);
        show("many_registers<<<1,1024>>> cudaGetLastError", cudaGetLastError());
    } else if (!strcmp(name, "bad_pointer")) {
        fill<<<1, 32>>>((int*)0x10, 32, 3);
        show("fill(0x10) cudaGetLastError", cudaGetLastError());
        show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    } else if (!strcmp(name, "write_far")) {
        write_far<<<1, 1>>>(d);
        show("write_far cudaGetLastError", cudaGetLastError());
        show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    } else if (!strcmp(name, "misaligned")) {
        read_misaligned<<<1, 32>>>((const char*)d, d);
        show("read_misaligned cudaGetLastError", cudaGetLastError());
        show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    } else if (!strcmp(name, "assert")) {
        fill<<<1, 32>>>(d, 32, 1);
        device_assert<<<1, 32>>>(d);
        show("device_assert cudaGetLastError", cudaGetLastError());
        show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    } else if (!strcmp(name, "trap")) {
        device_trap<<<1, 32>>>();
        show("device_trap cudaGetLastError", cudaGetLastError());
        show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    } else if (!strcmp(name, "fault_then_memcpy")) {
        fill<<<1, 32>>>((int*)0x10, 32, 3);
        int h[32];
        show("cudaMemcpy D2H after the faulting launch", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    } else if (!strcmp(name, "free_invalid")) {
        show("cudaFree(0x1234)", cudaFree((void*)0x1234));
    } else if (!strcmp(name, "free_host")) {
        void* h = malloc(64);
        show("cudaFree(malloc'd)", cudaFree(h));
        free(h);
    } else if (!strcmp(name, "free_twice")) {
        int* q = nullptr;
        cudaMalloc(&q, 64);
        show("cudaFree first", cudaFree(q));
        show("cudaFree second", cudaFree(q));
    } else if (!strcmp(name, "free_null")) {
        show("cudaFree(nullptr)", cudaFree(nullptr));
    } else if (!strcmp(name, "free_interior")) {
        show("cudaFree(d + 4)", cudaFree(d + 4));
    } else if (!strcmp(name, "memcpy_bad_kind")) {
        int h[4];
        show("cudaMemcpy kind 7", cudaMemcpy(h, d, sizeof h, (cudaMemcpyKind)7));
    } else if (!strcmp(name, "memcpy_wrong_direction")) {
        int h[4] = {};
        show("cudaMemcpy(host, dev, H2D)", cudaMemcpy(h, d, sizeof h, cudaMemcpyHostToDevice));
        show("cudaMemcpy(dev, host, D2H)", cudaMemcpy(d, h, sizeof h, cudaMemcpyDeviceToHost));
    } else if (!strcmp(name, "memcpy_null")) {
        int h[4] = {};
        show("cudaMemcpy(nullptr, host, H2D)", cudaMemcpy(nullptr, h, sizeof h, cudaMemcpyHostToDevice));
        show("cudaMemcpy(dev, nullptr, H2D)", cudaMemcpy(d, nullptr, sizeof h, cudaMemcpyHostToDevice));
    } else if (!strcmp(name, "memcpy_past_end")) {
        static int h[2048];
        show("cudaMemcpy 8 KB from a 4 KB allocation", cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    } else if (!strcmp(name, "memset_host")) {
        int h[4];
        show("cudaMemset(host)", cudaMemset(h, 0, sizeof h));
    } else if (!strcmp(name, "malloc_huge")) {
        int* q = nullptr;
        show("cudaMalloc(2^50)", cudaMalloc(&q, (size_t)1 << 50));
        printf("pointer after the failure %s\n", q == nullptr ? "null" : "not null");
    } else if (!strcmp(name, "malloc_zero")) {
        int* q = (int*)0x1;
        show("cudaMalloc(0)", cudaMalloc(&q, 0));
        printf("pointer %s\n", q == nullptr ? "null" : "not null");
    } else if (!strcmp(name, "set_device_bad")) {
        show("cudaSetDevice(8)", cudaSetDevice(8));
        show("cudaSetDevice(-1)", cudaSetDevice(-1));
    } else if (!strcmp(name, "get_properties_bad")) {
        cudaDeviceProp p;
        show("cudaGetDeviceProperties(8)", cudaGetDeviceProperties(&p, 8));
        int v = 0;
        show("cudaDeviceGetAttribute(9999)", cudaDeviceGetAttribute(&v, (cudaDeviceAttr)9999, 0));
        show("cudaDeviceGetAttribute(device 8)", cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 8));
    } else if (!strcmp(name, "event_unrecorded")) {
        cudaEvent_t a, b;
        cudaEventCreate(&a);
        cudaEventCreate(&b);
        float ms = -1;
        show("cudaEventElapsedTime(unrecorded)", cudaEventElapsedTime(&ms, a, b));
        show("cudaEventQuery(unrecorded)", cudaEventQuery(a));
        show("cudaEventSynchronize(unrecorded)", cudaEventSynchronize(a));
        cudaEventRecord(a);
        show("cudaEventElapsedTime(one recorded)", cudaEventElapsedTime(&ms, a, b));
        cudaEvent_t c;
        cudaEventCreateWithFlags(&c, cudaEventDisableTiming);
        cudaEventRecord(c);
        cudaEventSynchronize(c);
        show("cudaEventElapsedTime(DisableTiming)", cudaEventElapsedTime(&ms, a, c));
    } else if (!strcmp(name, "not_ready")) {
        cudaStream_t s;
        cudaStreamCreate(&s);
        cudaEvent_t ev;
        cudaEventCreate(&ev);
        spin<<<1, 1, 0, s>>>(200000000LL);
        cudaEventRecord(ev, s);
        show("cudaStreamQuery(busy)", cudaStreamQuery(s));
        show("cudaEventQuery(busy)", cudaEventQuery(ev));
        show("cudaGetLastError", cudaGetLastError());
        show("cudaStreamSynchronize", cudaStreamSynchronize(s));
        show("cudaStreamQuery(idle)", cudaStreamQuery(s));
    } else if (!strcmp(name, "cooperative_too_large")) {
        void* args[] = {&d};
        show("cudaLaunchCooperativeKernel 100000 blocks",
             cudaLaunchCooperativeKernel((void*)grid_sync_kernel, dim3(100000), dim3(1024), args, 0, 0));
    } else if (!strcmp(name, "grid_sync_plain_launch")) {
        grid_sync_kernel<<<2, 32>>>(d);
        show("grid_sync_kernel<<<2,32>>> cudaGetLastError", cudaGetLastError());
        show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    } else if (!strcmp(name, "symbol_bad")) {
        int v[8] = {};
        show("cudaMemcpyToSymbol past the end", cudaMemcpyToSymbol(dev_symbol, v, 4 * sizeof(int), 8));
        show("cudaMemcpyToSymbol(non-symbol)", cudaMemcpyToSymbol((const void*)v, v, 4));
        void* a = nullptr;
        show("cudaGetSymbolAddress(non-symbol)", cudaGetSymbolAddress(&a, (const void*)v));
    } else if (!strcmp(name, "host_memory")) {
        void* m = malloc(4096);
        void* dp = nullptr;
        show("cudaHostGetDevicePointer(malloc'd)", cudaHostGetDevicePointer(&dp, m, 0));
        show("cudaHostRegister", cudaHostRegister(m, 4096, cudaHostRegisterDefault));
        show("cudaHostRegister again", cudaHostRegister(m, 4096, cudaHostRegisterDefault));
        show("cudaHostUnregister", cudaHostUnregister(m));
        show("cudaHostUnregister again", cudaHostUnregister(m));
        show("cudaFreeHost(malloc'd)", cudaFreeHost(m));
        free(m);
    } else if (!strcmp(name, "occupancy_bad")) {
        int blocks = -1;
        show("cudaOccupancyMaxActiveBlocksPerMultiprocessor(block 2048)",
             cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill, 2048, 0));
        printf("blocks %d\n", blocks);
        show("cudaOccupancyMaxActiveBlocksPerMultiprocessor(block 0)",
             cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fill, 0, 0));
        printf("blocks %d\n", blocks);
        show("cudaOccupancyMaxActiveBlocksPerMultiprocessor(shared 300000)",
             cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, dyn_shared, 32, 300000));
        printf("blocks %d\n", blocks);
    } else if (!strcmp(name, "host_deref_device")) {
        fflush(stdout);
        volatile int* p = d;
        *p = 1;
        printf("the host wrote through a device pointer\n");
    } else if (!strcmp(name, "fault_no_sync")) {
        fill<<<1, 32>>>((int*)0x10, 32, 3);
        show("fill(0x10) cudaGetLastError", cudaGetLastError());
        printf("returning from main without synchronising\n");
        return 0;
    } else {
        fprintf(stderr, "unknown case %s\n", name);
        return 2;
    }
    probe_sticky();
    return 0;
}

static const char* cases[] = {
    "block_too_big", "block_1025", "block_z_too_big", "block_zero", "grid_zero", "grid_y_too_big",
    "grid_x_too_big", "dyn_shared_48k_plus_1", "dyn_shared_optin", "dyn_shared_optin_too_big",
    "launch_bounds_exceeded", "too_many_registers", "bad_pointer", "write_far", "misaligned", "assert",
    "trap", "fault_then_memcpy", "free_invalid", "free_host", "free_twice", "free_null", "free_interior",
    "memcpy_bad_kind", "memcpy_wrong_direction", "memcpy_null", "memcpy_past_end", "memset_host",
    "malloc_huge", "malloc_zero", "set_device_bad", "get_properties_bad", "event_unrecorded", "not_ready",
    "cooperative_too_large", "grid_sync_plain_launch", "symbol_bad", "host_memory", "occupancy_bad",
    "host_deref_device", "fault_no_sync"};

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: error_cases NAME | list\n");
        return 2;
    }
    if (!strcmp(argv[1], "list")) {
        for (const char* c : cases) printf("%s\n", c);
        return 0;
    }
    cudaError_t e = cudaMalloc(&g_dev, 4096);
    if (e != cudaSuccess) {
        show("cudaMalloc", e);
        return 1;
    }
    printf("case %s\n", argv[1]);
    return run(argv[1]);
}
