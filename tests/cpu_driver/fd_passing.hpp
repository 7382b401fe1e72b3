// Passing file descriptors between processes the way applications pass Level Zero IPC handles: one message on a
// Unix socket, the bytes as data and the descriptors as SCM_RIGHTS.
#pragma once

#include <sys/socket.h>

#include <cstddef>
#include <cstring>

namespace zeal::test {

// Sends `size` bytes and the N descriptors; true when all of it went.
template <size_t N>
bool send_with_fds(int socket, const void *data, size_t size, const int (&fds)[N]) {
  char control[CMSG_SPACE(sizeof fds)] = {};
  iovec bytes{const_cast<void *>(data), size};
  msghdr header{};
  header.msg_iov = &bytes;
  header.msg_iovlen = 1;
  header.msg_control = control;
  header.msg_controllen = sizeof control;
  cmsghdr *c = CMSG_FIRSTHDR(&header);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof fds);
  std::memcpy(CMSG_DATA(c), fds, sizeof fds);
  return sendmsg(socket, &header, 0) == ssize_t(size);
}

// Receives exactly `size` bytes and N descriptors (their numbers in this process); false otherwise.
template <size_t N>
bool receive_with_fds(int socket, void *data, size_t size, int (&fds)[N]) {
  char control[CMSG_SPACE(sizeof fds)] = {};
  iovec bytes{data, size};
  msghdr header{};
  header.msg_iov = &bytes;
  header.msg_iovlen = 1;
  header.msg_control = control;
  header.msg_controllen = sizeof control;
  if (recvmsg(socket, &header, MSG_WAITALL) != ssize_t(size)) return false;
  cmsghdr *c = CMSG_FIRSTHDR(&header);
  if (c == nullptr || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof fds)) return false;
  std::memcpy(fds, CMSG_DATA(c), sizeof fds);
  return true;
}

} // namespace zeal::test
