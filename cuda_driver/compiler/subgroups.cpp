// Sub-group built-ins: a sub-group of 32 is a warp, one of 8 or 16 a segment of one (the kernel's size is a constant
// once subgroup_sizes.cpp resolves it). The work-group's last sub-group may have fewer work-items, so a uniform
// collective's member mask is the lanes its sub-group has; non-uniform ones take the sub-group's lanes active at the
// call (`activemask`). Shuffles, broadcasts, reductions and scans use shfl.sync with the segment in its `c` operand,
// any/all/ballot vote.sync (a ballot's bits shifted so that the sub-group's lane 0 is bit 0), sub_group_barrier
// bar.warp.sync. Values wider than 32 bits are shuffled as two halves.
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/MDBuilder.h>

#include <functional>
#include <map>
#include <optional>

namespace zeal::cuda {

namespace {

namespace nvvm = llvm::Intrinsic;
using Arith = GroupArith;
using Collective = GroupCollective;

bool shufflable(llvm::Type *type) {
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) type = vector->getElementType();
  if (type->isPointerTy()) return true;
  unsigned bits = type->getPrimitiveSizeInBits();
  return (type->isIntegerTy() || type->isFloatingPointTy()) && bits > 0 && bits <= 64;
}

// The calling work-item's sub-group of `width` lanes: the segment of its warp that starts at lane `base` (shuffles
// name the segment in their `c` operand, as CUDA's width does), numbered by the linear local id.
class SubGroup {
public:
  SubGroup(llvm::IRBuilder<> &builder, llvm::Value *sub_group_width) : b(builder), width(sub_group_width) {
    auto sreg = [&](nvvm::ID which) { return call_intrinsic(b, which); };
    llvm::Value *warp_lane = sreg(nvvm::nvvm_read_ptx_sreg_laneid);
    // Under 32, so that the masks and the segment's base of a 32-lane sub-group fold to constants.
    llvm::cast<llvm::CallInst>(warp_lane)->setMetadata(
        llvm::LLVMContext::MD_range, llvm::MDBuilder(b.getContext()).createRange(llvm::APInt(32, 0), llvm::APInt(32, 32)));
    llvm::Value *nx = sreg(nvvm::nvvm_read_ptx_sreg_ntid_x), *ny = sreg(nvvm::nvvm_read_ptx_sreg_ntid_y);
    llvm::Value *tx = sreg(nvvm::nvvm_read_ptx_sreg_tid_x), *ty = sreg(nvvm::nvvm_read_ptx_sreg_tid_y);
    llvm::Value *tz = sreg(nvvm::nvvm_read_ptx_sreg_tid_z);
    llvm::Value *linear = b.CreateAdd(tx, b.CreateMul(nx, b.CreateAdd(ty, b.CreateMul(ny, tz))));
    group_size = b.CreateMul(b.CreateMul(nx, ny), sreg(nvvm::nvvm_read_ptx_sreg_ntid_z));
    log2_width = b.CreateIntrinsic(llvm::Intrinsic::cttz, {b.getInt32Ty()}, {width, b.getTrue()});
    lane = b.CreateAnd(warp_lane, b.CreateSub(width, b.getInt32(1)));
    base = b.CreateAnd(warp_lane, b.CreateNeg(width));
    id = b.CreateLShr(linear, log2_width);
    size = umin(b.CreateSub(group_size, b.CreateShl(id, log2_width)), width);
    lanes = low_bits(size);
    mask = b.CreateShl(lanes, base);
    full_mask = b.CreateShl(low_bits(width), base);
    segment = b.CreateShl(b.CreateSub(b.getInt32(32), width), 8);
  }

