// libFuzzer entry point for the decoding of a sealed session record's plaintext
// (`SessionRecordCoding`). `SessionSealer` decodes only after the AES-GCM tag verified, so these
// bytes come from a replica holding the key; the fuzzer still holds the decoder to what its
// comment promises: no input reads out of bounds or crashes, and whatever decodes is exactly one
// record, written back to the same bytes. Built by scripts/fuzz-parser together with the
// record's two sources, outside SwiftPM.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionRecord(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    guard let record = SessionRecordCoding.decode(bytes) else { return 0 }
    guard SessionRecordCoding.encode(record) == bytes else { fatalError("a decoded record does not encode to its bytes") }
    return 0
}
