import Foundation
import JMESPath
import Testing

/// The public compliance suites, vendored under Compliance/: every case of the community
/// edition's suite passes, and every case of the original suite except those the community
/// specification changed on purpose (`ComplianceSuite.changedByCommunity`).
@Suite struct ComplianceTests {
    @Test func communitySuitePassesEveryCase() throws {
        let outcome = try ComplianceSuite.run("community")
        #expect(outcome.failures == [], "\(outcome.passed) of \(outcome.total) passed")
        #expect(outcome.total == 1074)
    }

    @Test func legacySuitePassesAllButTheCommunityChanges() throws {
        let outcome = try ComplianceSuite.run("legacy")
        let failed = Set(outcome.failures.map(\.expression))
        #expect(failed == ComplianceSuite.changedByCommunity, "\(outcome.passed) of \(outcome.total) passed")
        #expect(outcome.total == 908)
    }
}

/// Runs a vendored suite in process.
enum ComplianceSuite {
    /// The original suite's expressions whose results the community specification changed
    /// (docs/ENDPOINTS-FILE.md says why).
    static let changedByCommunity: Set<String> = [#"'\\'"#]

    struct Failure: Equatable, CustomStringConvertible {
        let file: String
        let expression: String
        let problem: String
        var description: String { "\(file): \(expression): \(problem)" }
    }

    static func run(_ suite: String) throws -> (passed: Int, total: Int, failures: [Failure]) {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Compliance/\(suite)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        var total = 0
        var failures: [Failure] = []
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
            guard case .array(let groups) = try JMESPathValue(parsingJSON: bytes) else { continue }
            for group in groups {
                guard case .array(let cases)? = group["cases"] else { continue }
                let given = group["given"] ?? .null
                for testCase in cases {
                    guard case .string(let expression)? = testCase["expression"] else { continue }
                    total += 1
                    // The community suite's legacy/ cases are for implementations that accept the
                    // deprecated literals, its jep-12/ cases for those that do not; the original suite predates JEP-12.
                    let legacy = suite == "legacy" || file.hasPrefix("legacy-")
                    if let problem = check(expression, given: given, testCase, allowsLegacyLiterals: legacy) {
                        failures.append(Failure(file: file, expression: expression, problem: problem))
                    }
                }
            }
        }
        return (total - failures.count, total, failures)
    }

    /// Nil when the case passes, else what went wrong.
    private static func check(_ expression: String, given: JMESPathValue, _ testCase: JMESPathValue, allowsLegacyLiterals: Bool) -> String? {
        let outcome: Result<JMESPathValue, JMESPathError> = Result { () throws(JMESPathError) in
            try JMESPathExpression(expression, allowsLegacyLiterals: allowsLegacyLiterals).evaluate(on: given)
        }
        switch (outcome, testCase["result"], testCase["error"]) {
        case (.success(let value), let expected?, _):
            return value == expected ? nil : "expected \(expected.json), got \(value.json)"
        case (.failure(let error), _?, _): return "expected a result, got \(error)"
        case (.success(let value), nil, .string(let kind)?): return "expected a \(kind) error, got \(value.json)"
        case (.failure(let error), nil, .string(let kind)?):
            return error.kind.rawValue == kind ? nil : "expected a \(kind) error, got \(error)"
        case (.success, nil, _): return nil
        case (.failure(let error), nil, _): return "benchmark failed: \(error)"
        }
    }
}
