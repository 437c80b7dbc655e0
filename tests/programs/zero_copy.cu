// Pinned and zero-copy memory: a kernel reads and writes mapped host memory (cudaHostAlloc with
// cudaHostAllocMapped, cudaHostGetDevicePointer), and memory the program registered with cudaHostRegister.
#include <cstdint>
#include <vector>
#include "common.h"

__global__ void square_in_place(float* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * p[i];
}

int main() {
    int can_map = 0;
    CHECK(cudaDeviceGetAttribute(&can_map, cudaDevAttrCanMapHostMemory, 0));
    printf("canMapHostMemory: %d\n", can_map);
    const int n = 4096;

    float* mapped = nullptr;
    CHECK(cudaHostAlloc(&mapped, n * sizeof(float), cudaHostAllocMapped));
    for (int i = 0; i < n; ++i) mapped[i] = (float)(i % 64);
    float* dev_view = nullptr;
    CHECK(cudaHostGetDevicePointer(&dev_view, mapped, 0));
    unsigned flags = 0;
    CHECK(cudaHostGetFlags(&flags, mapped));
    printf("cudaHostGetFlags has cudaHostAllocMapped: %s\n", (flags & cudaHostAllocMapped) ? "yes" : "no");
    square_in_place<<<n / 256, 256>>>(dev_view, n);
    CHECK_LAUNCH();
    int wrong_mapped = 0;
    for (int i = 0; i < n; ++i) wrong_mapped += mapped[i] != (float)((i % 64) * (i % 64));
    printf("mapped host memory written by the kernel: mapped[63] = %g, %d wrong\n", mapped[63], wrong_mapped);

    // Registering ordinary (page-aligned) host memory.
    std::vector<float> buf(n + 1024);
    float* page = (float*)(((uintptr_t)buf.data() + 4095) & ~(uintptr_t)4095);
    for (int i = 0; i < 1024; ++i) page[i] = (float)i;
    CHECK(cudaHostRegister(page, 1024 * sizeof(float), cudaHostRegisterMapped));
    float* reg_view = nullptr;
    CHECK(cudaHostGetDevicePointer(&reg_view, page, 0));
    square_in_place<<<4, 256>>>(reg_view, 1024);
    CHECK_LAUNCH();
    int wrong_reg = 0;
    for (int i = 0; i < 1024; ++i) wrong_reg += page[i] != (float)i * (float)i;
    printf("registered host memory written by the kernel: page[1023] = %g, %d wrong\n", page[1023], wrong_reg);
    CHECK(cudaHostUnregister(page));

    // Pinned memory for copies: cudaMallocHost and a round trip.
    float *pinned, *d;
    CHECK(cudaMallocHost(&pinned, n * sizeof(float)));
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    for (int i = 0; i < n; ++i) pinned[i] = -(float)i;
    CHECK(cudaMemcpy(d, pinned, n * sizeof(float), cudaMemcpyHostToDevice));
    square_in_place<<<n / 256, 256>>>(d, n);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(pinned, d, n * sizeof(float), cudaMemcpyDeviceToHost));
    int wrong_pinned = 0;
    for (int i = 0; i < n; ++i) wrong_pinned += pinned[i] != (float)i * (float)i;
    printf("pinned round trip: %d wrong\n", wrong_pinned);
    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, pinned));
    printf("cudaPointerGetAttributes(pinned).type = %d (cudaMemoryTypeHost = %d)\n", (int)attr.type,
           (int)cudaMemoryTypeHost);
    CHECK(cudaPointerGetAttributes(&attr, d));
    printf("cudaPointerGetAttributes(device).type = %d (cudaMemoryTypeDevice = %d)\n", (int)attr.type,
           (int)cudaMemoryTypeDevice);
    CHECK(cudaFree(d));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFreeHost(mapped));
    return finish(can_map == 1 && wrong_mapped == 0 && wrong_reg == 0 && wrong_pinned == 0);
}
