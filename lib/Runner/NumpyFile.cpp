//===- NumpyFile.cpp - NumPy .npy and .npz files for amp-run --------------===//
//
// Part of the amp project, under the Apache License v2.0 with LLVM Exceptions.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The .npy format (NumPy's "format" module documentation): the magic
// "\x93NUMPY", a version (1.0: 2-byte header length; 2.0 and 3.0: 4 bytes),
// a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': ...}
// padded with spaces, then the data. An .npz file is a ZIP archive of .npy
// members (PKWARE APPNOTE: end of central directory, central directory
// entries, local headers; ZIP64 for large archives), stored or deflated.
//
//===----------------------------------------------------------------------===//

#include "amp/Runner/NumpyFile.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <zlib.h>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runner;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

//===----------------------------------------------------------------------===//
// dtypes
//===----------------------------------------------------------------------===//

namespace {
struct DtypeEntry {
  llvm::StringLiteral dtype;
  ElementKind kind;
  llvm::StringLiteral name;
};
} // namespace

static const DtypeEntry kDtypes[] = {
    {"<f8", ElementKind::F64, "float64"}, {"<f4", ElementKind::F32, "float32"},
    {"<f2", ElementKind::F16, "float16"}, {"<i8", ElementKind::I64, "int64"},
    {"<i4", ElementKind::I32, "int32"},   {"|i1", ElementKind::I8, "int8"},
    {"|b1", ElementKind::I1, "bool"},
};

/// Little-endian and byte-order-free spellings are the same ("<f4" and
/// "=f4" on a little-endian host; "|i1" and "<i1").
static std::string canonicalDtype(llvm::StringRef dtype) {
  if (dtype.size() < 2)
    return dtype.str();
  char order = dtype[0];
  std::string rest = dtype.drop_front().str();
  if (order == '=' || order == '<' || order == '|')
    return (rest == "i1" || rest == "b1" || rest == "u1" ? "|" : "<") + rest;
  return dtype.str();
}

std::optional<ElementKind>
mlir::amp::runner::getNumpyElementKind(llvm::StringRef dtype) {
  std::string canonical = canonicalDtype(dtype);
  for (const DtypeEntry &e : kDtypes)
    if (canonical == e.dtype)
      return e.kind;
  return std::nullopt;
}

llvm::StringRef mlir::amp::runner::getNumpyDtype(ElementKind kind) {
  for (const DtypeEntry &e : kDtypes)
    if (e.kind == kind)
      return e.dtype;
  return "";
}

std::string mlir::amp::runner::describeNumpyDtype(llvm::StringRef dtype) {
  std::string canonical = canonicalDtype(dtype);
  for (const DtypeEntry &e : kDtypes)
    if (canonical == e.dtype)
      return e.name.str();
  return "dtype '" + dtype.str() + "'";
}

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

/// The value of key `key` in a Python dict literal: a quoted string, True /
/// False, or a parenthesized tuple, as text.
static std::optional<std::string> dictValue(llvm::StringRef dict,
                                            llvm::StringRef key) {
  for (char quote : {'\'', '"'}) {
    std::string pattern = std::string(1, quote) + key.str() + quote;
    size_t at = dict.find(pattern);
    if (at == llvm::StringRef::npos)
      continue;
    llvm::StringRef rest = dict.drop_front(at + pattern.size()).ltrim();
    if (!rest.consume_front(":"))
      return std::nullopt;
    rest = rest.ltrim();
    if (rest.starts_with("'") || rest.starts_with("\"")) {
      char q = rest[0];
      size_t end = rest.find(q, 1);
      if (end == llvm::StringRef::npos)
        return std::nullopt;
      return rest.slice(1, end).str();
    }
    if (rest.starts_with("(")) {
      size_t end = rest.find(')');
      if (end == llvm::StringRef::npos)
        return std::nullopt;
      return rest.slice(1, end).str();
    }
    size_t end = rest.find_first_of(",}");
    return rest.take_front(end).trim().str();
  }
  return std::nullopt;
}

