// Native binaries: round trips (linking included) and every way a blob can be wrong, each with its log.
#include "link_support.hpp"

#include <cstring>

namespace zeal::cpu::test {
namespace {

class NativeBinaries : public LinkingDriver {
protected:
  std::vector<uint8_t> native_of(ze_module_handle_t module) {
    size_t size = 0;
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleGetNativeBinary(module, &size, nullptr));
    std::vector<uint8_t> blob(size);
    EXPECT_EQ(ZE_RESULT_SUCCESS, zeModuleGetNativeBinary(module, &size, blob.data()));
    return blob;
  }
  ze_result_t load(const std::vector<uint8_t> &blob, ze_module_handle_t &module, std::string &text) {
    ze_module_desc_t desc{ZE_STRUCTURE_TYPE_MODULE_DESC, nullptr, ZE_MODULE_FORMAT_NATIVE, blob.size(), blob.data(),
                          nullptr, nullptr};
    ze_module_build_log_handle_t log = nullptr;
    module = nullptr;
    ze_result_t r = zeModuleCreate(context, device, &desc, &module, &log);
    text = log != nullptr ? log_text(log) : std::string();
    if (module != nullptr) modules.push_back(module);
    return r;
  }
  // The log of a blob that must be refused.
  std::string refused(const std::vector<uint8_t> &blob) {
    ze_module_handle_t module = nullptr;
    std::string text;
    EXPECT_EQ(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY, load(blob, module, text));
    EXPECT_EQ(nullptr, module);
    return text;
  }
  // Re-seals a blob edited on purpose, so that only the edit is wrong (FNV-1a 64 of all but the last 8 bytes).
  static void reseal(std::vector<uint8_t> &blob) {
    uint64_t hash = 0xcbf29ce484222325ull;
    for (size_t i = 0; i + 8 < blob.size(); ++i) hash = (hash ^ blob[i]) * 0x100000001b3ull;
    std::memcpy(blob.data() + blob.size() - 8, &hash, 8);
  }
  static size_t find(const std::vector<uint8_t> &blob, std::string_view text) {
    auto at = std::search(blob.begin(), blob.end(), text.begin(), text.end());
    EXPECT_NE(blob.end(), at) << text;
    return size_t(at - blob.begin());
  }
};

TEST_F(NativeBinaries, ARoundTripKeepsKernelsAndLinksLikeSpirv) {
  std::vector<uint8_t> lib_blob = native_of(library("link_library.spv"));
  std::vector<uint8_t> user_blob = native_of(plain("link_user.spv"));
  EXPECT_EQ(0, std::memcmp(lib_blob.data(), "ZEALCPU", 8));
  ze_module_handle_t lib = nullptr, user = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, load(lib_blob, lib, log)) << log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, load(user_blob, user, log)) << log;
  uint32_t count = 0;
  ZE_ASSERT_OK(zeModuleGetKernelNames(user, &count, nullptr));
  EXPECT_EQ(1u, count);
  ze_module_properties_t props{};
  props.stype = ZE_STRUCTURE_TYPE_MODULE_PROPERTIES;
  ZE_ASSERT_OK(zeModuleGetProperties(user, &props));
  EXPECT_EQ(ZE_MODULE_PROPERTY_FLAG_IMPORTS, props.flags);
  ASSERT_EQ(ZE_RESULT_SUCCESS, link({user, lib}, &log)) << log;
  std::vector<int> want(16);
  for (int i = 0; i < 16; ++i) want[i] = 3 * i + 1 + 1000;
  EXPECT_EQ(want, run(kernel(user, "use_helper"), 16));
  // A native module's blob is the blob it came from.
  EXPECT_EQ(lib_blob, native_of(lib));
}

TEST_F(NativeBinaries, KernelPropertiesSurviveTheRoundTrip) {
  ze_module_handle_t spirv = plain("vector_add.spv");
  ze_module_handle_t native = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, load(native_of(spirv), native, log)) << log;
  for (const char *name : {"vector_add", "fill_value"}) {
    ze_kernel_properties_t a{};
    a.stype = ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES;
    ze_kernel_properties_t b = a;
    ZE_ASSERT_OK(zeKernelGetProperties(kernel(spirv, name), &a));
    ZE_ASSERT_OK(zeKernelGetProperties(kernel(native, name), &b));
    EXPECT_EQ(a.numKernelArgs, b.numKernelArgs) << name;
    EXPECT_EQ(a.privateMemSize, b.privateMemSize) << name;
    EXPECT_EQ(a.maxSubgroupSize, b.maxSubgroupSize) << name;
  }
}

// A blob names the options its code was compiled with as Intel's compiler does in its binaries; a clean build
// with the GPU compiler's flags logs nothing.
TEST_F(NativeBinaries, ABinarySaysTheOptionsItsCodeWasCompiledWith) {
  for (const auto &[flags, record] : {std::pair("-ze-opt-level=1 -ze-opt-large-register-file", "-ze-opt-level=O1"),
                                      std::pair("-ze-opt-disable -g", "-ze-opt-level=O0"),
                                      std::pair("-library-compilation", "-ze-opt-level=O2 -library-compilation"),
                                      std::pair("-zeal-barriers=fibers", "-ze-opt-level=O2 -zeal-barriers=fibers")}) {
    ze_module_handle_t spirv = nullptr;
    std::string log;
    ASSERT_EQ(ZE_RESULT_SUCCESS, build(read_kernel("vector_add.spv"), spirv, &log, flags)) << log;
    EXPECT_EQ("", log) << flags;
    std::vector<uint8_t> blob = native_of(spirv);
    find(blob, record);
    ze_module_handle_t native = nullptr;
    ASSERT_EQ(ZE_RESULT_SUCCESS, load(blob, native, log)) << log;
    find(native_of(native), record);
  }
}

