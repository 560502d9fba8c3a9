import Testing

@testable import Gateway

/// The template engine: references, text and JSON templates, extraction from answers. Pure.
@Suite("Endpoints file: templates")
struct TemplateTests {
    /// `template` (JSON text) written with `parameters` (name, JSON value, text) and the answers
    /// of `calls` (name, body; nil for a call that failed).
    static func render(
        _ template: String, parameters: [(String, String, String?)] = [], calls: [(String, String?)], degraded: [String]? = nil
    ) throws -> String {
        var references = ReferenceTable(parameterNames: parameters.map(\.0), callNames: calls.map(\.0))
        let value = try #require(JSONValue(parsing: Array(template.utf8)))
        let compiled = try JSONTemplate(value, references: &references)
        var parameterValues = ExtractedValues(capacity: parameters.count)
        for (_, json, text) in parameters {
            parameterValues.append(text: text) { $0.append(contentsOf: json.utf8) }
        }
        var values = TemplateValues(parameters: parameterValues, calls: [])
        for (index, call) in calls.enumerated() {
            values.calls.append(try call.1.map { try ExtractedValues(extracting: references.extractions[index], from: Array($0.utf8)) })
        }
        var bytes: [UInt8] = []
        compiled.write(values, degraded: degraded, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static let person = #"{"name":"Luke \"L\" Skywalker","height":"172","mass":77.5,"alive":true,"films":["A","B"],"ships":[{"name":"X-wing","crew":[{"n":1},{"n":2}]},{"name":"Shuttle"},{"model":"none"}],"home":{"planet":{"name":"Tatooine"}},"nothing":null}"#

    @Test("a sole reference is its JSON value of any type; a missing one is null")
    func soleReferences() throws {
        let output = try Self.render(
            #"{"n":"{p.name}","m":"{p.mass}","a":"{p.alive}","f":"{p.films}","h":"{p.home.planet}","z":"{p.nothing}","x":"{p.nope.deeper}","i":"{p.films[1]}","o":"{p.films[7]}","w":"{p.name[0]}","all":"{p}"}"#,
            calls: [("p", Self.person)])
        #expect(output == #"{"n":"Luke \"L\" Skywalker","m":77.5,"a":true,"f":["A","B"],"h":{"name":"Tatooine"},"z":null,"x":null,"i":"B","o":null,"w":null,"all":"# + Self.person + "}")
    }

    @Test("projections map the rest of the path over an array, nested too; over a non-array they are null")
    func projections() throws {
        let output = try Self.render(
            #"{"names":"{p.ships[*].name}","crews":"{p.ships[*].crew[*].n}","films":"{p.films[*]}","no":"{p.name[*]}","root":"{list[*].id}"}"#,
            calls: [("p", Self.person), ("list", #"[{"id":1},{"id":2},{}]"#)])
        #expect(output == #"{"names":["X-wing","Shuttle",null],"crews":[[1,2],null,null],"films":["A","B"],"no":null,"root":[1,2,null]}"#)
    }

    @Test("references inside text are interpolated: strings unescaped and escaped again, null as nothing")
    func interpolation() throws {
        let output = try Self.render(
            #"["Hi {p.name}, {p.height}cm {p.mass}kg {p.alive}", "{p.nope}|{p.films}", "id {id}", "{{literal}} and }}"]"#,
            parameters: [("id", "7", "7")], calls: [("p", Self.person)])
        #expect(output == #"["Hi Luke \"L\" Skywalker, 172cm 77.5kg true","|[\"A\",\"B\"]","id 7","{literal} and }"]"#)
    }

    @Test("a failed call makes every reference to it null; degraded is appended to an object only")
    func failedCalls() throws {
        #expect(try Self.render(#"{"a":"{p.name}","b":"x {p.name}"}"#, calls: [("p", nil)], degraded: ["p"]) == #"{"a":null,"b":"x ","degraded":["p"]}"#)
        #expect(try Self.render("{}", calls: [], degraded: []) == #"{"degraded":[]}"#)
        #expect(try Self.render(#"["{p}"]"#, calls: [("p", nil)], degraded: ["p"]) == "[null]")
        #expect(try Self.render(#""{p.name}""#, calls: [("p", Self.person)]) == #""Luke \"L\" Skywalker""#)
    }

    @Test("constants keep their key order and values")
    func constants() throws {
        #expect(try Self.render(#"{"z":1,"a":[true,null,2.5,"\u00e9\n"],"m":{}}"#, calls: []) == #"{"z":1,"a":[true,null,2.5,"é\n"],"m":{}}"#)
    }

    @Test("references parse names, fields, indices and projections, and refuse anything else")
    func references() throws {
        let reference = try Reference(parsing: "menu[*].items[2].name")
        #expect(reference.root == "menu")
        #expect(reference.steps == [.each, .member("items"), .index(2), .member("name")])
        #expect(reference.description == "menu[*].items[2].name")
        for invalid in ["", ".a", "a.", "a[", "a[-1]", "a[x]", "a[1", "a b", "a..b", "a[9999999999]", "é"] {
            #expect(throws: EndpointsFileError.self) { try Reference(parsing: invalid[...]) }
        }
    }

    @Test("hostile answers: huge arrays, deep nesting, invalid JSON")
    func hostileAnswers() throws {
        let huge = "[" + Array(repeating: #"{"id":1}"#, count: 20_000).joined(separator: ",") + "]"
        let output = try Self.render(#"{"ids":"{a[*].id}","last":"{a[19999].id}","past":"{a[20000].id}"}"#, calls: [("a", huge)])
        #expect(output.hasPrefix(#"{"ids":[1,1,"#) && output.hasSuffix(#"1],"last":1,"past":null}"#))
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        let copied = try Self.render(#""{a}""#, calls: [("a", deep)])
        #expect(copied == deep)
        let tooDeep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: (any Error).self) { try Self.render(#""{a}""#, calls: [("a", tooDeep)]) }
        #expect(throws: (any Error).self) { try Self.render(#""{a}""#, calls: [("a", "{\"a\":")]) }
    }
}
