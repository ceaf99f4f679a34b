//===- Device.cpp - The emulated device -----------------------------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Emulator.h"
#include "Executor.h"

#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>

namespace amp {
namespace emu {

Options Options::fromEnvironment() {
  Options o;
  auto env = [](const char *name) -> std::string {
    const char *v = std::getenv(name);
    return v ? v : "";
  };
  std::string checks = env("AMP_EMULATOR_CHECKS");
  if (checks == "warn")
    o.checks = CheckMode::Warn;
  std::string races = env("AMP_EMULATOR_RACES");
  if (races == "0" || races == "off")
    o.races = false;
  std::string arch = env("AMP_EMULATOR_ARCH");
  if (arch.rfind("sm_", 0) == 0)
    o.smVersion = std::atoi(arch.c_str() + 3);
  o.trace = env("AMP_EMULATOR_TRACE") == "1";
  o.stats = env("AMP_EMULATOR_STATS") == "1";
  o.dumpDirectory = env("AMP_EMULATOR_DUMP");
  o.replaceDirectory = env("AMP_EMULATOR_REPLACE");
  std::string profile = env("AMP_EMULATOR_PROFILE");
  if (!profile.empty() && profile != "0") {
    o.profile = true;
    if (profile != "1")
      o.profilePath = profile;
  }
  return o;
}

Device::Device(const Options &options) : opts(options) {}

Device::~Device() { printStatistics(); }

void Device::printStatistics() const {
  if (opts.profile)
    profile.report(opts.profilePath);
  if (opts.stats && counters.launches) {
    double rate = counters.seconds > 0
                      ? static_cast<double>(counters.threadInstructions) /
                            counters.seconds
                      : 0;
    fprintf(stderr,
            "amp-emulator: %llu launches, %llu CTAs, %llu warp-instructions, "
            "%llu thread-instructions in %.3f s of CPU time (%.3g "
            "thread-instructions/s)\n",
            static_cast<unsigned long long>(counters.launches),
            static_cast<unsigned long long>(counters.ctas),
            static_cast<unsigned long long>(counters.warpInstructions),
            static_cast<unsigned long long>(counters.threadInstructions),
            counters.seconds, rate);
  }
}

std::shared_ptr<Module> Device::loadModule(const std::string &original,
                                           std::string &error) {
  unsigned index = modulesLoaded++;
  std::string ptx = original;
  if (!opts.replaceDirectory.empty()) {
    std::string path =
        opts.replaceDirectory + "/module-" + std::to_string(index) + ".ptx";
    std::ifstream in(path);
    if (in) {
      ptx.assign(std::istreambuf_iterator<char>(in),
                 std::istreambuf_iterator<char>());
      fprintf(stderr, "amp-emulator: module %u replaced by %s\n", index,
              path.c_str());
    }
  }
  if (!opts.dumpDirectory.empty()) {
    std::string path =
        opts.dumpDirectory + "/module-" + std::to_string(index) + ".ptx";
    std::ofstream out(path);
    out << ptx;
    if (opts.trace)
      fprintf(stderr, "amp-emulator: module %u written to %s\n", index,
              path.c_str());
  }
  std::unique_ptr<Module> parsed = parseModule(ptx, error);
  if (!parsed) {
    if (!opts.dumpDirectory.empty())
      error += " (in " + opts.dumpDirectory + "/module-" +
               std::to_string(index) + ".ptx)";
    return nullptr;
  }
  if (parsed->smVersion > opts.smVersion ||
      (parsed->archSpecific && parsed->smVersion != opts.smVersion)) {
    error = "the module targets " + parsed->target +
            ", the emulated device is sm_" + std::to_string(opts.smVersion);
    return nullptr;
  }
  for (Symbol &sym : parsed->symbols) {
    if (sym.space != Space::Global && sym.space != Space::Const)
      continue;
    sym.address = mem.allocate(sym.size);
    if (!sym.address) {
      error = "out of device memory for " + sym.name;
      return nullptr;
    }
    uint8_t *bytes = mem.translate(sym.address, sym.size, nullptr);
    if (!sym.init.empty())
      std::memcpy(bytes, sym.init.data(), sym.init.size());
    else
      std::memset(bytes, 0, sym.size);
  }
  return std::shared_ptr<Module>(std::move(parsed));
}

/// CPU time of the calling thread, in seconds (kernels run on it; unlike
/// wall time, this does not grow when other processes share the machine).
static double threadSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

LaunchResult Device::launch(const Module &module, const Kernel &kernel,
                            const LaunchConfig &config, void **params) {
  double start = threadSeconds();
  uint64_t before = counters.threadInstructions;
  Launch launch(*this, module, kernel, config);
  KernelCounts counts;
  if (opts.profile)
    launch.profile = &counts;
  LaunchResult result = launch.run(params);
  if (opts.profile) {
    counts.launches = 1;
    counts.ctas = config.grid.count();
    counts.threads = config.grid.count() * config.block.count();
    counts.threadInstructions = counters.threadInstructions - before;
    profile.recordLaunch(kernel.name, counts);
  }
  ++counters.launches;
  double seconds = threadSeconds() - start;
  counters.seconds += seconds;
  if (opts.trace)
    fprintf(stderr,
            "amp-emulator: %s grid (%u,%u,%u) block (%u,%u,%u) smem %u: "
            "%llu thread-instructions, %.3f s%s\n",
            kernel.name.c_str(), config.grid.x, config.grid.y, config.grid.z,
            config.block.x, config.block.y, config.block.z,
            config.dynamicSharedBytes,
            static_cast<unsigned long long>(counters.threadInstructions -
                                            before),
            seconds, result.ok() ? "" : " (failed)");
  return result;
}

} // namespace emu
} // namespace amp
