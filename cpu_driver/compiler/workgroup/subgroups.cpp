// Sub-group built-ins: ids and sizes inline on the WorkItem, block I/O inline, collectives and ballot queries as host calls.
#include "cpu_driver/compiler/host_runtime.hpp"
#include "spirv_frontend/instruction_calls.hpp"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Constants.h>

#include <algorithm>
#include <optional>

namespace zeal::cpu::detail {
namespace {

// Sub-group i holds linear ids [i*S, (i+1)*S); the last one may be partial.
// The work-item's sub-group and lane are fields its loops keep (internal.hpp).
struct Mapping {
  llvm::Value *size, *id, *lane, *total;
};

Mapping mapping(llvm::IRBuilder<> &b, llvm::Value *wi) {
  llvm::Value *total = b.CreateMul(b.CreateMul(load_work_item(b, wi, LocalSize, 0), load_work_item(b, wi, LocalSize, 1)),
                                   load_work_item(b, wi, LocalSize, 2));
  return {load_work_item(b, wi, SubgroupSize), load_work_item(b, wi, SubgroupId), load_work_item(b, wi, SubgroupLocalId),
          total};
}

bool is_query(llvm::StringRef base) {
  return base == "get_sub_group_local_id" || base == "get_sub_group_id" || base == "get_max_sub_group_size" ||
         base == "get_num_sub_groups" || base == "get_enqueued_num_sub_groups" || base == "get_sub_group_size";
}

std::optional<llvm::Value *> query(llvm::IRBuilder<> &b, llvm::StringRef base, llvm::Value *wi) {
  if (!is_query(base)) return std::nullopt;
  Mapping m = mapping(b, wi);
  llvm::Value *id = m.id;
  if (base == "get_sub_group_local_id") return m.lane;
  if (base == "get_sub_group_id") return id;
  if (base == "get_max_sub_group_size") return m.size;
  // Work-groups are uniform (GroupContext has one local size), so enqueued = actual.
  if (base == "get_num_sub_groups" || base == "get_enqueued_num_sub_groups") {
    return b.CreateUDiv(b.CreateAdd(m.total, b.CreateSub(m.size, b.getInt64(1))), m.size);
  }
  if (base == "get_sub_group_size") {
    llvm::Value *left = b.CreateSub(m.total, b.CreateMul(id, m.size));
    return b.CreateSelect(b.CreateICmpULT(left, m.size), left, m.size);
  }
  return std::nullopt;
}

// intel_sub_group_block_read{,2,4,8}{,_ui,_us}: lane l of a sub-group of max size S gets p[k*S + l]
// as component k. No lane reads another's value, so no exchange (and no fiber) is needed.
bool define_block_io(llvm::Function &f, llvm::StringRef base, llvm::Value *wi, llvm::IRBuilder<> &b) {
  bool read = base.startswith("intel_sub_group_block_read");
  bool write = base.startswith("intel_sub_group_block_write");
  if (!read && !write) return false;
  llvm::Value *pointer = f.getArg(0);
  if (!pointer->getType()->isPointerTy()) return false; // image block I/O: left undefined, reported at build
  Mapping m = mapping(b, wi);
  llvm::Value *lane = m.lane;
  llvm::Type *data = read ? f.getReturnType() : f.getArg(1)->getType();
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(data);
  unsigned count = vector ? unsigned(vector->getNumElements()) : 1;
  llvm::Type *element = vector ? vector->getElementType() : data;
  // In the pointer's own address space: a cast to another would hide the stride from the vectoriser.
  llvm::Value *base_pointer =
      b.CreatePointerCast(pointer, llvm::PointerType::get(element, pointer->getType()->getPointerAddressSpace()));
  llvm::Value *result = llvm::UndefValue::get(data);
  for (unsigned k = 0; k < count; ++k) {
    llvm::Value *index = b.CreateAdd(b.CreateMul(b.getInt64(k), m.size), lane);
    llvm::Value *at = b.CreateInBoundsGEP(element, base_pointer, index);
    if (read) {
      llvm::Value *value = b.CreateLoad(element, at);
      result = vector ? b.CreateInsertElement(result, value, k) : value;
    } else {
      llvm::Value *value = vector ? b.CreateExtractElement(f.getArg(1), k) : f.getArg(1);
      b.CreateStore(value, at);
    }
  }
  if (read) {
    b.CreateRet(result);
  } else {
    b.CreateRetVoid();
  }
  return true;
}

std::optional<SgArith> arith(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<SgArith>>(name)
      .Case("add", SgArith::Add).Case("mul", SgArith::Mul).Case("min", SgArith::Min).Case("max", SgArith::Max)
      .Case("and", SgArith::And).Case("or", SgArith::Or).Case("xor", SgArith::Xor)
      .Case("logical_and", SgArith::LogicalAnd).Case("logical_or", SgArith::LogicalOr)
      .Case("logical_xor", SgArith::LogicalXor).Default(std::nullopt);
}

struct Collective {
  SgOp op;
  SgArith arith = SgArith::Add;
};

std::optional<Collective> arithmetic(llvm::StringRef base) {
  llvm::StringRef rest = base;
  if (!rest.consume_front("sub_group_")) return std::nullopt;
  rest.consume_front("non_uniform_");
  SgOp op;
  if (rest.consume_front("reduce_")) op = SgOp::Reduce;
  else if (rest.consume_front("scan_inclusive_")) op = SgOp::ScanInclusive;
  else if (rest.consume_front("scan_exclusive_")) op = SgOp::ScanExclusive;
  else if (rest.consume_front("clustered_reduce_")) op = SgOp::ClusteredReduce;
  else return std::nullopt;
  std::optional<SgArith> a = arith(rest);
  if (!a) return std::nullopt;
  return Collective{op, *a};
}

std::optional<Collective> collective(llvm::StringRef base) {
  if (auto a = arithmetic(base)) return a;
  auto op = llvm::StringSwitch<std::optional<SgOp>>(base)
                .Case("intel_sub_group_shuffle", SgOp::Shuffle).Case("sub_group_shuffle", SgOp::Shuffle)
                .Case("intel_sub_group_shuffle_down", SgOp::ShuffleDown)
                .Case("intel_sub_group_shuffle_up", SgOp::ShuffleUp)
                .Case("intel_sub_group_shuffle_xor", SgOp::ShuffleXor).Case("sub_group_shuffle_xor", SgOp::ShuffleXor)
                .Case("sub_group_shuffle_up", SgOp::ShuffleUpKhr).Case("sub_group_shuffle_down", SgOp::ShuffleDownKhr)
                .Case("sub_group_broadcast", SgOp::Broadcast).Case("sub_group_non_uniform_broadcast", SgOp::Broadcast)
                .Case("sub_group_broadcast_first", SgOp::BroadcastFirst)
                .Case("sub_group_all", SgOp::All).Case("sub_group_non_uniform_all", SgOp::All)
                .Case("sub_group_any", SgOp::Any).Case("sub_group_non_uniform_any", SgOp::Any)
                .Case("sub_group_non_uniform_all_equal", SgOp::AllEqual)
                .Case("sub_group_ballot", SgOp::Ballot).Case("sub_group_elect", SgOp::Elect)
                .Case("sub_group_barrier", SgOp::Barrier)
                .Default(std::nullopt);
  if (!op) return std::nullopt;
  return Collective{*op};
}

SgElement element_of(llvm::StringRef letter, llvm::Type *type) {
  auto known = llvm::StringSwitch<std::optional<SgElement>>(letter)
                   .Case("c", SgElement::I8).Case("a", SgElement::I8).Case("h", SgElement::U8)
                   .Case("s", SgElement::I16).Case("t", SgElement::U16).Case("i", SgElement::I32)
                   .Case("j", SgElement::U32).Case("l", SgElement::I64).Case("m", SgElement::U64)
                   .Case("Dh", SgElement::F16).Case("f", SgElement::F32).Case("d", SgElement::F64)
                   .Default(std::nullopt);
  if (known) return *known;
  // No parameter (elect) or an unmangled name: only the size matters then.
  return type && type->getScalarSizeInBits() == 64 ? SgElement::U64 : SgElement::U32;
}

// The value parameters of a collective (the WorkItem, last, excluded) go
// through memory: the lane's posted bytes, its own argument and its result.
void define_collective(llvm::Function &f, Collective c, llvm::IRBuilder<> &b) {
  llvm::Module &module = *f.getParent();
  llvm::LLVMContext &context = f.getContext();
  const llvm::DataLayout &layout = module.getDataLayout();
  llvm::Value *wi = f.getArg(f.arg_size() - 1);
  unsigned values = unsigned(f.arg_size()) - 1;
  llvm::Type *data = values > 0 ? f.getArg(0)->getType() : nullptr;
  auto *vector = data ? llvm::dyn_cast<llvm::FixedVectorType>(data) : nullptr;
  uint32_t count = vector ? uint32_t(vector->getNumElements()) : 1;
  SgElement element = element_of(mangled_param_letter(f.getName(), 0), data);
  bool two_values = c.op == SgOp::ShuffleDown || c.op == SgOp::ShuffleUp;
  bool has_arg = values > (two_values ? 2u : 1u);

  llvm::Type *byte_pointer = llvm::PointerType::get(b.getInt8Ty(), 0);
  const uint32_t code = sg_code(c.op, c.arith, element, count);
  // The post holds the value (the two values of the Intel shuffles up and
  // down), typed: a region kernel keeps it per work-item, so the posts of a
  // sub-group's lanes lie side by side and the dispatcher may load them as one
  // vector (region_collectives.cpp). combine_collective reads sg_post_bytes().
  llvm::Type *post_type = data ? data : b.getInt32Ty();
  if (two_values) post_type = llvm::ArrayType::get(data, 2);
  if (layout.getTypeAllocSize(post_type) < sg_post_bytes(code)) {
    post_type = llvm::ArrayType::get(b.getInt8Ty(), llvm::alignTo(sg_post_bytes(code), 16));
  }
  auto *post = b.CreateAlloca(post_type);
  if (data) {
    uint64_t bytes = layout.getTypeAllocSize(data);
    llvm::Value *first = b.CreatePointerCast(post, llvm::PointerType::get(data, 0));
    b.CreateStore(f.getArg(0), first);
    if (two_values) {
      llvm::Value *second = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), b.CreatePointerCast(post, b.getInt8PtrTy()), bytes);
      b.CreateStore(f.getArg(1), b.CreatePointerCast(second, llvm::PointerType::get(data, 0)));
    }
  }
  llvm::Value *arg = has_arg ? b.CreateZExtOrTrunc(f.getArg(values - 1), b.getInt32Ty()) : b.getInt32(0);
  llvm::Type *result = f.getReturnType();
  llvm::AllocaInst *out = result->isVoidTy() ? nullptr : b.CreateAlloca(result);
  llvm::FunctionCallee host = module.getOrInsertFunction(
      subgroup_symbol, llvm::Type::getVoidTy(context), wi->getType(), b.getInt32Ty(), byte_pointer, b.getInt32Ty(),
      byte_pointer);
  // Convergent: the optimiser may not make the call depend on more conditions;
  // nomerge: SimplifyCFG may not sink the calls of both sides of a branch into
  // one, which would make lanes of different paths one collective.
  auto *callee = llvm::cast<llvm::Function>(host.getCallee());
  callee->addFnAttr(llvm::Attribute::Convergent);
  callee->addFnAttr(llvm::Attribute::NoMerge);
  llvm::Value *out_bytes = out ? b.CreatePointerCast(out, byte_pointer) : llvm::ConstantPointerNull::get(
                                                                               llvm::cast<llvm::PointerType>(byte_pointer));
  llvm::CallInst *call =
      b.CreateCall(host, {wi, b.getInt32(code), b.CreatePointerCast(post, byte_pointer), arg, out_bytes});
  call->addFnAttr(llvm::Attribute::Convergent);
  call->addFnAttr(llvm::Attribute::NoMerge);
  if (out) {
    b.CreateRet(b.CreateLoad(result, out));
  } else {
    b.CreateRetVoid();
  }
  f.addFnAttr(llvm::Attribute::Convergent);
}

