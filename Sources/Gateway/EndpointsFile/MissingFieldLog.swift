import Synchronization

/// The references of one file endpoint that found no field in their call's answer: counted for
/// `/metrics` (`gateway_template_missing_fields_total`) and written as warnings, limited in rate
/// (`MissingFieldCounts`). Nothing is touched while every field is there.
final class MissingFieldLog: Sendable {
    /// The route as metrics label it (`/v2/books/:isbn`), and as the log names it.
    let route: String
    private let method: String
    /// Per call, the text of each reference into its answer (`book.titel`), in extraction order.
    private let references: [[String]]
    /// Per call, the index of its first reference in the flat slots of `counts`.
    private let firstSlot: [Int]
    private let counts: Mutex<MissingFieldCounts>

    init(method: String, route: String, references: [[String]]) {
        self.method = method
        self.route = route
        self.references = references
        var first: [Int] = []
        var total = 0
        for call in references {
            first.append(total)
            total += call.count
        }
        firstSlot = first
        counts = Mutex(MissingFieldCounts(slots: total))
    }

    /// Counts the references `missing` (indices into call `call`'s) and logs those due a warning.
    func record(call: Int, missing: [Int], events: EventLog) {
        let now = ContinuousClock.now
        let due = counts.withLock { counts in missing.compactMap { index in counts.record(firstSlot[call] + index, at: now).map { (index, $0) } } }
        for (index, count) in due {
            events.log(
                .warning,
                "endpoint \(method) \(route): reference {\(references[call][index])} found no field in the answer"
                    + (count > 1 ? " (\(count) times since the last warning)" : ""))
        }
    }

    /// Every reference that has missed, with its count, in file order.
    var totals: [(reference: String, count: Int)] {
        let totals = counts.withLock { $0.totals }
        return references.indices.flatMap { call in
            references[call].indices.compactMap { index in
                let count = totals[firstSlot[call] + index]
                return count > 0 ? (references[call][index], count) : nil
            }
        }
    }
}
