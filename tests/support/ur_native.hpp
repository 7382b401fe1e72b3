// The native (Level Zero) handle behind a UR object, read once here instead of a urXGetNativeHandle call and a
// reinterpret_cast at every place a test needs it.
#pragma once

#include <unified-runtime/ur_api.h>

#include <gtest/gtest.h>

#include <type_traits>

namespace zeal::test {

// What a native-handle getter answered, and the handle as the type the caller knows it to be.
template <class T>
struct Native {
  ur_result_t result = UR_RESULT_SUCCESS;
  T handle{};
};

template <class T>
T from_native(ur_native_handle_t native) {
  return reinterpret_cast<T>(native);
}

// `getter` is the object's ur...GetNativeHandle and `args` what it takes before the handle it fills (the object,
// and for some a device or properties), e.g. native_of<ze_command_list_handle_t>(urQueueGetNativeHandle, q, nullptr).
// T = ur_native_handle_t keeps the handle as UR passes it, for a ...CreateWithNativeHandle.
template <class T = ur_native_handle_t, class Getter, class... Args>
Native<T> native_of(Getter getter, Args... args) {
  ur_native_handle_t native = 0;
  ur_result_t result = getter(args..., &native);
  if constexpr (std::is_same_v<T, ur_native_handle_t>) return {result, native};
  else return {result, from_native<T>(native)};
}

// The other way: an object the application made, as UR's ...CreateWithNativeHandle takes it.
template <class Handle>
ur_native_handle_t to_native(Handle h) {
  return reinterpret_cast<ur_native_handle_t>(h);
}

// For EXPECT_TRUE / ASSERT_TRUE: the getter succeeds and the object has a native handle (not 0).
template <class Getter, class... Args>
::testing::AssertionResult has_native_handle(Getter getter, Args... args) {
  Native<ur_native_handle_t> native = native_of(getter, args...);
  if (native.result != UR_RESULT_SUCCESS)
    return ::testing::AssertionFailure() << "the native handle getter failed with " << native.result;
  if (native.handle == 0) return ::testing::AssertionFailure() << "the native handle is 0";
  return ::testing::AssertionSuccess();
}

} // namespace zeal::test
