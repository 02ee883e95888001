#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs shard I of N of a QtTest suite: every test function and every data row the suite lists
# (-datatags), dealt round-robin, so one slow suite becomes several ctest entries that each stay
# short, one failure hides nothing in another shard, and a new function or row is never left out.
# Entries named in INFLIGHT_SKIP_ROWS ("function:tag|function:tag…") are left out: they have
# ctest entries of their own.
# usage: run_shard.sh SUITE I N [extra QtTest arguments...]
set -euo pipefail
suite=$1 shard=$2 shards=$3
shift 3
mapfile -t entries < <("$suite" -datatags 2>/dev/null)
selected=()
n=0
for line in "${entries[@]}"; do
    # "Class function" or "Class function tag with spaces"
    read -r _class function tag <<<"$line" || true
    [ -n "${function:-}" ] || continue
    case "$function" in initTestCase | cleanupTestCase | init | cleanup) continue ;; esac
    if [ -n "${tag:-}" ]; then entry="$function:$tag"; else entry=$function; fi
    case "|${INFLIGHT_SKIP_ROWS:-}|" in *"|$entry|"*) continue ;; esac
    [ $((n % shards)) -eq $((shard - 1)) ] && selected+=("$entry")
    n=$((n + 1))
done
if [ ${#selected[@]} -eq 0 ]; then
    echo "run_shard.sh: shard $shard of $shards of $suite has no test (the suite lists $n)" >&2
    exit 1
fi
exec "$suite" "$@" "${selected[@]}"
