// ZEAL_TRACE for the UR face: each slot of the dispatch table wrapped, when tracing is on, by a stand-in that
// calls the face's own entry point and writes the call to the trace sink both faces share (core/trace.hpp).
// The generated fill (generate_ur_ddi.cmake) calls trace_slot for every slot; without ZEAL_TRACE nothing is
// wrapped, so calls pay nothing.
#pragma once

#include "adapter/core/trace.hpp"

#include <unified-runtime/ur_api.h>

#include <fmt/format.h>

#include <chrono>
#include <string>
#include <type_traits>

namespace zeal::adapter::ur {

// UR's name of a result ("UR_RESULT_ERROR_INVALID_VALUE"). (trace.cpp)
std::string ur_result_name(ur_result_t result);

// One argument as the trace shows it: handles and pointers as addresses, numbers and enumerations as numbers,
// structures passed by value by their type's size.
template <class T>
std::string trace_arg(const T &value) {
  if constexpr (std::is_pointer_v<T>) return fmt::format("{}", fmt::ptr(value));
  else if constexpr (std::is_enum_v<T>) return fmt::format("{}", static_cast<std::underlying_type_t<T>>(value));
  else if constexpr (std::is_arithmetic_v<T>) return fmt::format("{}", value);
  else return fmt::format("{{{} bytes}}", sizeof(T));
}

template <auto Slot>
struct TracedSlot;

// The stand-in for one slot: the face's entry point it replaced, and UR's name for it.
template <class Table, class... Args, ur_result_t (*Table::*Slot)(Args...)>
struct TracedSlot<Slot> {
  static inline ur_result_t (*entry)(Args...) = nullptr;
  static inline const char *name = nullptr;

  static ur_result_t call(Args... args) {
    const auto start = std::chrono::steady_clock::now();
    const ur_result_t result = entry(args...);
    const auto took = std::chrono::steady_clock::now() - start;
    try {
      std::string text;
      ((text += (text.empty() ? "" : ", ") + trace_arg(args)), ...);
      trace_call(name, text, ur_result_name(result), took);
    } catch (...) {
      // Tracing is diagnostics only; a failure to format never changes the result.
    }
    return result;
  }
};

template <auto Slot, class Table>
void trace_slot(Table &table, const char *name) {
  TracedSlot<Slot>::entry = table.*Slot;
  TracedSlot<Slot>::name = name;
  table.*Slot = &TracedSlot<Slot>::call;
}

} // namespace zeal::adapter::ur
