// The other translation unit of rdc_main.cu.
__device__ int offset = 100;
__device__ int twice_plus_one(int x) { return 2 * x + 1; }
