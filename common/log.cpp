// Creates component loggers and reports settings problems once per logger.
#include "common/log.hpp"

#include "common/settings.hpp"

#include <spdlog/sinks/stdout_sinks.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>

namespace zeal {

spdlog::logger &logger(const char *component) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<spdlog::logger>> loggers;
  std::lock_guard lock(mutex);
  auto &slot = loggers[component];
  if (!slot) {
    static auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    slot = std::make_shared<spdlog::logger>(component, sink);
    slot->set_pattern("[%n] [%l] %v");
    slot->set_level(settings().log_level);
    static bool reported = false; // settings problems are told once per shared object
    if (!reported) {
      for (const std::string &problem : settings().problems) slot->warn("{}", problem);
      reported = true;
    }
  }
  return *slot;
}

} // namespace zeal
