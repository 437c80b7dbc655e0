// --check with surfaces: a kernel writes every element of a surface (and one element past each end with the
// zero and clamp boundaries, which is no error), the host copies the array back (initcheck: the kernel wrote
// it), then a kernel reads a second array nothing wrote (one initcheck finding, line 19).
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
    float back[w];
    cudaMemcpy2DFromArray(back, w * 4, a, 0, 0, w * 4, 1, cudaMemcpyDeviceToHost);
    float sum = 0;
    for (float v : back) sum += v;
    float* out;
    cudaMalloc(&out, w * sizeof(float));
    read_unwritten<<<1, w>>>(sb, out);
    printf("sum %g\n%s\n", sum, cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
