// The device's joint module (joint_module.hpp).
#include "cuda_driver/runtime/joint_module.hpp"
#include "cuda_driver/runtime/cuda_call.hpp"
#include "cuda_driver/runtime/module.hpp"

#include "common/log.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>

namespace zeal::cuda {
namespace {

// ".version 7.0\n.target sm_80\n.address_size 64\n", as the PTX text says, for the table's own PTX.
std::string ptx_header_of(const std::string &ptx) {
  static const std::regex version(R"(\.version\s+[0-9.]+)"), target(R"(\.target\s+\w+)");
  std::smatch v, t;
  std::string header;
  header += std::regex_search(ptx, v, version) ? v.str() : std::string(".version 7.0");
  header += "\n";
  header += std::regex_search(ptx, t, target) ? t.str() : std::string(".target sm_80");
  return header + "\n.address_size 64\n";
}

// Copies `bytes` between two device addresses, or from one to the host, on the legacy stream (which the driver's
// streams do not wait for), and waits for it.
ze_result_t copy_now(const Device &device, CUdeviceptr to, CUdeviceptr from, size_t bytes) {
  ze_result_t r = checked(device.api().cuMemcpyAsync(to, from, bytes, nullptr), "cuMemcpyAsync");
  return r == ZE_RESULT_SUCCESS ? checked(device.api().cuStreamSynchronize(nullptr), "cuStreamSynchronize") : r;
}

} // namespace

std::string JointModule::renamed(const std::string &name, unsigned instance) {
  return fmt::format("{}__zm{}", name, instance);
}

JointModule::~JointModule() {
  if (current_ == nullptr) return;
  device_.make_current();
  for (CUmodule m : earlier_) device_.api().cuModuleUnload(m);
  device_.api().cuModuleUnload(current_);
}

const JointModule::Member *JointModule::find(const Module &module) const {
  for (const Member &m : members_)
    if (m.module == &module) return &m;
  return nullptr;
}

ze_result_t JointModule::join(Module &module, std::string &log) {
  std::lock_guard lock(mutex_);
  std::vector<Module *> joining;
  std::set<const Module *> seen;
  std::vector<Module *> pending{&module};
  while (!pending.empty()) {
    Module *m = pending.back();
    pending.pop_back();
    if (!seen.insert(m).second || find(*m) != nullptr) continue;
    joining.push_back(m);
    for (const std::string &name : m->symbols().imports) {
      auto source = m->import_sources().find(name);
      if (source == m->import_sources().end()) {
        log += fmt::format("the module imports '{}' and was not linked with a module that exports it "
                           "(zeModuleDynamicLink)\n", name);
        return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
      }
      pending.push_back(source->second);
    }
  }
  if (joining.empty()) return ZE_RESULT_SUCCESS;
  const size_t before = members_.size();
  for (Module *m : joining) members_.push_back({m, next_instance_++, {}, m->symbols().variables});
  // Each joining module's PTX with its own names, and its imports' names as their exporters (members now) have them.
  for (size_t i = before; i < members_.size(); ++i) {
    Member &member = members_[i];
    const Module &m = *member.module;
    std::map<std::string, std::string> names;
    for (const KernelFacts &k : m.kernels()) names[k.kernel.name] = renamed(k.kernel.name, member.instance);
    for (const std::string &name : m.symbols().exports) names[name] = renamed(name, member.instance);
    for (const std::string &name : m.symbols().imports)
      names[name] = renamed(name, find(*m.import_sources().at(name))->instance);
    member.ptx = rename_ptx_symbols(m.native(), names);
  }
  ze_result_t r = load(log);
  if (r != ZE_RESULT_SUCCESS) {
    members_.resize(before);
    return r;
  }
  for (Module *m : joining) m->set_joined();
  return ZE_RESULT_SUCCESS;
}

ze_result_t JointModule::load(std::string &log) {
  device_.make_current();
  const DriverApi &api = device_.api();
  const std::string table = fmt::format("{}.visible .global .align 8 .u64 {}[{}];\n",
                                        ptx_header_of(members_.front().ptx), ptx_function_table,
                                        ptx_function_table_entries);
  std::vector<PtxInput> inputs{{&table, "joint_table.ptx"}};
  for (const Member &member : members_) inputs.push_back({&member.ptx, fmt::format("member{}.ptx", member.instance)});
  CUmodule loaded = nullptr;
  const std::string what = fmt::format(" to make the joint module of {} modules", members_.size());
  ze_result_t linked = link_ptx(device_, inputs, what, log, [&](const void *image) {
    return load_cuda_module(device_, image, "the joint module", loaded, log);
  });
  if (linked != ZE_RESULT_SUCCESS) return linked;
  if (ze_result_t r = fill_table(loaded, log); r != ZE_RESULT_SUCCESS) {
    api.cuModuleUnload(loaded);
    return r;
  }
  carry_variables(loaded);
  if (current_ != nullptr) earlier_.push_back(current_);
  current_ = loaded;
  const uint64_t generation = generation_.fetch_add(1, std::memory_order_acq_rel) + 1;
  std::string who;
  for (const Member &m : members_)
    who += fmt::format("{}{}{}", who.empty() ? "" : ", ", m.instance, m.module == nullptr ? " (destroyed)" : "");
  zeal::logger("zeal-cuda").debug("the joint module's load {} holds modules {}, {} function pointers", generation,
                                  who, pointers_.size() - 1);
  return ZE_RESULT_SUCCESS;
}

ze_result_t JointModule::enter(CUmodule module, CUdeviceptr table, size_t id, const Pointer &pointer) {
  const DriverApi &api = device_.api();
  CUdeviceptr address = 0;
  size_t size = 0;
  const std::string global = renamed(ptx_function_address_prefix + pointer.name, pointer.instance);
  CUresult r = api.cuModuleGetGlobal_v2(&address, &size, module, global.c_str());
  if (r == CUDA_ERROR_NOT_FOUND || (r == CUDA_SUCCESS && size != sizeof(uint64_t)))
    return ZE_RESULT_ERROR_INVALID_FUNCTION_NAME;
  if (ze_result_t result = checked(r, "cuModuleGetGlobal_v2"); result != ZE_RESULT_SUCCESS) return result;
  return checked(api.cuMemcpyAsync(table + id * sizeof(uint64_t), address, sizeof(uint64_t), nullptr),
                 "cuMemcpyAsync");
}

ze_result_t JointModule::table_of(CUmodule module, CUdeviceptr &table) const {
  size_t bytes = 0;
  return checked(device_.api().cuModuleGetGlobal_v2(&table, &bytes, module, ptx_function_table),
                 "cuModuleGetGlobal_v2");
}

// Entries of pointers whose code went with the last member are 0.
ze_result_t JointModule::fill_table(CUmodule module, std::string &log) {
  CUdeviceptr table = 0;
  if (ze_result_t r = table_of(module, table); r != ZE_RESULT_SUCCESS) return r;
  if (ze_result_t r = checked(device_.api().cuMemsetD32Async(table, 0, 2 * pointers_.size(), nullptr),
                              "cuMemsetD32Async");
      r != ZE_RESULT_SUCCESS)
    return r;
  for (size_t id = 1; id < pointers_.size(); ++id) {
    const Pointer &p = pointers_[id];
    if (std::none_of(members_.begin(), members_.end(), [&](const Member &m) { return m.instance == p.instance; }))
      continue;
    if (ze_result_t r = enter(module, table, id, p); r == ZE_RESULT_ERROR_INVALID_FUNCTION_NAME) {
      log += fmt::format("the joint module lacks the address of '{}'\n", p.name);
      return ZE_RESULT_ERROR_MODULE_LINK_FAILURE;
    } else if (r != ZE_RESULT_SUCCESS) {
      return r;
    }
  }
  return checked(device_.api().cuStreamSynchronize(nullptr), "cuStreamSynchronize");
}

void JointModule::carry_variables(CUmodule to) {
  const DriverApi &api = device_.api();
  for (const Member &member : members_) {
    // From the load it was in, or, joining now, from the module's own CUDA module if it had one.
    const bool joining = member.module != nullptr && !member.module->joined();
    CUmodule from = joining ? member.module->cu_module() : current_;
    if (from == nullptr) continue;
    for (const std::string &name : member.variables) {
      if (name.rfind(ptx_function_address_prefix, 0) == 0) continue; // an address: the new load's own
      const std::string there = renamed(name, member.instance);
      const std::string before = joining ? name : there;
      CUdeviceptr source = 0, target = 0;
      size_t source_bytes = 0, target_bytes = 0;
      if (api.cuModuleGetGlobal_v2(&source, &source_bytes, from, before.c_str()) != CUDA_SUCCESS ||
          api.cuModuleGetGlobal_v2(&target, &target_bytes, to, there.c_str()) != CUDA_SUCCESS)
        continue;
      if (copy_now(device_, target, source, std::min(source_bytes, target_bytes)) != ZE_RESULT_SUCCESS)
        zeal::logger("zeal-cuda").warn("the joint module did not keep the value of the variable '{}'", name);
    }
  }
}

void JointModule::leave(const Module &module) {
  std::lock_guard lock(mutex_);
  for (Member &m : members_)
    if (m.module == &module) m.module = nullptr;
  for (Pointer &p : pointers_)
    if (p.module == &module) p.module = nullptr;
  if (current_ == nullptr ||
      std::any_of(members_.begin(), members_.end(), [](const Member &m) { return m.module != nullptr; }))
    return;
  device_.make_current();
  for (CUmodule m : earlier_) checked(device_.api().cuModuleUnload(m), "cuModuleUnload");
  checked(device_.api().cuModuleUnload(current_), "cuModuleUnload");
  earlier_.clear();
  current_ = nullptr;
  members_.clear(); // the ids handed out stay taken: a pointer the application kept never names another function
}

ze_result_t JointModule::function(const Module &module, const std::string &kernel, CUfunction &function,
                                  uint64_t &generation) {
  std::lock_guard lock(mutex_);
  const Member *member = find(module);
  if (member == nullptr || current_ == nullptr) return ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED;
  device_.make_current();
  const std::string name = renamed(kernel, member->instance);
  CUresult r = device_.api().cuModuleGetFunction(&function, current_, name.c_str());
  if (r == CUDA_ERROR_NOT_FOUND) return ZE_RESULT_ERROR_INVALID_KERNEL_NAME;
  generation = generation_.load(std::memory_order_acquire);
  return checked(r, "cuModuleGetFunction");
}

void JointModule::refresh(const Module &module, const std::string &kernel, CUfunction &function,
                          uint64_t &generation) {
  if (generation == this->generation()) return;
  CUfunction now = nullptr;
  uint64_t newest = 0;
  // Found when the kernel was made, so found in every later load while its module lives.
  if (this->function(module, kernel, now, newest) == ZE_RESULT_SUCCESS) {
    function = now;
    generation = newest;
  }
}

ze_result_t JointModule::global(const Module &module, const std::string &name, CUdeviceptr &address, size_t &bytes) {
  std::lock_guard lock(mutex_);
  const Member *member = find(module);
  if (member == nullptr || current_ == nullptr) return ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED;
  device_.make_current();
  const std::string there = renamed(name, member->instance);
  CUresult r = device_.api().cuModuleGetGlobal_v2(&address, &bytes, current_, there.c_str());
  if (r == CUDA_ERROR_NOT_FOUND) return ZE_RESULT_ERROR_INVALID_GLOBAL_NAME;
  return checked(r, "cuModuleGetGlobal_v2");
}

ze_result_t JointModule::function_pointer(const Module &module, const std::string &name, uint64_t &pointer) {
  std::lock_guard lock(mutex_);
  const Member *member = find(module);
  if (member == nullptr || current_ == nullptr) return ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED;
  for (size_t id = 1; id < pointers_.size(); ++id)
    if (pointers_[id].module == &module && pointers_[id].name == name) {
      pointer = ptx_function_id_tag | id;
      return ZE_RESULT_SUCCESS;
    }
  if (pointers_.size() >= ptx_function_table_entries) {
    zeal::logger("zeal-cuda").error("zeModuleGetFunctionPointer: '{}' would be the device's {}th function "
                                    "pointer; the CUDA driver's table holds {}", name, pointers_.size(),
                                    ptx_function_table_entries - 1);
    return ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  device_.make_current();
  CUdeviceptr table = 0;
  if (ze_result_t r = table_of(current_, table); r != ZE_RESULT_SUCCESS) return r;
  const size_t id = pointers_.size();
  if (ze_result_t r = enter(current_, table, id, Pointer{&module, member->instance, name}); r != ZE_RESULT_SUCCESS)
    return r;
  if (ze_result_t r = checked(device_.api().cuStreamSynchronize(nullptr), "cuStreamSynchronize");
      r != ZE_RESULT_SUCCESS)
    return r;
  pointers_.push_back({&module, member->instance, name});
  pointer = ptx_function_id_tag | id;
  zeal::logger("zeal-cuda").debug("function pointer {} is '{}' of joint module member {}", id, name, member->instance);
  return ZE_RESULT_SUCCESS;
}

} // namespace zeal::cuda
