#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Every tracked C++ source follows .clang-format: a deviation fails, listed file by file, with the
# command that fixes it. Exit 77 (ctest: skipped) only where clang-format is not installed.
# Usage: clang_format.sh <source dir> [clang-format binary]
set -u
src=${1:?usage: clang_format.sh <source dir> [clang-format]}
tool=${2:-clang-format}
if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool is not installed (Debian: apt-get install clang-format)"
    exit 77
fi
cd "$src" || exit 2
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(git ls-files -- engine app cli realkernel tests bench | grep -E '\.(c|cc|cpp|h|hpp)$')
else
    files=$(find engine app cli realkernel tests bench -type f \( -name '*.c' -o -name '*.cc' -o -name '*.cpp' -o -name '*.h' -o -name '*.hpp' \) | sort)
fi
# One run over all files (a process per file is most of the time); the deviations are reported
# as file:line:col: error: lines on stderr.
report=$("$tool" --dry-run --Werror $files 2>&1)
bad=$(echo "$report" | grep -E '^[^ :]+:[0-9]+:[0-9]+: (error|warning):' | cut -d: -f1 | sort -u)
if [ -n "$bad" ]; then
    echo "$(echo "$report" | grep -cE '^[^ :]+:[0-9]+:[0-9]+: (error|warning):') deviation(s) from .clang-format in $(echo $bad | wc -w) file(s):"
    for f in $bad; do echo "  $f"; done
    echo "Fix: clang-format -i" $bad
    exit 1
fi
echo "$(echo $files | wc -w) files follow .clang-format"
