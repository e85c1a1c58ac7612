import Foundation
import Testing

/// App Store Connect price pages whose price points give only `priceTier` say so (never 0
/// products silently), and a Google Play source converted to a catalogue keeps its Play
/// identities as Play identities: the round trip checks and lints clean.
@Suite struct PriceAndIdentityCLITests {
    static let folder = "Tests/TallyCLITests/Fixtures/builtin/asc-tier-only"

    @Test func aPricePageAloneIsALocatedErrorNamingWhatIsMissing() throws {
        let output = try CLIRunner.run(["show", "\(Self.folder)/02-subscription-prices.json"])
        #expect(output.status == 2, "\(output.stdout)\(output.stderr)")
        #expect(output.stderr.contains("\(Self.folder)/02-subscription-prices.json:3:"), "\(output.stderr)")
        #expect(output.stderr.contains("this export holds 2 subscriptionPrices but no inAppPurchases or subscriptions they price, so it has no products; "
                                       + "2 of its price points give only priceTier, no customerPrice"), "\(output.stderr)")
    }

    @Test func tierOnlyPricePointsAreDroppedValuesNamedAtTheirLine() throws {
        let output = try CLIRunner.run(["show", "--format", "json", Self.folder])
        #expect(output.status == 0, "\(output.stderr)")
        let products = try #require(try jsonReport(output)["products"] as? [[String: Any]])
        #expect(products.map { $0["id"] as? String } == ["com.lumen.plus.monthly"])
        #expect(products.first?["prices"] as? [String: String] == [:])
        let lines = output.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(output.stderr)")
        #expect(lines.first?.hasPrefix("\(Self.folder)/02-subscription-prices.json:26:") == true, "\(output.stderr)")
        #expect(lines.allSatisfy { $0.contains("warning: com.lumen.plus.monthly: subscriptionPricePoints") && $0.contains("gives priceTier 5 but no customerPrice") },
                "\(output.stderr)")
        let lint = try CLIRunner.run(["lint", Self.folder])
        #expect(lint.status == 1 && lint.stdout.contains("invalid-price"), "\(lint.stdout)")
    }

    // MARK: - Google Play → catalogue → check and lint

    @Test func aGooglePlaySourceConvertedKeepsPlayIdentitiesAndRoundTripsClean() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-play-convert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = CLIRunner.repository.appendingPathComponent("Tests/TallyCLITests/Fixtures/google-play/play-pages").path
        let converted = directory.appendingPathComponent("play.yaml").path
        let convert = try CLIRunner.run(["convert", source, "--to", "tally-catalog-yaml", "-o", converted])
        #expect(convert.status == 0, "\(convert.stderr)")
        let text = try String(contentsOfFile: converted, encoding: .utf8)
        // Play identities are written as google_play, never as an App Store id.
        #expect(!text.contains("id: \"premium:") && !text.contains("id: coins_100") && !text.contains("id: premium_lifetime"), "\(text)")
        #expect(text.contains("google_play: \"premium:monthly\""), "\(text)")
        #expect(text.contains("  - id: premium\n    subscriptions:"), "base plans grouped under their Play product: \(text)")
        let lint = try CLIRunner.run(["lint", "--no-config", converted])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        #expect(!lint.stdout.contains("invalid-id"), "\(lint.stdout)")
        let check = try CLIRunner.run(["check", "--no-config", converted, source])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let show = try CLIRunner.run(["show", "--format", "json", converted])
        let products = try #require(try jsonReport(show)["products"] as? [[String: Any]])
        #expect(products.contains { $0["id"] as? String == "premium:monthly" }, "\(show.stdout)")
    }
}

extension PriceAndIdentityCLITests {
    /// A StoreKit configuration or CSV catalogue is keyed by App Store IDs: a Google Play source has
    /// none, and is refused by name rather than written with Play identities as App Store IDs.
    @Test(arguments: ["storekit", "csv"])
    func aGooglePlaySourceIsNotWrittenAsAStoreKeyedByAppStoreIDs(_ target: String) throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tally-play-\(UUID().uuidString).\(target)").path
        let source = "Tests/TallyCLITests/Fixtures/google-play/play-pages"
        let convert = try CLIRunner.run(["convert", source, "--to", target, "-o", output])
        #expect(convert.status == 2, "\(convert.stderr)")
        #expect(convert.stderr.contains("tally: error: 4 products of \(source) (premium:monthly, premium:yearly, coins_100, …) have a Google Play identity and no App Store product ID"),
                "\(convert.stderr)")
        #expect(convert.stderr.contains("--to tally-catalog-yaml"), "\(convert.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
