import HTTPBasics
import HTTPServerCore
import NetworkRuntime
import Upstream

@testable import Gateway
@testable import ReferenceScenario

/// A gateway built in-process from an environment, in front of stub upstreams; requests go
/// straight to its responder, upstream calls over real loopback sockets.
struct TestGateway {
    let stubs: StubUpstreams
    let gateway: Gateway

    /// - Parameter upstreamTLS: the stub upstreams serve HTTPS with it when given.
    init(
        environment: [String: String] = [:], catalog: GatewayCatalog = .reference, logOutput: LogOutput? = nil,
        upstreamTLS: TLSContext? = nil
    ) throws {
        stubs = try StubUpstreams(tls: upstreamTLS)
        let configuration = try GatewayConfiguration(
            environment: stubs.environment.merging(environment) { _, test in test }, upstreams: catalog.upstreams)
        gateway = try Gateway(configuration: configuration, catalog: catalog, logOutput: logOutput, transport: UpstreamTransports(for: configuration).make)
    }

    func get(_ target: String, headers: HTTPHeaders = [:]) async -> HTTPResponse {
        await gateway.responder.respond(to: HTTPRequest(method: .get, target: target, headers: headers))
    }

    func shutdown() {
        stubs.shutdown()
    }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
}