  llvm::Value *umin(llvm::Value *x, llvm::Value *y) { return b.CreateSelect(b.CreateICmpULT(x, y), x, y); }
  // The lowest `count` bits, `count` up to 32.
  llvm::Value *low_bits(llvm::Value *count) {
    llvm::Value *partial = b.CreateSub(b.CreateShl(b.getInt32(1), b.CreateAnd(count, 31)), b.getInt32(1));
    return b.CreateSelect(b.CreateICmpUGE(count, b.getInt32(32)), b.getInt32(~0u), partial);
  }
  llvm::Value *max_size() { return umin(group_size, width); }
  llvm::Value *count() { return b.CreateLShr(b.CreateAdd(group_size, b.CreateSub(width, b.getInt32(1))), log2_width); }

  // The sub-group's lanes active at the call, as warp lanes (a member mask).
  llvm::Value *active_mask() {
    auto *type = llvm::FunctionType::get(b.getInt32Ty(), false);
    return b.CreateAnd(b.CreateCall(llvm::InlineAsm::get(type, "activemask.b32 $0;", "=r", true), {}), mask);
  }
  // Warp lanes as the sub-group's: its first lane at bit 0.
  llvm::Value *local(llvm::Value *warp_bits) { return b.CreateLShr(warp_bits, base); }

  // shfl.sync of any shufflable value within the segment: vectors by element, pointers as integers, 64 bits as two
  // halves. `operand` counts in the sub-group's lanes.
  llvm::Value *shuffle(nvvm::ID kind, llvm::Value *member_mask, llvm::Value *value, llvm::Value *operand,
                       unsigned clamp) {
    llvm::Type *type = value->getType();
    if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
      llvm::Value *result = llvm::PoisonValue::get(type);
      for (unsigned i = 0; i < vector->getNumElements(); ++i) {
        llvm::Value *element = shuffle(kind, member_mask, b.CreateExtractElement(value, i), operand, clamp);
        result = b.CreateInsertElement(result, element, i);
      }
      return result;
    }
    if (type->isPointerTy()) {
      llvm::Value *bits = shuffle(kind, member_mask, b.CreatePtrToInt(value, b.getInt64Ty()), operand, clamp);
      return b.CreateIntToPtr(bits, type);
    }
    unsigned bit_width = type->getPrimitiveSizeInBits();
    llvm::Value *bits = type->isIntegerTy() ? value : b.CreateBitCast(value, b.getIntNTy(bit_width));
    llvm::Value *lane_operand = b.CreateZExtOrTrunc(operand, b.getInt32Ty());
    llvm::Value *c = b.CreateOr(segment, b.getInt32(clamp));
    auto one = [&](llvm::Value *word) { return call_intrinsic(b, kind, {member_mask, word, lane_operand, c}); };
    llvm::Value *result = nullptr;
    if (bit_width <= 32) {
      result = b.CreateTrunc(one(b.CreateZExt(bits, b.getInt32Ty())), b.getIntNTy(bit_width));
    } else {
      llvm::Value *low = one(b.CreateTrunc(bits, b.getInt32Ty()));
      llvm::Value *high = one(b.CreateTrunc(b.CreateLShr(bits, 32), b.getInt32Ty()));
      result = b.CreateOr(b.CreateZExt(low, b.getInt64Ty()), b.CreateShl(b.CreateZExt(high, b.getInt64Ty()), 32));
    }
    return type->isIntegerTy() ? result : b.CreateBitCast(result, type);
  }
  llvm::Value *from_lane(llvm::Value *value, llvm::Value *source) {
    return shuffle(nvvm::nvvm_shfl_sync_idx_i32, mask, value, source, 0x1f);
  }

