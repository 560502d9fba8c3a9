import Gateway

/// The body of `GET /v1/menu`; the framework adds `degraded`.
package struct MenuResponse: Encodable, Sendable, Equatable {
    @Nullable var dishOfTheDay: Dish?
    let sections: [MenuSection]

    /// Merges the menu with the dish of the day, which is nil when that optional part failed.
    package init(items: [MenuItem], dishOfTheDay: MenuItem?) {
        self.dishOfTheDay = dishOfTheDay.map(Dish.init)
        self.sections = MenuSection.grouping(items)
    }

    static let example = MenuResponse(
        items: [MenuItem(name: "Penne all'Arrabbiata", category: "pastas", spicy: true, price: 4.5)],
        dishOfTheDay: MenuItem(name: "Spaghetti Carbonara", category: "pastas", spicy: false, price: 7.5))
}
