// Many threads driving one device at once, every result checked (issue 22): each thread launches kernels of one
// shared program with arguments of its own, on its own queue and on queues shared by all threads, with USM copies
// in and out chained by events (or queue order) and waits. The same work goes through one of three faces:
//   stress c   [LAUNCHES] [THREADS]   zeal's C ABI (the adapter's dispatch table)
//   stress cpp [LAUNCHES] [THREADS]   the C++ API
//   stress ur  [LAUNCHES] [THREADS]   Unified Runtime, through the UR loader (built when the UR SDK is)
// LAUNCHES is the total over all threads (default 100000), THREADS defaults to 8. Exits 0 when every result was
// right, 1 naming the first wrong one or failed call, 2 on bad arguments.
#include "tests/stress/stress.hpp"
#include "tests/support/launch_1d.hpp"

#include <zeal/zeal.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace zeal::stress {

Failures &failures() {
  static Failures f;
  return f;
}

void Failures::add(const std::string &what) {
  std::lock_guard lock(mutex_);
  if (count_++ == 0) first_ = what;
}

std::vector<uint8_t> read_spirv(const char *name) {
  std::ifstream in(std::string(ZEAL_STRESS_KERNEL_DIR) + "/" + name, std::ios::binary);
  if (!in) return {};
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool check_round(const int *out, const Round &r, const char *face) {
  for (size_t i = 0; i < elements; ++i) {
    const int expected = input_value(r.thread, i) * r.a + r.b;
    if (out[i] != expected) {
      failures().add(std::string(face) + ": thread " + std::to_string(r.thread) + " round " +
                     std::to_string(r.round) + ": out[" + std::to_string(i) + "] = " + std::to_string(out[i]) +
                     ", expected " + std::to_string(expected));
      return false;
    }
  }
  return true;
}

namespace {

// The C ABI: one program and one kernel object shared by every thread (arguments travel with each launch), a
// queue per thread plus two shared out-of-order queues; copy in -> launch -> copy out chained by events.
void run_c(unsigned threads, unsigned rounds) {
  const zeal::device dev;
  const zeal_adapter_dispatch_t &d = dev.dispatch();
  auto ok = [&](zeal_result_t r, const char *call) {
    if (r == ZEAL_RESULT_SUCCESS) return true;
    failures().add(std::string("c: ") + call + ": " + d.getLastErrorMessage());
    return false;
  };
  zeal_device_handle_t device = dev.native_handle();
  zeal_context_handle_t context = nullptr;
  if (!ok(d.contextCreate(1, &device, &context), "contextCreate")) return;
  const std::vector<uint8_t> spirv = read_spirv("stress_kernels.spv");
  zeal_program_desc_t desc{ZEAL_PROGRAM_FORMAT_SPIRV, spirv.data(), spirv.size(), 0, nullptr};
  zeal_program_handle_t program = nullptr;
  zeal_kernel_handle_t kernel = nullptr;
  zeal_queue_handle_t shared[2] = {};
  if (ok(d.programCreate(context, device, &desc, &program), "programCreate") &&
      ok(d.programBuild(program, nullptr), "programBuild") &&
      ok(d.kernelCreate(program, "affine", &kernel), "kernelCreate") &&
      ok(d.queueCreate(context, device, ZEAL_QUEUE_FLAG_OUT_OF_ORDER, &shared[0]), "queueCreate") &&
      ok(d.queueCreate(context, device, ZEAL_QUEUE_FLAG_OUT_OF_ORDER, &shared[1]), "queueCreate")) {
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        zeal_queue_handle_t own = nullptr;
        if (!ok(d.queueCreate(context, device, t % 2 ? ZEAL_QUEUE_FLAG_OUT_OF_ORDER : ZEAL_QUEUE_FLAG_IN_ORDER, &own),
                "queueCreate"))
          return;
        void *in = nullptr, *out = nullptr, *back = nullptr;
        std::vector<int> host_in(elements);
        for (size_t i = 0; i < elements; ++i) host_in[i] = input_value(t, i);
        const size_t bytes = elements * sizeof(int);
        if (ok(d.usmAlloc(context, device, ZEAL_USM_KIND_DEVICE, bytes, 0, &in), "usmAlloc") &&
            ok(d.usmAlloc(context, device, ZEAL_USM_KIND_DEVICE, bytes, 0, &out), "usmAlloc") &&
            ok(d.usmAlloc(context, nullptr, ZEAL_USM_KIND_HOST, bytes, 0, &back), "usmAlloc")) {
          for (unsigned round = 0; round < rounds && failures().none(); ++round) {
            const Round r = make_round(t, round);
            zeal_queue_handle_t q = r.on_shared ? shared[round % 2] : own;
            const zeal_kernel_arg_t args[] = {{0, ZEAL_KERNEL_ARG_USM_POINTER, 0, in},
                                              {1, ZEAL_KERNEL_ARG_USM_POINTER, 0, out},
                                              {2, ZEAL_KERNEL_ARG_VALUE, sizeof(int), &r.a},
                                              {3, ZEAL_KERNEL_ARG_VALUE, sizeof(int), &r.b}};
            const zeal_launch_desc_t launch = zeal_test::launch_1d(elements, round % 3 == 0 ? 0 : 64, 4, args);
            zeal_event_handle_t copied = nullptr, ran = nullptr, returned = nullptr;
            // The input is copied on the first round only: later launches read what the first copy left.
            const bool copy_in = round == 0 || r.recopy;
            if (copy_in && !ok(d.enqueueMemcpy(q, in, host_in.data(), bytes, 0, nullptr, &copied), "enqueueMemcpy"))
              break;
            if (!ok(d.enqueueKernelLaunch(q, kernel, &launch, copied ? 1 : 0, copied ? &copied : nullptr, &ran),
                    "enqueueKernelLaunch"))
              break;
            if (!ok(d.enqueueMemcpy(q, back, out, bytes, 1, &ran, &returned), "enqueueMemcpy")) break;
            if (!ok(d.eventWait(1, &returned), "eventWait")) break;
            check_round(static_cast<int *>(back), r, "c");
            for (zeal_event_handle_t e : {copied, ran, returned})
              if (e != nullptr) d.eventRelease(e);
            launches().fetch_add(1, std::memory_order_relaxed);
          }
        }
        for (void *p : {in, out, back})
          if (p != nullptr) d.usmFree(context, p);
        d.queueFinish(own);
        d.queueRelease(own);
      });
    for (std::thread &w : workers) w.join();
  }
  for (zeal_queue_handle_t q : shared)
    if (q != nullptr) {
      d.queueFinish(q);
      d.queueRelease(q);
    }
  if (kernel != nullptr) d.kernelRelease(kernel);
  if (program != nullptr) d.programRelease(program);
  d.contextRelease(context);
}

