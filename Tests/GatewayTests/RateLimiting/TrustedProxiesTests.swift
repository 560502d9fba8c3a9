import HTTP1Server
import NetworkRuntime
import Testing

@testable import Gateway

/// Which address a request is counted under: the peer's, or what trusted proxies say of the client.
@Suite struct TrustedProxiesTests {
    static func request(from peer: String?, _ fields: HTTPHeaders = [:]) -> HTTPRequest {
        HTTPRequest(method: .get, target: "/v1/menu", path: "/v1/menu", query: nil, headers: fields, clientAddress: peer.map { IPAddress($0)! })
    }

    static let proxies = TrustedProxies(["10.0.0.0/8", "192.168.1.7", "fd00::/8"].map { IPAddressRange($0)! })

    static func client(_ proxies: TrustedProxies = proxies, from peer: String?, _ fields: HTTPHeaders = [:]) -> String? {
        proxies.clientAddress(of: request(from: peer, fields))?.description
    }

    @Test func rangesInCIDRNotation() {
        let block = IPAddressRange("10.1.2.3/8")!
        #expect(block.description == "10.0.0.0/8")
        #expect(block.contains(IPAddress("10.255.0.1")!))
        #expect(!block.contains(IPAddress("11.0.0.1")!))
        #expect(block.contains(IPAddress("::ffff:10.9.9.9")!), "an IPv4 client of a dual-stack listener")
        #expect(!block.contains(IPAddress("::10.9.9.9")!))
        let v6 = IPAddressRange("2001:db8::/33")!
        #expect(v6.contains(IPAddress("2001:db8:7fff::1")!))
        #expect(!v6.contains(IPAddress("2001:db8:8000::1")!))
        #expect(!v6.contains(IPAddress("10.0.0.1")!))
        #expect(IPAddressRange("192.0.2.7")!.contains(IPAddress("192.0.2.7")!))
        #expect(!IPAddressRange("192.0.2.7")!.contains(IPAddress("192.0.2.8")!))
        #expect(IPAddressRange("0.0.0.0/0")!.contains(IPAddress("203.0.113.9")!))
        #expect(IPAddressRange("::/0")!.contains(IPAddress("2001:db8::1")!))
        for bad in ["", "10.0.0.0/33", "::/129", "10.0.0/8", "10.0.0.0/", "10.0.0.0/+8", "host.example", "10.0.0.0/8/8", "[::1]"] {
            #expect(IPAddressRange(bad) == nil, "\(bad)")
        }
    }

    @Test func anUntrustedPeerIsTheClientWhateverItSays() {
        #expect(Self.client(from: "203.0.113.5", ["X-Forwarded-For": "198.51.100.1"]) == "203.0.113.5")
        #expect(Self.client(TrustedProxies([]), from: "10.0.0.1", ["X-Forwarded-For": "198.51.100.1"]) == "10.0.0.1", "no proxies trusted")
        #expect(Self.client(from: nil, ["X-Forwarded-For": "198.51.100.1"]) == nil)
    }

    @Test func aTrustedPeerNamesTheClientRightmostUntrustedFirst() {
        #expect(Self.client(from: "10.0.0.1", ["X-Forwarded-For": "198.51.100.1"]) == "198.51.100.1")
        // The client's own claim on the left is never believed: the proxy appended what it saw.
        #expect(Self.client(from: "10.0.0.1", ["X-Forwarded-For": "1.2.3.4, 198.51.100.1"]) == "198.51.100.1")
        // Trusted hops are skipped, across fields too.
        #expect(Self.client(from: "10.0.0.1", ["X-Forwarded-For": "198.51.100.1, 192.168.1.7 ,10.2.2.2"]) == "198.51.100.1")
        let split = HTTPHeaders([.init(name: "X-Forwarded-For", value: "6.6.6.6, 198.51.100.1"), .init(name: "X-Forwarded-For", value: "10.3.3.3")])
        #expect(Self.client(from: "10.0.0.1", split) == "198.51.100.1")
        // Only trusted proxies all the way: the leftmost.
        #expect(Self.client(from: "10.0.0.1", ["X-Forwarded-For": "10.9.9.9, 10.8.8.8"]) == "10.9.9.9")
        // No field: the proxy itself.
        #expect(Self.client(from: "10.0.0.1") == "10.0.0.1")
        #expect(Self.client(from: "::ffff:10.0.0.1", ["X-Forwarded-For": "198.51.100.1"]) == "198.51.100.1")
    }

