// zeal-pack: embeds SPIR-V or native device images and their metadata into a C++ source with a registrar.
#include "module_linker/module_info.hpp"
#include "tools/command_line.hpp"

#include <fmt/format.h>
#include <fmt/os.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

constexpr const char *kUsage =
    "usage: zeal-pack --output <file.cpp> --name <target> [--metadata KEY=VALUE]... [--native-dir <folder>]\n"
    "                 <image.spv|folder>...\n"
    "Writes a C++ source that holds the SPIR-V images, their metadata (kernels, exports,\n"
    "imports, requirements and what each kernel and function calls, read from the SPIR-V,\n"
    "plus every --metadata entry, e.g.\n"
    "function.f.sub_group_size=16 or kernel.k.range_type=int) and a registrar that registers\n"
    "them with libzeal when the executable or shared library it is linked into is loaded.\n"
    "A folder stands for the .spv files in it, in name order. With --native-dir, each image\n"
    "X.spv is embedded as the native binary <folder>/X.native (made by zeal-aot from X.spv)\n"
    "with the metadata read from X.spv: the runtime cannot read it from native code.\n";

struct Options {
  std::string output;
  std::string name;
  std::string native_dir;
  std::vector<std::string> images;
  std::vector<std::pair<std::string, std::string>> metadata;
};

struct PackedImage {
  bool native = false;
  std::string file_name;
  std::vector<uint8_t> bytes;
  std::vector<std::pair<std::string, std::string>> metadata;
};

bool parse_args(int argc, char **argv, Options &opts) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if ((arg == "--output" || arg == "-o") && i + 1 < argc) opts.output = argv[++i];
    else if (arg == "--name" && i + 1 < argc) opts.name = argv[++i];
    else if (arg == "--native-dir" && i + 1 < argc) opts.native_dir = argv[++i];
    else if (arg == "--metadata" && i + 1 < argc) {
      std::string entry = argv[++i];
      auto eq = entry.find('=');
      if (eq == std::string::npos || eq == 0) {
        std::fprintf(stderr, "zeal-pack: --metadata '%s' is not KEY=VALUE\n", entry.c_str());
        return false;
      }
      opts.metadata.emplace_back(entry.substr(0, eq), entry.substr(eq + 1));
    } else if (std::filesystem::is_directory(arg)) {
      for (const std::filesystem::path &spv : zeal::tools::spv_files_in(arg)) opts.images.push_back(spv.string());
    }
    else if (arg == "--help" || arg == "-h") return false;
    else if (arg.starts_with("-")) {
      std::fprintf(stderr, "zeal-pack: unknown option '%s'\n", arg.c_str());
      return false;
    } else opts.images.push_back(arg);
  }
  return !opts.output.empty() && !opts.images.empty();
}

std::string join(const std::vector<std::string> &names) {
  std::string out;
  for (const std::string &n : names) out += (out.empty() ? "" : ";") + n;
  return out;
}