  // The value `when_true` makes where the uniform `condition` holds, else `when_false`'s, each in its own block.
  llvm::Value *either(llvm::Value *condition, const std::function<llvm::Value *()> &when_true,
                      const std::function<llvm::Value *()> &when_false) {
    llvm::Function *function = b.GetInsertBlock()->getParent();
    auto *yes = llvm::BasicBlock::Create(b.getContext(), "then", function);
    auto *no = llvm::BasicBlock::Create(b.getContext(), "else", function);
    auto *merge = llvm::BasicBlock::Create(b.getContext(), "merge", function);
    b.CreateCondBr(condition, yes, no);
    b.SetInsertPoint(yes);
    llvm::Value *first = when_true();
    llvm::BasicBlock *yes_end = b.GetInsertBlock();
    b.CreateBr(merge);
    b.SetInsertPoint(no);
    llvm::Value *second = when_false();
    llvm::BasicBlock *no_end = b.GetInsertBlock();
    b.CreateBr(merge);
    b.SetInsertPoint(merge);
    llvm::PHINode *result = b.CreatePHI(first->getType(), 2);
    result->addIncoming(first, yes_end);
    result->addIncoming(second, no_end);
    return result;
  }
  // Runs `step` on `value` only where the uniform `condition` holds, as a branch rather than a select: a shuffle's
  // call stays in the code even when its result is unused, but a branch on a constant folds away with it.
  llvm::Value *step_if(llvm::Value *condition, llvm::Value *value, const std::function<llvm::Value *(llvm::Value *)> &step) {
    if (auto *known = llvm::dyn_cast<llvm::ConstantInt>(condition)) return known->isOne() ? step(value) : value;
    return either(condition, [&] { return step(value); }, [&] { return value; });
  }
  // Whether a step of `offset` lanes stays inside the sub-group: always under 8, the smallest size.
  llvm::Value *within(unsigned offset) {
    return offset < 8 ? b.getTrue() : b.CreateICmpULT(b.getInt32(offset), width);
  }

  llvm::IRBuilder<> &b;
  llvm::Value *width;
  llvm::Value *log2_width, *lane, *base, *group_size, *id, *size, *lanes, *mask, *segment;
  llvm::Value *full_mask; // the member mask when the sub-group is full: a constant at size 32
};

} // namespace

llvm::Value *group_combine(llvm::IRBuilder<> &b, GroupArith arith, bool is_unsigned, llvm::Value *x, llvm::Value *y) {
  bool fp = x->getType()->isFloatingPointTy();
  switch (arith) {
  case Arith::Add: return fp ? b.CreateFAdd(x, y) : b.CreateAdd(x, y);
  case Arith::Mul: return fp ? b.CreateFMul(x, y) : b.CreateMul(x, y);
  case Arith::Min:
    if (fp) return b.CreateMinNum(x, y);
    return b.CreateSelect(is_unsigned ? b.CreateICmpULT(x, y) : b.CreateICmpSLT(x, y), x, y);
  case Arith::Max:
    if (fp) return b.CreateMaxNum(x, y);
    return b.CreateSelect(is_unsigned ? b.CreateICmpUGT(x, y) : b.CreateICmpSGT(x, y), x, y);
  case Arith::And: return b.CreateAnd(x, y);
  case Arith::Or: return b.CreateOr(x, y);
  case Arith::Xor: return b.CreateXor(x, y);
  }
  return x;
}

llvm::Constant *group_identity(llvm::Type *type, GroupArith arith, bool is_unsigned) {
  if (type->isFloatingPointTy()) {
    const llvm::fltSemantics &semantics = type->getFltSemantics();
    if (arith == Arith::Min) return llvm::ConstantFP::getInfinity(type, false);
    if (arith == Arith::Max) return llvm::ConstantFP::getInfinity(type, true);
    return llvm::ConstantFP::get(type->getContext(), llvm::APFloat(semantics, arith == Arith::Mul ? "1" : "0"));
  }
  unsigned bits = type->getIntegerBitWidth();
  switch (arith) {
  case Arith::Mul: return llvm::ConstantInt::get(type, 1);
  case Arith::And: return llvm::ConstantInt::get(type, llvm::APInt::getAllOnes(bits));
  case Arith::Min:
    return llvm::ConstantInt::get(type, is_unsigned ? llvm::APInt::getMaxValue(bits) : llvm::APInt::getSignedMaxValue(bits));
  case Arith::Max:
    return llvm::ConstantInt::get(type, is_unsigned ? llvm::APInt::getMinValue(bits) : llvm::APInt::getSignedMinValue(bits));
  default: return llvm::ConstantInt::get(type, 0);
  }
}

