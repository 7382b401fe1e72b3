// Kernel descriptions and the generated work-group functions (the WorkGroupFn of kernel_abi.hpp).
#include "cpu_driver/compiler/host_runtime.hpp"

#include "common/log.hpp"

#include <fmt/format.h>
#include <llvm/Analysis/CaptureTracking.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <cstddef>

namespace zeal::cpu::detail {
namespace {

// On a work-group function of a kernel run as regions: the bytes per work-item
// of values kept across barriers, which count as its private memory.
constexpr const char *slot_bytes_attribute = "zeal-region-slot-bytes";

ArgKind kind_of(const llvm::Argument &arg) {
  if (arg.hasByValAttr() || !arg.getType()->isPointerTy()) return ArgKind::Value;
  llvm::StringRef opaque = opaque_pointee(arg.getType());
  if (opaque.startswith("opencl.image")) return ArgKind::Image;
  if (opaque == "opencl.sampler_t") return ArgKind::Sampler;
  switch (arg.getType()->getPointerAddressSpace()) {
  case 1: case 2: case 4: return ArgKind::GlobalPointer; // global, constant, generic
  case 3: return ArgKind::LocalPointer;
  default: return ArgKind::Value;
  }
}

ArgInfo describe_arg(const llvm::Argument &arg, const llvm::DataLayout &layout, const llvm::MDNode *type_names) {
  ArgInfo info;
  info.kind = kind_of(arg);
  llvm::Type *type = arg.hasByValAttr() ? arg.getParamByValType() : arg.getType();
  info.size = uint32_t(layout.getTypeAllocSize(type).getFixedSize());
  if (type_names && arg.getArgNo() < type_names->getNumOperands()) {
    if (auto *name = llvm::dyn_cast<llvm::MDString>(type_names->getOperand(arg.getArgNo()))) {
      info.type_name = name->getString().str();
    }
  }
  return info;
}

uint32_t metadata_int(const llvm::MDNode *node, unsigned index) {
  if (node == nullptr || index >= node->getNumOperands()) return 0;
  auto *constant = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(index));
  return constant ? uint32_t(constant->getZExtValue()) : 0;
}

// vec_type_hint's type as OpenCL C writes it ("float4", "int"): a value of the type, and whether an integer type
// is signed. SPIR-V's VecTypeHint keeps no sign, so the translator marks every integer signed; the unsigned names
// come only from modules that carry the sign (LLVM IR written by OpenCL C compilers directly).
std::string vec_type_hint(const llvm::MDNode *hint) {
  if (hint == nullptr || hint->getNumOperands() < 1) return {};
  auto *value = llvm::dyn_cast_or_null<llvm::ValueAsMetadata>(hint->getOperand(0).get());
  if (value == nullptr) return {};
  llvm::Type *type = value->getType();
  unsigned lanes = 1;
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    lanes = vector->getNumElements();
    type = vector->getElementType();
  }
  std::string name;
  if (type->isHalfTy()) name = "half";
  else if (type->isFloatTy()) name = "float";
  else if (type->isDoubleTy()) name = "double";
  else if (type->isIntegerTy()) {
    const bool is_signed = metadata_int(hint, 1) != 0;
    switch (type->getIntegerBitWidth()) {
    case 8: name = "char"; break;
    case 16: name = "short"; break;
    case 32: name = "int"; break;
    case 64: name = "long"; break;
    default: return {};
    }
    if (!is_signed) name = "u" + name;
  } else {
    return {};
  }
  return lanes > 1 ? name + std::to_string(lanes) : name;
}

