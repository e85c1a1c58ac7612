import TallyReport
import Testing
import TallyCheck
import TallyModel
import TallyTestSupport

/// Issue 28 item 6: a product the store holds in a state that waits on the team is a finding that
/// names the causes Tally sees offline and what it cannot see.
@Suite("store-state")
struct StoreStateRuleTests {
    private func lint(_ rule: some LintRule, _ catalog: Catalog) -> [Finding] { rule.findings(in: catalog) }

    static let can = Territory("CAN")!
    static let gbr = Territory("GBR")!

    static func product(_ id: String, state: String) -> Product {
        var product = Product.test(id, price: "0.99")
        product.storeState = state
        product.availability = Availability(territories: [.usa, can])
        product.localizations = [Localization(locale: "en-US", displayName: "Gems", description: "A pouch of gems")]
        return product
    }

    @Test func aHeldProductInMissingMetadataIsAWarningNamingWhatTallySeesAndWhatItCannot() throws {
        var catalog = Catalog(file: "snapshot", format: .appStoreConnect, products: [])
        catalog.heldByState = [Self.product("com.a.gems", state: "MISSING_METADATA")]
        let found = lint(StoreStateRule(territories: [.usa, Self.gbr], locales: ["en_US", "de_DE"]), catalog)
        let finding = try #require(found.first)
        #expect(found.count == 1)
        #expect(finding.ruleID == .storeState)
        #expect(finding.severity == .warning)
        #expect(finding.left?.value == .text("MISSING_METADATA"))
        #expect(finding.message == "com.a.gems is in Missing Metadata (MISSING_METADATA) in the App Store Connect snapshot: "
            + "no price in CAN, where it is sold; no price in GBR, which the policy requires; no localization in de_DE, which the policy requires; "
            + "the snapshot does not hold the review screenshot and notes: see App Store Connect")
    }

    @Test func rejectedAndDeveloperActionNeededAreErrorsThatPointToAppReview() throws {
        let catalog = Catalog(file: "snapshot", format: .appStoreConnect,
                              products: [Self.product("com.a.one", state: "REJECTED"), Self.product("com.a.two", state: "DEVELOPER_ACTION_NEEDED")])
        let found = lint(StoreStateRule(), catalog)
        #expect(found.map(\.severity) == [.error, .error])
        #expect(found.allSatisfy { $0.message.contains("App Review's reasons") })
        #expect(found[0].message.hasPrefix("com.a.one is in Rejected (REJECTED) in the App Store Connect snapshot: no price in CAN, where it is sold;"))
        #expect(found[1].message.hasPrefix("com.a.two is in Developer Action Needed (DEVELOPER_ACTION_NEEDED)"))
    }

    @Test func withNoVisibleCauseTheMessageSaysSo() throws {
        var product = Self.product("com.a.gems", state: "WAITING_FOR_SCREENSHOT")
        product.availability = nil
        let found = lint(StoreStateRule(), Catalog(file: "snapshot", format: .appStoreConnect, products: [product]))
        #expect(found.first?.message == "com.a.gems is in Waiting for Screenshot (WAITING_FOR_SCREENSHOT) in the App Store Connect snapshot; "
            + "Tally sees no cause in this source; the snapshot does not hold the review screenshot and notes: see App Store Connect")
    }

    @Test func statesThatAskNothingOfTheTeamAreNotFindings() {
        let states = ["APPROVED", "READY_TO_SUBMIT", "WAITING_FOR_REVIEW", "IN_REVIEW", "PENDING_BINARY_APPROVAL", "DEVELOPER_REMOVED_FROM_SALE"]
        let catalog = Catalog(file: "snapshot", format: .appStoreConnect, products: states.map { Self.product("com.a.\($0.lowercased())", state: $0) })
        #expect(lint(StoreStateRule(), catalog).isEmpty)
    }

    @Test func aCatalogReportSaysItHoldsNeitherPricesNorTexts() throws {
        var product = Product(id: "com.a.gems", kind: .consumable)
        product.storeState = "MISSING_METADATA"
        product.localizations = [Localization(locale: "en-US")]
        var catalog = Catalog(file: "report.txt", format: .appStoreConnectReport, knownFields: [.id, .kind, .localizations])
        catalog.heldByState = [product]
        let found = lint(StoreStateRule(territories: [.usa], locales: ["en_US", "fr_FR"]), catalog)
        #expect(found.first?.message == "com.a.gems is in Missing Metadata (MISSING_METADATA) in the App Store Connect catalog report: "
            + "no localization in fr_FR, which the policy requires; the report does not hold prices and territories, the localizations' texts "
            + "or the review screenshot and notes: see App Store Connect")
    }

    @Test func googlePlaySourcesAreNotExamined() {
        var product = Self.product("gems", state: "MISSING_METADATA")
        product.storeState = "MISSING_METADATA"
        #expect(lint(StoreStateRule(), Catalog(file: "play", format: .googlePlay, products: [product])).isEmpty)
    }
}
