/// The dishes of one category.
struct MenuSection: Encodable, Sendable, Equatable {
    let category: String
    var items: [Dish]

    /// Sections found by comparing categories one by one; more go through a dictionary.
    /// A menu has a handful of categories, and comparing a few short names costs less than
    /// hashing one; the dictionary keeps a menu with a category per item from taking
    /// quadratic time.
    static let scannedSectionLimit = 16

    /// Groups items by category, sections in the order their category first appears and
    /// dishes in menu order.
    static func grouping(_ items: [MenuItem]) -> [MenuSection] {
        var sections: [MenuSection] = []
        sections.reserveCapacity(min(items.count, scannedSectionLimit))
        var indexByCategory: [String: Int] = [:]
        for item in items {
            let found =
                sections.count <= scannedSectionLimit
                ? sections.firstIndex { $0.category == item.category }
                : indexByCategory[item.category]
            if let found {
                sections[found].items.append(Dish(item))
                continue
            }
            sections.append(MenuSection(category: item.category, items: [Dish(item)]))
            if sections.count == scannedSectionLimit + 1 {
                indexByCategory = Dictionary(uniqueKeysWithValues: sections.indices.lazy.map { (sections[$0].category, $0) })
            } else if sections.count > scannedSectionLimit + 1 {
                indexByCategory[item.category] = sections.count - 1
            }
        }
        return sections
    }
}
