import Glibc

extension AsyncSocket {
    /// The connected peer as `address:port` (`[address]:port` for IPv6), or nil when the socket
    /// is closed or not connected. System calls each time (numeric, never a DNS lookup): for
    /// logging rare events, not per request.
    public var peerAddress: String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var port = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let found = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                getpeername(descriptor, address, &length) == 0
                    && getnameinfo(
                        address, length, &host, socklen_t(host.count), &port, socklen_t(port.count), NI_NUMERICHOST | NI_NUMERICSERV) == 0
            }
        }
        guard found else { return nil }
        let (hostText, portText) = (Self.string(host), Self.string(port))
        return Int32(storage.ss_family) == AF_INET6 ? "[\(hostText)]:\(portText)" : "\(hostText):\(portText)"
    }

    /// The text a C call wrote, up to its terminating NUL.
    private static func string(_ characters: [CChar]) -> String {
        String(decoding: characters.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
