import HTTP1
import HTTPBasics
import Testing

@Suite("Accept-Encoding")
struct AcceptEncodingTests {
    @Test("gzip is preferred when accepted and identity is not weighted above it", arguments: [
        ("gzip", true), ("GZIP", true), ("x-gzip", true), ("gzip, deflate, br", true), ("br;q=1.0, gzip;q=0.8, *;q=0.1", true),
        ("*", true), ("gzip;q=0.001", true), ("gzip ; q=1.000", true), ("gzip;Q=0.5", true), ("identity;q=0, gzip", true),
        ("gzip;q=0.5, identity;q=0.5", true), (" ,gzip,, ", true),
        ("", false), ("identity", false), ("deflate, br", false), ("gzip;q=0", false), ("gzip;q=0.000", false),
        ("*, gzip;q=0", false), ("*;q=0", false), ("gzip;q=0.5, identity", false), ("gzip;q=0.4, identity;q=0.5", false),
        ("gzip, gzip;q=0", false), ("gzip;q=0, gzip", false),
    ])
    func prefersGzip(field: String, prefers: Bool) {
        #expect(AcceptEncoding(field).prefersGzip == prefers)
    }

    @Test("every Accept-Encoding field is read, as one list: a later q=0 refuses what an earlier one accepted")
    func repeatedFields() {
        let split = HTTPHeaders([.init(name: "Accept-Encoding", value: "gzip"), .init(name: "accept-encoding", value: "gzip;q=0")])
        #expect(AcceptEncoding(split)?.prefersGzip == false)
        let joined = HTTPHeaders([.init(name: "Accept-Encoding", value: "identity;q=0.5"), .init(name: "ACCEPT-ENCODING", value: "gzip")])
        #expect(AcceptEncoding(joined)?.prefersGzip == true)
        #expect(AcceptEncoding(HTTPHeaders([.init(name: "Accept", value: "gzip")])) == nil)
    }

    @Test("weights are read in thousandths; a member breaking the grammar is ignored", arguments: [
        ("gzip;q=0.5", 500), ("gzip;q=0.25", 250), ("gzip;q=0.125", 125), ("gzip;q=1", 1000), ("gzip;q=1.", 1000), ("gzip;q=0.", 0),
        ("gzip;q=1.001", 0), ("gzip;q=2", 0), ("gzip;q=0.1234", 0), ("gzip;q=.5", 0), ("gzip;q=", 0), ("gzip;q=0.5;q=1", 0),
        ("gzip;level=9", 0), ("gzip;q=abc", 0), ("gzip;q=-1", 0), (";q=1", 0), ("gzip;", 0),
    ])
    func weights(field: String, weight: Int) {
        #expect(AcceptEncoding(field).gzipWeight == weight)
    }

    @Test("a named coding's weight overrides *'s, and identity unlisted has no weight")
    func explicitOverWildcard() {
        let accepted = AcceptEncoding("*;q=0.2, gzip;q=0.9")
        #expect(accepted.gzipWeight == 900 && accepted.identityWeight == 200)
        #expect(AcceptEncoding("gzip").identityWeight == nil)
        #expect(AcceptEncoding("deflate, *;q=0.3").gzipWeight == 300)
    }
}
