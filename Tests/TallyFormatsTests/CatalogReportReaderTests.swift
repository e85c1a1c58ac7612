import Foundation
import Testing
import TallyFormats
import TallyModel

/// App Store Connect's in-app purchases catalog report (issue 28 item 5): recognised by its header,
/// read by column name, a value it cannot read refused with its line and column.
@Suite("catalog report")
struct CatalogReportReaderTests {
    static let file = Fixtures.path("catalog-report/in-app-purchases.txt")

    static func options(app: String? = "Lumen", states: Set<String> = []) -> ReadOptions {
        var options = ReadOptions()
        options.reportApp = app
        options.includeStates = states
        return options
    }

    static let header = "Apple_ID\tREFERENCE_NAME\tPRODUCT_ID\tADDON_TYPE\tADDON_ITC_STATUS\tAUTO_RENEWABLE_DURATION\tFREE_TRIAL_DURATION\tCLEARED_FOR_SALE\tLOCALE"

    static func read(_ text: String, as name: String = "report.txt", app: String? = nil) throws -> Catalog {
        try SourceLoader.load(bytes: Array(text.utf8), file: name, options: options(app: app))
    }

    static func error(_ text: String, as name: String = "report.txt") -> FormatError? {
        do {
            _ = try read(text, as: name)
            return nil
        } catch let error as FormatError {
            return error
        } catch {
            return FormatError("unexpected: \(error)", file: name, position: .unknown)
        }
    }

    @Test func theDocumentedColumnsBecomeProductsWithKindsPeriodsTrialsLocalesAndStates() throws {
        let catalog = try SourceLoader.load(path: Self.file, options: Self.options())
        #expect(catalog.format == .appStoreConnectReport)
        #expect(catalog.format.role == .catalog)
        #expect(catalog.products.map(\.id) == ["com.lumen.app.gems.100", "com.lumen.app.starter", "com.lumen.app.pro.annual"])
        let annual = try #require(catalog.products.first { $0.id == "com.lumen.app.pro.annual" })
        #expect(annual.kind == .autoRenewableSubscription)
        #expect(annual.period == Period(iso8601: "P1Y"))
        #expect(annual.introductoryOffer?.mode == .freeTrial)
        #expect(annual.introductoryOffer?.period == Period(iso8601: "P1W"))
        #expect(annual.referenceName == "Lumen Pro Annual")
        #expect(annual.localizations.map(\.locale) == ["en-US", "de-DE", "fr-FR"])
        #expect(annual.storeState == "APPROVED")
        #expect(catalog.location(of: annual, .period).description == "\(Self.file):4:91")
        #expect(catalog.knownFields == [.id, .kind, .referenceName, .period, .introductoryOffer, .localizations])
        #expect(catalog.introductoryOfferModes == [.freeTrial])
    }

    @Test func productsNotForSaleAreLeftOutAndThoseWaitingOnTheTeamAreHeld() throws {
        let catalog = try SourceLoader.load(path: Self.file, options: Self.options())
        #expect(catalog.hiddenByState == ["DEVELOPER_ACTION_NEEDED": 1, "MISSING_METADATA": 1, "READY_TO_SUBMIT": 1, "NOT_CLEARED_FOR_SALE": 1])
        // Held: those waiting on the team, and (issue 36) those on their way to sale; a product not
        // cleared for sale is dropped.
        #expect(catalog.heldByState.map(\.id) == ["com.lumen.app.pro.monthly", "com.lumen.app.gems.500", "com.lumen.app.season"])
        #expect(catalog.heldByState.map(\.storeState) == ["DEVELOPER_ACTION_NEEDED", "MISSING_METADATA", "READY_TO_SUBMIT"])
        let all = try SourceLoader.load(path: Self.file, options: Self.options(states: ["ALL"]))
        #expect(all.products.count == 7)
        #expect(all.heldByState.isEmpty)
        #expect(all.products.first { $0.id == "com.lumen.app.map.old" }?.storeState == ProductStates.notClearedForSale)
    }

