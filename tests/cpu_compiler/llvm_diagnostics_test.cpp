// LLVM's diagnostics in the CPU compiler: an error LLVM reports while generating code fails the build with its
// text, instead of LLVM's default handler printing it and ending the process.
#include "cpu_driver/compiler/internal.hpp"
#include "cpu_driver/compiler/linking.hpp"

#include <gtest/gtest.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace zeal::cpu::test {
namespace {

// A function whose inline assembly is no instruction: the assembler reports it through the context.
std::unique_ptr<llvm::Module> bad_assembly(llvm::LLVMContext &context, const llvm::TargetMachine &machine) {
  auto module = std::make_unique<llvm::Module>("bad_assembly", context);
  module->setDataLayout(machine.createDataLayout());
  module->setTargetTriple(machine.getTargetTriple().str());
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context), false);
  auto *function = llvm::Function::Create(type, llvm::GlobalValue::ExternalLinkage, "f", *module);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", function));
  b.CreateCall(llvm::InlineAsm::get(type, "zeal_not_an_instruction", "", true));
  b.CreateRetVoid();
  return module;
}

TEST(LlvmDiagnostics, AnErrorDuringCodeGenerationFailsTheBuildWithItsText) {
  auto machine = detail::host_machine(2);
  ASSERT_TRUE(machine.ok()) << machine.error().log;
  llvm::LLVMContext context;
  detail::log_llvm_diagnostics(context);
  std::unique_ptr<llvm::Module> module = bad_assembly(context, **machine);
  Result<std::string> object = detail::compile_object(*module, **machine, 2);
  ASSERT_FALSE(object.ok());
  EXPECT_NE(object.error().log.find("code generation for the native binary failed"), std::string::npos)
      << object.error().log;
  EXPECT_NE(object.error().log.find("zeal_not_an_instruction"), std::string::npos) << object.error().log;
  // The next build on this thread starts clean.
  llvm::LLVMContext fresh;
  detail::log_llvm_diagnostics(fresh);
  auto good = std::make_unique<llvm::Module>("good", fresh);
  good->setDataLayout((*machine)->createDataLayout());
  good->setTargetTriple((*machine)->getTargetTriple().str());
  EXPECT_TRUE(detail::compile_object(*good, **machine, 2).ok());
}

} // namespace
} // namespace zeal::cpu::test
