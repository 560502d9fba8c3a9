// swift-tools-version:6.2
import PackageDescription

// A gateway of its own, built on this repository's Gateway framework as any team would: one
// dependency line. Against a release instead of this checkout:
//     .package(url: "https://github.com/OWNER/swift-bff-gateway.git", from: "1.0.0")
let package = Package(
    name: "weather-gateway",
    products: [
        .executable(name: "weather-gateway", targets: ["WeatherGateway"])
    ],
    dependencies: [
        .package(name: "swift-bff-gateway", path: "../..")
    ],
    targets: [
        // The catalog (upstream, endpoint, models) in a library, so the tests can use it.
        .target(name: "Forecast", dependencies: [.product(name: "Gateway", package: "swift-bff-gateway")]),
        .executableTarget(
            name: "WeatherGateway",
            dependencies: ["Forecast", .product(name: "Gateway", package: "swift-bff-gateway")]),
        .testTarget(
            name: "ForecastTests",
            dependencies: [
                "Forecast",
                .product(name: "Gateway", package: "swift-bff-gateway"),
                .product(name: "GatewayTesting", package: "swift-bff-gateway"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
