// Heap allocations counted per thread and attributed to the adapter or to Level Zero, for the proof
// (tests/adapter/adapter_alloc_test.cpp) and the figure (bench/adapter) that a launch allocates nothing
// in the adapter. The target compiles allocation_counter.cpp, which replaces the global operator new, and
// defines ZEAL_ADAPTER_PATH, the adapter library's path.
#pragma once

#include <cstddef>

namespace zeal::test {

struct AllocationCounts {
  size_t all = 0;
  size_t adapter = 0; // those whose nearest zeal or Level Zero caller is the adapter
};

void begin_counting_allocations();
AllocationCounts end_counting_allocations();

// The allocations `fn` makes on the calling thread.
template <class Fn>
AllocationCounts count_allocations(Fn &&fn) {
  begin_counting_allocations();
  fn();
  return end_counting_allocations();
}

} // namespace zeal::test
