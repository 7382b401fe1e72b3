// The host functions region code calls: each thread's scratch for work-item slots, and sub-group collectives.
#include "cpu_driver/compiler/workgroup/regions.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace zeal::cpu::detail {
namespace {

// One buffer per worker thread, reused by every work-group it runs.
struct RegionScratch {
  void *data = nullptr;
  uint64_t size = 0;
  ~RegionScratch() { std::free(data); }
};
thread_local RegionScratch region_scratch;

extern "C" void *zeal_cpu_region_scratch(uint64_t bytes) {
  RegionScratch &scratch = region_scratch;
  if (bytes <= scratch.size) return scratch.data;
  std::free(scratch.data);
  uint64_t size = std::max<uint64_t>((bytes + 4095) & ~uint64_t{4095}, 65536);
  scratch.data = std::aligned_alloc(64, size);
  if (scratch.data == nullptr) {
    std::fputs("zeal-cpu: out of memory for the values a work-group keeps across barriers\n", stderr);
    std::abort(); // JIT'd code has no way to fail a launch
  }
  scratch.size = size;
  return scratch.data;
}

// Called when no work-item is left to run but some wait at collectives:
// in each sub-group, the lanes waiting at the earliest collective (the lowest
// id) take part and get their results; they resume in the region after it.
// Lanes at later collectives wait for a later call, as with fibers.
extern "C" void zeal_cpu_region_collectives(uint32_t *next, const RegionSite *sites, const uint32_t *args,
                                            uint64_t total, uint64_t subgroup_size) {
  const unsigned char *posts[sg_max_lanes];
  CollectiveRecord lanes[sg_max_lanes];
  for (uint64_t first = 0; first < total; first += subgroup_size) {
    const uint32_t size = uint32_t(std::min(subgroup_size, total - first));
    uint32_t site = exit_region;
    for (uint32_t j = 0; j < size; ++j) {
      if (next[first + j] & region_waits) site = std::min(site, next[first + j] & ~region_waits);
    }
    if (site == exit_region) continue;
    const RegionSite &at = sites[site - 1]; // collective sites are regions 1..C
    uint64_t active = 0;
    for (uint32_t j = 0; j < size; ++j) {
      if (next[first + j] != (site | region_waits)) continue;
      active |= uint64_t{1} << j;
      const uint64_t item = first + j;
      posts[j] = at.post + item * at.post_stride;
      lanes[j] = CollectiveRecord{posts[j], at.out ? at.out + item * at.out_stride : nullptr, at.code,
                                  at.arg_per_lane ? args[item] : at.arg};
      next[item] = site;
    }
    combine_sub_group(CollectiveView{posts, active, 0, size, uint32_t(subgroup_size)}, lanes);
  }
}

} // namespace

std::span<const RuntimeSymbol> region_symbols() {
  static const RuntimeSymbol symbols[] = {
      {region_scratch_symbol, reinterpret_cast<void *>(&zeal_cpu_region_scratch)},
      {region_collectives_symbol, reinterpret_cast<void *>(&zeal_cpu_region_collectives)},
  };
  return symbols;
}

} // namespace zeal::cpu::detail
