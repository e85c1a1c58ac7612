import Foundation
import Testing

/// Issue 50: since 16 September 2026 App Store Connect enables multi-seat purchases for
/// subscriptions by default. A snapshot where a subscription is ENABLED beside a catalogue that
/// says nothing about seats for it was compared on nothing; now it is a warning naming both
/// sides. A catalogue that states it (either way) is compared as before; a StoreKit file, which
/// cannot state it, is not asked to.
@Suite struct MultiSeatDefaultCLITests {
    static let page = #"""
    {"data": [
      {"type": "subscriptions", "id": "1", "attributes": {"productId": "com.example.teams.monthly", "name": "Teams", "state": "APPROVED", "subscriptionPeriod": "ONE_MONTH", "groupLevel": 1, "multiSeatStatus": "ENABLED"}, "relationships": {"group": {"data": {"type": "subscriptionGroups", "id": "G"}}}},
      {"type": "subscriptions", "id": "2", "attributes": {"productId": "com.example.solo.monthly", "name": "Solo", "state": "APPROVED", "subscriptionPeriod": "ONE_MONTH", "groupLevel": 2, "multiSeatStatus": "ENABLED"}, "relationships": {"group": {"data": {"type": "subscriptionGroups", "id": "G"}}}}
    ], "included": [{"type": "subscriptionGroups", "id": "G", "attributes": {"referenceName": "plans"}}]}
    """#

    static let catalogue = """
    format: tally-catalog/1
    subscription_groups:
      - id: plans
        subscriptions:
          - {id: com.example.teams.monthly, period: P1M, level: 1, multi_seat: true}
          - {id: com.example.solo.monthly, period: P1M, level: 2}
    """

    @Test func anEnabledSubscriptionTheCatalogueIsSilentAboutIsAWarning() throws {
        let scratch = try Scratch(["asc/page.json": Self.page, "catalog.yaml": Self.catalogue])
        defer { scratch.remove() }
        let run = try scratch.run(["check", "--no-config", "asc", "catalog.yaml"])
        #expect(run.status == 0, "a warning does not fail the gate: \(run.stdout)\(run.stderr)")
        let findings = run.stdout.split(separator: "\n").filter { $0.contains("  multi-seat  ") }
        #expect(findings.count == 1, "\(run.stdout)")
        #expect(findings.first?.contains("warning") == true, "\(run.stdout)")
        #expect(findings.first?.contains("com.example.solo.monthly can be bought with seats in") == true, "\(run.stdout)")
        #expect(findings.first?.contains("by default since 16 September 2026") == true, "\(run.stdout)")
        // Strict gates fail on it; stating it passes.
        #expect(try scratch.run(["check", "--no-config", "--strict", "asc", "catalog.yaml"]).status == 1)
        try scratch.write("catalog.yaml", Self.catalogue.replacingOccurrences(of: "level: 2}", with: "level: 2, multi_seat: true}"))
        let stated = try scratch.run(["check", "--no-config", "asc", "catalog.yaml"])
        #expect(!stated.stdout.contains("  multi-seat  "), "\(stated.stdout)")
        // Stated the other way: the error it always was.
        try scratch.write("catalog.yaml", Self.catalogue.replacingOccurrences(of: "level: 2}", with: "level: 2, multi_seat: false}"))
        let disabled = try scratch.run(["check", "--no-config", "asc", "catalog.yaml"])
        #expect(disabled.status == 1, "\(disabled.stdout)")
        #expect(disabled.stdout.contains("com.example.solo.monthly is multi-seat enabled in asc but multi-seat disabled in catalog.yaml"), "\(disabled.stdout)")
    }
}
