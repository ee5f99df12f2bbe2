#!/usr/bin/env bash
# Checks that an app naming `Paging` and `PagingGraphQL` (and not
# `PagingSQLite`) builds neither GRDB nor the store on disk: a throwaway app
# package beside nothing, depending on this repository by path, is built, and
# its programs must link the modules it names and not GRDB's (each module an
# app's products need is linked into its program). On Linux it also checks that
# an app on `PagingGraphQLClient` alone does not link FoundationNetworking,
# while the app on `PagingGraphQL` does, and that a target of generated models
# (the build plugin's, on the client layer alone) builds and links none of it
# either. The app builds in the folder `make test` builds every package in
# (.build), so that only its own three small targets compile: a build folder of
# its own compiled GraphQLSwift and the libraries again, minutes on two cores.
# Whether a module is built for the app is read from what its programs link
# (SwiftPM's link lists), not from the folder, which holds every package's
# modules.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
app=$(mktemp -d)
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/Sources/App"
cat > "$app/Package.swift" <<MANIFEST
// swift-tools-version: 6.1
import PackageDescription
let package = Package(
    name: "App",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Paging", path: "$repo")],
    targets: [
        .executableTarget(
            name: "App",
            dependencies: [
                .product(name: "Paging", package: "Paging"),
                .product(name: "PagingGraphQL", package: "Paging"),
            ]),
        .executableTarget(
            name: "LeanApp",
            dependencies: [.product(name: "PagingGraphQLClient", package: "Paging")]),
        .executableTarget(
            name: "Models",
            dependencies: [.product(name: "PagingGraphQLClient", package: "Paging")],
            plugins: [.plugin(name: "PagingCodegenPlugin", package: "Paging")]),
    ]
)
MANIFEST
mkdir -p "$app/Sources/LeanApp" "$app/Sources/Models"
cp "$repo/Tests/PagingCodegenTests/Fixtures/launches.graphqls" "$repo/Tests/PagingCodegenTests/Fixtures/LaunchList.graphql" \
    "$app/Sources/Models/"
cat > "$app/Sources/Models/main.swift" <<'SOURCE'
import Foundation

let data = try JSONDecoder().decode(
    LaunchListQuery.Data.self,
    from: Data(#"{"launches": {"cursor": "c", "hasMore": false, "launches": []}}"#.utf8))
print(data.launches.hasMore, LaunchListQuery(cursor: nil).operationName ?? "")
SOURCE
cat > "$app/Sources/LeanApp/main.swift" <<'SOURCE'
import Foundation
import PagingGraphQLClient

struct Transport: GraphQLTransport {
    func send(_ request: GraphQLHTTPRequest) async throws -> GraphQLHTTPResponse {
        GraphQLHTTPResponse(statusCode: 200, body: Data(#"{"data":{}}"#.utf8))
    }
}
print(GraphQLClient(endpoint: URL(fileURLWithPath: "/graphql"), transport: Transport()).endpoint)
SOURCE
cat > "$app/Sources/App/main.swift" <<'SOURCE'
import Paging
import PagingGraphQL

print(CacheKey.queryRoot, PageInfo.self)
SOURCE
(cd "$app" && swift build --scratch-path "$repo/.build" >"$app/build.log" 2>&1) || { cat "$app/build.log"; exit 1; }
bin=$(cd "$app" && swift build --scratch-path "$repo/.build" --show-bin-path)
# What each of the app's programs links: the object files of every module its products need,
# which are the modules SwiftPM builds for it (each module is a static part of the program).
linked() { grep -qE "/$2\.build/" "$bin/$1.product/Objects.LinkFileList"; }
for program in App LeanApp Models; do
    [ -f "$bin/$program.product/Objects.LinkFileList" ] || { echo "no link list for $program: is the check stale?"; exit 1; }
done
for wanted in Paging PagingGraphQL; do
    linked App "$wanted" || { echo "the app's program links no $wanted module: is the check stale?"; exit 1; }
done
for program in App LeanApp Models; do
    for unwanted in GRDB PagingSQLite NIOCore AsyncHTTPClient PagingHTTPClient; do
        if linked "$program" "$unwanted"; then
            echo "an app that names only Paging and PagingGraphQL (or PagingGraphQLClient) built $unwanted ($program)"
            exit 1
        fi
    done
done
echo "products: an app on Paging and PagingGraphQL builds neither GRDB nor PagingSQLite, nor SwiftNIO"
if [ "$(uname)" = Linux ]; then
    needs() { readelf -d "$bin/$1" | grep -q "NEEDED.*libFoundationNetworking"; }
    needs App || { echo "the app on PagingGraphQL does not link FoundationNetworking: is the check stale?"; exit 1; }
    if needs LeanApp; then
        echo "an app on PagingGraphQLClient alone links FoundationNetworking"
        exit 1
    fi
    echo "products: an app on PagingGraphQLClient alone does not link FoundationNetworking"
    "$bin/Models" >/dev/null || { echo "the target of generated models does not run"; exit 1; }
    if needs Models; then
        echo "a target of generated models on PagingGraphQLClient links FoundationNetworking"
        exit 1
    fi
    echo "products: a target of generated models (the build plugin's) builds on PagingGraphQLClient alone and does not link FoundationNetworking"
fi
# The command line sends over async-http-client (SwiftNIO), not URLSession: on Linux, a `paging`
# that links FoundationNetworking loads libcurl and its TLS libraries, about 7 MB resident, and
# keeps a few hundred bytes of every request (Benchmarks/README.md, issue 19). Checked on the
# debug build, in the folder every package builds in (`make test` made it before `make check`;
# brought up to date here).
paging="$repo/.build/debug/paging"
if [ "$(uname)" = Linux ]; then
    (cd "$repo/Tools" && swift build --product paging --scratch-path "$repo/.build" >/dev/null)
    if readelf -d "$paging" | grep -q "NEEDED.*libFoundationNetworking"; then
        echo "the paging executable links FoundationNetworking: a command sends over URLSession again"
        exit 1
    fi
    echo "products: the paging executable does not link FoundationNetworking"
fi
