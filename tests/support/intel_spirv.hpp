// Modules using Intel extensions SPIRV-Tools 2023.1 cannot assemble (SPV_INTEL_2d_block_io,
// SPV_INTEL_subgroup_matrix_multiply_accumulate): a .spvasm calls imported stand-in functions named after the
// instructions (LinkageAttributes "Subgroup2DBlockLoadINTEL", ..., "SubgroupMatrixMultiplyAccumulateINTEL.<flags>"),
// and with_intel_instructions() makes each call the instruction with the same operands (a matrix product's flags
// from the stand-in's name), removes the stand-ins, and declares the extensions and capabilities.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace zeal::test {

inline std::vector<uint8_t> with_intel_instructions(const std::vector<uint8_t> &spirv) {
  constexpr uint32_t op_extension = 10, op_memory_model = 14, op_function = 54, op_function_end = 56,
                     op_function_call = 57, op_capability = 17, op_name = 5, op_decorate = 71, linkage = 41;
  constexpr uint32_t op_matrix_mad = 6237;
  const std::map<std::string, uint32_t> opcodes = {
      {"Subgroup2DBlockLoadINTEL", 6231},          {"Subgroup2DBlockLoadTransformINTEL", 6232},
      {"Subgroup2DBlockLoadTransposeINTEL", 6233}, {"Subgroup2DBlockPrefetchINTEL", 6234},
      {"Subgroup2DBlockStoreINTEL", 6235},         {"SubgroupMatrixMultiplyAccumulateINTEL", op_matrix_mad}};
  std::vector<uint32_t> in(spirv.size() / 4);
  std::memcpy(in.data(), spirv.data(), in.size() * 4);
  auto each = [&](auto &&f) {
    for (size_t at = 5; at < in.size() && (in[at] >> 16) != 0; at += in[at] >> 16) f(at, in[at] & 0xffff, in[at] >> 16);
  };
  struct Standin {
    uint32_t opcode, flags;
  };
  std::map<uint32_t, Standin> standin; // function id -> the instruction
  each([&](size_t at, uint32_t op, uint32_t count) {
    if (op != op_decorate || count < 4 || in[at + 2] != linkage) return;
    const std::string name = reinterpret_cast<const char *>(&in[at + 3]);
    const size_t dot = name.find('.');
    auto found = opcodes.find(name.substr(0, dot));
    if (found == opcodes.end()) return;
    const uint32_t flags = dot == std::string::npos ? 0 : uint32_t(std::strtoul(name.c_str() + dot + 1, nullptr, 16));
    standin[in[at + 1]] = {found->second, flags};
  });
  auto extension = [&](std::vector<uint32_t> &out, std::string_view name) {
    std::vector<uint32_t> words(name.size() / 4 + 1, 0);
    std::memcpy(words.data(), name.data(), name.size());
    out.push_back(uint32_t(words.size() + 1) << 16 | op_extension);
    out.insert(out.end(), words.begin(), words.end());
  };
  std::vector<uint32_t> out(in.begin(), in.begin() + 5);
  bool declared = false, in_standin = false;
  each([&](size_t at, uint32_t op, uint32_t count) {
    const auto first = in.begin() + long(at), last = first + count;
    if (op == op_capability && !declared) {
      for (uint32_t capability : {6228u, 6229u, 6230u, 6236u}) out.insert(out.end(), {2u << 16 | op_capability, capability});
      declared = true;
    }
    if (op == op_memory_model) { // extensions go before it
      extension(out, "SPV_INTEL_2d_block_io");
      extension(out, "SPV_INTEL_subgroup_matrix_multiply_accumulate");
    }
    if (op == op_function && standin.contains(in[at + 2])) in_standin = true;
    const bool skip = in_standin || ((op == op_decorate || op == op_name) && standin.contains(in[at + 1]));
    if (op == op_function_end && in_standin) in_standin = false;
    if (skip) return;
    if (op == op_function_call && standin.contains(in[at + 3])) {
      const Standin s = standin[in[at + 3]];
      if (s.opcode == op_matrix_mad) { // type, result, K, A, B, C, flags
        out.insert(out.end(), {count << 16 | op_matrix_mad, in[at + 1], in[at + 2]});
        out.insert(out.end(), first + 4, last);
        out.push_back(s.flags);
      } else { // the operands only
        out.push_back((count - 3) << 16 | s.opcode);
        out.insert(out.end(), first + 4, last);
      }
      return;
    }
    out.insert(out.end(), first, last);
  });
  std::vector<uint8_t> bytes(out.size() * 4);
  std::memcpy(bytes.data(), out.data(), bytes.size());
  return bytes;
}

} // namespace zeal::test
