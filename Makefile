# The two commands of the README, and a few helpers. Everything real happens
# in CMake; this file only strings the steps together.
#
#   make demo        install what is missing, build, convert the bundled example
#   make check       install what is missing, build, run every test suite
#   make check-asan  the same suite on a build with ASan, UBSan and libFuzzer
#                    (clang-22; in $(ASAN_BUILD_DIR))
#   make fuzz        a fuzzing campaign of FUZZ_SECONDS with that build

BUILD_DIR  ?= build
BUILD_TYPE ?= Release
PREFIX     ?= $(CURDIR)/install
CMAKE_ARGS ?=
ASAN_BUILD_DIR ?= build-asan
FUZZ_SECONDS   ?= 3600
ASAN_CMAKE_ARGS = -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
                  -DAMP_USE_SANITIZER="Address;Undefined" -DAMP_ENABLE_FUZZERS=ON

.PHONY: all demo check deps configure build install docs check-asan \
        configure-asan fuzz clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  $(CMAKE_ARGS) >$(BUILD_DIR).configure.log 2>&1 || \
	  { cat $(BUILD_DIR).configure.log; exit 1; }
	@grep -E "^-- (CUDA|No CUDA)" $(BUILD_DIR).configure.log || true

build: configure
	@cmake --build $(BUILD_DIR)

demo: build
	@scripts/demo.sh $(BUILD_DIR)

check: build
	@cmake --build $(BUILD_DIR) --target check-amp

# The instrumented build: amp with ASan and UBSan, libFuzzer targets.
configure-asan:
	@scripts/install-deps.sh --sanitizers
	@cmake -S . -B $(ASAN_BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) \
	  $(ASAN_CMAKE_ARGS) $(CMAKE_ARGS) >$(ASAN_BUILD_DIR).configure.log 2>&1 || \
	  { cat $(ASAN_BUILD_DIR).configure.log; exit 1; }

check-asan: configure-asan
	@cmake --build $(ASAN_BUILD_DIR) --target check-amp

fuzz: configure-asan
	@cmake --build $(ASAN_BUILD_DIR) --target amp-parse-fuzzer amp-graph-fuzzer \
	  amp-ptx-fuzzer amp-opt amp-graphgen
	@cmake --build $(ASAN_BUILD_DIR) --target amp-onnx-fuzzer >/dev/null 2>&1 || true
	@fuzz/run-campaign.sh $(ASAN_BUILD_DIR) $(FUZZ_SECONDS)

install: build
	@cmake --install $(BUILD_DIR) --prefix $(PREFIX)

# Regenerate docs/reference/ from the TableGen files.
docs: configure
	@cmake --build $(BUILD_DIR) --target amp-doc
	@cp $(BUILD_DIR)/docs/reference/*.md docs/reference/
	@echo "docs/reference/ regenerated"

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR).configure.log \
	  $(ASAN_BUILD_DIR) $(ASAN_BUILD_DIR).configure.log
