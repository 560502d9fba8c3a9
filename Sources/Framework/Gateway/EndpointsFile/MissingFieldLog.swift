import Synchronization

/// The references of one file endpoint that found no field in their call's answer, and the
/// response expressions that failed: counted for `/metrics` (`gateway_template_missing_fields_total`,
/// `gateway_template_expression_failures_total`) and written as warnings, limited in rate
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
    /// Where each expression of the response is (`rating`), in the template's order.
    private let expressions: [String]
    private let expressionCounts: Mutex<MissingFieldCounts>

    init(method: String, route: String, references: [[String]], expressions: [String] = []) {
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
        self.expressions = expressions
        expressionCounts = Mutex(MissingFieldCounts(slots: expressions.count))
    }

    /// Counts a failure of the response's expression `index` and logs it when a warning is due.
    func recordFailure(ofExpression index: Int, _ error: String, events: EventLog) {
        let now = ContinuousClock.now
        guard let count = expressionCounts.withLock({ $0.record(index, at: now) }) else { return }
        warn("the expression of response member \(expressions[index]) failed: \(error)", count: count, events: events)
    }

    /// One warning line about this endpoint, saying how many times it happened since the last.
    private func warn(_ fault: String, count: Int, events: EventLog) {
        events.log(.warning, "endpoint \(method) \(route): \(fault)" + (count > 1 ? " (\(count) times since the last warning)" : ""))
    }

    /// Every response expression that has failed, with its count, in template order.
    var expressionFailureTotals: [(member: String, count: Int)] {
        let totals = expressionCounts.withLock { $0.totals }
        return expressions.indices.compactMap { totals[$0] > 0 ? (expressions[$0], totals[$0]) : nil }
    }

    /// Counts the references `missing` (indices into call `call`'s) and logs those due a warning.
    func record(call: Int, missing: [Int], events: EventLog) {
        let now = ContinuousClock.now
        let due = counts.withLock { counts in missing.compactMap { index in counts.record(firstSlot[call] + index, at: now).map { (index, $0) } } }
        for (index, count) in due {
            warn("reference {\(references[call][index])} found no field in the answer", count: count, events: events)
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
