// What the driver reads of the machine: every fact has a sane value when its sources are missing (a container).
#include "cpu_driver/runtime/host_cpu.hpp"
#include "tests/support/usable_cpus.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace zeal::cpu {
namespace {

long nothing_known(int) { return -1; }
unsigned no_affinity() { return 0; }

// A folder of the test's own, removed afterwards.
class Folder {
public:
  Folder() : path_(std::filesystem::temp_directory_path() / ("zeal-host-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~Folder() { std::filesystem::remove_all(path_); }
  std::string path() const { return path_.string(); }
  void write(const std::string &relative, const std::string &text) const {
    std::filesystem::create_directories((path_ / relative).parent_path());
    std::ofstream(path_ / relative) << text;
  }

private:
  std::filesystem::path path_;
};

TEST(HostCpu, WithNoSourceAtAllEveryFactHasItsDefault) {
  Folder empty;
  HostCpu cpu = read_host_cpu({empty.path() + "/cpuinfo", empty.path() + "/cpu", nothing_known, no_affinity});
  EXPECT_EQ("unknown CPU", cpu.model);
  EXPECT_EQ("", cpu.vendor);
  EXPECT_EQ(1u, cpu.threads);
  EXPECT_EQ(0u, cpu.mhz);
  EXPECT_EQ(uint64_t{4} << 30, cpu.memory_bytes);
  EXPECT_TRUE(cpu.data_cache_bytes.empty());
  EXPECT_EQ(uint64_t{8} << 20, default_streaming_threshold(cpu)) << "a quarter of an assumed 32 MiB";
}

// As in a container whose glibc cannot tell cache sizes but whose sysfs can.
TEST(HostCpu, CachesThreadsAndClockComeFromSysfsWhenNothingElseSays) {
  Folder root;
  const std::string sysfs = root.path() + "/cpu";
  auto cache = [&](int index, int level, const char *type, const char *size) {
    const std::string dir = "cpu/cpu0/cache/index" + std::to_string(index) + "/";
    root.write(dir + "level", std::to_string(level) + "\n");
    root.write(dir + "type", std::string(type) + "\n");
    root.write(dir + "size", std::string(size) + "\n");
  };
  cache(0, 1, "Data", "48K");
  cache(1, 1, "Instruction", "32K");
  cache(2, 2, "Unified", "2048K");
  cache(3, 3, "Unified", "32768K");
  root.write("cpu/online", "0-3,6,8-9\n");
  root.write("cpu/cpu0/cpufreq/cpuinfo_max_freq", "3700000\n");
  HostCpu cpu = read_host_cpu({root.path() + "/no-cpuinfo", sysfs, nothing_known, no_affinity});
  EXPECT_EQ((std::vector<uint64_t>{48 << 10, 2 << 20, 32 << 20}), cpu.data_cache_bytes);
  EXPECT_EQ(8u << 20, default_streaming_threshold(cpu));
  EXPECT_EQ(7u, cpu.threads) << "0-3, 6 and 8-9";
  EXPECT_EQ(3700u, cpu.mhz);
}

TEST(HostCpu, CpuinfoGivesModelVendorClockAndProcessorsWhenTheSchedulerDoesNotSay) {
  Folder root;
  root.write("cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU 9000\ncpu MHz\t\t: 2100.5\n\n"
                        "processor\t: 1\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU 9000\n\n"
                        "processor\t: 2\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU 9000\n");
  root.write("cpu/online", "garbage\n");
  HostCpu cpu = read_host_cpu({root.path() + "/cpuinfo", root.path() + "/cpu", nothing_known, no_affinity});
  EXPECT_EQ("Test CPU 9000", cpu.model);
  EXPECT_EQ("GenuineIntel", cpu.vendor);
  EXPECT_EQ(2100u, cpu.mhz);
  EXPECT_EQ(3u, cpu.threads);
}

TEST(HostCpu, AMalformedOnlineListLeavesOneThread) {
  Folder root;
  for (const char *list : {"garbage", "3-1", "", "0-", ",,"}) {
    root.write("cpu/online", std::string(list) + "\n");
    HostCpu cpu = read_host_cpu({root.path() + "/no-cpuinfo", root.path() + "/cpu", nothing_known, no_affinity});
    EXPECT_EQ(1u, cpu.threads) << list;
  }
}

// The real machine: threads are the CPUs this process may run on (a cpuset or taskset narrows them).
TEST(HostCpu, OnThisMachineThreadsAreTheSchedulersAndMemoryIsReal) {
  HostCpu cpu = read_host_cpu();
  EXPECT_EQ(zeal::test::usable_cpus(), cpu.threads);
  EXPECT_GT(cpu.memory_bytes, uint64_t{0});
  EXPECT_NE("", cpu.model);
}

} // namespace
} // namespace zeal::cpu
