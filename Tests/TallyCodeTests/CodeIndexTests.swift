import Testing
import TallyModel
@testable import TallyCode

/// Scans several files together, as a code source reads them (issue 49: one index per language).
func indexScan(_ files: [(String, String)]) -> CodeScan {
    CodeScanner.scan(files.map { path, text in
        CodeFile(path: path, text: text, language: CodeLanguage.forExtension(String(path.split(separator: ".").last ?? "")) ?? .kotlin)
    })
}

private let play = "import com.android.billingclient.api.*\n"

/// Issue 49: IDs followed across files in every language, each shape from a real app's.
@Suite struct CodeIndexTests {
    @Test func aKotlinObjectsConstantResolvesACallInAnotherFile() {
        let scan = indexScan([
            ("Billing.kt", play + "fun q() = QueryProductDetailsParams.Product.newBuilder().setProductId(BillingConstants.PREMIUM).build()\n"),
            ("BillingConstants.kt", "object BillingConstants {\n    const val PREFS = \"billing_prefs\"\n    const val PREMIUM = \"premium_upgrade\"\n}\n"),
        ])
        #expect(scan.ids == ["premium_upgrade"])
        #expect(scan.request("premium_upgrade")?.call.file == "Billing.kt")
        #expect(scan.request("premium_upgrade")?.literal.file == "BillingConstants.kt")
        #expect(scan.request("premium_upgrade")?.literal.lineColumn == "3:25")
        #expect(scan.request("premium_upgrade")?.store == .googlePlay)
    }

    @Test func theCallsOwnFileWinsOverAnotherFilesNameAndAFieldOfAnotherClassIsNotTaken() {
        let scan = indexScan([
            ("Store.ts", "import { getProducts } from 'react-native-iap';\nconst SKUS = ['own_sku'];\ngetProducts({ skus: SKUS });\ngetProducts({ skus: [item.id] });\n"),
            ("Other.ts", "export const SKUS = ['other_sku'];\nexport class Item { id = 'not_a_product_id'; }\n"),
        ])
        #expect(scan.ids == ["own_sku"])
        #expect(scan.notes.count == 1)  // `item.id`: not followed, never guessed
    }

    @Test func anImportNameAndAnExportedModuleConstant() {
        let scan = indexScan([
            ("src/iap.js", "import * as RNIap from 'react-native-iap';\nimport * as skus from './skus';\nRNIap.getSubscriptions({ skus: [skus.MONTHLY, skus.YEARLY] });\n"),
            ("src/skus.js", "export const MONTHLY = 'plus_monthly';\nexport const YEARLY = `plus_yearly`;\n"),
        ])
        #expect(scan.ids == ["plus_monthly", "plus_yearly"])
    }

    @Test func javasStaticImportAndCSharpsOtherClass() {
        let java = indexScan([
            ("Billing.java", play + "import static com.ex.Constants.*;\nclass B { void q() { QueryProductDetailsParams.Product.newBuilder().setProductId(SKU_PRO).build(); } }\n"),
            ("Constants.java", "public final class Constants {\n    public static final String SKU_PRO = \"pro_unlock\";\n}\n"),
        ])
        #expect(java.ids == ["pro_unlock"])
        let unity = indexScan([
            ("IAPManager.cs", "using UnityEngine.Purchasing;\nclass M { void Init() { builder.AddProduct(IAPData.COMBO, ProductType.Consumable); } }\n"),
            ("IAPData.cs", "public static class IAPData {\n    const string PREFIX = \"com.ex.game.\";\n    public const string COMBO = PREFIX + \"combo\";\n}\n"),
        ])
        #expect(unity.ids == ["com.ex.game.combo"])
        #expect(unity.request("com.ex.game.combo")?.kind == .consumable)
    }

    @Test func objectiveCHeaderDefinesAndExternConstants() {
        let scan = indexScan([
            ("Store.m", "#import \"Ids.h\"\n@implementation Store\n- (void)load {\n  SKProductsRequest *r = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithObjects:kProID, kTipID, nil]];\n}\n@end\n"),
            ("Ids.h", "#define kProID @\"com.ex.pro\"\nextern NSString * const kTipID;\n"),
            ("Ids.m", "NSString * const kTipID = @\"com.ex.tip\";\n"),
        ])
        #expect(scan.ids == ["com.ex.pro", "com.ex.tip"])
    }

