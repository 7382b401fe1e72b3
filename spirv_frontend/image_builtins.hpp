// The OpenCL image built-ins (read_image*, write_image*, get_image_*, literal samplers) as IR, for every zeal driver
// (issues 49 and 50): images are pointers to their ImageDescriptor and samplers their SamplerBits
// (ze_driver/image_abi.hpp); reads and writes call the driver's image library (ze_driver/image_sampling.hpp) where
// their inline fast paths do not apply. What provides the library is the driver's: the CPU driver binds host
// functions, the CUDA driver links the library compiled for NVPTX.
#pragma once

#include <llvm/ADT/StringRef.h>

namespace llvm {
class Module;
class Type;
} // namespace llvm

namespace zeal::frontend {

// The names under which the driver provides the image library's two functions, both void:
// read(const ImageDescriptor *, uint32_t sampler, uint32_t flags, const void *coord, void *out) and
// write(const ImageDescriptor *, uint32_t flags, const int32_t *coord, const void *color), pointers as i8*.
struct ImageLibrary {
  const char *read = nullptr;
  const char *write = nullptr;
  // The address space the inline fast paths load and store pixels in (the module's numbering when the built-ins
  // are defined): 0 on the CPU, SPIR's global (1) on a GPU, where a generic access costs more and coalesces worse.
  unsigned pixel_space = 0;
  // Whether the RGBA8 unorm fast path divides by 255 as two fused multiply-adds (exact; a GPU's choice) instead of
  // a division (the CPU's: a fused multiply-add without the instruction is a library call).
  bool fma_unorm8 = false;
};

// Defines every image built-in `module` declares and calls (and __translate_sampler_initializer); a built-in whose
// signature is not OpenCL's stays a declaration, for the driver to refuse.
void define_image_builtins(llvm::Module &module, const ImageLibrary &library);

// The name of the opaque struct `type` points to (`opencl.image2d_ro_t`, `opencl.sampler_t`), else empty.
llvm::StringRef opaque_pointee(const llvm::Type *type);

} // namespace zeal::frontend
