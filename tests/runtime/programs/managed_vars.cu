// __managed__ variables: one host and device address, the initialiser seen by both, host writes seen by the
// kernel and the kernel's writes by the host, the host's address passed to a kernel as a plain pointer, and
// the symbol API on them. Every expected value is worked out by hand in the comments.
#include <cstdio>
#include <cuda_runtime.h>

__managed__ int counter;                       // zero-initialised
__managed__ float table[4] = {1, 2, 3, 4};
__managed__ long long big[1000];               // 8000 bytes: more than one 4 KiB page

__global__ void bump(int times) {
    atomicAdd(&counter, times);                // 32 threads x times
    if (threadIdx.x < 4) table[threadIdx.x] *= 10.0f;
}

__global__ void through_pointer(int* p, long long* q) {
    *p += 1;
    q[999] = 7;
}

int main() {
    printf("initial: counter %d, table[3] %g\n", counter, table[3]);      // 0, 4
    counter = 5;                                                           // the host writes first
    bump<<<1, 32>>>(2);                                                    // 5 + 32 * 2 = 69
    cudaDeviceSynchronize();
    printf("after bump: counter %d, table %g %g %g %g\n", counter, table[0], table[1], table[2], table[3]);
    through_pointer<<<1, 1>>>(&counter, big);                              // 70; big[999] = 7
    cudaDeviceSynchronize();
    printf("through the host's address: counter %d, big[999] %lld\n", counter, big[999]);
    int from_symbol = 0;
    cudaError_t e = cudaMemcpyFromSymbol(&from_symbol, counter, sizeof(int));
    printf("cudaMemcpyFromSymbol: %s %d\n", cudaGetErrorName(e), from_symbol);   // 70
    const int forty_two = 42;
    e = cudaMemcpyToSymbol(counter, &forty_two, sizeof(int));
    printf("cudaMemcpyToSymbol: %s, counter %d\n", cudaGetErrorName(e), counter);   // 42
    void* device_address = nullptr;
    e = cudaGetSymbolAddress(&device_address, counter);
    printf("cudaGetSymbolAddress: %s, same as &counter: %s\n", cudaGetErrorName(e),
           device_address == (void*)&counter ? "yes" : "no");
    cudaPointerAttributes attr;
    e = cudaPointerGetAttributes(&attr, &counter);
    printf("cudaPointerGetAttributes: %s, managed: %s\n", cudaGetErrorName(e),
           attr.type == cudaMemoryTypeManaged ? "yes" : "no");
    return 0;
}
