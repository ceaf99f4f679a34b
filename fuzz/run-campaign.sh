#!/usr/bin/env bash
# A fuzzing campaign: the fuzzers one after the other, each for an equal share
# of SECONDS, under `nice -n 19` (one process at a time), with the binaries of
# BUILD_DIR (configure it with AMP_ENABLE_FUZZERS=ON: `make fuzz` does):
# amp-parse-fuzzer, amp-graph-fuzzer, amp-ptx-fuzzer (the emulator), then
# amp-onnx-fuzzer when the build has it, then amp-graphgen.
#
#   fuzz/run-campaign.sh BUILD_DIR SECONDS [WORK_DIR]
#
# WORK_DIR (default BUILD_DIR/fuzz-campaign) keeps the libFuzzer corpora
# between campaigns, the crashers (artifacts/) and the logs. The summary line
# of each fuzzer gives its executions; bench/results/fuzz.md records them.
set -uo pipefail

build=${1:?usage: run-campaign.sh BUILD_DIR SECONDS [WORK_DIR]}
seconds=${2:?usage: run-campaign.sh BUILD_DIR SECONDS [WORK_DIR]}
work=${3:-$build/fuzz-campaign}
src=$(cd "$(dirname "$0")/.." && pwd)
fuzzers=4
[ -x "$build/bin/amp-onnx-fuzzer" ] && fuzzers=5
third=$(( seconds / fuzzers ))
mkdir -p "$work/parse-corpus" "$work/graph-corpus" "$work/ptx-corpus" \
  "$work/onnx-corpus" "$work/artifacts" "$work/graphgen-failures"

python3 "$src/fuzz/make-seeds.py" "$work/seeds" "$src/test" "$src/third_party/corpus" \
  "$src/fuzz/regressions" >/dev/null

# libFuzzer stops at the first crash: the fuzzer is started again (on the
# corpus it has grown) until its share of the time is used, so that one bug
# does not end the campaign. Each start appends to the log; the summary adds
# up the executions of all starts.
run_libfuzzer() { # name, corpus dirs...
  local name=$1; shift
  local log="$work/$name.log"
  local deadline=$(( $(date +%s) + third ))
  local execs=0 starts=0 crashes=0 left
  echo "== $name: $third s"
  while left=$(( deadline - $(date +%s) )); [ "$left" -ge 10 ]; do
    starts=$(( starts + 1 ))
    echo "== start $starts: $left s" >>"$log"
    nice -n 19 "$build/bin/$name" -max_total_time="$left" -timeout=60 \
      -max_len=65536 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$work/artifacts/$name-" "$@" >>"$log" 2>&1
    local rc=$?
    local ran
    ran=$(awk '/^== start /{n=0} /stat::number_of_executed_units/{n=$2} END{print n}' "$log")
    execs=$(( execs + ${ran:-0} ))
    [ $rc -eq 0 ] && break
    crashes=$(( crashes + 1 ))
    echo "$name: exit code $rc (see $log)"
    [ $crashes -lt 20 ] || { echo "$name: 20 crashes, stopping"; break; }
  done
  echo "$name: $execs executions, $starts starts, $crashes stopped by a crash or violation"
  ls "$work/artifacts" | grep "^$name-" || true
}

# PTX seeds: the kernels of the GPU tests' models (made once).
[ -d "$work/ptx-seeds" ] || "$src/fuzz/make-ptx-seeds.sh" "$build" "$work/ptx-seeds" >/dev/null
# ONNX seeds: the importer's test models and Debian's conformance models.
if [ $fuzzers -eq 5 ] && [ ! -d "$work/onnx-seeds" ]; then
  mkdir -p "$work/onnx-seeds"
  python3 "$src/test/amp-import-onnx/Inputs/make_models.py" "$work/onnx-seeds" >/dev/null 2>&1
  find /usr/share/libonnx-testdata -name '*.onnx' -size -1M 2>/dev/null | head -400 |
    while read -r f; do cp "$f" "$work/onnx-seeds/$(echo "$f" | md5sum | cut -c1-12).onnx"; done
fi

run_libfuzzer amp-parse-fuzzer "$work/parse-corpus" "$work/seeds"
run_libfuzzer amp-graph-fuzzer "$work/graph-corpus"
run_libfuzzer amp-ptx-fuzzer "$work/ptx-corpus" "$work/ptx-seeds" "$src/fuzz/regressions/ptx"
[ $fuzzers -eq 5 ] && run_libfuzzer amp-onnx-fuzzer "$work/onnx-corpus" "$work/onnx-seeds"

# The standalone generator from where the last campaign stopped.
seed_file="$work/graphgen.next-seed"
seed=$(cat "$seed_file" 2>/dev/null || echo 100000)
# Small graphs are also run in FP32 and converted with amp-run when the build
# has it (fuzz/check-numerics.py).
numerics=()
[ -x "$build/bin/amp-run" ] && \
  numerics=(--numerics="python3 $src/fuzz/check-numerics.py $build/bin/amp-run")
echo "== amp-graphgen: $third s from seed $seed"
nice -n 19 "$build/bin/amp-graphgen" --seed="$seed" --count=100000000 \
  --time-limit="$third" --quiet --save-dir="$work/graphgen-failures" \
  "${numerics[@]}" >"$work/amp-graphgen.log" 2>&1
tail -n 1 "$work/amp-graphgen.log"
grep -E "^seed|crashed" "$work/amp-graphgen.log" | head -20
ran=$(sed -n 's/^amp-graphgen: \([0-9]*\) graphs.*/\1/p' "$work/amp-graphgen.log")
echo $(( seed + ${ran:-0} + 1 )) >"$seed_file"