    @Test func ipv6AndPorts() {
        #expect(Self.client(from: "fd00::1", ["X-Forwarded-For": "2001:db8::7"]) == "2001:db8::7")
        #expect(Self.client(from: "fd00::1", ["X-Forwarded-For": "[2001:db8::7]:4711"]) == "2001:db8::7")
        #expect(Self.client(from: "fd00::1", ["X-Forwarded-For": "198.51.100.1:80"]) == "198.51.100.1")
        #expect(Self.client(from: "fd00::1", ["X-Forwarded-For": "2001:db8::7, fd12::9"]) == "2001:db8::7")
    }

    @Test func malformedElementsEndTheWalk() {
        for bad in ["unknown", "", "198.51.100.1.5", "[2001:db8::7", "[2001:db8::7]x", "198.51.100.1:http", "2001:db8::7:99999x", "_hidden"] {
            #expect(Self.client(from: "10.0.0.1", ["X-Forwarded-For": bad]) == "10.0.0.1", "\(bad)")
        }
        // An element longer than any address, padded to look like one, is garbage too.
        let padded = "198.51.100.1" + String(repeating: " ", count: 60) + ":80"
        #expect(Self.client(from: "10.0.0.1", ["X-Forwarded-For": String(repeating: "1", count: 10_000)]) == "10.0.0.1")
        #expect(Self.client(from: "10.0.0.1", ["X-Forwarded-For": "[" + String(repeating: "a:", count: 40) + "1]"]) == "10.0.0.1")
        #expect(Self.client(from: "10.0.0.1", ["X-Forwarded-For": padded]) == "10.0.0.1")
        // Behind a trusted hop, garbage stops at that hop: nothing beyond it is believed.
        #expect(Self.client(from: "10.0.0.1", ["X-Forwarded-For": "198.51.100.1, garbage, 10.4.4.4"]) == "10.4.4.4")
    }

    @Test func theForwardedField() {
        let proxies = TrustedProxies(Self.proxies.ranges, field: .forwarded)
        #expect(Self.client(proxies, from: "10.0.0.1", ["Forwarded": "for=198.51.100.1;proto=https"]) == "198.51.100.1")
        #expect(Self.client(proxies, from: "10.0.0.1", ["Forwarded": #"For="[2001:db8:cafe::17]:4711""#]) == "2001:db8:cafe::17")
        #expect(Self.client(proxies, from: "10.0.0.1", ["Forwarded": #"for=6.6.6.6, proto=http;for="198.51.100.1:80";by=10.0.0.1"#]) == "198.51.100.1")
        #expect(Self.client(proxies, from: "10.0.0.1", ["Forwarded": "for=198.51.100.1, for=10.5.5.5"]) == "198.51.100.1")
        #expect(Self.client(proxies, from: "10.0.0.1", ["Forwarded": "for=unknown"]) == "10.0.0.1")
        #expect(Self.client(proxies, from: "10.0.0.1", ["Forwarded": "for=_hidden, for=10.5.5.5"]) == "10.5.5.5")
        #expect(Self.client(proxies, from: "10.0.0.1", ["Forwarded": #"for="198.51.100.1"#]) == "10.0.0.1", "an unclosed quote")
        #expect(Self.client(proxies, from: "10.0.0.1", ["Forwarded": "proto=https"]) == "10.0.0.1", "no for")
        // The other field is not read: the proxy passes a client's own through untouched.
        #expect(Self.client(proxies, from: "10.0.0.1", ["X-Forwarded-For": "6.6.6.6"]) == "10.0.0.1")
        #expect(Self.client(from: "10.0.0.1", ["Forwarded": "for=6.6.6.6"]) == "10.0.0.1")
    }
}

extension TrustedProxiesTests {
    @Test func anIPv6ClientIsCountedByItsSlash64AndAMappedIPv4OneAsIPv4() {
        func key(_ address: String) -> String? {
            RateLimitKey(route: 2, subject: nil, address: IPAddress(address))?.description
        }
        #expect(key("2001:db8:1:2:aaaa::1") == "2:ip:2001:db8:1:2::")
        #expect(key("2001:db8:1:2:bbbb::9") == key("2001:db8:1:2:aaaa::1"))
        #expect(key("2001:db8:1:3::1") == "2:ip:2001:db8:1:3::")
        #expect(key("::ffff:192.0.2.9") == "2:ip:192.0.2.9")
        #expect(key("192.0.2.9") == "2:ip:192.0.2.9")
        #expect(RateLimitKey(route: 2, subject: "alice", address: IPAddress("192.0.2.9"))?.description == "2:sub:alice")
        #expect(RateLimitKey(route: 2, subject: "", address: IPAddress("192.0.2.9"))?.description == "2:ip:192.0.2.9")
        #expect(RateLimitKey(route: 2, subject: String(repeating: "é", count: 200), address: nil)?.description.utf8.count == 2 + 4 + 256)
        #expect(RateLimitKey(route: 2, subject: nil, address: nil) == nil)
    }
}