std::optional<GroupArith> group_arith(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<Arith>>(name)
      .Case("add", Arith::Add).Case("mul", Arith::Mul).Case("min", Arith::Min).Case("max", Arith::Max)
      .Case("and", Arith::And).Case("or", Arith::Or).Case("xor", Arith::Xor).Default(std::nullopt);
}

namespace {

llvm::Value *combine(llvm::IRBuilder<> &b, Arith arith, bool is_unsigned, llvm::Value *x, llvm::Value *y) {
  return group_combine(b, arith, is_unsigned, x, y);
}
llvm::Constant *identity(llvm::Type *type, Arith arith, bool is_unsigned) {
  return group_identity(type, arith, is_unsigned);
}

// A reduction within clusters of `cluster` lanes (a power of two up to the sub-group's size, a constant at every
// clustered call; null for a whole reduction). A full sub-group (the common case) reduces by
// butterflies, which leave each cluster's total in all its lanes with neither a select nor a broadcast; a short last
// one shuffles down, keeps out what comes from lanes past its end or its cluster's, and broadcasts each cluster's
// first lane. The branch is uniform: every lane of a sub-group has the same size.
llvm::Value *reduce(SubGroup &sg, Arith arith, bool is_unsigned, llvm::Value *value, llvm::Value *cluster_size) {
  llvm::IRBuilder<> &b = sg.b;
  llvm::Value *cluster = cluster_size != nullptr ? cluster_size : sg.width;
  auto steps = [&](unsigned offset) { return b.CreateAnd(sg.within(offset), b.CreateICmpULT(b.getInt32(offset), cluster)); };
  auto butterflies = [&] {
    llvm::Value *v = value;
    for (unsigned offset = 1; offset < 32; offset *= 2) {
      v = sg.step_if(steps(offset), v, [&](llvm::Value *x) {
        llvm::Value *other = sg.shuffle(nvvm::nvvm_shfl_sync_bfly_i32, sg.full_mask, x, b.getInt32(offset), 0x1f);
        return combine(b, arith, is_unsigned, x, other);
      });
    }
    return v;
  };
  auto shuffles_down = [&] {
    llvm::Value *in_cluster = b.CreateAnd(sg.lane, b.CreateSub(cluster, b.getInt32(1)));
    llvm::Value *v = value;
    for (unsigned offset = 1; offset < 32; offset *= 2) {
      v = sg.step_if(steps(offset), v, [&](llvm::Value *x) {
        llvm::Value *other = sg.shuffle(nvvm::nvvm_shfl_sync_down_i32, sg.mask, x, b.getInt32(offset), 0x1f);
        llvm::Value *inside = b.CreateICmpULT(b.CreateAdd(sg.lane, b.getInt32(offset)), sg.size);
        if (cluster_size != nullptr) {
          inside = b.CreateAnd(inside, b.CreateICmpULT(b.CreateAdd(in_cluster, b.getInt32(offset)), cluster));
        }
        return b.CreateSelect(inside, combine(b, arith, is_unsigned, x, other), x);
      });
    }
    return sg.from_lane(v, b.CreateSub(sg.lane, in_cluster));
  };
  return sg.either(b.CreateICmpEQ(sg.size, sg.width), butterflies, shuffles_down);
}

// Scans shuffle up, which reads only lanes below, so a short sub-group needs no other path.
llvm::Value *scan(SubGroup &sg, bool inclusive, Arith arith, bool is_unsigned, llvm::Value *value) {
  llvm::IRBuilder<> &b = sg.b;
  llvm::Value *v = value;
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    v = sg.step_if(sg.within(offset), v, [&](llvm::Value *x) {
      llvm::Value *other = sg.shuffle(nvvm::nvvm_shfl_sync_up_i32, sg.mask, x, b.getInt32(offset), 0);
      return b.CreateSelect(b.CreateICmpUGE(sg.lane, b.getInt32(offset)), combine(b, arith, is_unsigned, x, other), x);
    });
  }
  if (inclusive) return v;
  llvm::Value *before = sg.shuffle(nvvm::nvvm_shfl_sync_up_i32, sg.mask, v, b.getInt32(1), 0);
  return b.CreateSelect(b.CreateICmpEQ(sg.lane, b.getInt32(0)), identity(v->getType(), arith, is_unsigned), before);
}

