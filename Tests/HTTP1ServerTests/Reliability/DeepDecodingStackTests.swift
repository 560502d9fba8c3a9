import JSONCoding
import NetworkRuntime
import Synchronization
import Testing

/// The review of recursive parsers for issue #30: the JSON decoder recurses once per level of
/// nesting, which it bounds (`JSONByteDecoder.maximumDepth`); an event loop's thread must hold
/// that many levels of a recursive model, whatever `ulimit -s` the process was started with.
@Suite("Deep JSON on an event loop's thread")
struct DeepDecodingStackTests {
    /// A recursive model, as a team's tree-shaped body might be.
    indirect enum Tree: Decodable {
        case node([Tree])

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var children: [Tree] = []
            while !container.isAtEnd { children.append(try container.decode(Tree.self)) }
            self = .node(children)
        }
    }

    /// A recursive model through keyed containers and optionals.
    final class Chain: Decodable {
        let next: Chain?
    }

    @Test("JSON nested to the decoder's limit decodes into recursive models on a detached thread; one level more is an error")
    func deepestDocuments() async throws {
        let depth = JSONByteDecoder.maximumDepth
        let arrays = Array((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        let objects = Array((String(repeating: #"{"next":"#, count: depth) + "null" + String(repeating: "}", count: depth)).utf8)
        let tooDeep = Array(("[" + String(decoding: arrays, as: UTF8.self) + "]").utf8)
        let outcomes = await withCheckedContinuation { (continuation: CheckedContinuation<[Bool], Never>) in
            do {
                try DetachedThread.start {
                    continuation.resume(returning: [
                        (try? JSONByteDecoder().decode(Tree.self, from: arrays)) != nil,
                        (try? JSONByteDecoder().decode(Chain.self, from: objects)) != nil,
                        (try? JSONByteDecoder().decode(Tree.self, from: tooDeep)) == nil,
                    ])
                }
            } catch {
                continuation.resume(returning: [])
            }
        }
        #expect(outcomes == [true, true, true])
    }
}