KernelInfo describe_kernel(llvm::Function &kernel) {
  KernelInfo info;
  info.name = kernel.getName().str();
  const llvm::DataLayout &layout = kernel.getParent()->getDataLayout();
  const llvm::MDNode *type_names = kernel.getMetadata("kernel_arg_type");
  for (const llvm::Argument &arg : kernel.args()) info.args.push_back(describe_arg(arg, layout, type_names));
  const llvm::MDNode *group_size = kernel.getMetadata("reqd_work_group_size");
  for (unsigned d = 0; d < 3; ++d) info.required_group_size[d] = metadata_int(group_size, d);
  info.required_subgroup_size = metadata_int(kernel.getMetadata("intel_reqd_sub_group_size"), 0);
  const llvm::MDNode *hint = kernel.getMetadata("work_group_size_hint");
  for (unsigned d = 0; d < 3; ++d) info.group_size_hint[d] = metadata_int(hint, d);
  info.vec_type_hint = vec_type_hint(kernel.getMetadata("vec_type_hint"));
  for (llvm::Function *function : reachable_functions(kernel)) {
    info.uses_barriers = info.uses_barriers || needs_fibers(function->getName());
  }
  info.static_local_bytes = static_local_bytes(kernel);
  return info;
}

// Copies the GroupContext into the WorkItem once; offsets come from the C++
// struct itself so the two cannot drift apart.
void fill_work_item(llvm::IRBuilder<> &b, llvm::Value *work_item, llvm::Value *context, uint32_t subgroup_size) {
  llvm::StructType *type = work_item_type(b.getContext());
  auto load = [&](size_t offset, llvm::Type *field_type) -> llvm::Value * {
    llvm::Value *at = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), context, offset);
    llvm::Value *value = b.CreateLoad(field_type, b.CreatePointerCast(at, llvm::PointerType::get(field_type, 0)));
    return b.CreateZExt(value, b.getInt64Ty());
  };
  auto store = [&](llvm::Value *value, WorkItemField field, unsigned dim) {
    b.CreateStore(value, b.CreateInBoundsGEP(type, work_item, {b.getInt32(0), b.getInt32(field), b.getInt32(dim)}));
  };
  for (unsigned d = 0; d < 3; ++d) {
    store(b.getInt64(0), LocalId, d);
    store(load(offsetof(GroupContext, group_id) + 4 * d, b.getInt32Ty()), GroupId, d);
    store(load(offsetof(GroupContext, local_size) + 4 * d, b.getInt32Ty()), LocalSize, d);
    store(load(offsetof(GroupContext, num_groups) + 4 * d, b.getInt32Ty()), NumGroups, d);
    store(load(offsetof(GroupContext, global_offset) + 8 * d, b.getInt64Ty()), GlobalOffset, d);
  }
  b.CreateStore(load(offsetof(GroupContext, work_dim), b.getInt32Ty()), b.CreateStructGEP(type, work_item, WorkDim));
  b.CreateStore(context, b.CreateStructGEP(type, work_item, Group));
  // A constant: after inlining, sub-group ids fold to shifts and masks for powers of two.
  b.CreateStore(b.getInt64(subgroup_size), b.CreateStructGEP(type, work_item, SubgroupSize));
  b.CreateStore(b.getInt64(0), b.CreateStructGEP(type, work_item, SubgroupId));
  b.CreateStore(b.getInt64(0), b.CreateStructGEP(type, work_item, SubgroupLocalId));
}

// args[i] points to the argument's bytes: the value itself, or the pointer
// value for global and local pointers. Loads are byte-aligned because the
// runtime's argument storage promises no more.
llvm::SmallVector<llvm::Value *, 8> load_arguments(llvm::IRBuilder<> &b, llvm::Function &kernel, llvm::Value *args) {
  llvm::Type *byte_pointer = llvm::PointerType::get(b.getInt8Ty(), 0);
  llvm::SmallVector<llvm::Value *, 8> values;
  for (unsigned i = 0; i + 1 < kernel.arg_size(); ++i) { // the last is the hidden work-item
    llvm::Argument &arg = *kernel.getArg(i);
    llvm::Value *slot = b.CreateLoad(byte_pointer, b.CreateConstInBoundsGEP1_64(byte_pointer, args, arg.getArgNo()));
    llvm::Type *type = arg.getType();
    if (arg.hasByValAttr()) {
      // The call's byval attribute makes the callee's private copy.
      values.push_back(b.CreatePointerCast(slot, type));
    } else {
      // Pointers are loaded in their own address space: a cast between an
      // element's address and its loads would hide their stride from the vectoriser.
      values.push_back(
          b.CreateAlignedLoad(type, b.CreatePointerCast(slot, llvm::PointerType::get(type, 0)), llvm::Align(1)));
    }
  }
  return values;
}

