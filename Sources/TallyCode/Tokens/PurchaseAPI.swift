import TallyModel

/// One purchase API call shape the token scanner knows: the method, where its IDs stand, what
/// kind and store it states. `TokenScanner.mayAskForProducts` and the scan read the same table.
struct PurchaseAPI: Sendable {
    /// Where the IDs stand in the call.
    enum IDs: Sendable {
        /// The argument at this position (`setProductId(x)`, `queryProductDetails({…})`).
        case argument(Int)
        /// An Objective-C selector's argument (`initWithProductIdentifiers:x`).
        case selector
        /// The argument at this position, or, when it is an object (`{skus: […]}`) or named
        /// arguments (`skus: […]`), the values of these keys at any depth (`request: {ios: {sku}}`).
        case keyed(Int, [String])
    }

    /// Where the kind is stated.
    enum KindSource: Sendable {
        case none
        /// The API says it (`getSubscriptions`).
        case fixed(RequestedKind)
        /// A call in the same builder chain (`.setProductType(ProductType.SUBS)`).
        case chain(String)
        /// An argument, by position or label (`AddProduct(id, ProductType.Consumable)`, `productCategory:`).
        case argument(Int, label: String?)
        /// A key beside the IDs (`{skus, type: 'subs'}`, `{id, type: store.PAID_SUBSCRIPTION}`).
        case key(String)
    }

    var methods: [String]
    var languages: Set<CodeLanguage>
    /// The API's name in reports.
    var api: String
    var ids: IDs
    var kind: KindSource = .none
    var store: Store?
    /// The file must name one of these (an import, a class); empty: the method name alone is specific enough.
    var gate: [String] = []
    /// One of these must stand in the receiver path (`Purchases.getProducts`); empty: any receiver or none.
    var receivers: [String] = []
    /// Whether a call whose IDs are not literals here gets a note. Off for APIs whose argument is
    /// mostly a product object (`InitiatePurchase(product)`).
    var notesUnresolved = true
    /// The kind the API takes when the call does not state one (RevenueCat's `getProducts`:
    /// subscriptions unless `productCategory:` says otherwise).
    var defaultKind: RequestedKind? = nil
}

extension PurchaseAPI {
    private static let jvm: Set<CodeLanguage> = [.kotlin, .java]
    private static let js: Set<CodeLanguage> = [.javaScript, .typeScript]
    private static let reactNativeIAP = ["react-native-iap", "expo-iap", "RNIap", "useIAP"]
    private static let flutterInappPurchase = ["flutter_inapp_purchase", "FlutterInappPurchase"]
    private static let unity = ["UnityEngine.Purchasing", "ConfigurationBuilder", "IStoreController", "StoreController"]

