// The CUDA driver API through dlopen (cuda_driver/cuda_api.hpp, issue 49): a missing library and a library that
// is not CUDA's are refused with sentences; where NVIDIA's driver is installed, every device is listed with facts a
// CUDA device has. CI has no GPU: the listing test skips there, saying why.
#include "cuda_driver/cuda_api.hpp"

#include <gtest/gtest.h>

#include <iostream>

namespace zeal::cuda {
namespace {

TEST(CudaApi, AMissingLibraryIsNamedWithTheLoadersReason) {
  Opened opened = open_cuda("libzeal-no-such-cuda.so.1");
  EXPECT_EQ(nullptr, opened.library);
  EXPECT_NE(std::string::npos, opened.why.find("the CUDA driver library libzeal-no-such-cuda.so.1 could not be opened"))
      << opened.why;
}

TEST(CudaApi, ALibraryThatIsNotCudasIsRefusedNamingWhatItLacks) {
  Opened opened = open_cuda("libc.so.6");
  EXPECT_EQ(nullptr, opened.library);
  EXPECT_EQ("libc.so.6 has no cuInit: it is not NVIDIA's CUDA driver library", opened.why);
}

TEST(CudaApi, EveryDeviceOfTheInstalledDriverIsListedWithItsFacts) {
  Opened opened = open_cuda();
  if (opened.library == nullptr) GTEST_SKIP() << "no CUDA on this machine (" << opened.why << ")";
  int version = 0;
  ASSERT_EQ(CUDA_SUCCESS, opened.library->api().cuInit(0));
  ASSERT_EQ(CUDA_SUCCESS, opened.library->api().cuDriverGetVersion(&version));
  std::string why;
  std::vector<DeviceFacts> devices = list_devices(*opened.library, why);
  if (devices.empty()) GTEST_SKIP() << "the CUDA driver has no usable device (" << why << ")";
  std::cout << "CUDA driver " << version / 1000 << "." << version % 1000 / 10 << "\n";
  for (const DeviceFacts &d : devices) {
    std::cout << "device " << d.ordinal << ": " << d.name << ", " << d.memory_bytes / (1 << 20) << " MiB, sm_"
              << d.compute_major << d.compute_minor << ", " << d.multiprocessors << " multiprocessors, warp "
              << d.warp_size << ", " << d.max_threads_per_block << " threads per block, " << d.clock_khz / 1000
              << " MHz, memory " << d.memory_clock_khz / 1000 << " MHz x " << d.memory_bus_bits << " bits"
              << (d.unified_addressing ? ", unified addressing" : "") << "\n";
    EXPECT_FALSE(d.name.empty());
    EXPECT_GT(d.memory_bytes, size_t{1} << 30);
    EXPECT_GE(d.compute_major, 5);
    EXPECT_EQ(32, d.warp_size);
    EXPECT_GE(d.max_threads_per_block, 512);
    EXPECT_GT(d.multiprocessors, 0);
  }
}

} // namespace
} // namespace zeal::cuda
