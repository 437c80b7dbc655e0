// reserved_smem_probe.cu — where the driver puts a block's reserved shared memory: the %reserved_smem_offset_*
// special registers beside the shared-window offsets of a static and a dynamic __shared__ array.
//   nvcc -arch=sm_90 -O2 reserved_smem_probe.cu -o probe && ./probe
#include <cstdio>

__global__ void probe(unsigned* out) {
    __shared__ int static_arr[16];
    extern __shared__ int dynamic_arr[];
    unsigned v[8];
    asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(v[0]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(v[1]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(v[2]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(v[3]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(v[4]));
    v[5] = (unsigned)__cvta_generic_to_shared(static_arr);
    v[6] = (unsigned)__cvta_generic_to_shared(dynamic_arr);
    asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(v[7]));
    static_arr[threadIdx.x % 16] = 1;
    dynamic_arr[threadIdx.x] = 2;
    if (threadIdx.x == 0)
        for (int k = 0; k < 8; ++k) out[blockIdx.x * 8 + k] = v[k];
}

int main() {
    const char* names[8] = {"reserved_smem_offset_begin", "reserved_smem_offset_end", "reserved_smem_offset_cap",
                            "reserved_smem_offset_0", "reserved_smem_offset_1", "static __shared__ offset",
                            "dynamic __shared__ offset", "total_smem_size"};
    unsigned* d;
    cudaMalloc(&d, 64 * 8 * 4);
    for (int dyn : {0, 256, 4096, 40000}) {
        cudaMemset(d, 0xff, 64 * 8 * 4);
        probe<<<2, 64, dyn + 256>>>(d);
        unsigned h[16];
        cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        printf("dynamic shared %d bytes (%s):\n", dyn + 256, cudaGetErrorString(e));
        for (int k = 0; k < 8; ++k) printf("  %-28s %u (0x%x) block1 %u\n", names[k], h[k], h[k], h[8 + k]);
    }
    return 0;
}
