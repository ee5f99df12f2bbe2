#!/usr/bin/env bash
# The public API of the library modules (scripts/library-modules.txt), one line per symbol,
# compared with the listing committed in API.txt: a change of the public API is made on purpose,
# and shows in review as a change of that file.
#
#   scripts/api-listing.sh            fails, printing the difference, when the API is not API.txt
#   scripts/api-listing.sh --update   writes API.txt anew, to commit with the change
#
# It reads the symbol graphs of the debug build (scripts/symbol-graphs.sh builds it if needed);
# set GRAPHS to a directory that already holds them to skip that.
set -euo pipefail
cd "$(dirname "$0")/.."
modules=$(cat scripts/library-modules.txt)
graphs=${GRAPHS:-}
if [ -z "$graphs" ]; then
    graphs=.build-docs/graphs
    # shellcheck disable=SC2086
    scripts/symbol-graphs.sh "$graphs" $modules
fi
listing=$(mktemp)
trap 'rm -f "$listing"' EXIT
# shellcheck disable=SC2086
python3 scripts/api-listing.py "$graphs" $modules >"$listing"
if [ "${1:-}" = --update ]; then
    cp "$listing" API.txt
    echo "API.txt: $(wc -l <API.txt) public symbols"
    exit 0
fi
if ! diff -u API.txt "$listing"; then
    echo "the public API differs from API.txt (above: - as committed, + as built)."
    echo "If the change is meant, run scripts/api-listing.sh --update and commit API.txt with it."
    exit 1
fi
echo "api: $(wc -l <API.txt) public symbols, as API.txt lists them"
