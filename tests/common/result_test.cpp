// The result type: values, errors with code, message and place.
#include "common/result.hpp"

#include <gtest/gtest.h>

namespace {

zeal::Result<int> half(int x) {
  if (x % 2 != 0) return zeal::make_error(ZEAL_RESULT_ERROR_INVALID_ARGUMENT, "7 is odd");
  return x / 2;
}

TEST(Result, GivenSuccess_ThenTheValueIsThere) {
  auto r = half(8);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value(), 4);
}

TEST(Result, GivenFailure_ThenCodeMessageAndPlaceAreKept) {
  auto r = half(7);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, ZEAL_RESULT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(r.error().message, "7 is odd");
  EXPECT_NE(std::string(r.error().where.file_name()).find("result_test.cpp"), std::string::npos);
  EXPECT_NE(r.error().describe().find("ZEAL_RESULT_ERROR_INVALID_ARGUMENT: 7 is odd"), std::string::npos);
}

TEST(Result, GivenStatus_ThenSuccessIsEmptyAndFailureCarriesTheError) {
  zeal::Status ok;
  EXPECT_TRUE(ok.ok());
  zeal::Status bad = zeal::make_error(ZEAL_RESULT_ERROR_BUILD_FAILURE, "no");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, ZEAL_RESULT_ERROR_BUILD_FAILURE);
}

} // namespace
