// Memory files and IPC handle contents (shared_file.hpp).
#include "ze_driver/shared_file.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace zeal::ze {
namespace {

// "zeal" in the handle, so that bytes from elsewhere (another driver's handle, a zeroed one) are told apart.
constexpr uint32_t ipc_magic = 0x6c61657a;
constexpr uint32_t ipc_version = 1;

struct Wire {
  int32_t fd;
  uint32_t magic;
  uint32_t version;
  uint32_t kind;
  uint64_t offset;
  uint64_t size;
  uint32_t count;
  uint32_t flags;
};
static_assert(sizeof(Wire) <= ZE_MAX_IPC_HANDLE_SIZE, "an IPC handle holds at most ZE_MAX_IPC_HANDLE_SIZE bytes");

const char *kind_name(IpcContents::Kind kind) {
  return kind == IpcContents::Kind::memory ? "memory" : "event pool";
}

} // namespace

size_t system_page_size() {
  static const size_t page = [] {
    long size = sysconf(_SC_PAGESIZE);
    return size > 0 ? size_t(size) : size_t(4096);
  }();
  return page;
}

size_t whole_pages(size_t size) {
  const size_t page = system_page_size();
  return size <= SIZE_MAX - (page - 1) ? (size + page - 1) / page * page : size;
}

int create_memory_file(const char *name, size_t size, std::string &why) {
  int fd = memfd_create(name, MFD_CLOEXEC);
  if (fd < 0) {
    why = fmt::format("no memory file could be made for {}: {}", name, std::strerror(errno));
    return -1;
  }
  if (ftruncate(fd, off_t(size)) != 0) {
    why = fmt::format("the memory file for {} could not be made {} bytes long: {}", name, size, std::strerror(errno));
    close(fd);
    return -1;
  }
  return fd;
}

void *map_new_memory_file(const char *name, size_t size, int extra_flags, int &fd, std::string &why) {
  fd = create_memory_file(name, size, why);
  if (fd < 0) return nullptr;
  void *p = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED | extra_flags, fd, 0);
  if (p == MAP_FAILED) {
    why = fmt::format("the memory file for {} ({} bytes) could not be mapped: {}", name, size, std::strerror(errno));
    close(fd);
    fd = -1;
    return nullptr;
  }
  return p;
}

void encode_ipc(const IpcContents &contents, char (&data)[ZE_MAX_IPC_HANDLE_SIZE]) {
  Wire wire{contents.fd,     ipc_magic,     ipc_version,    uint32_t(contents.kind),
            contents.offset, contents.size, contents.count, contents.flags};
  std::memset(data, 0, sizeof data);
  std::memcpy(data, &wire, sizeof wire);
}

bool decode_ipc(const char (&data)[ZE_MAX_IPC_HANDLE_SIZE], IpcContents::Kind kind, IpcContents &out,
                std::string &why) {
  Wire wire;
  std::memcpy(&wire, data, sizeof wire);
  if (wire.magic != ipc_magic || wire.version != ipc_version) {
    why = fmt::format("the IPC {} handle was not made by this driver's zeGet*IpcHandle (or was damaged on the way)",
                      kind_name(kind));
    return false;
  }
  if (wire.kind != uint32_t(kind)) {
    why = fmt::format("the IPC handle names {}, not {}",
                      wire.kind == uint32_t(IpcContents::Kind::memory) ? "memory" : "an event pool",
                      kind == IpcContents::Kind::memory ? "memory" : "an event pool");
    return false;
  }
  out = IpcContents{wire.fd, kind, wire.offset, wire.size, wire.count, wire.flags};
  return true;
}

ze_result_t map_ipc_range(const IpcContents &contents, void **out, std::string &why) {
  struct stat st{};
  if (contents.fd < 0 || fstat(contents.fd, &st) != 0) {
    why = fmt::format("the IPC {} handle's file descriptor {} is not open in this process (pass it over a Unix "
                      "socket with SCM_RIGHTS and put the received number in the handle's first four bytes)",
                      kind_name(contents.kind), contents.fd);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  if (contents.size == 0 || contents.offset % system_page_size() != 0 ||
      uint64_t(st.st_size) < contents.offset || uint64_t(st.st_size) - contents.offset < contents.size) {
    why = fmt::format("the IPC {} handle names {} bytes at offset {} of a file of {} bytes (descriptor {}): not "
                      "the file it was made for",
                      kind_name(contents.kind), contents.size, contents.offset, st.st_size, contents.fd);
    return ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  void *p = mmap(nullptr, contents.size, PROT_READ | PROT_WRITE, MAP_SHARED, contents.fd, off_t(contents.offset));
  if (p == MAP_FAILED) {
    why = fmt::format("the IPC {} handle's {} bytes could not be mapped (descriptor {}): {}", kind_name(contents.kind),
                      contents.size, contents.fd, std::strerror(errno));
    return errno == ENOMEM ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY : ZE_RESULT_ERROR_INVALID_ARGUMENT;
  }
  *out = p;
  return ZE_RESULT_SUCCESS;
}

} // namespace zeal::ze
