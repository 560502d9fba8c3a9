import GatewayTesting
import Testing

@testable import Gateway
@testable import ReferenceScenario

/// The OpenAPI schema must admit every answer the gateway gives (schemathesis found a null
/// population refused by the inferred schema).
@Suite("Reliability: response schemas")
struct ResponseSchemaTests {
    @Test("an unknown population is null, and the person schema allows it")
    func nullPopulation() async throws {
        try await withScenarioGateway { test, stubs in
            let document = try #require(JSONValue(parsing: try await test.get("/openapi.json").body))
            let schema = document["paths"]?["/v1/people/{id}"]?["get"]?["responses"]?["200"]?["content"]?["application/json"]?["schema"]
            let population = schema?["properties"]?["homeworld"]?["properties"]?["population"]
            #expect(population?["type"] == .array(["integer", "null"]))
            #expect(schema?["properties"]?["id"]?["type"] == "integer")
            let person = try await test.get("/v1/people/10")
            #expect(person.text.contains(#""population":null"#))
        }
    }
}
