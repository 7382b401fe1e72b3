// Work-item built-ins for NVPTX: ids and sizes from PTX's special registers, the global offset and work dimensions
// from the hidden values the kernel entry stores (libclc's get_global_id has no global offset).
//
// Functions that are not kernels (an exported library function that is not inlined, also one of another module that
// cuLink joins) see the hidden values too: each work-item of a work-group stores the same values into the start of
// the dynamic shared array at kernel entry, and the built-ins read them there. A work-item reads its own store (or
// an identical one), so no barrier is needed.
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicsNVPTX.h>

#include <functional>
#include <map>

namespace zeal::cuda {

namespace {

using llvm::Intrinsic::ID;

struct Registers {
  ID x, y, z;
};
constexpr Registers kTid{llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_tid_y,
                         llvm::Intrinsic::nvvm_read_ptx_sreg_tid_z};
constexpr Registers kNtid{llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y,
                          llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z};
constexpr Registers kCtaid{llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
                           llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z};
constexpr Registers kNctaid{llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
                            llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
                            llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z};

// Reads dimension `d` of a work-item built-in, with `outside` for a dimension past 2, as OpenCL requires.
class WorkItem {
public:
  explicit WorkItem(llvm::IRBuilder<> &b) : b_(b) {}