// Reads one image and the metadata module_linker finds in it; nonzero exit on bad input.
bool pack_image(const std::string &path, const Options &opts, PackedImage &out) {
  if (!zeal::tools::read_device_image("zeal-pack", path, out.bytes)) return false;
  out.file_name = std::filesystem::path(path).filename().string();
  auto info = zeal::module_linker::inspect_spirv(std::span<const uint8_t>(out.bytes));
  if (!info) {
    std::fprintf(stderr, "zeal-pack: '%s' is not a valid SPIR-V module: %s\n", path.c_str(),
                 info.error().message.c_str());
    return false;
  }
  auto mentions = [](const std::vector<std::string> &names, const std::string &name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  std::vector<std::string> kernels;
  for (const auto &ep : info->entry_points) kernels.push_back(ep.name);
  out.metadata = {{"kernels", join(kernels)}, {"exports", join(info->exports)}, {"imports", join(info->imports)}};
  // Requirements read from the SPIR-V travel as metadata too, so that a native
  // binary made from this image (e.g. from the persistent cache) still carries them.
  for (const auto &ep : info->entry_points) {
    if (ep.required_sub_group_size)
      out.metadata.emplace_back(fmt::format("kernel.{}.reqd_sub_group_size", ep.name),
                                std::to_string(*ep.required_sub_group_size));
    const auto &wg = ep.required_work_group_size;
    if (wg[0] != 0)
      out.metadata.emplace_back(fmt::format("kernel.{}.reqd_work_group_size", ep.name),
                                fmt::format("{},{},{}", wg[0], wg[1], wg[2]));
  }
  // So does the call graph, which link checks follow from a kernel to the functions it reaches in
  // other images: the imports each kernel and exported function calls, directly or not.
  for (const auto &ep : info->entry_points)
    out.metadata.emplace_back(fmt::format("kernel.{}.calls", ep.name), join(ep.reached_imports));
  for (const auto &sym : info->exported_symbols)
    if (sym.kind == zeal::module_linker::SymbolKind::Function && !mentions(kernels, sym.name))
      out.metadata.emplace_back(fmt::format("function.{}.calls", sym.name), join(sym.reached_imports));
  // kernel.<k>.* goes to the image holding k, function.<f>.* to the images exporting or
  // importing f, anything else to every image.
  for (const auto &[key, value] : opts.metadata) {
    size_t first = key.find('.'), last = key.rfind('.');
    std::string kind = key.substr(0, first);
    std::string name = first != last ? key.substr(first + 1, last - first - 1) : "";
    bool relevant = kind == "kernel"     ? mentions(kernels, name)
                    : kind == "function" ? mentions(info->exports, name) || mentions(info->imports, name)
                                         : true;
    if (relevant) out.metadata.emplace_back(key, value);
  }
  // The metadata above came from the SPIR-V; the bytes embedded are its native binary.
  if (!opts.native_dir.empty()) {
    // "primary" means the running device's primary size, but a native binary's
    // sizes were fixed when it was compiled: a number says what it really is.
    for (const auto &[key, value] : out.metadata) {
      if (value == "primary" && key.ends_with("sub_group_size")) {
        std::fprintf(stderr, "zeal-pack: '%s=primary' cannot describe the native image of '%s': its sub-group "
                     "sizes were fixed when it was compiled; give the size as a number\n", key.c_str(), path.c_str());
        return false;
      }
    }
    auto native = std::filesystem::path(opts.native_dir) / std::filesystem::path(path).stem().concat(".native");
    if (!zeal::tools::read_device_image("zeal-pack", native, out.bytes)) return false;
    out.native = true;
    out.file_name = native.filename().string();
  }
  return true;
}

std::string c_string(const std::string &text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

void write_image(fmt::ostream &out, size_t index, const PackedImage &image) {
  out.print("alignas(4) const unsigned char image{}_bytes[] = {{", index);
  for (size_t i = 0; i < image.bytes.size(); ++i)
    out.print("{}{}", i % 16 == 0 ? "\n  " : "", fmt::format("0x{:02x},", image.bytes[i]));
  out.print("\n}};\n");
  out.print("const zeal_metadata_entry_t image{}_metadata[] = {{\n", index);
  for (const auto &[key, value] : image.metadata)
    out.print("  {{{}, {}, {}}},\n", c_string(key), c_string(value), value.size());
  out.print("}};\n\n");
}

} // namespace

int main(int argc, char **argv) {
  Options opts;
  if (!zeal::tools::parse_or_print_usage(argc, argv, parse_args, opts, kUsage)) return 2;
  std::vector<PackedImage> images(opts.images.size());
  for (size_t i = 0; i < images.size(); ++i)
    if (!pack_image(opts.images[i], opts, images[i])) return 1;

  std::string temp = opts.output + ".tmp";
  {
    auto out = fmt::output_file(temp);
    out.print("// Generated by zeal-pack: the device images of '{}' and their registrar.\n", opts.name);
    out.print("#include <zeal/zeal_device_image.h>\n\nnamespace {{\n\n");
    for (size_t i = 0; i < images.size(); ++i) write_image(out, i, images[i]);
    out.print("const zeal_device_image_t images[] = {{\n");
    for (size_t i = 0; i < images.size(); ++i)
      out.print("  {{{3}, image{0}_bytes, sizeof(image{0}_bytes), {1}, {2}, image{0}_metadata}},\n",
                i, c_string(images[i].file_name), images[i].metadata.size(),
                images[i].native ? "ZEAL_PROGRAM_FORMAT_NATIVE" : "ZEAL_PROGRAM_FORMAT_SPIRV");
    out.print("}};\n\n");
    out.print("const zeal_device_image_set_t image_set = {{ZEAL_DEVICE_IMAGE_VERSION, {}, {}, images}};\n\n",
              c_string(opts.name), images.size());
    out.print("struct Registrar {{\n"
              "  Registrar() {{ zealRegisterDeviceImages(&image_set); }}\n"
              "  ~Registrar() {{ zealUnregisterDeviceImages(&image_set); }}\n"
              "}} registrar;\n\n}} // namespace\n");
  }
  std::error_code ec;
  std::filesystem::rename(temp, opts.output, ec);
  if (ec) {
    std::fprintf(stderr, "zeal-pack: cannot write '%s': %s\n", opts.output.c_str(), ec.message().c_str());
    return 1;
  }
  return 0;
}
