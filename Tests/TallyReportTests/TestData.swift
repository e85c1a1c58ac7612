import Foundation
import TallyCheck
import TallyModel

// Test-data factories: every argument has a default, so a test names only what it is about.

extension FindingSide {
    static func test(
        role: String = "configuration", value: FindingValue? = .money(Money(amount: Decimal(string: "4.99") ?? 0, currency: "USD")),
        file: String = "configs/App.storekit",
        line: Int? = 42, column: Int? = 7, path: String? = nil
    ) -> FindingSide {
        FindingSide(role: SourceRole(rawValue: role), value: value, location: TallyModel.SourceLocation(file: file, line: line, column: column, path: path))
    }
}

extension Finding {
    static func test(
        rule: RuleID = .price, severity: Severity = .error, product: String? = "com.example.pro.monthly",
        territory: Territory? = nil, offer: String? = nil, field: Field = .prices,
        message: FindingMessage = "\(product: "com.example.pro.monthly") costs \(Money(amount: Decimal(string: "4.99") ?? 0, currency: "USD")) in \(Territory.usa) in \(source: "the configuration") but \(Money(amount: Decimal(string: "5.99") ?? 0, currency: "USD")) in \(source: "the catalogue")",
        left: FindingSide? = .test(),
        right: FindingSide? = .test(role: "catalog", value: .money(Money(amount: Decimal(string: "5.99") ?? 0, currency: "USD")), file: "catalog/products.yaml", line: 18, column: 14),
        hint: String? = nil
    ) -> Finding {
        Finding(ruleID: rule, severity: severity, productID: product, territory: territory, offerID: offer, field: field,
                message: message, left: left, right: right, hint: hint)
    }
}

extension CheckedSubject {
    static func test(
        rule: RuleID = .price, subject: String = "com.example.pro.monthly", file: String? = "configs/App.storekit", line: Int? = 40
    ) -> CheckedSubject {
        CheckedSubject(ruleID: rule, subject: subject, location: file.map { TallyModel.SourceLocation(file: $0, line: line, column: 5) })
    }
}

extension PairSummary {
    static func test(
        catalog: String = "catalog/products.yaml", shared: Int = 3,
        compared: [Field] = [.kind, .familyShareable, .prices, .period], skipped: [Skipped] = []
    ) -> PairSummary {
        PairSummary(configuration: "configs/App.storekit", catalog: catalog, territory: .usa, sharedProducts: shared,
                    compared: compared, skipped: skipped)
    }
}

extension CheckResult {
    /// The comparisons are the pairs' own lines, as `Checker` writes them.
    static func test(
        findings: [Finding] = [], checked: [CheckedSubject] = [.test()],
        sources: [String] = ["configs/App.storekit", "catalog/products.yaml"],
        pairs: [PairSummary] = [.test()]
    ) -> CheckResult {
        CheckResult(findings: findings, checked: checked, sources: sources, comparisons: pairs.map(ComparedLine.pair), pairs: pairs)
    }
}
