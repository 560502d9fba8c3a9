import Foundation

/// The encoding state of one `encode` call, as the encoder and its containers reach it.
///
/// A pointer rather than a class reference: the top-level call owns the state for exactly the
/// duration of encoding, and access through a pointer costs no reference counting and no dynamic
/// exclusivity checks, which otherwise take a third of the encoding time. Encoders and containers
/// must not outlive the `encode(to:)` call they are handed to (no `Encodable` type keeps them).
/// Every `state.pointee` access is a short call that never reaches model code, so accesses never overlap.
struct EncodingContext {
    let state: UnsafeMutablePointer<EncodingState>

    /// Encodes a whole document: the top-level value, with `member` added last to the object it
    /// must then be, then closes every container. A misuse recorded where throwing was impossible
    /// is reported in preference to what followed from it.
    func encodeDocument<T: Encodable>(_ value: T, addingMember member: (key: String, strings: [String])?) throws {
        let serial = state.pointee.announceValue(at: nil)
        do {
            try encodeContents(of: value, depth: 0, serial: serial)
            if let member {
                try state.pointee.addMember(member.key, strings: member.strings, toTopLevelObject: serial)
            }
        } catch {
            throw state.pointee.deferredError ?? error
        }
        if let error = state.pointee.deferredError { throw error }
        if state.pointee.isPending(serial) {
            throw JSONEncodingError(reason: .emptyValue, message: "the top-level \(T.self) encoded no value")
        }
        state.pointee.finishDocument()
    }

    /// Encodes a value at an announced position; one that encodes nothing becomes `{}`, as with
    /// Foundation's `JSONEncoder`.
    func encodeValue<T: Encodable>(_ value: T, depth: Int, serial: UInt32) throws {
        try encodeContents(of: value, depth: depth, serial: serial)
        state.pointee.finishValue(serial: serial)
    }

    /// URLs are written as strings, like Foundation's `JSONEncoder`; other values encode themselves.
    private func encodeContents<T: Encodable>(of value: T, depth: Int, serial: UInt32) throws {
        if T.self == URL.self, let url = value as? URL {
            try state.pointee.beginValue(depth: depth, serial: serial)
            state.pointee.writer.writeString(url.absoluteString)
            return
        }
        try value.encode(to: StreamingEncoder(context: self, depth: depth, serial: serial))
    }

    func nonConformingNumber(at path: [any CodingKey]) -> JSONEncodingError {
        JSONEncodingError(
            reason: .nonConformingNumber,
            message: "NaN and infinity cannot be represented in JSON",
            codingPath: CodingPathRendering.render(path)
        )
    }

    /// Records that a model asked for `superEncoder`, and hands it an encoder that accepts nothing.
    /// Writing bytes in order leaves no place for a value that may be written later or never.
    func unsupportedSuperEncoder(at path: [any CodingKey]) -> any Encoder {
        state.pointee.recordMisuse(JSONEncodingError(
            reason: .unsupported,
            message: "superEncoder is not supported",
            codingPath: CodingPathRendering.render(path)
        ))
        return StreamingEncoder(context: self, depth: -1, serial: 0)
    }
}
