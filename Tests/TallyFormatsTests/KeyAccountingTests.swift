import Foundation
import Testing
@testable import TallyFormats
import TallyModel

/// Issue 38: every reader accounts for every key it meets. Every real file under
/// `../shared/fixtures/realworld/` that Tally takes for a product source is read, and none holds
/// a key its reader neither reads nor skips on purpose (an `unknown-content` warning would name
/// it); a file Tally does not take is refused with a reason, never read as 0 products in silence.
@Suite(.enabled(if: Fixtures.sharedAvailable, Comment(rawValue: Fixtures.sharedMissing)))
struct RealFilesKeyAccountingTests {
    /// Files read with no product, each for its reason (anything else with none fails).
    static let emptyOnPurpose: [String: String] = [
        "paywall/adapty-fallback-v11-empty-unity-ios.json": "Adapty's empty fallback from the Unity SDK demo: data {}, developer_ids []",
    ]

    /// Every regular file, and every folder a folder reader takes, below `root`, relative to it.
    static func walk(_ root: URL) -> (files: [String], folders: [String]) {
        var files: [String] = [], folders: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let path = enumerator?.nextObject() as? String {
            let full = root.appendingPathComponent(path).path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                if readerOfFolder(full) != nil { folders.append(path) }
            } else if path != "SOURCES.tsv" {
                files.append(path)
            }
        }
        return (files.sorted(), folders.sorted())
    }

    /// The folder reader that takes a folder as one source: one whose pages it recognises (an
    /// App Store Connect export only when a page names its resource types; every folder of
    /// `.json` files would do otherwise).
    static func readerOfFolder(_ path: String) -> (any DirectorySourceReader.Type)? {
        if AppStorePackageReader.claims(directory: path) { return AppStorePackageReader.self }
        func heads(_ names: [String]) -> [String] {
            names.map { name in
                let head = (try? SourceLoader.readBytes(path: (path as NSString).appendingPathComponent(name), prefix: 4096)) ?? []
                return String(decoding: head, as: UTF8.self)
            }
        }
        // A folder of pages only (an app's folder with one store file among others is not one).
        let play = heads(GooglePlayReader.pageNames(in: path))
        if !play.isEmpty, play.allSatisfy({ GooglePlayReader.sniff($0, file: path) || PlayConsoleCSV.sniff($0) }) { return GooglePlayReader.self }
        let revenueCat = heads(RevenueCatReader.pageNames(in: path))
        if !revenueCat.isEmpty, revenueCat.allSatisfy({ RevenueCatReader.sniff($0, file: path) }) { return RevenueCatReader.self }
        let connect = heads(AppStoreConnectReader.pageNames(in: path))
        if !connect.isEmpty, connect.allSatisfy({ AppStoreConnectReader.sniff($0, file: path) }) { return AppStoreConnectReader.self }
        return nil
    }

    /// Real `.storekit` files that Xcode did not write: each holds keys and values Xcode's editor
    /// never writes, so `unknown-content` is the right finding there (Xcode itself does not load
    /// those products).
    static let notWrittenByXcode: [String: String] = [
        "schemes/Soteria/Products.storekit": "written by hand: products of type AutoRenewableSubscription in `products`, an `identifier` key, a group localization's `name`",
        "schemes/Soteria/soteria/Products.storekit": "the same hand-written file, in the app's folder",
    ]

    @Test func everyRealFileIsReadWithEveryKeyAccountedForOrRefusedByName() throws {
        let (files, folders) = Self.walk(Fixtures.realWorld)
        #expect(files.count >= 130, "\(files.count) real files")
        var unaccounted: [String] = []
        var silent: [String] = []
        var read = 0, refused = 0, notSources = 0
        func check(_ name: String, _ load: () throws -> Catalog) {
            do {
                let catalog = try load()
                read += 1
                for issue in catalog.issues where issue.rule == .unknownContent {
                    unaccounted.append("\(name):\(issue.position.line): \(issue.message)")
                }
                if catalog.products.isEmpty, catalog.issues.isEmpty, Self.emptyOnPurpose[name] == nil {
                    silent.append("\(name): read as 0 products without a word")
                }
            } catch let error as FormatError {
                refused += 1
                if error.message.isEmpty { silent.append("\(name): refused without a reason") }
            } catch {
                unaccounted.append("\(name): \(error)")
            }
        }
        for name in files {
            let path = Fixtures.realWorld(name)
            guard SourceLoader.isProductSource(path: path) else {
                notSources += 1
                // Refused by name, with the reason the scan gives.
                if SourceLoader.notAProductSource(path).isEmpty { silent.append("\(name): not a source, without a reason") }
                continue
            }
            check(name) { try SourceLoader.load(path: path) }
        }
        for name in folders {
            let path = Fixtures.realWorld(name)
            guard let reader = Self.readerOfFolder(path) else { continue }
            check(name) { try reader.read(directory: path, options: ReadOptions()) }
        }
        // Files Xcode did not write: their unknown keys are the point, and must be named.
        for (file, _) in Self.notWrittenByXcode {
            #expect(unaccounted.contains { $0.hasPrefix(file + ":") }, "\(file) is named for what Xcode would not read")
        }
        unaccounted.removeAll { line in Self.notWrittenByXcode.keys.contains { line.hasPrefix($0 + ":") } }
        #expect(unaccounted.isEmpty, "keys a reader neither reads nor skips on purpose:\n\(unaccounted.joined(separator: "\n"))")
        #expect(silent.isEmpty, "\(silent.joined(separator: "\n"))")
        #expect(read >= 55 && refused >= 3 && notSources >= 80, "\(read) real sources read, \(refused) refused by name, \(notSources) not sources")
        #expect(folders.contains("stores/gpp/play"), "the gradle-play-publisher folder is read as one source: \(folders)")
    }
}

