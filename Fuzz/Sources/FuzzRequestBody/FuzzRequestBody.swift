import Dispatch
import Foundation

@testable import LaunchServer

/// The server, started once for the whole run: the SpaceX launches in memory. Each input is
/// executed in process, as `POST /graphql` would be, so the HTTP listener is stopped once it has
/// started: its background work (Hummingbird's date cache, ticking every second) would allocate
/// and free on other threads while an input runs, in the counts libFuzzer compares.
private let server: LaunchServer = {
    let started = Box<LaunchServer>()
    let done = DispatchSemaphore(value: 0)
    Task {
        let server = try? await LaunchServer.start()
        await server?.stop()
        started.value = server
        done.signal()
    }
    done.wait()
    guard let server = started.value else {
        fatalError("the launch server did not start")
    }
    return server
}()

/// A value filled by a task and read after the semaphore it signals: the semaphore orders the
/// two accesses.
private final class Box<Value>: @unchecked Sendable {
    var value: Value?
}

/// The executor of each input's task: the jobs of that task (and of any child task it starts) go
/// to the main queue, and the main thread, the one libFuzzer calls, runs them until the task has
/// finished.
///
/// libFuzzer counts the mallocs and frees made while an input runs, and after an input with more
/// mallocs than frees, twice in a row, looks for a leak; after a thousand such inputs with no leak
/// it stops looking ("libFuzzer disabled leak detection after every mutation"). So the input's
/// work must be over, and freed, when the input function returns:
///
/// - On the global executor, the task's last release came on another thread after the input had
///   returned: every input had two blocks more allocated than freed.
/// - Run directly on the calling thread, each database access left one: GRDB hops to its own
///   dispatch queue with `dispatch_async`, and libdispatch takes the 64-byte record of that call
///   from the calling thread's cache (empty on a thread that runs no dispatch work, so from
///   `malloc`); the worker thread that runs the call puts the record in its own cache (up to
///   1,024 a thread on Linux), not back with `free`. Going back through the main queue, the
///   resumption takes a record from that worker's cache and the main thread, running it, keeps it
///   for the next hop: every thread's cache keeps its size.
private final class InputExecutor: TaskExecutor, Sendable {
    /// Signalled once for each job sent to the main queue.
    private let ready = DispatchSemaphore(value: 0)

    /// Called by the runtime: on the main thread, or on the database queue's thread when a database
    /// access (a read or a write) ends.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        DispatchQueue.main.async { job.runSynchronously(on: executor) }
        ready.signal()
    }

    /// Runs the main queue's jobs on the main thread until `finished` holds.
    ///
    /// Each pass of the run loop runs the jobs the main queue held when it began; a job enqueued
    /// during a pass signals for another. The wait's limit only keeps the loop going if a pass
    /// ever missed a job it was woken for.
    func run(until finished: () -> Bool) {
        while !finished() {
            _ = ready.wait(timeout: .now() + .milliseconds(10))
            _ = RunLoop.main.run(mode: .default, before: .distantPast)
        }
    }
}

/// The exchange between an input and the task that executes it, in a global that lives as long as
/// the run: the caller puts the body in, the task puts the response in, the caller takes it out.
/// The task's closure captures nothing. Only the main thread reads or writes it: the task runs
/// there (``InputExecutor``).
private final class Exchange: @unchecked Sendable {
    let executor = InputExecutor()
    var body = Data()
    var response: Data?
}

private let exchange = Exchange()

/// Starts the server before the first input, so that no input's count of mallocs and frees
/// includes the server's start.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    _ = server
    return 0
}

/// One input: a request body. Executing it gives a JSON response, with `data` or `errors`,
/// whatever the body holds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestBody(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    exchange.body = Data(bytes: start, count: count)
    Task(executorPreference: exchange.executor) {
        exchange.response = await server.executeGraphQL(body: exchange.body)
    }
    exchange.executor.run(until: { exchange.response != nil })
    // A read of no rows, waited for: it runs on the database queue after the input's last
    // access, once that access's block has been released there.
    _ = try? server.store.writer.read { _ in }
    let response = exchange.response
    exchange.response = nil
    exchange.body = Data()
    guard let data = response,
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        object["data"] != nil || object["errors"] != nil
    else {
        fatalError("the server answered with something that is not a GraphQL response")
    }
    return 0
}
