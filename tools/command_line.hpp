// How zeal-pack and zeal-aot read their command line: options or usage, device image files and folders of them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace zeal::tools {

// Fills `opts` with the tool's own `parse`; when it refuses, prints the tool's `usage` to stderr. The tools then
// exit with status 2 (tests/tools' zeal_pack.usage and zeal_aot.usage check both).
template <class Options>
bool parse_or_print_usage(int argc, char **argv, bool (*parse)(int, char **, Options &), Options &opts,
                          const char *usage) {
  if (parse(argc, argv, opts)) return true;
  std::fputs(usage, stderr);
  return false;
}

// A folder stands for the .spv files in it, in name order.
inline std::vector<std::filesystem::path> spv_files_in(const std::filesystem::path &folder) {
  std::vector<std::filesystem::path> found;
  for (const auto &f : std::filesystem::directory_iterator(folder))
    if (f.path().extension() == ".spv") found.push_back(f.path());
  std::sort(found.begin(), found.end());
  return found;
}

// The bytes of the image at `path`; false, with "<tool>: cannot read device image '<path>'" on stderr, when it
// cannot be opened.
inline bool read_device_image(const char *tool, const std::filesystem::path &path, std::vector<uint8_t> &bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "%s: cannot read device image '%s'\n", tool, path.c_str());
    return false;
  }
  bytes.assign(std::istreambuf_iterator<char>(in), {});
  return true;
}

} // namespace zeal::tools
