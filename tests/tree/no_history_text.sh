#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The tree describes the product as it is: no text in it counts working sessions, names an issue
# of a tracker that is not in the repository, or describes the machine something was measured on.
# That story belongs in commit messages. Usage: no_history_text.sh <source dir>
set -u
src=${1:?usage: no_history_text.sh <source dir>}
cd "$src" || exit 2
# Each alternative is bracketed so that this file does not match its own pattern.
pattern='([f]irst|[s]econd|[t]hird|[a-z]+[t]h) [s]ession|[f]irecracker|[i]ssue [0-9]+'
paths='engine app cli realkernel tests bench docs README.md HACKING.md'
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    hits=$(git grep -n -I -i -E "$pattern" -- $paths)
else
    # A source tarball: the same files, without git's list of what is tracked.
    hits=$(grep -r -n -I -i -E "$pattern" $paths)
fi
if [ -n "$hits" ]; then
    echo "Text that narrates sessions, names an issue number or a machine (say it in the commit message):"
    echo "$hits"
    exit 1
fi
echo "No session counts, issue numbers or machine names in: $paths"
