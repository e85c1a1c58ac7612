import Foundation
import TallyReport
import Testing
import TallyCheck
import TallyConvert
import TallyFormats
import TallyModel

/// A subscription group's localizations (its display name per locale) in a tally-catalog/1
/// catalogue: read, written, and carried by `convert` to a catalogue and a StoreKit file and back.
struct GroupLocalizationTests {
    static let catalogue = """
        format: tally-catalog/1
        subscription_groups:
          - id: calmly_plus
            name: Calmly Plus
            localizations:
              en_US: { name: Calmly Plus }
              de_DE: { name: Calmly Plus Deutsch }
            subscriptions:
              - id: com.calmly.app.plus.monthly
                period: P1M
                prices: { USA: "9.99" }
                localizations:
                  en_US: { name: Plus Monthly, description: "Everything, monthly." }
          - id: calmly_kids
            name: Calmly Kids
            subscriptions:
              - { id: com.calmly.app.kids.monthly, period: P1M, prices: { USA: "4.99" } }

        """

    static let expected = [Localization(locale: "en_US", displayName: "Calmly Plus"), Localization(locale: "de_DE", displayName: "Calmly Plus Deutsch")]

    static func read(_ text: String, file: String = "products.yaml") throws -> Catalog {
        try SourceLoader.load(bytes: Array(text.utf8), file: file)
    }

    @Test func aCatalogueReadsAGroupsLocalizations() throws {
        let catalog = try Self.read(Self.catalogue)
        #expect(catalog.issues.isEmpty, "\(catalog.issues)")
        #expect(catalog.groups.map(\.localizations) == [Self.expected, []])
    }

    @Test(arguments: [ConvertTarget.tallyCatalogYAML, .tallyCatalogJSON, .storeKit])
    func groupLocalizationsRoundTripThroughConvert(_ target: ConvertTarget) throws {
        let original = try Self.read(Self.catalogue)
        let converted = try RoundTrip.convert(original, to: target)
        let group = try #require(converted.read.groups.first { $0.productIDs == ["com.calmly.app.plus.monthly"] })
        let localizations = group.localizations.map { Localization(locale: $0.locale, displayName: $0.displayName) }
        #expect(localizations == Self.expected, "\(converted.text)")
        #expect(!converted.notes.contains { $0.contains("localiz") }, "\(converted.notes)")
        // And back to a catalogue: the same.
        let back = try RoundTrip.convert(converted.read, to: .tallyCatalogYAML)
        let again = try #require(back.read.groups.first { $0.productIDs == ["com.calmly.app.plus.monthly"] })
        #expect(again.localizations.map { Localization(locale: $0.locale, displayName: $0.displayName) } == Self.expected, "\(back.text)")
        #expect(back.read.groups.first { $0.productIDs == ["com.calmly.app.kids.monthly"] }?.localizations.isEmpty == true, "\(back.text)")
    }

    @Test func aGroupLocalizationIsAStrictKey() throws {
        let wrong = Self.catalogue.replacingOccurrences(of: "de_DE: { name: Calmly Plus Deutsch }", with: "de_DE: { title: Calmly Plus Deutsch }")
        #expect(throws: (any Error).self) { try Self.read(wrong) }
    }

    @Test func requiredLocalesApplyToTheGroupsACatalogueDescribes() throws {
        let catalog = try Self.read(Self.catalogue)
        var findings: [Finding] = []
        var checked = CheckedLog()
        MissingLocaleRule(locales: ["en_US", "fr_FR"]).lint(catalog, findings: &findings, checked: &checked)
        let messages = findings.map(\.message)
        // Calmly Plus states its localizations (no French); Calmly Kids states none, so nothing is said of it.
        #expect(messages.contains { $0.contains("subscription group Calmly Plus has no localization in fr_FR") }, "\(messages)")
        #expect(!messages.contains { $0.contains("Calmly Kids") }, "\(messages)")
    }
}
