// The shape of zeal's result type, whatever codes it carries: BasicError<Code> and Result<T, E>.
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <source_location>
#include <string>
#include <utility>
#include <variant>

namespace zeal {

// A failure in the codes of the side that reports it: zeal's (ZEAL_RESULT_*)
// everywhere but inside the CPU driver, which is a Level Zero driver and speaks
// ze_result_t (cpu_driver/compiler/errors.hpp). `Unknown` is the code of an
// error nobody set.
template <class Code, Code Unknown>
struct BasicError {
  Code code = Unknown;
  std::string message;             // a sentence naming the object and what was wrong
  std::source_location where;      // where the error was made
  int64_t native_code = 0;         // the driver's own code (ze_result_t), when it came from one
  std::string log;                 // a build or link log, when there is one

  // "CODE_NAME: message (at file:line)" for logs.
  std::string describe() const;
};

// A value, or the error `E`.
template <class T, class E>
class [[nodiscard]] Result {
public:
  Result(T result) : state_(std::in_place_index<0>, std::move(result)) {}
  Result(E error) : state_(std::in_place_index<1>, std::move(error)) {}

  bool ok() const noexcept { return state_.index() == 0; }
  explicit operator bool() const noexcept { return ok(); }

  T &value() & { assert(ok()); return std::get<0>(state_); }
  const T &value() const & { assert(ok()); return std::get<0>(state_); }
  T &&value() && { assert(ok()); return std::get<0>(std::move(state_)); }
  T *operator->() { return &value(); }
  const T *operator->() const { return &value(); }
  T &operator*() & { return value(); }
  const T &operator*() const & { return value(); }

  const E &error() const & { assert(!ok()); return std::get<1>(state_); }
  E &&error() && { assert(!ok()); return std::get<1>(std::move(state_)); }

private:
  std::variant<T, E> state_;
};

// Success costs one null pointer; only a failure allocates.
template <class E>
class [[nodiscard]] Result<void, E> {
public:
  Result() = default;
  Result(E error) : error_(std::make_unique<E>(std::move(error))) {}

  bool ok() const noexcept { return error_ == nullptr; }
  explicit operator bool() const noexcept { return ok(); }
  const E &error() const & { assert(!ok()); return *error_; }
  E &&error() && { assert(!ok()); return std::move(*error_); }

private:
  std::unique_ptr<E> error_;
};

} // namespace zeal
