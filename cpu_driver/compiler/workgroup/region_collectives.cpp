// Collectives compiled into the region dispatcher: a sub-group's lanes combined with vector operations, not by the host.
//
// When every work-item of a group waits at one collective site and every
// sub-group is whole (the usual case), the posts of a sub-group's S lanes lie
// side by side in the site's slot array, so one vector load brings them into
// registers; reductions become vector reductions, scans log-step shifts,
// shuffles gathers from the slot array, votes and ballots compares. Results go
// to the lanes' result slots with one vector store. Everything else (lanes at
// different sites, a partial last sub-group, half elements) stays with the
// host's combine (region_runtime.cpp), whose results these match bit for bit.
#include "cpu_driver/compiler/workgroup/regions.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>

#include <optional>

namespace zeal::cpu::detail {
namespace {

// Lanes × components of the largest vector a compiled combine builds.
constexpr uint32_t max_vector_elements = 512;

struct Element {
  llvm::Type *type;
  bool is_signed = false, is_float = false;
  uint32_t bytes() const { return type->getPrimitiveSizeInBits() / 8; }
};

std::optional<Element> element_of(llvm::LLVMContext &context, SgElement element) {
  switch (element) {
  case SgElement::I8: return Element{llvm::Type::getInt8Ty(context), true, false};
  case SgElement::U8: return Element{llvm::Type::getInt8Ty(context), false, false};
  case SgElement::I16: return Element{llvm::Type::getInt16Ty(context), true, false};
  case SgElement::U16: return Element{llvm::Type::getInt16Ty(context), false, false};
  case SgElement::I32: return Element{llvm::Type::getInt32Ty(context), true, false};
  case SgElement::U32: return Element{llvm::Type::getInt32Ty(context), false, false};
  case SgElement::I64: return Element{llvm::Type::getInt64Ty(context), true, false};
  case SgElement::U64: return Element{llvm::Type::getInt64Ty(context), false, false};
  case SgElement::F32: return Element{llvm::Type::getFloatTy(context), true, true};
  case SgElement::F64: return Element{llvm::Type::getDoubleTy(context), true, true};
  case SgElement::F16: return std::nullopt; // half arithmetic rounds every step: the host's
  }
  return std::nullopt;
}

bool is_fold(SgOp op) {
  return op == SgOp::Reduce || op == SgOp::ScanInclusive || op == SgOp::ScanExclusive || op == SgOp::ClusteredReduce;
}

bool is_logical(SgArith arith) {
  return arith == SgArith::LogicalAnd || arith == SgArith::LogicalOr || arith == SgArith::LogicalXor;
}

// One site's combine for one sub-group at a time; `first` is the sub-group's first linear id.
class SiteCombine {
public:
  SiteCombine(llvm::IRBuilder<> &b, const RegionFrame &frame, const CollectiveSite &site, uint32_t lanes,
              Element element, uint32_t count)
      : b_(b), frame_(frame), site_(site), lanes_(lanes), element_(element), count_(count),
        padded_(count == 3 ? 4 : count), op_(SgOp(site.code & 0xff)), arith_(SgArith(site.code >> 8 & 0xff)) {}

  // Emits the combine of the sub-group starting at `first`; false (nothing emitted) when the host must do it.
  bool emit(llvm::Value *first) {
    first_ = first;
    switch (op_) {
    case SgOp::Barrier: return true;
    case SgOp::Elect: {
      std::vector<llvm::Constant *> leader(lanes_, b_.getInt32(0));
      leader[0] = b_.getInt32(1);
      store_whole(llvm::ConstantVector::get(leader));
      return true;
    }
    case SgOp::All: case SgOp::Any: case SgOp::Ballot: return vote();
    case SgOp::AllEqual: return all_equal();
    case SgOp::Reduce: case SgOp::ScanInclusive: case SgOp::ScanExclusive: case SgOp::ClusteredReduce: return fold();
    default: return shuffle();
    }
  }

