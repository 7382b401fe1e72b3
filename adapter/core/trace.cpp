// The trace sink: its own logger at trace level, so ZEAL_TRACE works whatever ZEAL_LOG_LEVEL says.
#include "adapter/core/trace.hpp"

#include <spdlog/logger.h>
#include <spdlog/sinks/stdout_sinks.h>

namespace zeal::adapter {

void trace_call(const char *name, const std::string &args, std::string_view result, std::chrono::nanoseconds took) {
  static const auto tracer = [] {
    auto l = std::make_shared<spdlog::logger>("zeal-trace", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    l->set_pattern("[%n] %v");
    l->set_level(spdlog::level::trace);
    return l;
  }();
  tracer->info("{}({}) -> {} in {:.1f} us", name, args, result,
               static_cast<double>(took.count()) / 1000.0);
}

} // namespace zeal::adapter
