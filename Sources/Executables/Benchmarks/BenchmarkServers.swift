import Gateway
import Glibc
import ReferenceScenario

/// The servers the network benchmarks talk to, in this process on loopback ports: our own
/// server answering SWAPI's person 1 (for the client and upstream benchmarks), and the demo
/// gateway with its fixture upstreams (for the end-to-end ones), its access log going to
/// /dev/null.
struct BenchmarkServers: Sendable {
    private let stub: StubServer
    private let gateway: DemoGateway
    private let devNull: Int32

    init() async throws {
        devNull = open("/dev/null", O_WRONLY | O_CLOEXEC)
        guard devNull >= 0 else { throw BenchmarkFailure("cannot open /dev/null") }
        do {
            stub = try StubServer(body: FixtureBodies.person)
        } catch {
            close(devNull)
            throw error
        }
        do {
            gateway = try DemoGateway(logDescriptor: devNull)
        } catch {
            await stub.stop()
            close(devNull)
            throw error
        }
    }

    func benchmarks() throws -> [Benchmark] {
        ClientBenchmarks.all(port: stub.port) + (try UpstreamBenchmarks.all(port: stub.port)) + GatewayBenchmarks.all(port: gateway.port)
    }

    func stop() async {
        await gateway.stop()
        await stub.stop()
        close(devNull)
    }
}
