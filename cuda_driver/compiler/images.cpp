// Images on the CUDA back end: the front end's image built-ins (spirv_frontend/image_builtins.hpp) calling
// zeal_image_read and zeal_image_write, which the image library compiled for NVPTX at build time
// (device/image_library.cpp, embedded as bitcode) defines. Only modules that call them link it.
#include "cuda_driver/compiler/internal.hpp"
#include "spirv_frontend/image_builtins.hpp"

#include <llvm/Support/MemoryBuffer.h>

namespace zeal::cuda {

extern const unsigned char image_library_bitcode[];
extern const size_t image_library_bitcode_size;

namespace {
constexpr const char *kImageRead = "zeal_image_read";
constexpr const char *kImageWrite = "zeal_image_write";
} // namespace

void define_image_builtins(llvm::Module &module) {
  // Pixels are device memory: the fast paths load and store them as global memory (SPIR's 1, NVPTX's too); a
  // division is a dozen instructions, two fused multiply-adds are two.
  frontend::define_image_builtins(
      module, {.read = kImageRead, .write = kImageWrite, .pixel_space = 1, .fma_unorm8 = true});
}

Status link_image_library(llvm::Module &module) {
  if (module.getFunction(kImageRead) == nullptr && module.getFunction(kImageWrite) == nullptr) return {};
  llvm::StringRef bytes(reinterpret_cast<const char *>(image_library_bitcode), image_library_bitcode_size);
  if (Status linked = link_bitcode(module, llvm::MemoryBufferRef(bytes, "image_library.bc"),
                                   "the CUDA back end's image library");
      !linked)
    return linked;
  // The library's entries are the module's own now: internal, so that they inline and go when unused.
  for (const char *name : {kImageRead, kImageWrite})
    if (llvm::Function *f = module.getFunction(name); f != nullptr && !f->isDeclaration())
      f->setLinkage(llvm::GlobalValue::InternalLinkage);
  return {};
}

} // namespace zeal::cuda
