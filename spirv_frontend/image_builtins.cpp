// The OpenCL image built-ins as IR (issues 49 and 50), for every zeal driver: reads and writes call the driver's
// image library (ze_driver/image_sampling.hpp) after an inline fast path for the common case, and queries load the
// image's descriptor.
//
// The translator (OpenCL 1.2 built-ins) gives images as pointers to opaque structs (%opencl.image2d_ro_t
// addrspace(1)*): the pointer is the image's ImageDescriptor (ze_driver/image_abi.hpp). A sampler is a pointer whose
// value is its SamplerBits, both for a literal sampler (__translate_sampler_initializer) and for a sampler argument.
//
// The fast path: a 1-D or 2-D read with integer coordinates through no sampler, or one addressing none or
// clamp-to-edge (the only modes where integer coordinates land inside the image, clamped), of an image whose pixels
// are RGBA of 32-bit channels or of 8-bit unorm ones, loads the pixel in place; a write of such an image inside it
// stores in place. The descriptor's fields are invariant while a kernel runs, so their loads leave loops.
#include "spirv_frontend/image_builtins.hpp"

#include "spirv_frontend/builtin_bodies.hpp"

#include "ze_driver/image_abi.hpp"

#include <llvm/ADT/SmallVector.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <cstddef>
#include <optional>

namespace zeal::frontend {
namespace {

using ze::image_float_coords;
using ze::ImageDescriptor;
using ze::ImageFast;
using ze::ImageValue;
using ze::SamplerFilterNearest;

enum class Op { Read, Write, Width, Height, Depth, Dim, ArraySize, ChannelType, ChannelOrder };

struct ImageBuiltin {
  Op op;
  ImageValue value = ImageValue::Float;
};

std::optional<ImageBuiltin> image_builtin(llvm::StringRef base) {
  using B = ImageBuiltin;
  return llvm::StringSwitch<std::optional<B>>(base)
      .Case("read_imagef", B{Op::Read, ImageValue::Float})
      .Case("read_imagei", B{Op::Read, ImageValue::Int})
      .Case("read_imageui", B{Op::Read, ImageValue::Uint})
      .Case("read_imageh", B{Op::Read, ImageValue::Half})
      .Case("write_imagef", B{Op::Write, ImageValue::Float})
      .Case("write_imagei", B{Op::Write, ImageValue::Int})
      .Case("write_imageui", B{Op::Write, ImageValue::Uint})
      .Case("write_imageh", B{Op::Write, ImageValue::Half})
      .Case("get_image_width", B{Op::Width})
      .Case("get_image_height", B{Op::Height})
      .Case("get_image_depth", B{Op::Depth})
      .Case("get_image_dim", B{Op::Dim})
      .Case("get_image_array_size", B{Op::ArraySize})
      .Case("get_image_channel_data_type", B{Op::ChannelType})
      .Case("get_image_channel_order", B{Op::ChannelOrder})
      .Default(std::nullopt);
}

bool is_image(llvm::Type *type) { return opaque_pointee(type).startswith("opencl.image"); }
bool is_sampler(llvm::Type *type) { return opaque_pointee(type) == "opencl.sampler_t"; }

// What the built-in's image is: 1-D (buffers too) or 2-D without layers get the fast path.
bool has_fast_path(llvm::StringRef image_type) {
  return (image_type.startswith("opencl.image1d_") || image_type.startswith("opencl.image2d_")) &&
         !image_type.contains("_array") && !image_type.contains("depth") && !image_type.contains("msaa");
}

// A field of the descriptor at `image`, loaded as `type`; marked invariant, as the descriptor is while kernels run.
llvm::Value *field(llvm::IRBuilder<> &b, llvm::Value *image, size_t offset, llvm::Type *type) {
  llvm::Value *bytes = b.CreatePointerCast(image, b.getInt8PtrTy());
  llvm::Value *at = b.CreateConstInBoundsGEP1_64(b.getInt8Ty(), bytes, offset);
  llvm::LoadInst *load = b.CreateLoad(type, b.CreatePointerCast(at, type->getPointerTo()));
  load->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(b.getContext(), {}));
  return load;
}

llvm::Value *int_field(llvm::IRBuilder<> &b, llvm::Value *image, size_t offset) {
  return field(b, image, offset, b.getInt32Ty());
}

// A stack slot of `type`, at the start of the function's entry block (where SROA and the inliner look for them).
llvm::AllocaInst *stack_slot(llvm::Function &function, llvm::Type *type) {
  llvm::BasicBlock &entry = function.getEntryBlock();
  llvm::IRBuilder<> b(&entry, entry.getFirstInsertionPt());
  return b.CreateAlloca(type);
}

// The coordinate as four lanes of its element type (missing ones zero), in a stack slot the host reads.
llvm::Value *coordinate_slot(llvm::IRBuilder<> &b, llvm::Value *coord) {
  llvm::Type *element = coord->getType()->getScalarType();
  auto *four = llvm::FixedVectorType::get(element, 4);
  llvm::Value *lanes = llvm::Constant::getNullValue(four);
  if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(coord->getType())) {
    for (unsigned i = 0; i < vector->getNumElements() && i < 4; ++i)
      lanes = b.CreateInsertElement(lanes, b.CreateExtractElement(coord, uint64_t(i)), uint64_t(i));
  } else {
    lanes = b.CreateInsertElement(lanes, coord, uint64_t(0));
  }
  llvm::AllocaInst *slot = stack_slot(*b.GetInsertBlock()->getParent(), four);
  b.CreateStore(lanes, slot);
  return b.CreatePointerCast(slot, b.getInt8PtrTy());
}

