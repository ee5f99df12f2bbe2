extension LaunchServer {
    /// Starts a server, runs `body` with it, and stops the server whatever
    /// happens (a return, a thrown error).
    ///
    /// ```swift
    /// let count = try await LaunchServer.withRunning { server in
    ///     try await countLaunches(at: server.graphQLURL)
    /// }
    /// ```
    /// - Parameters:
    ///   - configuration: the server's configuration.
    ///   - isolation: the actor `body` runs on; the caller's by default.
    ///   - body: what to do while the server runs.
    /// - Returns: what `body` returns.
    /// - Throws: ``LaunchServerError`` if the server cannot start, or what
    ///   `body` throws (after the server has stopped).
    public static func withRunning<T>(
        _ configuration: LaunchServerConfiguration = LaunchServerConfiguration(),
        isolation: isolated (any Actor)? = #isolation,
        _ body: (LaunchServer) async throws -> T
    ) async throws -> T {
        let server = try await start(configuration)
        do {
            let value = try await body(server)
            await server.stop()
            return value
        } catch {
            await server.stop()
            throw error
        }
    }
}