// Emits `for (id = 0; id < count; ++id) body(id);` as a bottom-tested loop
// (count >= 1) with loop metadata `hints` and leaves the builder after it.
void emit_counted_loop(llvm::IRBuilder<> &b, llvm::Value *count, const std::string &name,
                       llvm::function_ref<void(llvm::Value *)> body, llvm::MDNode *hints = nullptr) {
  llvm::Function *function = b.GetInsertBlock()->getParent();
  llvm::LLVMContext &context = b.getContext();
  llvm::BasicBlock *before = b.GetInsertBlock();
  auto *loop = llvm::BasicBlock::Create(context, name, function);
  auto *done = llvm::BasicBlock::Create(context, name + ".done", function);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  llvm::PHINode *id = b.CreatePHI(b.getInt64Ty(), 2, name + ".id");
  id->addIncoming(b.getInt64(0), before);
  body(id);
  llvm::Value *next = b.CreateNUWAdd(id, b.getInt64(1));
  id->addIncoming(next, b.GetInsertBlock());
  llvm::BranchInst *back = b.CreateCondBr(b.CreateICmpULT(next, count), loop, done);
  if (hints != nullptr) back->setMetadata(llvm::LLVMContext::MD_loop, hints);
  b.SetInsertPoint(done);
}

void store_field(llvm::IRBuilder<> &b, llvm::Value *work_item, WorkItemField field, llvm::Value *value,
                 unsigned dim = 0) {
  b.CreateStore(value, work_item_field(b, work_item, field, dim));
}

// Emits `for (id = 0; id < local_size[dim]; ++id) { local_id[dim] = id; body(); }`
// (the caller has checked every local size is >= 1) and leaves the builder after it.
void emit_work_item_loop(llvm::IRBuilder<> &b, llvm::Value *work_item, unsigned dim,
                         llvm::function_ref<void()> body) {
  emit_counted_loop(b, load_work_item(b, work_item, LocalSize, dim), fmt::format("local_id.{}", dim),
                    [&](llvm::Value *id) {
                      store_field(b, work_item, LocalId, id, dim);
                      body();
                    });
}

