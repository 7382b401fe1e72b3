// cl_khr_subgroup_ballot on a warp or a segment of one: a ballot is a uint4 whose x holds the sub-group's lanes from
// bit 0 (y, z and w are 0); the mask built-ins (get_sub_group_eq_mask, ...) and the ballot's bit operations work on
// x, limited to the sub-group's lanes.
#include "cuda_driver/compiler/internal.hpp"

#include <functional>
#include <map>

namespace zeal::cuda {

namespace {

struct Lanes {
  llvm::IRBuilder<> &b;
  llvm::Value *lane;   // i32
  llvm::Value *member; // the sub-group's lanes, its lane 0 at bit 0
};

using Body = std::function<llvm::Value *(Lanes &, llvm::Function &)>;

llvm::Value *below(Lanes &l) { return l.b.CreateSub(l.b.CreateShl(l.b.getInt32(1), l.lane), l.b.getInt32(1)); }
llvm::Value *equal(Lanes &l) { return l.b.CreateShl(l.b.getInt32(1), l.lane); }
llvm::Value *bits_of(Lanes &l, llvm::Function &f) {
  llvm::Value *ballot = f.getArg(0);
  llvm::Value *x = ballot->getType()->isVectorTy() ? l.b.CreateExtractElement(ballot, uint64_t{0}) : ballot;
  return l.b.CreateAnd(l.b.CreateZExtOrTrunc(x, l.b.getInt32Ty()), l.member);
}
llvm::Value *count(Lanes &l, llvm::Value *bits) {
  return l.b.CreateIntrinsic(llvm::Intrinsic::ctpop, {l.b.getInt32Ty()}, {bits});
}

const std::map<std::string, Body> &ballot_bodies() {
  static const std::map<std::string, Body> bodies = {
      {"get_sub_group_eq_mask", [](Lanes &l, llvm::Function &) { return equal(l); }},
      {"get_sub_group_lt_mask", [](Lanes &l, llvm::Function &) { return below(l); }},
      {"get_sub_group_le_mask", [](Lanes &l, llvm::Function &) { return l.b.CreateOr(below(l), equal(l)); }},
      {"get_sub_group_gt_mask", [](Lanes &l, llvm::Function &) {
         return l.b.CreateAnd(l.b.CreateNot(l.b.CreateOr(below(l), equal(l))), l.member); }},
      {"get_sub_group_ge_mask", [](Lanes &l, llvm::Function &) { return l.b.CreateAnd(l.b.CreateNot(below(l)), l.member); }},
      {"sub_group_inverse_ballot", [](Lanes &l, llvm::Function &f) {
         return l.b.CreateICmpNE(l.b.CreateAnd(bits_of(l, f), equal(l)), l.b.getInt32(0)); }},
      {"sub_group_ballot_bit_extract", [](Lanes &l, llvm::Function &f) {
         llvm::Value *index = l.b.CreateZExtOrTrunc(f.getArg(1), l.b.getInt32Ty());
         llvm::Value *bit = l.b.CreateShl(l.b.getInt32(1), l.b.CreateAnd(index, 31));
         llvm::Value *inside = l.b.CreateICmpULT(index, l.b.getInt32(32));
         return l.b.CreateAnd(inside, l.b.CreateICmpNE(l.b.CreateAnd(bits_of(l, f), bit), l.b.getInt32(0))); }},
      {"sub_group_ballot_bit_count", [](Lanes &l, llvm::Function &f) { return count(l, bits_of(l, f)); }},
      {"sub_group_ballot_inclusive_scan", [](Lanes &l, llvm::Function &f) {
         return count(l, l.b.CreateAnd(bits_of(l, f), l.b.CreateOr(below(l), equal(l)))); }},
      {"sub_group_ballot_exclusive_scan", [](Lanes &l, llvm::Function &f) {
         return count(l, l.b.CreateAnd(bits_of(l, f), below(l))); }},
      {"sub_group_ballot_find_lsb", [](Lanes &l, llvm::Function &f) {
         return l.b.CreateIntrinsic(llvm::Intrinsic::cttz, {l.b.getInt32Ty()}, {bits_of(l, f), l.b.getFalse()}); }},
      {"sub_group_ballot_find_msb", [](Lanes &l, llvm::Function &f) {
         llvm::Value *zeros = l.b.CreateIntrinsic(llvm::Intrinsic::ctlz, {l.b.getInt32Ty()}, {bits_of(l, f), l.b.getFalse()});
         return l.b.CreateSub(l.b.getInt32(31), zeros); }},
  };
  return bodies;
}

} // namespace

void define_subgroup_ballots(llvm::Module &module) {
  for (llvm::Function &f : module) {
    if (!f.isDeclaration() || f.isIntrinsic()) continue;
    auto body = ballot_bodies().find(opencl_base_name(f.getName()).str());
    if (body == ballot_bodies().end()) continue;
    llvm::Type *type = f.getReturnType();
    if (!(type->isIntegerTy() || (type->isVectorTy() && type->getScalarType()->isIntegerTy()))) continue;
    llvm::IRBuilder<> b = begin_definition(f);
    SubGroupPlace place = subgroup_place(b, subgroup_size(b));
    Lanes lanes{b, place.lane, place.lanes};
    llvm::Value *value = body->second(lanes, f);
    if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type)) {
      value = b.CreateInsertElement(llvm::Constant::getNullValue(type),
                                    b.CreateZExtOrTrunc(value, vector->getElementType()), uint64_t{0});
    } else {
      value = b.CreateZExtOrTrunc(value, type);
    }
    b.CreateRet(value);
  }
}

} // namespace zeal::cuda
