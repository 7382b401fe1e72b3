// Native (AOT) device images: loaded as they are, and refused with errc::build naming image, library and reason.
#include "kernel_bundle/program_builder.hpp"

#include <zeal/kernel_bundle.hpp>
#include "tests/runtime/kernel_failure.hpp"

#include <zeal/zeal.hpp>
#include <zeal/zeal_device_image.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

std::vector<unsigned char> read_native(const std::string &stem) {
  std::ifstream in(std::string(ZEAL_TEST_NATIVE_DIR) + "/" + stem + ".native", std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// Registers one native image with the metadata zeal-pack would give it, for the life of the object.
class NativeImage {
public:
  NativeImage(std::vector<unsigned char> bytes, std::string kernel, std::string required_size = "")
      : bytes_(std::move(bytes)), kernel_(std::move(kernel)), required_size_(std::move(required_size)),
        size_key_("kernel." + kernel_ + ".reqd_sub_group_size") {
    metadata_.push_back({ZEAL_METADATA_KERNELS, kernel_.data(), kernel_.size()});
    if (!required_size_.empty()) metadata_.push_back({size_key_.c_str(), required_size_.data(), required_size_.size()});
    image_ = {ZEAL_PROGRAM_FORMAT_NATIVE, bytes_.data(), bytes_.size(), "test.native",
              static_cast<uint32_t>(metadata_.size()), metadata_.data()};
    set_ = {ZEAL_DEVICE_IMAGE_VERSION, "native_images_test", 1, &image_};
    zealRegisterDeviceImages(&set_);
  }
  ~NativeImage() { zealUnregisterDeviceImages(&set_); }
  NativeImage(const NativeImage &) = delete;
  NativeImage &operator=(const NativeImage &) = delete;

private:
  std::vector<unsigned char> bytes_;
  std::string kernel_, required_size_, size_key_;
  std::vector<zeal_metadata_entry_t> metadata_;
  zeal_device_image_t image_{};
  zeal_device_image_set_t set_{};
};

// Re-seals a blob edited on purpose (FNV-1a 64 of all but its last 8 bytes), so only the edit is wrong.
void reseal(std::vector<unsigned char> &blob) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (size_t i = 0; i + 8 < blob.size(); ++i) hash = (hash ^ blob[i]) * 0x100000001b3ull;
  std::memcpy(blob.data() + blob.size() - 8, &hash, 8);
}

// What every refusal of a native image must say: which image, from where, and what to do.
void expect_named_refusal(const zeal::exception &e, const std::string &reason) {
  std::string what = e.what();
  EXPECT_EQ(e.code(), zeal::errc::build) << what;
  EXPECT_NE(what.find("native device image 'test.native' of native_images_test"), std::string::npos) << what;
  EXPECT_NE(what.find(reason), std::string::npos) << what;
  EXPECT_NE(what.find("rebuild native_images_test on this machine, or build its device code without AOT"),
            std::string::npos)
      << what;
}

// One work-group of data.size() work-items.
std::vector<int> run(const std::string &kernel, std::vector<int> data) {
  zeal::queue q;
  int *buffer = zeal::malloc_shared<int>(data.size(), q);
  std::copy(data.begin(), data.end(), buffer);
  zeal::nd_range<1> ndr{zeal::range<1>{data.size()}, zeal::range<1>{data.size()}};
  q.parallel_for(ndr, q.get_kernel(zeal::get_kernel_id(kernel)), buffer).wait();
  std::copy(buffer, buffer + data.size(), data.begin());
  zeal::free(buffer, q);
  return data;
}

TEST(NativeImages, GivenANativeImage_ThenItsKernelRunsFromTheBinaryAsItIs) {
  NativeImage image(read_native("native_double"), "native_double");
  zeal::queue q;
  auto bundle = zeal::get_kernel_bundle<zeal::bundle_state::input>(q.get_context(), {q.get_device()},
                                                                    {zeal::get_kernel_id("native_double")});
  ASSERT_EQ(bundle.images().size(), 1u);
  EXPECT_EQ(bundle.images().front().format(), zeal::image_format::native);
  EXPECT_EQ(run("native_double", {1, 2, 3, 4}), (std::vector<int>{2, 4, 6, 8}));
}

// The persistent cache keeps native binaries of SPIR-V builds; a native image is
// one already, so it is neither looked up nor stored (nor JIT-compiled).
TEST(NativeImages, GivenANativeImage_ThenThePersistentCacheIsNeitherAskedNorFilled) {
  NativeImage image(read_native("native_double"), "native_double");
  auto before = zeal::detail::persistent_cache_stats();
  EXPECT_EQ(run("native_double", {5, 6}), (std::vector<int>{10, 12}));
  auto after = zeal::detail::persistent_cache_stats();
  EXPECT_EQ(after.hits, before.hits);
  EXPECT_EQ(after.misses, before.misses);
  EXPECT_EQ(after.stores, before.stores);
}

TEST(NativeImages, GivenACorruptedNativeImage_ThenTheBuildFailsNamingImageLibraryAndChecksum) {
  std::vector<unsigned char> blob = read_native("native_double");
  ASSERT_GT(blob.size(), 64u);
  blob[blob.size() / 2] ^= 0x5a;
  NativeImage image(std::move(blob), "native_double");
  expect_named_refusal(zeal::test::kernel_failure("native_double"), "the native binary is corrupted");
}

TEST(NativeImages, GivenANativeImageOfAnotherDriverVersion_ThenTheMessageNamesIt) {
  std::vector<unsigned char> blob = read_native("native_double");
  const std::string id = "zeal-cpu ";
  auto at = std::search(blob.begin(), blob.end(), id.begin(), id.end());
  ASSERT_NE(at, blob.end());
  at[id.size()] = '9'; // the first digit of the version
  reseal(blob);
  NativeImage image(std::move(blob), "native_double");
  expect_named_refusal(zeal::test::kernel_failure("native_double"), "the native binary was built by zeal-cpu 9");
}

TEST(NativeImages, GivenBytesThatAreNoNativeBinary_ThenTheMessageSaysSo) {
  std::vector<unsigned char> foreign(256, 0x7f);
  NativeImage image(std::move(foreign), "native_double");
  expect_named_refusal(zeal::test::kernel_failure("native_double"), "not a zeal CPU native binary");
}

// A blob cannot be recompiled for another sub-group size: where the profile has
// size 8 it runs with 8, elsewhere (pvc) the whole image is refused, saying why.
TEST(NativeImages, GivenANativeImageRequiringSubGroupSize8_ThenItRunsWith8OrIsRefusedClearly) {
  NativeImage image(read_native("native_needs_8"), "native_needs_8", "8");
  auto sizes = zeal::queue().get_device().sub_group_sizes();
  if (std::find(sizes.begin(), sizes.end(), 8u) != sizes.end()) {
    EXPECT_EQ(run("native_needs_8", {0, 0, 0, 0, 0, 0, 0, 0}), std::vector<int>(8, 8));
    return;
  }
  expect_named_refusal(zeal::test::kernel_failure("native_needs_8"),
                       "kernel 'native_needs_8' requires sub-group size 8 (intel_reqd_sub_group_size), which the "
                       "pvc profile does not support");
}

} // namespace
