// The hidden work-item parameter of device functions and the work-item built-ins lowered onto it.
#include "cpu_driver/compiler/host_runtime.hpp"

#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

#include <optional>
#include <utility>
#include <vector>

namespace zeal::cpu::detail {
namespace {

enum class Query {
  GlobalId, LocalId, GroupId, GlobalSize, LocalSize, EnqueuedLocalSize, NumGroups, GlobalOffset, // take a dimension
  WorkDim, GlobalLinearId, LocalLinearId,                                                        // take nothing
};

bool takes_dimension(Query query) { return query < Query::WorkDim; }

std::optional<Query> work_item_query(const llvm::Function &function) {
  auto query = llvm::StringSwitch<std::optional<Query>>(opencl_base_name(function.getName()))
                   .Case("get_global_id", Query::GlobalId)
                   .Case("get_local_id", Query::LocalId)
                   .Case("get_group_id", Query::GroupId)
                   .Case("get_global_size", Query::GlobalSize)
                   .Case("get_local_size", Query::LocalSize)
                   .Case("get_enqueued_local_size", Query::EnqueuedLocalSize)
                   .Case("get_num_groups", Query::NumGroups)
                   .Case("get_global_offset", Query::GlobalOffset)
                   .Case("get_work_dim", Query::WorkDim)
                   .Case("get_global_linear_id", Query::GlobalLinearId)
                   .Case("get_local_linear_id", Query::LocalLinearId)
                   .Default(std::nullopt);
  // A user function that happens to share the name is left alone.
  if (!query || !function.isDeclaration() || !function.getReturnType()->isIntegerTy()) return std::nullopt;
  unsigned params = takes_dimension(*query) ? 1 : 0;
  if (function.arg_size() != params || (params == 1 && !function.getArg(0)->getType()->isIntegerTy())) {
    return std::nullopt;
  }
  return query;
}

// Values of one dimension; out-of-range dimensions get the OpenCL default
// (0 for ids, 1 for sizes). Constant dimensions, the usual case, fold here;
// others become a select chain, which keeps the WorkItem promotable by SROA.
llvm::Value *per_dimension(llvm::IRBuilder<> &builder, llvm::Value *dim, uint64_t fallback,
                           llvm::function_ref<llvm::Value *(unsigned)> at) {
  llvm::Value *result = builder.getInt64(fallback);
  if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(dim)) {
    return constant->getZExtValue() < 3 ? at(unsigned(constant->getZExtValue())) : result;
  }
  for (unsigned d = 3; d-- > 0;) {
    llvm::Value *is_d = builder.CreateICmpEQ(dim, llvm::ConstantInt::get(dim->getType(), d));
    result = builder.CreateSelect(is_d, at(d), result);
  }
  return result;
}

llvm::Value *global_id(llvm::IRBuilder<> &b, llvm::Value *wi, unsigned d) {
  llvm::Value *base = b.CreateMul(load_work_item(b, wi, GroupId, d), load_work_item(b, wi, LocalSize, d));
  return b.CreateAdd(b.CreateAdd(base, load_work_item(b, wi, LocalId, d)), load_work_item(b, wi, GlobalOffset, d));
}

llvm::Value *global_size(llvm::IRBuilder<> &b, llvm::Value *wi, unsigned d) {
  return b.CreateMul(load_work_item(b, wi, NumGroups, d), load_work_item(b, wi, LocalSize, d));
}

// Linear ids count from the first work-item, so the global offset is left out.
llvm::Value *linear_id(llvm::IRBuilder<> &b, llvm::Value *wi, bool global) {
  auto id = [&](unsigned d) {
    return global ? b.CreateSub(global_id(b, wi, d), load_work_item(b, wi, GlobalOffset, d))
                  : load_work_item(b, wi, LocalId, d);
  };
  auto size = [&](unsigned d) { return global ? global_size(b, wi, d) : load_work_item(b, wi, LocalSize, d); };
  llvm::Value *linear = b.CreateAdd(b.CreateMul(id(2), size(1)), id(1));
  return b.CreateAdd(b.CreateMul(linear, size(0)), id(0));
}

} // namespace

llvm::Value *local_linear_id(llvm::IRBuilder<> &b, llvm::Value *work_item) { return linear_id(b, work_item, false); }

