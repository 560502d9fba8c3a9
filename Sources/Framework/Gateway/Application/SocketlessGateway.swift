import HTTP1Server
import HTTPBasics
import UpstreamKit

/// A gateway that answers requests handed to it in the calling process, with no socket on either
/// side: each upstream's calls go to the transport its caller gives for that upstream's name. For
/// `GatewayTesting`'s socketless mode, where tests run in parallel and nothing waits on a port.
///
/// Everything between the request and the answer is the gateway's own: routes, checks, the
/// action chains, retries, the breaker, the cache. What a socket adds is not: the server's head
/// limits, framing (`Content-Length`, `Date`) and connection handling.
package final class SocketlessGateway: Sendable {
    /// The gateway answering; `package` so that our own tests can look inside.
    package let gateway: Gateway
    private let logOutput: LogOutput?

    /// Checks the catalog and reads the configuration from `environment` exactly as the command
    /// does, then sets up each upstream on the transport `transports` holds under its name. The
    /// paths those transports see are the ones under the upstream's base URL (`/current/oslo`, not
    /// `/api/current/oslo`), as a stub at the base URL's root would see them. An upstream without
    /// a transport fails every call as a refused connection.
    ///
    /// - Parameter logDescriptor: where access and event log lines go; none are written when nil.
    ///   It must stay open until `stop()` returns.
    /// - Throws: the error the command would print for a catalog or configuration mistake, and one
    ///   naming a key of `transports` that is no upstream's name.
    package init(
        catalog: GatewayCatalog, environment: [String: String], transports: [String: any Transport], logDescriptor: Int32? = nil
    ) throws(GatewayStartupError) {
        let logOutput = logDescriptor.map { LogOutput(descriptor: $0) }
        do throws(GatewayStartupError) {
            let reading = try ConfigurationSource(catalog: catalog, catalogSwitch: nil, environment: environment).read()
            let names = reading.configuration.upstreams.map(\.name)
            if let unknown = transports.keys.sorted().first(where: { !names.contains($0) }) {
                throw .configuration("no upstream named \(unknown) to stub (upstreams: \(names.joined(separator: ", ")))")
            }
            gateway = try Gateway(reading: reading, logOutput: logOutput) { upstream in
                Self.rooted(transports[upstream.name] ?? Self.refusing(upstream.name), under: upstream.baseURL.pathPrefix)
            }
        } catch {
            logOutput?.close()
            throw error
        }
        self.logOutput = logOutput
    }

    /// The gateway's answer to `request`, with the fields the server adds to every answer.
    package func respond(to request: HTTPRequest) async -> HTTPResponse {
        var response = await gateway.responder.respond(to: request)
        for field in GatewayServer.commonResponseFields where !response.headers.contains(field.name) {
            response.headers.add(field.name, field.value)
        }
        return response
    }

    /// Flushes the log.
    package func stop() async {
        gateway.status.beginShutdown()
        logOutput?.close()
    }

    /// `transport` seeing targets with the base URL's path prefix taken off.
    private static func rooted(_ transport: any Transport, under prefix: String) -> any Transport {
        guard !prefix.isEmpty else { return transport }
        return ClosureTransport { request throws(UpstreamError) in
            var request = request
            if request.target.hasPrefix(prefix) {
                let rest = request.target.dropFirst(prefix.count)
                request.target = rest.first == "/" ? String(rest) : "/" + rest
            }
            return try await transport.send(request)
        }
    }

    /// A transport for an upstream no stub answers: every call a refused connection.
    private static func refusing(_ name: String) -> any Transport {
        ClosureTransport { _ throws(UpstreamError) in
            throw .connectionFailed(reason: "no stub answers upstream \(name)")
        }
    }
}