// intel_sub_group_<a>_<b>_matrix_mad_k<K>: the operand types by name, K checked against them; the accumulator's
// type (f16 or bf16 rather than float) picks the narrow forms.
std::optional<SgMatrix> matrix_kind(llvm::StringRef types, llvm::StringRef k, llvm::Type *result) {
  struct Form {
    SgMatrix kind;
    llvm::StringRef k;
  };
  auto form = llvm::StringSwitch<std::optional<Form>>(types)
                  .Case("i8_i8", Form{SgMatrix::I8I8, "32"}).Case("i8_u8", Form{SgMatrix::I8U8, "32"})
                  .Case("u8_i8", Form{SgMatrix::U8I8, "32"}).Case("u8_u8", Form{SgMatrix::U8U8, "32"})
                  .Case("i4_i4", Form{SgMatrix::I4I4, "64"}).Case("i4_u4", Form{SgMatrix::I4U4, "64"})
                  .Case("u4_i4", Form{SgMatrix::U4I4, "64"}).Case("u4_u4", Form{SgMatrix::U4U4, "64"})
                  .Case("f16_f16", Form{SgMatrix::F16, "16"}).Case("bf16_bf16", Form{SgMatrix::BF16, "16"})
                  .Case("tf32_tf32", Form{SgMatrix::TF32, "8"})
                  .Default(std::nullopt);
  if (!form || k != form->k) return std::nullopt;
  llvm::Type *element = result->getScalarType();
  if (form->kind == SgMatrix::F16 && element->isHalfTy()) return SgMatrix::F16AccF16;
  if (form->kind == SgMatrix::BF16 && element->isIntegerTy(16)) return SgMatrix::BF16AccBF16;
  return form->kind;
}

