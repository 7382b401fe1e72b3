// Mangled OpenCL names: the base name of a built-in and what its parameters say, and the callers of a function.
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/IR/Instructions.h>

#include <algorithm>
#include <set>

namespace zeal::cuda {

namespace {

// The length-prefixed name after `_Z`, and where the parameters start.
bool split_mangled(llvm::StringRef mangled, llvm::StringRef &base, llvm::StringRef &parameters) {
  llvm::StringRef rest = mangled;
  if (!rest.consume_front("_Z")) return false;
  size_t digits = 0;
  while (digits < rest.size() && rest[digits] >= '0' && rest[digits] <= '9') ++digits;
  unsigned length = 0;
  if (digits == 0 || rest.substr(0, digits).getAsInteger(10, length)) return false;
  rest = rest.drop_front(digits);
  if (rest.size() < length) return false;
  base = rest.take_front(length);
  parameters = rest.drop_front(length);
  return true;
}

} // namespace

llvm::StringRef opencl_base_name(llvm::StringRef mangled) {
  llvm::StringRef base, parameters;
  return split_mangled(mangled, base, parameters) ? base : mangled;
}

llvm::StringRef mangled_parameters(llvm::StringRef mangled) {
  llvm::StringRef base, parameters;
  return split_mangled(mangled, base, parameters) ? parameters : llvm::StringRef();
}

bool last_parameter_unsigned(llvm::StringRef mangled) {
  llvm::StringRef parameters = mangled_parameters(mangled);
  if (parameters.empty()) return false;
  // A substitution (S_, S0_) refers to an earlier type: the one the vector or pointer before it names.
  char last = parameters.back();
  if (last == '_' && parameters.size() >= 2) {
    size_t letter = parameters.find_last_of("ahstijlm");
    return letter != llvm::StringRef::npos && std::string("htjm").find(parameters[letter]) != std::string::npos;
  }
  return last == 'h' || last == 't' || last == 'j' || last == 'm';
}

bool first_parameter_unsigned(llvm::StringRef mangled) {
  llvm::StringRef parameters = mangled_parameters(mangled);
  if (parameters.consume_front("Dv")) parameters = parameters.drop_until([](char c) { return c == '_'; }).drop_front();
  return !parameters.empty() && std::string("htjm").find(parameters.front()) != std::string::npos;
}

std::vector<std::string> kernels_reaching(const llvm::Function &function, const std::vector<PtxKernel> &kernels) {
  std::set<std::string> names;
  for (const PtxKernel &kernel : kernels) names.insert(kernel.name);
  std::set<const llvm::Function *> seen{&function};
  std::vector<const llvm::Function *> work{&function};
  std::vector<std::string> found;
  while (!work.empty()) {
    const llvm::Function *current = work.back();
    work.pop_back();
    if (names.count(current->getName().str()) != 0) found.push_back(current->getName().str());
    for (const llvm::User *user : current->users()) {
      const auto *call = llvm::dyn_cast<llvm::CallBase>(user);
      if (call == nullptr) continue;
      const llvm::Function *caller = call->getFunction();
      if (seen.insert(caller).second) work.push_back(caller);
    }
  }
  std::sort(found.begin(), found.end());
  return found;
}

} // namespace zeal::cuda

namespace zeal::cuda {

std::string who_calls(const llvm::Function &callee, const std::vector<PtxKernel> &kernels) {
  std::string shown = opencl_base_name(callee.getName()).str();
  for (const llvm::User *user : callee.users()) {
    const auto *call = llvm::dyn_cast<llvm::CallBase>(user);
    if (call == nullptr) continue;
    const llvm::Function &caller = *call->getFunction();
    std::vector<std::string> reaching = kernels_reaching(caller, kernels);
    if (!reaching.empty()) return "kernel '" + reaching.front() + "' calls '" + shown + "'";
    return "function '" + caller.getName().str() + "' calls '" + shown + "'";
  }
  return "the module declares '" + shown + "'";
}

} // namespace zeal::cuda
