/// A benchmark that could not run as intended (a failed request, an unexpected answer).
struct BenchmarkFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
