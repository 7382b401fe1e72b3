// Function pointers across libraries through the C++ API (test plan 2.3): the application's function
// called by a library's kernel, and a library's function called by the application's kernel.
#include "fp_lib.hpp"

#include <zeal/zeal.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

constexpr size_t n = 256;

class FunctionPointers : public ::testing::Test {
protected:
  void SetUp() override {
    data = zeal::malloc_shared<int>(n, q);
    for (size_t i = 0; i < n; ++i) data[i] = static_cast<int>(i);
  }
  void TearDown() override { zeal::free(data, q); }

  std::vector<int> expected(int (*f)(int)) const {
    std::vector<int> out;
    for (size_t i = 0; i < n; ++i) out.push_back(f(static_cast<int>(i)));
    return out;
  }
  std::vector<int> result() const { return {data, data + n}; }

  zeal::queue q;
  int *data = nullptr;
};

TEST_F(FunctionPointers, AnApplicationFunctionIsCalledByALibraryKernelThroughItsAddress) {
  zeal::device_function_ptr fn = zeal::get_device_function_pointer(q, "app_square_minus_one");
  ASSERT_NE(fn, 0u);
  fp_lib_apply(q, fn, data, n);
  EXPECT_EQ(result(), expected([](int x) { return x * x - 1; }));
}

TEST_F(FunctionPointers, ALibraryFunctionIsCalledByAnApplicationKernelThroughTheAddressItsHostApiReturns) {
  zeal::device_function_ptr fn = fp_lib_function(q);
  ASSERT_NE(fn, 0u);
  q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("app_call_through"), data, fn).wait();
  EXPECT_EQ(result(), expected([](int x) { return 3 * x + 7; }));
}

TEST_F(FunctionPointers, AKernelCallsAFunctionOfItsOwnImageAndOneOfTheOtherLibraryInTurn) {
  zeal::device_function_ptr own = zeal::get_device_function_pointer(q, "app_square_minus_one");
  zeal::device_function_ptr other = fp_lib_function(q);
  q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("app_call_through"), data, own).wait();
  q.parallel_for(zeal::range<1>{n}, zeal::get_kernel_id("app_call_through"), data, other).wait();
  EXPECT_EQ(result(), expected([](int x) { return 3 * (x * x - 1) + 7; }));
}

TEST_F(FunctionPointers, TheAddressIsTheSameOnEveryRequestInOneContext) {
  EXPECT_EQ(fp_lib_function(q), fp_lib_function(q));
  EXPECT_EQ(zeal::get_device_function_pointer(q, "app_square_minus_one"),
            zeal::get_device_function_pointer(q.get_context(), q.get_device(), "app_square_minus_one"));
}

TEST_F(FunctionPointers, AnAddressStaysValidInItsContextAfterTheQueueThatAskedForItIsGone) {
  zeal::context ctx(q.get_device());
  zeal::device_function_ptr fn = 0;
  {
    zeal::queue asked(ctx, q.get_device());
    fn = fp_lib_function(asked);
  }
  zeal::queue later(ctx, q.get_device());
  int *own = zeal::malloc_shared<int>(n, later);
  for (size_t i = 0; i < n; ++i) own[i] = static_cast<int>(i);
  fp_lib_apply(later, fn, own, n);
  EXPECT_EQ(std::vector<int>(own, own + n), expected([](int x) { return 3 * x + 7; }));
  zeal::free(own, later);
}

TEST_F(FunctionPointers, GivenAnUnknownName_ThenInvalidNamesTheFunctionAndTheLibrariesSearched) {
  try {
    (void)zeal::get_device_function_pointer(q, "no_such_device_function");
    FAIL() << "expected zeal::exception";
  } catch (const zeal::exception &e) {
    EXPECT_EQ(e.code(), zeal::errc::invalid);
    std::string message = e.what();
    EXPECT_NE(message.find("'no_such_device_function'"), std::string::npos) << message;
    EXPECT_NE(message.find("libraries searched"), std::string::npos) << message;
    EXPECT_NE(message.find("libzeal_test_fp_lib.so"), std::string::npos) << message;
  }
}

TEST_F(FunctionPointers, GivenAKernelName_ThenInvalidSaysItIsAKernel) {
  try {
    (void)zeal::get_device_function_pointer(q, "fp_lib_apply");
    FAIL() << "expected zeal::exception";
  } catch (const zeal::exception &e) {
    EXPECT_EQ(e.code(), zeal::errc::invalid);
    EXPECT_NE(std::string(e.what()).find("'fp_lib_apply' is a kernel"), std::string::npos) << e.what();
  }
}

} // namespace
