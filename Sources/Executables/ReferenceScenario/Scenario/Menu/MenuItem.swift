/// One entry of the menu upstream's `menu_response.json`, and its `dish_of_the_day.json`.
package struct MenuItem: Decodable, Sendable, Equatable {
    let name: String
    let category: String
    let spicy: Bool
    let price: Double
}
