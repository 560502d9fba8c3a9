import Gateway

/// Starts a `GatewayUnderTest` for `catalog`, configured from `environment` (`HOST` and `PORT`
/// are set to 127.0.0.1 and 0), runs `body` with it, and stops it however `body` ends. Its log
/// lines go to `log` when given, else nowhere.
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
    catalog: GatewayCatalog, environment: [String: String] = [:], log: LogCapture? = nil, _ body: (GatewayUnderTest) async throws -> Result
) async throws -> Result {
    try await running(GatewayUnderTest(catalog: catalog, environment: environment, log: log), body)
}

/// Starts a `GatewayUnderTest` for `catalog` without a socket, each upstream named in `upstreams`
/// answered by its in-process stub and the rest configured from `environment`, runs `body` with
/// it, and stops it however `body` ends. Its log lines go to `log` when given, else nowhere.
/// Tests using it share no port and may run in parallel.
///
/// ```swift
/// let weather = StubUpstream.inProcess()
/// weather.answer("/current/oslo", json: #"{"city":"oslo","temperature":3.5,"conditions":"snow"}"#)
/// try await withGateway(catalog: catalog, upstreams: ["weather": weather]) { gateway in
///     let response = try await gateway.get("/v1/forecast/oslo")
///     #expect(response.status == 200)
/// }
/// ```
///
/// - Throws: `GatewayStartupError` for a catalog or configuration mistake, with the line the
///   command would print, or for a name in `upstreams` that is no upstream's; or whatever `body` throws.
public func withGateway<Result>(
    catalog: GatewayCatalog, upstreams: [String: StubUpstream], environment: [String: String] = [:], log: LogCapture? = nil,
    _ body: (GatewayUnderTest) async throws -> Result
) async throws -> Result {
    try await running(GatewayUnderTest(catalog: catalog, upstreams: upstreams, environment: environment, log: log), body)
}

/// Runs `body` with `gateway`, then stops it however `body` ends.
private func running<Result>(_ gateway: GatewayUnderTest, _ body: (GatewayUnderTest) async throws -> Result) async throws -> Result {
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
