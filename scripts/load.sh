#!/usr/bin/env bash
# The launch server under load and under abuse, on loopback (RELIABILITY.md, "The server under
# load"). Builds `paging` in release, starts `paging serve`, and runs wrk against the Relay
# connection (POST /graphql) and the REST list (GET /api/launches) at several connection
# counts, LOAD_SECONDS (default 60) each, then the abuse runs of scripts/abuse.py while wrk
# measures an ordinary client. Prints one table row per run: requests a second, p50 and p99
# latency, errors (connect, read, write, timeout, non-2xx) and the server's resident memory
# before and after. Fails on any error in a load run, or when an ordinary client gets an error
# during abuse.
#
#   scripts/load.sh                 every run
#   LOAD_SECONDS=10 scripts/load.sh shorter runs
#   LOAD_CONNECTIONS="10 100" ...   the connection counts (default "10 50 200"; the last is
#                                   run twice, to show the resident size flat)
#   LOAD_ABUSE="slow-clients" ...   the abuse runs (default: all four of scripts/abuse.py;
#                                   LOAD_ABUSE="" for none)
#   LOAD_REPEATS=8 ...              how many times the largest load runs again (default 1):
#                                   the steady run that shows whether resident memory is flat
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { echo "load: wrk is not installed (Debian: apt-get install wrk)"; exit 1; }
seconds=${LOAD_SECONDS:-60}
connections=${LOAD_CONNECTIONS:-10 50 200}

echo "== build paging (release)"
(cd Tools && swift build -c release --product paging --scratch-path .build-release 2>&1 | tail -1)
paging=Tools/.build-release/release/paging
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)" || true
"$paging" serve --port "$port" >/tmp/paging-load-server.log 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
    curl -s -o /dev/null "http://127.0.0.1:$port/api/launches" && break
    sleep 0.1
done
base="http://127.0.0.1:$port"
work=$(mktemp -d)
cat >"$work/relay.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"query":"query($first:Int,$after:String){launchConnection(first:$first,after:$after){edges{cursor node{id site mission{name} rocket{name}}}pageInfo{hasNextPage endCursor}}}","variables":{"first":20}}'
LUA
cat >"$work/report.lua" <<'LUA'
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT %.0f %.2f %.2f %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    e.connect + e.read + e.write + e.timeout + e.status))
end
LUA
cat "$work/relay.lua" "$work/report.lua" >"$work/relay-report.lua"
rss() { ps -o rss= -p "$server" | tr -d ' '; }
failed=0
printf "| run | connections | requests/s | p50 ms | p99 ms | errors | resident before → after (MB) |\n"
printf "| --- | --- | --- | --- | --- | --- | --- |\n"
measure() { # name connections script url [duration]
    local name=$1 c=$2 script=$3 url=$4 d=${5:-$seconds}
    local before after line
    before=$(rss)
    line=$(wrk -t2 -c"$c" -d"${d}s" --timeout 10s -s "$script" "$url" | grep '^RESULT' || true)
    after=$(rss)
    read -r _ rate p50 p99 errors <<<"${line:-RESULT 0 0 0 -1}"
    printf "| %s | %s | %s | %s | %s | %s | %s → %s |\n" "$name" "$c" "$rate" "$p50" "$p99" "$errors" \
        "$((before / 1024))" "$((after / 1024))"
    [ "$errors" = "0" ] || failed=1
}
for c in $connections; do
    measure "Relay connection, POST /graphql" "$c" "$work/relay-report.lua" "$base/graphql"
    measure "REST list, GET /api/launches" "$c" "$work/report.lua" "$base/api/launches?per_page=20&page=3"
done
# The largest load again: the resident size it reached is what that many requests in flight
# take; it stays there, not grows, when the load goes on.
last=${connections##* }
for round in $(seq 1 "${LOAD_REPEATS:-1}"); do
    measure "Relay connection again ($round)" "$last" "$work/relay-report.lua" "$base/graphql"
done
measure "REST list again" "$last" "$work/report.lua" "$base/api/launches?per_page=20&page=3"
for abuse in ${LOAD_ABUSE-slow-clients oversize-bodies malformed-bodies idle-connections}; do
    python3 scripts/abuse.py "$abuse" 127.0.0.1 "$port" "$((seconds + 5))" >"$work/$abuse.log" 2>&1 &
    attacker=$!
    sleep 3 # the attack's connections open before the measurement starts
    measure "REST list during $abuse" 10 "$work/report.lua" "$base/api/launches?per_page=20&page=3"
    wait "$attacker" || { echo "abuse $abuse: $(tail -3 "$work/$abuse.log")"; failed=1; }
    echo "  $abuse: $(tail -1 "$work/$abuse.log")"
done
if [ "$failed" -ne 0 ]; then echo "load: a run had errors"; exit 1; fi
echo "load: no errors"