    @Test func aParameterIsFollowedToItsCallsInOtherFiles() {
        let scan = indexScan([
            ("DataSource.kt", play + "class DS {\n  suspend fun query(ids: List<String>) = client.queryProductDetails(QueryProductDetailsParams.newBuilder()\n    .setProductList(ids.map { QueryProductDetailsParams.Product.newBuilder().setProductId(it).setProductType(ProductType.INAPP).build() }).build())\n}\n"),
            ("Repository.kt", "class Repo { fun load() { ds.query(Ids.ALL) } }\nobject Ids { val ALL = listOf(\"coins_100\", \"coins_500\") }\n"),
        ])
        #expect(scan.ids == ["coins_100", "coins_500"])
        #expect(scan.requests.allSatisfy { $0.kind == .oneTime })
        let objc = indexScan([
            ("Manager.m", "@implementation M\n- (void)requestProducts:(NSSet *)ids {\n  SKProductsRequest *r = [[SKProductsRequest alloc] initWithProductIdentifiers:ids];\n}\n@end\n"),
            ("Facade.m", "@implementation F\n- (void)load { [[M shared] requestProducts:[NSSet setWithObject:@\"com.ex.unlock\"]]; }\n@end\n"),
        ])
        #expect(objc.ids == ["com.ex.unlock"])
    }

    @Test func enumEntriesConstructorsObjectsAndCollections() {
        let scan = indexScan([
            ("Plans.kt", "enum class Plan(val productId: String, val basePlan: String?) {\n    MONTHLY(\"pro\", \"monthly\"),\n    LIFETIME(\"pro_lifetime\", null);\n}\ndata class ProductId(val value: String)\nobject Items { val plus = ProductId(\"plus_mode\") }\n"),
            ("Billing.kt", play + "class B {\n  fun a() = Plan.entries.filter { it.basePlan == null }.map { QueryProductDetailsParams.Product.newBuilder().setProductId(it.productId).build() }\n  fun b() = QueryProductDetailsParams.Product.newBuilder().setProductId(Items.plus.value).build()\n}\n"),
        ])
        // A filter keeps the collection (the code names every ID it may ask for); the base plans are not IDs.
        #expect(Set(scan.ids) == ["pro", "pro_lifetime", "plus_mode"])
    }

    @Test func dartGettersSwitchNarrowingAndBranchAssignments() {
        let scan = indexScan([
            ("lib/constants.dart", "class C {\n  static List<String> ids(String platform) {\n    switch (platform) {\n      case 'ios':\n        return ['ios_monthly'];\n      case 'android':\n        return ['android_monthly'];\n      case 'web':\n        return ['price_stripe_123'];\n      default:\n        return [];\n    }\n  }\n}\n"),
            ("lib/service.dart", "import 'package:in_app_purchase/in_app_purchase.dart';\nFuture<void> load() async {\n  String platform;\n  if (Platform.isIOS) {\n    platform = 'ios';\n  } else {\n    platform = 'android';\n  }\n  final ids = C.ids(platform);\n  await InAppPurchase.instance.queryProductDetails(ids.toSet());\n}\n"),
        ])
        #expect(Set(scan.ids) == ["ios_monthly", "android_monthly"])
        let getter = indexScan([
            ("lib/plan.dart", "enum Plan { monthly, yearly }\nextension PlanX on Plan {\n  String get iosProductId => switch (this) { Plan.monthly => 'ios.monthly', Plan.yearly => 'ios.yearly' };\n  String get storeId {\n    return 'store.id';\n  }\n}\n"),
            ("lib/iap.dart", "import 'package:in_app_purchase/in_app_purchase.dart';\nvoid f(Plan plan) => InAppPurchase.instance.queryProductDetails({plan.storeId});\n"),
        ])
        #expect(getter.ids == ["store.id"])
    }

