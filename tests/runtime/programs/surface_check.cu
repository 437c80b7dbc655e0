// --check with surfaces: a kernel writes every element of a surface (and one element past each end with the
// zero and clamp boundaries, which is no error), a kernel with only sured adds 1 to each element twice (two
// launches, both executed: with or without --check), the host copies the array back (initcheck: the kernels
// wrote it), then a kernel reads a second array nothing wrote (one initcheck finding, line 20).
#include <cuda_runtime.h>
#include <cstdio>

__global__ void fill(cudaSurfaceObject_t s, int w) {
    int x = threadIdx.x;
    surf1Dwrite(float(x), s, x * 4);
    if (x == 0) {
        surf1Dwrite(-1.0f, s, w * 4, cudaBoundaryModeZero);  // dropped
        surf1Dwrite(9.0f, s, -4, cudaBoundaryModeClamp);     // element 0
        surf1Dwrite(0.0f, s, 0);                             // and back
    }
}

__global__ void read_unwritten(cudaSurfaceObject_t s, float* out) {
    int x = threadIdx.x;
    out[x] = surf1Dread<float>(s, x * 4);
}

__global__ void bump(cudaSurfaceObject_t s) {
    asm volatile("sured.b.add.1d.u32.trap [%0, {%1}], %2;" ::"l"(s), "r"(int(threadIdx.x) * 4), "r"(1u));
}

int main() {
    const int w = 8;
    cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
    cudaArray_t a, b;
    cudaMallocArray(&a, &f, w, 0, cudaArraySurfaceLoadStore);
    cudaMallocArray(&b, &f, w, 0, cudaArraySurfaceLoadStore);
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaSurfaceObject_t sa, sb;
    cudaCreateSurfaceObject(&sa, &r);
    r.res.array.array = b;
    cudaCreateSurfaceObject(&sb, &r);
    fill<<<1, w>>>(sa, w);
    cudaChannelFormatDesc fi = cudaCreateChannelDesc<unsigned>();
    cudaArray_t c;
    cudaMallocArray(&c, &fi, w, 0, cudaArraySurfaceLoadStore);
    unsigned zeros[w] = {};
    cudaMemcpy2DToArray(c, 0, 0, zeros, w * 4, w * 4, 1, cudaMemcpyHostToDevice);
    r.res.array.array = c;
    cudaSurfaceObject_t sc;
    cudaCreateSurfaceObject(&sc, &r);
    bump<<<1, w>>>(sc);
    bump<<<1, w>>>(sc);
    unsigned counts[w];
    cudaMemcpy2DFromArray(counts, w * 4, c, 0, 0, w * 4, 1, cudaMemcpyDeviceToHost);
    unsigned bumps = 0;
    for (unsigned v : counts) bumps += v;
    float back[w];
    cudaMemcpy2DFromArray(back, w * 4, a, 0, 0, w * 4, 1, cudaMemcpyDeviceToHost);
    float sum = 0;
    for (float v : back) sum += v;
    float* out;
    cudaMalloc(&out, w * sizeof(float));
    read_unwritten<<<1, w>>>(sb, out);
    printf("sum %g, bumps %u\n%s\n", sum, bumps, cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
