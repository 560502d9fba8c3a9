extension ConfigurationVariable {
    static let webSocketIdleTimeout = ConfigurationVariable(
        "WEBSOCKET_IDLE_TIMEOUT_MS", default: "300000",
        "a WebSocket through a proxy route is closed when no byte has moved either way for this long, "
            + "or a write to one side has made no progress for this long")
    static let webSocketMaximumConnections = ConfigurationVariable(
        "WEBSOCKET_MAX_CONNECTIONS", default: "1024",
        "WebSockets open through proxy routes at once, each also one of MAX_CONNECTIONS; more are answered 503")

    /// The WebSocket variables, in the order `--help` lists them.
    static let webSocket: [ConfigurationVariable] = [webSocketIdleTimeout, webSocketMaximumConnections]
}
