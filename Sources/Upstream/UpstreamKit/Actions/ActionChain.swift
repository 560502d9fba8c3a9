/// Runs an upstream's actions around every attempt of the transport it wraps.
///
/// Each attempt is prepared afresh, so a retry carries the newest token and cookies. When an action
/// answers `.resend` (a refreshed credential after a 401), the request is prepared and sent once more;
/// a second `.resend` in the same call is ignored, so a broken credential cannot loop.
public struct ActionChain: Transport {
    private let base: any Transport
    private let actions: [any UpstreamAction]

    public init(_ actions: [any UpstreamAction], wrapping base: any Transport) {
        self.actions = actions
        self.base = base
    }

    public func send(_ request: TransportRequest) async throws(UpstreamError) -> Response {
        if actions.isEmpty { return try await base.send(request) }
        var hasResent = false
        while true {
            let prepared = try await prepared(request)
            let response: Response
            do {
                response = try await base.send(prepared)
            } catch {
                await abandon(prepared)
                throw error
            }
            // A streamed body is read once: its request is never resent.
            guard try await verdict(on: response, to: prepared) == .resend, !hasResent, request.bodyStream == nil else { return response }
            hasResent = true
        }
    }

    // The loops over the actions run in functions of their own, whose frames are gone by the
    // time `base.send` goes deep into the network stack: a call in flight holds a smaller frame
    // here, and fits in fewer of its task's allocator slabs.

    func prepared(_ request: TransportRequest) async throws(UpstreamError) -> TransportRequest {
        var prepared = request
        do {
            for action in actions {
                try await action.prepare(&prepared)
            }
        } catch {
            await abandon(prepared)
            throw error
        }
        return prepared
    }

    func abandon(_ request: TransportRequest) async {
        for action in actions {
            await action.abandoned(request)
        }
    }

    func verdict(on response: Response, to request: TransportRequest) async throws(UpstreamError) -> ResponseVerdict {
        var verdict = ResponseVerdict.accept
        for action in actions {
            if try await action.received(response, for: request) == .resend { verdict = .resend }
        }
        return verdict
    }
}
