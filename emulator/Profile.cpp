//===- Profile.cpp - Per-kernel counts and a roofline bound ---------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Profile.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <fstream>

namespace amp {
namespace emu {

void KernelCounts::add(const KernelCounts &o) {
  launches += o.launches;
  ctas += o.ctas;
  threads += o.threads;
  sectorBytesRead += o.sectorBytesRead;
  sectorBytesWritten += o.sectorBytesWritten;
  requestedRead += o.requestedRead;
  requestedWritten += o.requestedWritten;
  for (int i = 0; i < static_cast<int>(MmaKind::Count); ++i)
    mmaMacs[i] += o.mmaMacs[i];
  simtFlops += o.simtFlops;
  threadInstructions += o.threadInstructions;
}

uint64_t KernelCounts::totalMacs() const {
  uint64_t sum = 0;
  for (uint64_t m : mmaMacs)
    sum += m;
  return sum;
}

// The machines. Dense (not sparse) Tensor Core rates, as multiply-adds
// (half the TFLOP/s NVIDIA quotes); FP32 is the non-tensor rate. Sources:
// NVIDIA H100 Tensor Core GPU datasheet (H100 SXM: 3.35 TB/s HBM3; FP16/BF16
// 989.4, TF32 494.7, FP8 and INT8 1,978.9 dense TFLOP/s or TOP/s; FP32 66.9
// TFLOP/s) and NVIDIA H200 datasheet (H200 SXM: 4.8 TB/s HBM3e, the same
// compute rates). The launch cost is a model, not a datasheet number: about
// 2 us between dependent kernels replayed from a CUDA graph (see
// docs/emulator.md; a host launch in an ordinary call costs more).
const std::vector<MachineModel> &machineModels() {
  static const std::vector<MachineModel> machines = {
      {"H100 SXM",
       3.35e12,
       {494.7e12, 494.7e12, 247.35e12, 989.45e12, 989.45e12},
       66.9e12,
       2e-6},
      {"H200",
       4.8e12,
       {494.7e12, 494.7e12, 247.35e12, 989.45e12, 989.45e12},
       66.9e12,
       2e-6},
  };
  return machines;
}

namespace {
struct Terms {
  double memory, tensor, simt;
};
} // namespace

static Terms terms(const KernelCounts &c, const MachineModel &m) {
  Terms t;
  t.memory = static_cast<double>(c.sectorBytesRead + c.sectorBytesWritten) /
             m.dramBytesPerSecond;
  t.tensor = 0;
  for (int i = 0; i < static_cast<int>(MmaKind::Count); ++i)
    t.tensor += static_cast<double>(c.mmaMacs[i]) / m.macsPerSecond[i];
  t.simt = static_cast<double>(c.simtFlops) / m.simtFlopsPerSecond;
  return t;
}

double kernelBoundSeconds(const KernelCounts &c, const MachineModel &m) {
  Terms t = terms(c, m);
  return std::max({t.memory, t.tensor, t.simt});
}

const char *boundBy(const KernelCounts &c, const MachineModel &m) {
  Terms t = terms(c, m);
  if (t.tensor >= t.memory && t.tensor >= t.simt && t.tensor > 0)
    return "tensor";
  if (t.simt > t.memory)
    return "simt";
  return "memory";
}

uint64_t SectorSet::mark(uint64_t address, uint32_t size) {
  if (!size)
    return 0;
  uint64_t added = 0;
  for (uint64_t s = address / 32, e = (address + size - 1) / 32; s <= e; ++s)
    if (sectors.insert(s).second)
      added += 32;
  return added;
}

void Profiler::countCall(const char *name) {
  if (!active)
    return;
  std::lock_guard<std::mutex> lock(callsMutex);
  ++calls[name];
}

void Profiler::start() {
  if (!ranged) {
    // The first range: what came before (setup, warmup) does not count.
    launches.clear();
    calls.clear();
    copies = copyBytes = deviceCopies = deviceCopyBytes = fills = fillBytes = 0;
    ranged = true;
  }
  active = true;
  ++ranges;
}

void Profiler::stop() {
  if (!ranged || !active)
    return;
  active = false;
}

void Profiler::recordCopy(uint64_t bytes, bool deviceToDevice) {
  if (!active)
    return;
  if (deviceToDevice) {
    ++deviceCopies;
    deviceCopyBytes += bytes;
  } else {
    ++copies;
    copyBytes += bytes;
  }
}

void Profiler::recordFill(uint64_t bytes) {
  if (!active)
    return;
  ++fills;
  fillBytes += bytes;
}

/// JSON string contents (kernel names are identifiers; be safe anyway).
static std::string jsonEscape(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20)
      continue;
    out += c;
  }
  return out;
}

