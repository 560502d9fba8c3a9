/// An optional property that is encoded as `null` when empty instead of being left out, as
/// combined responses require for parts that failed.
///
/// ```swift
/// struct BookPage: Encodable {
///     let title: String
///     @Nullable var averageStars: Double?    // "averageStars":null
/// }
/// ```
@propertyWrapper
public struct Nullable<Value: Encodable & Sendable>: Encodable, Sendable {
    /// The value, or nil for `null`.
    public var wrappedValue: Value?

    /// Wraps `wrappedValue`.
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Encodes the value, or `null` when there is none.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

extension Nullable: Equatable where Value: Equatable {}

/// Marks `Nullable` for `TypedValueEncoder`, which documents such members as nullable in OpenAPI.
protocol NullableMember {}

extension Nullable: NullableMember {}
