// SPIR's address spaces become NVPTX's in a whole module: every type, global, function signature, call, constant and
// intrinsic. Functions and globals are rebuilt with mapped types (LLVM's ValueMapper with a type remapper) and the
// originals deleted; casts between spaces that become one are dropped.
//
// SPIR → NVPTX: 0 private → 0 (allocas stay 0, as NVPTX expects), 1 global → 1, 2 constant → 1, 3 local → 3 (shared),
// 4 generic → 0. Module-scope constant variables go to global memory (1), not `.const` (4): a constant pointer is a
// global pointer here, and NVPTX cannot cast a `.const` address to a global one.
#include "cuda_driver/compiler/internal.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <utility>
#include <vector>

namespace zeal::cuda {

namespace {

unsigned nvptx_space(unsigned spir) {
  switch (spir) {
  case 2: return kNvptxGlobal;
  case 4: return kNvptxGeneric;
  default: return spir; // 0, 1 and 3 keep their numbers
  }
}

class SpirToNvptxTypes : public llvm::ValueMapTypeRemapper {
public:
  llvm::Type *remapType(llvm::Type *type) override {
    auto known = cache_.find(type);
    if (known != cache_.end()) return known->second;
    llvm::Type *mapped = map(type);
    cache_[type] = mapped;
    return mapped;
  }

private:
  llvm::Type *map(llvm::Type *type) {
    if (auto *pointer = llvm::dyn_cast<llvm::PointerType>(type)) {
      unsigned space = nvptx_space(pointer->getAddressSpace());
      if (pointer->isOpaque()) return llvm::PointerType::get(type->getContext(), space);
      return llvm::PointerType::get(remapType(pointer->getNonOpaquePointerElementType()), space);
    }
    if (auto *vector = llvm::dyn_cast<llvm::VectorType>(type)) {
      return llvm::VectorType::get(remapType(vector->getElementType()), vector->getElementCount());
    }
    if (auto *array = llvm::dyn_cast<llvm::ArrayType>(type)) {
      return llvm::ArrayType::get(remapType(array->getElementType()), array->getNumElements());
    }
    if (auto *function = llvm::dyn_cast<llvm::FunctionType>(type)) {
      std::vector<llvm::Type *> params;
      for (llvm::Type *param : function->params()) params.push_back(remapType(param));
      return llvm::FunctionType::get(remapType(function->getReturnType()), params, function->isVarArg());
    }
    if (auto *structure = llvm::dyn_cast<llvm::StructType>(type)) return map_struct(structure);
    return type;
  }

  // A struct keeps its identity unless an element changes; a named one changed gets a new name (.nvptx).
  llvm::Type *map_struct(llvm::StructType *structure) {
    if (structure->isOpaque()) return structure;
    std::vector<llvm::Type *> elements;
    bool changed = false;
    for (llvm::Type *element : structure->elements()) {
      elements.push_back(remapType(element));
      changed = changed || elements.back() != element;
    }
    if (!changed) return structure;
    if (structure->isLiteral()) return llvm::StructType::get(structure->getContext(), elements, structure->isPacked());
    return llvm::StructType::create(structure->getContext(), elements, structure->getName().str() + ".nvptx",
                                    structure->isPacked());
  }

