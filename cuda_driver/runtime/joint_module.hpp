// The device's joint module: one CUDA module holding the code of every module whose functions are called through
// pointers across modules. CUDA's function addresses are offsets into the code of the CUDA module that holds the
// function, so a kernel can call through a pointer only into its own CUDA module; a Level Zero module that calls
// through pointers, or whose function zeModuleGetFunctionPointer was asked for, is therefore a member here, and its
// kernels run from the joint module, where every member's functions are.
//
// A module joins when it is loaded (it calls through pointers), when a pointer to one of its functions is first
// asked for, or when it is linked with a member; the modules it imports from join with it. Each join loads the whole
// joint module again, from its members' PTX, each member's visible symbols renamed to be its own (two versions of a
// library, or one program built twice, define the same names) and its imports to the exporters it was linked with;
// kernels of members move to the new load at their next launch (Kernel::function). The pointers handed out are ids
// (ptx_compiler.hpp), the same in every load: each load's table maps them to its addresses. Members' variables are
// carried to the new load; a pointer to one taken before a later join still points into the load it came from.
// A regular list recorded before a join finds its members' kernels again in the newest load when it runs; earlier
// loads stay loaded (a launch in flight may run from one) until the last member leaves. A destroyed member's code
// stays in the joint module while another member lives, since a pointer to its functions, or a member linked with
// it, may still call it.
#pragma once

#include "cuda_driver/runtime/context.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace zeal::cuda {

class Module;

class JointModule {
public:
  explicit JointModule(Device &device) : device_(device) {}
  ~JointModule();
  JointModule(const JointModule &) = delete;
  JointModule &operator=(const JointModule &) = delete;

  // `module` and the modules it imports from (Module::import_sources, in turn) join, and the joint module is loaded
  // again with them; nothing changes when they are all members already. A load CUDA refuses leaves the members as
  // they were, with CUDA's log in `log`.
  ze_result_t join(Module &module, std::string &log);
  // At the module's destruction: its kernels and variables are no longer found, but its code stays in this and
  // later loads while any member lives (pointers taken from it stay callable, members linked with it stay linked);
  // when the last member leaves, every load is unloaded.
  void leave(const Module &module);

  // The current load's number, 1 for the first; it changes at each load.
  uint64_t generation() const { return generation_.load(std::memory_order_acquire); }
  // A member's kernel in the current load, and that load's number.
  ze_result_t function(const Module &module, const std::string &kernel, CUfunction &function, uint64_t &generation);
  // Brings `function`, a member's kernel found in load `generation`, to the current load when the joint module was
  // loaded again since; leaves both as they are otherwise.
  void refresh(const Module &module, const std::string &kernel, CUfunction &function, uint64_t &generation);
  // A member's variable (by the name it has in its own PTX) in the current load.
  ze_result_t global(const Module &module, const std::string &name, CUdeviceptr &address, size_t &bytes);
  // The pointer zeModuleGetFunctionPointer hands out for a member's function that publishes its address: the same
  // id for every request, entered in the current load's table when first made; INVALID_FUNCTION_NAME when the
  // member publishes no such function.
  ze_result_t function_pointer(const Module &module, const std::string &name, uint64_t &pointer);

  // `name` as member number `instance` defines it in the joint PTX.
  static std::string renamed(const std::string &name, unsigned instance);

private:
  struct Member {
    Module *module;                     // null once the module was destroyed: its code stays (see leave)
    unsigned instance;
    std::string ptx;                    // its PTX, its names renamed for this instance and its imports resolved
    std::vector<std::string> variables; // its visible variables, by their own names
  };
  struct Pointer {
    const Module *module; // null once the module was destroyed (the id stays valid: its code stays)
    unsigned instance;
    std::string name;
  };
  const Member *find(const Module &module) const;
  ze_result_t load(std::string &log);
  ze_result_t fill_table(CUmodule module, std::string &log);
  // Where a load's table of function addresses is.
  ze_result_t table_of(CUmodule module, CUdeviceptr &table) const;
  // Enqueues, on the legacy stream, the copy of pointer `id`'s function address in `module` (its `__zeal_fp_`
  // global) into that module's table at `table`; ZE_RESULT_ERROR_INVALID_FUNCTION_NAME when the module has no such
  // address.
  ze_result_t enter(CUmodule module, CUdeviceptr table, size_t id, const Pointer &pointer);
  // Members' variables, from the load (or their own CUDA module) they were in, to `to`.
  void carry_variables(CUmodule to);

  Device &device_;
  std::mutex mutex_;
  std::vector<Member> members_;
  std::vector<Pointer> pointers_{Pointer{nullptr, 0, {}}}; // index = id; 0 is never one
  CUmodule current_ = nullptr;
  std::vector<CUmodule> earlier_;
  std::atomic<uint64_t> generation_{0};
  unsigned next_instance_ = 1;
};

} // namespace zeal::cuda