// The x and y of an integer coordinate (y 0 for 1-D images).
std::pair<llvm::Value *, llvm::Value *> integer_xy(llvm::IRBuilder<> &b, llvm::Value *coord) {
  if (!coord->getType()->isVectorTy()) return {coord, b.getInt32(0)};
  return {b.CreateExtractElement(coord, uint64_t(0)), b.CreateExtractElement(coord, uint64_t(1))};
}

// The address of pixel (x, y), both inside the image, in the pixels' address space.
llvm::Value *pixel_address(llvm::IRBuilder<> &b, llvm::Value *image, llvm::Value *x, llvm::Value *y,
                           uint64_t pixel_bytes, unsigned space) {
  llvm::Value *data = field(b, image, offsetof(ImageDescriptor, data), b.getInt8PtrTy(space));
  llvm::Value *row_pitch = field(b, image, offsetof(ImageDescriptor, row_pitch), b.getInt64Ty());
  llvm::Value *offset = b.CreateAdd(b.CreateMul(b.CreateZExt(y, b.getInt64Ty()), row_pitch),
                                    b.CreateMul(b.CreateZExt(x, b.getInt64Ty()), b.getInt64(pixel_bytes)));
  return b.CreateInBoundsGEP(b.getInt8Ty(), data, offset);
}

llvm::Value *clamp_to(llvm::IRBuilder<> &b, llvm::Value *v, llvm::Value *size) {
  llvm::Value *low = b.CreateSelect(b.CreateICmpSLT(v, b.getInt32(0)), b.getInt32(0), v);
  llvm::Value *last = b.CreateSub(size, b.getInt32(1));
  return b.CreateSelect(b.CreateICmpSGT(low, last), last, low);
}

class BodyWriter {
public:
  BodyWriter(llvm::Function &function, ImageBuiltin builtin, const ImageLibrary &library)
      : function_(function), builtin_(builtin), library_(library), b_(begin_builtin_body(function)) {}

  void write() {
    switch (builtin_.op) {
    case Op::Read: read(); break;
    case Op::Write: store(); break;
    default: query(); break;
    }
  }

private:
  llvm::LLVMContext &context() { return function_.getContext(); }
  llvm::Value *image() { return function_.getArg(0); }

