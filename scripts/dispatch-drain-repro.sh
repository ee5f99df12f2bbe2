#!/usr/bin/env bash
# Runs scripts/dispatch-drain-repro.swift under ThreadSanitizer: URLSession requests to a server
# that drops connections, with and without processes started beside them, and counts the runs
# that libdispatch's crash (`_dispatch_event_loop_drain`) ended. No code of Paging's is in it:
# a crash here is FoundationNetworking's and libdispatch's (RELIABILITY.md, "Race detection").
#
#   scripts/dispatch-drain-repro.sh [RUNS [SECONDS]]    default 4 runs of 60 s each way
#
# The crash is rare: a count of 0 does not show it gone. Exits 0 either way; it measures.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-4}"
seconds="${2:-60}"
dir=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$dir"' EXIT
swiftc -sanitize=thread -O scripts/dispatch-drain-repro.swift -o "$dir/repro" 2>&1 | grep -v "warning:" || true
port=$((20000 + RANDOM % 20000))
python3 scripts/dispatch-drain-server.py "$port" &
server=$!
sleep 1
for mode in spawn requests spawnonly; do
    crashed=0
    for run in $(seq "$runs"); do
        log="$dir/$mode-$run.log"
        TSAN_OPTIONS="halt_on_error=0" "$dir/repro" "$port" "$seconds" \
            $([ "$mode" = requests ] || echo "$mode") >"$log" 2>&1 || true
        if grep -q "_dispatch_event_loop_drain" "$log"; then
            crashed=$((crashed + 1))
            echo "$mode, run $run: libdispatch's crash after $(grep -c '^requests' "$log") lines of counts"
        else
            echo "$mode, run $run: $(tail -1 "$log")"
        fi
    done
    echo "== $mode: $crashed of $runs runs ended in _dispatch_event_loop_drain"
done
