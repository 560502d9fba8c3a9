import CZlib
import HTTP1
import HTTP1Server
import HTTPBasics
import ReferenceScenario

/// Inflating compressed upstream answers, as the client does while it reads one, and gzipping
/// answers for clients, as the gateway does before it writes one: what compression costs in CPU
/// for what it saves on the wire. `--requests N` with callgrind gives instructions per body.
enum CompressionBenchmarks {
    /// The 51 SWAPI documents of the demo fixtures as one JSON array, `rounds` times over: one
    /// round (28 KB) compresses as distinct real documents do, four (110 KiB) as a large answer
    /// that repeats itself more than most.
    static func answer(rounds: Int) -> [UInt8] {
        let documents = DemoSwapiFixtures.documents.keys.sorted().compactMap { DemoSwapiFixtures.documents[$0] }
        let list = Array(repeating: documents.joined(separator: ","), count: rounds).joined(separator: ",")
        return Array("[\(list)]".utf8)
    }

    /// `body` compressed by zlib at its default level (6), zlib-wrapped: inflating it costs what
    /// gzip costs, but for the checksum.
    static func compressed(_ body: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(body.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = compress2(&output, &length, body, uLong(body.count), Z_DEFAULT_COMPRESSION)
        precondition(status == Z_OK, "compress2 failed")
        return Array(output.prefix(Int(length)))
    }

    /// The menu endpoint's answer (832 bytes), as the gateway sends it.
    static let menuAnswer = Array(
        (#"{"dishOfTheDay":{"name":"Spaghetti Carbonara","price":7.5,"spicy":false},"sections":["#
            + #"{"category":"pastas","items":[{"name":"Penne all'Arrabbiata","price":4.5,"spicy":true},"#
            + #"{"name":"Tortiglioni alla Puttanesca","price":4.5,"spicy":false},{"name":"Spaghetti Aglio, Olio, e Peperoncino","price":8,"spicy":true},"#
            + #"{"name":"Tortellini alla Panna","price":6,"spicy":false}]},{"category":"starters","items":["#
            + #"{"name":"Caprese Salad","price":6,"spicy":false},{"name":"Arancini Balls","price":6,"spicy":false}]},"#
            + #"{"category":"desserts","items":[{"name":"Tiramisù","price":6,"spicy":false},{"name":"Panna Cotta","price":6,"spicy":false}]},"#
            + #"{"category":"drinks","items":[{"name":"Sangiovese (Red Wine)","price":4.5,"spicy":false},"#
            + #"{"name":"Prosecco (White Wine)","price":4.5,"spicy":false},{"name":"Water","price":1,"spicy":false}]}],"degraded":[]}"#).utf8)

    static var all: [Benchmark] {
        [inflate(rounds: 1), inflate(rounds: 4)]
            + [1, 4, 6, 9].flatMap { level in [gzip(menuAnswer, level: level), gzip(answer(rounds: 1), level: level), gzip(answer(rounds: 4), level: level)] }
            + [respond(acceptEncoding: nil), respond(acceptEncoding: "gzip, deflate, br")]
    }

    /// Gzipping `body` at `level` as `ResponseCompression` does: a deflater sized for the body, one call.
    private static func gzip(_ body: [UInt8], level: Int) -> Benchmark {
        let size = (try? Deflater(level: level, inputBytes: body.count).gzip(body).count) ?? 0
        return .repeating("compression/gzip level \(level) \(body.count) B of JSON to \(size) B") {
            let compressed = try Deflater(level: level, inputBytes: body.count).gzip(body)
            precondition(compressed.count == size, "gzipped to another size")
            consume(compressed)
        }
    }

    /// The menu answer through `ResponseCompression` (threshold 0) for a request with
    /// `acceptEncoding`: without one, what a client that does not accept gzip pays (a `Vary`).
    private static func respond(acceptEncoding: String?) -> Benchmark {
        let compression = ResponseCompression(minimumBytes: 0)
        let request = HTTPRequest(method: .get, target: "/v1/menu", headers: acceptEncoding.map { ["Accept-Encoding": $0] } ?? [:])
        return .repeating("compression/answer \(menuAnswer.count) B of JSON, Accept-Encoding: \(acceptEncoding ?? "none")") {
            var response = HTTPResponse.json(menuAnswer, headers: ["X-Gateway-Completed": "true", "Cache-Control": "no-store"])
            _ = compression.apply(to: &response, answering: request)
            consume(response.body)
        }
    }

    private static func inflate(rounds: Int) -> Benchmark {
        let body = answer(rounds: rounds)
        let input = compressed(body)
        return .repeating("compression/inflate \(body.count) B of JSON from \(input.count) B") {
            let inflater = try Inflater(format: .deflate)
            var output: [UInt8] = []
            output.reserveCapacity(body.count)
            try input.withUnsafeBytes { input in
                try inflater.inflate(input, appendingTo: &output, maximumOutputBytes: 1 << 20)
            }
            precondition(inflater.isFinished && output.count == body.count, "inflated the wrong body")
            consume(output)
        }
    }
}