/// Each reader names a key it does not know, once per file, with how many entries it holds.
@Suite struct KeyAccountingTests {
    /// The `unknown-content` warnings of `text` read as `name`.
    static func unknown(_ text: String, as name: String) throws -> [String] {
        try Fixtures.load(text, as: name).issues.filter { $0.rule == .unknownContent }.map(\.message)
    }

    @Test func storeKitNamesAnUnknownRootContainerAndAnUnknownProductKeyOnce() throws {
        let text = """
            {"version": {"major": 4, "minor": 0}, "settings": {"_storefront": "USA", "_newSwitch": true},
             "subscriptionXGroups": [{"id": "a"}, {"id": "b"}, {"id": "c"}],
             "products": [{"productID": "a", "type": "Consumable", "sparkle": 1}, {"productID": "b", "type": "Consumable", "sparkle": 2}]}
            """
        let messages = try Self.unknown(text, as: "Products.storekit")
        // `settings` never holds products: a key Xcode adds there is skipped, never unknown-content (issue 50).
        #expect(messages.count == 2, "\(messages)")
        #expect(!messages.contains { $0.contains("_newSwitch") })
        #expect(messages.contains("the key \"subscriptionXGroups\" at the top of the file is not one Tally knows and holds 3 entries, which may be products Tally does not read"))
        #expect(messages.contains("the product key \"sparkle\" is not one Tally knows (2 times in the file); its value is not read"))
    }

