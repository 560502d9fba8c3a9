/// The body of `GET /v1/menu`.
struct MenuResponse: Encodable, Sendable, Equatable {
    let dishOfTheDay: Dish?
    let sections: [MenuSection]
    let degraded: [String]

    /// Merges the menu with the dish of the day, which is nil when that optional part failed.
    init(items: [MenuItem], dishOfTheDay: MenuItem?, degraded: [String]) {
        self.dishOfTheDay = dishOfTheDay.map(Dish.init)
        self.sections = MenuSection.grouping(items)
        self.degraded = degraded
    }

    private enum CodingKeys: String, CodingKey {
        case dishOfTheDay, sections, degraded
    }

    /// Written out so that a missing dish is sent as `null` rather than left out.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(dishOfTheDay, forKey: .dishOfTheDay)
        try container.encode(sections, forKey: .sections)
        try container.encode(degraded, forKey: .degraded)
    }

    static let example = MenuResponse(
        items: [MenuItem(name: "Penne all'Arrabbiata", category: "pastas", spicy: true, price: 4.5)],
        dishOfTheDay: MenuItem(name: "Spaghetti Carbonara", category: "pastas", spicy: false, price: 7.5),
        degraded: [])
}
