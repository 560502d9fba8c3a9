/// A dish as the client sees it: no category, which its section already says.
struct Dish: Encodable, Sendable, Equatable {
    let name: String
    let price: Double
    let spicy: Bool
}

extension Dish {
    init(_ item: MenuItem) {
        self.init(name: item.name, price: item.price, spicy: item.spicy)
    }
}
