// sub_groups: prints the device's sub-group sizes and each kernel's compiled sub-group size, runs a
// sub-group reduction with each required size the device has, and shows the refusal of the others.
#include <zeal/zeal.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace {

std::string join(const std::vector<uint32_t> &v) {
  std::string s;
  for (uint32_t x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

// Runs `name` on 256 work-items in work-groups of 128 and checks every sum against the host's.
// Returns false if the results are wrong.
bool run(zeal::queue &q, const char *name) {
  constexpr uint32_t n = 256, group = 128;
  zeal::kernel k = q.get_kernel(zeal::get_kernel_id(name));
  uint32_t compiled = k.compile_sub_group_size();
  std::printf("%-10s compiled sub-group size %-4s ", name, compiled == 0 ? "none" : std::to_string(compiled).c_str());
  uint32_t *sums = zeal::malloc_shared<uint32_t>(n, q);
  uint32_t *sizes = zeal::malloc_shared<uint32_t>(n, q);
  bool ok = true;
  try {
    q.parallel_for(zeal::nd_range<1>{{n}, {group}}, k, sums, sizes).wait();
    uint32_t size = sizes[0];
    for (uint32_t i = 0; i < n && ok; ++i) {
      uint32_t first = i / size * size, expected = 0; // sub-group i / size holds [first, first + size)
      for (uint32_t j = first; j < first + size; ++j) expected += j;
      ok = sizes[i] == size && sums[i] == expected;
    }
    std::printf("ran with sub-groups of %u: %s\n", size, ok ? "sums OK" : "WRONG sums");
  } catch (const zeal::exception &e) {
    std::printf("refused\n  error (%s): %s\n", zeal::errc_name(e.code()), e.what());
  }
  zeal::free(sums, q);
  zeal::free(sizes, q);
  return ok;
}

} // namespace

int main() {
  try {
    zeal::queue q;
    zeal::device dev = q.get_device();
    std::printf("device: %s\n", dev.name().c_str());
    std::printf("sub-group sizes: %s\n", join(dev.info_array<uint32_t>(ZEAL_DEVICE_INFO_SUB_GROUP_SIZES)).c_str());
    std::printf("primary sub-group size: %u\n", dev.info<uint32_t>(ZEAL_DEVICE_INFO_PRIMARY_SUB_GROUP_SIZE));
    std::printf("max sub-groups per work-group: %u\n", dev.info<uint32_t>(ZEAL_DEVICE_INFO_MAX_NUM_SUB_GROUPS));
    bool ok = true;
    for (const char *name : {"reduce_any", "reduce_8", "reduce_16", "reduce_32", "reduce_64"}) ok = run(q, name) && ok;
    return ok ? 0 : 1;
  } catch (const zeal::exception &e) {
    std::fprintf(stderr, "sub_groups: error (%s): %s\n", zeal::errc_name(e.code()), e.what());
    return 1;
  }
}
