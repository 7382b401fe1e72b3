// zeal::selector_policy: every device, whatever ONEAPI_DEVICE_SELECTOR says, without touching the
// environment. ctest runs this binary under several selectors (zeal reads its settings once per process).
#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace {

std::optional<std::string> selector_in_environment() {
  const char *s = std::getenv("ONEAPI_DEVICE_SELECTOR");
  if (s == nullptr) return std::nullopt;
  return std::string(s);
}

// What the selector of this run does to the CPU driver's device.
enum class Expect { hides_cpu, shows_cpu, malformed };

Expect expectation() {
  const std::string sel = selector_in_environment().value_or("");
  // opencl:* and !level_zero:* exclude the backend, so its adapter is not even loaded for them;
  // level_zero:gpu loads it and filters the CPU out.
  if (sel == "opencl:*" || sel == "!level_zero:*" || sel == "level_zero:gpu") return Expect::hides_cpu;
  if (sel == "level_zero:cpu") return Expect::shows_cpu;
  if (sel == "level_zero:banana") return Expect::malformed;
  ADD_FAILURE() << "selector_policy_test does not know selector '" << sel << "'";
  return Expect::malformed;
}

bool has_cpu(const std::vector<zeal::device> &devices) {
  return std::any_of(devices.begin(), devices.end(), [](const zeal::device &d) { return d.is_cpu(); });
}

// The devices the selector lets through, or the message of a malformed selector's error.
struct Selected {
  std::vector<zeal::device> devices;
  std::string error;
};

Selected selected_devices() {
  try {
    return {zeal::device::get_devices(), {}};
  } catch (const zeal::exception &e) {
    EXPECT_EQ(e.code(), zeal::errc::invalid) << e.what();
    return {{}, e.what()};
  }
}

void expect_selector_applied(const Selected &selected, Expect expect) {
  switch (expect) {
  case Expect::hides_cpu:
    EXPECT_TRUE(selected.error.empty()) << selected.error;
    EXPECT_FALSE(has_cpu(selected.devices));
    break;
  case Expect::shows_cpu:
    EXPECT_TRUE(selected.error.empty()) << selected.error;
    EXPECT_TRUE(has_cpu(selected.devices));
    break;
  case Expect::malformed:
    EXPECT_NE(selected.error.find("unknown device filter 'banana'"), std::string::npos) << selected.error;
    break;
  }
}

TEST(SelectorPolicy, GivenASelectedListFirst_WhenEveryDeviceIsAskedFor_ThenOnlyThatListIgnoresTheSelector) {
  const std::optional<std::string> environment = selector_in_environment();
  ASSERT_TRUE(environment.has_value()) << "ctest sets ONEAPI_DEVICE_SELECTOR for this test";
  const Expect expect = expectation();

  const Selected before = selected_devices();
  expect_selector_applied(before, expect);

  const std::vector<zeal::device> all = zeal::device::get_devices(zeal::device_type::all, zeal::selector_policy::ignore);
  ASSERT_TRUE(has_cpu(all)) << "the CPU driver's device is missing from every device under " << *environment;
  for (const zeal::device &cpu : zeal::device::get_devices(zeal::device_type::cpu, zeal::selector_policy::ignore)) {
    EXPECT_TRUE(cpu.is_cpu()) << cpu.name();
    EXPECT_NE(std::find(all.begin(), all.end(), cpu), all.end()) << cpu.name();
  }
  // Each device of the selected list is the very device of the full one, so the two can be compared.
  for (const zeal::device &d : before.devices) EXPECT_NE(std::find(all.begin(), all.end(), d), all.end()) << d.name();

  // Loading what the selector had spared the process changes neither the selected list nor the environment.
  const Selected after = selected_devices();
  EXPECT_EQ(after.devices, before.devices);
  EXPECT_EQ(after.error, before.error);
  expect_selector_applied(after, expect);
  EXPECT_EQ(selector_in_environment(), environment);
  EXPECT_EQ(zeal::active_device_selector(), environment);
}

TEST(SelectorPolicy, GivenEightThreadsAskingForEveryDeviceFirst_ThenEachGetsTheSameDevicesAndTheSelectorStillApplies) {
  const std::optional<std::string> environment = selector_in_environment();
  std::vector<std::vector<zeal::device>> lists(8);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < lists.size(); ++t)
    threads.emplace_back([&lists, t] {
      lists[t] = zeal::device::get_devices(zeal::device_type::all, zeal::selector_policy::ignore);
    });
  for (std::thread &t : threads) t.join();
  ASSERT_TRUE(has_cpu(lists.front()));
  // One adapter per file, loaded once: a second load would have made other device objects.
  for (const auto &list : lists) EXPECT_EQ(list, lists.front());

  expect_selector_applied(selected_devices(), expectation());
  EXPECT_EQ(selector_in_environment(), environment);
}

} // namespace