std::optional<SgMatrix> matrix_kind(llvm::StringRef base, llvm::Type *result) {
  llvm::StringRef rest = base;
  if (!rest.consume_front("intel_sub_group_")) return std::nullopt;
  auto [types, k] = rest.split("_matrix_mad_k");
  return matrix_kind(types, k, result);
}

// The K each operand type's product has (the legalizer checked the instruction's).
llvm::StringRef k_of(llvm::StringRef types) {
  if (types.startswith("tf32")) return "8";
  if (types.startswith("f16") || types.startswith("bf16")) return "16";
  return types.contains('4') ? "64" : "32";
}


// One collective for the whole product: each lane posts its a, its column of b and its column of acc (host_runtime.hpp,
// SgMatrix) and gets its column of the result.
void define_matrix_mad(llvm::Function &f, SgMatrix kind, llvm::IRBuilder<> &b) {
  llvm::Module &module = *f.getParent();
  llvm::Value *wi = f.getArg(f.arg_size() - 1);
  llvm::Type *result = f.getReturnType();
  auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(result);
  const uint32_t rows = vector ? uint32_t(vector->getNumElements()) : 1;
  const uint32_t a_bits = f.getArg(0)->getType()->getScalarSizeInBits();
  llvm::Type *byte_pointer = b.getInt8PtrTy();
  auto *post = b.CreateAlloca(llvm::ArrayType::get(b.getInt8Ty(), sg_matrix_post_bytes));
  post->setAlignment(llvm::Align(16));
  auto store_at = [&](llvm::Value *value, uint32_t offset) {
    llvm::Value *at = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), b.CreatePointerCast(post, byte_pointer), offset);
    b.CreateStore(value, b.CreatePointerCast(at, llvm::PointerType::get(value->getType(), 0)));
  };
  store_at(f.getArg(0), 0);
  store_at(f.getArg(1), sg_matrix_b_at);
  store_at(f.getArg(2), sg_matrix_acc_at);
  llvm::AllocaInst *out = b.CreateAlloca(result);
  llvm::FunctionCallee host = module.getOrInsertFunction(subgroup_symbol, b.getVoidTy(), wi->getType(), b.getInt32Ty(),
                                                         byte_pointer, b.getInt32Ty(), byte_pointer);
  auto *callee = llvm::cast<llvm::Function>(host.getCallee());
  callee->addFnAttr(llvm::Attribute::Convergent);
  callee->addFnAttr(llvm::Attribute::NoMerge);
  llvm::CallInst *call = b.CreateCall(host, {wi, b.getInt32(sg_matrix_code(kind, a_bits, rows)),
                                             b.CreatePointerCast(post, byte_pointer), b.getInt32(0),
                                             b.CreatePointerCast(out, byte_pointer)});
  call->addFnAttr(llvm::Attribute::Convergent);
  call->addFnAttr(llvm::Attribute::NoMerge);
  b.CreateRet(b.CreateLoad(result, out));
  f.addFnAttr(llvm::Attribute::Convergent);
}

