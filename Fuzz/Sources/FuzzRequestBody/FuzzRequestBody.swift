import Dispatch
import Foundation
import LaunchServer

/// The server, started once for the whole run: the SpaceX launches in memory, on a loopback
/// port that no input uses (each input is executed in process, as `POST /graphql` would).
private let server: LaunchServer = {
    let started = Box<LaunchServer>()
    let done = DispatchSemaphore(value: 0)
    Task {
        started.value = try? await LaunchServer.start()
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

/// The exchange between an input and the task that executes it, in a global that lives as long as
/// the run: the caller puts the body in, the task puts the response in and signals, the caller
/// takes it out. The task's closure captures nothing.
///
/// Not a box captured by the task: the task lets go of its captures after it signals, on another
/// thread, while libFuzzer's leak check (after each input that allocated more than it freed) may
/// already be looking; an object half-released there reads as leaked (seen once in CI under load:
/// the response's bytes, "direct leak of 65 bytes").
private final class Exchange: @unchecked Sendable {
    /// Signalled by the task once ``response`` is set; the semaphore orders the accesses.
    let done = DispatchSemaphore(value: 0)
    var body = Data()
    var response: Data?
}

private let exchange = Exchange()

/// One input: a request body. Executing it gives a JSON response, with `data` or `errors`,
/// whatever the body holds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestBody(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    _ = server  // started here, on the caller's thread, before the first task
    exchange.body = Data(bytes: start, count: count)
    Task {
        exchange.response = await server.executeGraphQL(body: exchange.body)
        exchange.done.signal()
    }
    exchange.done.wait()
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
