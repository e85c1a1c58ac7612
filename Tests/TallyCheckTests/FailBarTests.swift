import Testing
import TallyModel
@testable import TallyCheck

/// The one value that says whether a run fails: `fail_on`, `--strict`, recording a baseline.
@Suite struct FailBarTests {
    static func finding(_ severity: Severity) -> Finding {
        Finding(ruleID: .price, severity: severity, productID: "com.a", territory: .usa, field: .prices, message: "com.a differs",
                left: FindingSide(role: .configuration, value: "1", location: SourceLocation(file: "App.storekit", line: 1, column: 1)))
    }

    @Test func failOnStrictAndRecordingSetTheBar() {
        var policy = Policy()
        let warning = CheckResult(findings: [Self.finding(.warning)])
        #expect(FailBar(policy: policy).severity == .error)
        #expect(!FailBar(policy: policy).fails(warning))
        #expect(FailBar(policy: policy, strict: true).fails(warning))
        policy.failOn = .warning
        #expect(FailBar(policy: policy).fails(warning), "fail_on: warning fails a warning without --strict")
        #expect(FailBar(policy: policy, strict: true).severity == .warning)
        let error = CheckResult(findings: [Self.finding(.error)])
        #expect(!FailBar(policy: policy, strict: true, recordingBaseline: true).fails(error), "recording a baseline fails on nothing")
    }

    @Test func theGateAndThePolicyReadTheSameBar() {
        var policy = Policy()
        policy.failOn = .warning
        let warning = CheckResult(findings: [Self.finding(.warning)])
        #expect(policy.fails(warning) == FailBar(policy: policy).fails(warning))
    }
}
