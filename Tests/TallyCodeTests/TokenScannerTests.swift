import Testing
import TallyModel
@testable import TallyCode

/// Scans one file of `language`.
func tokenScan(_ text: String, _ language: CodeLanguage, path: String = "App.src", pattern: String? = nil) -> CodeScan {
    TokenScanner.scan(CodeFile(path: path, text: text, language: language), idPattern: pattern)
}

extension CodeScan {
    var ids: [String] { requests.map(\.id) }
    func request(_ id: String) -> ProductRequest? { requests.first { $0.id == id } }
    func rejection(_ text: String) -> RejectedString? { rejected.first { $0.text == text } }
}

extension CodeLocation {
    var lineColumn: String { "\(position.line):\(position.column)" }
}

@Suite struct TokenScannerObjectiveCTests {
    @Test func setWithObjectsAsksTheAppStore() {
        let scan = tokenScan("""
        - (void)load {
            SKProductsRequest *r = [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithObjects:@"com.ex.app.a", @"com.ex.app.b", nil]];
        }
        """, .objectiveC)
        #expect(scan.ids == ["com.ex.app.a", "com.ex.app.b"])
        let first = scan.requests[0]
        #expect(first.api == "SKProductsRequest(productIdentifiers:)")
        #expect(first.store == .appStore)
        #expect(first.kind == nil)
        #expect(first.call.lineColumn == "2:55")
        #expect(first.literal.lineColumn == "2:104")
        #expect(scan.notes.isEmpty)
    }

    @Test func arraysDefinesAndConstantsResolve() {
        let scan = tokenScan("""
        #define kPro @"com.ex.app.pro"
        static NSString * const kCoins = @"com.ex.app.coins";
        @implementation Store
        - (void)load {
            [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithArray:@[kPro, kCoins]]];
            NSMutableSet *ids = [[NSMutableSet alloc] init];
            [ids addObject:@"com.ex.app.gems"];
            [[SKProductsRequest alloc] initWithProductIdentifiers:ids];
        }
        @end
        """, .objectiveC)
        #expect(scan.ids == ["com.ex.app.pro", "com.ex.app.coins", "com.ex.app.gems"])
        #expect(scan.request("com.ex.app.pro")?.literal.lineColumn == "1:14")
        #expect(scan.request("com.ex.app.pro")?.call.lineColumn == "5:32")
    }

    @Test func methodDeclarationsAndCommentsAskForNothing() {
        let scan = tokenScan("""
        - (instancetype)initWithProductIdentifiers:(NSSet *)ids { return self; }
        // [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithObject:@"com.ex.app.old"]];
        /* [[SKProductsRequest alloc] initWithProductIdentifiers:[NSSet setWithObject:@"com.ex.app.older"]]; */
        """, .objectiveC)
        #expect(scan.requests.isEmpty)
        #expect(scan.notes.isEmpty)
        #expect(scan.rejection("com.ex.app.old")?.reason == "in a comment")
        #expect(scan.rejection("com.ex.app.old")?.location.lineColumn == "2:79")
    }

    @Test func defaultsKeysAndAppGroupsAreRejected() {
        let scan = tokenScan("""
        [[NSUserDefaults standardUserDefaults] setBool:YES forKey:@"com.ex.app.unlocked"];
        NSUserDefaults *d = [[NSUserDefaults alloc] initWithSuiteName:@"group.com.ex.app"];
        [center postNotificationName:@"com.ex.app.didPurchase" object:nil];
        NSDictionary *d = @{ @"premiumProduct": product };
        #import "Premium.Store.h"
        """, .objectiveC)
        #expect(scan.rejection("premiumProduct")?.reason == "a dictionary or object key")
        #expect(scan.rejection("Premium.Store.h")?.reason == "an #import path")
        #expect(scan.requests.isEmpty)
        #expect(scan.rejection("com.ex.app.unlocked")?.reason == "a dictionary or UserDefaults key")
        #expect(scan.rejection("group.com.ex.app")?.reason == "an app group or defaults suite name")
        #expect(scan.rejection("com.ex.app.didPurchase")?.reason == "a notification name")
    }
}

@Suite struct TokenScannerPlayBillingTests {
    private let imports = "import com.android.billingclient.api.*\n"

