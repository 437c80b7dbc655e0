// Thrust, as a real project uses it: device_vector, transform, reduce, transform_reduce, scans, sort,
// sort_by_key, unique, copy_if, count_if, min/max_element and a gather, on 2^16 pseudo-random integers; every
// result checked against the same computation on the host. Under `warpsim exec` each algorithm's CUB kernels
// (reduce, scan, radix sort's onesweep with its decoupled look-back, select) run on the simulated GPU.
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "common.h"

struct square {
    __host__ __device__ long long operator()(int x) const { return static_cast<long long>(x) * x; }
};
struct is_odd {
    __host__ __device__ bool operator()(int x) const { return x & 1; }
};
struct affine {
    __host__ __device__ int operator()(int x) const { return 3 * x - 7; }
};

int main() {
    const int n = 1 << 16;
    std::vector<int> h(n);
    unsigned s = 12345;
    for (int& v : h) {
        s = s * 1664525u + 1013904223u;
        v = static_cast<int>(s >> 16) % 10000 - 5000;
    }
    bool ok = true;
    auto report = [&](const char* what, long long got, long long want) {
        printf("%-18s %lld %s\n", what, got, got == want ? "ok" : "WRONG");
        ok &= got == want;
    };
    thrust::device_vector<int> d(h.begin(), h.end());

    report("reduce", thrust::reduce(d.begin(), d.end(), 0LL), std::accumulate(h.begin(), h.end(), 0LL));
    long long sq = 0;
    for (int v : h) sq += static_cast<long long>(v) * v;
    report("transform_reduce", thrust::transform_reduce(d.begin(), d.end(), square(), 0LL, thrust::plus<long long>()),
           sq);

    thrust::device_vector<int> t(n);
    thrust::transform(d.begin(), d.end(), t.begin(), affine());
    std::vector<int> ht(n);
    std::transform(h.begin(), h.end(), ht.begin(), affine());
    report("transform[777]", t[777], ht[777]);

    thrust::device_vector<int> inc(n), exc(n);
    thrust::inclusive_scan(d.begin(), d.end(), inc.begin());
    thrust::exclusive_scan(d.begin(), d.end(), exc.begin(), 100);
    std::vector<int> hinc(n), hexc(n);
    std::partial_sum(h.begin(), h.end(), hinc.begin());
    hexc[0] = 100;
    for (int i = 1; i < n; ++i) hexc[i] = hexc[i - 1] + h[i - 1];
    report("inclusive_scan[-1]", inc[n - 1], hinc[n - 1]);
    report("exclusive_scan[-1]", exc[n - 1], hexc[n - 1]);
    thrust::host_vector<int> inc_back = inc;
    report("scan mismatches", std::inner_product(inc_back.begin(), inc_back.end(), hinc.begin(), 0LL,
                                                 thrust::plus<long long>(), thrust::not_equal_to<int>()), 0);

    report("count_if odd", thrust::count_if(d.begin(), d.end(), is_odd()), std::count_if(h.begin(), h.end(), is_odd()));
    thrust::device_vector<int> odd(n);
    auto odd_end = thrust::copy_if(d.begin(), d.end(), odd.begin(), is_odd());
    std::vector<int> hodd;
    std::copy_if(h.begin(), h.end(), std::back_inserter(hodd), is_odd());
    report("copy_if size", odd_end - odd.begin(), static_cast<long long>(hodd.size()));
    report("copy_if[1000]", odd[1000], hodd[1000]);

    auto mm = thrust::minmax_element(d.begin(), d.end());
    report("min_element", *mm.first, *std::min_element(h.begin(), h.end()));
    report("max_element", *mm.second, *std::max_element(h.begin(), h.end()));

    // sort_by_key: the values are the original positions; gather through them gives the sorted keys again.
    thrust::device_vector<int> keys = d, pos(n);
    thrust::sequence(pos.begin(), pos.end());
    thrust::sort_by_key(keys.begin(), keys.end(), pos.begin());
    thrust::device_vector<int> regathered(n);
    thrust::gather(pos.begin(), pos.end(), d.begin(), regathered.begin());
    std::vector<int> hs = h;
    std::stable_sort(hs.begin(), hs.end());
    thrust::host_vector<int> keys_back = keys, gathered_back = regathered;
    report("sorted mismatches", std::inner_product(keys_back.begin(), keys_back.end(), hs.begin(), 0LL,
                                                   thrust::plus<long long>(), thrust::not_equal_to<int>()), 0);
    report("gather mismatches", std::inner_product(gathered_back.begin(), gathered_back.end(), hs.begin(), 0LL,
                                                   thrust::plus<long long>(), thrust::not_equal_to<int>()), 0);

    thrust::sort(d.begin(), d.end(), thrust::greater<int>());
    auto uend = thrust::unique(d.begin(), d.end());
    std::sort(hs.begin(), hs.end(), std::greater<int>());
    report("unique size", uend - d.begin(), std::unique(hs.begin(), hs.end()) - hs.begin());
    report("largest", d[0], hs[0]);
    return finish(ok);
}
