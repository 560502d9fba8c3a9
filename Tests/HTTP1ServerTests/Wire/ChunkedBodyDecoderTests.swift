import Testing

@testable import HTTP1

@Suite("ChunkedBodyDecoder")
struct ChunkedBodyDecoderTests {
    @Test(arguments: [1, 2, 3, 7, 1 << 30])
    func decodesChunksWhateverTheReadSize(step: Int) throws {
        let text = "5\r\nhello\r\n7;name=value\r\n, world\r\nA\r\n0123456789\r\n0\r\nX-Trailer: yes\r\n\r\nGET / HTTP/1.1"
        let result = try decodeChunked(text, step: step)
        #expect(String(decoding: result.body, as: UTF8.self) == "hello, world0123456789")
        #expect(result.isComplete)
        #expect(result.consumed == text.utf8.count - "GET / HTTP/1.1".utf8.count)
    }

    @Test func acceptsAnEmptyBodyBareLineFeedsAndUppercaseHex() throws {
        #expect(try decodeChunked("0\r\n\r\n").body.isEmpty)
        #expect(try decodeChunked("0\n\n").isComplete)
        #expect(try decodeChunked("000\r\n\r\n").isComplete)
        #expect(try decodeChunked("B\nhello world\n0\n\n").body.count == 11)
        #expect(try decodeChunked("3 ;ext\r\nabc\r\n0\r\n\r\n").body.count == 3)
    }

    @Test func waitsForMore() throws {
        for partial in ["5", "5\r\n", "5\r\nhel", "5\r\nhello\r\n", "5\r\nhello\r\n0\r\n", "5\r\nhello\r\n0\r\nX: y\r\n"] {
            #expect(try decodeChunked(partial).isComplete == false)
        }
    }

    @Test(arguments: [
        ("\r\n", 400),
        ("g\r\n", 400),
        ("-5\r\n", 400),
        ("0x5\r\nhello\r\n0\r\n\r\n", 400),
        ("+5\r\nhello\r\n0\r\n\r\n", 400),
        (" 5\r\nhello\r\n0\r\n\r\n", 400),
        ("5 x\r\nhello\r\n0\r\n\r\n", 400),
        ("1000000000000000\r\n", 400),
        ("ffffffffffffffff\r\n", 400),
        ("5\rhello\r\n0\r\n\r\n", 400),
        ("5\r\nhelloX\r\n0\r\n\r\n", 400),
        ("5\r\nhello\rX0\r\n\r\n", 400),
        ("5\r\nhello\r\n0\r\nX: y\rZ\r\n\r\n", 400),
        ("5\r\nhello\r\n0\r\n\rX", 400),
        ("5;a\u{01}b\r\nhello\r\n0\r\n\r\n", 400),
        ("5\r\nhello\r\n0\r\nX: \u{00}\r\n\r\n", 400),
        ("100001\r\n", 413),
        ("fffffffffffffff\r\n", 413),
    ])
    func refuses(text: String, status: Int) {
        #expect(chunkedRefusal(text) == status)
        #expect(chunkedRefusal(text, step: 1) == status)
    }

    @Test func limitsTheWholeBodyAcrossChunks() {
        let chunk = "400\r\n" + String(repeating: "x", count: 1024) + "\r\n"
        #expect(chunkedRefusal(chunk + chunk + "0\r\n\r\n", maximumBodyBytes: 2048) == nil)
        #expect(chunkedRefusal(chunk + chunk + "1\r\n", maximumBodyBytes: 2048) == 413)
    }

    @Test func limitsExtensionsAndTrailers() {
        let longExtension = "1;" + String(repeating: "e", count: 16385) + "\r\nx\r\n0\r\n\r\n"
        #expect(chunkedRefusal(longExtension) == 400)
        let longTrailer = "0\r\n" + String(repeating: "X-T: v\r\n", count: 3000) + "\r\n"
        #expect(chunkedRefusal(longTrailer) == 431)
    }
}