llvm::Value *collective(SubGroup &sg, Collective kind, Arith arith, bool is_unsigned, llvm::Value *value) {
  if (kind == Collective::Reduce) return reduce(sg, arith, is_unsigned, value, nullptr);
  return scan(sg, kind == Collective::ScanInclusive, arith, is_unsigned, value);
}

// A non-uniform collective: the lanes active at the call. When they are the whole sub-group, the uniform code;
// otherwise one shuffle per active lane, in lane order (every active lane runs the same count, so they stay
// converged).
llvm::Value *non_uniform(SubGroup &sg, Collective kind, Arith arith, bool is_unsigned, llvm::Value *value) {
  llvm::IRBuilder<> &b = sg.b;
  llvm::Function *function = b.GetInsertBlock()->getParent();
  llvm::LLVMContext &context = b.getContext();
  auto *whole = llvm::BasicBlock::Create(context, "whole", function);
  auto *loop = llvm::BasicBlock::Create(context, "lanes", function);
  auto *body = llvm::BasicBlock::Create(context, "lane", function);
  auto *merge = llvm::BasicBlock::Create(context, "merge", function);
  llvm::Value *active = sg.active_mask();
  llvm::Value *active_lanes = sg.local(active);
  llvm::BasicBlock *entry = b.GetInsertBlock();
  b.CreateCondBr(b.CreateICmpEQ(active, sg.mask), whole, loop);
  b.SetInsertPoint(whole);
  llvm::Value *uniform = collective(sg, kind, arith, is_unsigned, value);
  llvm::BasicBlock *whole_end = b.GetInsertBlock();
  b.CreateBr(merge);
  b.SetInsertPoint(loop);
  llvm::PHINode *left = b.CreatePHI(b.getInt32Ty(), 2);
  llvm::PHINode *total = b.CreatePHI(value->getType(), 2);
  left->addIncoming(active_lanes, entry);
  total->addIncoming(identity(value->getType(), arith, is_unsigned), entry);
  b.CreateCondBr(b.CreateICmpEQ(left, b.getInt32(0)), merge, body);
  b.SetInsertPoint(body);
  llvm::Value *source = b.CreateIntrinsic(llvm::Intrinsic::cttz, {b.getInt32Ty()}, {left, b.getTrue()});
  llvm::Value *other = sg.shuffle(nvvm::nvvm_shfl_sync_idx_i32, active, value, source, 0x1f);
  llvm::Value *counted = kind == Collective::Reduce          ? b.getTrue()
                         : kind == Collective::ScanInclusive ? b.CreateICmpULE(source, sg.lane)
                                                             : b.CreateICmpULT(source, sg.lane);
  llvm::Value *next = b.CreateSelect(counted, combine(b, arith, is_unsigned, total, other), total);
  left->addIncoming(b.CreateAnd(left, b.CreateSub(left, b.getInt32(1))), body);
  total->addIncoming(next, body);
  b.CreateBr(loop);
  b.SetInsertPoint(merge);
  llvm::PHINode *result = b.CreatePHI(value->getType(), 2);
  result->addIncoming(uniform, whole_end);
  result->addIncoming(total, loop);
  return result;
}

