import Foundation
import Synchronization

/// The SWAPI fixtures with their links rewritten to the demo server's base, built on first use.
final class DemoSwapiDocuments: Sendable {
    private let base: DemoBase
    private let documents = Mutex<[String: [UInt8]]?>(nil)

    init(base: DemoBase) {
        self.base = base
    }

    /// The document for `kind/id`, such as `people/1`, or nil when there is none.
    func document(kind: String, id: String) -> [UInt8]? {
        documents.withLock { documents in
            if documents == nil {
                let base = self.base.current
                documents = DemoSwapiFixtures.documents.mapValues {
                    Array($0.replacingOccurrences(of: DemoSwapiFixtures.placeholderBase, with: base).utf8)
                }
            }
            return documents?[kind + "/" + id]
        }
    }
}
