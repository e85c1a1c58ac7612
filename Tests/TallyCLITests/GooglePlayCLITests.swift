import Foundation
import Testing

/// Google Play pages through the built binary: the Brightly pages agree with the catalogue (and,
/// with the StoreKit configuration, as a trio); each rule, broken once on the Play side, gives
/// exactly its finding, pointing at the edited line of the Play page.
@Suite struct GooglePlayCLITests {
    static let fixture = "google-play"

    /// A Play-side edit and the findings it must give, exactly.
    struct Twin: Sendable, CustomTestStringConvertible {
        var name: String
        var file: String
        var anchor: String?
        var old: String
        var new: String
        var expected: [String]
        /// Lines from the edit to where the Play side of the first finding points; nil: not checked.
        var lineOffset: Int? = 0
        /// Check the trio (StoreKit, catalogue, Play) instead of the catalogue and Play.
        var trio = false
        /// Whether the message names the side ("type pay-up-front vs free-trial" names none).
        var namesGooglePlay = true
        var testDescription: String { name }
    }

    static let twins: [Twin] = [
        Twin(name: "price: a GB price changed", file: "play-pages/01-subscriptions.json", anchor: "\"basePlanId\": \"yearly\"",
             old: "\"units\": \"34\"", new: "\"units\": \"36\"", expected: ["price premium:yearly"], lineOffset: -2),
        Twin(name: "period: a base plan renews quarterly", file: "play-pages/01-subscriptions.json", anchor: "\"basePlanId\": \"monthly\"",
             old: "\"billingPeriodDuration\": \"P1M\"", new: "\"billingPeriodDuration\": \"P3M\"", expected: ["period premium:monthly"]),
        Twin(name: "intro-offer: the free phase removed", file: "play-pages/02-offers.json", anchor: "\"offerId\": \"free-week\"",
             old: "\"free\": {}\n            },\n            {\n              \"regionCode\": \"GB\",\n              \"free\": {}",
             new: "\"price\": {\"currencyCode\": \"USD\", \"units\": \"1\", \"nanos\": 990000000}\n            },\n            {\n              \"regionCode\": \"GB\",\n              \"price\": {\"currencyCode\": \"GBP\", \"units\": \"1\", \"nanos\": 490000000}",
             expected: ["intro-offer premium:yearly"], lineOffset: -2, namesGooglePlay: false),
        Twin(name: "intro-offer: the trial is two weeks", file: "play-pages/02-offers.json", old: "\"duration\": \"P1W\"",
             new: "\"duration\": \"P2W\"", expected: ["intro-offer premium:yearly"], lineOffset: 2),
        Twin(name: "intro-offer: the offer is withdrawn", file: "play-pages/02-offers.json", anchor: "\"offerId\": \"free-week\"",
             old: "\"state\": \"ACTIVE\"", new: "\"state\": \"INACTIVE\"", expected: ["intro-offer premium:yearly"], lineOffset: nil),
        Twin(name: "missing-in-config: a product missing on Google Play", file: "play-pages/03-onetimeproducts.json",
             old: "\"productId\": \"coins_100\"", new: "\"productId\": \"coins_1000\"",
             expected: ["missing-in-catalog coins_1000", "missing-in-config coins_100"]),
        Twin(name: "missing-in-config: a base plan not yet active", file: "play-pages/01-subscriptions.json", anchor: "\"basePlanId\": \"monthly\"",
             old: "\"state\": \"ACTIVE\"", new: "\"state\": \"DRAFT\"", expected: ["missing-in-config premium:monthly"], lineOffset: nil),
        Twin(name: "kind: a one-time product that is rented on Google Play", file: "play-pages/03-onetimeproducts.json", anchor: "\"productId\": \"premium_lifetime\"",
             old: "\"buyOption\": {\n            \"legacyCompatible\": true\n          }", new: "\"rentOption\": {\n            \"rentalPeriod\": \"P30D\"\n          }",
             expected: ["kind premium_lifetime"], lineOffset: -3),
        Twin(name: "trio: a GB price changed on Google Play only", file: "play-pages/01-subscriptions.json", anchor: "\"basePlanId\": \"monthly\"",
             old: "\"units\": \"4\",\n                \"nanos\": 490000000", new: "\"units\": \"4\",\n                \"nanos\": 990000000",
             expected: ["price premium:monthly"], lineOffset: -2, trio: true),
        Twin(name: "trio: missing on Google Play although the App Store has it", file: "play-pages/03-onetimeproducts.json",
             old: "\"productId\": \"coins_100\"", new: "\"productId\": \"coins_1000\"",
             expected: ["missing-in-catalog coins_1000", "missing-in-config coins_100"], trio: true),
    ]

