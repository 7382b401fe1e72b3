// The settings table: defaults, valid values, and invalid values reported with a sentence.
#include "common/settings.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>

namespace {

std::map<std::string, std::string> g_env;

const char *fake_getenv(const char *name) {
  auto it = g_env.find(name);
  return it == g_env.end() ? nullptr : it->second.c_str();
}

zeal::Settings read(std::map<std::string, std::string> env) {
  g_env = std::move(env);
  return zeal::read_settings(fake_getenv);
}

TEST(Settings, GivenNoVariables_ThenEveryDefaultHolds) {
  zeal::Settings s = read({});
  EXPECT_EQ(s.log_level, spdlog::level::warn);
  EXPECT_FALSE(s.trace);
  EXPECT_TRUE(s.cache_persistent);
  EXPECT_EQ(s.cpu_profile, "host");
  EXPECT_EQ(s.cpu_threads, 0u);
  EXPECT_FALSE(s.device_selector_set);
  EXPECT_TRUE(s.problems.empty());
}

TEST(Settings, GivenValidValues_ThenTheyAreRead) {
  zeal::Settings s = read({{"ZEAL_LOG_LEVEL", "debug"},
                           {"ZEAL_TRACE", "1"},
                           {"ZEAL_CPU_THREADS", "3"},
                           {"ZEAL_CACHE_PERSISTENT", "0"},
                           {"ONEAPI_DEVICE_SELECTOR", "level_zero:cpu"},
                           {"ZEAL_ADAPTERS_SEARCH_PATH", "/a:/b"}});
  EXPECT_EQ(s.log_level, spdlog::level::debug);
  EXPECT_TRUE(s.trace);
  EXPECT_EQ(s.cpu_threads, 3u);
  EXPECT_FALSE(s.cache_persistent);
  EXPECT_TRUE(s.device_selector_set);
  EXPECT_EQ(s.device_selector, "level_zero:cpu");
  EXPECT_EQ(s.adapters_search_path, "/a:/b");
  EXPECT_TRUE(s.problems.empty());
}

TEST(Settings, GivenInvalidValues_ThenEachIsReportedByNameAndTheDefaultKept) {
  zeal::Settings s = read({{"ZEAL_LOG_LEVEL", "loud"}, {"ZEAL_CPU_THREADS", "many"}, {"ZEAL_TRACE", "2"}});
  EXPECT_EQ(s.log_level, spdlog::level::warn);
  EXPECT_EQ(s.cpu_threads, 0u);
  ASSERT_EQ(s.problems.size(), 3u);
  std::string all = s.problems[0] + s.problems[1] + s.problems[2];
  EXPECT_NE(all.find("ZEAL_LOG_LEVEL='loud' is not valid"), std::string::npos) << all;
  EXPECT_NE(all.find("ZEAL_CPU_THREADS='many' is not valid"), std::string::npos) << all;
  EXPECT_NE(all.find("ZEAL_TRACE='2' is not valid"), std::string::npos) << all;
}

TEST(Settings, CacheSizesTakeSuffixes) {
  EXPECT_EQ(read({{"ZEAL_CACHE_MAX_SIZE", "4096"}}).cache_max_size, 4096u);
  EXPECT_EQ(read({{"ZEAL_CACHE_MAX_SIZE", "64K"}}).cache_max_size, 64u << 10);
  EXPECT_EQ(read({{"ZEAL_CACHE_MAX_SIZE", "500M"}}).cache_max_size, 500u << 20);
  EXPECT_EQ(read({{"ZEAL_CACHE_MAX_SIZE", "2G"}}).cache_max_size, uint64_t{2} << 30);
  zeal::Settings bad = read({{"ZEAL_CACHE_MAX_SIZE", "2T"}});
  EXPECT_EQ(bad.cache_max_size, uint64_t{1} << 30);
  ASSERT_EQ(bad.problems.size(), 1u);
  EXPECT_NE(bad.problems[0].find("ZEAL_CACHE_MAX_SIZE='2T' is not valid (expected a size such as 500M or 2G)"),
            std::string::npos)
      << bad.problems[0];
}

TEST(Settings, DeviceCountsAndTheAffinityMaskAreReadAndCheckedForShape) {
  zeal::Settings s = read({{"ZEAL_CPU_DRIVERS", "2"}, {"ZEAL_CPU_DEVICES", "3"}, {"ZEAL_CPU_SUBDEVICES", "2"},
                           {"ZE_AFFINITY_MASK", "0,2.1,10"}});
  EXPECT_EQ(2u, s.cpu_drivers);
  EXPECT_EQ(3u, s.cpu_devices);
  EXPECT_EQ(2u, s.cpu_subdevices);
  using Entry = std::pair<unsigned, int>;
  EXPECT_EQ((std::vector<Entry>{{0, -1}, {2, 1}, {10, -1}}), s.affinity_mask);
  EXPECT_TRUE(s.problems.empty());
  EXPECT_TRUE(read({{"ZE_AFFINITY_MASK", ""}}).affinity_mask.empty());
  for (const char *bad : {"0,", ",0", "0.", "a", "0 1", "1.2.3", "-1"}) {
    zeal::Settings r = read({{"ZE_AFFINITY_MASK", bad}});
    EXPECT_TRUE(r.affinity_mask.empty()) << bad;
    ASSERT_EQ(1u, r.problems.size()) << bad;
    EXPECT_NE(std::string::npos, r.problems[0].find("ZE_AFFINITY_MASK='" + std::string(bad) + "' is not valid"))
        << r.problems[0];
  }
  for (auto [variable, value] : {std::pair{"ZEAL_CPU_DEVICES", "0"}, {"ZEAL_CPU_DEVICES", "65"},
                                 {"ZEAL_CPU_SUBDEVICES", "65"}, {"ZEAL_CPU_SUBDEVICES", "two"},
                                 {"ZEAL_CPU_DRIVERS", "0"}, {"ZEAL_CPU_DRIVERS", "9"}}) {
    zeal::Settings r = read({{variable, value}});
    EXPECT_EQ(1u, r.cpu_drivers);
    EXPECT_EQ(1u, r.cpu_devices);
    EXPECT_EQ(0u, r.cpu_subdevices);
    EXPECT_EQ(1u, r.problems.size()) << variable << "=" << value;
  }
}

TEST(Settings, EverySettingIsDocumented) {
  for (const zeal::SettingDoc &doc : zeal::setting_docs()) {
    EXPECT_NE(std::string(doc.meaning), "") << doc.variable;
    EXPECT_NE(std::string(doc.default_value), "") << doc.variable;
  }
  EXPECT_GE(zeal::setting_docs().size(), 10u);
}

TEST(Settings, TheCpuTargetIsNativeUnlessNamed) {
  EXPECT_EQ("native", read({}).cpu_target);
  EXPECT_EQ("x86-64-v3", read({{"ZEAL_CPU_TARGET", "x86-64-v3"}}).cpu_target);
  // Whether LLVM knows the name is the CPU driver's to say (zeInit fails, naming the valid ones).
  EXPECT_EQ("pentium-9000", read({{"ZEAL_CPU_TARGET", "pentium-9000"}}).cpu_target);
  zeal::Settings empty = read({{"ZEAL_CPU_TARGET", ""}});
  EXPECT_EQ("native", empty.cpu_target);
  ASSERT_EQ(1u, empty.problems.size());
  EXPECT_NE(empty.problems[0].find("ZEAL_CPU_TARGET='' is not valid (expected native or a CPU name)"),
            std::string::npos)
      << empty.problems[0];
}

TEST(Settings, StreamingStoresAreAutoOffOrASize) {
  EXPECT_FALSE(read({}).cpu_streaming_threshold.has_value());
  EXPECT_FALSE(read({{"ZEAL_CPU_STREAMING_STORES", "auto"}}).cpu_streaming_threshold.has_value());
  EXPECT_EQ(read({{"ZEAL_CPU_STREAMING_STORES", "off"}}).cpu_streaming_threshold, UINT64_MAX);
  EXPECT_EQ(read({{"ZEAL_CPU_STREAMING_STORES", "0"}}).cpu_streaming_threshold, 0u);
  EXPECT_EQ(read({{"ZEAL_CPU_STREAMING_STORES", "64M"}}).cpu_streaming_threshold, uint64_t{64} << 20);
  zeal::Settings bad = read({{"ZEAL_CPU_STREAMING_STORES", "sometimes"}});
  EXPECT_FALSE(bad.cpu_streaming_threshold.has_value());
  ASSERT_EQ(bad.problems.size(), 1u);
  EXPECT_NE(bad.problems[0].find("ZEAL_CPU_STREAMING_STORES='sometimes' is not valid (expected auto, off or a size"),
            std::string::npos)
      << bad.problems[0];
}

} // namespace