  llvm::Value *sreg(Registers registers, unsigned d) {
    ID id = d == 0 ? registers.x : d == 1 ? registers.y : registers.z;
    return b_.CreateZExt(call_intrinsic(b_, id), b_.getInt64Ty());
  }
  // The value of `per_dimension(d)` for a run-time `d`.
  llvm::Value *select(llvm::Value *d, const std::function<llvm::Value *(unsigned)> &per_dimension, uint64_t outside) {
    llvm::Value *value = b_.getInt64(outside);
    for (unsigned i = 3; i-- > 0;) value = b_.CreateSelect(b_.CreateICmpEQ(d, b_.getInt32(i)), per_dimension(i), value);
    return value;
  }
  llvm::Value *offset(unsigned d) {
    return b_.CreateAlignedLoad(b_.getInt64Ty(), hidden_value(b_, kHiddenGlobalOffset + 8 * d), llvm::Align(8));
  }
  llvm::Value *id_without_offset(unsigned d) {
    return b_.CreateAdd(b_.CreateMul(sreg(kCtaid, d), sreg(kNtid, d)), sreg(kTid, d));
  }
  llvm::Value *global_id(unsigned d) { return b_.CreateAdd(id_without_offset(d), offset(d)); }
  llvm::Value *global_size(unsigned d) { return b_.CreateMul(sreg(kNctaid, d), sreg(kNtid, d)); }
  llvm::Value *work_dim() {
    return b_.CreateAlignedLoad(b_.getInt32Ty(), hidden_value(b_, kHiddenWorkDim), llvm::Align(4));
  }
  llvm::Value *local_linear_id() {
    llvm::Value *yz = b_.CreateAdd(sreg(kTid, 1), b_.CreateMul(sreg(kNtid, 1), sreg(kTid, 2)));
    return b_.CreateAdd(sreg(kTid, 0), b_.CreateMul(sreg(kNtid, 0), yz));
  }
  llvm::Value *global_linear_id() {
    llvm::Value *yz = b_.CreateAdd(id_without_offset(1), b_.CreateMul(global_size(1), id_without_offset(2)));
    return b_.CreateAdd(id_without_offset(0), b_.CreateMul(global_size(0), yz));
  }

private:
  llvm::IRBuilder<> &b_;
};

using Body = std::function<llvm::Value *(WorkItem &, llvm::Value *)>;

const std::map<std::string, Body> &work_item_bodies() {
  static const std::map<std::string, Body> bodies = {
      {"get_local_id", [](WorkItem &w, llvm::Value *d) { return w.select(d, [&](unsigned i) { return w.sreg(kTid, i); }, 0); }},
      {"get_local_size", [](WorkItem &w, llvm::Value *d) { return w.select(d, [&](unsigned i) { return w.sreg(kNtid, i); }, 1); }},
      {"get_enqueued_local_size", [](WorkItem &w, llvm::Value *d) { return w.select(d, [&](unsigned i) { return w.sreg(kNtid, i); }, 1); }},
      {"get_group_id", [](WorkItem &w, llvm::Value *d) { return w.select(d, [&](unsigned i) { return w.sreg(kCtaid, i); }, 0); }},
      {"get_num_groups", [](WorkItem &w, llvm::Value *d) { return w.select(d, [&](unsigned i) { return w.sreg(kNctaid, i); }, 1); }},
      {"get_global_size", [](WorkItem &w, llvm::Value *d) { return w.select(d, [&](unsigned i) { return w.global_size(i); }, 1); }},
      {"get_global_offset", [](WorkItem &w, llvm::Value *d) { return w.select(d, [&](unsigned i) { return w.offset(i); }, 0); }},
      {"get_global_id", [](WorkItem &w, llvm::Value *d) { return w.select(d, [&](unsigned i) { return w.global_id(i); }, 0); }},
      {"get_work_dim", [](WorkItem &w, llvm::Value *) { return w.work_dim(); }},
      {"get_local_linear_id", [](WorkItem &w, llvm::Value *) { return w.local_linear_id(); }},
      {"get_global_linear_id", [](WorkItem &w, llvm::Value *) { return w.global_linear_id(); }},
  };
  return bodies;
}

} // namespace

llvm::GlobalVariable *dynamic_shared(llvm::Module &module) {
  constexpr const char *name = "__zeal_dynamic_shared";
  if (llvm::GlobalVariable *known = module.getGlobalVariable(name)) return known;
  llvm::Type *type = llvm::ArrayType::get(llvm::Type::getInt8Ty(module.getContext()), 0);
  auto *global = new llvm::GlobalVariable(module, type, false, llvm::GlobalValue::ExternalLinkage, nullptr, name,
                                          nullptr, llvm::GlobalValue::NotThreadLocal, kNvptxShared);
  global->setAlignment(llvm::Align(16));
  return global;
}

llvm::Value *hidden_value(llvm::IRBuilder<> &b, unsigned byte) {
  llvm::Module &module = *b.GetInsertBlock()->getModule();
  return b.CreateConstInBoundsGEP1_32(b.getInt8Ty(), dynamic_shared(module), byte);
}

llvm::IRBuilder<> begin_definition(llvm::Function &function) {
  function.setLinkage(llvm::GlobalValue::InternalLinkage);
  // The declaration's memory attributes promised nothing of a body that reads shared memory.
  for (auto kind : {llvm::Attribute::ReadNone, llvm::Attribute::ReadOnly, llvm::Attribute::WriteOnly,
                    llvm::Attribute::ArgMemOnly, llvm::Attribute::InaccessibleMemOnly,
                    llvm::Attribute::InaccessibleMemOrArgMemOnly, llvm::Attribute::NoInline,
                    llvm::Attribute::OptimizeNone, llvm::Attribute::Speculatable}) {
    function.removeFnAttr(kind);
    for (llvm::User *user : function.users()) {
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(user)) call->removeFnAttr(kind);
    }
  }
  function.addFnAttr(llvm::Attribute::AlwaysInline);
  return llvm::IRBuilder<>(llvm::BasicBlock::Create(function.getContext(), "entry", &function));
}

llvm::Value *call_intrinsic(llvm::IRBuilder<> &b, llvm::Intrinsic::ID id, llvm::ArrayRef<llvm::Value *> args) {
  llvm::Module &module = *b.GetInsertBlock()->getModule();
  return b.CreateCall(llvm::Intrinsic::getDeclaration(&module, id), args);
}

void define_work_item_builtins(llvm::Module &module) {
  for (llvm::Function &function : module) {
    if (!function.isDeclaration()) continue;
    auto body = work_item_bodies().find(opencl_base_name(function.getName()).str());
    if (body == work_item_bodies().end()) continue;
    llvm::Type *result = function.getReturnType();
    if (!result->isIntegerTy() || function.arg_size() > 1) continue;
    llvm::IRBuilder<> b = begin_definition(function);
    WorkItem work_item(b);
    llvm::Value *d = function.arg_size() == 1 ? b.CreateZExtOrTrunc(function.getArg(0), b.getInt32Ty()) : nullptr;
    llvm::Value *value = body->second(work_item, d);
    b.CreateRet(b.CreateZExtOrTrunc(value, result));
  }
}

} // namespace zeal::cuda
