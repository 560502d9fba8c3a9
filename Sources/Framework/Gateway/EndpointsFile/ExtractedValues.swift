import JMESPath
import JSONCoding

/// The values one source gives to the references into it, worked out once per request: each
/// as JSON text, and as plain text when a template interpolates it. A missing value is `null`
/// and has no text.
struct ExtractedValues: Sendable {
    /// Every value's JSON, one after the other.
    private var json: [UInt8] = []
    private var ranges: [Range<Int>] = []
    private var texts: [String?] = []
    /// The indices of the values whose path found nothing in the answer (a missing member, an
    /// index past the end, a step into the wrong kind of value), as opposed to a `null` there.
    /// Empty, and never allocated, while every field is there.
    private(set) var missing: [Int] = []
    /// The whole answer, decoded for the JMESPath expressions that read it; nil when none does.
    private(set) var document: JMESPathValue?

    init(capacity: Int) {
        ranges.reserveCapacity(capacity)
        texts.reserveCapacity(capacity)
    }

    /// The value at `index` as JSON.
    func json(at index: Int) -> ArraySlice<UInt8> {
        json[ranges[index]]
    }

    /// The value at `index` as text: a string unescaped, a number as written, `true`/`false`,
    /// a container as JSON; nil for `null` or missing.
    func text(at index: Int) -> String? {
        texts[index]
    }

    /// Appends a value: `write` adds its JSON, `text` is its text.
    mutating func append(text: String?, _ write: (inout [UInt8]) -> Void) {
        let start = json.count
        write(&json)
        ranges.append(start..<json.count)
        texts.append(text)
    }

    mutating func appendNull() {
        append(text: nil) { $0.append(contentsOf: "null".utf8) }
    }

    /// The values `extractions` pick out of a JSON answer. Missing members, indices past the
    /// end and steps into the wrong kind of value give `null`.
    ///
    /// - Throws: when `body` is not valid JSON (or nests deeper than the decoder allows).
    init(extracting extractions: [Extraction], from body: [UInt8], keepingDocument: Bool = false) throws(JSONDecodingError) {
        self = try JSONReader.read(body) { document in
            var values = ExtractedValues(capacity: extractions.count)
            if keepingDocument { values.document = JMESPathValue(document.root, in: document) }
            values.json.reserveCapacity(256)
            for extraction in extractions {
                values.append(extraction, from: document)
            }
            return values
        }
    }

    private mutating func append(_ extraction: Extraction, from document: JSONReader) {
        guard !extraction.steps.contains(.each) else {
            // A projection is an array built here; its text is that JSON.
            let start = json.count
            Self.write(extraction.steps[...], from: document.root, in: document, to: &json)
            // Only a projection whose array is not there (or is null) writes a bare null.
            if json.count - start == 4 && json[start] == UInt8(ascii: "n") { recordMissing() }
            ranges.append(start..<json.count)
            texts.append(extraction.isText ? String(decoding: json[start...], as: UTF8.self) : nil)
            return
        }
        var value: JSONReader.Value? = document.root
        for step in extraction.steps {
            guard let current = value else { break }
            value = Self.follow(step, from: current, in: document)
        }
        guard let value, document.kind(of: value) != .null else {
            if value == nil { recordMissing() }
            appendNull()
            return
        }
        let start = json.count
        document.writeJSON(value, to: &json)
        ranges.append(start..<json.count)
        guard extraction.isText else {
            texts.append(nil)
            return
        }
        switch document.kind(of: value) {
        case .string: texts.append(document.string(value))
        case .number: texts.append(document.numberText(value))
        default: texts.append(String(decoding: json[start...], as: UTF8.self))
        }
    }

    /// Notes that the value about to be appended found nothing; out of line, so the path where
    /// every field is there stays as small as before.
    @inline(never)
    private mutating func recordMissing() {
        missing.append(ranges.count)
    }

    private static func follow(_ step: Reference.Step, from value: JSONReader.Value, in document: JSONReader) -> JSONReader.Value? {
        switch step {
        case .member(let name): document.member(name, of: value)
        case .index(let index): document.element(index, of: value)
        case .each: nil
        }
    }

    /// Writes what `steps` select from `value`, mapping the rest of the path over the elements
    /// at each `[*]`. Recursion is bounded by the number of steps, which references limit.
    private static func write(_ steps: ArraySlice<Reference.Step>, from value: JSONReader.Value?, in document: JSONReader, to bytes: inout [UInt8]) {
        guard let value else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        guard let step = steps.first else {
            document.writeJSON(value, to: &bytes)
            return
        }
        guard step == .each else {
            write(steps.dropFirst(), from: follow(step, from: value, in: document), in: document, to: &bytes)
            return
        }
        guard document.kind(of: value) == .array else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        bytes.append(UInt8(ascii: "["))
        var isFirst = true
        document.forEachElement(of: value) { element in
            if !isFirst { bytes.append(UInt8(ascii: ",")) }
            isFirst = false
            write(steps.dropFirst(), from: element, in: document, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }
}