    @Test func productTypeGivesTheKind() {
        let scan = tokenScan(imports + """
        val subs = QueryProductDetailsParams.Product.newBuilder()
            .setProductId("premium_monthly")
            .setProductType(BillingClient.ProductType.SUBS)
            .build()
        val coins = QueryProductDetailsParams.Product.newBuilder().setProductType(ProductType.INAPP).setProductId("coins_100").build()
        """, .kotlin)
        #expect(scan.ids == ["premium_monthly", "coins_100"])
        #expect(scan.request("premium_monthly")?.kind == .subscription)
        #expect(scan.request("coins_100")?.kind == .oneTime)
        #expect(scan.requests.allSatisfy { $0.store == .googlePlay && $0.api == "QueryProductDetailsParams.Product.setProductId" })
        #expect(scan.request("premium_monthly")?.call.lineColumn == "3:6")
        #expect(scan.request("premium_monthly")?.literal.lineColumn == "3:19")
    }

    @Test func companionConstantsAndMappedListsResolve() {
        let scan = tokenScan(imports + """
        class Billing {
            companion object {
                const val PREMIUM = "premium_yearly"
                private val INAPPS = listOf("gems_10", "remove_ads")
            }
            fun query() {
                val one = QueryProductDetailsParams.Product.newBuilder().setProductId(PREMIUM).setProductType(ProductType.SUBS).build()
                val many = INAPPS.map { QueryProductDetailsParams.Product.newBuilder().setProductId(it).setProductType(ProductType.INAPP).build() }
                for (sku in listOf("lifetime_pro")) { QueryProductDetailsParams.Product.newBuilder().setProductId(sku).build() }
            }
        }
        """, .kotlin)
        #expect(scan.ids == ["premium_yearly", "gems_10", "remove_ads", "lifetime_pro"])
        #expect(scan.request("premium_yearly")?.literal.lineColumn == "4:29")
        #expect(scan.request("gems_10")?.kind == .oneTime)
        #expect(scan.request("lifetime_pro")?.kind == nil)
    }

    @Test func skuDetailsParamsWithTheOlderShapes() {
        let kotlin = tokenScan(imports + """
        val params = SkuDetailsParams.newBuilder().setSkusList(listOf("gold_monthly", "gold_yearly")).setType(SkuType.SUBS).build()
        """, .kotlin)
        #expect(kotlin.ids == ["gold_monthly", "gold_yearly"])
        #expect(kotlin.requests.allSatisfy { $0.kind == .subscription && $0.api == "SkuDetailsParams.setSkusList" })

        let java = tokenScan(imports + """
        public class Shop {
            private static final String SKU_GAS = "gas";
            static final String SKU_PREMIUM = "premium";
            void query() {
                List<String> skuList = new ArrayList<>();
                skuList.add(SKU_PREMIUM);
                skuList.add(SKU_GAS);
                SkuDetailsParams.Builder params = SkuDetailsParams.newBuilder();
                params.setSkusList(skuList).setType(SkuType.INAPP);
                client.querySkuDetailsAsync(SkuDetailsParams.newBuilder().setSkusList(Arrays.asList("coins_5", "coins_50")).setType(BillingClient.SkuType.INAPP).build(), this);
            }
        }
        """, .java)
        #expect(java.ids == ["gas", "premium", "coins_5", "coins_50"])
        #expect(java.requests.allSatisfy { $0.kind == .oneTime && $0.store == .googlePlay })
    }

    @Test func runtimeIDsGiveANoteAndNoGuess() {
        let scan = tokenScan(imports + """
        fun getSkus(skus: List<String>) = skus.map {
            QueryProductDetailsParams.Product.newBuilder().setProductId(it).setProductType(ProductType.SUBS).build()
        }
        fun sku(price: Int) = QueryProductDetailsParams.Product.newBuilder().setProductId(String.format("%s_%02d", "monthly", price)).build()
        fun tier(level: Int) = QueryProductDetailsParams.Product.newBuilder().setProductId("premium_$level").build()
        """, .kotlin)
        #expect(scan.requests.isEmpty)
        #expect(scan.notes.count == 3)
        #expect(scan.notes[0].message.contains("`skus`"))
        #expect(scan.notes[0].message.contains("built at run time or come from elsewhere"))
        #expect(scan.notes[0].location.lineColumn == "3:52")
        #expect(scan.notes[1].message.contains("String.format"))
        #expect(scan.rejection("monthly")?.reason.hasPrefix("part of an ID built at run time") == true)
    }

