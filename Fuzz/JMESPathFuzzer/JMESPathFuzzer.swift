// libFuzzer entry point for the JMESPath compiler and evaluator (an endpoints file's expressions,
// and whatever an operator types after `gateway --jmespath`). Built by scripts/fuzz-parser
// together with the sources of JSONCoding and JMESPath, outside SwiftPM. The input is an
// expression, then optionally a NUL byte and a JSON document to evaluate it on. Besides "never
// crashes" (deep nesting must be a syntax error, not a stack overflow), it checks that every
// error names a position inside the expression, and that compiling is deterministic.
import JMESPath

/// A document with a bit of everything, for inputs that bring none of their own.
private let fallback = try! JMESPathValue(
    parsingJSON: Array(#"{"a":{"b":[1,2,{"c":"x"}],"d":null},"e":[[1,2],[3,[4]]],"f":"text","g":-1.5,"h":true,"i":[]}"#.utf8))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJMESPath(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let text = String(decoding: bytes[..<split], as: UTF8.self)
    let length = text.unicodeScalars.count
    let document = split < bytes.count ? (try? JMESPathValue(parsingJSON: Array(bytes[(split + 1)...]))) ?? fallback : fallback
    let compiled: JMESPathExpression
    do {
        compiled = try JMESPathExpression(text, allowsLegacyLiterals: size % 2 == 0)
    } catch {
        guard (0...length).contains(error.position) else { fatalError("\(error) is outside the \(length) characters of \(text.debugDescription)") }
        let again = Result { () throws(JMESPathError) in try JMESPathExpression(text, allowsLegacyLiterals: size % 2 == 0) }
        guard case .failure(let second) = again, second == error else { fatalError("compiling \(text.debugDescription) twice differed") }
        return 0
    }
    do {
        _ = try compiled.evaluate(on: document).json
    } catch {
        guard (0...length).contains(error.position) else { fatalError("\(error) is outside the \(length) characters of \(text.debugDescription)") }
    }
    return 0
}
