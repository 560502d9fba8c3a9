import HTTPBasics
import Synchronization
@testable import Upstream

/// Time that only moves when the code under test sleeps or a test advances it.
final class ManualTime: Sendable {
    private let start = ContinuousClock.now
    private let state = Mutex<(offset: Duration, sleeps: [Duration])>((.zero, []))

    var source: TimeSource {
        TimeSource(
            now: { [self] in start + state.withLock { $0.offset } },
            sleep: { [self] duration throws(UpstreamError) in
                state.withLock { state in
                    state.sleeps.append(duration)
                    state.offset += duration
                }
            }
        )
    }

    func advance(by duration: Duration) {
        state.withLock { $0.offset += duration }
    }

    var sleeps: [Duration] { state.withLock { $0.sleeps } }
}

/// Records every request a transport saw, for assertions.
final class RequestLog: Sendable {
    private let requests = Mutex<[TransportRequest]>([])

    func append(_ request: TransportRequest) {
        requests.withLock { $0.append(request) }
    }

    var all: [TransportRequest] { requests.withLock { $0 } }
}

func json(_ text: String, status: HTTPStatus = .ok, headers: HTTPHeaders = ["Content-Type": "application/json"]) -> Response {
    Response(status: status, headers: headers, body: Array(text.utf8))
}

enum Bases {
    static var deck: BaseURL { get throws { try BaseURL("https://deckofcardsapi.com/api/deck") } }
    static var swapi: BaseURL { get throws { try BaseURL("https://swapi.dev/api") } }
    static var menu: BaseURL { get throws { try BaseURL("https://raw.githubusercontent.com/mokagio/tddinswift_fake_api/trunk") } }
}

/// A shared count that closures can capture.
final class Counter: Sendable {
    private let count = Mutex(0)

    /// Adds one and returns the new count.
    @discardableResult
    func increment() -> Int {
        count.withLock { $0 += 1; return $0 }
    }

    var value: Int { count.withLock { $0 } }
}
