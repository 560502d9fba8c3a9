/// Where `JSONString` writes a quoted string: the encoder's `JSONWriter`, or a byte array.
protocol JSONOutput {
    mutating func write(_ byte: UInt8)
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>)
}
