/// One step of an encoding coding path, kept cheap until a path is actually requested.
///
/// Plain data, so recording one per member costs no reference counting or value-witness calls:
/// a key is referred to where it lives rather than copied into an existential.
enum PathComponent {
    /// A key the model passed to `encode(_:forKey:)`, read through a pointer into that call's
    /// frame; `EncodingState` forgets the component when the call returns.
    case borrowedKey(UnsafeRawPointer, any CodingKey.Type)
    /// A key copied into `EncodingState`'s kept keys, at this position there: used for containers
    /// nested directly under a key, which outlive the call that names them.
    case keptKey(Int)
    case index(Int)

    /// The coding key this component stands for; `keptKeys` is the state's store of kept keys.
    func codingKey(keptKeys: [any CodingKey]) -> any CodingKey {
        switch self {
        case .borrowedKey(let pointer, let keyType): Self.load(keyType, from: pointer)
        case .keptKey(let position): keptKeys[position]
        case .index(let index): IndexOrNameKey(intValue: index)
        }
    }

    private static func load<Key: CodingKey>(_ keyType: Key.Type, from pointer: UnsafeRawPointer) -> any CodingKey {
        pointer.assumingMemoryBound(to: Key.self).pointee
    }
}