// OpSubgroupMatrixMultiplyAccumulateINTEL, as the legalizer's calls (spirv/instruction_calls.hpp).
void define_matrix_calls(llvm::Module &module) {
  for (llvm::Function &f : module) {
    const std::string name = f.getName().str();
    const llvm::StringRef types(frontend::matrix_call_kind(name));
    if (types.empty() || !f.isDeclaration() || f.arg_size() != 4) continue;
    if (std::optional<SgMatrix> kind = matrix_kind(types, k_of(types), f.getReturnType())) {
      llvm::IRBuilder<> b = begin_builtin_body(f);
      define_matrix_mad(f, *kind, b);
    }
  }
}

// sub_group_inverse_ballot, sub_group_ballot_bit_extract, _bit_count, _inclusive_scan, _exclusive_scan,
// _find_lsb, _find_msb: pure functions of the ballot and the lane, computed on the host.
std::optional<uint32_t> ballot_query_kind(llvm::StringRef base) {
  return llvm::StringSwitch<std::optional<uint32_t>>(base)
      .Case("sub_group_inverse_ballot", 0).Case("sub_group_ballot_bit_extract", 1)
      .Case("sub_group_ballot_bit_count", 2).Case("sub_group_ballot_inclusive_scan", 3)
      .Case("sub_group_ballot_exclusive_scan", 4).Case("sub_group_ballot_find_lsb", 5)
      .Case("sub_group_ballot_find_msb", 6).Default(std::nullopt);
}

