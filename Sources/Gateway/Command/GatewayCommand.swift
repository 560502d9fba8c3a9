import Foundation

/// A gateway's command line: parses its arguments, loads the configuration, and serves a
/// catalog until SIGTERM or SIGINT, with the operations routes (`/healthz`, `/readyz`,
/// `/metrics`, `/`, `/openapi.json`), metrics, access log and draining shutdown.
///
/// A team's executable is one call:
///
/// ```swift
/// let catalog = GatewayCatalog(upstreams: [.weather], endpoints: [.forecast])
/// Task.detached {
///     exit(await GatewayCommand.run(arguments: Array(CommandLine.arguments.dropFirst()),
///                                   environment: ProcessInfo.processInfo.environment, catalog: catalog))
/// }
/// ```
public enum GatewayCommand {
    /// Runs the command: prints help, or serves (with `--demo`, against the fixtures `demo`
    /// starts) until SIGTERM or SIGINT.
    ///
    /// - Parameters:
    ///   - arguments: the command-line arguments without the program name.
    ///   - environment: the variables the configuration is read from (`--help` lists them).
    ///   - catalog: the upstreams and endpoints to serve, with those of `GATEWAY_ENDPOINTS_FILE`
    ///     after them; checked before anything starts.
    ///   - demo: starts the fixtures `--demo` serves; without it `--demo` is not offered.
    ///   - whenListening: called once the gateway listens, before it serves its first request.
    /// - Returns: the process's exit status: 0 after a clean shutdown, 2 for a configuration,
    ///   catalog or usage error, 1 when it cannot listen or start.
    public static func run(
        arguments: [String], environment: [String: String], catalog: GatewayCatalog,
        demo: (@Sendable () throws -> any DemoFixtures)? = nil,
        whenListening: @Sendable () -> Void = {}
    ) async -> Int32 {
        var isDemo = false
        for argument in arguments {
            switch argument {
            case "--help", "-h":
                FileHandle.standardOutput.write(Data(GatewayConfiguration.helpText(upstreams: catalog.upstreams, hasDemo: demo != nil).utf8))
                return 0
            case "--demo" where demo != nil:
                isDemo = true
            default:
                write("gateway: unknown argument \(argument.debugDescription); see gateway --help", to: .standardError)
                return GatewayStartupError.configurationErrorStatus
            }
        }
        var environment = environment
        var fixtures: (any DemoFixtures)?
        if isDemo, let demo {
            do {
                let started = try demo()
                environment.merge(started.environment) { _, demoValue in demoValue }
                // A demo is stopped by hand, with no load balancer to warn first.
                let delay = ConfigurationVariable.shutdownDelay.name
                if environment[delay] == nil { environment[delay] = "0" }
                fixtures = started
            } catch {
                write("gateway: cannot start the demo upstreams: \(error)", to: .standardError)
                return 1
            }
        }
        defer { fixtures?.shutdown() }
        // The file's upstreams join the catalog before the configuration is read, so every
        // UPSTREAM_{NAME}_* variable applies to them too.
        var catalog = catalog
        if let path = environment[ConfigurationVariable.endpointsFile.name], !path.isEmpty {
            do {
                catalog = catalog.adding(try EndpointsFile.load(path: path, alongside: catalog))
            } catch {
                write(error.description, to: .standardError)
                return GatewayStartupError.configurationErrorStatus
            }
        }
        let logOutput = LogOutput()
        defer { logOutput.close() }
        let server: GatewayServer
        do {
            server = try GatewayServer(catalog: catalog, environment: environment, logOutput: logOutput)
        } catch {
            write(error.description, to: .standardError)
            return error.exitStatus
        }
        let scheme = server.gateway.configuration.tls == nil ? "http" : "https"
        if let fixtures {
            write(fixtures.banner(gatewayURL: "\(scheme)://127.0.0.1:\(server.port)"), to: .standardOutput)
        } else {
            write("gateway listening on \(scheme)://\(server.gateway.configuration.host):\(server.port)", to: .standardOutput)
        }
        whenListening()
        do {
            try await server.runUntilSignalled()
        } catch {
            write("gateway: cannot handle SIGTERM and SIGINT: \(error)", to: .standardError)
            return 1
        }
        return 0
    }

    /// One line, written at once (unbuffered, so it shows before serving starts).
    private static func write(_ line: String, to handle: FileHandle) {
        handle.write(Data((line + "\n").utf8))
    }
}
