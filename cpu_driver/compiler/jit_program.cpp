// The process-wide ORC JIT (one JITDylib per Program) and the Program over an object file in it.
#include "cpu_driver/compiler/linking.hpp"

#include "common/log.hpp"

#include <fmt/format.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>

#include <atomic>
#include <mutex>
#include <optional>

namespace zeal::cpu::detail {
namespace {

Error jit_failure(const std::string &what, llvm::Error error) {
  return build_failure(fmt::format("{}: {}", what, llvm::toString(std::move(error))));
}

// One LLJIT for the process, so that modules can see each other's exports
// through JITDylib link orders. Created on first use and never destroyed:
// queued launches may still run code during static destruction.
class JitEngine {
public:
  static Result<JitEngine *> instance() {
    static std::once_flag once;
    static JitEngine *engine = nullptr;
    static std::optional<Error> failure;
    std::call_once(once, [] {
      llvm::InitializeNativeTarget();
      llvm::InitializeNativeTargetAsmPrinter();
      auto created = create();
      if (created) engine = created.value().release();
      else failure = std::move(created).error();
    });
    if (engine == nullptr) return *failure;
    return engine;
  }

  // A JITDylib searching itself, then the C library symbols the back end may call.
  Result<llvm::orc::JITDylib *> create_dylib() {
    auto dylib = jit_->createJITDylib(fmt::format("zeal.module.{}", next_id_++));
    if (!dylib) return jit_failure("the JIT could not create a library for the module", dylib.takeError());
    dylib->setLinkOrder({{runtime_, llvm::orc::JITDylibLookupFlags::MatchExportedSymbolsOnly}});
    return &*dylib;
  }

  void remove(llvm::orc::JITDylib &dylib) {
    if (llvm::Error error = jit_->getExecutionSession().removeJITDylib(dylib)) {
      logger("zeal-cpu").warn("the JIT could not release a module: {}", llvm::toString(std::move(error)));
    }
  }

  llvm::orc::LLJIT &jit() { return *jit_; }

private:
  static Result<std::unique_ptr<JitEngine>> create() {
    auto machine = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!machine) return jit_failure("the host CPU could not be detected", machine.takeError());
    auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*machine)).create();
    if (!jit) return jit_failure("the JIT could not be created", jit.takeError());
    // Failures also come back from lookup(); the default reporter would print to stderr.
    (*jit)->getExecutionSession().setErrorReporter([](llvm::Error error) {
      logger("zeal-cpu").debug("JIT session error: {}", llvm::toString(std::move(error)));
    });
    auto engine = std::unique_ptr<JitEngine>(new JitEngine());
    engine->jit_ = std::move(*jit);
    auto runtime = engine->jit_->createJITDylib("zeal.runtime");
    if (!runtime) return jit_failure("the JIT could not create the runtime library", runtime.takeError());
    engine->runtime_ = &*runtime;
    llvm::orc::SymbolMap symbols;
    for (const RuntimeSymbol &symbol : runtime_symbols()) {
      symbols[engine->jit_->mangleAndIntern(symbol.name)] = llvm::JITEvaluatedSymbol(
          llvm::pointerToJITTargetAddress(symbol.address), llvm::JITSymbolFlags::Exported);
    }
    if (llvm::Error error = engine->runtime_->define(llvm::orc::absoluteSymbols(std::move(symbols)))) {
      return jit_failure("the JIT could not define the C library symbols", std::move(error));
    }
    return engine;
  }

  JitEngine() = default;
  std::unique_ptr<llvm::orc::LLJIT> jit_;
  llvm::orc::JITDylib *runtime_ = nullptr;
  std::atomic<uint64_t> next_id_ = 0;
};

class JitProgram final : public Program {
public:
  JitProgram(JitEngine &engine, llvm::orc::JITDylib &dylib, NativeContents contents, std::string log)
      : engine_(engine), dylib_(&dylib), contents_(std::move(contents)), log_(std::move(log)) {}
  ~JitProgram() override { engine_.remove(*dylib_); }

  std::span<const KernelInfo> kernels() const override { return contents_.kernels; }
  const std::string &build_log() const override { return log_; }
  const Linkage &linkage() const override { return contents_.linkage; }
  bool linked() const override { return linked_.load(std::memory_order_acquire); }

  void bind_imports(std::vector<std::shared_ptr<const Program>> providers) override {
    for (const auto &provider : providers) {
      // Only JitProgram implements Program.
      dylib_->addToLinkOrder(*static_cast<const JitProgram &>(*provider).dylib_,
                             llvm::orc::JITDylibLookupFlags::MatchExportedSymbolsOnly);
    }
    providers_.insert(providers_.end(), providers.begin(), providers.end()); // they must outlive our code
  }

  Status finish_link() override {
    for (KernelInfo &kernel : contents_.kernels) {
      auto address = engine_.jit().lookup(*dylib_, work_group_function_name(kernel.name));
      if (!address) return jit_failure(fmt::format("kernel '{}' could not be linked", kernel.name), address.takeError());
      kernel.run = address->toPtr<WorkGroupFn>();
    }
    linked_.store(true, std::memory_order_release);
    return {};
  }

  Result<void *> symbol_address(std::string_view name) const override {
    assert(linked() && "the caller checks that imports are bound first");
    auto address = engine_.jit().lookup(*dylib_, llvm::StringRef(name.data(), name.size()));
    if (!address) return jit_failure(fmt::format("symbol '{}' could not be resolved", name), address.takeError());
    return address->toPtr<void *>();
  }

  std::vector<uint8_t> native_binary() const override { return write_native_binary(contents_); }

private:
  JitEngine &engine_;
  llvm::orc::JITDylib *dylib_;
  NativeContents contents_;
  std::string log_;
  std::vector<std::shared_ptr<const Program>> providers_;
  std::atomic<bool> linked_ = false;
};

} // namespace

const std::string &host_target_id() {
  static const std::string id = [] {
    auto machine = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!machine) {
      llvm::consumeError(machine.takeError());
      return std::string("unknown host");
    }
    return fmt::format("{} {} {}", machine->getTargetTriple().str(), machine->getCPU(),
                       machine->getFeatures().getString());
  }();
  return id;
}

Status prepare_jit() {
  auto engine = JitEngine::instance();
  if (!engine) return std::move(engine).error();
  return {};
}

Result<std::unique_ptr<Program>> make_program(NativeContents contents, std::string log) {
  auto engine = JitEngine::instance();
  if (!engine) return std::move(engine).error();
  // Parsed once here so that a corrupt object fails the build instead of the first lookup.
  auto buffer = llvm::MemoryBuffer::getMemBufferCopy(contents.object, "zeal-module.o");
  if (auto object = llvm::object::ObjectFile::createObjectFile(buffer->getMemBufferRef()); !object) {
    return build_failure(fmt::format("the module's object code is not a valid object file: {}",
                                     llvm::toString(object.takeError())),
                         ZEAL_RESULT_ERROR_INVALID_BINARY);
  }
  auto dylib = (*engine)->create_dylib();
  if (!dylib) return std::move(dylib).error();
  auto program = std::make_unique<JitProgram>(**engine, **dylib, std::move(contents), std::move(log));
  if (llvm::Error error = (*engine)->jit().addObjectFile(**dylib, std::move(buffer))) {
    return jit_failure("the JIT refused the module's object code", std::move(error));
  }
  if (program->linkage().imports.empty()) {
    if (Status linked = program->finish_link(); !linked) return std::move(linked).error();
  }
  return std::unique_ptr<Program>(std::move(program));
}

} // namespace zeal::cpu::detail
