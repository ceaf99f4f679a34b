#!/bin/bash
# For a change meant to keep behaviour: runs two amp-graphgen binaries (REF,
# built before the change; NEW, after) over many
# seeds and every mode and option of amp-graphgen, and compares what they
# write byte for byte: stdout, stderr, the exit status and the files of
# --save-dir. The only thing masked is the wall-clock time at the end of the
# summary line of a checking run ("..., 1.5 s") and the path of the binary
# in its messages.
#
#   REF=old/bin/amp-graphgen [NEW=build/bin/amp-graphgen] [SEEDS=400 JOBS=2] \
#     scripts/same-behaviour/graphgen.sh
#
# Prints one line per differing case and, last, "N cases, D diffs"; exits 1
# if any case differs.
set -u
REF=${REF:?set REF to the amp-graphgen built before the change}
NEW=${NEW:-$(cd "$(dirname "$0")/../.." && pwd)/build/bin/amp-graphgen}
SEEDS=${SEEDS:-400}
JOBS=${JOBS:-2}
WORK=${WORK:-${TMPDIR:-/tmp}/amp-same-graphgen}

# One case on one side: __one <side> <name> <masktime> <args...>
if [ "${1:-}" = __one ]; then
  side=$2 name=$3 mask=$4
  shift 4
  bin=$REF
  [ "$side" = new ] && bin=$NEW
  dir=$WORK/$side/$name
  mkdir -p "$dir"
  args=()
  for a in "$@"; do args+=("${a//@SAVE@/$dir/save}"); done
  (cd "$dir" && "$bin" "${args[@]}" > out 2> err; echo $? > rc)
  # The binary's path (in its messages about the command line) differs.
  sed -i "s|$bin|<amp-graphgen>|g" "$dir/out" "$dir/err"
  if [ "$mask" = 1 ]; then
    sed -i -E 's/, [0-9]+\.[0-9] s$/, <time> s/' "$dir/out"
  fi
  exit 0
fi

for b in "$REF" "$NEW"; do
  [ -x "$b" ] || { echo "missing binary: $b"; exit 2; }
done
rm -rf "$WORK"
mkdir -p "$WORK"
cases=$WORK/cases
: > "$cases"
add() { # add <name> <masktime> <args...>: one case (tab-separated)
  local IFS=$'\t'
  echo "$*" >> "$cases"
}

# --print: the module of one seed, with and without annotations, with
# several --max-ops, and generated for execution (--numerics given makes
# every third seed executable; --print runs nothing).
for ((s = 0; s <= SEEDS; ++s)); do
  add "print-$s" 0 --seed=$s --print
  add "print-noann-$s" 0 --seed=$s --print --no-annotations
  add "print-ops4-$s" 0 --seed=$s --print --max-ops=4
  add "print-ops60-noann-$s" 0 --seed=$s --print --max-ops=60 --no-annotations
  add "print-exec-$s" 0 --seed=$s --print --numerics=true
  add "print-exec-noann-ops10-$s" 0 --seed=$s --print --no-annotations \
    --max-ops=10 --numerics=true
done
# Seeds far from the small ones.
for s in 4294967295 4294967296 1099511627776 18446744073709551615; do
  add "print-big-$s" 0 --seed=$s --print
  add "print-big-noann-$s" 0 --seed=$s --print --no-annotations
done

# Checking runs (generate, annotate, run the pass with every option set):
# the summary, the failures on stderr, the saved modules.
add count-1 1 --seed=1 --count=$SEEDS --quiet
add count-verbose 1 --seed=$((SEEDS + 1)) --count=200
add count-ops8-noann-save 1 --seed=1 --count=150 --max-ops=8 \
  --no-annotations --save-dir=@SAVE@
add count-ops40 1 --seed=1000 --count=100 --max-ops=40 --quiet
add count-timelimit 1 --seed=5 --count=40 --time-limit=100000
# --numerics: `cat` prints each executable module it is given (and
# succeeds), `false` fails each one (the failures are printed and saved).
add count-numerics-cat 1 --seed=1 --count=150 --numerics=cat \
  --numerics-max-ops=1000
add count-numerics-cat-small 1 --seed=1 --count=150 --numerics=cat \
  --numerics-max-ops=20 --max-ops=12
add count-numerics-false 1 --seed=1 --count=60 --numerics=false \
  --numerics-max-ops=1000 --save-dir=@SAVE@ --quiet
add count-numerics-missing 1 --seed=1 --count=10 --max-ops=6 \
  --numerics=amp-no-such-program-anywhere
add count-zero 1 --seed=7 --count=0
# The command line itself.
add help 0 --help
add bad-option 0 --no-such-option

n=$(wc -l < "$cases")
# Run both sides, JOBS at a time: one line per call, its arguments
# separated by tabs.
for side in ref new; do
  sed "s/^/__one\t$side\t/" "$cases"
done > "$WORK/cmds"
xargs -P "$JOBS" -d '\n' -n1 bash -c \
  'IFS=$'"'"'\t'"'"' read -r -a a <<< "$1"; exec "$0" "${a[@]}"' "$0" \
  < "$WORK/cmds"

diffs=0
while IFS=$'\t' read -r name _; do
  if ! diff -r "$WORK/ref/$name" "$WORK/new/$name" > /dev/null 2>&1; then
    echo "DIFF $name"
    diffs=$((diffs + 1))
  fi
done < "$cases"
echo "$n cases, $diffs diffs (ref: $REF, new: $NEW)"
[ "$diffs" = 0 ]