  // What the site's code and slots must be for emit() to handle it.
  bool supported() const {
    if (op_ == SgOp::MatrixMad) return false; // the host's (subgroup_ops.cpp)
    if (op_ == SgOp::Barrier || op_ == SgOp::Elect) return out_is(b_.getInt32Ty()) || op_ == SgOp::Barrier;
    llvm::Type *data = data_type();
    if (data == nullptr || lanes_ * padded_ > max_vector_elements) return false;
    const llvm::DataLayout &layout = frame_layout();
    const bool two = op_ == SgOp::ShuffleDown || op_ == SgOp::ShuffleUp;
    if (site_.post.stride != layout.getTypeAllocSize(data) * (two ? 2 : 1)) return false;
    if (op_ == SgOp::All || op_ == SgOp::Any || op_ == SgOp::AllEqual) return out_is(b_.getInt32Ty()) && votable();
    if (op_ == SgOp::Ballot) {
      return site_.out_type != nullptr && layout.getTypeAllocSize(site_.out_type) == 16 && site_.out.stride == 16 &&
             votable();
    }
    if (is_fold(op_)) {
      if (element_.is_float && is_logical(arith_)) return false;
      if (op_ == SgOp::ClusteredReduce) {
        if (site_.arg == nullptr) return false;
        uint64_t cluster = site_.arg->getZExtValue();
        if (cluster != 0 && lanes_ % cluster != 0) return false;
      }
    }
    return out_is(data);
  }

private:
  const llvm::DataLayout &frame_layout() const {
    return b_.GetInsertBlock()->getModule()->getDataLayout();
  }

  // The value type one lane posts (the first of two for the Intel shuffles up and down), if it is the code's.
  llvm::Type *data_type() const {
    llvm::Type *type = site_.post_type;
    if (op_ == SgOp::ShuffleDown || op_ == SgOp::ShuffleUp) {
      auto *pair = llvm::dyn_cast_or_null<llvm::ArrayType>(type);
      if (pair == nullptr || pair->getNumElements() != 2) return nullptr;
      type = pair->getElementType();
    }
    if (type == nullptr) return nullptr;
    if (count_ == 1) return type == element_.type ? type : nullptr;
    auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
    return vector && vector->getNumElements() == count_ && vector->getElementType() == element_.type ? type : nullptr;
  }

  bool out_is(llvm::Type *type) const {
    return site_.out_type == type && site_.out.stride == frame_layout().getTypeAllocSize(type);
  }

  // The host reads a vote's predicate as the post's first 4 bytes.
  bool votable() const {
    return op_ == SgOp::AllEqual || (count_ == 1 && element_.bytes() == 4 && !element_.is_float);
  }

  llvm::Value *slot(const SlotArray &slots, llvm::Type *type) {
    llvm::Value *at = b_.CreateInBoundsGEP(b_.getInt8Ty(), slots.base, b_.CreateMul(first_, b_.getInt64(slots.stride)));
    return b_.CreatePointerCast(at, type->getPointerTo());
  }

  // Component k of every lane's (first) value, from one load of the sub-group's posts.
  std::vector<llvm::Value *> lane_values() {
    auto *whole = llvm::FixedVectorType::get(element_.type, lanes_ * padded_);
    auto *load = b_.CreateAlignedLoad(whole, slot(site_.post, whole), llvm::Align(element_.bytes()));
    std::vector<llvm::Value *> components;
    for (uint32_t k = 0; k < count_; ++k) {
      if (padded_ == 1) {
        components.push_back(load);
        continue;
      }
      std::vector<int> mask(lanes_);
      for (uint32_t j = 0; j < lanes_; ++j) mask[j] = int(j * padded_ + k);
      components.push_back(b_.CreateShuffleVector(load, mask));
    }
    return components;
  }

  // Stores the lanes' results (component vectors of the data type) to their result slots.
  void store_components(const std::vector<llvm::Value *> &components) {
    auto *whole = llvm::FixedVectorType::get(element_.type, lanes_ * padded_);
    llvm::Value *value = components[0];
    if (padded_ > 1) {
      // Concatenate the components (the padding component of a 3-vector is undefined), then interleave them.
      std::vector<llvm::Value *> parts(components);
      while (parts.size() < padded_) parts.push_back(llvm::UndefValue::get(components[0]->getType()));
      while (parts.size() > 1) {
        std::vector<llvm::Value *> joined;
        for (size_t i = 0; i < parts.size(); i += 2) {
          uint32_t width = uint32_t(llvm::cast<llvm::FixedVectorType>(parts[i]->getType())->getNumElements());
          std::vector<int> mask(2 * width);
          for (uint32_t j = 0; j < 2 * width; ++j) mask[j] = int(j);
          joined.push_back(b_.CreateShuffleVector(parts[i], parts[i + 1], mask));
        }
        parts = std::move(joined);
      }
      std::vector<int> mask(lanes_ * padded_);
      for (uint32_t j = 0; j < lanes_; ++j) {
        for (uint32_t k = 0; k < padded_; ++k) mask[j * padded_ + k] = int(k * lanes_ + j);
      }
      value = b_.CreateShuffleVector(parts[0], mask);
    }
    b_.CreateAlignedStore(value, slot(site_.out, whole), llvm::Align(element_.bytes()));
  }

