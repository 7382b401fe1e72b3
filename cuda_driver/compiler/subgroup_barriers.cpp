// Sub-group barriers through LLVMSPIRVLib 15: with OpenCL 1.2 built-ins it reads OpControlBarrier of sub-group
// scope as barrier(flags), a work-group barrier, which would hang a sub-group that waits alone. Before reading, such
// a barrier's memory semantics gain ImageMemory (0x800), which the translator passes on as CLK_IMAGE_MEM_FENCE (4):
// the back end, which has no images, defines barrier(flags with 4) as the sub-group's bar.warp.sync. A module with an
// image fence at work-group scope of its own is left as it is.
#include "cuda_driver/compiler/internal.hpp"

#include "spirv/words.hpp"

#include <spirv/unified1/spirv.hpp>

#include <cstring>
#include <map>

namespace zeal::cuda {

namespace {

constexpr uint32_t kImageMemory = spv::MemorySemanticsImageMemoryMask;

struct Constant {
  size_t at;     // where its instruction starts
  uint32_t type;
  uint32_t value;
};

} // namespace

std::vector<uint8_t> mark_subgroup_barriers(std::span<const uint8_t> spirv) {
  if (spirv.size() % 4 != 0 || spirv.size() < spirv::header_words * 4) return {};
  std::vector<uint32_t> words(spirv.size() / 4);
  std::memcpy(words.data(), spirv.data(), spirv.size());
  if (words[0] != spv::MagicNumber) return {};
  std::map<uint32_t, Constant> constants;
  std::vector<size_t> barriers; // sub-group OpControlBarriers
  for (const spirv::Instruction &inst : spirv::instructions(words)) {
    if (inst.cut) return {};
    if (inst.opcode == spv::OpConstant && inst.count == 4) constants[inst.words[2]] = {inst.at, inst.words[1], inst.words[3]};
    if (inst.opcode != spv::OpControlBarrier || inst.count != 4) continue;
    auto scope = constants.find(inst.words[1]), semantics = constants.find(inst.words[3]);
    if (scope == constants.end() || semantics == constants.end()) continue;
    if (scope->second.value == spv::ScopeSubgroup) barriers.push_back(inst.at);
    else if ((semantics->second.value & kImageMemory) != 0) return {};
  }
  if (barriers.empty()) return {};
  // One new constant per semantics value, defined right after the one it extends.
  std::map<uint32_t, uint32_t> marked; // old semantics id -> new id
  std::map<size_t, std::vector<uint32_t>> inserted; // after which instruction, the words to insert
  for (size_t at : barriers) {
    uint32_t old_id = words[at + 3];
    if (marked.count(old_id) != 0) continue;
    const Constant &old = constants[old_id];
    uint32_t new_id = words[3]++;
    marked[old_id] = new_id;
    size_t after = old.at + (words[old.at] >> 16);
    inserted[after].insert(inserted[after].end(), {(4u << 16) | spv::OpConstant, old.type, new_id, old.value | kImageMemory});
  }
  for (size_t at : barriers) words[at + 3] = marked[words[at + 3]];
  std::vector<uint32_t> result;
  result.reserve(words.size() + 4 * marked.size());
  for (size_t i = 0; i <= words.size(); ++i) {
    if (auto extra = inserted.find(i); extra != inserted.end()) result.insert(result.end(), extra->second.begin(), extra->second.end());
    if (i < words.size()) result.push_back(words[i]);
  }
  std::vector<uint8_t> bytes(result.size() * 4);
  std::memcpy(bytes.data(), result.data(), bytes.size());
  return bytes;
}

} // namespace zeal::cuda
