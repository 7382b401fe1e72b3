// The device profiles: the host CPU as it is, and Intel's Data Center GPU Max (pvc) and Arc A-series (dg2) limits.
#include "cpu_driver/runtime/profile.hpp"

#include <iterator>

namespace zeal::cpu {
namespace {

constexpr uint32_t host_sizes[] = {4, 8, 16, 32, 64};
constexpr uint32_t pvc_sizes[] = {16, 32};
constexpr uint32_t dg2_sizes[] = {8, 16, 32};

// pvc: Data Center GPU Max 1550 as one device (a stack: 64 Xe-cores of 8
// vector engines, 8 threads each, SIMD16, 128 KiB SLM). dg2: Arc A770 (32
// Xe-cores of 16 vector engines, 8 threads each, SIMD8, 64 KiB SLM).
constexpr Profile profiles[] = {
    {"host", host_sizes, 16, 1024, 64 * 1024, 0, 0, 0, 0, 0, 0},
    {"pvc", pvc_sizes, 16, 1024, 128 * 1024, 0x0bd5, 1, 64, 8, 8, 16},
    {"dg2", dg2_sizes, 16, 1024, 64 * 1024, 0x56a0, 8, 4, 16, 8, 8},
};

} // namespace

const Profile *find_profile(std::string_view name) {
  for (const Profile &profile : profiles) {
    if (name == profile.name) return &profile;
  }
  return nullptr;
}

std::string profile_names() {
  std::string names;
  for (const Profile &profile : profiles) names += (names.empty() ? "" : ", ") + std::string(profile.name);
  return names;
}

} // namespace zeal::cpu
