// FunctionRef: a non-owning reference to a callable, for calls on the launch path that must not allocate.
#pragma once

#include <type_traits>

namespace zeal::adapter {

// A non-owning reference to a callable, so submitting a command never allocates
// (std::function may, for captures over two pointers).
template <class Signature> class FunctionRef;
template <class R, class... Args>
class FunctionRef<R(Args...)> {
public:
  template <class F>
    requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef>)
  FunctionRef(F &&f) noexcept // NOLINT: implicit on purpose, like std::function_ref
      : object_(const_cast<void *>(static_cast<const void *>(&f))),
        call_([](void *o, Args... args) -> R { return (*static_cast<std::remove_reference_t<F> *>(o))(args...); }) {}
  R operator()(Args... args) const { return call_(object_, args...); }

private:
  void *object_;
  R (*call_)(void *, Args...);
};

} // namespace zeal::adapter
