// swift-tools-version:6.2
import PackageDescription

/// Every target's settings. The shipped binary's release tuning (cross-module optimisation, the
/// linker and its function order) lives in scripts/build-release, not here: SwiftPM refuses unsafe
/// flags in a package that others depend on by version, and a debug build needs none of it.
let strict: [SwiftSetting] = [
    .treatAllWarnings(as: .error),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
    // Layering the compiler checks: an import is internal unless a public signature needs it (`public import`),
    // a file sees only the members of modules it imports itself, and an existential says `any`.
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "swift-bff-gateway",
    products: [
        .executable(name: "gateway", targets: ["GatewayMain"]),
        // What a team uses: the framework it builds its gateway on (`import Gateway` is all it writes: Gateway
        // re-exports the few types of the modules below that its API hands out), and the stub upstreams and
        // in-process gateway its tests run against.
        .library(name: "Gateway", targets: ["Gateway"]),
        .library(name: "GatewayTesting", targets: ["GatewayTesting"]),
        // Typed upstream requests without the gateway, for an app (a worker, a command-line tool, another
        // service) that calls the same upstreams and shares their `Request`s with it, over URLSession.
        // The other modules are layers of the gateway, not promises: no product, so they may change freely.
        .library(name: "UpstreamKit", targets: ["UpstreamKit"]),
        .library(name: "FoundationTransport", targets: ["FoundationTransport"]),
    ],
    targets: [
        // Glibc does not export epoll, eventfd or timerfd; this module only exposes those system headers.
        .target(name: "CSystem", path: "Sources/C/CSystem"),
        // OpenSSL 3 (libssl-dev to build, libssl3 to run) for TLS in NetworkRuntime; the C file wraps the macros
        // Swift cannot call.
        .target(name: "COpenSSL", path: "Sources/C/COpenSSL", linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto")]),
        // zlib (zlib1g-dev to build, zlib1g to run) for content codings in HTTP1Server: a module map that links
        // libz, and a header whose inline functions wrap the macros Swift cannot call (why not a C file: CZlib.h).
        .systemLibrary(name: "CZlib", path: "Sources/C/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // The leaf every text codec shares: hexadecimal and decimal digits, percent-decoding, host[:port] text.
        .target(name: "ASCIISyntax", path: "Sources/Syntax/ASCIISyntax", swiftSettings: strict),
        // What the client, the server and `Upstream` share: header fields, methods, statuses, the response, body streams.
        .target(name: "HTTPBasics", dependencies: ["ASCIISyntax"], path: "Sources/Syntax/HTTPBasics", swiftSettings: strict),
        .target(name: "JSONCoding", dependencies: ["ASCIISyntax"], path: "Sources/Syntax/JSONCoding", swiftSettings: strict),
        // JMESPath (community edition): a compiler and evaluator of JSON queries over its own JSON values.
        .target(name: "JMESPath", dependencies: ["JSONCoding"], path: "Sources/Syntax/JMESPath", swiftSettings: strict),
        // Bearer tokens of the gateway's clients: compact JWS parsing, key sets, claim checks, and RS256, ES256 and EdDSA
        // signatures through OpenSSL 3; no I/O, so all of it is tested without a server.
        .target(name: "CallerIdentity", dependencies: ["COpenSSL", "JSONCoding"], path: "Sources/Identity/CallerIdentity", swiftSettings: strict),
        // Browser sessions (the backend-for-frontend sign-in): the pure policy of the return URL, the session cookie
        // and the authorization callback, PKCE (SHA-256 through OpenSSL), and the OpenID Connect client's messages
        // (discovery, token endpoint, ID token checks); no I/O.
        .target(name: "BrowserSession", dependencies: ["COpenSSL", "UpstreamKit", "CallerIdentity", "JSONCoding"], path: "Sources/Identity/BrowserSession", swiftSettings: strict),
        // The runtime: the epoll event loop, non-blocking sockets, TLS over OpenSSL and name resolution.
        .target(name: "NetworkRuntime", dependencies: ["CSystem", "COpenSSL"], path: "Sources/Runtime/NetworkRuntime", swiftSettings: strict),
        // The HTTP/1.1 wire codec: head parsers, the request head writer, the chunked decoder, content codings
        // (inflating and gzipping through zlib, Accept-Encoding), limits, parse errors; no I/O.
        .target(name: "HTTP1", dependencies: ["ASCIISyntax", "HTTPBasics", "CZlib"], path: "Sources/Syntax/HTTP1", swiftSettings: strict),
        // The HTTP/1.1 server with its router and response head writer, and the requests handlers see.
        .target(name: "HTTP1Server", dependencies: ["ASCIISyntax", "HTTPBasics", "HTTP1", "NetworkRuntime", "JSONCoding"], path: "Sources/Wire/HTTP1Server", swiftSettings: strict),
        // The pooled HTTP/1.1 client with its connection pool, dialer and proxies.
        .target(name: "HTTP1Client", dependencies: ["ASCIISyntax", "HTTPBasics", "HTTP1", "NetworkRuntime"], path: "Sources/Wire/HTTP1Client", swiftSettings: strict),
        // A Redis client of our own on the event loop: RESP framing, pipelining, `REDIS_URL`, health and back-off.
        .target(name: "RedisClient", dependencies: ["ASCIISyntax", "COpenSSL", "NetworkRuntime"], path: "Sources/Wire/RedisClient", swiftSettings: strict),
        .target(name: "UpstreamKit", dependencies: ["ASCIISyntax", "HTTPBasics", "JSONCoding"], path: "Sources/Upstream/UpstreamKit", swiftSettings: strict),
        // `Upstream`'s transport over HTTP1Client's pooled client: a library, so the benchmarks can use the gateway's own.
        .target(name: "HTTP1ClientTransport", dependencies: ["HTTPBasics", "NetworkRuntime", "HTTP1Client", "UpstreamKit"], path: "Sources/Upstream/HTTP1ClientTransport", swiftSettings: strict),
        // `Upstream`'s transport over URLSession, for apps that share `Upstream`; the gateway does not link it, so
        // its binary does not load FoundationNetworking and libcurl.
        .target(name: "FoundationTransport", dependencies: ["HTTPBasics", "UpstreamKit"], path: "Sources/Upstream/FoundationTransport", swiftSettings: strict),
        // The framework: upstreams, endpoints, configuration, operations routes and the command that serves them.
        .target(
            name: "Gateway",
            dependencies: [
                "ASCIISyntax", "HTTPBasics", "NetworkRuntime", "HTTP1Server", "HTTP1Client", "UpstreamKit", "JSONCoding", "HTTP1ClientTransport",
                "ProcessTuning", "CallerIdentity", "RedisClient", "COpenSSL", "JMESPath", "BrowserSession",
            ], path: "Sources/Framework/Gateway",
            swiftSettings: strict),
        // Stub upstreams and a gateway under test, over loopback sockets: a team's endpoint tests, and ours above the server.
        .target(name: "GatewayTesting", dependencies: ["Gateway", "HTTPBasics", "NetworkRuntime", "HTTP1Server", "HTTP1Client", "JSONCoding", "UpstreamKit"], path: "Sources/Framework/GatewayTesting", swiftSettings: strict),
        // The reference scenario (menu, people, deal) and its demo fixtures, on Gateway's public API (and, for
        // the benchmarks' DemoGateway, the package's InProcessGateway).
        .target(name: "ReferenceScenario", dependencies: ["Gateway", "HTTPBasics", "NetworkRuntime", "HTTP1Server", "UpstreamKit"], path: "Sources/Executables/ReferenceScenario", swiftSettings: strict),
        // What every gateway's process does at start-up (`GatewayCommand.main`): the allocator setting and giving
        // back start-up's pages.
        .target(name: "ProcessTuning", dependencies: ["ASCIISyntax", "CSystem"], path: "Sources/Runtime/ProcessTuning", swiftSettings: strict),
        .executableTarget(name: "GatewayMain", dependencies: ["Gateway", "ReferenceScenario"], path: "Sources/Executables/GatewayMain", swiftSettings: strict),
        // Release-mode benchmarks, from parts of the hot path to whole requests through the gateway in process: `swift run -c release Benchmarks --help`.
        .executableTarget(
            name: "Benchmarks",
            dependencies: [
                "HTTPBasics", "NetworkRuntime", "HTTP1", "HTTP1Server", "HTTP1Client", "UpstreamKit", "JSONCoding", "HTTP1ClientTransport",
                "FoundationTransport", "Gateway", "ReferenceScenario", "CZlib", "JMESPath",
            ], path: "Sources/Executables/Benchmarks",
            swiftSettings: strict),
        .testTarget(name: "RedisClientTests", dependencies: ["RedisClient", "NetworkRuntime", "GatewayTesting"], swiftSettings: strict),
        .testTarget(name: "ASCIISyntaxTests", dependencies: ["ASCIISyntax"], swiftSettings: strict),
        .testTarget(name: "HTTPBasicsTests", dependencies: ["HTTPBasics"], swiftSettings: strict),
        .testTarget(name: "BrowserSessionTests", dependencies: ["BrowserSession", "CallerIdentity", "COpenSSL"], swiftSettings: strict),
        .testTarget(name: "JSONCodingTests", dependencies: ["JSONCoding"], swiftSettings: strict),
        .testTarget(name: "JMESPathTests", dependencies: ["JMESPath"], exclude: ["Compliance"], swiftSettings: strict),
        // The verifier's unit tests and the gateway's end-to-end ones share the keys and tokens OpenSSL makes at test time.
        .testTarget(
            name: "CallerIdentityTests",
            dependencies: ["CallerIdentity", "COpenSSL", "Gateway", "GatewayTesting", "HTTPBasics", "HTTP1Server", "BrowserSession"],
            swiftSettings: strict),
        .testTarget(name: "HTTP1ServerTests", dependencies: ["ASCIISyntax", "NetworkRuntime", "HTTP1", "HTTP1Server", "HTTP1Client", "CZlib"], swiftSettings: strict),
        .testTarget(name: "UpstreamKitTests", dependencies: ["UpstreamKit", "FoundationTransport", "HTTP1Server"], swiftSettings: strict),
        .testTarget(
            name: "HTTP1ClientTransportTests",
            dependencies: ["HTTP1ClientTransport", "FoundationTransport", "GatewayTesting", "NetworkRuntime", "HTTP1Server", "UpstreamKit"],
            swiftSettings: strict),
        .testTarget(
            name: "GatewayTests",
            dependencies: [
                "ASCIISyntax", "Gateway", "GatewayTesting", "ReferenceScenario", "ProcessTuning", "NetworkRuntime", "HTTP1Server", "HTTP1Client", "UpstreamKit",
                "HTTP1",
            ],
            swiftSettings: strict),
    ],
    swiftLanguageModes: [.v6]
)
