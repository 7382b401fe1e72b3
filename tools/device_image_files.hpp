// How zeal-pack and zeal-aot read device images from their command line: files, and folders of .spv files.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace zeal::tools {

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