// The C++ API: the registered image's kernel, in-order queues (own and two shared), copies ordered by the queue.
void run_cpp(unsigned threads, unsigned rounds) {
  try {
    zeal::device dev;
    zeal::context ctx(dev);
    zeal::queue shared[2] = {zeal::queue(ctx, dev, true), zeal::queue(ctx, dev, true)};
    const zeal::kernel_id id = zeal::get_kernel_id("affine");
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads; ++t)
      workers.emplace_back([&, t] {
        try {
          zeal::queue own(ctx, dev, true);
          zeal::kernel k = own.get_kernel(id);
          int *in = zeal::malloc_device<int>(elements, own), *out = zeal::malloc_device<int>(elements, own);
          int *back = zeal::malloc_host<int>(elements, own);
          std::vector<int> host_in(elements);
          for (size_t i = 0; i < elements; ++i) host_in[i] = input_value(t, i);
          for (unsigned round = 0; round < rounds && failures().none(); ++round) {
            const Round r = make_round(t, round);
            zeal::queue &q = r.on_shared ? shared[round % 2] : own;
            if (round == 0 || r.recopy) q.memcpy(in, host_in.data(), elements * sizeof(int));
            if (round % 3 == 0) q.parallel_for(zeal::range<1>{elements}, k, in, out, r.a, r.b);
            else q.parallel_for(zeal::nd_range<1>{{elements}, {64}}, k, in, out, r.a, r.b);
            q.memcpy(back, out, elements * sizeof(int)).wait();
            check_round(back, r, "cpp");
            launches().fetch_add(1, std::memory_order_relaxed);
          }
          zeal::free(in, own);
          zeal::free(out, own);
          zeal::free(back, own);
        } catch (const zeal::exception &e) {
          failures().add(std::string("cpp: ") + e.what());
        }
      });
    for (std::thread &w : workers) w.join();
  } catch (const zeal::exception &e) {
    failures().add(std::string("cpp: ") + e.what());
  }
}

} // namespace
} // namespace zeal::stress

int main(int argc, char **argv) {
  using namespace zeal::stress;
  const std::string face = argc > 1 ? argv[1] : "";
  const long total = argc > 2 ? std::atol(argv[2]) : 100000;
  const long threads = argc > 3 ? std::atol(argv[3]) : 8;
  if ((face != "c" && face != "cpp" && face != "ur") || total <= 0 || threads <= 0 || threads > 256) {
    std::fprintf(stderr, "usage: stress c|cpp|ur [LAUNCHES (default 100000)] [THREADS (default 8)]\n");
    return 2;
  }
  // Rounds are spread so that threads * rounds >= total.
  const auto rounds = unsigned((total + threads - 1) / threads);
  const auto start = std::chrono::steady_clock::now();
  if (face == "c") run_c(unsigned(threads), rounds);
  else if (face == "cpp") run_cpp(unsigned(threads), rounds);
  else if (!run_ur(unsigned(threads), rounds)) {
    std::fprintf(stderr, "stress: this build has no UR face (the UR SDK was not found)\n");
    return 2;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!failures().none()) {
    std::fprintf(stderr, "stress %s: %zu failure(s); first: %s\n", face.c_str(), failures().count(),
                 failures().first().c_str());
    return 1;
  }
  const unsigned long done = launches().load();
  if (done != static_cast<unsigned long>(threads) * rounds) {
    std::fprintf(stderr, "stress %s: %lu launches of %lu ran\n", face.c_str(), done, static_cast<unsigned long>(threads) * rounds);
    return 1;
  }
  std::printf("stress %s: %lu launches by %ld threads, every result right, %.2f s (%.1f us per launch)\n",
              face.c_str(), done, threads, seconds, seconds * 1e6 / double(done));
  return 0;
}
