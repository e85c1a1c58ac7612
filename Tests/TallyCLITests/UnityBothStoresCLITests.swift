import Foundation
import Testing

/// Issue 50: a Unity IAP catalogue holds both stores' product lists. The catalogues below have
/// the shape of real ones (one compact line as Unity's JsonUtility writes it; `storeIDs` for
/// UDP, AppleAppStore and GooglePlay as in AlexanderWatsonAR/Origami-Fortune-Teller@e16fde6d,
/// whose Apple and Play IDs differ from the general `id`), with a Play ID of its own here.
@Suite struct UnityBothStoresCLITests {
    static let catalogue = #"{"appleSKU":"","appleTeamID":"","enableCodelessAutoInitialization":true,"products":[{"id":"pack6_gold_coins","type":0,"storeIDs":[{"store":"UDP","id":"pack6_gold_coins"},{"store":"AppleAppStore","id":"com.game.pack6_gold_coins"},{"store":"GooglePlay","id":"pack6_gold_coins_google"}],"defaultDescription":{"googleLocale":21,"title":"Gold coins","description":"6 coins"},"screenshotPath":"","applePriceTier":1,"googlePrice":{"data":[99,0,0,131072],"num":0.99},"pricingTemplateID":"","descriptions":[],"udpPrice":{"data":[99,0,0,131072],"num":0.99},"payouts":[]},{"id":"no_ads","type":1,"storeIDs":[],"defaultDescription":{"googleLocale":21,"title":"No ads","description":"Remove ads"},"screenshotPath":"","applePriceTier":3,"googlePrice":{"data":[299,0,0,131072],"num":2.99},"pricingTemplateID":"","descriptions":[],"payouts":[]}]}"#

    static func playPage(_ ids: [String]) -> String {
        let products = ids.map { id in
            #"{"packageName": "com.game", "productId": "\#(id)", "listings": [{"languageCode": "en-US", "title": "\#(id)"}], "purchaseOptions": [{"purchaseOptionId": "buy", "state": "ACTIVE", "buyOption": {"legacyCompatible": true}, "regionalPricingAndAvailabilityConfigs": [{"regionCode": "US", "price": {"currencyCode": "USD", "units": "0", "nanos": 990000000}, "availability": "AVAILABLE"}]}]}"#
        }
        return #"{"oneTimeProducts": [\#(products.joined(separator: ", "))]}"#
    }

    @Test func showListsBothStoresIDsAndAPlaySourceIsComparedByThePlayID() throws {
        let scratch = try Scratch(["IAPProductCatalog.json": Self.catalogue,
                                   "play.json": Self.playPage(["pack6_gold_coins_google", "no_ads"]),
                                   "play-missing.json": Self.playPage(["no_ads"])])
        defer { scratch.remove() }
        // The table names the Google Play ID beside the App Store's.
        let show = try scratch.run(["show", "IAPProductCatalog.json"])
        #expect(show.status == 0, "\(show.stderr)")
        #expect(show.stdout.contains("GOOGLE PLAY ID"), "\(show.stdout)")
        let row = show.stdout.split(separator: "\n").first { $0.hasPrefix("com.game.pack6_gold_coins ") }
        #expect(row?.hasSuffix("pack6_gold_coins_google") == true, "\(show.stdout)")
        // JSON: both stores' IDs.
        let json = try scratch.run(["show", "IAPProductCatalog.json", "--format", "json"])
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let products = document?["products"] as? [[String: Any]] ?? []
        #expect(products.map { $0["id"] as? String } == ["com.game.pack6_gold_coins", "no_ads"], "\(json.stdout)")
        #expect(products.first?["google_play"] as? String == "pack6_gold_coins_google", "\(json.stdout)")
        // Against Google Play: paired by the Play ID, consistent.
        let check = try scratch.run(["check", "--no-config", "IAPProductCatalog.json", "play.json"])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("2 products in both"), "\(check.stdout)")
        // The Play product missing: found, by its Play ID's product.
        let missing = try scratch.run(["check", "--no-config", "IAPProductCatalog.json", "play-missing.json"])
        #expect(missing.status == 1, "\(missing.stdout)")
        #expect(missing.stdout.contains("com.game.pack6_gold_coins"), "\(missing.stdout)")
    }

    /// Unity renumbered `googleLocale`: the first IAP packages count from zh_TW (en_US = 4,
    /// ru_RU = 16, as in AshIrvin/Cubey and Arazorg/Infrails), later ones alphabetically (en_US =
    /// 21, ru_RU = 69). A Russian translation is read as Russian in both.
    @Test(arguments: [(4, 16), (21, 69)])
    func bothLocaleNumberingsAreRead(english: Int, russian: Int) throws {
        let text = #"{"appleSKU":"","appleTeamID":"","enableCodelessAutoInitialization":true,"products":[{"id":"coins_100","type":0,"storeIDs":[{"store":"AppleAppStore","id":"coins_100_IOS"}],"defaultDescription":{"googleLocale":\#(english),"title":"100 coins","description":"A bag"},"screenshotPath":"","applePriceTier":1,"googlePrice":{"data":[0,0,0,0],"num":0.0},"pricingTemplateID":"","descriptions":[{"googleLocale":\#(russian),"title":"100 монет","description":"Мешок"}],"payouts":[]}]}"#
        let scratch = try Scratch(["IAPProductCatalog.json": text])
        defer { scratch.remove() }
        let json = try scratch.run(["show", "IAPProductCatalog.json", "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(!json.stderr.contains("unknown"), "\(json.stderr)")
        let document = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let product = (document?["products"] as? [[String: Any]])?.first
        let localizations = product?["localizations"] as? [String: [String: String]] ?? [:]
        #expect(Set(localizations.keys) == ["en_US", "ru_RU"], "\(json.stdout)")
        #expect(localizations["ru_RU"]?["name"] == "100 монет", "\(json.stdout)")
    }
}