  llvm::FunctionCallee library_read() {
    llvm::Type *bytes = b_.getInt8PtrTy();
    return function_.getParent()->getOrInsertFunction(library_.read, b_.getVoidTy(), bytes, b_.getInt32Ty(),
                                                      b_.getInt32Ty(), bytes, bytes);
  }
  llvm::FunctionCallee library_write() {
    llvm::Type *bytes = b_.getInt8PtrTy();
    return function_.getParent()->getOrInsertFunction(library_.write, b_.getVoidTy(), bytes, b_.getInt32Ty(),
                                                      bytes, bytes);
  }

  void read() {
    // (image, sampler, coord[, lod]) or (image, coord): a sampler-less read is nearest and unnormalized.
    const bool sampled = function_.arg_size() >= 3 && is_sampler(function_.getArg(1)->getType());
    llvm::Value *sampler = sampled ? b_.CreateTrunc(b_.CreatePtrToInt(function_.getArg(1), b_.getInt64Ty()),
                                                     b_.getInt32Ty())
                                   : b_.getInt32(SamplerFilterNearest);
    llvm::Value *coord = function_.getArg(sampled ? 2 : 1);
    const bool float_coords = coord->getType()->getScalarType()->isFloatingPointTy();
    llvm::Type *result = function_.getReturnType();
    llvm::BasicBlock *slow = llvm::BasicBlock::Create(context(), "library", &function_);
    llvm::BasicBlock *done = llvm::BasicBlock::Create(context(), "done", &function_);
    llvm::SmallVector<std::pair<llvm::Value *, llvm::BasicBlock *>, 3> results;
    if (!float_coords && result->isVectorTy() && builtin_.value != ImageValue::Half &&
        has_fast_path(opaque_pointee(image()->getType()))) {
      fast_reads(sampler, coord, slow, done, results);
    } else {
      b_.CreateBr(slow);
    }
    b_.SetInsertPoint(slow);
    llvm::Value *coords = coordinate_slot(b_, coord);
    auto *four = llvm::FixedVectorType::get(value_element(), 4);
    llvm::AllocaInst *out = stack_slot(function_, four);
    const uint32_t flags = uint32_t(builtin_.value) | (float_coords ? image_float_coords : 0);
    b_.CreateCall(library_read(), {b_.CreatePointerCast(image(), b_.getInt8PtrTy()), sampler, b_.getInt32(flags),
                                coords, b_.CreatePointerCast(out, b_.getInt8PtrTy())});
    llvm::Value *pixel = b_.CreateLoad(four, out);
    // A depth image's read gives one float; half results come back as their bits.
    if (!result->isVectorTy()) pixel = b_.CreateExtractElement(pixel, uint64_t(0));
    pixel = b_.CreateBitCast(pixel, result);
    results.emplace_back(pixel, b_.GetInsertBlock());
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    llvm::PHINode *phi = b_.CreatePHI(result, unsigned(results.size()));
    for (auto [value, block] : results) phi->addIncoming(value, block);
    b_.CreateRet(phi);
  }

  // The host's element for the value kind: halves travel as their bits.
  llvm::Type *value_element() {
    switch (builtin_.value) {
    case ImageValue::Float: return b_.getFloatTy();
    case ImageValue::Half: return b_.getInt16Ty();
    default: return b_.getInt32Ty();
    }
  }

