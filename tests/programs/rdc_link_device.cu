// The device side of rdc_link.cu: functions and a __device__ variable other translation units link to, and
// a static __device__ variable of the same name as one in rdc_link.cu (each file keeps its own).
__device__ int calls = 0;
static __device__ int local_count = 100;

__device__ float saxpy_element(float a, float x, float y) { return a * x + y; }

__device__ int bump_calls() {
    atomicAdd(&local_count, 1);
    return atomicAdd(&calls, 1);
}
