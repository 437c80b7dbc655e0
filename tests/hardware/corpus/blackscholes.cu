// Black-Scholes pricing of European call and put options, written as GPU samples usually write it: the
// cumulative normal by the Abramowitz-Stegun polynomial, with the fast intrinsics __expf, __logf and
// __fdividef, rsqrtf, sqrtf. Prices are in [5, 30], strikes in [1, 100], years in [0.25, 10].

__device__ inline float cnd(float d) {
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f, A5 = 1.330274429f;
    const float RSQRT2PI = 0.39894228040143267793994605993438f;
    float K = __fdividef(1.0f, (1.0f + 0.2316419f * fabsf(d)));
    float c = RSQRT2PI * __expf(-0.5f * d * d) * (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    if (d > 0) c = 1.0f - c;
    return c;
}

__device__ inline void black_scholes_one(float& call, float& put, float S, float X, float T, float R, float V) {
    float sqrtT = __fdividef(1.0f, rsqrtf(T));
    float d1 = __fdividef(__logf(S / X) + (R + 0.5f * V * V) * T, V * sqrtT);
    float d2 = d1 - V * sqrtT;
    float cnd1 = cnd(d1), cnd2 = cnd(d2);
    float expRT = __expf(-R * T);
    call = S * cnd1 - X * expRT * cnd2;
    put = X * expRT * (1.0f - cnd2) - S * (1.0f - cnd1);
}

// Inputs are uniform random bits in [0, 1) mapped to the ranges above (the spec fills them with random:SEED).
__device__ inline float in_range(float u, float lo, float hi) { return lo + (hi - lo) * (u - floorf(u)); }

__global__ void black_scholes(float* call, float* put, const float* price, const float* strike, const float* years,
                              float riskfree, float volatility, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float S = in_range(price[i], 5.0f, 30.0f);
        float X = in_range(strike[i], 1.0f, 100.0f);
        float T = in_range(years[i], 0.25f, 10.0f);
        float c, p;
        black_scholes_one(c, p, S, X, T, riskfree, volatility);
        call[i] = c;
        put[i] = p;
    }
}
