// The CPU the compiler generates code for: ZEAL_CPU_TARGET, the host's checks, and target machines for it.
//
// One home for what the driver reads of the CPU it compiles for: the JIT, the
// ahead-of-time path, the vector forms of libmvec the vectoriser may call and
// the identity written into native binaries all ask here, so forcing a target
// changes every one of them together.
#include "cpu_driver/compiler/linking.hpp"

#include "common/settings.hpp"

#include <fmt/format.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/MC/MCSubtargetInfo.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/X86TargetParser.h>
#include <llvm/Target/TargetMachine.h>

#include <algorithm>
#include <mutex>

namespace zeal::cpu {
namespace {

// Features LLVM lists for a CPU that code generation never uses on its own in
// a kernel (system and privileged instructions, x87, tile and enclave
// extensions, reached only through explicit intrinsics). A host may lack them
// (a hypervisor hides pku or mwaitx) and still run everything compiled for
// that CPU, so they do not make a target unrunnable.
constexpr std::string_view system_features[] = {
    "x87",     "amx-bf16", "amx-int8", "amx-tile", "cldemote", "clflushopt", "clwb",     "clzero",
    "enqcmd",  "fsgsbase", "hreset",   "invpcid",  "kl",       "movdir64b",  "movdiri",  "mwaitx",
    "pconfig", "pku",      "ptwrite",  "rdpid",    "rdpru",    "rdrnd",      "rdseed",   "rtm",
    "serialize", "sgx",    "shstk",    "tsxldtrk", "uintr",    "waitpkg",    "wbnoinvd", "widekl",
    "xsave",   "xsavec",   "xsaveopt", "xsaves",   "lwp"};

bool system_feature(llvm::StringRef feature) {
  return std::find(std::begin(system_features), std::end(system_features), std::string_view(feature)) !=
         std::end(system_features);
}

std::string valid_names() {
  llvm::SmallVector<llvm::StringRef, 64> names;
  llvm::X86::fillValidCPUArchList(names, /*Only64Bit=*/true);
  std::string list = "native";
  for (llvm::StringRef name : names) list += ", " + name.str();
  return list;
}

Error target_error(std::string message) { return make_error(ZE_RESULT_ERROR_INVALID_ARGUMENT, std::move(message)); }

void initialise_llvm_target() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    // Inline assembly (SPV_INTEL_inline_assembly) is parsed when code is generated: without the parser
    // LLVM ends the process; with it, bad assembly is an error the build reports.
    llvm::InitializeNativeTargetAsmParser();
  });
}

} // namespace

std::string CpuTarget::id() const {
  return features.empty() ? fmt::format("{} {}", triple, cpu) : fmt::format("{} {} {}", triple, cpu, features);
}

Result<CpuTarget> find_cpu_target(std::string_view name) {
  llvm::StringMap<bool> host;
  const bool host_known = llvm::sys::getHostCPUFeatures(host);
  CpuTarget target;
  target.name = name;
  target.triple = llvm::sys::getProcessTriple();
  if (name == "native") {
    target.cpu = llvm::sys::getHostCPUName().str();
    // Every feature, on or off, as JITTargetMachineBuilder::detectHost() gives
    // them: the host's CPU name alone would miss what a newer CPU added to it
    // (LLVM 15 names a Zen 4 znver3, which has no AVX-512).
    std::vector<std::string> features;
    for (const auto &feature : host) features.push_back((feature.second ? "+" : "-") + feature.first().str());
    std::sort(features.begin(), features.end());
    for (const std::string &feature : features) target.features += (target.features.empty() ? "" : ",") + feature;
    return target;
  }
  if (name.empty() || llvm::X86::parseArchX86(llvm::StringRef(name.data(), name.size()), true) == llvm::X86::CK_None) {
    return target_error(fmt::format("ZEAL_CPU_TARGET '{}' is not an x86-64 CPU LLVM 15 knows; valid targets: {}", name,
                                    valid_names()));
  }
  target.cpu = name;
  llvm::SmallVector<llvm::StringRef, 64> features;
  llvm::X86::getFeaturesForCPU(target.cpu, features);
  for (llvm::StringRef feature : features) {
    if (system_feature(feature)) continue;
    auto found = host.find(feature);
    if (!host_known || found == host.end() || !found->second) target.missing.push_back(feature.str());
  }
  return target;
}

Status check_runnable(const CpuTarget &target) {
  if (target.missing.empty()) return {};
  std::string missing;
  for (const std::string &feature : target.missing) missing += (missing.empty() ? "" : ", ") + feature;
  return target_error(fmt::format("ZEAL_CPU_TARGET '{}' needs {}, which this CPU ({}) lacks: its code would stop on "
                                  "an illegal instruction; choose native or an older target such as x86-64-v2",
                                  target.name, missing, llvm::sys::getHostCPUName().str()));
}

const Result<CpuTarget> &process_cpu_target() {
  static const Result<CpuTarget> target = []() -> Result<CpuTarget> {
    auto found = find_cpu_target(zeal::settings().cpu_target);
    if (!found) return found;
    if (Status runnable = check_runnable(*found); !runnable) return std::move(runnable).error();
    return found;
  }();
  return target;
}

namespace detail {

llvm::orc::JITTargetMachineBuilder target_machine_builder(const CpuTarget &target, unsigned opt_level) {
  initialise_llvm_target();
  llvm::orc::JITTargetMachineBuilder builder{llvm::Triple(target.triple)};
  builder.setCPU(target.cpu);
  if (!target.features.empty()) {
    llvm::SubtargetFeatures features(target.features);
    builder.addFeatures(features.getFeatures());
  }
  builder.setCodeGenOptLevel(opt_level == 0 ? llvm::CodeGenOpt::None : llvm::CodeGenOpt::Default);
  // Imported variables through the GOT, wherever the JIT put their module.
  builder.setRelocationModel(llvm::Reloc::PIC_);
  return builder;
}

Result<std::unique_ptr<llvm::TargetMachine>> target_machine(const CpuTarget &target, unsigned opt_level) {
  auto machine = target_machine_builder(target, opt_level).createTargetMachine();
  if (!machine) {
    return build_failure(fmt::format("no target machine for CPU '{}': {}", target.cpu,
                                     llvm::toString(machine.takeError())));
  }
  return std::move(*machine);
}

Result<std::unique_ptr<llvm::TargetMachine>> host_machine(unsigned opt_level) {
  const Result<CpuTarget> &target = process_cpu_target();
  if (!target) return build_failure(target.error().message);
  return target_machine(*target, opt_level);
}

bool has_feature(const llvm::TargetMachine &machine, const char *feature) {
  return machine.getMCSubtargetInfo()->checkFeatures(std::string("+") + feature);
}

const std::string &host_target_id() {
  static const std::string id = [] {
    const Result<CpuTarget> &target = process_cpu_target();
    return target ? target->id() : std::string("no target: ") + target.error().message;
  }();
  return id;
}

} // namespace detail
} // namespace zeal::cpu
