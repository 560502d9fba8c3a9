import Synchronization

/// The demo server's SWAPI base URL, known only once it has bound its port.
final class DemoBase: Sendable {
    private let value = Mutex("")

    func set(_ base: String) {
        value.withLock { $0 = base }
    }

    var current: String { value.withLock { $0 } }
}
