//===- AmpSanitizerCompat.h - amp with ASan on an uninstrumented MLIR -----===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Force-included (-include) into every amp translation unit of an
// AddressSanitizer build (AMP_USE_SANITIZER=Address...).
//
// llvm::BumpPtrAllocator poisons the slabs it allocates and unpoisons each
// allocation when LLVM is built with ASan. Its code is inline: amp's
// instrumented copies poison slabs that the allocators of libMLIR.so (not
// instrumented, so never unpoisoning) then hand out, e.g. the storage uniquer
// of an MLIRContext, and the next instrumented access to such memory is
// reported as a use-after-poison that is not one. Making the poisoning calls
// no-ops in amp's code keeps all of ASan's other checks (heap, stack, globals,
// use-after-free of operations) and agrees with libMLIR, which never poisons.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_CMAKE_AMPSANITIZERCOMPAT_H
#define AMP_CMAKE_AMPSANITIZERCOMPAT_H

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AMP_SANITIZER_COMPAT_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define AMP_SANITIZER_COMPAT_ASAN 1
#endif

#ifdef AMP_SANITIZER_COMPAT_ASAN
// Declare the real functions first (the header has include guards), then
// shadow them for every later use, e.g. in llvm/Support/Allocator.h.
#include <sanitizer/asan_interface.h>
#define __asan_poison_memory_region(addr, size) ((void)(addr), (void)(size))
#define __asan_unpoison_memory_region(addr, size) ((void)(addr), (void)(size))
#endif

#endif // AMP_CMAKE_AMPSANITIZERCOMPAT_H
