// Heap allocations counted per thread and attributed to the adapter or to Level Zero, for the proof
// (tests/adapter/adapter_alloc_test.cpp) and the figure (bench/adapter) that a launch allocates nothing
// in the adapter; and allocations made to fail, for tests/hardening/alloc_faults_test.cpp. The target compiles
// allocation_counter.cpp, which replaces the global operator new, and defines ZEAL_ADAPTER_PATH, the adapter
// library's path.
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

// The k-th allocation the calling thread makes from now fails, as it would with no memory left (bad_alloc, or
// null from the nothrow forms); 0 fails none.
void fail_allocation(long k);
// Whether the failure fail_allocation asked for happened; none is asked for afterwards.
bool end_failing_allocation();

// Allocations made through operator new and not yet deleted, by every thread.
long live_allocations();

} // namespace zeal::test
