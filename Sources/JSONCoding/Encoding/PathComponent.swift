/// One step of an encoding coding path, kept cheap until a path is actually requested.
enum PathComponent {
    case key(any CodingKey)
    case index(Int)

    var codingKey: any CodingKey {
        switch self {
        case .key(let key): key
        case .index(let index): IndexOrNameKey(intValue: index)
        }
    }
}
