// Modules using SPV_INTEL_2d_block_io, which SPIRV-Tools 2023.1 cannot assemble: a .spvasm calls imported stand-in
// functions named after the instructions (LinkageAttributes "Subgroup2DBlockLoadINTEL", ...), and
// with_block_2d_io() makes each call the instruction with the same operands, removes the stand-ins, and declares
// the extension and its capabilities.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace zeal::test {

inline std::vector<uint8_t> with_block_2d_io(const std::vector<uint8_t> &spirv) {
  constexpr uint32_t op_extension = 10, op_memory_model = 14, op_function = 54, op_function_end = 56,
                     op_function_call = 57, op_capability = 17, op_name = 5, op_decorate = 71, linkage = 41;
  const std::map<std::string, uint32_t> opcodes = {
      {"Subgroup2DBlockLoadINTEL", 6231},     {"Subgroup2DBlockLoadTransformINTEL", 6232},
      {"Subgroup2DBlockLoadTransposeINTEL", 6233}, {"Subgroup2DBlockPrefetchINTEL", 6234},
      {"Subgroup2DBlockStoreINTEL", 6235}};
  std::vector<uint32_t> in(spirv.size() / 4);
  std::memcpy(in.data(), spirv.data(), in.size() * 4);
  auto each = [&](auto &&f) {
    for (size_t at = 5; at < in.size() && (in[at] >> 16) != 0; at += in[at] >> 16) f(at, in[at] & 0xffff, in[at] >> 16);
  };
  std::map<uint32_t, uint32_t> standin; // function id -> opcode
  each([&](size_t at, uint32_t op, uint32_t count) {
    if (op != op_decorate || count < 4 || in[at + 2] != linkage) return;
    auto found = opcodes.find(reinterpret_cast<const char *>(&in[at + 3]));
    if (found != opcodes.end()) standin[in[at + 1]] = found->second;
  });
  std::vector<uint32_t> out(in.begin(), in.begin() + 5);
  bool declared = false, in_standin = false;
  each([&](size_t at, uint32_t op, uint32_t count) {
    const auto first = in.begin() + long(at), last = first + count;
    if (op == op_capability && !declared) {
      for (uint32_t capability : {6228u, 6229u, 6230u}) out.insert(out.end(), {2u << 16 | op_capability, capability});
      declared = true;
    }
    if (op == op_memory_model) { // "SPV_INTEL_2d_block_io", 22 bytes: 6 words with the terminator
      const char name[24] = "SPV_INTEL_2d_block_io";
      out.push_back(7u << 16 | op_extension);
      const size_t words = out.size();
      out.resize(words + 6);
      std::memcpy(&out[words], name, 24);
    }
    if (op == op_function && standin.contains(in[at + 2])) in_standin = true;
    const bool skip = in_standin || ((op == op_decorate || op == op_name) && standin.contains(in[at + 1]));
    if (op == op_function_end && in_standin) in_standin = false;
    if (skip) return;
    if (op == op_function_call && standin.contains(in[at + 3])) {
      out.push_back((count - 3) << 16 | standin[in[at + 3]]);
      out.insert(out.end(), first + 4, last);
      return;
    }
    out.insert(out.end(), first, last);
  });
  std::vector<uint8_t> bytes(out.size() * 4);
  std::memcpy(bytes.data(), out.data(), bytes.size());
  return bytes;
}

} // namespace zeal::test