    @Test func olderBillingServiceAndIabHelper() {
        let scan = tokenScan("""
        static final String SKU_PREMIUM = "premium";
        void buy() throws RemoteException {
            Bundle intent = mService.getBuyIntent(3, getPackageName(), "coins_50", "inapp", payload);  // IInAppBillingService
            mHelper.launchPurchaseFlow(this, SKU_PREMIUM, IabHelper.ITEM_TYPE_INAPP, null, RC_REQUEST, listener, "");
            mHelper.launchSubscriptionPurchaseFlow(this, "infinite_gas_monthly", RC_REQUEST, listener);  // IabHelper
        }
        """, .java)
        #expect(scan.ids == ["coins_50", "premium", "infinite_gas_monthly"])
        #expect(scan.requests.map(\.kind) == [.oneTime, .oneTime, .subscription])
        #expect(scan.requests.map(\.api) == ["IInAppBillingService.getBuyIntent", "IabHelper.launchPurchaseFlow", "IabHelper.launchSubscriptionPurchaseFlow"])
    }

    @Test func setProductIdOutsideBillingIsNotAPurchase() {
        let scan = tokenScan("""
        val state = SubscriptionVerificationEntity()
        state.setProductId("grun_pro_monthly")
        """, .kotlin)
        #expect(scan.requests.isEmpty)
        #expect(scan.notes.isEmpty)
        #expect(scan.rejection("grun_pro_monthly")?.reason == "an argument of setProductId(…), not of a purchase API")
    }

    @Test func functionParameterShadowsAConstant() {
        let scan = tokenScan(imports + """
        const val sku = "premium_forever"
        fun buy(sku: String) = QueryProductDetailsParams.Product.newBuilder().setProductId(sku).build()
        """, .kotlin)
        #expect(scan.requests.isEmpty)
        #expect(scan.notes.count == 1)
    }
}

@Suite struct TokenScannerDartTests {
    @Test func inAppPurchaseSetsAndConstants() {
        let scan = tokenScan("""
        import 'package:in_app_purchase/in_app_purchase.dart';
        const String kUpgradeId = 'upgrade';
        const Set<String> _kIds = <String>{kUpgradeId, 'com.ex.consumable'};
        const List<String> _kList = ['com.ex.sub.1month'];
        Future<void> load() async {
          await InAppPurchase.instance.queryProductDetails(_kIds);
          await InAppPurchase.instance.queryProductDetails({'com.ex.direct'});
          await InAppPurchase.instance.queryProductDetails(_kList.toSet());
        }
        """, .dart)
        #expect(scan.ids == ["upgrade", "com.ex.consumable", "com.ex.direct", "com.ex.sub.1month"])
        #expect(scan.requests.allSatisfy { $0.api == "InAppPurchase.queryProductDetails" && $0.store == nil && $0.kind == nil })
        #expect(scan.request("upgrade")?.literal.lineColumn == "2:27")
    }

    @Test func environmentDefaultIsTheID() {
        let scan = tokenScan("""
        const kPremium = String.fromEnvironment('PREMIUM_ID', defaultValue: 'com.ex.premium');
        void load() => InAppPurchase.instance.queryProductDetails({kPremium});
        """, .dart)
        #expect(scan.ids == ["com.ex.premium"])
        #expect(scan.request("com.ex.premium")?.literal.lineColumn == "1:69")
    }

    @Test func flutterInappPurchaseCalls() {
        let scan = tokenScan("""
        import 'package:flutter_inapp_purchase/flutter_inapp_purchase.dart';
        Future<void> load() async {
          await FlutterInappPurchase.instance.getProducts(['coins_10']);
          await FlutterInappPurchase.instance.getSubscriptions(<String>['sub_monthly']);
          await FlutterInappPurchase.instance.requestPurchase('coins_10');
          await FlutterInappPurchase.instance.requestProducts(skus: ['sub_yearly'], type: PurchaseType.subs);
        }
        """, .dart)
        #expect(scan.ids == ["coins_10", "sub_monthly", "coins_10", "sub_yearly"])
        #expect(scan.requests[1].kind == .subscription)
        #expect(scan.requests[2].api == "FlutterInappPurchase.requestPurchase")
        #expect(scan.requests[3].kind == .subscription)
    }

