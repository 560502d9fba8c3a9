import Foundation
import NetworkRuntime

/// A `redis-server` of Debian's package on a free loopback port, started by a test and stopped
/// when it ends; nothing on disk (`--save ''`, `--appendonly no`). For the package's own tests of
/// the Redis client and of gateways sharing it.
package final class RedisServer: @unchecked Sendable {
    // `@unchecked Sendable`: `process` is replaced only by `start`/`stop`, which one test calls
    // in sequence; no two tasks touch it at once.
    /// The port it listens on; the same after a restart.
    package let port: Int
    private let arguments: [String]
    private var process: Process?

    /// Where Debian installs it.
    package static let executable = "/usr/bin/redis-server"

    /// Whether the package is installed; tests that need it are skipped with a message otherwise.
    package static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: executable) }

    /// Starts a server with `extraArguments` (such as `--requirepass`), waiting until it says it
    /// is ready. With `tls`, the port speaks TLS only, presenting that certificate and key.
    package init(tls: (certificateFile: String, keyFile: String)? = nil, extraArguments: [String] = []) throws {
        port = try Self.freePort()
        var arguments = ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no", "--loglevel", "notice"]
        if let tls {
            arguments += [
                "--port", "0", "--tls-port", String(port), "--tls-cert-file", tls.certificateFile, "--tls-key-file", tls.keyFile,
                "--tls-auth-clients", "no",
            ]
        } else {
            arguments += ["--port", String(port)]
        }
        self.arguments = arguments + extraArguments
        try start()
    }

    deinit {
        stop()
    }

    /// Starts the server again on the same port after `stop()`.
    package func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        self.process = process
        // Ready when it says so: no polling, no sleeping.
        var seen = Data()
        let ready = Data("Ready to accept connections".utf8)
        while seen.range(of: ready) == nil {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw StartFailure(output: String(decoding: seen, as: UTF8.self)) }
            seen.append(chunk)
        }
        // Keep draining its output so that it never blocks on a full pipe.
        output.fileHandleForReading.readabilityHandler = { handle in _ = handle.availableData }
    }

    /// Kills the server (SIGKILL: like a crash, nothing said to clients) and waits for it to exit.
    package func stop() {
        guard let process else { return }
        self.process = nil
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    package struct StartFailure: Error, CustomStringConvertible {
        package let output: String
        package var description: String { "redis-server did not start: \(output)" }
    }

    /// A port nothing listens on: bound on port 0, read, released.
    private static func freePort() throws -> Int {
        let socket = try ListeningSocket(address: SocketAddress(host: "127.0.0.1", port: 0))
        defer { socket.close() }
        return socket.port
    }
}
