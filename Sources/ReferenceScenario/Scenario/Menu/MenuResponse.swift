/// The body of `GET /v1/menu`.
package struct MenuResponse: Encodable, Sendable, Equatable {
    @Nullable var dishOfTheDay: Dish?
    let sections: [MenuSection]
    let degraded: [String]

    /// Merges the menu with the dish of the day, which is nil when that optional part failed.
    package init(items: [MenuItem], dishOfTheDay: MenuItem?, degraded: [String]) {
        self.dishOfTheDay = dishOfTheDay.map(Dish.init)
        self.sections = MenuSection.grouping(items)
        self.degraded = degraded
    }

    static let example = MenuResponse(
        items: [MenuItem(name: "Penne all'Arrabbiata", category: "pastas", spicy: true, price: 4.5)],
        dishOfTheDay: MenuItem(name: "Spaghetti Carbonara", category: "pastas", spicy: false, price: 7.5),
        degraded: [])
}
