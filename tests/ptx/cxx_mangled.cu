// C++ linkage: mangled kernel names (a template instantiated once, a kernel in a namespace, a
// by-value struct argument) and an overloaded pair whose base name is ambiguous.

template <typename T>
__global__ void axpy_t(T a, const T* x, T* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
template __global__ void axpy_t<double>(double, const double*, double*, int);

namespace warpsim_test {
__global__ void kernel_in_namespace(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = i * i;
}
}  // namespace warpsim_test

struct Range { int lo; int hi; };

__global__ void clamp_to_range(const int* in, int* out, Range r, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = min(max(in[i], r.lo), r.hi);
}

// Two kernels share the base name `overloaded`: naming it in a spec must be an ambiguity error.
__global__ void overloaded(int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 1;
}
__global__ void overloaded(float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f;
}
