// Device images that cannot be built: each fails with a specific error and a sentence, never a crash.
#include "tests/runtime/kernel_failure.hpp"

#include <zeal/zeal.hpp>
#include <zeal/zeal_device_image.h>

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

std::vector<unsigned char> read_file(const char *path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Registers one image that claims to hold `kernel`, for the life of the object.
class RegisteredImage {
public:
  RegisteredImage(std::vector<unsigned char> bytes, std::string kernel)
      : bytes_(std::move(bytes)), kernels_(std::move(kernel)) {
    metadata_ = {ZEAL_METADATA_KERNELS, kernels_.data(), kernels_.size()};
    image_ = {ZEAL_PROGRAM_FORMAT_SPIRV, bytes_.data(), bytes_.size(), "bad.spv", 1, &metadata_};
    set_ = {ZEAL_DEVICE_IMAGE_VERSION, "bad_images_test", 1, &image_};
    zealRegisterDeviceImages(&set_);
  }
  ~RegisteredImage() { zealUnregisterDeviceImages(&set_); }

private:
  std::vector<unsigned char> bytes_;
  std::string kernels_;
  zeal_metadata_entry_t metadata_{};
  zeal_device_image_t image_{};
  zeal_device_image_set_t set_{};
};

TEST(BadImages, GivenBytesThatAreNotSpirv_ThenTheErrorIsInvalidAndSaysSo) {
  RegisteredImage image({'n', 'o', 't', ' ', 's', 'p', 'i', 'r', 'v', '!', '!', '!'}, "garbage_kernel");
  zeal::exception e = zeal::test::kernel_failure("garbage_kernel");
  EXPECT_EQ(e.code(), zeal::errc::invalid) << e.what();
  EXPECT_NE(std::string(e.what()).find("bad.spv"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("SPIR-V"), std::string::npos) << e.what();
}

TEST(BadImages, GivenTruncatedSpirv_ThenTheErrorIsInvalidWithAReason) {
  std::vector<unsigned char> bytes = read_file(ZEAL_TEST_SPIRV);
  ASSERT_GT(bytes.size(), 64u);
  bytes.resize(bytes.size() / 2 / 4 * 4);
  RegisteredImage image(std::move(bytes), "truncated_kernel");
  zeal::exception e = zeal::test::kernel_failure("truncated_kernel");
  EXPECT_EQ(e.code(), zeal::errc::invalid) << e.what();
  EXPECT_FALSE(std::string(e.what()).empty());
}

TEST(BadImages, GivenSpirvOfAVersionTheDriverCannotRead_ThenTheBuildFailsWithALog) {
  std::vector<unsigned char> bytes = read_file(ZEAL_TEST_PROBE_SPIRV);
  ASSERT_GT(bytes.size(), 20u);
  bytes[4] = 0x00; // version word (little endian): 1.5, with the Vulkan memory model, which 1.4 lacks
  bytes[5] = 0x05;
  bytes[6] = 0x01;
  bytes[7] = 0x00;
  for (size_t at = 20; at + 12 <= bytes.size(); at += 4 * (bytes[at + 2] | bytes[at + 3] << 8)) {
    if (bytes[at] == 14 && bytes[at + 1] == 0) bytes[at + 8] = 3; // OpMemoryModel's memory model: Vulkan
    if ((bytes[at + 2] | bytes[at + 3]) == 0) break;
  }
  RegisteredImage image(std::move(bytes), "version_probe");
  zeal::exception e = zeal::test::kernel_failure("version_probe");
  EXPECT_EQ(e.code(), zeal::errc::build) << e.what();
  // The driver's build log, carried in the message: what was wrong and what is accepted.
  EXPECT_NE(std::string(e.what()).find("SPIR-V 1.5 and uses the Vulkan memory model"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("'bad.spv' of bad_images_test"), std::string::npos) << e.what();
}

TEST(BadImages, GivenAnImageWithoutTheKernelItClaims_ThenTheErrorNamesTheKernel) {
  RegisteredImage image(read_file(ZEAL_TEST_PROBE_SPIRV), "ghost_kernel");
  zeal::exception e = zeal::test::kernel_failure("ghost_kernel");
  EXPECT_EQ(e.code(), zeal::errc::invalid) << e.what();
  EXPECT_NE(std::string(e.what()).find("metadata names kernel 'ghost_kernel' but the SPIR-V module has no such "
                                       "entry point"),
            std::string::npos)
      << e.what();
  EXPECT_NE(std::string(e.what()).find("'bad.spv' of bad_images_test"), std::string::npos) << e.what();
}

} // namespace
