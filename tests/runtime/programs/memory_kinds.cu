// Every copy kind the runtime offers, checked on the host: H2D, D2H, D2D, H2H, cudaMemcpyDefault both ways,
// 2D copies with pitches, memset, symbols (__device__ and __constant__), zero-copy pinned memory and a
// registered host buffer that a kernel writes in place. Prints PASS and returns 0 when all agree.
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

__device__ int dev_table[8];
__constant__ float scale[2];

__global__ void use_symbols(int* out) {
    int i = threadIdx.x;
    out[i] = dev_table[i] * (int)scale[0] + (int)scale[1];
    dev_table[i] = -i;
}

__global__ void increment(int* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += 1;
}

static int failures = 0;
static void expect(bool ok, const char* what) {
    if (!ok) {
        printf("FAIL: %s\n", what);
        ++failures;
    }
}

int main() {
    const int n = 1000;
    std::vector<int> h(n), back(n, -1);
    for (int i = 0; i < n; ++i) h[i] = 3 * i + 1;
    int *d1, *d2;
    cudaMalloc(&d1, n * sizeof(int));
    cudaMalloc(&d2, n * sizeof(int));
    expect(cudaMemcpy(d1, h.data(), n * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess, "H2D");
    expect(cudaMemcpy(d2, d1, n * sizeof(int), cudaMemcpyDeviceToDevice) == cudaSuccess, "D2D");
    expect(cudaMemcpy(back.data(), d2, n * sizeof(int), cudaMemcpyDefault) == cudaSuccess, "Default D2H");
    expect(back == h, "round trip through two device buffers");
    expect(cudaMemcpy(d1, d2, n * sizeof(int), cudaMemcpyHostToDevice) == cudaErrorInvalidValue,
           "a device source against HostToDevice is refused");
    expect(cudaMemcpy(d1, h.data(), (n + 1) * sizeof(int), cudaMemcpyHostToDevice) == cudaErrorInvalidValue,
           "a copy past the allocation is refused");
    expect(cudaGetLastError() == cudaErrorInvalidValue, "the refusal is the last error");
    expect(cudaGetLastError() == cudaSuccess, "and only once");

    // 2D: a 4 x 3 block of ints out of a host array with row pitch 10 ints into a pitched device array.
    int host2d[30], out2d[30];
    for (int i = 0; i < 30; ++i) host2d[i] = i;
    std::memset(out2d, 0, sizeof out2d);
    int* pitched;
    size_t pitch = 0;
    expect(cudaMallocPitch((void**)&pitched, &pitch, 4 * sizeof(int), 3) == cudaSuccess && pitch >= 16, "pitch");
    expect(cudaMemcpy2D(pitched, pitch, host2d, 10 * sizeof(int), 4 * sizeof(int), 3, cudaMemcpyHostToDevice) == 0,
           "2D H2D");
    expect(cudaMemcpy2D(out2d, 5 * sizeof(int), pitched, pitch, 4 * sizeof(int), 3, cudaMemcpyDeviceToHost) == 0,
           "2D D2H");
    bool ok2d = true;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 5; ++c) ok2d &= out2d[r * 5 + c] == (c < 4 ? r * 10 + c : 0);
    expect(ok2d, "2D copies keep rows and pitches");

    expect(cudaMemset(d1, 0xff, n * sizeof(int)) == cudaSuccess, "memset");
    cudaMemcpy(back.data(), d1, n * sizeof(int), cudaMemcpyDeviceToHost);
    expect(back[0] == -1 && back[n - 1] == -1, "memset bytes");

    // Symbols.
    int table[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    float sc[2] = {10.0f, 5.0f};
    expect(cudaMemcpyToSymbol(dev_table, table, sizeof table) == cudaSuccess, "to __device__ symbol");
    expect(cudaMemcpyToSymbol(scale, sc, sizeof sc) == cudaSuccess, "to __constant__ symbol");
    expect(cudaMemcpyToSymbol(scale, sc, sizeof sc, 4) == cudaErrorInvalidValue, "past the symbol's end");
    cudaGetLastError();
    use_symbols<<<1, 8>>>(d1);
    expect(cudaDeviceSynchronize() == cudaSuccess, "symbol kernel");
    cudaMemcpy(back.data(), d1, 8 * sizeof(int), cudaMemcpyDeviceToHost);
    bool oksym = true;
    for (int i = 0; i < 8; ++i) oksym &= back[i] == table[i] * 10 + 5;
    expect(oksym, "the kernel read both symbols");
    int table_back[8];
    expect(cudaMemcpyFromSymbol(table_back, dev_table, sizeof table_back) == cudaSuccess, "from symbol");
    expect(table_back[7] == -7, "the kernel's writes to the __device__ variable are visible");
    void* sym_addr = nullptr;
    size_t sym_size = 0;
    expect(cudaGetSymbolAddress(&sym_addr, dev_table) == cudaSuccess && sym_addr != nullptr, "symbol address");
    expect(cudaGetSymbolSize(&sym_size, dev_table) == cudaSuccess && sym_size == sizeof table, "symbol size");
    int not_a_symbol = 0;
    expect(cudaMemcpyToSymbol(not_a_symbol, table, 4) == cudaErrorInvalidSymbol, "not a symbol");
    cudaGetLastError();

    // Zero-copy: pinned memory a kernel updates in place, and a registered buffer of the program's own.
    int* pinned = nullptr;
    expect(cudaHostAlloc((void**)&pinned, n * sizeof(int), cudaHostAllocMapped) == cudaSuccess, "pinned");
    for (int i = 0; i < n; ++i) pinned[i] = i;
    int* pinned_dev = nullptr;
    expect(cudaHostGetDevicePointer((void**)&pinned_dev, pinned, 0) == cudaSuccess, "device pointer of pinned");
    increment<<<(n + 255) / 256, 256>>>(pinned_dev, n);
    expect(cudaDeviceSynchronize() == cudaSuccess, "zero-copy kernel");
    expect(pinned[0] == 1 && pinned[n - 1] == n, "the kernel wrote pinned host memory in place");
    std::vector<int> mine(n, 7);
    expect(cudaHostRegister(mine.data(), n * sizeof(int), cudaHostRegisterMapped) == cudaSuccess, "register");
    expect(cudaHostRegister(mine.data(), n * sizeof(int), 0) == cudaErrorHostMemoryAlreadyRegistered, "twice");
    cudaGetLastError();
    increment<<<(n + 255) / 256, 256>>>(mine.data(), n);
    expect(cudaDeviceSynchronize() == cudaSuccess, "registered kernel");
    expect(mine[0] == 8 && mine[n - 1] == 8, "the kernel wrote registered host memory");
    expect(cudaHostUnregister(mine.data()) == cudaSuccess, "unregister");
    expect(cudaHostUnregister(mine.data()) == cudaErrorHostMemoryNotRegistered, "unregister twice");
    cudaGetLastError();
    cudaPointerAttributes attr;
    expect(cudaPointerGetAttributes(&attr, d1) == cudaSuccess && attr.type == cudaMemoryTypeDevice, "device attr");
    expect(cudaPointerGetAttributes(&attr, pinned) == cudaSuccess && attr.type == cudaMemoryTypeHost, "host attr");
    expect(cudaFreeHost(pinned) == cudaSuccess, "free pinned");
    expect(cudaFree(d1) == cudaSuccess && cudaFree(d1) == cudaErrorInvalidValue, "double free is refused");
    cudaGetLastError();

    // A kernel writing to unregistered host memory faults, as on the GPU.
    std::vector<int> plain(n, 0);
    increment<<<1, 32>>>(plain.data(), 32);
    cudaError_t e = cudaDeviceSynchronize();
    expect(e == cudaErrorIllegalAddress, "a kernel cannot touch host memory that was not registered");
    expect(plain[0] == 0, "and the host memory is unchanged");
    printf("%s\n", failures == 0 ? "PASS" : "FAIL");
    return failures == 0 ? 0 : 1;
}