llvm::Expected<NumpyArray>
mlir::amp::runner::parseNpy(llvm::ArrayRef<uint8_t> bytes,
                            llvm::StringRef where) {
  static const uint8_t magic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (bytes.size() < 10 || std::memcmp(bytes.data(), magic, 6) != 0)
    return error(where + ": not a NumPy .npy array (no \\x93NUMPY magic)");
  uint8_t major = bytes[6];
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = bytes[8] | (size_t(bytes[9]) << 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return error(where + ": truncated .npy header");
    headerLength = bytes[8] | (size_t(bytes[9]) << 8) |
                   (size_t(bytes[10]) << 16) | (size_t(bytes[11]) << 24);
    headerStart = 12;
  } else {
    return error(where + ": unsupported .npy format version " +
                 llvm::Twine(int(major)));
  }
  if (headerStart + headerLength > bytes.size())
    return error(where + ": truncated .npy header");
  llvm::StringRef dict(reinterpret_cast<const char *>(bytes.data()) +
                           headerStart,
                       headerLength);
  NumpyArray array;
  std::optional<std::string> descr = dictValue(dict, "descr");
  std::optional<std::string> fortran = dictValue(dict, "fortran_order");
  std::optional<std::string> shape = dictValue(dict, "shape");
  if (!descr || !fortran || !shape)
    return error(where + ": malformed .npy header: " + dict.trim());
  if (*fortran != "False")
    return error(where +
                 ": Fortran-order arrays are not supported (save a C-order "
                 "array: numpy.ascontiguousarray)");
  array.dtype = *descr;
  llvm::SmallVector<llvm::StringRef> dims;
  llvm::StringRef(*shape).split(dims, ',', -1, /*KeepEmpty=*/false);
  int64_t count = 1;
  for (llvm::StringRef d : dims) {
    d = d.trim();
    if (d.empty())
      continue;
    int64_t v;
    if (d.getAsInteger(10, v) || v < 0)
      return error(where + ": malformed shape (" + *shape + ")");
    array.shape.push_back(v);
    count *= v;
  }
  std::optional<ElementKind> kind = getNumpyElementKind(array.dtype);
  if (!kind)
    return error(where + ": arrays of " + describeNumpyDtype(array.dtype) +
                 " are not supported (float64, float32, float16, int64, "
                 "int32, int8 and bool are)");
  size_t bytesNeeded = size_t(count) * getElementByteSize(*kind);
  size_t dataStart = headerStart + headerLength;
  if (bytes.size() - dataStart < bytesNeeded)
    return error(where + ": the data is truncated (" +
                 llvm::Twine(bytes.size() - dataStart) + " bytes for " +
                 llvm::Twine(bytesNeeded) + ")");
  array.data.assign(bytes.begin() + dataStart,
                    bytes.begin() + dataStart + bytesNeeded);
  return array;
}

llvm::Expected<NumpyArray> mlir::amp::runner::readNpy(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return error("cannot read " + path + ": " + buffer.getError().message());
  llvm::ArrayRef<uint8_t> bytes(
      reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart()),
      (*buffer)->getBufferSize());
  llvm::Expected<NumpyArray> array = parseNpy(bytes, path);
  if (array) {
    llvm::StringRef name = llvm::StringRef(path).rsplit('/').second;
    if (name.empty())
      name = path;
    array->name = name.drop_back(name.ends_with(".npy") ? 4 : 0).str();
  }
  return array;
}

//===----------------------------------------------------------------------===//
// .npz
//===----------------------------------------------------------------------===//

static uint64_t le(const uint8_t *p, int bytes) {
  uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i)
    v = (v << 8) | p[i];
  return v;
}

/// Inflates raw deflate data (ZIP method 8) of known output size.
static llvm::Error inflateRaw(llvm::ArrayRef<uint8_t> in, size_t outSize,
                              std::vector<uint8_t> &out,
                              llvm::StringRef where) {
  out.resize(outSize);
  z_stream s;
  std::memset(&s, 0, sizeof(s));
  if (inflateInit2(&s, -MAX_WBITS) != Z_OK)
    return error(where + ": cannot start inflating");
  s.next_in = const_cast<Bytef *>(in.data());
  s.avail_in = static_cast<uInt>(in.size());
  s.next_out = out.data();
  s.avail_out = static_cast<uInt>(outSize);
  int status = inflate(&s, Z_FINISH);
  inflateEnd(&s);
  if (status != Z_STREAM_END || s.total_out != outSize)
    return error(where + ": corrupt compressed data");
  return llvm::Error::success();
}

