import Dispatch
import Foundation
import HTTP1Server
import ProcessTuning

/// A gateway's command line: parses its arguments, loads the configuration, and serves a
/// catalog until SIGTERM or SIGINT (SIGHUP reloads the endpoints file), with the operations routes (`/healthz`, `/readyz`,
/// `/metrics`, `/`, `/openapi.json`), metrics, access log and draining shutdown.
///
/// A team's executable is one call, its `main.swift`:
///
/// ```swift
/// import Gateway
///
/// GatewayCommand.main(catalog: GatewayCatalog(upstreams: [.weather], endpoints: [.forecast]))
/// ```
public enum GatewayCommand {
    /// Runs the gateway process and ends it: reads `CommandLine.arguments` and the process's
    /// environment, then prints help (`--help`), checks the configuration (`--check`), or serves
    /// (with `--demo`, against the fixtures `demo` starts) until SIGTERM or SIGINT. The process
    /// exits 0 after a clean shutdown or check, 2 for a configuration, catalog or usage error, 1
    /// when it cannot listen or start.
    ///
    /// It also sets up the process as any gateway wants it, whatever its catalog: the allocator
    /// gives large blocks back to the system when they are freed (`MallocTuning`), so a burst of
    /// large upstream bodies does not leave every event loop's arena megabytes larger for good;
    /// and the pages only start-up ran (the loader, library initialisers, TLS and configuration
    /// set-up) are given back before and once the gateway listens (`StartupPages`), so they do
    /// not stay in its resident set. Neither changes what the gateway answers.
    ///
    /// - Parameters:
    ///   - catalog: the upstreams and endpoints to serve, with those of `GATEWAY_ENDPOINTS_FILE`
    ///     after them; checked before anything starts.
    ///   - catalogSwitch: the variable that turns `catalog`'s routes off, when the operator may.
    ///   - demo: starts the fixtures `--demo` serves; without it `--demo` is not offered.
    public static func main(
        catalog: GatewayCatalog, catalogSwitch: CatalogSwitch? = nil, demo: (@Sendable () throws -> any DemoFixtures)? = nil
    ) -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let environment = ProcessInfo.processInfo.environment
        MallocTuning.apply()
        // Twice: what loading and library initialisers touched, before setting up adds to it, and
        // what setting up touched, once the gateway is ready.
        StartupPages.release()
        Task.detached {
            let status = await run(
                arguments: arguments, environment: environment, catalog: catalog, catalogSwitch: catalogSwitch, demo: demo,
                whenListening: { StartupPages.release() }, write: write(_:isError:))
            exit(status)
        }
        // Not `dispatchMain()`, nor an async main (which parks there too): libdispatch's main-queue
        // wait (`_dispatch_sig_thread`, in sigsuspend) crashes valgrind 3.19, so a gateway could
        // not be profiled with callgrind. Nothing here uses the main queue; the command runs in a
        // task that ends the process, and the main thread only waits.
        let neverSignalled = DispatchSemaphore(value: 0)
        while true { neverSignalled.wait() }
    }

    /// The command with `catalog` and no switch or demo, for the tests: its exit status instead
    /// of ending the process.
    static func run(arguments: [String], environment: [String: String], catalog: GatewayCatalog) async -> Int32 {
        await run(
            arguments: arguments, environment: environment, catalog: catalog, catalogSwitch: nil, demo: nil, whenListening: {},
            write: write(_:isError:))
    }

    /// The command, writing its lines with `write` (standard output, or standard error when the
    /// flag is set).
    static func run(
        arguments: [String], environment: [String: String], catalog: GatewayCatalog, catalogSwitch: CatalogSwitch?,
        demo: (@Sendable () throws -> any DemoFixtures)?, whenListening: @Sendable () -> Void,
        write: (_ line: String, _ isError: Bool) -> Void
    ) async -> Int32 {
        if arguments.first == "--jmespath" {
            let legacy = arguments.count == 3 && arguments[2] == "--legacy-literals"
            guard arguments.count == 2 || legacy else {
                write("gateway: --jmespath takes one expression (then, optionally, --legacy-literals) and reads the document from standard input", true)
                return GatewayStartupError.configurationErrorStatus
            }
            let input = FileHandle.standardInput.readDataToEndOfFile()
            let (line, isError) = JMESPathCommand.evaluate(arguments[1], on: [UInt8](input), allowsLegacyLiterals: legacy)
            write(line, isError)
            return isError ? 1 : 0
        }
        var isDemo = false, isCheck = false
        for argument in arguments {
            switch argument {
            case "--help", "-h":
                // The file's upstreams are listed too; a file that cannot be read is said after the text.
                var upstreams = catalog.availableUpstreams, problem: String?
                do {
                    upstreams = try self.catalog(catalog, switch: catalogSwitch, environment: environment).catalog.availableUpstreams
                } catch {
                    problem = error.description
                }
                write(GatewayConfiguration.helpText(upstreams: upstreams, switch: catalogSwitch, hasDemo: demo != nil), false)
                if let problem { write(problem, true) }
                return 0
            case "--check":
                isCheck = true
            case "--demo" where demo != nil:
                isDemo = true
            default:
                write("gateway: unknown argument \(argument.debugDescription); see gateway --help", true)
                return GatewayStartupError.configurationErrorStatus
            }
        }
        if isCheck {
            guard !isDemo else {
                write("gateway: --check reads the configuration without serving; it does not go with --demo", true)
                return GatewayStartupError.configurationErrorStatus
            }
            return check(catalog, switch: catalogSwitch, environment: environment, write: write)
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
                write("gateway: cannot start the demo upstreams: \(error)", true)
                return 1
            }
        }
        defer { fixtures?.shutdown() }
        let service: GatewayService
        do {
            service = try GatewayService(catalog: catalog, catalogSwitch: catalogSwitch, environment: environment, logOutput: LogOutput())
        } catch {
            write(error.description, true)
            return error.exitStatus
        }
        // A provider that answers and does not take the client's authentication method is a configuration
        // error; one that does not answer (within OIDC_TIMEOUT_MS) is not: the sign-in answers 502 until it does.
        if let refusal = await service.gateway.signIn?.provider.startupRefusal() {
            write(refusal, true)
            service.stop()
            await service.run()
            return GatewayStartupError.configurationErrorStatus
        }
        // Caught before the gateway says it listens: a SIGTERM sent as soon as it does drains.
        let signals: ShutdownSignalHandler
        do {
            signals = try service.server.handleSignals()
        } catch {
            write("gateway: cannot handle SIGTERM, SIGINT and SIGHUP: \(error)", true)
            // Closes the listener and flushes the log, serving nothing.
            service.stop()
            await service.run()
            return 1
        }
        let scheme = service.gateway.configuration.tls == nil ? "http" : "https"
        if let fixtures {
            write(fixtures.banner(gatewayURL: "\(scheme)://127.0.0.1:\(service.port)"), false)
        } else {
            write("gateway listening on \(scheme)://\(service.gateway.configuration.host):\(service.port)", false)
        }
        whenListening()
        await service.run(until: signals)
        return 0
    }

    /// `--check`: everything start-up reads, without binding or serving, then a summary.
    private static func check(
        _ catalog: GatewayCatalog, switch catalogSwitch: CatalogSwitch?, environment: [String: String],
        write: (_ line: String, _ isError: Bool) -> Void
    ) -> Int32 {
        do {
            // What start-up and every reload read, with the same checks.
            let reading = try ConfigurationSource(catalog: catalog, catalogSwitch: catalogSwitch, environment: environment).read()
            let summary = ConfigurationSummary(
                catalog: reading.catalog, fileUpstreams: Set(reading.fileUpstreams), environment: environment,
                checksTokens: reading.configuration.authentication != nil, signsIn: reading.configuration.browserSignIn != nil,
                defaultRateLimit: reading.configuration.rateLimits.defaultPolicy,
                variables: ConfigurationVariable.server + ConfigurationVariable.proxies + [catalogSwitch?.configurationVariable].compactMap { $0 })
            write(summary.lines.joined(separator: "\n"), false)
            return 0
        } catch {
            write(error.description, true)
            return error.exitStatus
        }
    }

    /// The catalog served: `catalog` as its switch leaves it, then the endpoints file's routes and
    /// upstreams, which join it before the configuration is read so that every
    /// UPSTREAM_{NAME}_* variable applies to them too.
    static func catalog(
        _ catalog: GatewayCatalog, switch catalogSwitch: CatalogSwitch?, environment: [String: String]
    ) throws(GatewayStartupError) -> (catalog: GatewayCatalog, file: EndpointsFile?) {
        var catalog = catalog
        if let catalogSwitch {
            do {
                catalog = try catalogSwitch.apply(to: catalog, environment: environment)
            } catch {
                throw .configuration(error.description)
            }
        }
        guard let path = environment[ConfigurationVariable.endpointsFile.name], !path.isEmpty else { return (catalog, nil) }
        do {
            let file = try EndpointsFile.load(path: path, alongside: catalog)
            return (catalog.adding(file), file)
        } catch {
            throw .configuration(error.description)
        }
    }

    /// One line, written at once (unbuffered, so it shows before serving starts), to standard
    /// error when `isError`.
    private static func write(_ line: String, isError: Bool) {
        (isError ? FileHandle.standardError : FileHandle.standardOutput).write(Data((line + "\n").utf8))
    }
}