  // Stores a vector with one (scalar) result per lane.
  void store_whole(llvm::Value *vector) {
    b_.CreateAlignedStore(vector, slot(site_.out, vector->getType()),
                          llvm::Align(vector->getType()->getScalarSizeInBits() / 8));
  }

  llvm::Value *splat(llvm::Value *scalar) { return b_.CreateVectorSplat(lanes_, scalar); }

  llvm::Value *lane_ids() {
    std::vector<llvm::Constant *> ids;
    for (uint32_t j = 0; j < lanes_; ++j) ids.push_back(b_.getInt64(j));
    return llvm::ConstantVector::get(ids);
  }

  // Each lane's argument (a source lane, a delta, a mask), as i64.
  llvm::Value *lane_args() {
    if (site_.arg != nullptr) return splat(b_.getInt64(site_.arg->getZExtValue() & 0xffffffffu));
    auto *type = llvm::FixedVectorType::get(b_.getInt32Ty(), lanes_);
    llvm::Value *at = b_.CreatePointerCast(b_.CreateInBoundsGEP(b_.getInt32Ty(), frame_.args, first_), type->getPointerTo());
    return b_.CreateZExt(b_.CreateAlignedLoad(type, at, llvm::Align(4)), llvm::FixedVectorType::get(b_.getInt64Ty(), lanes_));
  }

  // Component k of the value each lane takes: lane source[j]'s first value, or its second where `second` is set.
  llvm::Value *gather(llvm::Value *source, llvm::Value *second, uint32_t k) {
    const uint64_t value_bytes = uint64_t(element_.bytes()) * padded_;
    llvm::Value *offset = b_.CreateMul(b_.CreateAdd(splat(first_), source), splat(b_.getInt64(site_.post.stride)));
    offset = b_.CreateAdd(offset, splat(b_.getInt64(uint64_t(k) * element_.bytes())));
    if (second != nullptr) {
      offset = b_.CreateAdd(offset, b_.CreateSelect(second, splat(b_.getInt64(value_bytes)), splat(b_.getInt64(0))));
    }
    llvm::Value *bytes = b_.CreateInBoundsGEP(b_.getInt8Ty(), site_.post.base, offset);
    llvm::Value *pointers = b_.CreatePointerCast(
        bytes, llvm::FixedVectorType::get(element_.type->getPointerTo(), lanes_));
    return b_.CreateMaskedGather(llvm::FixedVectorType::get(element_.type, lanes_), pointers,
                                 llvm::Align(element_.bytes()));
  }