// The x loop of a kernel without barriers, inside its y and z loops: each
// work-item's local id and sub-group ids. When the kernel reads sub-group ids
// and rows hold whole sub-groups (local_size[0] % S == 0), the loop runs
// sub-group by sub-group, an inner loop of S lanes whose counter is the lane:
// then a sub-group's block read or `p[get_sub_group_local_id()]` is a
// consecutive access the vectoriser turns into vector loads and stores.
// Returns the kernel's call in the lane loop, or null.
llvm::CallInst *emit_x_loop(llvm::IRBuilder<> &b, llvm::Value *work_item, uint32_t subgroup_size,
                            bool reads_subgroup_ids, llvm::MDNode *accesses,
                            llvm::function_ref<llvm::CallInst *()> body) {
  llvm::LLVMContext &context = b.getContext();
  llvm::Function *function = b.GetInsertBlock()->getParent();
  llvm::Value *size_x = load_work_item(b, work_item, LocalSize, 0);
  llvm::Value *row_index = b.CreateAdd(
      b.CreateMul(load_work_item(b, work_item, LocalId, 2), load_work_item(b, work_item, LocalSize, 1)),
      load_work_item(b, work_item, LocalId, 1));
  llvm::Value *row = b.CreateMul(row_index, size_x); // the linear id of x = 0
  llvm::Value *size = b.getInt64(subgroup_size);
  auto flat = [&] {
    emit_counted_loop(b, size_x, "local_id.0", [&](llvm::Value *x) {
      store_field(b, work_item, LocalId, x, 0);
      store_subgroup_ids(b, work_item, b.CreateAdd(row, x));
      body();
    });
  };
  if (!reads_subgroup_ids) {
    flat();
    return nullptr;
  }
  auto *by_subgroup = llvm::BasicBlock::Create(context, "subgroups", function);
  auto *by_item = llvm::BasicBlock::Create(context, "work_items", function);
  auto *done = llvm::BasicBlock::Create(context, "local_id.0.done", function);
  b.CreateCondBr(b.CreateICmpEQ(b.CreateURem(size_x, size), b.getInt64(0)), by_subgroup, by_item);
  b.SetInsertPoint(by_subgroup);
  // The row's first sub-group, as a product: (row / S + i) * S would become a
  // mask, whose stride in i the vectoriser and the streaming stores cannot see.
  llvm::Value *first = b.CreateMul(row_index, b.CreateUDiv(size_x, size));
  llvm::CallInst *lane_call = nullptr;
  emit_counted_loop(b, b.CreateUDiv(size_x, size), "subgroup", [&](llvm::Value *subgroup) {
    store_field(b, work_item, SubgroupId, b.CreateAdd(first, subgroup));
    llvm::Value *x0 = b.CreateMul(subgroup, size);
    emit_counted_loop(
        b, size, "lane",
        [&](llvm::Value *lane) {
          store_field(b, work_item, LocalId, b.CreateAdd(x0, lane), 0);
          store_field(b, work_item, SubgroupLocalId, lane);
          lane_call = body();
        },
        lane_loop_hints(context, subgroup_size, accesses));
  });
  b.CreateBr(done);
  b.SetInsertPoint(by_item);
  flat();
  b.CreateBr(done);
  b.SetInsertPoint(done);
  return lane_call;
}

// Work-items of a kernel without barriers do not depend on each other:
// conflicting accesses by two of them, unordered, are a data race. So the
// lane loop's accesses to memory the work-items share may be marked parallel,
// and the vectoriser needs no run-time test that buffers do not overlap (one
// per sub-group otherwise, and a scalar loop beside the vector code that
// keeps block writes from streaming). Private variables are shared too, by
// the loop's iterations in turn, so they must stay out: the kernel and the
// built-ins it reaches are inlined here (they would be at optimisation) and
// only loads and stores of memory no alloca can be are marked, and nothing
// if an alloca's address escapes where it could not be followed.
void mark_lanes_parallel(llvm::Function &function, llvm::Value *work_item, llvm::CallInst *lane_call,
                         llvm::MDNode *accesses) {
  // Inlining copies the call's access group to every instruction of the callee that touches memory, calls included.
  lane_call->setMetadata(llvm::LLVMContext::MD_access_group, accesses);
  llvm::InlineFunctionInfo kernel_info;
  if (!llvm::InlineFunction(*lane_call, kernel_info).isSuccess()) return;
  // Level by level: each pass inlines the always-inline calls the one before brought in.
  for (bool inlined = true; inlined;) {
    std::vector<llvm::CallBase *> calls;
    for (llvm::Instruction &inst : llvm::instructions(function)) {
      auto *call = llvm::dyn_cast<llvm::CallBase>(&inst);
      if (call == nullptr || call->getMetadata(llvm::LLVMContext::MD_access_group) != accesses) continue;
      llvm::Function *callee = call->getCalledFunction();
      if (callee != nullptr && !callee->isDeclaration() && callee->hasFnAttribute(llvm::Attribute::AlwaysInline)) {
        calls.push_back(call);
      }
    }
    inlined = false;
    for (llvm::CallBase *call : calls) {
      llvm::InlineFunctionInfo info;
      inlined = llvm::InlineFunction(*call, info).isSuccess() || inlined;
    }
  }
  // The WorkItem is passed to every device function, but as the hidden
  // parameter no kernel code can name, so it cannot be stored anywhere.
  bool escapes = false;
  for (llvm::Instruction &inst : function.getEntryBlock()) {
    auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst);
    if (alloca == nullptr || alloca == work_item) continue;
    if (llvm::PointerMayBeCaptured(alloca, false, true)) escapes = true;
  }
  for (llvm::Instruction &inst : llvm::instructions(function)) {
    if (inst.getMetadata(llvm::LLVMContext::MD_access_group) != accesses) continue;
    bool shared = !escapes && (llvm::isa<llvm::LoadInst>(inst) || llvm::isa<llvm::StoreInst>(inst)) &&
                  !inst.isAtomic() && !inst.isVolatile();
    if (shared) {
      llvm::SmallVector<const llvm::Value *, 4> objects;
      llvm::getUnderlyingObjects(llvm::getLoadStorePointerOperand(&inst), objects, nullptr, 32);
      for (const llvm::Value *object : objects) shared = shared && !llvm::isa<llvm::AllocaInst>(object);
    }
    if (!shared) inst.setMetadata(llvm::LLVMContext::MD_access_group, nullptr);
  }
}

