// Global atomics with order-independent final values: integer add/sub/min/max/and/or/xor/inc/dec,
// exchange into private slots, CAS loops, scoped atomics, and float/double adds of small integers
// inside one block (exact in any order).

// counters: 16 x i32, zero-initialised; masks: 4 x u32 filled with 0xffffffff;
// wide: 4 x u64 zero-initialised; slots: one u32 per thread, returned old values go to old.
extern "C" __global__ void atomic_int_global(int* counters, unsigned* masks, unsigned long long* wide,
                                              unsigned* slots, unsigned* old, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int v = (i * 37) % 1000 - 500;
    atomicAdd(&counters[0], 1);
    atomicAdd(&counters[1], v);
    atomicSub(&counters[2], i & 7);
    atomicMin(&counters[3], v);
    atomicMax(&counters[4], v);
    atomicMin((unsigned*)&counters[5], (unsigned)v);  // zero stays the unsigned minimum
    atomicMax((unsigned*)&counters[6], (unsigned)v);
    atomicInc((unsigned*)&counters[7], 100u);         // wraps to 0 after 100: n mod 101
    atomicDec((unsigned*)&counters[8], 100u);
    atomicOr(&counters[9], 1 << (i % 31));
    atomicXor(&counters[10], i);
    atomicAdd_block(&counters[11], 2);                // atom.cta
    atomicAdd_system(&counters[12], 3);               // atom.sys
    atomicAnd(&masks[0], ~(1u << (i % 17)));
    atomicOr(&masks[1], 0u);
    atomicXor(&masks[2], (unsigned)i * 2654435761u);
    atomicAdd(&wide[0], (unsigned long long)i << 20);
    atomicMax(&wide[1], (unsigned long long)i * 0x100000001ull);
    atomicMin((long long*)&wide[2], -(long long)i);
    atomicOr(&wide[3], 1ull << (i % 64));
    old[i] = atomicExch(&slots[i], (unsigned)i * 3u); // private slot: the old value is the init
}

// A CAS loop doing a saturating add: min(cap, sum) is the same in every order.
__device__ unsigned saturating_add(unsigned* addr, unsigned v, unsigned cap) {
    unsigned cur = *addr, assumed;
    do {
        assumed = cur;
        unsigned next = assumed + v > cap ? cap : assumed + v;
        cur = atomicCAS(addr, assumed, next);
    } while (cur != assumed);
    return cur;
}

// A CAS loop on a float's bits: maximum, exact in any order.
__device__ void atomic_max_float(float* addr, float v) {
    int* a = (int*)addr;
    int cur = *a;
    while (__int_as_float(cur) < v) {
        int prev = atomicCAS(a, cur, __float_as_int(v));
        if (prev == cur) break;
        cur = prev;
    }
}

extern "C" __global__ void atomic_cas_loops(unsigned* sat, float* fmax, unsigned long long* cas64, const float* in, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    saturating_add(&sat[0], (unsigned)(i & 15), 50000u);
    saturating_add(&sat[1], 1u, 0xffffffffu);
    atomic_max_float(fmax, in[i]);
    unsigned long long cur = cas64[0], assumed;       // 64-bit CAS: add i
    do {
        assumed = cur;
        cur = atomicCAS(&cas64[0], assumed, assumed + (unsigned long long)i);
    } while (cur != assumed);
}

// Run with one block: float and double sums of small integers are exact in any order.
extern "C" __global__ void atomic_float_one_block(float* fsum, double* dsum, const int* in, int n) {
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        atomicAdd(&fsum[0], (float)(in[i] & 255));
        atomicAdd(&dsum[0], (double)in[i]);
        atomicAdd(&fsum[1 + (i & 3)], 1.0f);
    }
}