  // Shuffles and broadcasts: every lane takes one lane's value; an index outside
  // the sub-group gives the lane its own (the host's choice for OpenCL's undefined case).
  bool shuffle() {
    const int64_t s = lanes_;
    if (op_ == SgOp::BroadcastFirst || (op_ == SgOp::Broadcast && site_.arg != nullptr && site_.arg->getZExtValue() < uint64_t(s))) {
      uint64_t from = op_ == SgOp::BroadcastFirst ? 0 : site_.arg->getZExtValue();
      std::vector<llvm::Value *> components = lane_values();
      for (llvm::Value *&component : components) {
        component = splat(b_.CreateExtractElement(component, b_.getInt64(from)));
      }
      store_components(components);
      return true;
    }
    llvm::Value *lane = lane_ids(), *arg = lane_args(), *size = splat(b_.getInt64(uint64_t(s)));
    llvm::Value *source = nullptr, *second = nullptr;
    switch (op_) {
    case SgOp::Shuffle: case SgOp::Broadcast: source = arg; break;
    case SgOp::ShuffleXor: source = b_.CreateXor(lane, arg); break;
    case SgOp::ShuffleDownKhr: source = b_.CreateAdd(lane, arg); break;
    case SgOp::ShuffleUpKhr: source = b_.CreateSub(lane, arg); break; // wraps above S when arg > lane
    case SgOp::ShuffleDown: {
      // j = lane + delta: current[j] below S, next[j - S] below 2S, else the lane's own next.
      llvm::Value *j = b_.CreateAdd(lane, arg);
      llvm::Value *in_current = b_.CreateICmpULT(j, size);
      llvm::Value *wrapped = b_.CreateSub(j, size);
      llvm::Value *in_next = b_.CreateICmpULT(wrapped, size);
      source = b_.CreateSelect(in_current, j, b_.CreateSelect(in_next, wrapped, lane));
      second = b_.CreateNot(in_current);
      break;
    }
    case SgOp::ShuffleUp: {
      // j = lane - delta: current[j] from 0, previous[j + S] from -S, else the lane's own previous.
      llvm::Value *j = b_.CreateSub(lane, arg);
      llvm::Value *in_current = b_.CreateICmpSGE(j, splat(b_.getInt64(0)));
      llvm::Value *wrapped = b_.CreateAdd(j, size);
      llvm::Value *in_previous = b_.CreateICmpULT(wrapped, size);
      source = b_.CreateSelect(in_current, j, b_.CreateSelect(in_previous, wrapped, lane));
      second = in_current;
      break;
    }
    default: return false;
    }
    if (op_ != SgOp::ShuffleDown && op_ != SgOp::ShuffleUp) {
      source = b_.CreateSelect(b_.CreateICmpULT(source, size), source, lane);
    }
    std::vector<llvm::Value *> components;
    for (uint32_t k = 0; k < count_; ++k) components.push_back(gather(source, second, k));
    store_components(components);
    return true;
  }

  // all, any and ballot read each lane's predicate (an int); all_equal compares every lane's bytes with the lane's own.
  bool vote() {
    llvm::Value *predicate = lane_values()[0];
    llvm::Value *set = b_.CreateICmpNE(predicate, llvm::Constant::getNullValue(predicate->getType()));
    if (op_ == SgOp::Ballot) {
      llvm::Value *bits = b_.CreateZExt(b_.CreateBitCast(set, b_.getIntNTy(lanes_)), b_.getIntNTy(128));
      store_whole(splat(bits));
      return true;
    }
    llvm::Value *result = op_ == SgOp::All ? b_.CreateAndReduce(set) : b_.CreateOrReduce(set);
    store_whole(splat(b_.CreateZExt(result, b_.getInt32Ty())));
    return true;
  }

  bool all_equal() {
    llvm::Value *equal = b_.getTrue();
    llvm::Type *bits = b_.getIntNTy(element_.bytes() * 8);
    for (llvm::Value *component : lane_values()) {
      llvm::Value *as_bits = b_.CreateBitCast(component, llvm::FixedVectorType::get(bits, lanes_));
      llvm::Value *same = b_.CreateICmpEQ(as_bits, splat(b_.CreateExtractElement(as_bits, b_.getInt64(0))));
      equal = b_.CreateAnd(equal, b_.CreateAndReduce(same));
    }
    store_whole(splat(b_.CreateZExt(equal, b_.getInt32Ty())));
    return true;
  }

  // --- Reductions and scans, in the host's arithmetic (subgroup_ops.cpp: identity, apply) ---

  llvm::Constant *identity() {
    llvm::Type *t = element_.type;
    switch (arith_) {
    case SgArith::Mul: case SgArith::LogicalAnd: return element_.is_float ? llvm::ConstantFP::get(t, 1.0) : llvm::ConstantInt::get(t, 1);
    case SgArith::Min:
      if (element_.is_float) return llvm::ConstantFP::getInfinity(t, false);
      return element_.is_signed ? llvm::ConstantInt::get(t, llvm::APInt::getSignedMaxValue(element_.bytes() * 8))
                                : llvm::ConstantInt::get(t, llvm::APInt::getMaxValue(element_.bytes() * 8));
    case SgArith::Max:
      if (element_.is_float) return llvm::ConstantFP::getInfinity(t, true);
      return element_.is_signed ? llvm::ConstantInt::get(t, llvm::APInt::getSignedMinValue(element_.bytes() * 8))
                                : llvm::ConstantInt::get(t, 0);
    case SgArith::And: return element_.is_float ? llvm::ConstantFP::get(t, 0.0) : llvm::ConstantInt::getAllOnesValue(t);
    default: return element_.is_float ? llvm::ConstantFP::get(t, 0.0) : llvm::ConstantInt::get(t, 0);
    }
  }

