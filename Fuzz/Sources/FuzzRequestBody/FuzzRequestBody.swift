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

/// One input: a request body. Executing it gives a JSON response, with `data` or `errors`,
/// whatever the body holds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestBody(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let body = Data(bytes: start, count: count)
    let response = Box<Data>()
    let done = DispatchSemaphore(value: 0)
    let server = server
    Task {
        response.value = await server.executeGraphQL(body: body)
        done.signal()
    }
    done.wait()
    guard let data = response.value,
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        object["data"] != nil || object["errors"] != nil
    else {
        fatalError("the server answered with something that is not a GraphQL response")
    }
    return 0
}
