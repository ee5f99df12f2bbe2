// A reproduction, with no code of Paging's, of the crash that sometimes ends a run of `Tools/`'s
// tests under ThreadSanitizer: a SEGV in libdispatch's event loop (`_dispatch_event_loop_drain`,
// on its manager thread). scripts/dispatch-drain-repro.sh builds it and runs it.
//
// What it does, as `Tools/`'s tests do: eight threads send small POSTs over one `URLSession` to a
// server on loopback that answers some requests and drops or resets the connection on others
// (scripts/dispatch-drain-server.py); with `spawn`, another thread starts `/bin/true` again and
// again through `Process`, as the tests start `paging`. FoundationNetworking watches each of
// libcurl's sockets with a dispatch source; the process being started holds a copy of every
// open descriptor until it closes them.
//
//     dispatch-drain-repro PORT SECONDS [spawn | spawnonly]
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

let arguments = CommandLine.arguments
guard arguments.count >= 3, let seconds = Double(arguments[2]),
    let url = URL(string: "http://127.0.0.1:\(arguments[1])/graphql")
else {
    print("usage: dispatch-drain-repro PORT SECONDS [spawn | spawnonly]")
    exit(2)
}
let spawns = arguments.contains("spawn") || arguments.contains("spawnonly")
let senders = arguments.contains("spawnonly") ? 0 : 8

let configuration = URLSessionConfiguration.ephemeral
configuration.timeoutIntervalForRequest = 2
let session = URLSession(configuration: configuration)
let start = Date()
@Sendable func running() -> Bool { Date().timeIntervalSince(start) < seconds }

/// The counts, read by the main thread while the others add to them.
final class Counts: @unchecked Sendable {
    private let lock = NSLock()
    private var requests = 0
    private var processes = 0
    func request() { lock.withLock { requests += 1 } }
    func process() { lock.withLock { processes += 1 } }
    var line: String { lock.withLock { "requests \(requests), processes \(processes)" } }
}
let counts = Counts()

for _ in 0..<senders {
    Thread.detachNewThread {
        while running() {
            let answered = DispatchSemaphore(value: 0)
            var request = URLRequest(url: url)
            request.httpMethod = "POST"
            request.httpBody = Data(#"{"query":"{ launches { hasMore } }"}"#.utf8)
            session.dataTask(with: request) { _, _, _ in answered.signal() }.resume()
            answered.wait()
            counts.request()
        }
    }
}
if spawns {
    Thread.detachNewThread {
        while running() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/true")
            try? process.run()
            process.waitUntilExit()
            counts.process()
        }
    }
}
while running() {
    Thread.sleep(forTimeInterval: 5)
    print(counts.line)
}
Thread.sleep(forTimeInterval: 3)
print("no crash: \(counts.line)")