// True when the kernel reaches a sub-group built-in (a query, block I/O, a collective).
bool reads_subgroup_ids(llvm::Function &kernel) {
  for (llvm::Function *function : reachable_functions(kernel)) {
    if (opencl_base_name(function->getName()).contains("sub_group")) return true;
  }
  return false;
}

llvm::CallInst *call_kernel(llvm::IRBuilder<> &b, llvm::Function &kernel, llvm::ArrayRef<llvm::Value *> values) {
  llvm::CallInst *call = b.CreateCall(kernel.getFunctionType(), &kernel, values);
  call->setCallingConv(kernel.getCallingConv());
  for (const llvm::Argument &arg : kernel.args()) {
    if (arg.hasByValAttr()) {
      call->addParamAttr(arg.getArgNo(), llvm::Attribute::getWithByValType(b.getContext(), arg.getParamByValType()));
    }
  }
  return call;
}

llvm::Function *create_function(llvm::Module &module, llvm::Type *second_param, const std::string &name,
                                 llvm::GlobalValue::LinkageTypes linkage) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *byte_pointer = llvm::PointerType::get(llvm::Type::getInt8Ty(context), 0);
  auto *type = llvm::FunctionType::get(llvm::Type::getVoidTy(context),
                                       {llvm::PointerType::get(byte_pointer, 0), second_param}, false);
  auto *function = llvm::Function::Create(type, linkage, name, module);
  function->addFnAttr(llvm::Attribute::NoUnwind);
  function->getArg(0)->setName("args");
  return function;
}

// `zeal.wi.<kernel>(args, work_item)`: one work-item, the body of a fiber.
llvm::Function *build_work_item_function(llvm::Module &module, llvm::Function &kernel) {
  llvm::Function *function = create_function(module, work_item_pointer_type(module.getContext()),
                                             ("zeal.wi." + kernel.getName()).str(), llvm::GlobalValue::InternalLinkage);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "entry", function));
  llvm::SmallVector<llvm::Value *, 8> values = load_arguments(b, kernel, function->getArg(0));
  values.push_back(function->getArg(1));
  call_kernel(b, kernel, values);
  b.CreateRetVoid();
  return function;
}

