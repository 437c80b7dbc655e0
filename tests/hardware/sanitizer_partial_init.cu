// initcheck probe (sanitizer_partial_init.sh): is a read reported when only some of its bytes were written?
#include <cstdio>
#include <cuda_runtime.h>
__global__ void write4(int* p) { p[0] = 1; }                     // bytes 0-3 of an 8-byte slot
__global__ void read8(const long long* p, long long* out) { out[0] = *(volatile const long long*)p; }
__global__ void write4_read8(int* p, long long* out) {
    p[0] = 1;
    __threadfence();
    out[0] = *(volatile long long*)p;
}
__global__ void read8_nc(const long long* __restrict__ p, long long* out) { out[0] = __ldg(p); }
__global__ void read8_nc_add(const long long* __restrict__ p, long long* out) { out[0] = __ldg(p) + 1; }
int main(int argc, char** argv) {
    long long *a, *b, *c, *out;
    cudaMalloc(&a, 64); cudaMalloc(&b, 64); cudaMalloc(&c, 64); cudaMalloc(&out, 64);
    cudaMemset(out, 0, 64);
    printf("case partial_across: 4 of 8 bytes written by an earlier kernel\n"); fflush(stdout);
    write4<<<1, 1>>>((int*)a); read8<<<1, 1>>>(a, out); cudaDeviceSynchronize();
    printf("case none: 0 of 8 bytes written\n"); fflush(stdout);
    read8<<<1, 1>>>(b, out); cudaDeviceSynchronize();
    printf("case partial_same: 4 of 8 written by the same thread first\n"); fflush(stdout);
    write4_read8<<<1, 1>>>((int*)c, out); cudaDeviceSynchronize();
    long long *d, *e;
    cudaMalloc(&d, 64); cudaMalloc(&e, 64);
    printf("case nc_partial_across: ld.global.nc of 8 bytes, 4 written by an earlier kernel\n"); fflush(stdout);
    write4<<<1, 1>>>((int*)d); read8_nc<<<1, 1>>>(d, out); cudaDeviceSynchronize();
    printf("case nc_none: ld.global.nc of 8 bytes, none written\n"); fflush(stdout);
    read8_nc<<<1, 1>>>(e, out); cudaDeviceSynchronize();
    printf("case nc_partial_used: ld.global.nc, 4 of 8 written, the value used in arithmetic\n"); fflush(stdout);
    read8_nc_add<<<1, 1>>>(d, out); cudaDeviceSynchronize();
    long long h[8];
    printf("case host_copy_partial: cudaMemcpy of a (4 of 8 written)\n"); fflush(stdout);
    cudaMemcpy(h, a, 8, cudaMemcpyDeviceToHost);
    printf("done\n");
    return 0;
}