struct ArithCall {
  Collective kind;
  Arith arith;
  bool non_uniform = false;
  bool logical = false; // on truth values: the operand counts as 0 or 1
};

// sub_group_reduce_<op>, sub_group_scan_inclusive_<op>, sub_group_scan_exclusive_<op> (uniform forms).
std::optional<ArithCall> arithmetic(llvm::StringRef base) {
  llvm::StringRef rest = base;
  if (!rest.consume_front("sub_group_")) return std::nullopt;
  bool non_uniform = rest.consume_front("non_uniform_");
  Collective kind;
  if (rest.consume_front("reduce_")) kind = Collective::Reduce;
  else if (rest.consume_front("scan_inclusive_")) kind = Collective::ScanInclusive;
  else if (rest.consume_front("scan_exclusive_")) kind = Collective::ScanExclusive;
  else if (rest.consume_front("clustered_reduce_")) kind = Collective::ClusteredReduce;
  else return std::nullopt;
  bool logical = rest.consume_front("logical_");
  std::optional<Arith> arith = group_arith(rest);
  if (logical && arith && *arith != Arith::And && *arith != Arith::Or && *arith != Arith::Xor) return std::nullopt;
  if (!arith || (non_uniform && kind == Collective::ClusteredReduce)) return std::nullopt;
  return ArithCall{kind, *arith, non_uniform, logical};
}

using Body = std::function<llvm::Value *(SubGroup &, llvm::Function &)>;

llvm::Value *arg(llvm::Function &f, unsigned i) { return f.getArg(i); }

llvm::Value *vote(SubGroup &sg, nvvm::ID id, llvm::Value *member_mask, llvm::Value *predicate) {
  llvm::Value *truth = sg.b.CreateICmpNE(predicate, llvm::Constant::getNullValue(predicate->getType()));
  return call_intrinsic(sg.b, id, {member_mask, truth});
}

// The sub-group's first lane in `active` (warp lanes), as its lane number.
llvm::Value *first_active(SubGroup &sg, llvm::Value *active) {
  return sg.b.CreateIntrinsic(llvm::Intrinsic::cttz, {sg.b.getInt32Ty()}, {sg.local(active), sg.b.getTrue()});
}

llvm::Value *intel_shuffle_down(SubGroup &sg, llvm::Function &f) {
  llvm::IRBuilder<> &b = sg.b;
  llvm::Value *index = b.CreateAdd(sg.lane, b.CreateZExtOrTrunc(arg(f, 2), b.getInt32Ty()));
  llvm::Value *current = sg.from_lane(arg(f, 0), index);
  llvm::Value *next = sg.from_lane(arg(f, 1), b.CreateSub(index, sg.size));
  return b.CreateSelect(b.CreateICmpULT(index, sg.size), current, next);
}

llvm::Value *intel_shuffle_up(SubGroup &sg, llvm::Function &f) {
  llvm::IRBuilder<> &b = sg.b;
  llvm::Value *delta = b.CreateZExtOrTrunc(arg(f, 2), b.getInt32Ty());
  llvm::Value *index = b.CreateSub(sg.lane, delta);
  llvm::Value *previous = sg.from_lane(arg(f, 0), b.CreateAdd(index, sg.size));
  llvm::Value *current = sg.from_lane(arg(f, 1), index);
  return b.CreateSelect(b.CreateICmpUGE(sg.lane, delta), current, previous);
}

