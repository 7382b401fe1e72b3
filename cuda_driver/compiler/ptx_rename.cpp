// PTX text: the CUDA driver's runtime renames a module's symbols before it links it into the joint module.
#include "cuda_driver/compiler/ptx_compiler.hpp"

#include <cctype>

namespace zeal::cuda {
namespace {

// PTX identifiers: a letter, `_`, `$` or `%` (registers), then letters, digits, `_` and `$`.
bool starts_identifier(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%'; }
bool continues_identifier(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

} // namespace

std::string rename_ptx_symbols(const std::string &ptx, const std::map<std::string, std::string> &names) {
  std::string out;
  out.reserve(ptx.size() + ptx.size() / 16);
  size_t i = 0;
  const size_t n = ptx.size();
  auto copy_until = [&](size_t end) {
    out.append(ptx, i, end - i);
    i = end;
  };
  while (i < n) {
    const char c = ptx[i];
    if (c == '/' && i + 1 < n && ptx[i + 1] == '/') {
      size_t end = ptx.find('\n', i);
      copy_until(end == std::string::npos ? n : end);
    } else if (c == '/' && i + 1 < n && ptx[i + 1] == '*') {
      size_t end = ptx.find("*/", i + 2);
      copy_until(end == std::string::npos ? n : end + 2);
    } else if (c == '"') {
      size_t end = ptx.find('"', i + 1);
      copy_until(end == std::string::npos ? n : end + 1);
    } else if (c == '.' || std::isdigit(static_cast<unsigned char>(c))) {
      // A directive, a type, a vector member or a number: never a symbol.
      size_t end = i + 1;
      while (end < n && continues_identifier(ptx[end])) ++end;
      copy_until(end);
    } else if (starts_identifier(c)) {
      size_t end = i + 1;
      while (end < n && continues_identifier(ptx[end])) ++end;
      auto found = c == '%' ? names.end() : names.find(ptx.substr(i, end - i));
      if (found != names.end()) {
        out += found->second;
        i = end;
      } else {
        copy_until(end);
      }
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

} // namespace zeal::cuda
