// Dynamic local allocation: alloca (PTX 7.3+) with its default and an explicit alignment, a callee's frame
// above the caller's allocations, and stacksave / stackrestore releasing and reusing stack space.
#include <cstdint>

__device__ __noinline__ int sum_in_callee(const int* p, int n) {
    int local[4];  // the callee's own depot sits above the caller's allocation
    for (int i = 0; i < 4; ++i) local[i] = i + 1;
    int s = 0;
    for (int i = 0; i < n; ++i) s += p[i] * local[i % 4];
    return s;
}

// Thread t allocates n + t % 3 ints, fills them, and hands them to a callee; then saves the stack pointer,
// allocates again with 64-byte alignment, restores, and allocates once more (which must reuse the space).
extern "C" __global__ void alloca_sum(int* out, int n) {
    const int t = threadIdx.x;
    const int count = n + t % 3;
    int* p = static_cast<int*>(alloca(count * sizeof(int)));
    for (int i = 0; i < count; ++i) p[i] = t * 10 + i;
    const int s = sum_in_callee(p, count);
    uint64_t sp, a64, again;
    asm volatile("stacksave.u64 %0;" : "=l"(sp));
    asm volatile("{ .reg .u64 sz; cvt.u64.s32 sz, %1; alloca.u64 %0, sz, 64; }" : "=l"(a64) : "r"(count * 4));
    asm volatile("stackrestore.u64 %0;" :: "l"(sp));
    asm volatile("{ .reg .u64 sz; cvt.u64.s32 sz, %1; alloca.u64 %0, sz, 64; }" : "=l"(again) : "r"(count * 4));
    out[t * 4 + 0] = s;
    out[t * 4 + 1] = static_cast<int>(a64 % 64);                 // 0: aligned as asked
    out[t * 4 + 2] = a64 == again;                                // 1: the restored space is reused
    out[t * 4 + 3] = static_cast<int>(reinterpret_cast<uintptr_t>(p) % 16 == 0);  // alloca's 16-byte request
}
