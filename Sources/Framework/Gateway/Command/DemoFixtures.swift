/// Fixture upstreams that `--demo` serves in the gateway's own process, so the gateway can be
/// tried without the real upstreams: a gateway offers `--demo` by passing them to
/// `GatewayCommand.main(catalog:catalogSwitch:demo:)` (the shipped `gateway`'s are in
/// `ReferenceScenario`).
public protocol DemoFixtures: Sendable {
    /// The variables that point the gateway at the fixtures, such as `UPSTREAM_MENU_URL`;
    /// they take precedence over the process's environment.
    var environment: [String: String] { get }

    /// What `--demo` prints once the gateway listens at `gatewayURL` (such as
    /// `http://127.0.0.1:8080`, `https://` when it serves TLS): where, and what to try.
    func banner(gatewayURL: String) -> String

    /// Stops serving the fixtures; called after the gateway has drained.
    func shutdown()
}