    /// Every shape, most specific first: the first one that matches a call takes it.
    static let all: [PurchaseAPI] = [
        // StoreKit 1 (Objective-C).
        PurchaseAPI(methods: ["initWithProductIdentifiers"], languages: [.objectiveC], api: "SKProductsRequest(productIdentifiers:)",
                    ids: .selector, store: .appStore),
        PurchaseAPI(methods: ["paymentWithProductIdentifier"], languages: [.objectiveC], api: "SKPayment(productIdentifier:)",
                    ids: .selector, store: .appStore),
        PurchaseAPI(methods: ["getProductsWithIdentifiers", "productsWithIdentifiers"], languages: [.objectiveC],
                    api: "RCPurchases.getProducts", ids: .selector, store: .appStore, gate: ["RCPurchases", "RevenueCat"]),
        // Google Play Billing (Kotlin, Java; C# through Xamarin's binding).
        PurchaseAPI(methods: ["setProductId"], languages: jvm, api: "QueryProductDetailsParams.Product.setProductId",
                    ids: .argument(0), kind: .chain("setProductType"), store: .googlePlay, gate: ["QueryProductDetailsParams", "billingclient"]),
        PurchaseAPI(methods: ["SetProductId"], languages: [.cSharp], api: "QueryProductDetailsParams.Product.SetProductId",
                    ids: .argument(0), kind: .chain("SetProductType"), store: .googlePlay, gate: ["QueryProductDetailsParams", "BillingClient"]),
        PurchaseAPI(methods: ["setSkusList"], languages: jvm, api: "SkuDetailsParams.setSkusList",
                    ids: .argument(0), kind: .chain("setType"), store: .googlePlay, gate: ["SkuDetailsParams", "billingclient"]),
        PurchaseAPI(methods: ["setSku"], languages: jvm, api: "BillingFlowParams.setSku",
                    ids: .argument(0), kind: .chain("setType"), store: .googlePlay, gate: ["BillingFlowParams", "billingclient"]),
        // The AIDL In-app Billing v3 service and Google's IabHelper sample (TrivialDrive), still in older apps.
        PurchaseAPI(methods: ["getBuyIntent"], languages: jvm, api: "IInAppBillingService.getBuyIntent", ids: .argument(2),
                    kind: .argument(3, label: nil), store: .googlePlay, gate: ["IInAppBillingService"]),
        PurchaseAPI(methods: ["launchPurchaseFlow"], languages: jvm, api: "IabHelper.launchPurchaseFlow", ids: .argument(1),
                    kind: .argument(2, label: nil), store: .googlePlay, gate: ["IabHelper"]),
        PurchaseAPI(methods: ["launchSubscriptionPurchaseFlow"], languages: jvm, api: "IabHelper.launchSubscriptionPurchaseFlow",
                    ids: .argument(1), kind: .fixed(.subscription), store: .googlePlay, gate: ["IabHelper"]),
        // RevenueCat (Android, Flutter, React Native, Capacitor).
        PurchaseAPI(methods: ["getProducts", "getProductsWith"], languages: jvm, api: "Purchases.getProducts",
                    ids: .argument(0), kind: .argument(1, label: nil), gate: ["com.revenuecat"], receivers: ["Purchases", "sharedInstance"]),
        PurchaseAPI(methods: ["getSubscriptionSkus"], languages: jvm, api: "Purchases.getSubscriptionSkus",
                    ids: .argument(0), kind: .fixed(.subscription), gate: ["com.revenuecat"], receivers: ["Purchases", "sharedInstance"]),
        PurchaseAPI(methods: ["getNonSubscriptionSkus"], languages: jvm, api: "Purchases.getNonSubscriptionSkus",
                    ids: .argument(0), kind: .fixed(.oneTime), gate: ["com.revenuecat"], receivers: ["Purchases", "sharedInstance"]),
        PurchaseAPI(methods: ["getProducts"], languages: js.union([.dart]), api: "Purchases.getProducts",
                    ids: .keyed(0, ["productIdentifiers"]), kind: .argument(1, label: "productCategory"), gate: ["Purchases"], receivers: ["Purchases"],
                    defaultKind: .subscription),
        PurchaseAPI(methods: ["purchaseProduct"], languages: js.union([.dart]), api: "Purchases.purchaseProduct",
                    ids: .keyed(0, ["productIdentifier"]), gate: ["Purchases"], receivers: ["Purchases"]),
        // Anjlab's android-inapp-billing-v3 and Amazon's Appstore SDK.
        PurchaseAPI(methods: ["purchase"], languages: jvm, api: "BillingProcessor.purchase", ids: .argument(1),
                    gate: ["BillingProcessor"], receivers: ["bp", "billingProcessor", "mBillingProcessor", "billing"]),
        PurchaseAPI(methods: ["subscribe"], languages: jvm, api: "BillingProcessor.subscribe", ids: .argument(1), kind: .fixed(.subscription),
                    gate: ["BillingProcessor"], receivers: ["bp", "billingProcessor", "mBillingProcessor", "billing"]),
        PurchaseAPI(methods: ["getPurchaseListingDetails", "getPurchaseListingDetailsAsync"], languages: jvm,
                    api: "BillingProcessor.getPurchaseListingDetails", ids: .argument(0), gate: ["BillingProcessor"]),
        PurchaseAPI(methods: ["getSubscriptionListingDetails", "getSubscriptionsListingDetails", "getSubscriptionListingDetailsAsync",
                              "getSubscriptionsListingDetailsAsync"], languages: jvm, api: "BillingProcessor.getSubscriptionListingDetails",
                    ids: .argument(0), kind: .fixed(.subscription), gate: ["BillingProcessor"]),
        PurchaseAPI(methods: ["getProductData"], languages: jvm, api: "PurchasingService.getProductData", ids: .argument(0),
                    gate: ["PurchasingService"], receivers: ["PurchasingService"]),
        // Flutter: in_app_purchase and flutter_inapp_purchase.
        PurchaseAPI(methods: ["queryProductDetails"], languages: [.dart], api: "InAppPurchase.queryProductDetails", ids: .argument(0)),
        PurchaseAPI(methods: ["getProducts"], languages: [.dart], api: "FlutterInappPurchase.getProducts",
                    ids: .keyed(0, ["skus", "productIds"]), gate: flutterInappPurchase),
        PurchaseAPI(methods: ["getSubscriptions"], languages: [.dart], api: "FlutterInappPurchase.getSubscriptions",
                    ids: .keyed(0, ["skus", "productIds"]), kind: .fixed(.subscription), gate: flutterInappPurchase),
        PurchaseAPI(methods: ["requestProducts", "fetchProducts"], languages: [.dart], api: "FlutterInappPurchase.requestProducts",
                    ids: .keyed(0, ["skus", "productIds"]), kind: .key("type"), gate: flutterInappPurchase),
        PurchaseAPI(methods: ["requestPurchase"], languages: [.dart], api: "FlutterInappPurchase.requestPurchase",
                    ids: .keyed(0, ["sku", "skus", "productId"]), kind: .key("type"), gate: flutterInappPurchase),
        PurchaseAPI(methods: ["requestSubscription"], languages: [.dart], api: "FlutterInappPurchase.requestSubscription",
                    ids: .keyed(0, ["sku", "skus", "productId"]), kind: .fixed(.subscription), gate: flutterInappPurchase),
        // expo-in-app-purchases (deprecated, still in apps): `getProductsAsync(['id', …])`.
        PurchaseAPI(methods: ["getProductsAsync"], languages: js, api: "InAppPurchases.getProductsAsync", ids: .argument(0),
                    gate: ["expo-in-app-purchases"]),
        // react-native-iap and expo-iap.
        PurchaseAPI(methods: ["getProducts"], languages: js, api: "getProducts", ids: .keyed(0, ["skus"]), gate: reactNativeIAP),
        PurchaseAPI(methods: ["getSubscriptions"], languages: js, api: "getSubscriptions", ids: .keyed(0, ["skus"]),
                    kind: .fixed(.subscription), gate: reactNativeIAP),
        PurchaseAPI(methods: ["fetchProducts"], languages: js, api: "fetchProducts", ids: .keyed(0, ["skus"]), kind: .key("type"), gate: reactNativeIAP),
        PurchaseAPI(methods: ["requestProducts"], languages: js, api: "requestProducts", ids: .keyed(0, ["skus"]), kind: .key("type"), gate: reactNativeIAP),
        PurchaseAPI(methods: ["requestPurchase"], languages: js, api: "requestPurchase", ids: .keyed(0, ["sku", "skus"]), kind: .key("type"),
                    gate: reactNativeIAP),
        PurchaseAPI(methods: ["requestSubscription"], languages: js, api: "requestSubscription", ids: .keyed(0, ["sku", "skus"]),
                    kind: .fixed(.subscription), gate: reactNativeIAP),
        // cordova-plugin-purchase.
        PurchaseAPI(methods: ["register"], languages: js, api: "store.register", ids: .keyed(0, ["id"]), kind: .key("type"),
                    gate: ["cordova-plugin-purchase", "CdvPurchase", "cordova", "cdv-purchase"], receivers: ["store"]),
        // Unity IAP.
        PurchaseAPI(methods: ["AddProduct"], languages: [.cSharp], api: "ConfigurationBuilder.AddProduct", ids: .argument(0),
                    kind: .argument(1, label: "type"), gate: unity),
        PurchaseAPI(methods: ["ProductDefinition"], languages: [.cSharp], api: "ProductDefinition", ids: .argument(0),
                    kind: .argument(1, label: "type"), gate: unity),
        PurchaseAPI(methods: ["InitiatePurchase", "PurchaseProduct"], languages: [.cSharp], api: "IStoreController.InitiatePurchase",
                    ids: .argument(0), gate: unity, notesUnresolved: false),
        PurchaseAPI(methods: ["WithID"], languages: [.cSharp], api: "ProductCollection.WithID", ids: .argument(0), gate: unity,
                    notesUnresolved: false),
    ]

