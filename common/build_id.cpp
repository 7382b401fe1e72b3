// The GNU build-id of a loaded object (build_id.hpp), read from its PT_NOTE segments in memory.
#include "common/build_id.hpp"

#include <elf.h>
#include <link.h>

#include <cstdint>
#include <cstring>

namespace zeal {

std::string build_id_of(const void *address) {
  struct Search {
    uintptr_t address;
    std::string id;
  } search{reinterpret_cast<uintptr_t>(address), {}};
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) -> int {
        auto &s = *static_cast<Search *>(data);
        bool holds = false;
        for (int i = 0; i < info->dlpi_phnum && !holds; ++i) {
          const ElfW(Phdr) &segment = info->dlpi_phdr[i];
          uintptr_t start = info->dlpi_addr + segment.p_vaddr;
          holds = segment.p_type == PT_LOAD && s.address >= start && s.address < start + segment.p_memsz;
        }
        if (!holds) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &segment = info->dlpi_phdr[i];
          if (segment.p_type != PT_NOTE) continue;
          auto *at = reinterpret_cast<const uint8_t *>(info->dlpi_addr + segment.p_vaddr);
          const uint8_t *end = at + segment.p_memsz;
          while (at + sizeof(ElfW(Nhdr)) <= end) {
            ElfW(Nhdr) note;
            std::memcpy(&note, at, sizeof note);
            const uint8_t *name = at + sizeof note;
            const uint8_t *desc = name + ((note.n_namesz + 3) & ~3u);
            const uint8_t *next = desc + ((note.n_descsz + 3) & ~3u);
            if (next > end) break;
            if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
              static constexpr char hex[] = "0123456789abcdef";
              for (uint32_t k = 0; k < note.n_descsz; ++k) {
                s.id += hex[desc[k] >> 4];
                s.id += hex[desc[k] & 15];
              }
              return 1;
            }
            at = next;
          }
        }
        return 1; // the object holding the address has no build-id
      },
      &search);
  return search.id;
}

} // namespace zeal
