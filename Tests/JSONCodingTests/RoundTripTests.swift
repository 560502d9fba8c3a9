import JSONCoding
import Testing

@Suite struct RoundTripTests {
    @Test func decodesAnArrayOfIntegers() throws {
        let values = try JSONByteDecoder().decode([Int].self, from: Array("[1, 2, 3]".utf8))
        #expect(values == [1, 2, 3])
    }
}
