// tests/sass/cases/slow_path.cu — an IEEE f32 division and reciprocal, whose SASS runs a fast sequence and
// calls a slow-path subroutine only for operands that need it (sim/arith/slow_path.hpp): the SASS-level
// instruction totals hold while no lane calls it, and fall back to PTX-level counts when one does.
#define KERNEL extern "C" __global__ void

KERNEL divide(const float* a, const float* b, float* q, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) q[i] = a[i] / b[i];
}

KERNEL reciprocal(const float* a, float* q, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) q[i] = __frcp_rn(a[i]);
}
