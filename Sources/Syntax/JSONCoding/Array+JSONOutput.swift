extension Array: JSONOutput where Element == UInt8 {
    mutating func write(_ byte: UInt8) { append(byte) }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) { append(contentsOf: bytes) }
}