    @Test func aReportOfSeveralAppsNeedsTheAppNamedByNameOrAppleID() throws {
        var options = Self.options(app: nil)
        #expect {
            try SourceLoader.load(path: Self.file, options: options)
        } throws: { error in
            let error = error as? FormatError
            return error?.remedy == .nameReportApp && error?.message.contains("2 apps (Lumen 6740000001, Calmly 6450000001)") == true
        }
        options.reportApp = "6450000001"
        let calmly = try SourceLoader.load(path: Self.file, options: options)
        #expect(calmly.products.map(\.id) == ["com.calmly.app.plus.monthly"])
        #expect(calmly.heldByState.map(\.storeState) == ["REJECTED"])
        options.reportApp = "Nowhere"
        #expect(throws: FormatError.self) { try SourceLoader.load(path: Self.file, options: options) }
    }

    @Test func theHeaderIsFoundInAnyOrderAndCaseAndOtherColumnsAreLeftAlone() throws {
        let text = "locale\tAddon_Type\tproduct_id\tSOMETHING_NEW\taddon_itc_status\nen-US|fr-FR\tNon-Consumable\tcom.a.map\tx\tApproved\n"
        let catalog = try Self.read(text)
        #expect(catalog.products.map(\.id) == ["com.a.map"])
        #expect(catalog.products.first?.kind == .nonConsumable)
        #expect(catalog.products.first?.localizations.map(\.locale) == ["en-US", "fr-FR"])
        #expect(!catalog.knownFields.contains(.period))
    }

    @Test func aByteOrderMarkCRLFLinesAndQuotedFieldsAreRead() throws {
        let text = "\u{FEFF}" + Self.header + "\r\n"
            + "1\t\"Gems, \"\"big\"\"\tpack\"\tcom.a.gems\tConsumable\tApproved\t\t\tYes\ten-US\r\n"
            + "\r\n"
            + "2\tPro 12\" poster\tcom.a.pro\tAuto-Renewable Subscription\tApproved\t1 Month\t\tYes\ten-US\r\n"
        let catalog = try Self.read(text)
        #expect(catalog.products.map(\.referenceName) == ["Gems, \"big\"\tpack", "Pro 12\" poster"])
        #expect(catalog.products.map(\.id) == ["com.a.gems", "com.a.pro"])
        #expect(catalog.location(of: catalog.products[1], .id).description == "report.txt:4:18")
    }

    @Test func aUTF16ExportFromExcelIsDecoded() throws {
        let text = Self.header + "\n1\tGems\tcom.a.gems\tConsumable\tApproved\t\t\tYes\ten-US\n"
        var bytes: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let detected = try SourceLoader.detect(bytes: bytes, file: "Export.tsv")
        #expect(detected.format == .appStoreConnectReport)
        let catalog = try SourceLoader.load(bytes: bytes, file: "Export.tsv")
        #expect(catalog.products.map(\.id) == ["com.a.gems"])
    }

    @Test func anUnknownTypeStatusOrDurationIsRefusedByNameWithItsLineAndColumn() {
        let rows = [
            ("1\tGems\tcom.a.gems\tBundle\tApproved\t\t\tYes\ten-US", "report.txt:2:19: error: com.a.gems: ADDON_TYPE \"Bundle\" is not a type Tally reads"),
            ("1\tGems\tcom.a.gems\tConsumable\tSleeping\t\t\tYes\ten-US", "report.txt:2:30: error: com.a.gems: ADDON_ITC_STATUS \"Sleeping\" is not an in-app purchase status"),
            ("1\tPro\tcom.a.pro\tAuto-Renewable Subscription\tApproved\tone yr\t\tYes\ten-US", "report.txt:2:54: error: com.a.pro: AUTO_RENEWABLE_DURATION \"one yr\" is not a duration"),
            ("1\tPro\tcom.a.pro\tAuto-Renewable Subscription\tApproved\t1 Month\t3 Moons\tYes\ten-US", "report.txt:2:62: error: com.a.pro: FREE_TRIAL_DURATION \"3 Moons\""),
            ("1\tGems\tcom.a.gems\tConsumable\tApproved\t\t\tMaybe\ten-US", "report.txt:2:41: error: com.a.gems: CLEARED_FOR_SALE \"Maybe\" is neither yes nor no"),
            ("1\tGems\t\tConsumable\tApproved\t\t\tYes\ten-US", "report.txt:2:8: error: this row has no PRODUCT_ID"),
            ("1\t\"Gems\tcom.a.gems\tConsumable", "report.txt:2:3: error: a quoted field is never closed"),
        ]
        for (row, expected) in rows {
            let error = Self.error(Self.header + "\n" + row + "\n")
            #expect(error?.description.hasPrefix(expected) == true, "\(row): \(error?.description ?? "read")")
        }
    }

    @Test func aTextFileReadAsAReportSaysWhichColumnsItLacks() throws {
        let bytes = Array("id\tname\ncom.a.gems\tGems\n".utf8)
        #expect {
            try SourceLoader.load(bytes: bytes, file: "notes.txt", format: .appStoreConnectReport)
        } throws: { error in
            (error as? FormatError)?.description.hasPrefix(
                "notes.txt:1:1: error: not an in-app purchases catalog report: the header row lacks PRODUCT_ID, ADDON_TYPE, ADDON_ITC_STATUS (it has: id, name)") == true
        }
        // Not named as a report, a .txt file of another kind is a file of unknown format, not a broken report.
        let unknown = Self.error("id\tname\ncom.a.gems\tGems\n", as: "notes.txt")
        #expect(unknown?.message.hasPrefix("cannot tell the format of this file") == true, "\(unknown?.description ?? "read")")
    }

    @Test func detectionIsByTheHeaderNotOnlyTheName() throws {
        let text = Array((Self.header + "\n1\tGems\tcom.a.gems\tConsumable\tApproved\t\t\tYes\ten-US\n").utf8)
        #expect(try SourceLoader.detect(bytes: text, file: "iap_catalog_report.tsv").format == .appStoreConnectReport)
        #expect(try SourceLoader.detect(bytes: text, file: "report").format == .appStoreConnectReport)
        #expect(try SourceLoader.detect(bytes: Array("id,price\ncom.a,0.99\n".utf8), file: "prices.tsv").format == .csv)
    }
}
