import GatewayTesting
import Testing
import UpstreamKit

@testable import Gateway

@Suite("An upstream definition's own actions")
struct DefinedActionTests {
    /// Signs every request that requires authentication, as a team's action might.
    private struct Signature: UpstreamAction {
        func prepare(_ request: inout TransportRequest) async throws(UpstreamError) {
            guard request.requiresAuthentication else { return }
            request.headers.set("X-Signature", "signed:" + request.target)
        }
    }

    @Test("run on every call, after the configured ones")
    func signed() async throws {
        let signed = UpstreamDefinition(name: "signed", defaultBaseURL: "http://127.0.0.1:9", actions: { [Signature()] })
        let endpoint = Endpoint("/v1/thing", summary: "x", upstreams: [signed], example: ["id": 1]) { call in
            try await call.upstream(signed).get("things", "1", as: [String: Int].self)
        }
        let stub = try StubUpstream()
        defer { stub.shutdown() }
        stub.answer("/things/1", json: #"{"id":1}"#)
        let gateway = try GatewayUnderTest(
            catalog: GatewayCatalog(upstreams: [signed], endpoints: [endpoint]),
            environment: ["UPSTREAM_SIGNED_URL": stub.baseURL, "UPSTREAM_SIGNED_BEARER_TOKEN": "tok"])
        let response = try await gateway.get("/v1/thing")
        await gateway.stop()
        #expect(response.text == #"{"id":1}"#)
        let sent = try #require(stub.received.first)
        #expect(sent.headers["X-Signature"] == "signed:/things/1")
        #expect(sent.headers["Authorization"] == "Bearer tok")
    }
}
