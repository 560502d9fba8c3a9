import HTTPBasics
import UpstreamKit

/// Splits a `Set-Cookie` value that Foundation folded from several fields into one, joined by commas.
///
/// `HTTPURLResponse` merges repeated fields with `, `, but cookie `Expires` dates contain commas too
/// (`Wed, 21 Oct 2026 07:28:00 GMT`). A comma starts a new cookie only when what follows it reads
/// `name=` before any `;`, which an `Expires` date never does.
enum FoldedSetCookie {
    static func split(_ folded: String) -> [String] {
        var cookies: [String] = []
        var current = Substring()
        var rest = Substring(folded)
        while let comma = rest.firstIndex(of: ",") {
            let after = rest[rest.index(after: comma)...]
            current += rest[..<comma]
            if startsCookie(after) {
                cookies.append(String(current.drop { $0 == " " }))
                current = ""
            } else {
                current += ","
            }
            rest = after
        }
        current += rest
        cookies.append(String(current.drop { $0 == " " }))
        return cookies.filter { !$0.isEmpty }
    }

    private static func startsCookie(_ text: Substring) -> Bool {
        let candidate = text.drop { $0 == " " }
        guard let equals = candidate.firstIndex(of: "=") else { return false }
        let name = candidate[..<equals]
        return !name.isEmpty && FieldSyntax.isToken(name)
    }
}
