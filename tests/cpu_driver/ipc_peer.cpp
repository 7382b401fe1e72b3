// The other process of the IPC tests (ipc_test.cpp): it receives a device allocation and an event pool from the
// test over a Unix socket, as an application would, and works on them through its own Level Zero.
//
//   ipc_peer SOCKET_FD
// The test sends one message: its two IPC handles as data, their two file descriptors as SCM_RIGHTS. The peer
// checks the allocation holds the test's pattern, waits in a command list for event 1 (the test signals it from
// the host), fills the allocation with 0x5a and signals event 0 from the device. Exit status 0 means all of it
// worked; otherwise it says on stderr what did not.
#include "tests/cpu_driver/fd_passing.hpp"
#include "tests/support/ze_setup.hpp"

#include <level_zero/ze_api.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct Message {
  ze_ipc_mem_handle_t memory;
  ze_ipc_event_pool_handle_t pool;
  uint64_t size;
};

int fail(const char *what, ze_result_t r = ZE_RESULT_SUCCESS) {
  std::fprintf(stderr, "ipc_peer: %s (0x%x)\n", what, unsigned(r));
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) return fail("usage: ipc_peer SOCKET_FD");
  const int socket = std::atoi(argv[1]);
  Message message{};
  int fds[2] = {-1, -1};
  if (!zeal::test::receive_with_fds(socket, &message, sizeof message, fds)) return fail("no handles arrived on the socket");
  // The descriptors' numbers here go where the handles keep them: their first four bytes.
  std::memcpy(message.memory.data, &fds[0], sizeof(int));
  std::memcpy(message.pool.data, &fds[1], sizeof(int));

  if (ze_result_t r = zeInit(0); r != ZE_RESULT_SUCCESS) return fail("zeInit", r);
  ze_driver_handle_t driver = nullptr;
  ze_device_handle_t device = nullptr;
  ze_context_handle_t context = nullptr;
  if (zeal::test::ZeCall c = zeal::test::open_first_device(driver, device, context); c.result != ZE_RESULT_SUCCESS)
    return fail(c.name, c.result);

  void *memory = nullptr;
  if (ze_result_t r = zeMemOpenIpcHandle(context, device, message.memory, 0, &memory); r != ZE_RESULT_SUCCESS)
    return fail("zeMemOpenIpcHandle", r);
  ze_event_pool_handle_t pool = nullptr;
  if (ze_result_t r = zeEventPoolOpenIpcHandle(context, message.pool, &pool); r != ZE_RESULT_SUCCESS)
    return fail("zeEventPoolOpenIpcHandle", r);
  ze_event_handle_t done = nullptr, go = nullptr;
  if (zeal::test::create_host_event(pool, 0, done) != ZE_RESULT_SUCCESS ||
      zeal::test::create_host_event(pool, 1, go) != ZE_RESULT_SUCCESS)
    return fail("zeEventCreate in the opened pool");

  // Synchronous: each append returns when its command has run.
  ze_command_list_handle_t list = nullptr;
  if (ze_result_t r = zeal::test::create_immediate_list(context, device, list, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
      r != ZE_RESULT_SUCCESS)
    return fail("zeCommandListCreateImmediate", r);
  std::vector<uint8_t> seen(message.size);
  if (zeCommandListAppendMemoryCopy(list, seen.data(), memory, message.size, nullptr, 0, nullptr) != ZE_RESULT_SUCCESS)
    return fail("copying the opened allocation");
  for (size_t i = 0; i < seen.size(); ++i)
    if (seen[i] != uint8_t(i * 7 + 3)) return fail("the opened allocation does not hold the test's pattern");

  const uint8_t fill = 0x5a;
  if (zeCommandListAppendWaitOnEvents(list, 1, &go) != ZE_RESULT_SUCCESS ||
      zeCommandListAppendMemoryFill(list, memory, &fill, 1, message.size, nullptr, 0, nullptr) != ZE_RESULT_SUCCESS ||
      zeCommandListAppendSignalEvent(list, done) != ZE_RESULT_SUCCESS)
    return fail("appending the wait, fill and signal");
  // The test signals `go` from its host; it then waits for `done`.
  if (zeEventHostSynchronize(done, 30'000'000'000ull) != ZE_RESULT_SUCCESS) return fail("`done` never signalled");

  bool ok = zeCommandListDestroy(list) == ZE_RESULT_SUCCESS && zeEventDestroy(done) == ZE_RESULT_SUCCESS &&
            zeEventDestroy(go) == ZE_RESULT_SUCCESS && zeEventPoolCloseIpcHandle(pool) == ZE_RESULT_SUCCESS &&
            zeMemCloseIpcHandle(context, memory) == ZE_RESULT_SUCCESS && zeContextDestroy(context) == ZE_RESULT_SUCCESS;
  close(fds[0]);
  close(fds[1]);
  return ok ? 0 : fail("releasing what was opened");
}