    @Test func aProductPropertyListNamesItsUnknownKeys() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
              <key>Products</key><array><string>com.app.coins</string></array>
              <key>Bundles</key><array><string>x</string><string>y</string><string>z</string></array>
            </dict></plist>
            """
        let messages = try Self.unknown(text, as: "Products.plist")
        #expect(messages == ["the key \"Bundles\" at the top of the file is not one Tally knows and holds 3 entries, which may be products Tally does not read"])
    }

    @Test func aPropertyListTierIsReadAsATier() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><array>
              <dict><key>productIdentifier</key><string>com.app.pro</string><key>Tier</key><integer>3</integer><key>Title</key><string>Pro</string></dict>
            </array></plist>
            """
        let catalog = try Fixtures.load(text, as: "Products.plist")
        #expect(catalog.products.first?.priceTier == 3)
        #expect(catalog.issues.isEmpty, "\(catalog.issues)")
    }

    @Test func unityNamesAnUnknownKeyAndReadsTranslations() throws {
        let text = """
            {"appleSKU": "", "appleTeamID": "", "enableCodelessAutoInitialization": false,
             "bundles": [{"id": "x"}, {"id": "y"}],
             "products": [{"id": "coins", "type": 0, "storeIDs": [], "defaultDescription": {"googleLocale": 21, "title": "Coins", "description": "A pile"},
               "descriptions": [{"googleLocale": 33, "title": "Münzen", "description": "Ein Haufen"}], "applePriceTier": 0,
               "googlePrice": {"data": [0, 0, 0, 0], "num": 0.0}, "pricingTemplateID": "", "payouts": [], "screenshotPath": ""}]}
            """
        let catalog = try Fixtures.load(text, as: "IAPProductCatalog.json")
        #expect(catalog.products.first?.localizations.map(\.locale) == ["en_US", "de_DE"])
        #expect(catalog.issues.map(\.message) == ["the key \"bundles\" at the top of the file is not one Tally knows and holds 2 entries, which may be products Tally does not read"])
    }

    @Test func storeConfigNamesAnUnknownKeyAndAnUnknownSchemaVersion() throws {
        let text = """
            {"schemaVersion": "2.0.0", "appId": "1", "bundles": [{"productId": "a"}],
             "inAppPurchases": [{"productId": "coins", "type": "CONSUMABLE", "referenceName": "Coins", "familySharable": false, "reviewNote": "x", "gift": true}]}
            """
        let messages = try Self.unknown(text, as: "storeconfig.json")
        #expect(messages.count == 3, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("storeconfig schema version 2.0.0 is not one Tally knows (it knows 1.x)") })
        #expect(messages.contains("the key \"bundles\" at the top of the file is not one Tally knows and holds 1 entry, which may be products Tally does not read"))
        #expect(messages.contains("the in-app purchase key \"gift\" is not one Tally knows; its value is not read"))
    }

    @Test func anAppStorePackageNamesAnUnknownElementWithItsSize() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://apple.com/itunes/importer" version="software5.9"><software><software_metadata><in_app_purchases>
              <in_app_purchase><product_id>coins</product_id><reference_name>Coins</reference_name><type>consumable</type>
                <sparkle>1</sparkle></in_app_purchase>
              <subscription_bundle name="b"><in_app_purchase/><in_app_purchase/></subscription_bundle>
            </in_app_purchases></software_metadata></software></package>
            """
        let messages = try Self.unknown(text, as: "metadata.xml")
        #expect(messages.contains("the <in_app_purchases> element \"subscription_bundle\" is not one Tally knows and holds 2 entries, which may be products Tally does not read"), "\(messages)")
        #expect(messages.contains("the <in_app_purchase> element \"sparkle\" is not one Tally knows; its value is not read"), "\(messages)")
    }

    @Test func aGooglePlayPageNamesAnUnknownListAndAnUnknownProductKey() throws {
        let text = """
            {"inappproduct": [{"sku": "coins", "status": "active", "purchaseType": "managedUser", "sparkle": true}],
             "bundleProducts": [{"sku": "a"}, {"sku": "b"}]}
            """
        let messages = try Self.unknown(text, as: "inappproducts.json")
        #expect(messages.contains("the key \"bundleProducts\" at the top of the file is not one Tally knows and holds 2 entries, which may be products Tally does not read"), "\(messages)")
        #expect(messages.contains("the in-app product key \"sparkle\" is not one Tally knows; its value is not read"), "\(messages)")
    }

    @Test func aPlayConsoleCSVNamesAnUnknownColumnWithItsRows() throws {
        let text = """
            Product ID,Published State,Purchase Type,Auto Translate,Locale; Title; Description,Auto Fill Prices,Price,Pricing Template ID,Bundle
            coins,published,managed_by_android,false,en_US; Coins; A pile,false,US; 990000,,x
            gems,published,managed_by_android,false,en_US; Gems; A pile,false,US; 990000,,

            """
        let messages = try Self.unknown(text, as: "console.csv")
        #expect(messages == ["the Play Console CSV column \"Bundle\" is not one Tally knows; its values (in 1 row) are not read"])
    }

    @Test func aCatalogReportNamesAnUnknownColumn() throws {
        let text = "Apple_ID\tREFERENCE_NAME\tPRODUCT_ID\tADDON_TYPE\tADDON_ITC_STATUS\tGIFTABLE\n"
            + "1\tCoins\tcoins\tConsumable\tApproved\tyes\n"
        let messages = try Self.unknown(text, as: "report.txt")
        #expect(messages == ["the catalog report column \"GIFTABLE\" is not one Tally knows; its values (in 1 row) are not read"])
    }

    @Test func adaptyNamesAnUnknownKeyAndANewerVersion() throws {
        let text = """
            {"meta": {"version": 12, "developer_ids": ["main"], "response_created_at": 1},
             "data": {"main": {"meta": {"placement": {}}, "data": [{"paywall_id": "p", "paywall_name": "P", "variation_id": "v",
               "products": [{"vendor_product_id": "pro", "adapty_product_id": "a", "access_level_id": "premium", "product_type": "annual", "sparkle": 1}]}]}},
             "bundles": [1, 2]}
            """
        let messages = try Self.unknown(text, as: "ios_fallback.json")
        #expect(messages.count == 3, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("Adapty fallback file version 12 is not one Tally knows (it knows 1 to 11)") })
        #expect(messages.contains("the key \"bundles\" at the top of the file is not one Tally knows and holds 2 entries, which may be products Tally does not read"))
        #expect(messages.contains("the product key \"sparkle\" is not one Tally knows; its value is not read"))
    }

    @Test func qonversionNamesAnUnknownKey() throws {
        let text = """
            {"products": [{"id": "pro", "store_id": "com.app.pro", "type": 1, "duration": 1}], "offerings": [],
             "products_permissions": {"pro": ["premium"]}, "bundles": [{"id": "x"}, {"id": "y"}]}
            """
        let messages = try Self.unknown(text, as: "qonversion_ios_fallbacks.json")
        #expect(messages == ["the key \"bundles\" at the top of the file is not one Tally knows and holds 2 entries, which may be products Tally does not read"])
    }

    @Test func revenueCatV1AndHybridOfferingsNameAnUnknownKey() throws {
        let v1 = """
            {"current_offering_id": "default", "offerings": [{"identifier": "default", "description": "", "packages": [
              {"identifier": "$rc_monthly", "platform_product_identifier": "pro.monthly", "sparkle": 1}]}]}
            """
        #expect(try Self.unknown(v1, as: "offerings.json") == ["the package key \"sparkle\" is not one Tally knows; its value is not read"])
        let hybrid = """
            {"all": {"default": {"identifier": "default", "serverDescription": "", "availablePackages": [
              {"identifier": "$rc_monthly", "packageType": "MONTHLY", "product": {"identifier": "pro.monthly", "productType": "AUTO_RENEWABLE_SUBSCRIPTION",
               "subscriptionPeriod": "P1M", "price": 4.99, "sparkle": 1}}], "bundles": [1, 2, 3]}}, "current": null}
            """
        let messages = try Self.unknown(hybrid, as: "offerings-snapshot.json")
        #expect(messages.count == 2, "\(messages)")
        #expect(messages.contains("the offering key \"bundles\" is not one Tally knows and holds 3 entries, which may be products Tally does not read"))
        #expect(messages.contains("the product key \"sparkle\" is not one Tally knows; its value is not read"))
    }

    @Test func revenueCatPagesNameAnUnknownKey() throws {
        let text = """
            {"object": "list", "url": "/v2/projects/p/products", "next_page": null, "items": [
              {"object": "product", "id": "prod1", "store_identifier": "pro.monthly", "type": "subscription", "app_id": "app1",
               "display_name": "Pro", "sparkle": 1}]}
            """
        #expect(try Self.unknown(text, as: "products.json") == ["the product key \"sparkle\" is not one Tally knows; its value is not read"])
    }

    @Test func anAppStoreConnectPageNamesAnUnknownTypeKeyAndAttribute() throws {
        let text = """
            {"data": [
              {"type": "inAppPurchases", "id": "1", "attributes": {"name": "Coins", "productId": "coins", "inAppPurchaseType": "CONSUMABLE",
                "state": "APPROVED", "sparkle": true}},
              {"type": "subscriptionBundles", "id": "2", "attributes": {"name": "B"}},
              {"type": "subscriptionBundles", "id": "3", "attributes": {"name": "C"}}],
             "bundles": [1, 2]}
            """
        let messages = try Self.unknown(text, as: "inAppPurchasesV2.json")
        #expect(messages.count == 3, "\(messages)")
        #expect(messages.contains("the key \"bundles\" at the top of the file is not one Tally knows and holds 2 entries, which may be products Tally does not read"))
        #expect(messages.contains("the in-app purchase attribute key \"sparkle\" is not one Tally knows; its value is not read"))
        #expect(messages.contains("the resource type \"subscriptionBundles\" is not one Tally knows: 2 resources of it, which may be products Tally does not read"))
    }

    /// Tally's own formats are strict: an unknown key or column stops the read, with its place.
    @Test func tallysOwnFormatsRefuseAnUnknownKey() throws {
        let catalogue = "format: tally-catalog/1\nproducts:\n  - id: coins\n    kind: consumable\n    sparkle: 1\n"
        #expect(Fixtures.error(catalogue, as: "catalog.yml")?.message.contains("sparkle") == true)
        let csv = "product_id,kind,sparkle\ncoins,consumable,1\n"
        #expect(Fixtures.error(csv, as: "catalog.csv")?.message.contains("unknown column \"sparkle\"") == true)
    }
}
