import ASCIISyntax
import GatewayTesting
import HTTP1Server
import HTTPBasics
import Testing

@testable import Gateway
@testable import ReferenceScenario

/// Compressed upstream answers through the gateway, over loopback, and `UPSTREAM_{NAME}_COMPRESSION`.
@Suite("Compression from upstreams")
struct CompressionTests {
    /// `DemoMenuFixtures.dishOfTheDay` as gzip, and `.menu` as raw deflate (made with Python's
    /// gzip and zlib modules: `gzip.compress(dish, mtime=0)`, `zlib.compressobj(9, DEFLATED, -15)`).
    static let gzipDish = bytes(
        "1f8b0800000000000203ab5650ca4bcc4d55b252500a2e484ccf482d29c954704e2c4acacf4b2c4a54d251504a4e2c494dcf2faa042929482c2e492c0689"
            + "161764268384d212738a5381fc82a2cc649029e67aa60ab55c5c009d1c24f457000000")
    static let rawDeflateMenu = bytes(
        "add2c14ac3401006e07b9e62c8c50aa528a888b7d80730582107f130dd4cd3c1ed6c989d0a223e98675fcc6c0521a960a35e167659be997f98fb0ce005"
            + "72c10de5579097244280de1f15aab85c321ae653c81d1a35419fd39f16a3614cafb165979e4cb7d45d5b659794b3d939bc4efbf05d50e3c673104e3c"
            + "42b93543a1e80ef057e8e34f05162d366b326328529929dcec4e82925ad2208e258c4e72393bf9360979cf5f4150e417192e3ee9be3dc756291"
            + "22cd0633d343bb1abac87a83db4504ce919aebb7ee31fd4c11c5871c3f1fd6d28d61423a98dee7337489807db5fb911e4602b501a0e4f69a6935b"
            + "aaa162a1e33d5d591e472f5ca92192730126d59a8dfe93ae3a41c753a76902d943967d00")

    static func bytes(_ hex: String) -> [UInt8] {
        let digits = Array(hex.utf8).map { UInt8(HexDigit.value(of: $0) ?? 0) }
        return stride(from: 0, to: digits.count, by: 2).map { digits[$0] << 4 | digits[$0 + 1] }
    }

    @Test("every upstream call asks for gzip and deflate, and compressed answers make the same menu")
    func inflatesAnswers() async throws {
        try await withScenarioGateway { plain, stubs in
            let expected = try await plain.get("/v1/menu")
            #expect(expected.status == 200)
            #expect(stubs.received.allSatisfy { $0.headers.values(named: "Accept-Encoding") == ["gzip, deflate"] })

            try await withScenarioGateway { test, stubs in
                stubs.answer(under: "/menu/dish_of_the_day.json") { _ in
                    HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain", "Content-Encoding": "gzip"], body: Self.gzipDish)
                }
                stubs.answer(under: "/menu/menu_response.json") { _ in
                    HTTPResponse(status: .ok, headers: ["Content-Type": "text/plain", "Content-Encoding": "deflate"], body: Self.rawDeflateMenu)
                }
                let response = try await test.get("/v1/menu")
                #expect(response.status == 200)
                #expect(response.body == expected.body)
            }
        }
    }

    @Test("UPSTREAM_{NAME}_COMPRESSION=off asks that upstream for identity, and a gzip answer from it is a 502 naming gzip")
    func off() async throws {
        try await withScenarioGateway(environment: ["UPSTREAM_MENU_COMPRESSION": "off"]) { test, stubs in
            #expect(try await test.get("/v1/menu").status == 200)
            #expect(try await test.get("/v1/people/1").status == 200)
            let received = stubs.received
            let menu = received.filter { $0.path.hasPrefix("/menu/") }, swapi = received.filter { $0.path.hasPrefix("/swapi/") }
            #expect(!menu.isEmpty && !swapi.isEmpty)
            #expect(menu.allSatisfy { !$0.headers.contains("Accept-Encoding") })
            #expect(swapi.allSatisfy { $0.headers["Accept-Encoding"] == "gzip, deflate" })

            stubs.answer(under: "/menu/menu_response.json") { _ in
                HTTPResponse(status: .ok, headers: ["Content-Encoding": "gzip"], body: Self.gzipDish)
            }
            let refused = try await test.get("/v1/menu")
            #expect(refused.status == 502)
            #expect(refused.text.contains("upstream menu sent a body that cannot be decoded: content coding gzip was not asked for"))
        }
    }

    @Test("an answer in a coding not asked for, or a corrupt one, is a 502 naming the coding")
    func refused() async throws {
        try await withScenarioGateway { test, stubs in
            stubs.answer(under: "/menu/menu_response.json", status: .ok, headers: ["Content-Encoding": "br"], body: "[]")
            let unasked = try await test.get("/v1/menu")
            #expect(unasked.status == 502)
            #expect(unasked.text.contains("content coding br was not asked for"))
            stubs.answer(under: "/menu/menu_response.json", status: .ok, headers: ["Content-Encoding": "gzip"], body: "[]")
            let corrupt = try await test.get("/v1/menu")
            #expect(corrupt.status == 502)
            #expect(corrupt.text.contains("gzip stream corrupt"))
        }
    }

    @Test("UPSTREAM_{NAME}_COMPRESSION must be on or off")
    func invalidValue() throws {
        let upstreams = GatewayCatalog.reference.upstreams
        let off = try GatewayConfiguration(environment: ["UPSTREAM_MENU_COMPRESSION": "off"], upstreams: upstreams)
        #expect(off.upstreams.map(\.acceptsCompression) == [true, true, false])
        do {
            _ = try GatewayConfiguration(environment: ["UPSTREAM_MENU_COMPRESSION": "yes"], upstreams: upstreams)
            Issue.record("a bad value was accepted")
        } catch {
            #expect(error.variable == "UPSTREAM_MENU_COMPRESSION")
            #expect(error.problem.hasPrefix("must be on or off"))
        }
    }
}