  // Branches to the inline load for each fast format the value kind reads, else to `slow`.
  void fast_reads(llvm::Value *sampler, llvm::Value *coord, llvm::BasicBlock *slow, llvm::BasicBlock *done,
                  llvm::SmallVectorImpl<std::pair<llvm::Value *, llvm::BasicBlock *>> &results) {
    llvm::Value *fast = int_field(b_, image(), offsetof(ImageDescriptor, fast));
    // Addressing none (0) or clamp-to-edge (2): bits 2 and 3 clear.
    llvm::Value *clamps = b_.CreateICmpEQ(b_.CreateAnd(sampler, b_.getInt32(0xC)), b_.getInt32(0));
    auto [x, y] = integer_xy(b_, coord);
    llvm::Value *cx = clamp_to(b_, x, int_field(b_, image(), offsetof(ImageDescriptor, width)));
    llvm::Value *cy = clamp_to(b_, y, int_field(b_, image(), offsetof(ImageDescriptor, height)));
    llvm::Type *result = function_.getReturnType();
    auto try_format = [&](ImageFast format, auto &&load) {
      llvm::BasicBlock *hit = llvm::BasicBlock::Create(context(), "fast", &function_, slow);
      llvm::BasicBlock *next = llvm::BasicBlock::Create(context(), "next", &function_, slow);
      llvm::Value *is = b_.CreateAnd(clamps, b_.CreateICmpEQ(fast, b_.getInt32(uint32_t(format))));
      b_.CreateCondBr(is, hit, next);
      b_.SetInsertPoint(hit);
      results.emplace_back(load(), hit);
      b_.CreateBr(done);
      b_.SetInsertPoint(next);
    };
    try_format(ImageFast::Rgba32, [&]() -> llvm::Value * {
      llvm::Value *at = pixel_address(b_, image(), cx, cy, 16, library_.pixel_space);
      return b_.CreateAlignedLoad(result, b_.CreatePointerCast(at, result->getPointerTo(library_.pixel_space)),
                                  llvm::Align(16));
    });
    if (builtin_.value == ImageValue::Float) {
      try_format(ImageFast::RgbaUnorm8, [&]() -> llvm::Value * {
        auto *bytes = llvm::FixedVectorType::get(b_.getInt8Ty(), 4);
        llvm::Value *at = pixel_address(b_, image(), cx, cy, 4, library_.pixel_space);
        llvm::Value *channels = b_.CreateAlignedLoad(
            bytes, b_.CreatePointerCast(at, bytes->getPointerTo(library_.pixel_space)), llvm::Align(4));
        // c / 255 exactly as the library converts (a product with 1/255 alone would round 126 of the 256 values
        // differently). Where a division costs more than two fused multiply-adds (a GPU's), the product is
        // corrected by one Newton step, which gives every c / 255 correctly rounded (checked for all 256).
        llvm::Value *c = b_.CreateUIToFP(channels, result);
        if (!library_.fma_unorm8) return b_.CreateFDiv(c, llvm::ConstantFP::get(result, 255.0));
        llvm::Value *r = llvm::ConstantFP::get(result, double(1.0f / 255.0f));
        llvm::Value *q = b_.CreateFMul(c, r);
        llvm::Value *e = b_.CreateIntrinsic(llvm::Intrinsic::fma, {result},
                                            {b_.CreateFNeg(q), llvm::ConstantFP::get(result, 255.0), c});
        return b_.CreateIntrinsic(llvm::Intrinsic::fma, {result}, {e, r, q});
      });
    }
    b_.CreateBr(slow);
  }

  void store() {
    llvm::Value *coord = function_.getArg(1);
    llvm::Value *color = function_.getArg(function_.arg_size() - 1);
    llvm::BasicBlock *slow = llvm::BasicBlock::Create(context(), "library", &function_);
    llvm::BasicBlock *done = llvm::BasicBlock::Create(context(), "done", &function_);
    if (color->getType()->isVectorTy() && builtin_.value != ImageValue::Half && !coord->getType()->isFPOrFPVectorTy() &&
        has_fast_path(opaque_pointee(image()->getType()))) {
      fast_writes(coord, color, slow, done);
    } else {
      b_.CreateBr(slow);
    }
    b_.SetInsertPoint(slow);
    llvm::Value *coords = coordinate_slot(b_, coord);
    // A depth image's write takes one float; the host reads four values.
    auto *four = llvm::FixedVectorType::get(value_element(), 4);
    llvm::Value *lanes = color;
    if (!color->getType()->isVectorTy()) {
      lanes = b_.CreateInsertElement(llvm::Constant::getNullValue(four), color, uint64_t(0));
    }
    llvm::AllocaInst *slot = stack_slot(function_, four);
    b_.CreateStore(b_.CreateBitCast(lanes, four), slot);
    b_.CreateCall(library_write(), {b_.CreatePointerCast(image(), b_.getInt8PtrTy()),
                                 b_.getInt32(uint32_t(builtin_.value)), coords,
                                 b_.CreatePointerCast(slot, b_.getInt8PtrTy())});
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    b_.CreateRetVoid();
  }

