/// The configured upstreams by name, shared by every request.
struct UpstreamRegistry: Sendable {
    private let upstreams: [String: ConfiguredUpstream]

    init(_ upstreams: [ConfiguredUpstream]) {
        self.upstreams = Dictionary(upstreams.map { ($0.configuration.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    subscript(name: String) -> ConfiguredUpstream? { upstreams[name] }

    /// In name order, for metrics and readiness.
    var all: [ConfiguredUpstream] { upstreams.values.sorted { $0.configuration.name < $1.configuration.name } }
}