  // apply(op, a, b) of the host, on scalars or vectors alike; logical operands are already 0 or 1.
  llvm::Value *apply(llvm::Value *a, llvm::Value *v) {
    const bool f = element_.is_float, s = element_.is_signed;
    switch (arith_) {
    case SgArith::Add: return f ? b_.CreateFAdd(a, v) : b_.CreateAdd(a, v);
    case SgArith::Mul: return f ? b_.CreateFMul(a, v) : b_.CreateMul(a, v);
    case SgArith::Min: { // b < a ? b : a
      llvm::Value *less = f ? b_.CreateFCmpOLT(v, a) : s ? b_.CreateICmpSLT(v, a) : b_.CreateICmpULT(v, a);
      return b_.CreateSelect(less, v, a);
    }
    case SgArith::Max: { // a < b ? b : a
      llvm::Value *less = f ? b_.CreateFCmpOLT(a, v) : s ? b_.CreateICmpSLT(a, v) : b_.CreateICmpULT(a, v);
      return b_.CreateSelect(less, v, a);
    }
    case SgArith::And: case SgArith::LogicalAnd: return b_.CreateAnd(a, v);
    case SgArith::Or: case SgArith::LogicalOr: return b_.CreateOr(a, v);
    default: return b_.CreateXor(a, v);
    }
  }

  // The whole vector folded in lane order from the identity.
  llvm::Value *reduce(llvm::Value *values) {
    if (element_.is_float && arith_ == SgArith::Add) return b_.CreateFAddReduce(identity(), values); // ordered
    if (element_.is_float && arith_ == SgArith::Mul) return b_.CreateFMulReduce(identity(), values);
    if (element_.is_float) { // min, max: the host's compare chain, lane by lane
      llvm::Value *acc = identity();
      uint32_t width = uint32_t(llvm::cast<llvm::FixedVectorType>(values->getType())->getNumElements());
      for (uint32_t j = 0; j < width; ++j) acc = apply(acc, b_.CreateExtractElement(values, b_.getInt64(j)));
      return acc;
    }
    switch (arith_) { // integer operations are associative: any order gives the same bits
    case SgArith::Add: return b_.CreateAddReduce(values);
    case SgArith::Mul: return b_.CreateMulReduce(values);
    case SgArith::Min: return b_.CreateIntMinReduce(values, element_.is_signed);
    case SgArith::Max: return b_.CreateIntMaxReduce(values, element_.is_signed);
    case SgArith::And: case SgArith::LogicalAnd: return b_.CreateAndReduce(values);
    case SgArith::Or: case SgArith::LogicalOr: return b_.CreateOrReduce(values);
    default: return b_.CreateXorReduce(values);
    }
  }

  // A scan: integers in log2(S) shifted steps (an exclusive one shifted once more), floats lane by lane in the
  // host's order, each lane getting the running value after (inclusive) or before (exclusive) its own.
  llvm::Value *scan(llvm::Value *values, bool exclusive) {
    if (element_.is_float) {
      llvm::Value *acc = identity(), *result = llvm::UndefValue::get(values->getType());
      for (uint32_t j = 0; j < lanes_; ++j) {
        if (exclusive) result = b_.CreateInsertElement(result, acc, b_.getInt64(j));
        acc = apply(acc, b_.CreateExtractElement(values, b_.getInt64(j)));
        if (!exclusive) result = b_.CreateInsertElement(result, acc, b_.getInt64(j));
      }
      return result;
    }
    llvm::Value *fill = splat(identity());
    for (uint32_t d = 1; d < lanes_; d *= 2) values = apply(values, shifted_up(values, fill, d));
    return exclusive ? shifted_up(values, fill, 1) : values;
  }

  // Lane j gets lane j - d's value, the first d lanes `fill`'s.
  llvm::Value *shifted_up(llvm::Value *values, llvm::Value *fill, uint32_t d) {
    std::vector<int> mask(lanes_);
    for (uint32_t j = 0; j < lanes_; ++j) mask[j] = j >= d ? int(j - d) : int(lanes_ + j);
    return b_.CreateShuffleVector(values, fill, mask);
  }

