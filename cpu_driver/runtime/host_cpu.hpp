// What the CPU driver reads of the machine it runs on (model, threads, memory, caches, clock), with fallbacks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace zeal::cpu {

// Facts about the host CPU the device describes, read once.
struct HostCpu {
  std::string vendor;      // "GenuineIntel", "AuthenticAMD", ...; empty if unknown
  std::string model;       // "Intel(R) Xeon(R) ..." from /proc/cpuinfo; "unknown CPU" if unknown
  unsigned threads = 1;    // hardware threads this process may run on, at least 1
  uint32_t mhz = 0;        // clock, as /proc/cpuinfo (else cpufreq's maximum) says; 0 if unknown
  uint64_t memory_bytes = 0; // physical memory
  std::vector<uint64_t> data_cache_bytes; // each level's data (or unified) cache, L1 first; empty if unknown
};

// Where read_host_cpu() looks. A container may lack any of them (no
// /sys/devices/system/cpu, a glibc that cannot tell cache sizes): each fact
// then comes from the next source, else a stated default. Tests point them elsewhere.
struct HostSources {
  std::string cpuinfo = "/proc/cpuinfo";
  std::string cpu_sysfs = "/sys/devices/system/cpu";
  long (*sysconf)(int name) = nullptr;    // null: the C library's
  unsigned (*usable_threads)() = nullptr; // CPUs the scheduler lets this process use, 0 if unknown; null: its mask
};

// Threads: the scheduler's affinity mask, else cpuinfo's processors, else the
// CPUs sysfs lists online, else 1. Memory: sysconf, else 4 GiB. Caches:
// sysconf (glibc asks cpuid), else sysfs's for cpu0, else none.
HostCpu read_host_cpu(const HostSources &sources = {});

// Bytes a launch must store before its stores bypass the caches, unless
// ZEAL_CPU_STREAMING_STORES says: as glibc's memcpy decides, a quarter of the
// last-level cache (of 32 MiB when the caches are unknown).
uint64_t default_streaming_threshold(const HostCpu &cpu);

} // namespace zeal::cpu
