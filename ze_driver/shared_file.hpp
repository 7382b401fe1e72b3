// Memory that other processes can map: Linux memory files (memfd), and the IPC handles that name a range of one,
// as both zeal drivers make and open them.
#pragma once

#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace zeal::ze {

// The system's page size: the unit of every mapping.
size_t system_page_size();
// `size` rounded up to whole pages (unchanged if that would overflow).
size_t whole_pages(size_t size);

// A new memory file of `size` bytes (sparse: pages exist once touched), close-on-exec; -1 with the sentence.
int create_memory_file(const char *name, size_t size, std::string &why);
// A new memory file of `size` bytes mapped whole, readable and writable, shared (mmap flags `extra_flags` too);
// its descriptor in `fd`. Null, with the sentence, when either step fails (then nothing is left open).
void *map_new_memory_file(const char *name, size_t size, int extra_flags, int &fd, std::string &why);

// What a zeal driver's IPC handles (ze_ipc_mem_handle_t, ze_ipc_event_pool_handle_t) hold. The first int is the
// file descriptor of the memory file, as with Intel's driver: the application passes that descriptor to the
// other process (over a Unix socket, SCM_RIGHTS) and writes the number it got there into the handle's first
// bytes. The rest says which part of the file to map and what it is.
struct IpcContents {
  enum class Kind : uint32_t { memory = 1, event_pool = 2 };
  int32_t fd = -1;
  Kind kind = Kind::memory;
  uint64_t offset = 0; // page-aligned
  uint64_t size = 0;
  uint32_t count = 0;  // an event pool's events
  uint32_t flags = 0;  // an event pool's ze_event_pool_flags_t
};

void encode_ipc(const IpcContents &contents, char (&data)[ZE_MAX_IPC_HANDLE_SIZE]);
// False, with the sentence, for bytes that are not a handle of this driver of that kind.
bool decode_ipc(const char (&data)[ZE_MAX_IPC_HANDLE_SIZE], IpcContents::Kind kind, IpcContents &out,
                std::string &why);
// Maps the handle's range of its file, readable and writable, shared with every other mapping of it. Checks
// first that the descriptor is open here and names a memory file at least that long.
ze_result_t map_ipc_range(const IpcContents &contents, void **out, std::string &why);

} // namespace zeal::ze
