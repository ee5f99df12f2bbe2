import Hummingbird
import NIOCore

/// The request context of the launch server: Hummingbird's core storage plus the connection's
/// channel, which fault injection closes to drop a connection.
struct LaunchRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        channel = source.channel
    }
}
