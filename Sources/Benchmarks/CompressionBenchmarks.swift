import CZlib
import HTTP1
import ReferenceScenario

/// Inflating compressed upstream answers, as the client does while it reads one: what asking for
/// compression costs in CPU for what it saves on the wire.
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

    static var all: [Benchmark] {
        [inflate(rounds: 1), inflate(rounds: 4)]
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
