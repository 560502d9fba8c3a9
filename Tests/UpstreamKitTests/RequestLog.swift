import Synchronization
import UpstreamKit

/// Records every request a transport saw, for assertions.
final class RequestLog: Sendable {
    private let requests = Mutex<[TransportRequest]>([])

    func append(_ request: TransportRequest) {
        requests.withLock { $0.append(request) }
    }

    var all: [TransportRequest] { requests.withLock { $0 } }
}
