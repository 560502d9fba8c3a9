import ASCIISyntax
import HTTPBasics

/// A strictly parsed, normalised `http` or `https` URL, the shared ground of base URLs and links.
///
/// Normalising lower-cases scheme and host, fills in the default port, decodes percent-encoded
/// unreserved characters and upper-cases the remaining escapes, so two spellings of one URL compare
/// equal. Anything that could make the path mean something else after a server decodes it is refused:
/// userinfo, fragments, dot segments (also encoded ones, and with `;` parameters: `DotSegmentScan`), encoded slashes or backslashes, NUL,
/// empty inner segments, and characters outside RFC 3986.
struct AbsoluteURL: Equatable {
    var origin: Origin
    /// The normalised, percent-encoded path, starting with `/`.
    var path: String
    /// The query without its `?`, or nil when the URL has none.
    var query: String?

    /// Parses `string`, or returns why it is refused.
    static func parse(_ string: String) -> Result<AbsoluteURL, ParseFailure> {
        let bytes = Array(string.utf8)
        guard let schemeEnd = bytes.firstIndex(of: UInt8(ascii: ":")),
              bytes[schemeEnd...].starts(with: "://".utf8)
        else { return .failure(ParseFailure("not an absolute URL")) }
        let scheme = String(decoding: bytes[..<schemeEnd], as: UTF8.self).lowercased()
        let defaultPort: Int
        switch scheme {
        case "http": defaultPort = 80
        case "https": defaultPort = 443
        default: return .failure(ParseFailure("scheme is not http or https"))
        }
        let authorityStart = schemeEnd + 3
        let authorityEnd = bytes[authorityStart...].firstIndex {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
        } ?? bytes.endIndex
        let authority = bytes[authorityStart..<authorityEnd]
        if authority.contains(UInt8(ascii: "@")) { return .failure(ParseFailure("userinfo is not allowed")) }
        guard let (host, port) = hostAndPort(authority, defaultPort: defaultPort) else {
            return .failure(ParseFailure("invalid host or port"))
        }
        if bytes[authorityEnd...].contains(UInt8(ascii: "#")) { return .failure(ParseFailure("fragments are not allowed")) }
        let queryStart = bytes[authorityEnd...].firstIndex(of: UInt8(ascii: "?"))
        let pathBytes = bytes[authorityEnd..<(queryStart ?? bytes.endIndex)]
        guard let path = normalisedPath(pathBytes) else {
            return .failure(ParseFailure("path is not allowed"))
        }
        var query: String?
        if let queryStart {
            let queryBytes = bytes[(queryStart + 1)...]
            guard queryBytes.allSatisfy(isQueryByte), hasValidEscapes(queryBytes) else {
                return .failure(ParseFailure("query is not allowed"))
            }
            query = String(decoding: queryBytes, as: UTF8.self)
        }
        return .success(AbsoluteURL(origin: Origin(scheme: scheme, host: host, port: port), path: path, query: query))
    }

    struct ParseFailure: Error, Equatable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func hostAndPort(_ authority: ArraySlice<UInt8>, defaultPort: Int) -> (String, Int)? {
        var hostBytes = authority
        var portBytes: ArraySlice<UInt8> = []
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostBytes = authority[authority.startIndex...close]
            let rest = authority[(close + 1)...]
            if let colon = rest.first {
                guard colon == UInt8(ascii: ":") else { return nil }
                portBytes = rest.dropFirst()
            }
            guard hostBytes.dropFirst().dropLast().allSatisfy({ HexDigit.value(of: $0) != nil || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else { return nil }
        } else {
            if let colon = authority.lastIndex(of: UInt8(ascii: ":")) {
                hostBytes = authority[..<colon]
                portBytes = authority[(colon + 1)...]
            }
            guard hostBytes.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") })
            else { return nil }
        }
        guard !hostBytes.isEmpty else { return nil }
        var port = defaultPort
        if !portBytes.isEmpty {
            guard portBytes.count <= 5, portBytes.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let parsed = Int(String(decoding: portBytes, as: UTF8.self)), (1...65535).contains(parsed)
            else { return nil }
            port = parsed
        }
        return (String(decoding: hostBytes, as: UTF8.self).lowercased(), port)
    }

    private static func normalisedPath(_ bytes: ArraySlice<UInt8>) -> String? {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 1)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex,
                      let high = HexDigit.value(of: bytes[index + 1]),
                      let low = HexDigit.value(of: bytes[index + 2])
                else { return nil }
                let decoded = high << 4 | low
                switch decoded {
                case UInt8(ascii: "/"), UInt8(ascii: "\\"), 0: return nil
                case _ where PercentEncoding.isUnreserved(decoded): output.append(decoded)
                default: output += [UInt8(ascii: "%"), PercentEncoding.hexDigits[Int(high)], PercentEncoding.hexDigits[Int(low)]]
                }
                index += 3
                continue
            }
            guard isPathByte(byte) else { return nil }
            output.append(byte)
            index += 1
        }
        // Unreserved bytes are decoded in `output`; of the escapes left, `%3B` (`;`) counts.
        if DotSegmentScan.holdsDotSegment(percentEncoded: output) { return nil }
        if output.isEmpty { output = [UInt8(ascii: "/")] }
        // Segments follow the leading slash; only the last (after a trailing slash) may be empty.
        var segmentStart = 1
        for position in 1...output.count where position == output.count || output[position] == UInt8(ascii: "/") {
            if position == segmentStart && position != output.count { return nil }
            segmentStart = position + 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// `pchar` and `/` from RFC 3986 §3.3, without `%`, which is checked as an escape.
    private static func isPathByte(_ byte: UInt8) -> Bool {
        if PercentEncoding.isUnreserved(byte) { return true }
        return "/!$&'()*+,;=:@".utf8.contains(byte)
    }

    private static func isQueryByte(_ byte: UInt8) -> Bool {
        isPathByte(byte) || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "%")
    }

    private static func hasValidEscapes(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        while let percent = bytes[index...].firstIndex(of: UInt8(ascii: "%")) {
            guard percent + 2 < bytes.endIndex,
                  HexDigit.value(of: bytes[percent + 1]) != nil, HexDigit.value(of: bytes[percent + 2]) != nil,
                  bytes[percent + 1] != UInt8(ascii: "0") || bytes[percent + 2] != UInt8(ascii: "0")
            else { return false }
            index = percent + 3
        }
        return true
    }
}