namespace {

llvm::Value *answer(llvm::IRBuilder<> &b, Query query, llvm::CallInst &call, llvm::Value *wi) {
  llvm::Value *dim = takes_dimension(query) ? call.getArgOperand(0) : nullptr;
  auto field = [&](WorkItemField f, uint64_t fallback) {
    return per_dimension(b, dim, fallback, [&](unsigned d) { return load_work_item(b, wi, f, d); });
  };
  switch (query) {
  case Query::GlobalId: return per_dimension(b, dim, 0, [&](unsigned d) { return global_id(b, wi, d); });
  case Query::LocalId: return field(LocalId, 0);
  case Query::GroupId: return field(GroupId, 0);
  case Query::GlobalSize: return per_dimension(b, dim, 1, [&](unsigned d) { return global_size(b, wi, d); });
  // GroupContext carries one local size: the runtime launches uniform work-groups.
  case Query::LocalSize:
  case Query::EnqueuedLocalSize: return field(LocalSize, 1);
  case Query::NumGroups: return field(NumGroups, 1);
  case Query::GlobalOffset: return field(GlobalOffset, 0);
  case Query::WorkDim: return load_work_item(b, wi, WorkDim);
  case Query::GlobalLinearId: return linear_id(b, wi, true);
  case Query::LocalLinearId: return linear_id(b, wi, false);
  }
  return nullptr;
}

llvm::Value *work_item_of(llvm::Function &function) {
  assert(function.arg_size() > 0 && function.getArg(function.arg_size() - 1)->getType() ==
                                        work_item_pointer_type(function.getContext()));
  return function.getArg(function.arg_size() - 1);
}

// One lane of `get_x(0), get_x(1), get_x(2)` packed into a vector: the query
// function when `insert` puts get_x(lane) into lane `lane`, else null.
llvm::Function *query_in_lane(const llvm::InsertElementInst &insert) {
  auto *lane = llvm::dyn_cast<llvm::ConstantInt>(insert.getOperand(2));
  auto *call = llvm::dyn_cast<llvm::CallInst>(insert.getOperand(1));
  llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
  if (!lane || !callee || !work_item_query(*callee) || call->arg_size() != 1) return nullptr;
  auto *dim = llvm::dyn_cast<llvm::ConstantInt>(call->getArgOperand(0));
  return dim && dim->getZExtValue() == lane->getZExtValue() ? callee : nullptr;
}

// The translator rebuilds get_global_id(d) as three calls packed into a
// vector with lane d extracted, so an out-of-range d reads poison instead of
// the OpenCL default. Folding the extract back into one call restores it.
void fold_packed_queries(llvm::Function &function) {
  for (llvm::Instruction &inst : llvm::make_early_inc_range(llvm::instructions(function))) {
    auto *extract = llvm::dyn_cast<llvm::ExtractElementInst>(&inst);
    if (extract == nullptr) continue;
    llvm::Value *vector = extract->getVectorOperand();
    llvm::Function *query = nullptr;
    unsigned lanes_seen = 0;
    while (auto *insert = llvm::dyn_cast<llvm::InsertElementInst>(vector)) {
      llvm::Function *lane_query = query_in_lane(*insert);
      if (lane_query == nullptr || (query && lane_query != query)) break;
      query = lane_query;
      lanes_seen |= 1u << llvm::cast<llvm::ConstantInt>(insert->getOperand(2))->getZExtValue();
      vector = insert->getOperand(0);
    }
    if (!llvm::isa<llvm::UndefValue>(vector) || lanes_seen != 7) continue;
    llvm::IRBuilder<> builder(extract);
    llvm::Value *dim = builder.CreateZExtOrTrunc(extract->getIndexOperand(), query->getArg(0)->getType());
    llvm::CallInst *call = builder.CreateCall(query, {dim});
    call->setCallingConv(query->getCallingConv());
    extract->replaceAllUsesWith(call);
    extract->eraseFromParent();
  }
}

void lower_work_item_queries(llvm::Module &module) {
  for (llvm::Function &function : module) fold_packed_queries(function);
  for (llvm::Function &function : llvm::make_early_inc_range(module)) {
    std::optional<Query> query = work_item_query(function);
    if (!query) continue;
    for (llvm::User *user : llvm::make_early_inc_range(function.users())) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      if (call == nullptr || call->getCalledOperand() != &function) continue;
      llvm::IRBuilder<> builder(call);
      llvm::Value *value = answer(builder, *query, *call, work_item_of(*call->getFunction()));
      call->replaceAllUsesWith(builder.CreateZExtOrTrunc(value, call->getType()));
      call->eraseFromParent();
    }
    if (function.use_empty()) function.eraseFromParent();
  }
}

