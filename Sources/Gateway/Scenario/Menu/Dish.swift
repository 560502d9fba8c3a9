/// A dish as the client sees it: no category, which its section already says.
struct Dish: Encodable, Sendable, Equatable {
    let name: String
    let price: Double
    let spicy: Bool

    init(name: String, price: Double, spicy: Bool) {
        self.name = name
        self.price = price
        self.spicy = spicy
    }

    init(_ item: MenuItem) {
        self.init(name: item.name, price: item.price, spicy: item.spicy)
    }
}
