import Synchronization

/// Sends `Authorization: Bearer <token>` on requests that require authentication, and only on those.
///
/// When `refreshHeader` is set, a token the upstream hands out in that response field (such as
/// `X-Refreshed-Token`), in the answer to a request that carried the current one, replaces it for
/// every later request. A request answered 401
/// with a token that has been replaced meanwhile, or that an answer still being read replaces,
/// is sent once more with the new one (`TokenRotation` says when); a 401 to a token that stays
/// current is the caller's to handle.
public final class BearerToken: UpstreamAction {
    private let state: Mutex<TokenRotation<CheckedContinuation<Void, Never>>>
    private let refreshHeader: String?

    /// The response field a refreshed token comes in unless another is given. It carries a
    /// credential, so whoever passes answers on to clients must withhold it.
    public static let defaultRefreshHeader = "X-Refreshed-Token"

    /// - Throws: `.invalidRequest` when the token could not be sent as a header value.
    public init(_ token: String, refreshHeader: String? = defaultRefreshHeader) throws(UpstreamError) {
        guard Self.isUsable(token) else { throw .invalidRequest(reason: "bearer token is not a valid header value") }
        state = Mutex(TokenRotation(authorization: "Bearer " + token))
        self.refreshHeader = refreshHeader
    }

    public func prepare(_ request: inout TransportRequest) async throws(UpstreamError) {
        guard request.requiresAuthentication else { return }
        let (authorization, epoch) = state.withLock { $0.send() }
        request.headers.set("Authorization", authorization)
        request.credentialEpoch = epoch
    }

    /// Takes a refreshed token; judges a 401, waiting (at most until the request's deadline) for
    /// the answers to requests sent before it when one of them may carry a new token.
    public func received(_ response: Response, for request: TransportRequest) async throws(UpstreamError) -> ResponseVerdict {
        var refreshed: String?
        if let refreshHeader, let token = response.headers[refreshHeader], Self.isUsable(token) {
            refreshed = "Bearer " + token
        }
        // Only an answer to a request that carried this token may replace it: any other (a proxy
        // route's, sent with its client's credentials or none) may echo a field its client chose.
        guard request.credentialEpoch != 0, let sent = request.headers["Authorization"] else { return .accept }
        if refreshed != nil { request.attemptObserver?.renewedCredentials(during: request, CredentialRenewal(source: .responseField, failure: nil)) }
        let (judgement, wake) = state.withLock {
            $0.answered(sentWith: sent, epoch: request.credentialEpoch, refreshed: refreshed, unauthorized: response.status == .unauthorized)
        }
        resume(wake)
        switch judgement {
        case .accept: return .accept
        case .resend: return .resend
        case .wait(let id):
            await waitForEarlierAnswers(id, until: request.deadline ?? .now + request.timeout)
            return state.withLock { $0.judgement(afterWait: id, sentWith: sent) } == .resend ? .resend : .accept
        }
    }

    public func abandoned(_ request: TransportRequest) async {
        guard request.credentialEpoch != 0 else { return }
        resume(state.withLock { $0.abandoned(epoch: request.credentialEpoch) })
    }

    /// Calls answered 401 that wait for earlier answers to judge it.
    var waitingCount: Int { state.withLock { $0.waitingCount } }

    private func resume(_ waiters: [CheckedContinuation<Void, Never>]) {
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when wait `id` is released, at `deadline`, or when the task is cancelled, whichever comes first.
    private func waitForEarlierAnswers(_ id: Int, until deadline: ContinuousClock.Instant) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await withTaskCancellationHandler {
                    await withCheckedContinuation { continuation in
                        if !self.state.withLock({ $0.park(continuation, id: id) }) { continuation.resume() }
                    }
                } onCancel: {
                    self.state.withLock { $0.cancel(id: id) }?.resume()
                }
            }
            group.addTask { try? await Task.sleep(until: deadline, clock: .continuous) }
            await group.next()
            group.cancelAll()
        }
    }

    /// RFC 6750 `b64token` characters only, so a hostile response cannot plant CR/LF in our requests.
    package static func isUsable(_ token: some StringProtocol) -> Bool {
        !token.isEmpty && token.utf8.count <= 8192 && token.utf8.allSatisfy { byte in
            PercentEncoding.isUnreserved(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=")
        }
    }
}