const std::map<std::string, Body> &subgroup_bodies() {
  using F = llvm::Function;
  static const std::map<std::string, Body> bodies = {
      {"get_sub_group_local_id", [](SubGroup &sg, F &) { return sg.lane; }},
      {"get_sub_group_id", [](SubGroup &sg, F &) { return sg.id; }},
      {"get_sub_group_size", [](SubGroup &sg, F &) { return sg.size; }},
      {"get_max_sub_group_size", [](SubGroup &sg, F &) { return sg.max_size(); }},
      {"get_num_sub_groups", [](SubGroup &sg, F &) { return sg.count(); }},
      {"get_enqueued_num_sub_groups", [](SubGroup &sg, F &) { return sg.count(); }},
      {"sub_group_barrier", [](SubGroup &sg, F &) { call_intrinsic(sg.b, nvvm::nvvm_bar_warp_sync, {sg.mask}); return nullptr; }},
      {"intel_sub_group_shuffle", [](SubGroup &sg, F &f) { return sg.from_lane(arg(f, 0), arg(f, 1)); }},
      {"sub_group_shuffle", [](SubGroup &sg, F &f) { return sg.from_lane(arg(f, 0), arg(f, 1)); }},
      {"sub_group_broadcast", [](SubGroup &sg, F &f) { return sg.from_lane(arg(f, 0), arg(f, 1)); }},
      {"sub_group_non_uniform_broadcast", [](SubGroup &sg, F &f) {
         return sg.shuffle(nvvm::nvvm_shfl_sync_idx_i32, sg.active_mask(), arg(f, 0), arg(f, 1), 0x1f); }},
      {"intel_sub_group_shuffle_xor", [](SubGroup &sg, F &f) {
         return sg.shuffle(nvvm::nvvm_shfl_sync_bfly_i32, sg.mask, arg(f, 0), arg(f, 1), 0x1f); }},
      {"sub_group_shuffle_xor", [](SubGroup &sg, F &f) {
         return sg.shuffle(nvvm::nvvm_shfl_sync_bfly_i32, sg.mask, arg(f, 0), arg(f, 1), 0x1f); }},
      {"sub_group_shuffle_down", [](SubGroup &sg, F &f) {
         return sg.shuffle(nvvm::nvvm_shfl_sync_down_i32, sg.mask, arg(f, 0), arg(f, 1), 0x1f); }},
      {"sub_group_shuffle_up", [](SubGroup &sg, F &f) {
         return sg.shuffle(nvvm::nvvm_shfl_sync_up_i32, sg.mask, arg(f, 0), arg(f, 1), 0); }},
      {"intel_sub_group_shuffle_down", intel_shuffle_down},
      {"intel_sub_group_shuffle_up", intel_shuffle_up},
      {"sub_group_all", [](SubGroup &sg, F &f) { return vote(sg, nvvm::nvvm_vote_all_sync, sg.mask, arg(f, 0)); }},
      {"sub_group_any", [](SubGroup &sg, F &f) { return vote(sg, nvvm::nvvm_vote_any_sync, sg.mask, arg(f, 0)); }},
      {"sub_group_non_uniform_all", [](SubGroup &sg, F &f) { return vote(sg, nvvm::nvvm_vote_all_sync, sg.active_mask(), arg(f, 0)); }},
      {"sub_group_non_uniform_any", [](SubGroup &sg, F &f) { return vote(sg, nvvm::nvvm_vote_any_sync, sg.active_mask(), arg(f, 0)); }},
      {"sub_group_ballot", [](SubGroup &sg, F &f) {
         llvm::Value *active = sg.active_mask();
         return sg.local(sg.b.CreateAnd(vote(sg, nvvm::nvvm_vote_ballot_sync, active, arg(f, 0)), active)); }},
      {"sub_group_broadcast_first", [](SubGroup &sg, F &f) {
         llvm::Value *active = sg.active_mask();
         return sg.shuffle(nvvm::nvvm_shfl_sync_idx_i32, active, arg(f, 0), first_active(sg, active), 0x1f); }},
      {"sub_group_non_uniform_all_equal", [](SubGroup &sg, F &f) {
         llvm::Value *active = sg.active_mask();
         llvm::Value *first = first_active(sg, active);
         llvm::Value *value = arg(f, 0);
         llvm::Value *theirs = sg.shuffle(nvvm::nvvm_shfl_sync_idx_i32, active, value, first, 0x1f);
         llvm::Value *same = value->getType()->isFloatingPointTy() ? sg.b.CreateFCmpOEQ(value, theirs)
                                                                    : sg.b.CreateICmpEQ(value, theirs);
         return call_intrinsic(sg.b, nvvm::nvvm_vote_all_sync, {active, same}); }},
      {"sub_group_elect", [](SubGroup &sg, F &) { return sg.b.CreateICmpEQ(sg.lane, first_active(sg, sg.active_mask())); }},
  };
  return bodies;
}

