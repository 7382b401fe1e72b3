// The process-wide ORC JIT (one JITDylib per Program) and the Program over an object file in it.
#include "cpu_driver/compiler/linking.hpp"

#include "common/log.hpp"
#include "cpu_driver/compiler/backend/code_cache.hpp"

#include <fmt/format.h>
#include <llvm/ExecutionEngine/Orc/CompileUtils.h>
#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/Constants.h>
#include <llvm/Object/ObjectFile.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

namespace zeal::cpu::detail {
namespace {

Error jit_failure(const std::string &what, llvm::Error error) {
  return build_failure(fmt::format("{}: {}", what, llvm::toString(std::move(error))));
}

constexpr const char *opt_level_flag = "zeal.opt_level";

void set_opt_level(llvm::Module &module, unsigned level) {
  module.addModuleFlag(llvm::Module::Warning, opt_level_flag, level);
}

unsigned opt_level(const llvm::Module &module) {
  auto *level = llvm::mdconst::extract_or_null<llvm::ConstantInt>(module.getModuleFlag(opt_level_flag));
  return level != nullptr ? unsigned(level->getZExtValue()) : 2;
}

// The JIT's compiler: a kernel's module is optimised and compiled when first
// looked up, on the looking-up thread, unless the kernel code cache has its
// object; what it compiles goes to the cache in the background.
class KernelCompiler final : public llvm::orc::IRCompileLayer::IRCompiler {
public:
  explicit KernelCompiler(const llvm::orc::JITTargetMachineBuilder &builder)
      : IRCompiler(llvm::orc::irManglingOptionsFromTargetOptions(builder.getOptions())) {}

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> operator()(llvm::Module &ir) override {
    unsigned level = opt_level(ir);
    CodeCache *cache = CodeCache::instance();
    std::string key;
    if (cache != nullptr) {
      key = CodeCache::key_of(ir, level);
      if (auto object = cache->load(key)) return object;
    }
    // A target machine per compilation: kernels compile on several threads at once.
    auto machine = host_machine(level);
    if (!machine) return llvm::make_error<llvm::StringError>(machine.error().message, llvm::inconvertibleErrorCode());
    auto object = compile_object(ir, **machine, level);
    if (!object) return llvm::make_error<llvm::StringError>(object.error().message, llvm::inconvertibleErrorCode());
    spdlog::logger &log = logger("zeal-cpu");
    if (log.should_log(spdlog::level::trace)) {
      std::string text;
      llvm::raw_string_ostream out(text);
      ir.print(out, nullptr);
      log.trace("optimised module:\n{}", out.str());
    }
    auto buffer = llvm::MemoryBuffer::getMemBufferCopy(*object, "zeal-kernel.o");
    if (cache != nullptr) cache->store_later(std::move(key), std::move(*object));
    return buffer;
  }
};

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
    const Result<CpuTarget> &target = process_cpu_target();
    if (!target) return build_failure(target.error().message);
    // Kernels compile on the threads that first launch them, several at once.
    auto jit = llvm::orc::LLJITBuilder()
                   .setJITTargetMachineBuilder(target_machine_builder(*target, 2))
                   .setCompileFunctionCreator([](llvm::orc::JITTargetMachineBuilder builder)
                                                  -> llvm::Expected<std::unique_ptr<llvm::orc::IRCompileLayer::IRCompiler>> {
                     return std::make_unique<KernelCompiler>(builder);
                   })
                   .create();
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
      : engine_(engine), dylib_(&dylib), contents_(std::move(contents)), log_(std::move(log)),
        entries_(new std::atomic<WorkGroupFn>[contents_.kernels.size()]) {
    for (size_t i = 0; i < contents_.kernels.size(); ++i) entries_[i].store(nullptr, std::memory_order_relaxed);
  }
  ~JitProgram() override {
    engine_.remove(*dylib_);
    if (whole_) {
      auto lock = context_.getLock();
      whole_.reset();
    }
  }

  // For a program built from SPIR-V: the lowered module, kept for native_binary().
  void keep_lowered(llvm::orc::ThreadSafeContext context, std::unique_ptr<llvm::Module> whole, unsigned opt_level) {
    context_ = std::move(context);
    whole_ = std::move(whole);
    opt_level_ = opt_level;
  }

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

  void refuse_at_link(const KernelInfo &kernel, std::string why) override {
    assert(!linked() && "refusals are made before the link finishes, and read after");
    link_refusals_[kernel.name] = std::move(why);
  }
  std::string_view link_refusal(const KernelInfo &kernel) const override {
    assert(linked() && "read once linked");
    auto found = link_refusals_.find(kernel.name);
    return found == link_refusals_.end() ? std::string_view() : std::string_view(found->second);
  }

  void trap_at_link(std::string exported_function, std::string why) override {
    assert(!linked() && "traps are found before the link finishes, and read after");
    link_traps_[std::move(exported_function)] = std::move(why);
  }
  const LinkTraps &link_traps() const override {
    assert(linked() && "read once linked");
    return link_traps_;
  }

