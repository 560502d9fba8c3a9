import Foundation
import Gateway
import ReferenceScenario

/// The upstream bodies the benchmarks serve and decode, from the gateway's demo fixtures: the
/// menu files as they are, SWAPI documents with their links under a loopback base (as the
/// benchmark kit's simulator writes them), and a draw of the ten cards the deal endpoint asks
/// for by default (two hands of five) in the demo deck's format.
enum FixtureBodies {
    static let menu = Array(DemoMenuFixtures.menu.utf8)
    static let dishOfTheDay = Array(DemoMenuFixtures.dishOfTheDay.utf8)
    static let person = swapiDocument("people/1")
    static let planet = swapiDocument("planets/1")
    static let starship = swapiDocument("starships/12")

    static let deckDraw: [UInt8] = {
        let cards = DemoCard.all.prefix(10).map(\.json).joined(separator: ",")
        return Array(#"{"success":true,"deck_id":"p3mqlyvcvjyl","cards":[\#(cards)],"remaining":42}"#.utf8)
    }()

    /// A document the fixtures lack comes back empty, which fails the benchmarks that decode it.
    private static func swapiDocument(_ path: String) -> [UInt8] {
        let document = DemoSwapiFixtures.documents[path] ?? ""
        return Array(document.replacingOccurrences(of: DemoSwapiFixtures.placeholderBase, with: "http://127.0.0.1:44055/swapi/api").utf8)
    }
}
