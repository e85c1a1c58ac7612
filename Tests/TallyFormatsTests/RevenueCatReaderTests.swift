import Foundation
import Testing
import TallyFormats
import TallyModel

/// RevenueCat's configuration shapes, read from pages written from RevenueCat's API reference:
/// API v2 list pages (offerings expanded with their packages and products, entitlements with
/// their products), the v1 offerings shape, and the StoreKit wrapper.
@Suite struct RevenueCatReaderTests {
    static let offerings = """
        {
          "object": "list",
          "items": [
            {
              "object": "offering", "id": "ofrng1", "lookup_key": "default", "display_name": "Standard", "is_current": true,
              "created_at": 1732000000000, "project_id": "proj1",
              "packages": {"object": "list", "url": "/v2/projects/proj1/offerings/ofrng1/packages", "next_page": null, "items": [
                {"object": "package", "id": "pkge1", "lookup_key": "$rc_monthly", "display_name": "Monthly", "position": 1,
                 "products": {"object": "list", "next_page": null, "url": "/v2/projects/proj1/packages/pkge1/products", "items": [
                   {"eligibility_criteria": "all", "product": {"object": "product", "id": "prod1", "store_identifier": "pro:monthly",
                    "type": "subscription", "subscription": {"duration": "P1M"}, "app": {"object": "app", "id": "app1", "type": "play_store"}}},
                   {"eligibility_criteria": "all", "product": {"object": "product", "id": "prod2", "store_identifier": "com.lumen.pro.monthly",
                    "type": "subscription", "subscription": {"duration": "P1M"}, "app_id": "app2"}}
                 ]}}
              ]}
            }
          ],
          "next_page": null,
          "url": "/v2/projects/proj1/offerings"
        }
        """

    @Test func offeringsExpandedWithPackagesAndProducts() throws {
        let catalog = try Fixtures.load(Self.offerings, as: "offerings.json")
        #expect(catalog.format == .revenueCat)
        #expect(catalog.format.role == .paywall)
        let paywall = try #require(catalog.paywall)
        #expect(paywall.offerings.map(\.key) == ["default"])
        #expect(paywall.offerings[0].isCurrent)
        #expect(paywall.offerings[0].packages.map(\.key) == ["$rc_monthly"])
        #expect(paywall.offerings[0].packages[0].productKeys == ["prod1", "prod2"])
        let play = try #require(paywall.products.first { $0.key == "prod1" })
        #expect(play.store == .googlePlay && play.kind == .subscription && play.period == Period(iso8601: "P1M"))
        // No apps page: the App Store product's store is not known.
        #expect(paywall.products.first { $0.key == "prod2" }?.store == nil)
        #expect(paywall.entitlements == nil)
        #expect(catalog.products.map(\.id) == ["pro:monthly", "com.lumen.pro.monthly"])
        #expect(catalog.products[0].isSoldOnly(in: .googlePlay))
        #expect(catalog.knownFields == [.id, .kind, .period])
    }

    @Test func theV1OfferingsShape() throws {
        let catalog = try SourceLoader.load(path: Fixtures.path("paywall/offerings-v1.json"))
        let paywall = try #require(catalog.paywall)
        #expect(paywall.offerings.map(\.key) == ["default", "coins"])
        #expect(paywall.offerings.map(\.isCurrent) == [true, false])
        #expect(paywall.shown.map(\.product.storeID) == ["com.lumen.pro.monthly", "com.lumen.pro.annual", "com.lumen.coins.100"])
        #expect(paywall.products.allSatisfy { $0.kind == nil && $0.store == nil })
        #expect(catalog.knownFields == [.id])
    }

    @Test func theStoreKitWrapperIsTheStoreKitConfigurationItHolds() throws {
        let path = Fixtures.path("paywall/storekit-config-file.json")
        let catalog = try SourceLoader.load(path: path)
        #expect(catalog.format == .storeKit)
        #expect(catalog.paywall == nil)
        #expect(catalog.products.map(\.id) == ["com.lumen.coins.100", "com.lumen.pro.monthly"])
        // Lines and columns are the file's own.
        let monthly = try #require(catalog.products.first { $0.id == "com.lumen.pro.monthly" })
        let line = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
            .firstIndex { $0.contains("\"productID\": \"com.lumen.pro.monthly\"") }
        #expect(line.map { $0 + 1 } == Int(monthly.position(of: .id).line))
    }

    @Test func theWrapperWithItsContentsAsAString() throws {
        let inner = #"{"products": [{"productID": "a.b", "type": "Consumable", "displayPrice": "0.99", "referenceName": "A", "internalID": "1", "localizations": []}], "settings": {}, "subscriptionGroups": [], "version": {"major": 1, "minor": 0}}"#
        let escaped = inner.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        let catalog = try Fixtures.load(#"{"object": "store_kit_config_file", "contents": "\#(escaped)"}"#, as: "wrapper.json")
        #expect(catalog.format == .storeKit && catalog.products.map(\.id) == ["a.b"])
    }

    @Test func aProductOfAnUnknownTypeIsRefusedWhereItIsWritten() throws {
        let text = """
            {"object": "list", "url": "/v2/projects/p/products", "next_page": null, "items": [
              {"object": "product", "id": "prod1", "store_identifier": "a.b", "type": "rental"}
            ]}
            """
        let error = try #require(Fixtures.error(text, as: "products.json"))
        #expect(error.description.contains("products.json:2:"), "\(error)")
        #expect(error.description.contains("type \"rental\""), "\(error)")
    }

    @Test func aPackageHoldingAProductNoPageDescribesIsRefused() throws {
        let text = """
            {"object": "offering", "id": "o1", "lookup_key": "default", "is_current": true,
             "packages": {"object": "list", "items": [{"object": "package", "id": "p1", "lookup_key": "$rc_annual",
               "products": {"object": "list", "items": [{"product_id": "prodX", "eligibility_criteria": "all"}]}}]}}
            """
        let error = try #require(Fixtures.error(text, as: "offering.json"))
        #expect(error.description.contains("prodX"), "\(error)")
    }

    @Test func aSavedErrorResponseIsNamedAsSuch() throws {
        let error = try #require(Fixtures.error(#"{"object": "error", "type": "authentication_error", "message": "Invalid API key", "retryable": false, "doc_url": "https://errors.rev.cat/authentication-error"}"#, as: "page.json"))
        #expect(error.description.contains("error response"), "\(error)")
    }

    /// Pages saved without `expand` (as RevenueCat's own CLI saves them) say nothing of an
    /// offering's packages or a package's products: neither is read as empty.
    @Test func unexpandedPagesLeaveContentsUnstated() throws {
        let offerings = try Fixtures.load("""
            {"object": "list", "next_page": null, "url": "https://api.revenuecat.com/v2/projects/p/offerings", "items": [
              {"object": "offering", "id": "o1", "lookup_key": "default", "is_current": true, "metadata": null}]}
            """, as: "offerings.json")
        #expect(offerings.paywall?.offerings.map(\.statesPackages) == [false])
        let packages = try Fixtures.load("""
            {"object": "list", "next_page": null, "url": "https://api.revenuecat.com/v2/projects/p/offerings/o1/packages", "items": [
              {"object": "package", "id": "pk1", "lookup_key": "$rc_weekly", "position": null}]}
            """, as: "packages.json")
        let offering = try #require(packages.paywall?.offerings.first)
        #expect(offering.statesPackages && offering.packages.map(\.key) == ["$rc_weekly"])
        #expect(offering.packages.map(\.statesProducts) == [false])
    }
}