  // Kernels compiled ahead (native binaries) are resolved here, which also
  // binds their imports; kernels still to compile bind theirs in entry().
  Status finish_link() override {
    if (!whole_) {
      for (const KernelInfo &kernel : contents_.kernels) {
        if (auto resolved = lookup_entry(kernel); !resolved) return std::move(resolved).error();
      }
    }
    linked_.store(true, std::memory_order_release);
    return {};
  }

  Result<WorkGroupFn> entry(const KernelInfo &kernel) const override {
    // zeKernelCreate refuses it first; its body is a trap, which must never run.
    if (!kernel.refusal.empty()) return make_error(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, kernel.refusal);
    assert(linked() && "the caller checks that imports are bound first");
    if (std::string_view why = link_refusal(kernel); !why.empty())
      return make_error(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, std::string(why));
    return lookup_entry(kernel);
  }

  Result<void *> symbol_address(std::string_view name) const override {
    assert(linked() && "the caller checks that imports are bound first");
    auto address = engine_.jit().lookup(*dylib_, llvm::StringRef(name.data(), name.size()));
    if (!address) return jit_failure(fmt::format("symbol '{}' could not be resolved", name), address.takeError());
    return address->toPtr<void *>();
  }

  Result<std::vector<uint8_t>> native_binary() const override {
    std::lock_guard guard(native_mutex_);
    if (contents_.object.empty()) {
      auto lock = context_.getLock(); // the JIT may be compiling a kernel cut from the same context
      auto machine = host_machine(opt_level_);
      if (!machine) return std::move(machine).error();
      auto object = compile_object(*whole_, **machine, opt_level_);
      if (!object) return std::move(object).error();
      contents_.object = std::move(*object);
      whole_.reset(); // the kernels the JIT compiles were cut from it before
    }
    return write_native_binary(contents_);
  }

private:
  Result<WorkGroupFn> lookup_entry(const KernelInfo &kernel) const {
    size_t index = size_t(&kernel - contents_.kernels.data());
    assert(index < contents_.kernels.size() && "the kernel is one of this program's");
    if (WorkGroupFn known = entries_[index].load(std::memory_order_acquire)) return known;
    // Concurrent first calls wait in the JIT for one compilation.
    auto address = engine_.jit().lookup(*dylib_, work_group_function_name(kernel.name));
    if (!address) {
      return jit_failure(fmt::format("kernel '{}' could not be compiled or linked", kernel.name), address.takeError());
    }
    auto function = address->toPtr<WorkGroupFn>();
    entries_[index].store(function, std::memory_order_release);
    return function;
  }

  JitEngine &engine_;
  llvm::orc::JITDylib *dylib_;
  mutable std::mutex native_mutex_;
  mutable NativeContents contents_; // the object is filled in by the first native_binary() of a lazy program
  std::string log_;
  std::unique_ptr<std::atomic<WorkGroupFn>[]> entries_;
  std::vector<std::shared_ptr<const Program>> providers_;
  std::atomic<bool> linked_ = false;
  // Kernels a link refused (refuse_at_link): written before linked_ is set, read after.
  std::map<std::string, std::string, std::less<>> link_refusals_;
  LinkTraps link_traps_; // likewise (trap_at_link)
  llvm::orc::ThreadSafeContext context_; // before whole_: it must outlive it
  mutable std::unique_ptr<llvm::Module> whole_;
  unsigned opt_level_ = 2;
};

} // namespace

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
    return malformed_native_binary(fmt::format("the module's object code is not a valid object file: {}",
                                               llvm::toString(object.takeError())));
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

Result<std::unique_ptr<Program>> make_lazy_program(NativeContents contents, LoweredModule lowered, std::string log) {
  auto engine = JitEngine::instance();
  if (!engine) return std::move(engine).error();
  auto dylib = (*engine)->create_dylib();
  if (!dylib) return std::move(dylib).error();
  SplitModule split = split_by_kernel(*lowered.module, contents.kernels);
  llvm::orc::ThreadSafeContext context(std::move(lowered.context));
  auto program = std::make_unique<JitProgram>(**engine, **dylib, std::move(contents), std::move(log));
  if (split.shared) split.kernels.push_back(std::move(split.shared));
  for (std::unique_ptr<llvm::Module> &module : split.kernels) {
    set_opt_level(*module, lowered.opt_level);
    // Added, not compiled: the JIT materialises a module at the first lookup of one of its symbols.
    if (llvm::Error error = (*engine)->jit().addIRModule(**dylib, {std::move(module), context})) {
      return jit_failure("the JIT refused the module", std::move(error));
    }
  }
  program->keep_lowered(context, std::move(lowered.module), lowered.opt_level);
  if (program->linkage().imports.empty()) {
    if (Status linked = program->finish_link(); !linked) return std::move(linked).error();
  }
  return std::unique_ptr<Program>(std::move(program));
}

} // namespace zeal::cpu::detail
