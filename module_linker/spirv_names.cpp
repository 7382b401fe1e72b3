// Names of the SPIR-V enumerants module_linker reports, for messages and tools.
#include "module_linker/module_info.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace zeal::module_linker {
namespace {

using NameTable = std::span<const std::pair<uint32_t, const char *>>;

std::string lookup(NameTable table, uint32_t value, const char *kind) {
  auto it = std::find_if(table.begin(), table.end(), [&](auto &row) { return row.first == value; });
  if (it != table.end()) return it->second;
  return fmt::format("{}({})", kind, value);
}

// Only the capabilities compute modules commonly declare; the rest print as numbers.
constexpr std::pair<uint32_t, const char *> kCapabilities[] = {
    {1, "Shader"},           {4, "Addresses"},        {5, "Linkage"},
    {6, "Kernel"},           {7, "Vector16"},         {8, "Float16Buffer"},
    {9, "Float16"},          {10, "Float64"},         {11, "Int64"},
    {12, "Int64Atomics"},    {18, "Groups"},          {19, "DeviceEnqueue"},
    {22, "Int16"},           {38, "GenericPointer"},  {39, "Int8"},
    {58, "SubgroupDispatch"},{61, "GroupNonUniform"}, {62, "GroupNonUniformVote"},
    {63, "GroupNonUniformArithmetic"}, {64, "GroupNonUniformBallot"},
    {65, "GroupNonUniformShuffle"},    {66, "GroupNonUniformShuffleRelative"},
    {5568, "SubgroupShuffleINTEL"},    {5569, "SubgroupBufferBlockIOINTEL"},
    {5603, "FunctionPointersINTEL"},   {5604, "IndirectReferencesINTEL"},
};
constexpr std::pair<uint32_t, const char *> kExecutionModels[] = {{5, "GLCompute"}, {6, "Kernel"}};
constexpr std::pair<uint32_t, const char *> kExecutionModes[] = {
    {17, "LocalSize"}, {18, "LocalSizeHint"}, {30, "VecTypeHint"}, {31, "ContractionOff"},
    {35, "SubgroupSize"}, {36, "SubgroupsPerWorkgroup"}, {37, "SubgroupsPerWorkgroupId"},
    {38, "LocalSizeId"}, {39, "LocalSizeHintId"}};
constexpr std::pair<uint32_t, const char *> kAddressingModels[] = {
    {0, "Logical"}, {1, "Physical32"}, {2, "Physical64"}, {5348, "PhysicalStorageBuffer64"}};
constexpr std::pair<uint32_t, const char *> kMemoryModels[] = {
    {0, "Simple"}, {1, "GLSL450"}, {2, "OpenCL"}, {3, "Vulkan"}};
// The built-ins OpenCL kernels use (SPIR-V spec, section 3.21).
constexpr std::pair<uint32_t, const char *> kBuiltins[] = {
    {24, "NumWorkgroups"},     {25, "WorkgroupSize"},      {26, "WorkgroupId"},
    {27, "LocalInvocationId"}, {28, "GlobalInvocationId"}, {29, "LocalInvocationIndex"},
    {30, "WorkDim"},           {31, "GlobalSize"},         {32, "EnqueuedWorkgroupSize"},
    {33, "GlobalOffset"},      {34, "GlobalLinearId"},     {36, "SubgroupSize"},
    {37, "SubgroupMaxSize"},   {38, "NumSubgroups"},       {39, "NumEnqueuedSubgroups"},
    {40, "SubgroupId"},        {41, "SubgroupLocalInvocationId"}};

} // namespace

std::string capability_name(uint32_t v) { return lookup(kCapabilities, v, "Capability"); }
std::string execution_model_name(uint32_t v) { return lookup(kExecutionModels, v, "ExecutionModel"); }
std::string execution_mode_name(uint32_t v) { return lookup(kExecutionModes, v, "ExecutionMode"); }
std::string addressing_model_name(uint32_t v) { return lookup(kAddressingModels, v, "AddressingModel"); }
std::string memory_model_name(uint32_t v) { return lookup(kMemoryModels, v, "MemoryModel"); }
std::string builtin_name(uint32_t v) { return lookup(kBuiltins, v, "BuiltIn"); }

std::string feature_names(uint32_t features) {
  constexpr std::pair<uint32_t, const char *> kFeatures[] = {
      {kFeatureFp64, "fp64 (Float64)"}, {kFeatureFp16, "fp16 (Float16)"}, {kFeatureInt64Atomics, "64-bit atomics (Int64Atomics)"},
      {kFeatureSubgroupShuffle, "sub-group shuffles (SubgroupShuffleINTEL)"}};
  std::string out;
  for (auto [bit, name] : kFeatures)
    if ((features & bit) != 0) out += (out.empty() ? "" : ", ") + std::string(name);
  return out.empty() ? "none" : out;
}

} // namespace zeal::module_linker