// A kernel with work-group barriers or sub-group collectives, for one group: its work-item function cut
// into regions (true), or run as fibers (false) when regions cannot be formed or -zeal-barriers=fibers asks.
bool emit_group_with_barriers(llvm::IRBuilder<> &b, llvm::Function &function, llvm::Function &kernel,
                              llvm::Value *args, llvm::Value *work_item, uint32_t subgroup_size, bool fiber_barriers) {
  llvm::Module &module = *function.getParent();
  // The work-item function is the body of a fiber, or what regions are cut from.
  llvm::Function *item = build_work_item_function(module, kernel);
  uint64_t slot_bytes = 0;
  llvm::Function *regions = fiber_barriers ? nullptr : build_region_function(*item, subgroup_size, slot_bytes);
  if (fiber_barriers) {
    log_fiber_path(kernel.getName(), "-zeal-barriers=fibers asks for them");
  }
  if (regions != nullptr) {
    item->eraseFromParent();
    function.addFnAttr(slot_bytes_attribute, std::to_string(slot_bytes));
    regions->addFnAttr(llvm::Attribute::AlwaysInline); // then the work-item's fields become registers
    b.CreateCall(regions, {args, work_item});
    return true;
  }
  llvm::FunctionCallee run_fibers = module.getOrInsertFunction(
      run_fibers_symbol, b.getVoidTy(), item->getType(), args->getType(), work_item->getType());
  b.CreateCall(run_fibers, {item, args, work_item});
  return false;
}

// A kernel without them, for one group: three nested work-item loops around the inlined kernel, which LLVM
// can vectorise. Returns the kernel's call in a loop over a sub-group's lanes, or null.
llvm::CallInst *emit_group_loops(llvm::IRBuilder<> &b, llvm::Function &kernel, llvm::ArrayRef<llvm::Value *> values,
                                 llvm::Value *work_item, uint32_t subgroup_size, llvm::MDNode *lanes_accesses) {
  const bool subgroups = reads_subgroup_ids(kernel);
  logger("zeal-cpu").info("kernel '{}' runs its work-items in loops{}", kernel.getName().str(),
                          subgroups ? fmt::format(", sub-group by sub-group, {} lanes at a time, when "
                                                  "local_size[0] is a multiple of {}",
                                                  subgroup_size, subgroup_size)
                                    : std::string());
  llvm::CallInst *lanes_call = nullptr;
  emit_work_item_loop(b, work_item, 2, [&] {
    emit_work_item_loop(b, work_item, 1, [&] {
      lanes_call = emit_x_loop(b, work_item, subgroup_size, subgroups, lanes_accesses,
                               [&] { return call_kernel(b, kernel, values); });
    });
  });
  return lanes_call;
}

// The next group's id in `work_item`: x, carried into y, carried into z.
void emit_next_group_id(llvm::IRBuilder<> &b, llvm::Value *work_item) {
  llvm::StructType *type = work_item_type(b.getContext());
  llvm::Value *carry = b.getTrue();
  for (unsigned d = 0; d < 3; ++d) {
    llvm::Value *address = b.CreateInBoundsGEP(type, work_item, {b.getInt32(0), b.getInt32(GroupId), b.getInt32(d)});
    llvm::Value *id = b.CreateAdd(b.CreateLoad(b.getInt64Ty(), address), b.CreateZExt(carry, b.getInt64Ty()));
    llvm::Value *wraps = d < 2 ? b.CreateICmpEQ(id, load_work_item(b, work_item, NumGroups, d)) : b.getFalse();
    b.CreateStore(b.CreateSelect(wraps, b.getInt64(0), id), address);
    carry = wraps;
  }
}

