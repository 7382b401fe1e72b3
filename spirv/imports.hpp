// Which imports a driver provides itself rather than another module: the one statement of it, read by
// module_linker (what an image depends on) and by the drivers' linkage scans (what dynamic linking must find).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace zeal::spirv {

// SPIR-V's own built-ins by name (`__spirv_*`, as LLVMSPIRVLib names SPIR-V instructions and built-in variables):
// every driver resolves them while it reads the module, so they are never imports of a link. (Variables
// decorated BuiltIn are built-ins whatever their name; the callers see the decoration.)
bool is_spirv_builtin_name(std::string_view name);

// Functions the Level Zero drivers zeal supports provide as their own library, by name: Intel's GPU compiler's
// built-ins (`__builtin_spirv_*`, which oneCCL's kernels import; the sub-group matrix products of
// cl_intel_subgroup_matrix_multiply_accumulate and its tf32 extension, `intel_sub_group_<a>_<b>_matrix_mad_k<K>`,
// which Triton's XPU kernels import by their mangled names) and DPC++'s device assert (`__devicelib_assert_fail`,
// native on Intel's driver; Triton imports it). A driver that lacks one of them
// says so when the module is built or linked: a CPU driver provides what it implements (its host functions,
// the built-ins its lowering defines) and leaves the rest to dynamic linking.
bool is_driver_library_name(std::string_view name);
// The sub-group matrix products among them (mangled or not; the split forms, which take two sub-groups, are not).
bool is_igc_matrix_builtin(std::string_view name);

// An import no other module has to provide: either of the above.
inline bool driver_provides(std::string_view name) {
  return is_spirv_builtin_name(name) || is_driver_library_name(name);
}

// The runtime library of the compiler that made a module, when an import's name says whose it is: such imports
// are unresolved until that compiler's runtime links its library in (chipStar links `__chip_*` when the program
// runs). A phrase naming the library, or empty for a name no producer's library claims.
std::string_view producer_library(std::string_view name);

// For a sentence about an unresolved import: " (it is one of <library>)", or empty.
std::string producer_library_clause(std::string_view name);

// One sentence for a build log naming, for each producer's library, the imports among `imports` that it provides
// and that its runtime links; empty when none of the names is claimed.
std::string producer_library_note(std::span<const std::string> imports);

} // namespace zeal::spirv
