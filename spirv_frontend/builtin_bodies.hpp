// What the built-in generators of zeal's back ends share over the IR the front end reads: the base of a mangled
// OpenCL name, and a built-in's declaration turned into the body a back end writes.
#pragma once

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/IRBuilder.h>

namespace llvm {
class Function;
} // namespace llvm

namespace zeal::frontend {

// "_Z13get_global_idj" -> "get_global_id"; names that are not mangled come back unchanged.
llvm::StringRef opencl_base_name(llvm::StringRef mangled);

// Turns a built-in's declaration into an internal, always-inlined definition (the translator's attributes describe
// the OpenCL built-in, not the body: the optimiser infers them again) and returns a builder at its entry block.
llvm::IRBuilder<> begin_builtin_body(llvm::Function &function);

} // namespace zeal::frontend