  bool fold() {
    std::vector<llvm::Value *> results;
    for (llvm::Value *values : lane_values()) {
      if (is_logical(arith_)) {
        values = b_.CreateZExt(b_.CreateICmpNE(values, llvm::Constant::getNullValue(values->getType())),
                               values->getType());
      }
      switch (op_) {
      case SgOp::Reduce: results.push_back(splat(reduce(values))); break;
      case SgOp::ScanInclusive: results.push_back(scan(values, false)); break;
      case SgOp::ScanExclusive: results.push_back(scan(values, true)); break;
      default: { // clustered: each cluster of `arg` lanes (0: the whole sub-group) reduced on its own
        uint32_t cluster = uint32_t(site_.arg->getZExtValue());
        if (cluster == 0 || cluster >= lanes_) {
          results.push_back(splat(reduce(values)));
          break;
        }
        llvm::Value *result = llvm::UndefValue::get(values->getType());
        for (uint32_t c = 0; c < lanes_ / cluster; ++c) {
          std::vector<int> part(cluster);
          for (uint32_t j = 0; j < cluster; ++j) part[j] = int(c * cluster + j);
          llvm::Value *sum = reduce(b_.CreateShuffleVector(values, part));
          for (uint32_t j = 0; j < cluster; ++j) result = b_.CreateInsertElement(result, sum, b_.getInt64(c * cluster + j));
        }
        results.push_back(result);
      }
      }
    }
    store_components(results);
    return true;
  }

  llvm::IRBuilder<> &b_;
  const RegionFrame &frame_;
  const CollectiveSite &site_;
  const uint32_t lanes_;
  const Element element_;
  const uint32_t count_, padded_;
  const SgOp op_;
  const SgArith arith_;
  llvm::Value *first_ = nullptr;
};

// The site's combine, when it can be compiled: null when the host must do it.
std::optional<SiteCombine> compiled_combine(llvm::IRBuilder<> &b, const RegionFrame &frame, const CollectiveSite &site,
                                            uint32_t subgroup_size) {
  if (!site.found || subgroup_size == 0 || subgroup_size > sg_max_lanes) return std::nullopt;
  std::optional<Element> element = element_of(b.getContext(), SgElement(site.code >> 16 & 0xff));
  const uint32_t count = site.code >> 24;
  const auto op = SgOp(site.code & 0xff);
  const bool no_data = op == SgOp::Barrier || op == SgOp::Elect;
  if (!no_data && (!element || (count != 1 && count != 2 && count != 3 && count != 4 && count != 8 && count != 16))) {
    return std::nullopt;
  }
  std::optional<SiteCombine> combine;
  combine.emplace(b, frame, site, subgroup_size, element.value_or(Element{b.getInt32Ty(), false, false}), count);
  if (!combine->supported()) return std::nullopt;
  return combine;
}

} // namespace

bool emit_subgroup_combine(llvm::IRBuilder<> &b, const RegionFrame &frame, const CollectiveSite &site,
                           uint32_t subgroup_size, llvm::Value *first) {
  std::optional<SiteCombine> combine = compiled_combine(b, frame, site, subgroup_size);
  return combine && combine->emit(first);
}

llvm::BasicBlock *emit_inline_collective(llvm::Function &function, const RegionFrame &frame, const CollectiveSite &site,
                                         uint32_t id, uint32_t subgroup_size, llvm::BasicBlock *resume) {
  llvm::LLVMContext &context = function.getContext();
  const std::string name = "collective." + std::to_string(id) + ".compiled";
  auto *entry = llvm::BasicBlock::Create(context, name, &function);
  llvm::IRBuilder<> b(entry);
  std::optional<SiteCombine> combine = compiled_combine(b, frame, site, subgroup_size);
  if (!combine) {
    entry->eraseFromParent();
    return nullptr;
  }
  auto *loop = llvm::BasicBlock::Create(context, name + ".sub_group", &function);
  b.CreateBr(loop);
  b.SetInsertPoint(loop);
  llvm::PHINode *first = b.CreatePHI(b.getInt64Ty(), 2, "sub_group.first");
  first->addIncoming(b.getInt64(0), entry);
  if (!combine->emit(first)) { // supported() vouched for the site: not reached
    entry->eraseFromParent();
    loop->dropAllReferences();
    loop->eraseFromParent();
    return nullptr;
  }
  // Every lane resumes in the region after the site, which `resume` tells the dispatcher.
  llvm::Value *following = b.CreateNUWAdd(first, b.getInt64(subgroup_size));
  first->addIncoming(following, loop);
  b.CreateCondBr(b.CreateICmpULT(following, frame.total), loop, resume);
  return entry;
}

} // namespace zeal::cpu::detail