// A blob carries each kernel's refusal: the module loaded from it refuses the same kernels, says so in its log,
// and runs the others.
TEST_F(NativeBinaries, ARoundTripRefusesTheSameKernels) {
  ze_module_handle_t native = nullptr;
  std::string log;
  ASSERT_EQ(ZE_RESULT_SUCCESS, load(native_of(plain("refused_kernels.spv")), native, log)) << log;
  for (const char *name : {"sample_image", "prefetch_twice_removed"}) {
    EXPECT_NE(std::string::npos, log.find(std::string("info: kernel refused: kernel '") + name + "' calls ")) << log;
    ze_kernel_desc_t desc{ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
    ze_kernel_handle_t k = nullptr;
    EXPECT_EQ(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE, zeKernelCreate(native, &desc, &k)) << name;
    EXPECT_EQ(nullptr, k);
  }
  int factor = 3;
  std::vector<int> want(16);
  for (int i = 0; i < 16; ++i) want[i] = 3 * i;
  EXPECT_EQ(want, run(kernel(native, "scale_buffer"), 16, {{sizeof(factor), &factor}}));
}

TEST_F(NativeBinaries, ABlobTruncatedAtEveryEighthIsRefused) {
  std::vector<uint8_t> blob = native_of(plain("vector_add.spv"));
  for (size_t eighth = 0; eighth < 8; ++eighth) {
    // 0/8 keeps 4 bytes: the validation layer itself refuses an inputSize of 0.
    size_t keep = std::max<size_t>(4, blob.size() * eighth / 8);
    std::vector<uint8_t> cut(blob.begin(), blob.begin() + keep);
    std::string log = refused(cut);
    if (cut.size() < 32) {
      EXPECT_EQ("the native binary is " + std::to_string(cut.size()) +
                    " bytes long, shorter than the 32-byte header and checksum of a zeal CPU native binary",
                log);
    } else {
      EXPECT_EQ("the native binary is truncated: its header says " + std::to_string(blob.size()) + " bytes, but " +
                    std::to_string(cut.size()) + " were given",
                log);
    }
  }
}

TEST_F(NativeBinaries, AFlippedByteIsRefusedWhereverItIs) {
  std::vector<uint8_t> blob = native_of(plain("vector_add.spv"));
  auto flipped = [&](size_t at) {
    std::vector<uint8_t> copy = blob;
    copy[at] ^= 0x5a;
    return refused(copy);
  };
  EXPECT_EQ("the binary is not a zeal CPU native binary: it does not start with the magic 'ZEALCPU'", flipped(0));
  uint32_t format = 0;
  std::memcpy(&format, blob.data() + 8, sizeof format);
  EXPECT_EQ(10u, format);
  EXPECT_EQ("the native binary has format version " + std::to_string(format ^ 0x5a) + "; this driver reads version " +
                std::to_string(format),
            flipped(8));
  for (size_t eighth = 1; eighth < 8; ++eighth) {
    size_t at = std::max<size_t>(24, blob.size() * eighth / 8);
    EXPECT_EQ(0u, flipped(at).rfind("the native binary is corrupted: its checksum is ", 0)) << "byte " << at;
  }
  EXPECT_EQ(0u, flipped(blob.size() - 1).rfind("the native binary is corrupted", 0));
}

TEST_F(NativeBinaries, ABlobOfAnotherDriverVersionIsRefusedNamingBoth) {
  std::vector<uint8_t> blob = native_of(plain("vector_add.spv"));
  size_t at = find(blob, "zeal-cpu ") + 9;
  blob[at] = '9';
  reseal(blob);
  std::string log = refused(blob);
  EXPECT_EQ(0u, log.rfind("the native binary was built by zeal-cpu 9", 0)) << log;
  EXPECT_NE(std::string::npos, log.find(", not by this driver (zeal-cpu ")) << log;
  EXPECT_NE(std::string::npos, log.find("build the module from SPIR-V again")) << log;
}

TEST_F(NativeBinaries, ABlobForAnotherCpuIsRefused) {
  std::vector<uint8_t> blob = native_of(plain("vector_add.spv"));
  size_t at = find(blob, "x86_64");
  blob[at + 5] = '5'; // x86_65
  reseal(blob);
  EXPECT_EQ(0u, refused(blob).rfind("the native binary was built for another CPU (x86_65", 0));
}

TEST_F(NativeBinaries, ASealedBlobWithABrokenObjectIsRefused) {
  std::vector<uint8_t> blob = native_of(plain("vector_add.spv"));
  size_t at = find(blob, "\x7f" "ELF");
  blob[at + 1] = 'X';
  reseal(blob);
  EXPECT_EQ(0u, refused(blob).rfind("the module's object code is not a valid object file: ", 0));
}

TEST_F(NativeBinaries, ASealedBlobWhoseFieldsOverrunIsRefused) {
  std::vector<uint8_t> blob = native_of(plain("vector_add.spv"));
  uint32_t huge = 0xfffffff0u;
  std::memcpy(blob.data() + 24, &huge, 4); // the driver id's length
  reseal(blob);
  EXPECT_EQ("the native binary is malformed: its fields do not fit its size", refused(blob));
}

} // namespace
} // namespace zeal::cpu::test
