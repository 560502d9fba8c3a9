import Gateway

/// Starts a `GatewayUnderTest` for `catalog`, configured from `environment` (`HOST` and `PORT`
/// are set to 127.0.0.1 and 0, and no logs are written), runs `body` with it, and stops it
/// however `body` ends.
///
/// ```swift
/// try await withGateway(catalog: catalog, environment: ["UPSTREAM_WEATHER_URL": weather.baseURL]) { gateway in
///     let response = try await gateway.get("/v1/forecast/oslo")
///     #expect(response.status == 200)
/// }
/// ```
///
/// - Throws: `GatewayStartupError` for a catalog or configuration mistake, with the line the
///   command would print, or whatever `body` throws.
public func withGateway<Result>(
    catalog: GatewayCatalog, environment: [String: String] = [:], _ body: (GatewayUnderTest) async throws -> Result
) async throws -> Result {
    try await withGateway(catalog: catalog, environment: environment, logDescriptor: nil, body)
}

/// `withGateway(catalog:environment:_:)` with the gateway's log lines written to `logDescriptor`
/// (such as a `LogCapture`'s), which must stay open until this returns.
package func withGateway<Result>(
    catalog: GatewayCatalog, environment: [String: String], logDescriptor: Int32?, _ body: (GatewayUnderTest) async throws -> Result
) async throws -> Result {
    let gateway = try GatewayUnderTest(catalog: catalog, environment: environment, logDescriptor: logDescriptor)
    let result: Result
    do {
        result = try await body(gateway)
    } catch {
        await gateway.stop()
        throw error
    }
    await gateway.stop()
    return result
}
