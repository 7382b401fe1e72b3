// SPIR-V that real compilers emit and LLVMSPIRVLib 15 misreads or aborts on, rewritten into equivalent SPIR-V it reads.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace zeal::frontend {

// Word-level rewrites, each of a form a real producer emits (the corpus in
// ../shared/spirv-corpus and issue 19 name them), applied before the
// translator guard so the guard checks what the translator will read:
// - `FuncParamAttr NoReadWrite` (attribute 7, newer than the translator) is
//   dropped: it is an optimisation hint;
// - debug information (OpenCL.DebugInfo.100 and the NonSemantic sets) is
//   dropped when the translator cannot take it (a DebugSource without its
//   Text operand, as chipStar and Triton emit, trips an assertion): debug
//   information never decides whether a module runs; a note says so;
// - `OpConstantNull` of a scalar (spirv-link output; the translator asserts)
//   becomes the scalar's zero;
// - OpenCL built-in variables read one element at a time, through
//   `OpBitcast` to a scalar pointer or a constant-index `Op*AccessChain`, as
//   2025 DPC++ emits them, become a whole load and an OpCompositeExtract;
// - a SPIR-V 1.5 or 1.6 module that uses nothing the translator lacks is
//   read as 1.4 (the `Nontemporal` memory-operand hint is dropped); one that
//   does is refused by the guard with the feature's name;
// - OpenCL C++'s cl::spec_constant<T, ID> variables (no SpecId: the id is in
//   their type's name) get an OpSpecConstant decorated SpecId ID, so that
//   ze_module_constants_t specialises them as on Intel's driver;
// - a function listing a block before one that dominates it (older
//   llvm-spirv) gets its blocks in dominance order (block_order.hpp).
// A module that needs none of this, or is too malformed to walk (the guard
// that follows says how), is returned as it is: `spirv` stays empty.
struct Legalized {
  std::vector<uint8_t> spirv;
  std::vector<std::string> notes; // one line each, for the build log

  std::span<const uint8_t> module_or(std::span<const uint8_t> input) const {
    return spirv.empty() ? input : std::span<const uint8_t>(spirv);
  }
};
Legalized legalize_for_translator(std::span<const uint8_t> spirv);

} // namespace zeal::frontend
