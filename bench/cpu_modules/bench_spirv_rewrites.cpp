// What rewriting real compilers' SPIR-V costs (legalize_for_translator, and within it the block reordering of
// block_order.hpp), against the whole build of the same module (compile_spirv: what zeModuleCreate does), on
// every module of ../shared/spirv-corpus. Medians in µs per module; the build's median in ms.
#include "cpu_driver/compiler/compiler.hpp"
#include "spirv_frontend/block_order.hpp"
#include "spirv_frontend/legalize.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <vector>

namespace {

double now_us() {
  using namespace std::chrono;
  return duration<double, std::micro>(steady_clock::now().time_since_epoch()).count();
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

template <typename Work> double median_us(int rounds, Work &&work) {
  std::vector<double> times;
  for (int r = 0; r < rounds; ++r) {
    double t0 = now_us();
    work();
    times.push_back(now_us() - t0);
  }
  return median(times);
}

struct Row {
  std::string name;
  size_t bytes = 0;
  double legalize_us = 0, order_us = 0, build_ms = 0;
  size_t reordered = 0;
  bool rewritten = false, built = false;
};

} // namespace

int main(int argc, char **argv) {
  namespace fs = std::filesystem;
  const fs::path corpus = argc > 1 ? fs::path(argv[1]) : fs::path(ZEAL_SPIRV_CORPUS);
  if (!fs::is_directory(corpus)) {
    fmt::print(stderr, "no corpus at {} (give the folder of .spv modules as the argument)\n", corpus.string());
    return 1;
  }
  std::vector<fs::path> files;
  for (const auto &entry : fs::directory_iterator(corpus))
    if (entry.path().extension() == ".spv") files.push_back(entry.path());
  std::sort(files.begin(), files.end());

  std::vector<Row> rows;
  for (const fs::path &file : files) {
    std::ifstream in(file, std::ios::binary);
    std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (bytes.size() % 4 != 0) continue;
    Row row{file.filename().string(), bytes.size()};
    std::vector<uint32_t> words(bytes.size() / 4);
    std::memcpy(words.data(), bytes.data(), bytes.size());
    std::vector<uint32_t> copy;
    row.order_us = median_us(31, [&] {
      copy = words; // not timed apart: a copy of the words is what legalize_for_translator hands it too
      row.reordered = zeal::frontend::order_blocks_by_dominance(copy);
    });
    row.order_us -= median_us(31, [&] { copy = words; });
    row.legalize_us = median_us(31, [&] { row.rewritten = !zeal::frontend::legalize_for_translator(bytes).spirv.empty(); });
    std::vector<double> builds;
    for (int r = 0; r < 3; ++r) {
      double t0 = now_us();
      auto program = zeal::cpu::compile_spirv(bytes, {});
      builds.push_back((now_us() - t0) / 1000);
      row.built = program.ok();
    }
    row.build_ms = median(builds);
    rows.push_back(std::move(row));
  }

  fmt::print("SPIR-V rewrites on {} corpus modules: legalize_for_translator and block ordering (µs, median of 31),\n"
             "compile_spirv (ms, median of 3; modules that fail to build fail fast and are left out of the ratios).\n\n",
             rows.size());
  std::vector<double> order_share, legalize_share, order_all, legalize_all;
  for (const Row &row : rows) {
    order_all.push_back(row.order_us);
    legalize_all.push_back(row.legalize_us);
    if (!row.built) continue;
    order_share.push_back(row.order_us / (row.build_ms * 1000));
    legalize_share.push_back(row.legalize_us / (row.build_ms * 1000));
  }
  auto slowest = [&](auto member) {
    return *std::max_element(rows.begin(), rows.end(), [&](const Row &a, const Row &b) { return a.*member < b.*member; });
  };
  fmt::print("block ordering: median {:.1f} µs a module, slowest {:.1f} µs ({}, {} KB); median share of the build {:.4f}\n",
             median(order_all), slowest(&Row::order_us).order_us, slowest(&Row::order_us).name,
             slowest(&Row::order_us).bytes / 1024, median(order_share));
  fmt::print("legalize (all): median {:.1f} µs a module, slowest {:.1f} µs ({}, {} KB); median share of the build {:.4f}\n",
             median(legalize_all), slowest(&Row::legalize_us).legalize_us, slowest(&Row::legalize_us).name,
             slowest(&Row::legalize_us).bytes / 1024, median(legalize_share));
  fmt::print("\nmodules whose blocks were reordered or which were rewritten:\n");
  for (const Row &row : rows) {
    if (row.reordered == 0 && !row.rewritten) continue;
    fmt::print("  {:<60.60} {:>6} KB  order {:>7.1f} µs ({} functions)  legalize {:>7.1f} µs  build {:>8.2f} ms{}\n",
               row.name, row.bytes / 1024, row.order_us, row.reordered, row.legalize_us, row.build_ms,
               row.built ? "" : " (refused)");
  }
  return 0;
}