    /// Whether `text` names this API the way the scan requires (its gate, or its method alone).
    func isNamed(in text: ByteSearch) -> Bool {
        guard methods.contains(where: { text.contains($0) }) else { return false }
        return gate.isEmpty || gate.contains { text.contains($0) }
    }
}

extension RequestedKind {
    /// The kind a constant or string names: Play's `SUBS`/`INAPP`, Unity's `ProductType.Consumable`,
    /// react-native-iap's `'subs'`, RevenueCat's `PRODUCT_CATEGORY.SUBSCRIPTION`, cordova's `PAID_SUBSCRIPTION`.
    init?(word: String) {
        switch word.lowercased() {
        case "subs", "sub", "subscription", "subscriptions", "paid_subscription", "free_subscription", "auto_renewable", "autorenewable":
            self = .subscription
        case "inapp", "in_app", "iap", "non_subscription", "nonsubscription", "onetime", "one_time":
            self = .oneTime
        case "consumable":
            self = .consumable
        case "nonconsumable", "non_consumable":
            self = .nonConsumable
        default:
            // Constants named for the type: IabHelper's `ITEM_TYPE_SUBS`, `ITEM_TYPE_INAPP`.
            let lower = word.lowercased()
            if lower.hasSuffix("_subs") { self = .subscription } else if lower.hasSuffix("_inapp") { self = .oneTime } else { return nil }
        }
    }
}
