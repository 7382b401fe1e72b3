// How many CPUs the scheduler lets this process run on: what the CPU driver's thread count must be (taskset and
// cpusets narrow it), read independently of the driver.
#pragma once

#include <gtest/gtest.h>

#include <sched.h>

namespace zeal::test {

inline unsigned usable_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) {
    ADD_FAILURE() << "sched_getaffinity failed";
    return 0;
  }
  return unsigned(CPU_COUNT(&set));
}

} // namespace zeal::test
