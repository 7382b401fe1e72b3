// What the CUDA back end refuses, by name, before it rewrites a module: image built-ins it has no body for, Intel's
// 2-D block I/O and matrix instructions. Each refusal is a sentence naming the kernel (or function) and the call.
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include <fmt/format.h>

#include <optional>

namespace zeal::cuda {

namespace {

// Why a built-in cannot be compiled for NVPTX, or nothing.
std::optional<std::string> unsupported_reason(llvm::StringRef name) {
  llvm::StringRef base = opencl_base_name(name);
  // The image built-ins with OpenCL's signatures have bodies by now (images.cpp); these are the others.
  if (base.startswith("read_image") || base.startswith("write_image") || base.startswith("get_image_") ||
      base == "__translate_sampler_initializer") {
    return std::string("this image built-in's signature is not OpenCL's");
  }
  if (base.startswith("__spirv_Image") || base.startswith("__spirv_SampledImage")) {
    return std::string("SPIR-V's image instructions in this form are not supported");
  }
  if (base.startswith("__zeal_2d_block_")) return std::string("Intel's 2-D block I/O is not supported");
  if (base.startswith("__zeal_matrix_mad_") || (base.startswith("intel_sub_group_") && base.contains("matrix_mad"))) {
    return std::string("Intel's sub-group matrix products are not supported");
  }
  if (base.startswith("intel_sub_group_block_") && mangled_parameters(name).contains("ocl_image")) {
    return std::string("Intel's sub-group block reads and writes of images are not supported");
  }
  return std::nullopt;
}


// The first unsupported call `kernel` reaches through the module's functions, as "calls 'read_imagef': images and
// samplers are not supported"; empty when there is none.
std::string unsupported_reach(const llvm::Function &kernel) {
  std::vector<const llvm::Function *> todo{&kernel};
  std::set<const llvm::Function *> seen{&kernel};
  while (!todo.empty()) {
    const llvm::Function *f = todo.back();
    todo.pop_back();
    for (const llvm::BasicBlock &block : *f)
      for (const llvm::Instruction &instruction : block) {
        const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
        const llvm::Function *callee = call != nullptr ? call->getCalledFunction() : nullptr;
        if (callee == nullptr || !seen.insert(callee).second) continue;
        if (callee->isDeclaration()) {
          if (auto reason = unsupported_reason(callee->getName()))
            return fmt::format("calls '{}': {} by the CUDA back end", callee->getName().str(), *reason);
        } else {
          todo.push_back(callee);
        }
      }
  }
  return {};
}

// Removes functions nothing calls any more that are neither kernels nor exported, until none is left.
void drop_unreached(llvm::Module &module, const std::vector<PtxKernel> &kernels, const std::set<std::string> &exports) {
  std::set<std::string> kept(exports);
  for (const PtxKernel &k : kernels) kept.insert(k.name);
  for (bool dropped = true; dropped;) {
    dropped = false;
    for (llvm::Function &f : llvm::make_early_inc_range(module)) {
      if (!f.use_empty() || kept.count(f.getName().str()) != 0) continue;
      f.eraseFromParent();
      dropped = true;
    }
  }
}

} // namespace

std::vector<PtxKernel> refuse_kernels(llvm::Module &module, std::vector<PtxKernel> &kernels,
                                      const std::set<std::string> &exports) {
  std::vector<PtxKernel> runnable;
  for (PtxKernel &kernel : kernels) {
    llvm::Function *function = module.getFunction(kernel.name);
    if (std::string reach = unsupported_reach(*function); !reach.empty()) {
      kernel.refusal = fmt::format("kernel '{}' {}", kernel.name, reach);
    }
    if (kernel.refusal.empty()) {
      runnable.push_back(kernel);
    } else if (function->use_empty()) {
      function->eraseFromParent();
    } else {
      function->deleteBody(); // another kernel calls it: that one reaches the same call and goes too
    }
  }
  drop_unreached(module, runnable, exports);
  return runnable;
}

Status refuse_unsupported(llvm::Module &module, const std::vector<PtxKernel> &kernels) {
  for (const llvm::Function &function : module) {
    if (!function.isDeclaration() || function.use_empty()) continue;
    if (auto reason = unsupported_reason(function.getName())) {
      return build_failure(fmt::format("{}: {} by the CUDA back end", who_calls(function, kernels), *reason));
    }
  }
  for (const llvm::Function &function : module) {
    for (const llvm::BasicBlock &block : function) {
      for (const llvm::Instruction &instruction : block) {
        const auto *call = llvm::dyn_cast<llvm::CallBase>(&instruction);
        if (call != nullptr && call->isInlineAsm()) {
          return build_failure(fmt::format("function '{}' holds inline assembly (SPV_INTEL_inline_assembly), which "
                                           "the CUDA back end does not support", function.getName().str()));
        }
      }
    }
  }
  if (!module.aliases().empty() || !module.ifuncs().empty()) {
    return build_failure("the module defines aliases of globals, which the CUDA back end does not support");
  }
  return {};
}

} // namespace zeal::cuda
