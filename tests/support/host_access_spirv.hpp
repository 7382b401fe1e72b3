// Modules using SPV_INTEL_global_variable_host_access (DPC++'s device_global), which SPIRV-Tools
// 2023.1 cannot assemble: tests/cpu_driver/kernels/host_access.spvasm says `UserSemantic "name"`
// where it means `HostAccessINTEL ReadWriteINTEL "name"`, and with_host_access() makes it so,
// declaring the GlobalVariableHostAccessINTEL capability too.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace zeal::test {

inline std::vector<uint8_t> with_host_access(const std::vector<uint8_t> &spirv) {
  constexpr uint32_t op_capability = 17, op_decorate = 71, user_semantic = 5635;
  constexpr uint32_t host_access_capability = 6187, host_access = 6188, read_write = 2;
  std::vector<uint32_t> in(spirv.size() / 4);
  std::memcpy(in.data(), spirv.data(), in.size() * 4);
  std::vector<uint32_t> out(in.begin(), in.begin() + 5);
  out.insert(out.end(), {2u << 16 | op_capability, host_access_capability});
  for (size_t at = 5; at < in.size() && (in[at] >> 16) != 0; at += in[at] >> 16) {
    const uint32_t count = in[at] >> 16;
    const auto first = in.begin() + long(at), last = first + count;
    if ((in[at] & 0xffff) == op_decorate && count >= 4 && in[at + 2] == user_semantic) {
      out.insert(out.end(), {(count + 1) << 16 | op_decorate, in[at + 1], host_access, read_write});
      out.insert(out.end(), first + 3, last);
    } else {
      out.insert(out.end(), first, last);
    }
  }
  std::vector<uint8_t> bytes(out.size() * 4);
  std::memcpy(bytes.data(), out.data(), bytes.size());
  return bytes;
}

} // namespace zeal::test
