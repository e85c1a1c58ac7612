import Foundation
import TallyCheck
import TallyModel
import TallyReport
import Testing

/// The `compared:` lines: TallyCheck gives typed values (`ComparedLine`), TallyReport words them
/// in one place (`ComparedText.swift`). One test per case, on the words every reporter prints.
@Suite("compared lines")
struct ComparedTextTests {
    @Test func aPairSaysWhatWasComparedAndWhyTheRestWasSkipped() {
        let pair = PairSummary(
            configuration: "configs/App.storekit", catalog: "catalog/products.yaml", territory: .usa, sharedProducts: 3,
            compared: [.kind, .familyShareable],
            skipped: [
                PairSummary.Skipped(field: .prices, subject: "the property list", missingIn: ["catalog/products.yaml"]),
                PairSummary.Skipped(field: .period, subject: "the property list", missingIn: ["catalog/products.yaml"]),
                PairSummary.Skipped(field: .group, subject: PairSummary.Skipped.neither, missingIn: ["configs/App.storekit", "catalog/products.yaml"]),
                PairSummary.Skipped(field: .promotionalOffers, subject: "", missingIn: [], because: .unstated(
                    PairSummary.Coverage(field: .promotionalOffers, compared: 0, applicable: 2, unstatedInCatalog: 2),
                    configuration: "the StoreKit configuration", catalog: "the property list")),
            ],
            coverage: [PairSummary.Coverage(field: .kind, compared: 3, applicable: 3),
                       PairSummary.Coverage(field: .familyShareable, compared: 1, applicable: 3, unstatedInCatalog: 2)])
        #expect(ComparedLine.pair(pair).text == "configs/App.storekit (storefront USA) vs catalog/products.yaml: 3 products in both; "
                + "compared IDs, kind (3), family-sharing (1 of 3: not stated by the catalogue for 2); "
                + "skipped prices, period: the property list has no prices or periods; group: neither source has subscription groups; "
                + "promotional-offers: the property list states promotional offers for none of the 2 subscriptions in both")
        #expect(pair.skipped[0].reason == "the property list has no prices")
    }

    @Test func twoStorefrontsSayPricesAreNotCompared() {
        var pair = PairSummary(
            configuration: "US.storekit", catalog: "DE.storekit", territory: .usa, sharedProducts: 1, compared: [],
            skipped: [PairSummary.Skipped(field: .prices, subject: "", missingIn: [], because: .otherStorefronts(
                configuration: "the StoreKit configuration US.storekit", territory: .usa, catalog: "the StoreKit configuration DE.storekit",
                other: Territory("DEU")!))])
        pair.otherStorefront = Territory("DEU")
        #expect(ComparedLine.pair(pair).text == "US.storekit (storefront USA) vs DE.storekit (storefront DEU): 1 product in both; compared IDs; "
                + "skipped prices: the StoreKit configuration US.storekit prices storefront USA and the StoreKit configuration DE.storekit "
                + "storefront DEU, each in its own currency: prices of different storefronts are not compared ('tally diff' shows them side by side)")
    }

    @Test func oneSourceAloneSaysWhatWouldGiveItSomethingToCompareWith() {
        #expect(ComparedLine.alone(AloneSource(file: "App.storekit", isConfiguration: true)).text
                == "App.storekit: nothing to compare it with, the only product source (linted on its own); to compare it, add a server catalogue "
                + "('tally convert App.storekit --to tally-catalog-yaml -o catalog/products.yaml' writes one to keep in step), "
                + "or a store snapshot ('tally fetch app-store-connect' or 'tally fetch google-play')")
        #expect(ComparedLine.alone(AloneSource(file: "catalog.yaml", isConfiguration: false)).text
                == "catalog.yaml: nothing to compare it with, the only product source (linted on its own); to compare it, add "
                + "the app's StoreKit configuration (.storekit), or a server catalogue "
                + "('tally convert catalog.yaml --to tally-catalog-yaml -o catalog/products.yaml' writes one to keep in step), "
                + "or a store snapshot ('tally fetch app-store-connect' or 'tally fetch google-play')")
    }

    @Test func pricePointsSayWhatWasCheckedAndHowOldThePointsAre() {
        #expect(ComparedLine.pricePoints(.noPoints(snapshots: ["asc"])).text
                == "prices against App Store price points: not checked, asc holds no price points (a snapshot fetched before Tally saved them, "
                + "or pages saved by hand); fetch it again to check them")
        let read = [PricePointSummary.PointsRead(file: "asc/price-points.json", readAt: "2026-07-29T09:30:00Z", ageInDays: 120, isStale: true),
                    PricePointSummary.PointsRead(file: "play/points.json", readAt: "2026-11-01", ageInDays: 1, isStale: false)]
        #expect(ComparedLine.pricePoints(.checked(read: read, prices: 1, sources: 1, withoutPoints: 2, otherCurrency: 1)).text
                == "prices against App Store price points (asc/price-points.json, read 2026-07-29T09:30:00Z (120 days old, over 90: Apple revises "
                + "points with taxes and exchange rates, fetch again); play/points.json, read 2026-11-01 (1 day old)): 1 price in 1 source; "
                + "not checked: 2 prices in a product or territory whose points were not fetched; "
                + "not checked: 1 price in another currency than the territory's points")
    }

    @Test func aPaywallOnItsOwnSaysWhatItHoldsAndWhatWasChecked() {
        let paywall = PaywallSummary(file: "revenuecat", platform: "RevenueCat", offerings: 3, currentOfferings: ["default"], packages: 7,
                                     products: 9, entitlements: nil, checked: [.offeringsHavePackages, .currentOffering, .everyProductInOffering],
                                     skipped: [.noEntitlements, .unstatedContents(1), .otherStores(products: 2, stores: ["amazon", "rc_billing"]),
                                               .storeUnknown])
        #expect(ComparedLine.paywall(paywall).text
                == "revenuecat (RevenueCat): 3 offerings (current: default), 7 packages, 9 products; checked offerings have packages, "
                + "an offering is current, every product is in an offering; skipped entitlements: the source has none (save the entitlements "
                + "with their products); 1 offering or package whose contents the pages do not hold (save offerings with "
                + "expand=items.package.product); 2 products of stores Tally does not read (amazon, rc_billing); the store of products no app "
                + "names is not known: they are looked up in every source")
        let none = PaywallSummary(file: "adapty.json", platform: "Adapty", offerings: 1, currentOfferings: [], packages: 1, products: 1,
                                  entitlements: 2, checked: [.offeringsHavePackages, .entitlementsGrantSold], skipped: [])
        #expect(ComparedLine.paywall(none).text == "adapty.json (Adapty): 1 offering (current: none), 1 package, 1 product, 2 entitlements; "
                + "checked offerings have packages, entitlements grant what is sold")
    }

    @Test func aPaywallAgainstASideSaysWhatWasComparedAndWhatIsOnOneSideOnly() {
        let shown = PaywallSideSummary(paywall: "revenuecat", side: "App.storekit", store: .appStore, platform: "RevenueCat", shown: 4, inBoth: 3,
                                       kinds: 3, periods: 2, basePlans: false, unstatedContents: 0, notShown: 2, notShownMissing: ["c"],
                                       outside: ["a", "b", "d", "e", "f", "g"])
        #expect(ComparedLine.paywallSide(shown).text
                == "revenuecat vs App.storekit: 4 App Store products shown, 3 in both; compared IDs, kind (3), period (2); "
                + "2 App Store products RevenueCat has in no offering: 1 in both, 1 not in App.storekit: c; "
                + "6 products of App.storekit in no offering (sold outside the paywall, or forgotten): a, b, d, e, f, …")
        let unstated = PaywallSideSummary(paywall: "revenuecat", side: "play", store: .googlePlay, platform: "RevenueCat", shown: 0, inBoth: 0,
                                          kinds: 0, periods: 0, basePlans: true, unstatedContents: 2, notShown: 1, notShownMissing: [],
                                          outside: ["x"])
        #expect(ComparedLine.paywallSide(unstated).text
                == "revenuecat vs play: the paywall shows no Google Play product (2 offerings or packages do not say what they hold); "
                + "1 Google Play product RevenueCat has that no package is known to hold: 1 in both; "
                + "1 product of play RevenueCat does not have (sold outside the paywall, or forgotten): x")
        let nothing = PaywallSideSummary(paywall: "ios_fallback.json", side: "play", store: .googlePlay, platform: "Adapty", shown: 0, inBoth: 0,
                                         kinds: 0, periods: 0, basePlans: true, unstatedContents: 0, notShown: 0, notShownMissing: [],
                                         outside: ["x"])
        #expect(ComparedLine.paywallSide(nothing).text == "ios_fallback.json vs play: the paywall shows no Google Play product; nothing compared")
    }

    @Test func theCodeSaysWhatItAsksForAndWhatItWasComparedWith() {
        let code = CodeSummary(file: "Sources", productIDs: 3, filesRead: 40, askingFiles: 2, sides: ["App.storekit", "asc"],
                               quiet: .unresolved(count: 2, first: SourceLocation(file: "Sources/Store.swift", line: 12, column: 9)))
        #expect(ComparedLine.code(code).text == "Sources: the app's code asks for 3 product IDs in 2 files, compared with App.storekit, asc; "
                + "code-unused-product is quiet: 2 calls ask with IDs Tally cannot follow (first at \(SourceLocation(file: "Sources/Store.swift", line: 12, column: 9)))")
        let alone = CodeSummary(file: "App", productIDs: 0, filesRead: 1, askingFiles: 0, sides: [], quiet: .noRequests)
        #expect(ComparedLine.code(alone).text == "App: the app's code asks for no product ID Tally can read (1 file read); nothing to compare them with "
                + "(add the app's StoreKit configuration or a store snapshot); code-unused-product is quiet: the code asks for no product ID Tally can read")
        let paywall = CodeSummary(file: "App", productIDs: 1, filesRead: 3, askingFiles: 1, sides: ["App.storekit"], quiet: .paywallInRun)
        #expect(ComparedLine.code(paywall).text == "App: the app's code asks for 1 product ID in 1 file, compared with App.storekit; code-unused-product "
                + "is quiet: a paywall platform's source is in the run (the app asks for what its offerings name)")
    }

    // MARK: - The words are made here, not in TallyCheck

    /// Lines of Swift source that put words, not a `ComparedLine`, into `comparisons`: a string
    /// literal or interpolation, or a `sentence`.
    static func wordedComparisons(in source: String) -> [String] {
        let adds = ["comparisons.append(", "comparisons +=", "comparisons.insert(", "comparisons = "]
        return source.split(separator: "\n").map(String.init).filter { line in
            adds.contains { line.contains($0) } && (line.contains("\"") || line.contains("sentence"))
        }
    }

    /// Declarations in Swift source of a sentence for the `compared:` lines.
    static func sentenceDeclarations(in source: String) -> [String] {
        source.split(separator: "\n").map(String.init).filter { $0.contains(/(var|func) (sentence|sentences|aloneSentence)\b/) }
    }

    static var checkSources: [(file: String, text: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let folder = root.appendingPathComponent("Sources/TallyCheck")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "swift" }.compactMap { url in
            (try? String(contentsOf: url, encoding: .utf8)).map { (url.path.replacingOccurrences(of: root.path + "/", with: ""), $0) }
        }
    }

    @Test func theScanCatchesASentenceBuiltForComparisons() {
        #expect(Self.wordedComparisons(in: #"        result.comparisons.append("\(a.file) vs \(b.file): 3 products in both")"#).count == 1)
        #expect(Self.wordedComparisons(in: "        result.comparisons += PaywallCoverage.sentences(context)").count == 1)
        #expect(Self.wordedComparisons(in: "        result.comparisons += PaywallCoverage.lines(context)").isEmpty)
        #expect(Self.sentenceDeclarations(in: "    public var sentence: String {").count == 1)
    }

    @Test func tallyCheckGivesComparisonsAsValuesAndWordsNone() {
        let sources = Self.checkSources
        #expect(sources.count > 20, "Sources/TallyCheck not found from \(#filePath)")
        let adds = sources.filter { $0.text.contains("comparisons +=") || $0.text.contains("comparisons.append(") }
        #expect(!adds.isEmpty, "no file of TallyCheck adds to comparisons: the scan looks at nothing")
        for (file, text) in sources {
            #expect(Self.wordedComparisons(in: text).isEmpty, "\(file) puts words in `comparisons`: give it a `ComparedLine`, worded in TallyReport's ComparedText.swift")
            #expect(Self.sentenceDeclarations(in: text).isEmpty, "\(file) words a `compared:` line: that is TallyReport's ComparedText.swift")
        }
    }
}
