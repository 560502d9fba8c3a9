/// What an action wants done with a response it has seen.
public enum ResponseVerdict: Sendable, Equatable {
    case accept
    /// Prepare and send the request again, for instance after refreshing credentials.
    case resend
}
