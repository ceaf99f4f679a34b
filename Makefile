# The two commands of the README, and a few helpers. Everything real happens
# in CMake; this file only strings the steps together.
#
#   make demo    install what is missing, build, convert the bundled example
#   make check   install what is missing, build, run every test suite

BUILD_DIR  ?= build
BUILD_TYPE ?= Release
PREFIX     ?= $(CURDIR)/install
CMAKE_ARGS ?=

.PHONY: all demo check deps configure build install docs check-asan clean

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

install: build
	@cmake --install $(BUILD_DIR) --prefix $(PREFIX)

# Regenerate docs/reference/ from the TableGen files.
docs: configure
	@cmake --build $(BUILD_DIR) --target amp-doc
	@cp $(BUILD_DIR)/docs/reference/*.md docs/reference/
	@echo "docs/reference/ regenerated"

clean:
	rm -rf $(BUILD_DIR) $(BUILD_DIR).configure.log
