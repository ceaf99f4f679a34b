//===- amp-emulate.cpp - Run a GPU program on the PTX emulator ------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
//   amp-emulate [options] PROGRAM [ARGS...]
//   amp-emulate --check-ptx [--list] FILE.ptx...
//
// Runs PROGRAM (anything built by amp-compile, or any program that loads
// the CUDA driver libcuda.so.1) with the emulator's stand-in driver: the
// kernels run on the CPU, with the emulator's checks. The driver is found
// next to this executable (../lib/emulator/ in a build tree,
// ../lib/amp-emulator/ when installed) and passed to the program through
// AMP_CUDA_DRIVER (what libamp_cuda_runtime.so loads) and LD_LIBRARY_PATH
// (for programs linked against libcuda.so.1 directly).
//
// --check-ptx parses PTX files (one or more modules each, as
// scripts/amp-extract-ptx.py prints them) and lists the instructions the
// emulator would not execute; --list adds how often each instruction form
// occurs.
//
//===----------------------------------------------------------------------===//

#include "Ptx.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <algorithm>
#include <map>
#include <string>
#include <unistd.h>

static const char *kUsage =
    "usage: amp-emulate [options] PROGRAM [ARGS...]\n"
    "       amp-emulate --check-ptx [--list] FILE.ptx...\n"
    "\n"
    "Runs PROGRAM with amp's PTX emulator as its CUDA driver (kernels run on\n"
    "the CPU; modules must be PTX: amp-compile --format isa).\n"
    "\n"
    "options:\n"
    "  --checks=error|warn  a failed check stops the kernel with an error\n"
    "                       (default), or is printed and execution goes on\n"
    "  --no-races           no shared-memory race detection (faster)\n"
    "  --arch=sm_80|sm_90   the emulated GPU (default sm_90: runs sm_80,\n"
    "                       sm_90 and sm_90a PTX)\n"
    "  --fill=nan|zero      contents of new allocations (default nan: 0xff\n"
    "                       bytes)\n"
    "  --dump-ptx=DIR       write every loaded module to DIR/module-N.ptx\n"
    "                       (the line numbers of error messages refer to it)\n"
    "  --replace-ptx=DIR    load DIR/module-N.ptx instead of the N-th module\n"
    "                       where that file exists (try an edited kernel)\n"
    "  --trace              one line per kernel launch\n"
    "  --stats              thread-instructions and time at exit\n"
    "  --profile[=FILE]     per kernel: DRAM bytes, Tensor Core multiply-adds,\n"
    "                       SIMT flops and a roofline lower bound of its time\n"
    "                       on an H100 SXM and an H200, as a table at exit\n"
    "                       (stderr) and as JSON in FILE; where the program\n"
    "                       marks cuProfilerStart..Stop ranges (amp-compile's\n"
    "                       harness marks its timed calls) only those count\n"
    "\n"
    "--check-ptx: parse PTX files and list the instructions the emulator\n"
    "does not implement (exit status 1 if there are any); --list also counts\n"
    "every instruction form.\n";

/// The opcode of an instruction's text (what precedes the operands).
static std::string opcodeOf(const std::string &text) {
  size_t start = 0;
  if (!text.empty() && text[0] == '@')
    start = text.find(' ') + 1;
  size_t end = text.find(' ', start);
  std::string op = text.substr(start, end == std::string::npos
                                          ? std::string::npos
                                          : end - start);
  if (!op.empty() && op.back() == ';')
    op.pop_back();
  return op;
}

static int checkPtx(int argc, char **argv, int first) {
  bool list = false;
  std::map<std::string, uint64_t> counts;
  uint64_t modules = 0, kernels = 0, instructions = 0, unsupported = 0;
  bool failed = false;
  for (int i = first; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--list")) {
      list = true;
      continue;
    }
    std::ifstream in(argv[i]);
    if (!in) {
      fprintf(stderr, "amp-emulate: error: cannot read %s\n", argv[i]);
      return 2;
    }
    std::string text((std::istreambuf_iterator<char>(in)),
                     std::istreambuf_iterator<char>());
    // One module per .version directive.
    std::vector<size_t> starts;
    for (size_t p = text.find(".version"); p != std::string::npos;
         p = text.find(".version", p + 1))
      if (p == 0 || text[p - 1] == '\n')
        starts.push_back(p);
    if (starts.empty()) {
      fprintf(stderr, "amp-emulate: error: %s holds no PTX module\n",
              argv[i]);
      failed = true;
      continue;
    }
    for (size_t m = 0; m < starts.size(); ++m) {
      size_t end = m + 1 < starts.size() ? starts[m + 1] : text.size();
      std::string module = text.substr(starts[m], end - starts[m]);
      size_t lineOffset = static_cast<size_t>(
          std::count(text.begin(), text.begin() + starts[m], '\n'));
      std::string error;
      auto parsed = amp::emu::parseModule(module, error);
      ++modules;
      if (!parsed) {
        fprintf(stderr, "%s: module %zu (from line %zu): %s\n", argv[i], m,
                lineOffset + 1, error.c_str());
        failed = true;
        continue;
      }
      for (const auto &k : parsed->kernels) {
        ++kernels;
        for (size_t j = 0; j < k->code.size(); ++j) {
          ++instructions;
          counts[opcodeOf(k->text[j])]++;
          if (k->code[j].op == amp::emu::Op::Unsupported) {
            ++unsupported;
            printf("%s:%zu: %s: not supported: %s\n", argv[i],
                   lineOffset + k->code[j].line, k->name.c_str(),
                   k->text[j].c_str());
          }
        }
      }
    }
  }
  if (list)
    for (const auto &c : counts)
      printf("%10llu  %s\n", static_cast<unsigned long long>(c.second),
             c.first.c_str());
  printf("%llu modules, %llu kernels, %llu instructions (%zu forms), %llu "
         "not supported\n",
         static_cast<unsigned long long>(modules),
         static_cast<unsigned long long>(kernels),
         static_cast<unsigned long long>(instructions), counts.size(),
         static_cast<unsigned long long>(unsupported));
  return failed || unsupported ? 1 : 0;
}