    @Test func commentedOutCallsAndInterpolatedStringsAskForNothing() {
        let scan = tokenScan("""
        /* outer /* nested */ still a comment: InAppPurchase.instance.queryProductDetails({'com.ex.old'}); */
        // await InAppPurchase.instance.queryProductDetails({'com.ex.older'});
        void load(String tier) => InAppPurchase.instance.queryProductDetails({'com.ex.$tier', r'com.ex.raw$'});
        """, .dart)
        #expect(scan.ids == ["com.ex.raw$"])
        #expect(scan.notes.count == 1)
        #expect(scan.rejection("com.ex.old")?.reason == "in a comment")
        #expect(scan.rejection("com.ex.older")?.reason == "in a comment")
    }
}

@Suite struct TokenScannerJavaScriptTests {
    private let iap = "import { getProducts, getSubscriptions, requestPurchase, fetchProducts } from 'react-native-iap';\n"

    @Test func reactNativeIAPCalls() {
        let scan = tokenScan(iap + """
        const SKUS = ['com.ex.coins', `com.ex.gems`];
        const PRO = 'com.ex.pro';
        export async function load() {
          await getProducts({ skus: SKUS });
          await getSubscriptions({ skus: ['com.ex.monthly'] });
          await fetchProducts({ skus: [PRO], type: 'subs' });
          await requestPurchase({ sku: PRO });
          await getProducts(['old_style_premium']);
        }
        """, .typeScript)
        #expect(scan.ids == ["com.ex.coins", "com.ex.gems", "com.ex.monthly", "com.ex.pro", "com.ex.pro", "old_style_premium"])
        #expect(scan.request("com.ex.monthly")?.kind == .subscription)
        #expect(scan.requests[3].kind == .subscription)
        #expect(scan.requests[3].api == "fetchProducts")
        #expect(scan.requests[4].api == "requestPurchase")
        #expect(scan.requests.allSatisfy { $0.store == nil })
        #expect(scan.request("com.ex.gems")?.literal.lineColumn == "2:31")
    }

    @Test func platformSelectNamesTheStore() {
        let scan = tokenScan(iap + """
        const subs = Platform.select({ ios: ['com.ex.ios.monthly'], android: ['monthly_android'], default: [] });
        getSubscriptions({ skus: subs });
        requestPurchase({ request: { ios: { sku: 'ios_only' }, android: { skus: ['android_only'] } }, type: 'inapp' });
        """, .javaScript)
        #expect(scan.ids == ["com.ex.ios.monthly", "monthly_android", "ios_only", "android_only"])
        #expect(scan.request("com.ex.ios.monthly")?.store == .appStore)
        #expect(scan.request("monthly_android")?.store == .googlePlay)
        #expect(scan.request("ios_only")?.store == .appStore)
        #expect(scan.request("android_only")?.kind == .oneTime)
    }

    @Test func expoIAPAndRevenueCat() {
        let scan = tokenScan("""
        import { useIAP } from 'expo-iap';
        import Purchases, { PRODUCT_CATEGORY } from 'react-native-purchases';
        const { requestProducts } = useIAP();
        requestProducts({ skus: ['expo_coins'], type: 'inapp' });
        Purchases.getProducts(['rc_monthly'], PRODUCT_CATEGORY.SUBSCRIPTION);
        Purchases.getProducts({ productIdentifiers: ['cap_lifetime'] });
        """, .typeScript)
        #expect(scan.ids == ["expo_coins", "rc_monthly", "cap_lifetime"])
        #expect(scan.request("expo_coins")?.kind == .oneTime)
        #expect(scan.request("rc_monthly")?.kind == .subscription)
        #expect(scan.request("rc_monthly")?.api == "Purchases.getProducts")
        #expect(scan.request("cap_lifetime")?.api == "Purchases.getProducts")
    }

    @Test func configValuesAndTemplatesGiveNotes() {
        let scan = tokenScan(iap + """
        const itemSkus = Platform.select({ ios: [Config.PURCHASE_ITEM_SKU_IOS], android: [Config.PURCHASE_ITEM_SKU_ANDROID] });
        const first = itemSkus[0];
        export const buy = async (tier) => {
          await getProducts({ skus: itemSkus });
          await requestPurchase({ sku: first });
          await getProducts({ skus: [`com.ex.${tier}`] });
        };
        """, .typeScript)
        #expect(scan.requests.isEmpty)
        #expect(scan.notes.count == 3)
        #expect(scan.notes[0].message.contains("`Config.PURCHASE_ITEM_SKU_IOS`, `Config.PURCHASE_ITEM_SKU_ANDROID`"))
        #expect(scan.notes[0].message.hasPrefix("getProducts asks for the product IDs"))
        #expect(scan.notes[2].message.contains("com.ex.${tier}"))
    }