static void writeCounts(std::ofstream &out, const KernelCounts &c) {
  static const char *kinds[] = {"f16", "bf16", "tf32", "f8", "int8"};
  out << "\"launches\": " << c.launches << ", \"ctas\": " << c.ctas
      << ", \"threads\": " << c.threads
      << ", \"bytes_read\": " << c.sectorBytesRead
      << ", \"bytes_written\": " << c.sectorBytesWritten
      << ", \"requested_read\": " << c.requestedRead
      << ", \"requested_written\": " << c.requestedWritten
      << ", \"tensor_macs\": {";
  for (int i = 0; i < static_cast<int>(MmaKind::Count); ++i)
    out << (i ? ", " : "") << "\"" << kinds[i] << "\": " << c.mmaMacs[i];
  out << "}, \"simt_flops\": " << c.simtFlops
      << ", \"thread_instructions\": " << c.threadInstructions;
}

void Profiler::report(const std::string &jsonPath) const {
  // Kernels in order of first launch, summed.
  std::vector<std::string> order;
  std::map<std::string, KernelCounts> byKernel;
  KernelCounts total;
  for (const Launch &l : launches) {
    auto [it, inserted] = byKernel.try_emplace(l.kernel);
    if (inserted)
      order.push_back(l.kernel);
    it->second.add(l.counts);
    total.add(l.counts);
  }
  const std::vector<MachineModel> &machines = machineModels();
  auto boundWithLaunches = [&](const MachineModel &m) {
    double sum = 0;
    for (const Launch &l : launches)
      sum += kernelBoundSeconds(l.counts, m) + m.launchSeconds;
    return sum;
  };

  size_t width = 6;
  for (const std::string &k : order)
    width = std::max(width, k.size());
  width = std::min<size_t>(width, 60);
  fprintf(stderr,
          "amp-emulator: profile: %zu launches of %zu kernels; bound = "
          "max(DRAM sectors / bandwidth, Tensor Core MACs / rate, SIMT "
          "flops / FP32 rate) per launch\n",
          launches.size(), order.size());
  fprintf(stderr, "%-*s %8s %10s %10s %10s %10s %9s %9s %s\n",
          static_cast<int>(width), "kernel", "launches", "read MB",
          "written MB", "TC GMAC", "SIMT GFLOP", "H100 us", "H200 us",
          "bound by (H100)");
  auto row = [&](const std::string &name, const KernelCounts &c, double h100,
                 double h200, const char *by) {
    fprintf(stderr, "%-*.*s %8llu %10.3f %10.3f %10.4f %10.4f %9.2f %9.2f %s\n",
            static_cast<int>(width), static_cast<int>(width), name.c_str(),
            static_cast<unsigned long long>(c.launches),
            static_cast<double>(c.sectorBytesRead) / 1e6,
            static_cast<double>(c.sectorBytesWritten) / 1e6,
            static_cast<double>(c.totalMacs()) / 1e9,
            static_cast<double>(c.simtFlops) / 1e9, h100 * 1e6, h200 * 1e6, by);
  };
  std::map<std::string, std::pair<double, double>> kernelBounds;
  for (const Launch &l : launches) {
    auto &b = kernelBounds[l.kernel];
    b.first += kernelBoundSeconds(l.counts, machines[0]);
    b.second += kernelBoundSeconds(l.counts, machines[1]);
  }
  for (const std::string &k : order)
    row(k, byKernel[k], kernelBounds[k].first, kernelBounds[k].second,
        boundBy(byKernel[k], machines[0]));
  row("total, with launches", total, boundWithLaunches(machines[0]),
      boundWithLaunches(machines[1]), "");
  uint64_t totalCalls = 0;
  for (const auto &[name, count] : calls)
    totalCalls += count;
  if (ranged)
    fprintf(stderr,
            "amp-emulator: profile: the profiled range (%u call%s of "
            "cuProfilerStart..Stop): %llu driver calls (host work), %llu "
            "of them launches\n",
            ranges, ranges == 1 ? "" : "s",
            static_cast<unsigned long long>(totalCalls),
            static_cast<unsigned long long>(total.launches));
  if (copies || deviceCopies || fills)
    fprintf(stderr,
            "amp-emulator: profile: also %llu host<->device copies (%.3f MB), "
            "%llu device copies (%.3f MB), %llu fills (%.3f MB), not in the "
            "bound\n",
            static_cast<unsigned long long>(copies),
            static_cast<double>(copyBytes) / 1e6,
            static_cast<unsigned long long>(deviceCopies),
            static_cast<double>(deviceCopyBytes) / 1e6,
            static_cast<unsigned long long>(fills),
            static_cast<double>(fillBytes) / 1e6);

  if (jsonPath.empty())
    return;
  std::ofstream out(jsonPath);
  if (!out) {
    fprintf(stderr, "amp-emulator: error: cannot write the profile to %s\n",
            jsonPath.c_str());
    return;
  }
  out.precision(6);
  out << "{\n  \"machines\": [";
  for (size_t i = 0; i < machines.size(); ++i) {
    const MachineModel &m = machines[i];
    out << (i ? ", " : "") << "{\"name\": \"" << m.name
        << "\", \"dram_bytes_per_s\": " << m.dramBytesPerSecond
        << ", \"f16_macs_per_s\": " << m.macsPerSecond[0]
        << ", \"fp32_flops_per_s\": " << m.simtFlopsPerSecond
        << ", \"launch_s\": " << m.launchSeconds << "}";
  }
  out << "],\n  \"kernels\": [\n";
  for (size_t i = 0; i < order.size(); ++i) {
    const KernelCounts &c = byKernel[order[i]];
    out << "    {\"name\": \"" << jsonEscape(order[i]) << "\", ";
    writeCounts(out, c);
    out << ", \"bound_us\": {";
    for (size_t j = 0; j < machines.size(); ++j)
      out << (j ? ", " : "") << "\"" << machines[j].name << "\": "
          << (j ? kernelBounds[order[i]].second
                : kernelBounds[order[i]].first) *
                 1e6;
    out << "}, \"bound_by\": \"" << boundBy(c, machines[0]) << "\"}"
        << (i + 1 < order.size() ? ",\n" : "\n");
  }
  out << "  ],\n  \"launch_order\": [";
  for (size_t i = 0; i < launches.size(); ++i)
    out << (i ? ", " : "") << "\"" << jsonEscape(launches[i].kernel) << "\"";
  out << "],\n  \"total\": {";
  writeCounts(out, total);
  out << ", \"bound_us\": {";
  for (size_t j = 0; j < machines.size(); ++j)
    out << (j ? ", " : "") << "\"" << machines[j].name
        << "\": " << boundWithLaunches(machines[j]) * 1e6;
  out << "}, \"copies\": " << copies << ", \"copy_bytes\": " << copyBytes
      << ", \"device_copies\": " << deviceCopies
      << ", \"device_copy_bytes\": " << deviceCopyBytes
      << ", \"fills\": " << fills << ", \"fill_bytes\": " << fillBytes
      << "},\n  \"ranged\": " << (ranged ? "true" : "false")
      << ", \"ranges\": " << ranges << ",\n  \"driver_calls\": {";
  bool first = true;
  for (const auto &[name, count] : calls) {
    out << (first ? "" : ", ") << "\"" << name << "\": " << count;
    first = false;
  }
  out << "}\n}\n";
}

} // namespace emu
} // namespace amp