void define_ballot_query(llvm::Function &f, uint32_t kind, llvm::IRBuilder<> &b) {
  llvm::Module &module = *f.getParent();
  llvm::Value *wi = f.getArg(f.arg_size() - 1);
  llvm::Type *int_pointer = llvm::PointerType::get(b.getInt32Ty(), 0);
  llvm::AllocaInst *ballot = b.CreateAlloca(f.getArg(0)->getType());
  b.CreateStore(f.getArg(0), ballot);
  llvm::Value *arg = f.arg_size() > 2 ? b.CreateZExtOrTrunc(f.getArg(1), b.getInt32Ty()) : b.getInt32(0);
  llvm::FunctionCallee host = module.getOrInsertFunction(ballot_query_symbol, b.getInt32Ty(), wi->getType(),
                                                         b.getInt32Ty(), int_pointer, b.getInt32Ty());
  llvm::Value *value = b.CreateCall(host, {wi, b.getInt32(kind), b.CreatePointerCast(ballot, int_pointer), arg});
  b.CreateRet(b.CreateZExtOrTrunc(value, f.getReturnType()));
}

} // namespace

void store_subgroup_ids(llvm::IRBuilder<> &b, llvm::Value *work_item, llvm::Value *linear) {
  llvm::StructType *type = work_item_type(b.getContext());
  llvm::Value *size = load_work_item(b, work_item, SubgroupSize);
  b.CreateStore(b.CreateUDiv(linear, size), b.CreateStructGEP(type, work_item, SubgroupId));
  b.CreateStore(b.CreateURem(linear, size), b.CreateStructGEP(type, work_item, SubgroupLocalId));
}

