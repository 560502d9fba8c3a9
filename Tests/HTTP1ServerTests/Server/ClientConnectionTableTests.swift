import NetworkRuntime
import Testing

@testable import HTTP1Server

@Suite struct ClientConnectionTableTests {
    private let alice = IPAddress("192.0.2.1")!
    private let bob = IPAddress("192.0.2.2")!

    @Test func keepsEachClientsConnectionsOldestFirst() {
        var table = ClientConnectionTable()
        table.add(1, of: alice)
        table.add(2, of: bob)
        table.add(3, of: alice)
        table.add(4, of: alice)
        #expect(table.connections(of: alice) == [1, 3, 4])
        #expect(table.connections(of: bob) == [2])
        table.remove(3, of: alice)
        #expect(table.connections(of: alice) == [1, 4])
        #expect(table.count == 3)
    }

    @Test func forgetsAClientWithItsLastConnection() {
        var table = ClientConnectionTable()
        table.add(1, of: alice)
        table.add(2, of: bob)
        table.remove(1, of: alice)
        #expect(table.connections(of: alice).isEmpty)
        #expect(table.clientCount == 1)
        table.remove(2, of: bob)
        #expect(table.clientCount == 0)
        #expect(table.count == 0)
    }

    @Test func removingWhatItDoesNotHoldChangesNothing() {
        var table = ClientConnectionTable()
        table.add(1, of: alice)
        table.remove(1, of: bob)
        table.remove(2, of: alice)
        #expect(table.connections(of: alice) == [1])
        #expect(table.count == 1)
    }

    @Test func neverHoldsMoreThanTheConnectionsInIt() {
        // Many clients coming and going, each with a few connections: the table holds no
        // client and no number beyond the connections open at the moment.
        var table = ClientConnectionTable()
        var open: [(UInt64, IPAddress)] = []
        var nextID: UInt64 = 0
        for round in 0..<2_000 {
            let client = IPAddress("10.\(round % 7).\(round % 251).\(round % 13)")!
            table.add(nextID, of: client)
            open.append((nextID, client))
            nextID += 1
            if open.count > 50 {
                let (id, owner) = open.remove(at: (round * 31) % open.count)
                table.remove(id, of: owner)
            }
            #expect(table.count == open.count)
            #expect(table.clientCount <= open.count)
        }
        for (id, owner) in open { table.remove(id, of: owner) }
        #expect(table.count == 0 && table.clientCount == 0)
    }

    @Test func anIPv6SubscriberCountsAsOneClientPerSlash64() {
        var table = ClientConnectionTable()
        for text in ["2001:db8:0:1::1", "2001:db8:0:1::2", "2001:db8:0:1:ffff:ffff:ffff:ffff"] {
            table.add(UInt64(table.count), of: IPAddress(text)!.clientNetwork)
        }
        table.add(3, of: IPAddress("2001:db8:0:2::1")!.clientNetwork)
        // An IPv4 client of a dual-stack listener counts as its IPv4 address.
        table.add(4, of: IPAddress("::ffff:192.0.2.1")!.clientNetwork)
        table.add(5, of: alice.clientNetwork)
        #expect(table.connections(of: IPAddress("2001:db8:0:1::")!) == [0, 1, 2])
        #expect(table.connections(of: alice) == [4, 5])
        #expect(table.clientCount == 3)
    }
}