llvm::Expected<std::vector<NumpyArray>>
mlir::amp::runner::readNpz(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return error("cannot read " + path + ": " + buffer.getError().message());
  const uint8_t *base =
      reinterpret_cast<const uint8_t *>((*buffer)->getBufferStart());
  size_t size = (*buffer)->getBufferSize();
  // The end of central directory record: within the last 64 KiB + 22 bytes.
  size_t eocd = std::string::npos;
  for (size_t i = size >= 22 ? size - 22 : 0;
       size >= 22 && i + 65557 >= size; --i) {
    if (le(base + i, 4) == 0x06054b50) {
      eocd = i;
      break;
    }
    if (i == 0)
      break;
  }
  if (eocd == std::string::npos)
    return error(path + ": not an .npz file (no ZIP end of central directory)");
  uint64_t entries = le(base + eocd + 10, 2);
  uint64_t directoryOffset = le(base + eocd + 16, 4);
  if (directoryOffset == 0xffffffffu || entries == 0xffff) {
    // ZIP64: the locator precedes the end record.
    if (eocd < 20 || le(base + eocd - 20, 4) != 0x07064b50)
      return error(path + ": malformed ZIP64 archive");
    uint64_t record = le(base + eocd - 20 + 8, 8);
    if (record + 56 > size || le(base + record, 4) != 0x06064b50)
      return error(path + ": malformed ZIP64 archive");
    entries = le(base + record + 32, 8);
    directoryOffset = le(base + record + 48, 8);
  }
  std::vector<NumpyArray> arrays;
  size_t at = directoryOffset;
  for (uint64_t e = 0; e < entries; ++e) {
    if (at + 46 > size || le(base + at, 4) != 0x02014b50)
      return error(path + ": malformed ZIP central directory");
    uint16_t method = static_cast<uint16_t>(le(base + at + 10, 2));
    uint64_t compressed = le(base + at + 20, 4);
    uint64_t uncompressed = le(base + at + 24, 4);
    uint16_t nameLength = static_cast<uint16_t>(le(base + at + 28, 2));
    uint16_t extraLength = static_cast<uint16_t>(le(base + at + 30, 2));
    uint16_t commentLength = static_cast<uint16_t>(le(base + at + 32, 2));
    uint64_t local = le(base + at + 42, 4);
    std::string name(reinterpret_cast<const char *>(base + at + 46),
                     nameLength);
    // ZIP64 extra field: the values that are 0xffffffff, in order.
    const uint8_t *extra = base + at + 46 + nameLength;
    for (size_t x = 0; x + 4 <= extraLength;) {
      uint16_t id = static_cast<uint16_t>(le(extra + x, 2));
      uint16_t length = static_cast<uint16_t>(le(extra + x + 2, 2));
      if (id == 0x0001) {
        const uint8_t *v = extra + x + 4;
        if (uncompressed == 0xffffffffu)
          uncompressed = le(v, 8), v += 8;
        if (compressed == 0xffffffffu)
          compressed = le(v, 8), v += 8;
        if (local == 0xffffffffu)
          local = le(v, 8);
      }
      x += 4 + length;
    }
    at += 46 + nameLength + extraLength + commentLength;
    if (local + 30 > size || le(base + local, 4) != 0x04034b50)
      return error(path + ": malformed ZIP entry " + name);
    size_t dataStart = local + 30 + le(base + local + 26, 2) +
                       le(base + local + 28, 2);
    if (dataStart + compressed > size)
      return error(path + ": truncated ZIP entry " + name);
    llvm::ArrayRef<uint8_t> stored(base + dataStart, compressed);
    std::string where = (path + ":" + name).str();
    std::vector<uint8_t> inflated;
    if (method == 8) {
      if (llvm::Error err = inflateRaw(stored, uncompressed, inflated, where))
        return std::move(err);
      stored = inflated;
    } else if (method != 0) {
      return error(where + ": unsupported ZIP compression method " +
                   llvm::Twine(method));
    }
    llvm::Expected<NumpyArray> array = parseNpy(stored, where);
    if (!array)
      return array.takeError();
    array->name = llvm::StringRef(name).ends_with(".npy")
                      ? name.substr(0, name.size() - 4)
                      : name;
    arrays.push_back(std::move(*array));
  }
  return arrays;
}

//===----------------------------------------------------------------------===//
// Writing, conversion
//===----------------------------------------------------------------------===//

llvm::Error mlir::amp::runner::writeNpy(llvm::StringRef path,
                                        const HostTensor &tensor) {
  HostTensor value = tensor.getKind() == ElementKind::BF16
                         ? tensor.convertTo(ElementKind::F32)
                         : tensor.clone();
  std::string header = "{'descr': '" + getNumpyDtype(value.getKind()).str() +
                       "', 'fortran_order': False, 'shape': (";
  for (int64_t d : value.getShape())
    header += std::to_string(d) + ", ";
  if (value.getShape().size() > 1)
    header.erase(header.size() - 1); // "(2, 3)"; "(4,)" for rank 1
  else if (!value.getShape().empty())
    header.erase(header.size() - 1);
  header += "), }";
  // Pad so that the data starts at a multiple of 64 bytes.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec);
  if (ec)
    return error("cannot write " + path + ": " + ec.message());
  out << "\x93NUMPY" << char(1) << char(0);
  out << char(header.size() & 0xff) << char(header.size() >> 8);
  out << header;
  out.write(static_cast<const char *>(value.getData()), value.getByteSize());
  return llvm::Error::success();
}

llvm::Expected<HostTensor>
mlir::amp::runner::toHostTensor(const NumpyArray &array, ElementKind kind,
                                llvm::ArrayRef<int64_t> shape,
                                llvm::StringRef what) {
  std::optional<ElementKind> arrayKind = getNumpyElementKind(array.dtype);
  bool floatInto16 = (kind == ElementKind::F16 || kind == ElementKind::BF16) &&
                     arrayKind == ElementKind::F32;
  if (!arrayKind || (*arrayKind != kind && !floatInto16)) {
    llvm::StringRef want = getNumpyDtype(kind);
    return error(what + " is " + stringifyElementKind(kind) +
                 " (NumPy " + (want.empty() ? "float32" : describeNumpyDtype(want)) +
                 "), but array '" + array.name + "' is " +
                 describeNumpyDtype(array.dtype));
  }
  if (llvm::ArrayRef<int64_t>(array.shape) != shape)
    return error(what + " has the shape " + formatShape(shape) +
                 ", but array '" + array.name + "' has the shape " +
                 formatShape(array.shape));
  HostTensor tensor(*arrayKind, shape);
  std::memcpy(tensor.getData(), array.data.data(),
              std::min<size_t>(array.data.size(), tensor.getByteSize()));
  if (*arrayKind != kind)
    return tensor.convertTo(kind);
  return tensor;
}
