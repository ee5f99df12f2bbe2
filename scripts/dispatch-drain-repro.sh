#!/usr/bin/env bash
# Runs scripts/dispatch-drain-repro.swift under ThreadSanitizer: URLSession requests to a server
# that drops connections, with processes started beside them, then the requests alone, then the
# processes alone; and counts the runs that libdispatch's crash (`_dispatch_event_loop_drain`)
# ended. No code of Paging's is in it: a crash here is Foundation's (URLSession, Process) and
# libdispatch's (RELIABILITY.md, "Race detection").
#
#   scripts/dispatch-drain-repro.sh [RUNS [SECONDS]]    default 4 runs of 60 s each way
#
# The crash is rare: a count of 0 does not show it gone. Exits 0 whatever the count (it
# measures); 1 when the program does not build, the server does not start, or a run ends in
# anything else (a ThreadSanitizer report included).
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-4}"
seconds="${2:-60}"
dir=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$dir"' EXIT
if ! swiftc -sanitize=thread -O scripts/dispatch-drain-repro.swift -o "$dir/repro" >"$dir/build.log" 2>&1; then
    cat "$dir/build.log"
    exit 1
fi
python3 scripts/dispatch-drain-server.py "$dir/port" &
server=$!
for _ in $(seq 50); do [ -s "$dir/port" ] && break; sleep 0.1; done
[ -s "$dir/port" ] || { echo "the server did not start"; exit 1; }
port=$(cat "$dir/port")
for mode in spawn requests spawnonly; do
    crashed=0
    for run in $(seq "$runs"); do
        log="$dir/$mode-$run.log"
        status=0
        TSAN_OPTIONS="halt_on_error=0" "$dir/repro" "$port" "$seconds" \
            $([ "$mode" = requests ] || echo "$mode") >"$log" 2>&1 || status=$?
        if [ "$status" -ne 0 ] && grep -q "SEGV" "$log" && grep -q "_dispatch_event_loop_drain" "$log"; then
            crashed=$((crashed + 1))
            echo "$mode, run $run: libdispatch's crash, after $(grep -c '^requests' "$log") lines of counts"
        elif [ "$status" -ne 0 ] || ! grep -q "^no crash:" "$log"; then
            echo "$mode, run $run: ended otherwise (exit $status):"
            tail -20 "$log"
            exit 1
        else
            echo "$mode, run $run: $(tail -1 "$log")"
        fi
    done
    echo "== $mode: $crashed of $runs runs ended in _dispatch_event_loop_drain"
done
