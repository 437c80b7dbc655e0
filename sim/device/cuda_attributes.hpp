// The CUDA runtime's view of a device preset: cudaDeviceGetAttribute by number, from the preset's limits and
// clocks where it has them, otherwise the H200's measured answer (cuda_attributes.def) or the preset's
// override.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "sim/device/device.hpp"

namespace warpsim::device {

// The value of cudaDeviceAttr `number` (1 = cudaDevAttrMaxThreadsPerBlock, ...) on `preset`; nullopt for a
// number that CUDA 13 does not define (cudaDeviceGetAttribute answers cudaErrorInvalidValue).
std::optional<std::int64_t> cuda_attribute(const DevicePreset& preset, int number);

// The enum's name of `number` ("cudaDevAttrClockRate"); empty for an unknown number.
std::string_view cuda_attribute_name(int number);

// True for the name of a cudaDeviceAttr of CUDA 13 (what cuda_runtime.attributes in a preset may override).
bool is_cuda_attribute_name(std::string_view name);

// Copy engines as asyncEngineCount reports them: the preset's cuda_runtime, else the H200's 3.
int copy_engines(const DevicePreset& preset);

}  // namespace warpsim::device