// The call's result in the declaration's return type: an integer widened or narrowed, a ballot in a uint4's x.
llvm::Value *as_result(llvm::IRBuilder<> &b, llvm::Value *value, llvm::Type *type) {
  if (value->getType() == type) return value;
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
    llvm::Value *zero = llvm::Constant::getNullValue(type);
    return b.CreateInsertElement(zero, b.CreateZExtOrTrunc(value, vector->getElementType()), uint64_t{0});
  }
  return b.CreateZExtOrTrunc(value, type);
}

bool define_subgroup_builtin(llvm::Function &f) {
  llvm::StringRef base = opencl_base_name(f.getName());
  auto known = subgroup_bodies().find(base.str());
  std::optional<ArithCall> arith = arithmetic(base);
  if (known == subgroup_bodies().end() && !arith) return false;
  if (f.arg_size() > 0 && !shufflable(f.getArg(0)->getType())) return false;
  if (arith && !(f.getReturnType()->isIntegerTy() || f.getReturnType()->isFloatingPointTy())) return false;
  if (arith && arith->logical && !f.getArg(0)->getType()->isIntegerTy()) return false;
  if (arith && (arith->kind == Collective::ClusteredReduce) != (f.arg_size() == 2)) return false;
  llvm::IRBuilder<> b = begin_definition(f);
  f.addFnAttr(llvm::Attribute::Convergent);
  SubGroup sg(b, subgroup_size(b));
  bool is_unsigned = first_parameter_unsigned(f.getName());
  llvm::Value *result = nullptr;
  llvm::Value *operand = f.arg_size() > 0 ? arg(f, 0) : nullptr;
  if (arith && arith->logical) {
    llvm::Type *type = operand->getType();
    operand = b.CreateZExt(b.CreateICmpNE(operand, llvm::Constant::getNullValue(type)), type);
  }
  if (!arith) result = known->second(sg, f);
  else if (arith->kind == Collective::ClusteredReduce) {
    llvm::Value *cluster = b.CreateZExtOrTrunc(arg(f, 1), b.getInt32Ty());
    result = reduce(sg, arith->arith, is_unsigned, operand, cluster);
  }
  else if (arith->non_uniform) result = non_uniform(sg, arith->kind, arith->arith, is_unsigned, operand);
  else result = collective(sg, arith->kind, arith->arith, is_unsigned, operand);
  if (f.getReturnType()->isVoidTy()) b.CreateRetVoid();
  else b.CreateRet(as_result(b, result, f.getReturnType()));
  return true;
}

} // namespace

llvm::Value *subgroup_member_mask(llvm::IRBuilder<> &b) { return SubGroup(b, subgroup_size(b)).mask; }

SubGroupPlace subgroup_place(llvm::IRBuilder<> &b, llvm::Value *width) {
  SubGroup sg(b, width);
  return {sg.lane, sg.id, sg.size, sg.group_size, sg.max_size(), sg.lanes};
}

llvm::Value *subgroup_collective(llvm::IRBuilder<> &b, llvm::Value *width, GroupCollective kind, GroupArith arith,
                                 bool is_unsigned, llvm::Value *value) {
  SubGroup sg(b, width);
  return collective(sg, kind, arith, is_unsigned, value);
}

void define_subgroup_builtins(llvm::Module &module) {
  for (llvm::Function &function : module) {
    if (function.isDeclaration() && !function.isIntrinsic()) define_subgroup_builtin(function);
  }
}

} // namespace zeal::cuda
