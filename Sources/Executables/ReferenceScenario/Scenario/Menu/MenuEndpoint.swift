import Gateway

extension Endpoint {
    /// `GET /v1/menu`: the menu and the dish of the day fetched at once; the dish is optional.
    static let menu = Endpoint(
        "/v1/menu",
        summary: "The menu grouped by category, with the dish of the day",
        upstreams: [.menu],
        optionalParts: ["dishOfTheDay"],
        example: MenuResponse.example
    ) { call in
        let menu = try call.upstream(.menu)
        async let dishOfTheDay = call.optional("dishOfTheDay") { try await menu.get("dish_of_the_day.json", as: MenuItem.self) }
        let items = try await menu.get("menu_response.json", as: [MenuItem].self)
        let dish = try await dishOfTheDay
        return MenuResponse(items: items, dishOfTheDay: dish)
    }
}