    static func arguments(_ folder: URL, trio: Bool) -> [String] {
        let store = trio ? [folder.appendingPathComponent("Brightly.storekit").path] : []
        return ["check", "--no-config"] + store + [folder.appendingPathComponent("catalog.json").path, folder.appendingPathComponent("play-pages").path]
    }

    @Test func theCatalogueAndThePlayPagesAgree() throws {
        let folder = CLIRunner.fixtures.appendingPathComponent(Self.fixture)
        let output = try CLIRunner.run(Self.arguments(folder, trio: false))
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("play-pages (prices in every region both price) vs"), "\(output.stdout)")
        #expect(output.stdout.contains("4 products in both; compared IDs, kind (4), prices (4), period (2), introductory-offer (2); skipped"), "\(output.stdout)")
    }

    @Test func theStoreKitConfigurationTheCatalogueAndThePlayPagesAgree() throws {
        let folder = CLIRunner.fixtures.appendingPathComponent(Self.fixture)
        let output = try CLIRunner.run(Self.arguments(folder, trio: true))
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        // The catalogue is the hub: each store is compared with it, never the stores with each other.
        let comparisons = output.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("compared:") }
        #expect(comparisons.count == 2, "\(output.stdout)")
        #expect(comparisons.allSatisfy { $0.contains("vs \(folder.appendingPathComponent("catalog.json").path)") }, "\(comparisons)")
    }

    @Test(arguments: twins)
    func aPlaySideDifferenceGivesExactlyItsFinding(_ twin: Twin) throws {
        let folder = try FormatTwin.copy(Self.fixture)
        defer { try? FileManager.default.removeItem(at: folder) }
        let edited = folder.appendingPathComponent(twin.file)
        let line = try FormatTwin.edit(edited, after: twin.anchor, replacing: twin.old, with: twin.new)
        let output = try CLIRunner.run(Self.arguments(folder, trio: twin.trio) + ["--format", "json"])
        #expect(output.status == 1, "\(output.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(output.stdout.prefix(500))")
        let findings = (report["findings"] as? [[String: Any]]) ?? []
        let got = findings.map { "\($0["rule"] as? String ?? "?") \($0["product"] as? String ?? "-")" }.sorted()
        #expect(got == twin.expected.sorted(), "\(output.stdout.prefix(3000))")
        guard let offset = twin.lineOffset, let first = twin.expected.first else { return }
        let finding = try #require(findings.first { "\($0["rule"] as? String ?? "") \($0["product"] as? String ?? "")" == first })
        // The Play side stands where a configuration would (the first side of the pair).
        let play = try #require(finding["configuration"] as? [String: Any], "\(finding)")
        #expect((play["file"] as? String) == edited.path, "\(finding)")
        #expect((play["line"] as? Int) == line + offset, "\(finding)")
        if twin.namesGooglePlay { #expect((finding["message"] as? String)?.contains("Google Play") == true, "\(finding)") }
    }

    @Test func messagesNameGooglePlayAndBothPrices() throws {
        let folder = try FormatTwin.copy(Self.fixture)
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try FormatTwin.edit(folder.appendingPathComponent("play-pages/01-subscriptions.json"), after: "\"basePlanId\": \"yearly\"",
                                replacing: "\"units\": \"34\"", with: "\"units\": \"36\"")
        let output = try CLIRunner.run(Self.arguments(folder, trio: false))
        #expect(output.status == 1)
        #expect(output.stdout.contains("premium:yearly costs 36.99 GBP in GBR in Google Play but 34.99 GBP in the catalogue"), "\(output.stdout)")
        #expect(output.stdout.contains("google-play: \(folder.path)/play-pages/01-subscriptions.json:"), "\(output.stdout)")
    }

    @Test func showAndDiffReadPlaySources() throws {
        let folder = try FormatTwin.copy(Self.fixture)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pages = folder.appendingPathComponent("play-pages").path
        let show = try CLIRunner.run(["show", pages, "--format", "json"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("\"google-play\""))
        let before = folder.appendingPathComponent("before")
        try FileManager.default.copyItem(atPath: pages, toPath: before.path)
        _ = try FormatTwin.edit(folder.appendingPathComponent("play-pages/01-subscriptions.json"), after: "\"basePlanId\": \"yearly\"",
                                replacing: "\"units\": \"34\"", with: "\"units\": \"36\"")
        let diff = try CLIRunner.run(["diff", before.path, pages])
        #expect(diff.status == 0, "\(diff.stderr)")
        #expect(diff.stdout.contains("premium:yearly"), "\(diff.stdout)")
        #expect(diff.stdout.contains("34.99 GBP → 36.99 GBP"), "\(diff.stdout)")
    }
}