llvm::MDNode *lane_loop_hints(llvm::LLVMContext &context, uint32_t lanes, llvm::MDNode *accesses) {
  auto hint = [&](const char *name, llvm::Metadata *value) -> llvm::Metadata * {
    return llvm::MDNode::get(context, {llvm::MDString::get(context, name), value});
  };
  auto *i32 = llvm::Type::getInt32Ty(context);
  auto *i1 = llvm::Type::getInt1Ty(context);
  llvm::Metadata *operands[] = {
      nullptr,
      hint("llvm.loop.vectorize.enable", llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i1, 1))),
      hint("llvm.loop.vectorize.width", llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(i32, lanes))),
      llvm::MDNode::get(context, {llvm::MDString::get(context, "llvm.loop.unroll.disable")}),
      llvm::MDNode::get(context, {llvm::MDString::get(context, "llvm.loop.parallel_accesses"), accesses})};
  llvm::MDNode *loop = llvm::MDNode::getDistinct(context, operands);
  loop->replaceOperandWith(0, loop);
  return loop;
}

bool is_subgroup_collective(llvm::StringRef name) {
  llvm::StringRef base = opencl_base_name(name);
  return collective(base).has_value() || (base.startswith("intel_sub_group_") && base.contains("_matrix_mad_k")) ||
         !frontend::matrix_call_kind(name.str()).empty();
}

void define_subgroup_builtins(llvm::Module &module) {
  define_matrix_calls(module);
  for (llvm::Function *f : undefined_builtins(module)) {
    llvm::StringRef base = opencl_base_name(f->getName());
    if (!base.contains("sub_group") || f->arg_size() == 0) continue;
    llvm::Value *wi = f->getArg(f->arg_size() - 1);
    if (wi->getType() != work_item_pointer_type(module.getContext())) continue;
    std::optional<Collective> c = collective(base);
    std::optional<uint32_t> ballot = ballot_query_kind(base);
    if (f->arg_size() == 4) {
      if (std::optional<SgMatrix> kind = matrix_kind(base, f->getReturnType())) {
        llvm::IRBuilder<> b = begin_builtin_body(*f);
        define_matrix_mad(*f, *kind, b);
        continue;
      }
    }
    // Block I/O on buffers only: an image is a pointer too (to an opaque type),
    // left undefined so that the kernels calling it are refused for taking an image.
    bool block = base.startswith("intel_sub_group_block_") && f->getArg(0)->getType()->isPointerTy() &&
                 !f->getName().contains("ocl_image");
    bool known_query = is_query(base) && f->arg_size() == 1 && f->getReturnType()->isIntegerTy();
    if (!c && !ballot && !block && !known_query) continue; // unknown: refuse_unsupported_kernels names it
    llvm::IRBuilder<> b = begin_builtin_body(*f);
    if (c) {
      define_collective(*f, *c, b);
    } else if (ballot) {
      define_ballot_query(*f, *ballot, b);
    } else if (block) {
      define_block_io(*f, base, wi, b);
    } else if (std::optional<llvm::Value *> value = query(b, base, wi)) {
      b.CreateRet(b.CreateZExtOrTrunc(*value, f->getReturnType()));
    } else {
      b.CreateUnreachable(); // not reached: is_query() accepted the name
    }
  }
}

} // namespace zeal::cpu::detail
