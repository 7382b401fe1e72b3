// SPV_INTEL_2d_block_io on the CPU: the calls spirv/instruction_calls.cpp makes of its instructions, defined as one
// host call each. A lane computes its own share of the block from its lane number: no lane reads another's
// value, so no exchange is needed.
#include "cpu_driver/compiler/host_runtime.hpp"
#include "spirv_frontend/instruction_calls.hpp"

#include <llvm/IR/Constants.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <optional>

namespace zeal::cpu::detail {
namespace {

enum class BlockOp : uint32_t { Load, LoadTransform, LoadTranspose, Prefetch, Store };

BlockOp op_of(llvm::StringRef name) {
  if (name.contains("_load_transform_")) return BlockOp::LoadTransform;
  if (name.contains("_load_transpose_")) return BlockOp::LoadTranspose;
  if (name.contains("_prefetch_")) return BlockOp::Prefetch;
  if (name.contains("_store_")) return BlockOp::Store;
  return BlockOp::Load;
}

// The operands, in the instruction's order: element size, block width, height and count, then (store: the
// private source first) the memory's base, width, height, pitch and the coordinate, then (loads) the private
// destination.
void define_call(llvm::Function &f) {
  llvm::IRBuilder<> b = begin_builtin_body(f);
  llvm::Module &module = *f.getParent();
  const BlockOp op = op_of(f.getName());
  llvm::Value *wi = f.getArg(f.arg_size() - 1);
  const unsigned memory_at = op == BlockOp::Store ? 5 : 4;
  auto i32 = [&](unsigned k) { return b.CreateZExtOrTrunc(f.getArg(k), b.getInt32Ty()); };
  auto i64 = [&](llvm::Value *v) { return b.CreateSExtOrTrunc(v, b.getInt64Ty()); };
  auto bytes = [&](llvm::Value *pointer) { return b.CreatePointerBitCastOrAddrSpaceCast(pointer, b.getInt8PtrTy()); };
  llvm::Value *coordinate = f.getArg(memory_at + 4);
  llvm::Value *data = op == BlockOp::Store ? bytes(f.getArg(4))
                      : op == BlockOp::Prefetch ? llvm::ConstantPointerNull::get(b.getInt8PtrTy())
                                                : bytes(f.getArg(memory_at + 5));
  llvm::FunctionCallee host = module.getOrInsertFunction(
      block_2d_symbol, b.getVoidTy(), wi->getType(), b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty(), b.getInt32Ty(),
      b.getInt32Ty(), b.getInt8PtrTy(), b.getInt64Ty(), b.getInt64Ty(), b.getInt64Ty(), b.getInt64Ty(),
      b.getInt64Ty(), b.getInt8PtrTy());
  b.CreateCall(host, {wi, b.getInt32(uint32_t(op)), i32(0), i32(1), i32(2), i32(3), bytes(f.getArg(memory_at)),
                      i64(f.getArg(memory_at + 1)), i64(f.getArg(memory_at + 2)), i64(f.getArg(memory_at + 3)),
                      i64(b.CreateExtractElement(coordinate, uint64_t(0))),
                      i64(b.CreateExtractElement(coordinate, uint64_t(1))), data});
  b.CreateRetVoid();
}

// The region of memory a block is read from or written to, and where its block starts in it.
struct Region {
  unsigned char *base;
  int64_t width, height, pitch; // bytes, rows, bytes
  int64_t x, y;                 // elements, rows
  uint32_t element;             // bytes
};

// Element (row, column) of the memory, relative to the block's start, or nothing when out of bounds.
unsigned char *at(const Region &r, int64_t row, int64_t column) {
  const int64_t y = r.y + row, x = r.x + column;
  if (y < 0 || y >= r.height || x < 0 || (x + 1) * int64_t(r.element) > r.width) return nullptr;
  return r.base + y * r.pitch + x * int64_t(r.element);
}

// The block a lane sees: `rows` by `columns` values of `bytes` each, after padding, transform or transpose.
struct Shape {
  uint32_t rows, columns, bytes;
};

// Where value (row, column) of a block goes among a lane's values, or nothing when it is another lane's: whole
// rows of the block over the sub-group's lanes when it is narrower than the sub-group, else consecutive columns
// to each lane (SPV_INTEL_2d_block_io, "Mapping Block Data to Invocations").
std::optional<uint32_t> slot_of(const Shape &s, uint32_t row, uint32_t column, uint32_t lane, uint32_t lanes) {
  if (s.columns >= lanes) {
    const uint32_t per_lane = s.columns / lanes;
    if (column / per_lane != lane) return std::nullopt;
    return row * per_lane + column % per_lane;
  }
  const uint32_t rows_at_once = lanes / s.columns;
  if (row % rows_at_once != lane / s.columns || column != lane % s.columns) return std::nullopt;
  return row / rows_at_once;
}

// Value (row, column) of block `block` as the lane receives it: zero where padded or out of bounds.
uint64_t block_value(BlockOp op, const Region &r, uint32_t block_width, uint32_t block_height, uint32_t block,
                     uint32_t row, uint32_t column) {
  auto element = [&](uint32_t y, uint32_t x) -> uint64_t {
    if (x >= block_width || y >= block_height) return 0; // padding
    const unsigned char *p = at(r, y, int64_t(block) * block_width + x);
    uint64_t value = 0;
    if (p != nullptr) std::memcpy(&value, p, r.element);
    return value;
  };
  if (op == BlockOp::LoadTranspose) return element(column, row);
  if (op != BlockOp::LoadTransform) return element(row, column);
  const uint32_t pack = 4 / r.element; // rows combined into 32 bits, lower rows in lower bits
  uint64_t value = 0;
  for (uint32_t q = 0; q < pack; ++q) value |= element(row * pack + q, column) << (q * 8 * r.element);
  return value;
}

Shape shape_of(BlockOp op, uint32_t element, uint32_t block_width, uint32_t block_height) {
  if (op == BlockOp::LoadTranspose) return {block_width, std::bit_ceil(block_height), element};
  if (op == BlockOp::LoadTransform) {
    const uint32_t pack = 4 / element;
    return {(block_height + pack - 1) / pack, std::bit_ceil(block_width), 4};
  }
  return {block_height, std::bit_ceil(block_width), element};
}

extern "C" void zeal_cpu_block_2d(HostWorkItem *wi, uint32_t op_code, uint32_t element, uint32_t block_width,
                                  uint32_t block_height, uint32_t blocks, unsigned char *base, int64_t width,
                                  int64_t height, int64_t pitch, int64_t x, int64_t y, unsigned char *data) {
  const auto op = BlockOp(op_code);
  if (op == BlockOp::Prefetch) return;
  // Blocks beyond what any device lists (elements of 1, 2, 4 or 8 bytes, none of 8 packed into 32 bits; here rows of
  // at most 128 bytes, 32 rows and 4 blocks) are neither read nor written: a module asking for one has undefined
  // behaviour, and it must not make the driver divide by zero, loop for ever or write far past the lane's data.
  const bool sized = element == 1 || element == 2 || element == 4 || element == 8;
  if (!sized || (op == BlockOp::LoadTransform && element > 4) || block_width == 0 || block_width * element > 128 ||
      block_height == 0 || block_height > 32 || blocks == 0 || blocks > 4)
    return;
  const uint64_t linear =
      (wi->local_id[2] * wi->local_size[1] + wi->local_id[1]) * wi->local_size[0] + wi->local_id[0];
  const auto lanes = uint32_t(wi->subgroup_size), lane = uint32_t(linear % lanes);
  const Region region{base, width, height, pitch, x, y, element};
  const Shape s = shape_of(op, element, block_width, block_height);
  const uint32_t per_block = (s.rows * s.columns + lanes - 1) / lanes;
  for (uint32_t block = 0; block < blocks; ++block) {
    unsigned char *mine = data + size_t(block) * per_block * s.bytes;
    if (op != BlockOp::Store) std::memset(mine, 0, size_t(per_block) * s.bytes); // slots no value reaches
    for (uint32_t row = 0; row < s.rows; ++row) {
      for (uint32_t column = 0; column < s.columns; ++column) {
        std::optional<uint32_t> slot = slot_of(s, row, column, lane, lanes);
        if (!slot) continue;
        if (op == BlockOp::Store) {
          if (column >= block_width) continue; // padding: ignored
          if (unsigned char *p = at(region, row, int64_t(block) * block_width + column))
            std::memcpy(p, mine + size_t(*slot) * s.bytes, element);
          continue;
        }
        const uint64_t value = block_value(op, region, block_width, block_height, block, row, column);
        std::memcpy(mine + size_t(*slot) * s.bytes, &value, s.bytes); // little-endian: its low bytes
      }
    }
  }
}

} // namespace

void define_block_2d_calls(llvm::Module &module) {
  for (llvm::Function &f : module) {
    if (f.isDeclaration() && !f.use_empty() && frontend::is_block_2d_call(f.getName()) && f.arg_size() >= 10) define_call(f);
  }
}

RuntimeSymbol block_2d_runtime_symbol() { return {block_2d_symbol, reinterpret_cast<void *>(&zeal_cpu_block_2d)}; }

} // namespace zeal::cpu::detail
