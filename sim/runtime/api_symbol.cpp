// sim/runtime/api_symbol.cpp — __device__ and __constant__ variables from the host: cudaMemcpyToSymbol,
// cudaMemcpyFromSymbol (and Async), cudaGetSymbolAddress, cudaGetSymbolSize. A symbol is the address of the
// variable's host shadow, registered by __cudaRegisterVar.
#include "sim/runtime/runtime.hpp"

#include <cstring>

using warpsim::runtime::Runtime;

namespace {

// The device address of `symbol` plus `offset`, checked to hold `count` bytes.
cudaError_t symbol_range(Runtime& rt, const void* symbol, size_t offset, size_t count, uint64_t& out) {
    auto* v = rt.variable_by_host_shadow(symbol);
    if (!v) return cudaErrorInvalidSymbol;
    auto a = rt.variable_address(*v);
    if (!a) return cudaErrorInvalidSymbol;
    if (offset > v->size || count > v->size - offset) return cudaErrorInvalidValue;
    out = *a + offset;
    return cudaSuccess;
}

cudaError_t to_symbol(const void* symbol, const void* src, size_t count, size_t offset, cudaMemcpyKind kind,
                      bool blocking) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = blocking ? rt.synchronize() : rt.sticky()) return Runtime::finish(e);
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return Runtime::finish(cudaErrorInvalidMemcpyDirection);
    uint64_t dst = 0;
    if (cudaError_t e = symbol_range(rt, symbol, offset, count, dst)) return Runtime::finish(e);
    if (count == 0) return cudaSuccess;
    if (!src) return Runtime::finish(cudaErrorInvalidValue);
    auto& mem = rt.sim().memory();
    const uint8_t* from = static_cast<const uint8_t*>(src);
    if (rt.addresses().in_heap(reinterpret_cast<uint64_t>(src))) {
        from = mem.translate(reinterpret_cast<uint64_t>(src), count);
        if (!from) return Runtime::finish(cudaErrorInvalidValue);
    }
    // Module .const data is read-only to kernels, not to the host: write through the table's own bytes.
    std::memmove(mem.translate(dst, count), from, count);
    mem.mark_host_written(dst, count);
    rt.reuse().wrote(mem, dst, count);
    return cudaSuccess;
}

cudaError_t from_symbol(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind,
                        bool blocking) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (cudaError_t e = blocking ? rt.synchronize() : rt.sticky()) return Runtime::finish(e);
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return Runtime::finish(cudaErrorInvalidMemcpyDirection);
    uint64_t src = 0;
    if (cudaError_t e = symbol_range(rt, symbol, offset, count, src)) return Runtime::finish(e);
    if (count == 0) return cudaSuccess;
    if (!dst) return Runtime::finish(cudaErrorInvalidValue);
    auto& mem = rt.sim().memory();
    uint8_t* to = static_cast<uint8_t*>(dst);
    const bool to_device = rt.addresses().in_heap(reinterpret_cast<uint64_t>(dst));
    if (to_device) {
        to = mem.translate(reinterpret_cast<uint64_t>(dst), count);
        if (!to) return Runtime::finish(cudaErrorInvalidValue);
    }
    std::memmove(to, mem.translate(src, count), count);
    if (to_device) {
        mem.mark_host_written(reinterpret_cast<uint64_t>(dst), count);
        rt.reuse().wrote(mem, reinterpret_cast<uint64_t>(dst), count);
    }
    return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                               cudaMemcpyKind kind) {
    return to_symbol(symbol, src, count, offset, kind, true);
}
cudaError_t cudaMemcpyToSymbol_ptds(const void* symbol, const void* src, size_t count, size_t offset,
                                    cudaMemcpyKind kind) {
    return to_symbol(symbol, src, count, offset, kind, true);
}
cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset,
                                    cudaMemcpyKind kind, cudaStream_t) {
    return to_symbol(symbol, src, count, offset, kind, false);
}
cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void* symbol, const void* src, size_t count, size_t offset,
                                         cudaMemcpyKind kind, cudaStream_t) {
    return to_symbol(symbol, src, count, offset, kind, false);
}

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                 cudaMemcpyKind kind) {
    return from_symbol(dst, symbol, count, offset, kind, true);
}
cudaError_t cudaMemcpyFromSymbol_ptds(void* dst, const void* symbol, size_t count, size_t offset,
                                      cudaMemcpyKind kind) {
    return from_symbol(dst, symbol, count, offset, kind, true);
}
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset,
                                      cudaMemcpyKind kind, cudaStream_t) {
    return from_symbol(dst, symbol, count, offset, kind, false);
}
cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void* dst, const void* symbol, size_t count, size_t offset,
                                           cudaMemcpyKind kind, cudaStream_t) {
    return from_symbol(dst, symbol, count, offset, kind, false);
}

cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!devPtr) return Runtime::finish(cudaErrorInvalidValue);
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    uint64_t a = 0;
    if (cudaError_t e = symbol_range(rt, symbol, 0, 0, a)) return Runtime::finish(e);
    *devPtr = reinterpret_cast<void*>(a);
    return cudaSuccess;
}

cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
    Runtime& rt = Runtime::get();
    auto guard = rt.lock();
    if (!size) return Runtime::finish(cudaErrorInvalidValue);
    if (cudaError_t e = rt.sticky()) return Runtime::finish(e);
    auto* v = rt.variable_by_host_shadow(symbol);
    if (!v) return Runtime::finish(cudaErrorInvalidSymbol);
    *size = v->size;
    return cudaSuccess;
}

}  // extern "C"
