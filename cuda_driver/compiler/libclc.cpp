// libclc's OpenCL built-ins for NVPTX (Debian's libclc-15, nvptx64--nvidiacl.bc), read once per process from
// ZEAL_CUDA_LIBCLC or the path found at configure time, and linked lazily: only what a module calls is materialised
// (link_bitcode, which the image library's link uses too).
#include "cuda_driver/compiler/internal.hpp"

#include "common/settings.hpp"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/MemoryBuffer.h>

#include <fmt/format.h>

namespace zeal::cuda {

namespace {

struct Library {
  std::string path;
  std::unique_ptr<llvm::MemoryBuffer> bitcode; // null when it could not be read
  std::string error;
};

const Library &library() {
  static const Library loaded = [] {
    Library library;
    const std::string &configured = settings().cuda_libclc;
    library.path = configured.empty() ? std::string(ZEAL_CUDA_LIBCLC_PATH) : configured;
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file = llvm::MemoryBuffer::getFile(library.path);
    if (file) library.bitcode = std::move(*file);
    else library.error = file.getError().message();
    return library;
  }();
  return loaded;
}

} // namespace

Status link_bitcode(llvm::Module &module, llvm::MemoryBufferRef bitcode, const std::string &what) {
  llvm::Expected<std::unique_ptr<llvm::Module>> lazy = llvm::getLazyBitcodeModule(bitcode, module.getContext());
  if (!lazy) return build_failure(fmt::format("{} cannot be read: {}", what, llvm::toString(lazy.takeError())));
  (*lazy)->setTargetTriple(module.getTargetTriple());
  (*lazy)->setDataLayout(module.getDataLayout());
  if (llvm::Linker::linkModules(module, std::move(*lazy), llvm::Linker::LinkOnlyNeeded))
    return build_failure(fmt::format("linking {} failed", what));
  return {};
}

Status link_libclc(llvm::Module &module) {
  const Library &clc = library();
  if (clc.bitcode == nullptr) {
    return build_failure(fmt::format("the CUDA back end cannot read libclc's NVPTX built-ins at {}: {} (set "
                                     "ZEAL_CUDA_LIBCLC to the file nvptx64--nvidiacl.bc)", clc.path, clc.error));
  }
  if (Status linked = link_bitcode(module, clc.bitcode->getMemBufferRef(),
                                   fmt::format("libclc's NVPTX built-ins at {}", clc.path));
      !linked)
    return linked;
  // libclc was built for sm_20 and PTX 4.2; the module's target decides, and inlining needs equal attributes.
  for (llvm::Function &function : module) {
    function.removeFnAttr("target-cpu");
    function.removeFnAttr("target-features");
  }
  return {};
}

} // namespace zeal::cuda
