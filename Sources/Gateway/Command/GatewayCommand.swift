import Foundation
import HTTPServerCore

/// The `gateway` executable: parses its arguments, loads the configuration, and serves.
public enum GatewayCommand {
    /// Exit status for a configuration or usage error.
    static let configurationErrorStatus: Int32 = 2

    /// Runs the command: prints help, or serves (with `--demo`, against fixture upstreams it
    /// starts itself) until SIGTERM or SIGINT.
    ///
    /// - Parameters:
    ///   - arguments: the command-line arguments without the program name.
    ///   - environment: the variables the configuration is read from (`gateway --help` lists them).
    /// - Returns: the process's exit status: 0 after a clean shutdown, 2 for a configuration or
    ///   usage error, 1 when it cannot listen or start.
    public static func run(arguments: [String], environment: [String: String]) async -> Int32 {
        MallocTuning.apply()
        // Twice: what loading and library initialisers touched, before setting up adds to it, and
        // what setting up touched, once the gateway is ready.
        StartupPages.release()
        var catalog = GatewayCatalog.builtIn
        var isDemo = false
        for argument in arguments {
            switch argument {
            case "--help", "-h":
                FileHandle.standardOutput.write(Data(GatewayConfiguration.helpText(upstreams: catalog.upstreams).utf8))
                return 0
            case "--demo":
                isDemo = true
            default:
                write("gateway: unknown argument \(argument.debugDescription); see gateway --help", to: .standardError)
                return configurationErrorStatus
            }
        }
        var environment = environment
        var demo: DemoUpstreams?
        if isDemo {
            do {
                let upstreams = try DemoUpstreams()
                environment.merge(upstreams.environment) { _, demoValue in demoValue }
                demo = upstreams
            } catch {
                write("gateway: cannot start the demo upstreams: \(error)", to: .standardError)
                return 1
            }
        }
        // The file's upstreams join the catalog before the configuration is read, so every
        // UPSTREAM_{NAME}_* variable applies to them too.
        if let path = environment[ConfigurationVariable.endpointsFile.name], !path.isEmpty {
            do {
                catalog = catalog.adding(try EndpointsFile.load(path: path, alongside: catalog))
            } catch {
                write(error.description, to: .standardError)
                return configurationErrorStatus
            }
        }
        let configuration: GatewayConfiguration
        do {
            configuration = try GatewayConfiguration(environment: environment, upstreams: catalog.upstreams)
        } catch {
            write(error.description, to: .standardError)
            return configurationErrorStatus
        }
        let logOutput = LogOutput()
        defer { logOutput.close() }
        let gateway: Gateway
        do {
            gateway = try Gateway(configuration: configuration, catalog: catalog, logOutput: logOutput, transport: UpstreamTransports(for: configuration).make)
        } catch {
            // The configuration loader validates tokens and headers, so this is a safety net; the
            // reason is a fixed phrase, never the value.
            write("configuration error: an upstream's token or headers cannot be sent (\(error))", to: .standardError)
            return configurationErrorStatus
        }
        let server: GatewayServer
        do {
            server = try GatewayServer(gateway: gateway)
        } catch {
            write("gateway: cannot listen on \(configuration.host):\(configuration.port): \(error)", to: .standardError)
            return 1
        }
        if let demo {
            write(demo.banner(gatewayPort: server.port), to: .standardOutput)
        } else {
            write("gateway listening on http://\(configuration.host):\(server.port)", to: .standardOutput)
        }
        StartupPages.release()
        do {
            try await server.runUntilSignalled()
        } catch {
            write("gateway: cannot handle SIGTERM and SIGINT: \(error)", to: .standardError)
            return 1
        }
        demo?.shutdown()
        return 0
    }

    /// One line, written at once (unbuffered, so it shows before serving starts).
    private static func write(_ line: String, to handle: FileHandle) {
        handle.write(Data((line + "\n").utf8))
    }
}
