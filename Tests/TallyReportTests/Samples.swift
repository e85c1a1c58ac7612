import Foundation
import TallyCheck
import TallyModel

/// The check results the golden files are recorded from.
enum Sample {
    static let config = "configs/App.storekit"
    static let catalog = "catalog/products.yaml"
    static let plist = "App/Products.plist"
    static let monthly = "com.example.pro.monthly"
    static let yearly = "com.example.pro.yearly"

    /// Errors, warnings and a note; cross-source and lint findings; a finding without a product;
    /// a subject checked in two files; a finding whose rule and product were never in `checked`.
    static let mixed = CheckResult.test(
        findings: [
            .test(territory: .usa),
            .test(rule: .missingInCatalog, product: "com.example.coins.100", field: .id,
                  message: "com.example.coins.100 is in the configuration but not in the catalogue",
                  left: .test(value: "com.example.coins.100", line: 60, column: 9),
                  right: .test(role: "catalog", value: nil, file: catalog, line: nil, column: nil),
                  hint: "did you mean com.example.coins100? (the catalogue has it, and the configuration does not)"),
            .test(rule: .missingInConfig, product: "com.example.coins100", field: .id,
                  message: "com.example.coins100 is in the catalogue but not in the configuration",
                  left: .test(value: nil, line: nil, column: nil),
                  right: .test(role: "catalog", value: "com.example.coins100", file: catalog, line: 44, column: 7),
                  hint: "did you mean com.example.coins.100? (the configuration has it, and the catalogue does not)"),
            .test(rule: .familySharing, severity: .warning, product: yearly, field: .familyShareable,
                  message: "\(product: yearly) is shareable with family in the configuration but not shareable in the catalogue",
                  left: .test(value: "true", line: 77, column: 7),
                  right: .test(role: "catalog", value: "false", file: catalog, line: 31, column: 5)),
            .test(rule: .invalidPeriod, product: yearly, field: .period,
                  message: "\(product: yearly) has period P1Y2, which is not an ISO 8601 duration (write P1Y, P6M or P1W)",
                  left: .test(role: "source", value: "P1Y2", file: catalog, line: 29, column: 13), right: nil),
            .test(rule: RuleID(rawValue: "promotional-offer"), severity: .warning, offer: "winback50", field: .promotionalOffers,
                  message: "\(product: monthly) offer \(name: "winback50") costs \(Money(amount: Decimal(string: "2.99") ?? 0, currency: "USD")) in \(source: "the configuration") but \(Money(amount: Decimal(string: "1.99") ?? 0, currency: "USD")) in \(source: "the catalogue")",
                  left: .test(value: "2.99 USD", line: 51, column: 11),
                  right: .test(role: "catalog", value: .money(Money(amount: Decimal(string: "1.99") ?? 0, currency: "USD")), file: catalog, line: 22, column: 9)),
            .test(rule: .groupIDMismatch, severity: .note, product: nil, field: .group,
                  message: "subscription group Pro & Friends has no products",
                  left: .test(role: "source", value: nil, line: nil, column: nil, path: "subscriptionGroups[0]"), right: nil),
        ],
        checked: [
            .test(subject: monthly), .test(subject: yearly, line: 70),
            .test(rule: .missingInCatalog, subject: monthly), .test(rule: .missingInCatalog, subject: yearly, line: 70),
            .test(rule: .missingInCatalog, subject: "com.example.coins.100", line: 58),
            .test(rule: .missingInConfig, subject: monthly, file: catalog, line: 12),
            .test(rule: .missingInConfig, subject: yearly, file: catalog, line: 25),
            .test(rule: .missingInConfig, subject: "com.example.coins100", file: catalog, line: 42),
            .test(rule: .familySharing, subject: monthly), .test(rule: .familySharing, subject: yearly, line: 70),
            .test(rule: .invalidPeriod, subject: monthly), .test(rule: .invalidPeriod, subject: yearly, line: 70),
            .test(rule: .invalidPeriod, subject: monthly, file: catalog, line: 12),
            .test(rule: .invalidPeriod, subject: yearly, file: catalog, line: 25),
        ],
        sources: [config, catalog, plist],
        pairs: [
            .test(),
            .test(catalog: plist, shared: 4, compared: [.kind, .group, .level],
                  skipped: [.init(field: .prices, subject: "the property list", missingIn: [plist]),
                            .init(field: .period, subject: "the property list", missingIn: [plist])]),
        ])

    /// Nothing wrong.
    static let consistent = CheckResult.test(
        checked: [
            .test(subject: monthly), .test(subject: yearly, line: 70),
            .test(rule: .kind, subject: monthly), .test(rule: .kind, subject: yearly, line: 70),
        ])

    /// One new finding; others taken out by ignores and a baseline, and two stale baseline entries.
    static let suppressed: CheckResult = {
        var result = CheckResult.test(findings: [.test(territory: .usa)])
        let stale = [Finding.test(rule: .kind, product: "com.example.gone", field: .kind),
                     Finding.test(rule: .promoOffer, product: yearly, offer: "winback50", field: .promotionalOffers)]
        result.suppressed = Suppressed(ignored: 1, baselined: 3, baselineFile: ".tally-baseline.json",
                                       stale: Baseline(findings: stale).findings)
        return result
    }()
}
