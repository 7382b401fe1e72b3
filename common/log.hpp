// spdlog loggers of zeal's components, at the level ZEAL_LOG_LEVEL sets.
#pragma once

#include <spdlog/spdlog.h>

namespace zeal {

// The logger of one component ("zeal", "zeal-adapter", "zeal-cpu", ...). Loggers
// are not put in spdlog's registry: each shared object of zeal keeps its own.
spdlog::logger &logger(const char *component);

} // namespace zeal
