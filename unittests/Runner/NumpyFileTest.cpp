//===- NumpyFileTest.cpp - amp-run's NumPy file reader and writer ---------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// .npy round trips for every element kind and rank, headers as NumPy writes
// them (version 1 and 2, '<' and '|' byte orders), and the errors for what
// amp-run cannot use.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/NumpyFile.h"

#include "llvm/Support/FileSystem.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace mlir::amp::runner;

namespace {

std::vector<uint8_t> npyBytes(const std::string &dict, const void *data,
                              size_t bytes, int version = 1) {
  std::vector<uint8_t> out = {0x93, 'N', 'U', 'M', 'P', 'Y',
                              static_cast<uint8_t>(version), 0};
  std::string header = dict + "\n";
  uint32_t length = static_cast<uint32_t>(header.size());
  for (int i = 0; i < (version == 1 ? 2 : 4); ++i)
    out.push_back(static_cast<uint8_t>(length >> (8 * i)));
  out.insert(out.end(), header.begin(), header.end());
  const uint8_t *p = static_cast<const uint8_t *>(data);
  out.insert(out.end(), p, p + bytes);
  return out;
}

std::string messageOf(llvm::Error err) {
  std::string text;
  llvm::handleAllErrors(std::move(err), [&](const llvm::ErrorInfoBase &info) {
    text = info.message();
  });
  return text;
}

TEST(NumpyFile, ParsesHeadersAsNumpyWritesThem) {
  float values[6] = {1, 2, 3, 4, 5, 6};
  for (int version : {1, 2}) {
    auto bytes = npyBytes(
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
        values, sizeof(values), version);
    llvm::Expected<NumpyArray> array = parseNpy(bytes, "x.npy");
    ASSERT_TRUE(!!array) << messageOf(array.takeError());
    EXPECT_EQ(array->dtype, "<f4");
    EXPECT_EQ(array->shape, (llvm::SmallVector<int64_t, 4>{2, 3}));
    EXPECT_EQ(array->data.size(), sizeof(values));
  }
  bool flags[3] = {true, false, true};
  auto bytes = npyBytes("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                        flags, 3);
  llvm::Expected<NumpyArray> array = parseNpy(bytes, "b.npy");
  ASSERT_TRUE(!!array);
  EXPECT_EQ(getNumpyElementKind(array->dtype), ElementKind::I1);
}

TEST(NumpyFile, RoundTripsEveryKindAndRank) {
  llvm::SmallString<128> dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("amp-npy", dir));
  for (ElementKind kind : {ElementKind::F64, ElementKind::F32, ElementKind::F16,
                           ElementKind::I64, ElementKind::I32, ElementKind::I8,
                           ElementKind::I1})
    for (const std::vector<int64_t> &shape :
         std::vector<std::vector<int64_t>>{{}, {5}, {2, 3}, {2, 1, 4}}) {
      HostTensor t(kind, shape);
      for (int64_t i = 0; i < t.getNumElements(); ++i)
        t.set(i, kind == ElementKind::I1 ? (i % 2) : (i - 3));
      std::string path = (dir + "/t.npy").str();
      ASSERT_FALSE(!!writeNpy(path, t));
      llvm::Expected<NumpyArray> array = readNpy(path);
      ASSERT_TRUE(!!array) << messageOf(array.takeError());
      EXPECT_EQ(array->name, "t");
      llvm::Expected<HostTensor> back = toHostTensor(*array, kind, shape, "x");
      ASSERT_TRUE(!!back) << messageOf(back.takeError());
      for (int64_t i = 0; i < t.getNumElements(); ++i)
        EXPECT_EQ(back->get(i), t.get(i));
    }
  llvm::sys::fs::remove_directories(dir);
}

TEST(NumpyFile, ErrorsSayWhatIsWrong) {
  float values[4] = {0, 0, 0, 0};
  auto fortran = npyBytes(
      "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", values, 16);
  EXPECT_NE(messageOf(parseNpy(fortran, "a.npy").takeError())
                .find("a.npy: Fortran-order arrays are not supported"),
            std::string::npos);
  auto bigEndian = npyBytes(
      "{'descr': '>f4', 'fortran_order': False, 'shape': (4,), }", values, 16);
  EXPECT_NE(messageOf(parseNpy(bigEndian, "b.npy").takeError())
                .find("arrays of dtype '>f4' are not supported"),
            std::string::npos);
  auto truncated = npyBytes(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (8,), }", values, 16);
  EXPECT_NE(messageOf(parseNpy(truncated, "c.npy").takeError())
                .find("c.npy: the data is truncated (16 bytes for 32)"),
            std::string::npos);
  std::vector<uint8_t> garbage = {'h', 'e', 'l', 'l', 'o', 0, 0, 0, 0, 0, 0};
  EXPECT_NE(messageOf(parseNpy(garbage, "d.npy").takeError())
                .find("d.npy: not a NumPy .npy array"),
            std::string::npos);

  auto ok = npyBytes(
      "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", values, 16);
  llvm::Expected<NumpyArray> array = parseNpy(ok, "e.npy");
  ASSERT_TRUE(!!array);
  array->name = "arr_0";
  int64_t shape4[] = {4}, shape22[] = {2, 2};
  EXPECT_EQ(messageOf(toHostTensor(*array, ElementKind::F64, shape4,
                                   "argument 0 (tensor<4xf64>)")
                          .takeError()),
            "argument 0 (tensor<4xf64>) is f64 (NumPy float64), but array "
            "'arr_0' is float32");
  EXPECT_EQ(messageOf(toHostTensor(*array, ElementKind::F32, shape22,
                                   "argument 0 (tensor<2x2xf32>)")
                          .takeError()),
            "argument 0 (tensor<2x2xf32>) has the shape 2x2, but array 'arr_0' "
            "has the shape 4");
  // float32 data for a 16-bit argument is rounded.
  EXPECT_TRUE(!!toHostTensor(*array, ElementKind::F16, shape4, "x"));
}

} // namespace