    @Test func declarationsAndOtherLibrariesAreNotCalls() {
        let declared = tokenScan(iap + """
        async function getProducts(skus) { return skus; }
        const api = { getSubscriptions(skus: string[]) { return [] } };
        """, .typeScript)
        #expect(declared.requests.isEmpty && declared.notes.isEmpty)
        let shop = tokenScan("const items = await api.getProducts(['premium_shirt']);", .javaScript)
        #expect(shop.requests.isEmpty && shop.notes.isEmpty)
    }

    @Test func regexLiteralsDoNotOpenStrings() {
        let scan = tokenScan(iap + """
        const quote = /'/g; const slash = a / b / c;
        getProducts({ skus: ['com.ex.after.regex'] });
        """, .javaScript)
        #expect(scan.ids == ["com.ex.after.regex"])
    }
}

@Suite struct TokenScannerUnityTests {
    private let header = "using UnityEngine.Purchasing;\n"

    @Test func addProductKindsConstantsAndStoreIDs() {
        let scan = tokenScan(header + """
        public class IAP : IStoreListener {
            public const string kCoins = "coins_100";
            public static readonly string kSub = "vip_subscription", kNoAds = "no_ads";
            private static string kAppleSub = "com.ex.vip.apple";
            void Init() {
                var builder = ConfigurationBuilder.Instance(StandardPurchasingModule.Instance());
                builder.AddProduct(kCoins, ProductType.Consumable);
                builder.AddProduct(kNoAds, ProductType.NonConsumable);
                builder.AddProduct(kSub, ProductType.Subscription, new IDs(){
                    { kAppleSub, AppleAppStore.Name },
                    { "com.ex.vip.google", GooglePlay.Name },
                    { "com.ex.vip.amazon", AmazonApps.Name },
                });
            }
        }
        """, .cSharp)
        // Both stores have their own ID for the subscription: neither is asked for the general one
        // (issue 49; ../shared/fixtures/realworld/code/35's Purchaser.cs).
        #expect(scan.ids == ["coins_100", "no_ads", "com.ex.vip.apple", "com.ex.vip.google"])
        #expect(scan.request("coins_100")?.kind == .consumable)
        #expect(scan.request("no_ads")?.kind == .nonConsumable)
        #expect(scan.request("vip_subscription") == nil)
        #expect(scan.request("com.ex.vip.apple")?.kind == .subscription)
        #expect(scan.request("com.ex.vip.apple")?.store == .appStore)
        #expect(scan.request("com.ex.vip.google")?.store == .googlePlay)
        #expect(scan.request("coins_100")?.api == "ConfigurationBuilder.AddProduct")
        #expect(scan.rejection("com.ex.vip.amazon")?.reason == "an ID for AmazonApps, a store Tally does not read")
    }

    @Test func productDefinitionsAndPurchasesByID() {
        let scan = tokenScan(header + """
        var products = new List<ProductDefinition> { new ProductDefinition("gold_pack", ProductType.Consumable) };
        controller.InitiatePurchase("gold_pack");
        controller.InitiatePurchase(product);
        """, .cSharp)
        #expect(scan.ids == ["gold_pack", "gold_pack"])
        #expect(scan.requests[0].api == "ProductDefinition")
        #expect(scan.requests[1].api == "IStoreController.InitiatePurchase")
        #expect(scan.notes.isEmpty)  // InitiatePurchase(product) names a product object, not an ID
    }

    @Test func verbatimAndInterpolatedStrings() {
        let scan = tokenScan(header + """
        builder.AddProduct(@"verbatim_""premium", ProductType.Consumable);
        builder.AddProduct($"{prefix}_premium", ProductType.Consumable);
        builder.AddProduct($"{{literal}}_premium", ProductType.Consumable);
        """, .cSharp)
        #expect(scan.ids == ["verbatim_\"\"premium", "{{literal}}_premium"])
        #expect(scan.notes.count == 1)
    }
}