static std::string selfDirectory() {
  char path[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
  if (n <= 0)
    return ".";
  path[n] = 0;
  std::string p(path);
  return p.substr(0, p.rfind('/'));
}

int main(int argc, char **argv) {
  int i = 1;
  for (; i < argc && argv[i][0] == '-'; ++i) {
    std::string a = argv[i];
    auto value = [&](const char *prefix) -> const char * {
      size_t n = std::strlen(prefix);
      return a.compare(0, n, prefix) == 0 ? argv[i] + n : nullptr;
    };
    if (a == "-h" || a == "--help") {
      fputs(kUsage, stdout);
      return 0;
    }
    if (a == "--") {
      ++i;
      break;
    }
    if (a == "--check-ptx")
      return checkPtx(argc, argv, i + 1);
    if (const char *v = value("--checks=")) {
      if (std::strcmp(v, "error") && std::strcmp(v, "warn")) {
        fprintf(stderr, "amp-emulate: error: --checks must be error or warn\n");
        return 2;
      }
      setenv("AMP_EMULATOR_CHECKS", v, 1);
    } else if (a == "--no-races") {
      setenv("AMP_EMULATOR_RACES", "0", 1);
    } else if (const char *v = value("--arch=")) {
      if (std::strcmp(v, "sm_80") && std::strcmp(v, "sm_90")) {
        fprintf(stderr, "amp-emulate: error: --arch must be sm_80 or sm_90\n");
        return 2;
      }
      setenv("AMP_EMULATOR_ARCH", v, 1);
    } else if (const char *v = value("--fill=")) {
      if (std::strcmp(v, "nan") && std::strcmp(v, "zero")) {
        fprintf(stderr, "amp-emulate: error: --fill must be nan or zero\n");
        return 2;
      }
      setenv("AMP_EMULATOR_FILL", v, 1);
    } else if (const char *v = value("--dump-ptx=")) {
      setenv("AMP_EMULATOR_DUMP", v, 1);
    } else if (const char *v = value("--replace-ptx=")) {
      setenv("AMP_EMULATOR_REPLACE", v, 1);
    } else if (a == "--trace") {
      setenv("AMP_EMULATOR_TRACE", "1", 1);
    } else if (a == "--stats") {
      setenv("AMP_EMULATOR_STATS", "1", 1);
    } else if (a == "--profile") {
      setenv("AMP_EMULATOR_PROFILE", "1", 1);
    } else if (const char *v = value("--profile=")) {
      // Written when the program exits: say now if it cannot be.
      FILE *f = *v ? fopen(v, "w") : nullptr;
      if (!f) {
        fprintf(stderr, "amp-emulate: error: cannot write the profile to "
                        "'%s': %s\n",
                v, *v ? std::strerror(errno) : "empty file name");
        return 2;
      }
      fclose(f);
      char resolved[PATH_MAX];
      setenv("AMP_EMULATOR_PROFILE", realpath(v, resolved) ? resolved : v, 1);
    } else {
      fprintf(stderr, "amp-emulate: error: unknown option %s\n%s", argv[i],
              kUsage);
      return 2;
    }
  }
  if (i >= argc) {
    fprintf(stderr, "amp-emulate: error: no program to run\n%s", kUsage);
    return 2;
  }
  std::string self = selfDirectory();
  std::string driverDir;
  for (const char *sub : {"/../lib/emulator", "/../lib/amp-emulator"}) {
    std::string dir = self + sub;
    if (access((dir + "/libcuda.so.1").c_str(), R_OK) == 0) {
      driverDir = dir;
      break;
    }
  }
  if (driverDir.empty()) {
    fprintf(stderr,
            "amp-emulate: error: the emulator's libcuda.so.1 is not in %s/../"
            "lib/emulator or %s/../lib/amp-emulator\n",
            self.c_str(), self.c_str());
    return 2;
  }
  setenv("AMP_CUDA_DRIVER", (driverDir + "/libcuda.so.1").c_str(), 1);
  const char *old = getenv("LD_LIBRARY_PATH");
  std::string path = driverDir + (old && *old ? ":" + std::string(old) : "");
  setenv("LD_LIBRARY_PATH", path.c_str(), 1);
#ifdef AMP_EMULATOR_PRELOAD
  // A sanitizer build: the driver is instrumented, the program is not, and
  // the sanitizer runtime must be the first library the program loads.
  const char *preloaded = getenv("LD_PRELOAD");
  std::string preload = std::string(AMP_EMULATOR_PRELOAD) +
                        (preloaded && *preloaded ? ":" + std::string(preloaded)
                                                 : "");
  setenv("LD_PRELOAD", preload.c_str(), 1);
#endif
  execvp(argv[i], argv + i);
  fprintf(stderr, "amp-emulate: error: cannot run %s: %s\n", argv[i],
          std::strerror(errno));
  return 2;
}