llvm::AttributeMask memory_attributes() {
  llvm::AttributeMask mask;
  for (auto kind : {llvm::Attribute::ReadNone, llvm::Attribute::ReadOnly, llvm::Attribute::WriteOnly,
                    llvm::Attribute::ArgMemOnly, llvm::Attribute::InaccessibleMemOnly,
                    llvm::Attribute::InaccessibleMemOrArgMemOnly, llvm::Attribute::Speculatable}) {
    mask.addAttribute(kind);
  }
  return mask;
}

bool takes_work_item(const llvm::Function &function) {
  // Variadic declarations (printf) are not device functions this driver provides;
  // host functions (libm, the fiber scheduler) have C signatures.
  return !function.isIntrinsic() && !function.isVarArg() && !work_item_query(function) &&
         !(function.isDeclaration() && is_host_symbol(function.getName()));
}

llvm::Function *clone_with_work_item(llvm::Function &old) {
  llvm::FunctionType *type = old.getFunctionType();
  llvm::SmallVector<llvm::Type *, 8> params(type->param_begin(), type->param_end());
  params.push_back(work_item_pointer_type(old.getContext()));
  auto *new_type = llvm::FunctionType::get(type->getReturnType(), params, false);
  llvm::Function *function = llvm::Function::Create(new_type, old.getLinkage(), old.getAddressSpace(), "");
  old.getParent()->getFunctionList().insert(old.getIterator(), function);
  function->copyAttributesFrom(&old);
  function->copyMetadata(&old, 0);
  function->takeName(&old);
  function->getBasicBlockList().splice(function->begin(), old.getBasicBlockList());
  for (auto [from, to] : llvm::zip(old.args(), function->args())) {
    from.replaceAllUsesWith(&to);
    to.takeName(&from);
  }
  function->getArg(function->arg_size() - 1)->setName("work_item");
  // A function that only called readnone id queries now reads its work-item;
  // -O2 infers the memory attributes again from the new body.
  function->removeFnAttrs(memory_attributes());
  return function;
}

// Appends the caller's work-item to a call; `callee` is null for indirect calls.
void pass_work_item(llvm::CallInst &call, llvm::Function *callee) {
  llvm::SmallVector<llvm::Value *, 8> args(call.args());
  args.push_back(work_item_of(*call.getFunction()));
  llvm::SmallVector<llvm::OperandBundleDef, 1> bundles;
  call.getOperandBundlesAsDefs(bundles);
  llvm::FunctionType *type = callee ? callee->getFunctionType() : nullptr;
  if (type == nullptr) {
    llvm::SmallVector<llvm::Type *, 8> params(call.getFunctionType()->param_begin(), call.getFunctionType()->param_end());
    params.push_back(work_item_pointer_type(call.getContext()));
    type = llvm::FunctionType::get(call.getType(), params, false);
  }
  llvm::Value *target = callee ? callee : call.getCalledOperand();
  if (callee == nullptr) {
    // With typed pointers the function pointer's type must name the new signature.
    unsigned space = target->getType()->getPointerAddressSpace();
    target = llvm::CastInst::CreatePointerCast(target, llvm::PointerType::get(type, space), "", &call);
  }
  auto *replacement = llvm::CallInst::Create(type, target, args, bundles, "", &call);
  replacement->setCallingConv(call.getCallingConv());
  replacement->setAttributes(call.getAttributes().removeFnAttributes(call.getContext(), memory_attributes()));
  replacement->setTailCallKind(call.getTailCallKind());
  replacement->copyMetadata(call);
  replacement->takeName(&call);
  call.replaceAllUsesWith(replacement);
  call.eraseFromParent();
}

void pass_work_item_to_indirect_calls(llvm::Function &function) {
  for (llvm::Instruction &inst : llvm::make_early_inc_range(llvm::instructions(function))) {
    auto *call = llvm::dyn_cast<llvm::CallInst>(&inst);
    if (call && call->isIndirectCall() && !call->isInlineAsm()) pass_work_item(*call, nullptr);
  }
}

} // namespace

