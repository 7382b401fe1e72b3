// The CUDA driver's native binary: PTX with zeal's kernel facts as comments (module.hpp).
#include "cuda_driver/runtime/module.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <sstream>

namespace zeal::cuda {
namespace {

constexpr const char *header = "// zeal-cuda native binary 1\n";

char kind_letter(PtxArgKind kind) {
  switch (kind) {
  case PtxArgKind::GlobalPointer: return 'g';
  case PtxArgKind::LocalPointer: return 'l';
  case PtxArgKind::Image: return 'i';
  case PtxArgKind::Sampler: return 's';
  case PtxArgKind::Value: break;
  }
  return 'v';
}

std::string kernel_line(const PtxKernel &k) {
  std::string args;
  for (const PtxArg &a : k.args) args += fmt::format("{}{}{}", args.empty() ? "" : ",", kind_letter(a.kind), a.size);
  // A refusal's sentence ends the line (it has spaces; PTX comments end at the line's end).
  return fmt::format("// zeal.kernel {} args={} reqd={},{},{} sgreq={} hint={},{},{} sg={} local={}{}{}\n", k.name,
                     args.empty() ? "-" : args, k.required_group_size[0], k.required_group_size[1],
                     k.required_group_size[2], k.required_subgroup_size, k.group_size_hint[0], k.group_size_hint[1],
                     k.group_size_hint[2], k.subgroup_size, k.static_local_bytes, k.refusal.empty() ? "" : " refused=",
                     k.refusal);
}

bool parse_kernel_line(const std::string &line, PtxKernel &k) {
  std::istringstream in(line);
  std::string slashes, tag, args, reqd, sgreq, hint, sg, local;
  if (!(in >> slashes >> tag >> k.name >> args >> reqd >> sgreq >> hint >> sg >> local)) return false;
  if (std::sscanf(reqd.c_str(), "reqd=%u,%u,%u", &k.required_group_size[0], &k.required_group_size[1],
                  &k.required_group_size[2]) != 3 ||
      std::sscanf(sgreq.c_str(), "sgreq=%u", &k.required_subgroup_size) != 1 ||
      std::sscanf(hint.c_str(), "hint=%u,%u,%u", &k.group_size_hint[0], &k.group_size_hint[1],
                  &k.group_size_hint[2]) != 3 ||
      std::sscanf(sg.c_str(), "sg=%u", &k.subgroup_size) != 1 ||
      std::sscanf(local.c_str(), "local=%lu", &k.static_local_bytes) != 1 || args.rfind("args=", 0) != 0)
    return false;
  std::istringstream list(args.substr(5));
  for (std::string item; std::getline(list, item, ',');) {
    if (item == "-") break;
    PtxArg arg;
    switch (item[0]) {
    case 'g': arg.kind = PtxArgKind::GlobalPointer; break;
    case 'l': arg.kind = PtxArgKind::LocalPointer; break;
    case 'i': arg.kind = PtxArgKind::Image; break;
    case 's': arg.kind = PtxArgKind::Sampler; break;
    case 'v': arg.kind = PtxArgKind::Value; break;
    default: return false;
    }
    arg.size = uint32_t(std::strtoul(item.c_str() + 1, nullptr, 10));
    k.args.push_back(arg);
  }
  if (size_t at = line.find(" refused="); at != std::string::npos) k.refusal = line.substr(at + 9);
  return true;
}

// PTX's own kernels: `.entry name(` and each `.param .TYPE name` or `.param .align N .b8 name[BYTES]`.
void read_entries(const std::string &ptx, std::vector<KernelFacts> &kernels) {
  static const std::regex entry(R"(\.entry\s+([A-Za-z_$][\w$]*)\s*\(([^)]*)\))");
  static const std::regex param(R"(\.param\s+(?:\.align\s+\d+\s+)?\.([busf])(\d+)\s+[\w$]+(?:\[(\d+)\])?)");
  for (std::sregex_iterator it(ptx.begin(), ptx.end(), entry), end; it != end; ++it) {
    KernelFacts facts;
    facts.hidden_params = false;
    facts.kernel.name = (*it)[1];
    const std::string params = (*it)[2];
    for (std::sregex_iterator p(params.begin(), params.end(), param); p != end; ++p) {
      uint32_t bits = uint32_t(std::stoul((*p)[2]));
      uint32_t count = (*p)[3].matched ? uint32_t(std::stoul((*p)[3])) : 1;
      facts.kernel.args.push_back({PtxArgKind::Value, bits / 8 * count});
    }
    kernels.push_back(std::move(facts));
  }
}

} // namespace

std::string native_binary(const PtxProgram &program, const std::string &build_record) {
  std::string out = header;
  for (const PtxKernel &k : program.kernels) out += kernel_line(k);
  for (const auto &[host, exported] : program.aliases) out += fmt::format("// zeal.alias {} {}\n", host, exported);
  out += fmt::format("// zeal.build {}\n", build_record);
  return out + program.ptx;
}

std::vector<std::pair<std::string, std::string>> read_aliases(const std::string &ptx) {
  std::vector<std::pair<std::string, std::string>> aliases;
  if (ptx.rfind(header, 0) != 0) return aliases;
  std::istringstream lines(ptx);
  std::string line;
  std::getline(lines, line); // the header
  while (std::getline(lines, line) && line.rfind("// zeal.", 0) == 0) {
    std::istringstream words(line);
    std::string slashes, tag, host, exported;
    if (words >> slashes >> tag >> host >> exported && tag == "zeal.alias") aliases.emplace_back(host, exported);
  }
  return aliases;
}

bool read_native_binary(const std::string &ptx, std::vector<KernelFacts> &kernels, std::string &why) {
  if (ptx.find(".version") == std::string::npos || ptx.find(".target") == std::string::npos) {
    why = "the native binary is not PTX: it has no .version and .target directives";
    return false;
  }
  if (ptx.rfind(header, 0) != 0) {
    read_entries(ptx, kernels);
    return true;
  }
  std::istringstream lines(ptx);
  std::string line;
  std::getline(lines, line); // the header
  while (std::getline(lines, line) && line.rfind("// zeal.kernel ", 0) == 0) {
    KernelFacts facts;
    if (!parse_kernel_line(line, facts.kernel)) {
      why = fmt::format("the native binary's kernel line '{}' is corrupt", line);
      return false;
    }
    kernels.push_back(std::move(facts));
  }
  return true;
}

PtxSymbols ptx_symbols(const std::string &ptx) {
  // A declaration's return parameter, if any, comes between the directive and the name: `.func (.param ...) f(`.
  static const std::regex function(R"(\.(extern|visible)\s+\.func\s*(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)\s*\()");
  static const std::regex variable(
      R"(\.(extern|visible)\s+\.(?:global|const)\s+(?:\.align\s+\d+\s+)?(?:\.v\d\s+)?\.\w+\s+([A-Za-z_$][\w$]*))");
  PtxSymbols symbols;
  // Each directive is matched where it starts, over the few hundred characters a declaration's head takes (a
  // regex search over the whole text would cost a scan per position).
  for (const char *directive : {".extern", ".visible"})
    for (size_t at = ptx.find(directive); at != std::string::npos; at = ptx.find(directive, at + 1)) {
      const std::string head = ptx.substr(at, 512);
      std::smatch m;
      bool is_variable = false;
      if (std::regex_search(head, m, function, std::regex_constants::match_continuous) ||
          (is_variable = std::regex_search(head, m, variable, std::regex_constants::match_continuous)))
      {
        if (m[2] == "vprintf") {
          symbols.prints = true;
          continue;
        }
        if (m[2] == ptx_function_table) {
          symbols.calls_through_table = true;
          continue;
        }
        if (is_variable && m[1] == "visible" &&
            std::find(symbols.variables.begin(), symbols.variables.end(), m[2]) == symbols.variables.end())
          symbols.variables.push_back(m[2]);
        // A function whose address a global holds is declared before its definition: one name, once.
        std::vector<std::string> &names = m[1] == "extern" ? symbols.imports : symbols.exports;
        if (std::find(names.begin(), names.end(), m[2]) == names.end()) names.push_back(m[2]);
      }
    }
  return symbols;
}

} // namespace zeal::cuda