  // Stores in place when the image is a fast format: inside it, else nowhere (as the host would drop it). The test
  // of the format is apart from the test of the coordinates, so that a loop of work-items may decide it once.
  void fast_writes(llvm::Value *coord, llvm::Value *color, llvm::BasicBlock *slow, llvm::BasicBlock *done) {
    llvm::Value *fast = int_field(b_, image(), offsetof(ImageDescriptor, fast));
    auto [x, y] = integer_xy(b_, coord);
    auto try_format = [&](ImageFast format, uint64_t pixel_bytes, auto &&value) {
      llvm::BasicBlock *hit = llvm::BasicBlock::Create(context(), "fast", &function_, slow);
      llvm::BasicBlock *next = llvm::BasicBlock::Create(context(), "next", &function_, slow);
      b_.CreateCondBr(b_.CreateICmpEQ(fast, b_.getInt32(uint32_t(format))), hit, next);
      b_.SetInsertPoint(hit);
      // Unsigned comparisons: a negative coordinate is outside too.
      llvm::Value *inside = b_.CreateAnd(
          b_.CreateICmpULT(x, int_field(b_, image(), offsetof(ImageDescriptor, width))),
          b_.CreateICmpULT(y, int_field(b_, image(), offsetof(ImageDescriptor, height))));
      llvm::BasicBlock *store = llvm::BasicBlock::Create(context(), "store", &function_, slow);
      b_.CreateCondBr(inside, store, done);
      b_.SetInsertPoint(store);
      llvm::Value *bits = value();
      llvm::Value *at = b_.CreatePointerCast(pixel_address(b_, image(), x, y, pixel_bytes, library_.pixel_space),
                                             bits->getType()->getPointerTo(library_.pixel_space));
      const llvm::Align align(pixel_bytes);
      llvm::Value *streams = b_.CreateICmpNE(int_field(b_, image(), offsetof(ImageDescriptor, stream_writes)),
                                             b_.getInt32(0));
      llvm::Instruction *plain = nullptr, *streaming = nullptr;
      llvm::SplitBlockAndInsertIfThenElse(streams, b_.CreateBr(done), &streaming, &plain);
      llvm::IRBuilder<> p(plain), s(streaming);
      p.CreateAlignedStore(bits, at, align);
      llvm::StoreInst *nt = s.CreateAlignedStore(bits, at, align);
      nt->setMetadata(llvm::LLVMContext::MD_nontemporal,
                      llvm::MDNode::get(context(), {llvm::ConstantAsMetadata::get(b_.getInt32(1))}));
      b_.SetInsertPoint(next);
    };
    try_format(ImageFast::Rgba32, 16, [&] { return color; });
    if (builtin_.value == ImageValue::Float) {
      // convert_uchar_sat_rte(c * 255): NaN becomes 0 through maxnum.
      try_format(ImageFast::RgbaUnorm8, 4, [&]() -> llvm::Value * {
        llvm::Type *type = color->getType();
        llvm::Value *scaled = b_.CreateFMul(color, llvm::ConstantFP::get(type, 255.0));
        llvm::Value *low = b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, scaled, llvm::ConstantFP::get(type, 0.0));
        llvm::Value *high = b_.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, low, llvm::ConstantFP::get(type, 255.0));
        llvm::Value *rounded = b_.CreateUnaryIntrinsic(llvm::Intrinsic::rint, high);
        return b_.CreateFPToUI(rounded, llvm::FixedVectorType::get(b_.getInt8Ty(), 4));
      });
    }
    b_.CreateBr(slow);
  }

  void query() {
    llvm::Type *result = function_.getReturnType();
    auto at = [&](size_t offset) { return int_field(b_, image(), offset); };
    llvm::Value *value = nullptr;
    switch (builtin_.op) {
    case Op::Width: value = at(offsetof(ImageDescriptor, width)); break;
    case Op::Height: value = at(offsetof(ImageDescriptor, height)); break;
    case Op::Depth: value = at(offsetof(ImageDescriptor, depth)); break;
    case Op::ArraySize: value = at(offsetof(ImageDescriptor, array_size)); break;
    case Op::ChannelType: value = at(offsetof(ImageDescriptor, cl_channel_type)); break;
    case Op::ChannelOrder: value = at(offsetof(ImageDescriptor, cl_channel_order)); break;
    default: {
      // get_image_dim: (width, height) or (width, height, depth, 0).
      const size_t fields[3] = {offsetof(ImageDescriptor, width), offsetof(ImageDescriptor, height),
                                offsetof(ImageDescriptor, depth)};
      auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(result);
      if (vector == nullptr) {
        value = at(fields[0]);
        break;
      }
      value = llvm::Constant::getNullValue(vector);
      for (unsigned i = 0; i < vector->getNumElements() && i < 3; ++i) {
        llvm::Value *lane = b_.CreateZExtOrTrunc(at(fields[i]), vector->getElementType());
        value = b_.CreateInsertElement(value, lane, uint64_t(i));
      }
      b_.CreateRet(value);
      return;
    }
    }
    b_.CreateRet(b_.CreateZExtOrTrunc(value, result));
  }

  llvm::Function &function_;
  ImageBuiltin builtin_;
  const ImageLibrary &library_;
  llvm::IRBuilder<> b_;
};

