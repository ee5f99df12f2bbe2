public import ArgumentParser

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `paging` command: the demo, a browser for any connection, export, and the launch server.
///
/// ```sh
/// paging demo                      # the Apollo tutorial's launch list, in the terminal
/// paging fetch --endpoint URL --query FILE > nodes.jsonl
/// paging browse --endpoint URL --query FILE --fields name,owner.login
/// paging serve --port 8080
/// paging schema --endpoint URL -o schema.graphqls
/// paging codegen --schema schema.graphqls --operations 'GraphQL/*.graphql' --output Generated
/// ```
///
/// Exit codes: 0 done, 1 failed, 2 bad arguments, 130 interrupted.
public struct PagingCommand: AsyncParsableCommand {
    /// The command's name, summary and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "paging",
        abstract: "Page through long lists: a live demo, any GraphQL connection, and export.",
        discussion: """
            Exit codes: 0 done, 1 failed, 2 bad arguments, 130 interrupted (Ctrl-C).
            """,
        subcommands: [
            DemoCommand.self, BrowseCommand.self, FetchCommand.self, ServeCommand.self, SchemaCommand.self,
            CodegenCommand.self,
        ]
    )

    /// Creates the command (argument parsing fills it in).
    public init() {}

    /// Runs the command line of the process and exits with its status: 0 done, 1 failed,
    /// 2 bad arguments (ArgumentParser's own `main()` would exit 64 for those), 130 interrupted.
    public static func runAndExit() async -> Never {
        let status = await execute(Array(CommandLine.arguments.dropFirst()))
        #if canImport(Glibc)
            Glibc.exit(status)
        #else
            Darwin.exit(status)
        #endif
    }

    /// Parses and runs a command line, printing to ``CommandIO/current``.
    /// - Parameter arguments: the arguments, without the program name.
    /// - Returns: the exit status: 0 done, 1 failed, 2 bad arguments, 130 interrupted.
    static func execute(_ arguments: [String]) async -> Int32 {
        let io = CommandIO.current
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return ExitStatus.success
        } catch let error as CLIError {
            io.standardError.line("paging: \(error.message)")
            return error.exitCode
        } catch let error as ExitCode {
            return error.rawValue
        } catch {
            let message = fullMessage(for: error)
            let code = exitCode(for: error)
            if code == .success {
                if !message.isEmpty { io.standardOutput.line(message) }
                return ExitStatus.success
            }
            io.standardError.line(message)
            // Every error the parser reports is a wrong command line.
            return ExitStatus.usage
        }
    }
}