// `zeal.wg.<kernel>(args, group)`: the groups of one call, each running all its work-items: in loops
// (emit_group_loops) or, with work-group barriers or sub-group collectives, as regions or fibers
// (emit_group_with_barriers). Returns true when the kernel's barriers and collectives became regions.
bool build_work_group_function(llvm::Module &module, llvm::Function &kernel, bool uses_barriers,
                               uint32_t subgroup_size, bool fiber_barriers) {
  llvm::LLVMContext &context = module.getContext();
  llvm::Function *function = create_function(module, llvm::PointerType::get(llvm::Type::getInt8Ty(context), 0),
                                             work_group_function_name(kernel.getName()),
                                             llvm::GlobalValue::ExternalLinkage);
  llvm::Value *args = function->getArg(0);
  llvm::Value *context_arg = function->getArg(1);
  context_arg->setName("group");

  llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "entry", function));
  llvm::Value *work_item = b.CreateAlloca(work_item_type(context), nullptr, "work_item");
  fill_work_item(b, work_item, context_arg, subgroup_size);
  llvm::Value *empty = b.getFalse();
  for (unsigned d = 0; d < 3; ++d) {
    empty = b.CreateOr(empty, b.CreateICmpEQ(load_work_item(b, work_item, LocalSize, d), b.getInt64(0)));
  }
  auto *run = llvm::BasicBlock::Create(context, "run", function);
  auto *exit = llvm::BasicBlock::Create(context, "exit", function);
  b.CreateCondBr(empty, exit, run);
  b.SetInsertPoint(run);
  // The call runs ctx->group_count groups: the kernel's arguments are loaded
  // once, and LLVM may hoist what the groups share out of their loop.
  llvm::SmallVector<llvm::Value *, 8> values;
  if (!uses_barriers) {
    values = load_arguments(b, kernel, args);
    values.push_back(work_item);
  }
  llvm::Value *groups = b.CreateLoad(
      b.getInt32Ty(), b.CreatePointerCast(b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), context_arg,
                                                                       offsetof(GroupContext, group_count)),
                                          b.getInt32Ty()->getPointerTo()),
      "group_count");
  auto *group_loop = llvm::BasicBlock::Create(context, "group", function);
  b.CreateBr(group_loop);
  b.SetInsertPoint(group_loop);
  llvm::PHINode *done_groups = b.CreatePHI(b.getInt32Ty(), 2, "groups_done");
  done_groups->addIncoming(b.getInt32(0), run);
  bool as_regions = false;
  llvm::CallInst *lanes_call = nullptr; // the kernel's call in a loop over a sub-group's lanes
  llvm::MDNode *lanes_accesses = llvm::MDNode::getDistinct(context, {});
  if (uses_barriers) {
    as_regions = emit_group_with_barriers(b, *function, kernel, args, work_item, subgroup_size, fiber_barriers);
  } else {
    lanes_call = emit_group_loops(b, kernel, values, work_item, subgroup_size, lanes_accesses);
  }
  llvm::Value *next_done = b.CreateNUWAdd(done_groups, b.getInt32(1));
  auto *advance = llvm::BasicBlock::Create(context, "next_group", function);
  done_groups->addIncoming(next_done, advance);
  b.CreateCondBr(b.CreateICmpULT(next_done, groups), advance, exit);
  b.SetInsertPoint(advance);
  emit_next_group_id(b, work_item);
  b.CreateBr(group_loop);
  b.SetInsertPoint(exit);
  b.CreateRetVoid();
  exit->moveAfter(&function->back());
  if (lanes_call != nullptr) mark_lanes_parallel(*function, work_item, lanes_call, lanes_accesses);
  return as_regions;
}

} // namespace

void log_fiber_path(llvm::StringRef kernel, const std::string &why) {
  logger("zeal-cpu").info("kernel '{}' runs its work-items on fibers (a stack each) for its barriers and collectives: {}",
                          kernel.str(), why);
}

std::string work_group_function_name(llvm::StringRef kernel) { return ("zeal.wg." + kernel).str(); }

Result<std::vector<KernelInfo>> describe_kernels(llvm::Module &module) {
  std::vector<KernelInfo> kernels;
  assign_local_offsets(module);
  for (llvm::Function &function : module) {
    if (function.getCallingConv() != llvm::CallingConv::SPIR_KERNEL || function.isDeclaration()) continue;
    kernels.push_back(describe_kernel(function));
    // A sub-group's lanes are tracked in one 64-bit mask (fibers.cpp).
    if (kernels.back().required_subgroup_size > sg_max_lanes) {
      return build_failure(fmt::format("kernel '{}' requires sub-group size {}; this CPU driver runs sub-groups of "
                                       "1 to {} work-items",
                                       kernels.back().name, kernels.back().required_subgroup_size, sg_max_lanes));
    }
  }
  return kernels;
}