llvm::StructType *work_item_type(llvm::LLVMContext &context) {
  constexpr const char *name = "zeal.work_item";
  if (llvm::StructType *existing = llvm::StructType::getTypeByName(context, name)) return existing;
  auto *i64 = llvm::Type::getInt64Ty(context);
  auto *dims = llvm::ArrayType::get(i64, 3);
  auto *group = llvm::PointerType::get(llvm::Type::getInt8Ty(context), 0);
  return llvm::StructType::create(context, {dims, dims, dims, dims, dims, i64, group, i64, i64, i64}, name);
}

llvm::PointerType *work_item_pointer_type(llvm::LLVMContext &context) {
  return llvm::PointerType::get(work_item_type(context), 0);
}

llvm::Value *work_item_field(llvm::IRBuilder<> &builder, llvm::Value *work_item, WorkItemField field, unsigned dim) {
  llvm::StructType *type = work_item_type(builder.getContext());
  if (field > GlobalOffset) return builder.CreateStructGEP(type, work_item, field);
  return builder.CreateInBoundsGEP(type, work_item, {builder.getInt32(0), builder.getInt32(field), builder.getInt32(dim)});
}

llvm::Value *load_work_item(llvm::IRBuilder<> &builder, llvm::Value *work_item, WorkItemField field, unsigned dim) {
  return builder.CreateLoad(builder.getInt64Ty(), work_item_field(builder, work_item, field, dim));
}

bool is_barrier_builtin(llvm::StringRef name) {
  llvm::StringRef base = opencl_base_name(name);
  return base == "barrier" || base == "work_group_barrier" || base == "__spirv_ControlBarrier";
}

bool needs_fibers(llvm::StringRef name) { return is_barrier_builtin(name) || is_subgroup_collective(name); }

void use_c_calling_convention(llvm::Module &module) {
  auto is_spir = [](llvm::CallingConv::ID cc) {
    return cc == llvm::CallingConv::SPIR_FUNC || cc == llvm::CallingConv::SPIR_KERNEL;
  };
  for (llvm::Function &function : module) {
    if (is_spir(function.getCallingConv())) function.setCallingConv(llvm::CallingConv::C);
    for (llvm::Instruction &inst : llvm::instructions(function)) {
      auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
      if (call && is_spir(call->getCallingConv())) call->setCallingConv(llvm::CallingConv::C);
    }
  }
}

llvm::SmallPtrSet<llvm::Function *, 16> reachable_functions(llvm::Function &root) {
  llvm::SmallPtrSet<llvm::Function *, 16> seen{&root};
  llvm::SmallVector<llvm::Function *, 16> work{&root};
  while (!work.empty()) {
    llvm::Function *function = work.pop_back_val();
    for (llvm::Instruction &inst : llvm::instructions(*function)) {
      auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
      llvm::Function *callee = call ? call->getCalledFunction() : nullptr;
      if (callee && seen.insert(callee).second) work.push_back(callee);
    }
  }
  return seen;
}

void add_work_item_parameter(llvm::Module &module) {
  std::vector<llvm::Function *> old_functions;
  for (llvm::Function &function : module) {
    if (takes_work_item(function)) old_functions.push_back(&function);
  }
  std::vector<std::pair<llvm::Function *, llvm::Function *>> renamed;
  for (llvm::Function *old : old_functions) renamed.emplace_back(old, clone_with_work_item(*old));
  // Every caller is itself a device function by now, so it has a work-item to pass.
  for (auto [old, function] : renamed) {
    for (llvm::User *user : llvm::make_early_inc_range(old->users())) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      if (call && call->getCalledOperand() == old) pass_work_item(*call, function);
    }
  }
  for (auto [old, function] : renamed) {
    pass_work_item_to_indirect_calls(*function);
    // Only uses other than calls remain (function pointers); a cast with no
    // users would linger and make the new function look called.
    if (!old->use_empty()) old->replaceAllUsesWith(llvm::ConstantExpr::getPointerCast(function, old->getType()));
    old->eraseFromParent();
  }
  lower_work_item_queries(module);
  define_subgroup_builtins(module);
  define_block_2d_calls(module);
  lower_barriers_and_fences(module);
  lower_local_variables(module);
}

} // namespace zeal::cpu::detail