// Whether `function`'s signature is the built-in's: an image first, and what each kind takes after it.
bool signature_fits(const llvm::Function &function, ImageBuiltin builtin) {
  if (function.arg_size() == 0 || !is_image(function.getArg(0)->getType())) return false;
  llvm::Type *result = function.getReturnType();
  switch (builtin.op) {
  case Op::Read: return function.arg_size() >= 2 && function.arg_size() <= 4 && !result->isVoidTy();
  case Op::Write: return function.arg_size() >= 3 && function.arg_size() <= 4 && result->isVoidTy();
  case Op::Dim: return function.arg_size() == 1 && result->isIntOrIntVectorTy();
  default: return function.arg_size() == 1 && result->isIntegerTy();
  }
}

} // namespace

llvm::StringRef opaque_pointee(const llvm::Type *type) {
  auto *pointer = llvm::dyn_cast<llvm::PointerType>(type);
  if (pointer == nullptr || pointer->isOpaque()) return {};
  auto *pointee = llvm::dyn_cast<llvm::StructType>(pointer->getNonOpaquePointerElementType());
  return pointee != nullptr && pointee->isOpaque() && pointee->hasName() ? pointee->getName() : llvm::StringRef();
}

void define_image_builtins(llvm::Module &module, const ImageLibrary &library) {
  if (llvm::Function *initializer = module.getFunction("__translate_sampler_initializer");
      initializer != nullptr && initializer->isDeclaration() && initializer->arg_size() == 1 &&
      initializer->getReturnType()->isPointerTy()) {
    // A literal sampler: its bits are the pointer.
    llvm::IRBuilder<> b = begin_builtin_body(*initializer);
    llvm::Value *bits = b.CreateZExt(initializer->getArg(0), b.getInt64Ty());
    b.CreateRet(b.CreateIntToPtr(bits, initializer->getReturnType()));
  }
  llvm::SmallVector<llvm::Function *, 8> builtins;
  for (llvm::Function &function : module) {
    if (!function.isDeclaration() || function.use_empty() || !function.getName().startswith("_Z")) continue;
    std::optional<ImageBuiltin> builtin = image_builtin(opencl_base_name(function.getName()));
    if (builtin && signature_fits(function, *builtin)) builtins.push_back(&function);
  }
  for (llvm::Function *function : builtins) {
    BodyWriter(*function, *image_builtin(opencl_base_name(function->getName())), library).write();
  }
}

} // namespace zeal::frontend