void build_work_group_functions(llvm::Module &module, std::span<KernelInfo> kernels, const CompileOptions &options) {
  for (KernelInfo &info : kernels) {
    llvm::Function *kernel = module.getFunction(info.name);
    assert(kernel != nullptr && "described kernels are in the module");
    assert(info.subgroup_size != 0 && "compile() sets the size each kernel runs with");
    info.barrier_regions =
        build_work_group_function(module, *kernel, info.uses_barriers, info.subgroup_size, options.fiber_barriers);
    // Inlined into its work-group function, the x loop becomes vectorisable.
    kernel->setLinkage(llvm::GlobalValue::InternalLinkage);
    kernel->removeFnAttr(llvm::Attribute::NoInline);
    kernel->removeFnAttr(llvm::Attribute::OptimizeNone);
    kernel->addFnAttr(llvm::Attribute::AlwaysInline);
  }
}

uint64_t private_bytes(llvm::Module &module, llvm::StringRef kernel) {
  // Measured before optimisation (kernels compile at their first launch): the
  // static allocas of everything the work-item runs, an upper bound of what
  // stays after inlining, plus what a region kernel keeps across barriers.
  // The fiber body of a barrier kernel is its work-item function.
  llvm::Function *root = module.getFunction(("zeal.wi." + kernel).str());
  llvm::Function *group = module.getFunction(work_group_function_name(kernel));
  if (root == nullptr) root = group;
  if (root == nullptr) return 0;
  uint64_t bytes = 0;
  if (llvm::Attribute slots = group->getFnAttribute(slot_bytes_attribute); slots.isValid()) {
    slots.getValueAsString().getAsInteger(10, bytes);
  }
  llvm::StructType *hidden = work_item_type(module.getContext()); // the ids, in registers once inlined
  for (llvm::Function *function : reachable_functions(*root)) {
    for (const llvm::Instruction &inst : llvm::instructions(*function)) {
      auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&inst);
      if (alloca == nullptr || alloca->getAllocatedType() == hidden) continue;
      if (auto size = alloca->getAllocationSizeInBits(module.getDataLayout())) bytes += size->getFixedSize() / 8;
    }
  }
  return bytes;
}

} // namespace zeal::cpu::detail

namespace zeal::cpu::detail {

// The hidden work-item is the last parameter of every device function by now.
void lower_barriers_and_fences(llvm::Module &module) {
  llvm::LLVMContext &context = module.getContext();
  llvm::FunctionCallee barrier = module.getOrInsertFunction(barrier_symbol, llvm::Type::getVoidTy(context),
                                                            work_item_pointer_type(context));
  for (llvm::Function &function : llvm::make_early_inc_range(module)) {
    llvm::StringRef base = opencl_base_name(function.getName());
    bool is_barrier = function.isDeclaration() && is_barrier_builtin(function.getName());
    bool is_fence = function.isDeclaration() && (base == "mem_fence" || base == "read_mem_fence" ||
                                                 base == "write_mem_fence" || base == "atomic_work_item_fence");
    if (!is_barrier && !is_fence) continue;
    for (llvm::User *user : llvm::make_early_inc_range(function.users())) {
      auto *call = llvm::dyn_cast<llvm::CallInst>(user);
      if (call == nullptr || call->getCalledOperand() != &function) continue;
      llvm::IRBuilder<> b(call);
      if (is_barrier) {
        // All work-items of a group run on one thread, so no hardware fence
        // is needed; the opaque call keeps the optimiser from moving loads
        // and stores across it.
        b.CreateCall(barrier, {call->getArgOperand(call->arg_size() - 1)});
      } else {
        // The translator's OpenCL 1.2 names drop the order and scope, so a
        // fence is sequentially consistent: never weaker than asked.
        b.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
      }
      call->eraseFromParent();
    }
    if (function.use_empty()) function.eraseFromParent();
  }
  if (auto *declared = module.getFunction(barrier_symbol); declared && declared->use_empty()) declared->eraseFromParent();
}

} // namespace zeal::cpu::detail