    @Test func templatesAndMapsOfObjects() {
        let scan = indexScan([
            ("Products.kt", play + "const val PREFIX = \"com.ex.game\"\nval AD_REMOVAL = \"$PREFIX.adremoval\"\nval BUNDLE = \"${PREFIX}.bundle\"\nfun q() = listOf(AD_REMOVAL, BUNDLE).map { QueryProductDetailsParams.Product.newBuilder().setProductId(it).build() }\n"),
        ])
        #expect(scan.ids == ["com.ex.game.adremoval", "com.ex.game.bundle"])
        let ts = indexScan([
            ("purchases.ts", "import { fetchProducts } from 'react-native-iap';\nimport { IAP_SKUS } from './iap';\nfetchProducts({ skus: IAP_SKUS });\n"),
            ("iap.ts", "export const PACKS = [{ sku: 'pack_s', n: 1 }, { sku: 'pack_m', n: 2 }];\nexport const IAP_SKUS: string[] = PACKS.map((p) => p.sku);\n"),
        ])
        #expect(ts.ids == ["pack_s", "pack_m"])
        // A placeholder Tally cannot read leaves the string unknown: a note, not a guess.
        let unknown = indexScan([("U.kt", play + "fun q(name: String) = QueryProductDetailsParams.Product.newBuilder().setProductId(\"com.ex.${name.lowercase()}\").build()\n")])
        #expect(unknown.ids.isEmpty)
        #expect(unknown.notes.count == 1)
    }

    @Test func unitysGeneralIDIsAskedOnlyOfAStoreWithoutItsOwn() {
        let scan = indexScan([
            ("IAP.cs", "using UnityEngine.Purchasing;\nclass I { void Init() {\n  builder.AddProduct(\"vip\", ProductType.Subscription, new IDs { {\"com.ex.vip.apple\", AppleAppStore.Name} });\n} }\n"),
        ])
        #expect(Set(scan.ids) == ["com.ex.vip.apple", "vip"])
        #expect(scan.request("com.ex.vip.apple")?.store == .appStore)
        #expect(scan.request("vip")?.store == .googlePlay)
    }

    @Test func capacitorRegisterNamesItsStore() {
        let scan = indexScan([
            ("play.ts", "import { store, ProductType, Platform } from 'capacitor-plugin-cdv-purchase';\nconst IDS = ['coins_s', 'coins_m'];\nstore.register([...IDS.map((id) => ({ id, type: ProductType.CONSUMABLE, platform: Platform.GOOGLE_PLAY }))]);\n"),
        ])
        #expect(scan.ids == ["coins_s", "coins_m"])
        #expect(scan.requests.allSatisfy { $0.store == .googlePlay })
    }
}

/// Issue 49, point 6: small cases, each from a real file's shape.
@Suite struct CodeSmallCasesTests {
    @Test func expoInAppPurchasesAndRevenueCatFlutterDefaults() {
        let expo = indexScan([("iap.js", "import * as InAppPurchases from 'expo-in-app-purchases';\nconst items = ['com.ex.expo.pro'];\nInAppPurchases.getProductsAsync(items);\n")])
        #expect(expo.ids == ["com.ex.expo.pro"])
        let revenueCat = indexScan([("rc.dart", "import 'package:purchases_flutter/purchases_flutter.dart';\nvoid f() async {\n  await Purchases.getProducts(['rc_pro']);\n  await Purchases.getProducts(['rc_coins'], productCategory: ProductCategory.nonSubscription);\n}\n")])
        #expect(revenueCat.request("rc_pro")?.kind == .subscription)  // RevenueCat's default product category
        #expect(revenueCat.request("rc_coins")?.kind == .oneTime)
    }

    @Test func anAppsOwnProductViewIsNotStoreKits() {
        let own = CodeScanner.scan([CodeFile(path: "V.swift", text: "import SwiftUI\nstruct ProductView: View {\n  let id: String\n  var body: some View { Text(id) }\n}\nlet v = ProductView(id: \"not.a.product\")\n", language: .swift)])
        #expect(own.ids.isEmpty)
        let noImport = CodeScanner.scan([CodeFile(path: "W.swift", text: "import SwiftUI\nlet v = ProductView(id: \"also.not\")\n", language: .swift)])
        #expect(noImport.ids.isEmpty)
        let storeKit = CodeScanner.scan([CodeFile(path: "S.swift", text: "import SwiftUI\nimport StoreKit\nlet v = ProductView(id: \"com.ex.pro\")\n", language: .swift)])
        #expect(storeKit.ids == ["com.ex.pro"])
    }

    @Test func aKotlinConstAfterALateinitVarAndAHeaderDefine() {
        let kotlin = indexScan([("B.kt", play + "class B {\n  companion object {\n    private lateinit var cache: String\n    const val PRO = \"pro_unlock\"\n  }\n  fun q() = QueryProductDetailsParams.Product.newBuilder().setProductId(PRO).build()\n}\n")])
        #expect(kotlin.ids == ["pro_unlock"])
        #expect(CodeLanguage.forExtension("h") == .objectiveC)
    }
}
