import Testing
@testable import UpstreamKit

@Suite struct JSONBodyTests {
    private struct Order: Encodable {
        var dish: String
        var quantity: Int
    }

    @Test func encodesJSONBodies() throws {
        let request = try Request<Shuffle>(.post, path: Path("orders"), json: Order(dish: "Penne", quantity: 2))
        let wire = try request.transportRequest(against: Bases.menu)
        #expect(wire.body == Array(#"{"dish":"Penne","quantity":2}"#.utf8))
        #expect(wire.headers["Content-Type"] == "application/json")
        #expect(wire.headers["Accept"] == "application/json")
        #expect(wire.method == .post)
    }
}
