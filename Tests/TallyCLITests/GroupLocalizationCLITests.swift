import Foundation
import Testing

/// A catalogue's subscription group localizations through the built binary: `convert` to a
/// StoreKit file and back keeps them, `check` finds the two consistent, and `required_locales`
/// names a group whose localizations leave a locale out.
@Suite struct GroupLocalizationCLITests {
    static let catalogue = """
        format: tally-catalog/1
        subscription_groups:
          - id: calmly_plus
            name: Calmly Plus
            localizations:
              en_US: { name: Calmly Plus }
              de_DE: { name: Calmly Plus Deutschland }
            subscriptions:
              - id: com.calmly.app.plus.monthly
                period: P1M
                prices: { USA: "9.99" }
                localizations:
                  en_US: { name: Plus Monthly, description: Every course and sound. }
                  de_DE: { name: Plus Monatlich, description: Alle Kurse und Klänge. }

        """

    @Test func groupLocalizationsRoundTripThroughAStoreKitFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-group-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.catalogue.write(to: directory.appendingPathComponent("products.yaml"), atomically: true, encoding: .utf8)

        let toStoreKit = try CLIRunner.run(["convert", "products.yaml", "--to", "storekit", "-o", "App.storekit"], in: directory)
        #expect(toStoreKit.status == 0, "\(toStoreKit.stderr)")
        let storeKit = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("App.storekit"))) as? [String: Any])
        let group = (storeKit["subscriptionGroups"] as? [[String: Any]])?.first
        let names = (group?["localizations"] as? [[String: Any]] ?? []).map { "\($0["locale"] as? String ?? "") \($0["displayName"] as? String ?? "")" }
        #expect(names == ["en_US Calmly Plus", "de_DE Calmly Plus Deutschland"], "\(String(describing: group))")

        let back = try CLIRunner.run(["convert", "App.storekit", "--to", "tally-catalog-yaml", "-o", "back.yaml"], in: directory)
        #expect(back.status == 0, "\(back.stderr)")
        let yaml = try String(contentsOf: directory.appendingPathComponent("back.yaml"), encoding: .utf8)
        #expect(yaml.contains("Calmly Plus Deutschland"), "\(yaml)")

        let check = try CLIRunner.run(["check", "--no-config", "App.storekit", "products.yaml", "back.yaml"], in: directory)
        #expect(check.status == 0, "\(check.stdout)\n\(check.stderr)")

        // French required: the group (and its subscription) say they have none.
        try "version: 1\nrequired_locales: [en_US, de_DE, fr_FR]\n".write(to: directory.appendingPathComponent("tally.yml"), atomically: true, encoding: .utf8)
        let lint = try CLIRunner.run(["lint", "--config", "tally.yml", "back.yaml"], in: directory)
        #expect(lint.status == 1, "\(lint.stdout)\n\(lint.stderr)")
        #expect(lint.stdout.contains("subscription group Calmly Plus has no localization in fr_FR, which the policy requires"), "\(lint.stdout)")
    }
}
