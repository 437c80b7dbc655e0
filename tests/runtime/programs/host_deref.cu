// A host dereference of a device pointer: on a GPU it faults (the pointer is not host memory); under warpsim
// too, since device allocations live in an address range the runtime reserved without access.
#include <cstdio>
#include <cuda_runtime.h>

int main() {
    float* d = nullptr;
    if (cudaMalloc(&d, 256) != cudaSuccess) return 3;
    std::printf("allocated\n");
    std::fflush(stdout);
    d[0] = 1.0f;   // segmentation fault
    std::printf("the host wrote through a device pointer\n");
    return 0;
}
