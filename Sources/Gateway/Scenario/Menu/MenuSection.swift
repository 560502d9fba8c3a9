/// The dishes of one category.
struct MenuSection: Encodable, Sendable, Equatable {
    let category: String
    var items: [Dish]

    /// Groups items by category, sections in the order their category first appears and
    /// dishes in menu order.
    static func grouping(_ items: [MenuItem]) -> [MenuSection] {
        var sections: [MenuSection] = []
        var indexByCategory: [String: Int] = [:]
        for item in items {
            if let index = indexByCategory[item.category] {
                sections[index].items.append(Dish(item))
            } else {
                indexByCategory[item.category] = sections.count
                sections.append(MenuSection(category: item.category, items: [Dish(item)]))
            }
        }
        return sections
    }
}