  llvm::DenseMap<llvm::Type *, llvm::Type *> cache_;
};

// A constant cast between two spaces that map to one is its operand.
class SameSpaceCasts : public llvm::ValueMaterializer {
public:
  SameSpaceCasts(llvm::ValueToValueMapTy &map, SpirToNvptxTypes &types) : map_(map), types_(types) {}
  virtual ~SameSpaceCasts() = default;
  llvm::Value *materialize(llvm::Value *value) override {
    auto *cast = llvm::dyn_cast<llvm::ConstantExpr>(value);
    if (cast == nullptr || cast->getOpcode() != llvm::Instruction::AddrSpaceCast) return nullptr;
    auto *to = llvm::cast<llvm::PointerType>(types_.remapType(cast->getType()));
    auto *from = llvm::cast<llvm::PointerType>(types_.remapType(cast->getOperand(0)->getType()));
    if (to->getAddressSpace() != from->getAddressSpace()) return nullptr;
    llvm::Value *operand = llvm::MapValue(cast->getOperand(0), map_, llvm::RF_None, &types_, this);
    return operand->getType() == to ? operand : llvm::ConstantExpr::getBitCast(llvm::cast<llvm::Constant>(operand), to);
  }

private:
  llvm::ValueToValueMapTy &map_;
  SpirToNvptxTypes &types_;
};

// Attributes that carry a type (byval, sret, elementtype...) take the mapped type.
llvm::AttributeList remap_attributes(llvm::LLVMContext &context, llvm::AttributeList attributes, unsigned params,
                                     SpirToNvptxTypes &types) {
  for (unsigned index = 0; index < params; ++index) {
    for (int kind = llvm::Attribute::FirstTypeAttr; kind <= llvm::Attribute::LastTypeAttr; ++kind) {
      auto typed = static_cast<llvm::Attribute::AttrKind>(kind);
      if (llvm::Type *type = attributes.getParamAttr(index, typed).getValueAsType()) {
        attributes = attributes.replaceAttributeTypeAtIndex(context, llvm::AttributeList::FirstArgIndex + index,
                                                            typed, types.remapType(type));
      }
    }
  }
  return attributes;
}

void rename(llvm::GlobalValue &from, llvm::GlobalValue &to) {
  std::string name = from.getName().str();
  from.setName("");
  to.setName(name);
}

using Pairs = std::vector<std::pair<llvm::Function *, llvm::Function *>>;

// New declarations with mapped types, named as the old; intrinsics renamed for their new overloads.
Pairs redeclare_functions(llvm::Module &module, SpirToNvptxTypes &types, llvm::ValueToValueMapTy &map) {
  Pairs pairs;
  std::vector<llvm::Function *> old;
  for (llvm::Function &function : module) old.push_back(&function);
  for (llvm::Function *function : old) {
    auto *type = llvm::cast<llvm::FunctionType>(types.remapType(function->getFunctionType()));
    llvm::Function *created = llvm::Function::Create(type, function->getLinkage(), function->getAddressSpace(), "", &module);
    created->copyAttributesFrom(function);
    created->setAttributes(remap_attributes(module.getContext(), function->getAttributes(), type->getNumParams(), types));
    rename(*function, *created);
    pairs.emplace_back(function, created);
  }
  for (auto &[function, created] : pairs) {
    if (created->isIntrinsic()) {
      if (llvm::Optional<llvm::Function *> renamed = llvm::Intrinsic::remangleIntrinsicFunction(created)) {
        created->eraseFromParent();
        created = *renamed;
      }
    }
    map[function] = created;
  }
  return pairs;
}

void drop_same_space_casts(llvm::Function &function) {
  std::vector<llvm::AddrSpaceCastInst *> casts;
  for (llvm::BasicBlock &block : function) {
    for (llvm::Instruction &instruction : block) {
      auto *cast = llvm::dyn_cast<llvm::AddrSpaceCastInst>(&instruction);
      if (cast != nullptr && cast->getSrcAddressSpace() == cast->getDestAddressSpace()) casts.push_back(cast);
    }
  }
  for (llvm::AddrSpaceCastInst *cast : casts) {
    llvm::Value *operand = cast->getOperand(0);
    cast->replaceAllUsesWith(operand->getType() == cast->getType()
                                 ? operand
                                 : llvm::CastInst::CreatePointerCast(operand, cast->getType(), "", cast));
    cast->eraseFromParent();
  }
}

void clone_bodies(const Pairs &pairs, SpirToNvptxTypes &types, SameSpaceCasts &casts, llvm::ValueToValueMapTy &map) {
  for (const auto &[function, created] : pairs) {
    if (function->isDeclaration()) continue;
    for (size_t i = 0; i < function->arg_size(); ++i) {
      created->getArg(i)->setName(function->getArg(i)->getName());
      map[function->getArg(i)] = created->getArg(i);
    }
    llvm::AttributeList attributes = created->getAttributes();
    llvm::SmallVector<llvm::ReturnInst *, 4> returns;
    llvm::CloneFunctionInto(created, function, map, llvm::CloneFunctionChangeType::LocalChangesOnly, returns, "",
                            nullptr, &types, &casts);
    created->setAttributes(attributes);
    created->setLinkage(function->getLinkage());
    drop_same_space_casts(*created);
  }
}

} // namespace

void remap_address_spaces(llvm::Module &module) {
  SpirToNvptxTypes types;
  llvm::ValueToValueMapTy map;
  SameSpaceCasts casts(map, types);
  std::vector<std::pair<llvm::GlobalVariable *, llvm::GlobalVariable *>> globals;
  std::vector<llvm::GlobalVariable *> old_globals;
  for (llvm::GlobalVariable &global : module.globals()) old_globals.push_back(&global);
  for (llvm::GlobalVariable *global : old_globals) {
    auto *created = new llvm::GlobalVariable(module, types.remapType(global->getValueType()), global->isConstant(),
                                             global->getLinkage(), nullptr, "", nullptr, global->getThreadLocalMode(),
                                             nvptx_space(global->getAddressSpace()));
    created->copyAttributesFrom(global);
    rename(*global, *created);
    map[global] = created;
    globals.emplace_back(global, created);
  }
  Pairs functions = redeclare_functions(module, types, map);
  clone_bodies(functions, types, casts, map);
  for (auto &[global, created] : globals) {
    if (global->hasInitializer()) {
      created->setInitializer(llvm::MapValue(global->getInitializer(), map, llvm::RF_None, &types, &casts));
    }
  }
  for (auto &[function, created] : functions) function->dropAllReferences();
  for (auto &[global, created] : globals) global->dropAllReferences();
  for (auto &[function, created] : functions) {
    function->removeDeadConstantUsers();
    function->eraseFromParent();
  }
  for (auto &[global, created] : globals) {
    global->removeDeadConstantUsers();
    global->eraseFromParent();
  }
}

} // namespace zeal::cuda
