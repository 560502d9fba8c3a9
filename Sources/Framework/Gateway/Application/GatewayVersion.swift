/// This gateway's release, as it names itself to upstreams.
public enum GatewayVersion {
    /// The release this source is: raised with each tagged release, so that an upstream's logs
    /// tell which gateway called.
    public static let current = "1.0.0"

    /// The `User-Agent` every upstream call carries unless its upstream configures another.
    static let userAgent = "swift-bff-gateway/" + current
}
