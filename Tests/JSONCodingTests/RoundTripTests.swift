import Foundation
import JSONCoding
import Testing

@Suite struct RoundTripTests {
    struct Everything: Codable, Equatable {
        var bool = true
        var string = "héllo \"world\"\n😀"
        var double = 1.0 / 3
        var float: Float = 0.1
        var int = Int.min
        var int8 = Int8.min
        var int16 = Int16.max
        var int32 = Int32.min
        var int64 = Int64.max
        var uint = UInt.max
        var uint8 = UInt8.max
        var uint16 = UInt16.max
        var uint32 = UInt32.max
        var uint64 = UInt64.max
        var optional: Int? = nil
        var presentOptional: String? = "here"
        var optionals: [Int?] = [1, nil, 3]
        var dictionary: [String: [Double]] = ["a": [1.5, -2], "b": []]
        var nested: [[String]] = [["x"], [], ["y", "z"]]
        var url = URL(string: "https://swapi.dev/api/people/1/")
        var empty: [String: Int] = [:]
    }

    @Test func everythingRoundTrips() throws {
        let value = Everything()
        let bytes = try JSONByteEncoder().encode(value)
        #expect(try JSONByteDecoder().decode(Everything.self, from: bytes) == value)
        // Foundation reads what we write.
        #expect(try JSONDecoder().decode(Everything.self, from: Data(bytes)) == value)
    }

    @Test func foundationOutputDecodes() throws {
        let value = Everything()
        let bytes = try JSONEncoder().encode(value)
        #expect(try JSONByteDecoder().decode(Everything.self, from: Array(bytes)) == value)
    }

    @Test func decodeIfPresentHandlesMissingAndNull() throws {
        struct Sparse: Decodable, Equatable {
            let a: Int?
            let b: String?
            let c: [Int]?
        }
        let decoder = JSONByteDecoder()
        #expect(try decoder.decode(Sparse.self, from: #"{"a":null,"c":[1]}"#.bytes) == Sparse(a: nil, b: nil, c: [1]))
        #expect(try decoder.decode(Sparse.self, from: #"{"b":"x","unknown":{"deep":[1,2,{"x":null}]},"a":5}"#.bytes) == Sparse(a: 5, b: "x", c: nil))
    }

    @Test func keysInAnyOrderAndEscapedKeysMatch() throws {
        struct Keys: Decodable, Equatable {
            let first: Int
            let second: Int
            let third: Int
        }
        let decoder = JSONByteDecoder()
        let expected = Keys(first: 1, second: 2, third: 3)
        #expect(try decoder.decode(Keys.self, from: #"{"third":3,"second":2,"first":1}"#.bytes) == expected)
        #expect(try decoder.decode(Keys.self, from: #"{"f\u0069rst":1,"second":2,"thir\u0064":3}"#.bytes) == expected)
    }

    @Test func nestedContainersAndAllKeys() throws {
        struct Manual: Decodable {
            enum Keys: String, CodingKey { case meta, list }
            enum MetaKeys: String, CodingKey { case count, label }
            let count: Int
            let label: String?
            let items: [Int]
            let metaKeys: [String]

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Keys.self)
                let meta = try container.nestedContainer(keyedBy: MetaKeys.self, forKey: .meta)
                count = try meta.decode(Int.self, forKey: .count)
                label = try meta.decodeIfPresent(String.self, forKey: .label)
                metaKeys = meta.allKeys.map(\.stringValue)
                var list = try container.nestedUnkeyedContainer(forKey: .list)
                var items: [Int] = []
                #expect(list.count == 3)
                while !list.isAtEnd {
                    if try list.decodeNil() { continue }
                    items.append(try list.decode(Int.self))
                }
                self.items = items
            }
        }
        let manual = try JSONByteDecoder().decode(Manual.self, from: #"{"list":[1,null,3],"meta":{"other":true,"count":2}}"#.bytes)
        #expect(manual.count == 2)
        #expect(manual.label == nil)
        #expect(manual.items == [1, 3])
        #expect(manual.metaKeys == ["count"])
    }

    @Test func largeDictionaryDecodes() throws {
        let dictionary = Dictionary(uniqueKeysWithValues: (0..<2000).map { ("key\($0)", $0) })
        let bytes = try JSONByteEncoder().encode(dictionary)
        #expect(try JSONByteDecoder().decode([String: Int].self, from: bytes) == dictionary)
    }

    @Test func arbitraryDocumentsReadLikeFoundation() throws {
        let documents = [
            ScenarioFixtures.luke, ScenarioFixtures.tatooine, ScenarioFixtures.xWing, ScenarioFixtures.draw, ScenarioFixtures.menu,
            #"[1e3,-0.5,2E-2,123456789012,0.1,"\u00e9\ud83d\ude00",true,false,null,{},[]]"#,
        ]
        for document in documents {
            let ours = try JSONByteDecoder().decode(JSONValue.self, from: document.bytes)
            let foundation = try JSONDecoder().decode(JSONValue.self, from: Data(document.utf8))
            #expect(ours == foundation)
            let reencoded = try JSONByteEncoder().encode(ours)
            #expect(try JSONByteDecoder().decode(JSONValue.self, from: reencoded) == ours)
        }
    }
}
