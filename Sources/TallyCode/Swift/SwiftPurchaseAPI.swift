import SwiftSyntax
import TallyModel

/// One Swift purchase API the scanner knows: how its call is spelt and which argument holds the IDs.
struct SwiftPurchaseAPI: Sendable {
    enum Callee: Sendable {
        /// An initializer or function called by its name: `SKProductsRequest(…)`, `ProductView(…)`.
        case named(String)
        /// A static or instance method whose receiver ends in one of these names (`Product.products`,
        /// `Purchases.shared.getProducts`); an empty list takes any receiver (a SwiftUI modifier).
        case member(String, receivers: [String])
    }

    /// The API as reports name it.
    var api: String
    var callee: Callee
    /// The label of the IDs' argument; nil for the first unlabeled one.
    var label: String?
    var store: Store?

    /// Every shape: StoreKit 2, its SwiftUI views and modifiers, StoreKit 1, RevenueCat.
    static let all: [SwiftPurchaseAPI] = [
        SwiftPurchaseAPI(api: "Product.products(for:)", callee: .member("products", receivers: ["Product"]), label: "for", store: .appStore),
        SwiftPurchaseAPI(api: "ProductView(id:)", callee: .named("ProductView"), label: "id", store: .appStore),
        SwiftPurchaseAPI(api: "StoreView(ids:)", callee: .named("StoreView"), label: "ids", store: .appStore),
        SwiftPurchaseAPI(api: "SubscriptionStoreView(productIDs:)", callee: .named("SubscriptionStoreView"), label: "productIDs", store: .appStore),
        SwiftPurchaseAPI(api: "storeProductTask(for:)", callee: .member("storeProductTask", receivers: []), label: "for", store: .appStore),
        SwiftPurchaseAPI(api: "storeProductsTask(for:)", callee: .member("storeProductsTask", receivers: []), label: "for", store: .appStore),
        SwiftPurchaseAPI(api: "Transaction.currentEntitlement(for:)", callee: .member("currentEntitlement", receivers: ["Transaction"]), label: "for", store: .appStore),
        SwiftPurchaseAPI(api: "Transaction.latest(for:)", callee: .member("latest", receivers: ["Transaction"]), label: "for", store: .appStore),
        SwiftPurchaseAPI(api: "SKProductsRequest(productIdentifiers:)", callee: .named("SKProductsRequest"), label: "productIdentifiers", store: .appStore),
        SwiftPurchaseAPI(api: "Purchases.getProducts", callee: .member("getProducts", receivers: ["Purchases", "shared"]), label: nil, store: .appStore),
        SwiftPurchaseAPI(api: "Purchases.products(_:)", callee: .member("products", receivers: ["Purchases", "shared"]), label: nil, store: .appStore),
    ]

    /// Text one of the calls needs: a file without any of these asks for nothing.
    static let names = ["products(for", "ProductView(", "StoreView(", "SKProductsRequest(", "getProducts(", "storeProductTask(",
                        "storeProductsTask(", "currentEntitlement(for", "latest(for", ".products("]

    /// The API a call is, and the argument holding its IDs.
    static func match(_ call: FunctionCallExprSyntax) -> (api: SwiftPurchaseAPI, argument: ExprSyntax)? {
        for api in all {
            guard api.callee.matches(call.calledExpression) else { continue }
            let argument: LabeledExprSyntax?
            if let label = api.label {
                argument = call.arguments.first { $0.label?.text == label }
            } else {
                argument = call.arguments.first.flatMap { $0.label == nil ? $0 : nil }
            }
            if let argument { return (api, argument.expression) }
        }
        return nil
    }
}

extension SwiftPurchaseAPI.Callee {
    func matches(_ expression: ExprSyntax) -> Bool {
        switch self {
        case .named(let name):
            if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text == name }
            // `SwiftUI.ProductView(…)`, `StoreKit.SKProductsRequest(…)`.
            if let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == name,
               let base = member.base?.as(DeclReferenceExprSyntax.self) {
                return ["SwiftUI", "StoreKit", "_StoreKit_SwiftUI"].contains(base.baseName.text)
            }
            return false
        case .member(let name, let receivers):
            guard let member = expression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == name else { return false }
            guard !receivers.isEmpty else { return true }
            guard let base = member.base else { return false }
            let last: String?
            if let reference = base.as(DeclReferenceExprSyntax.self) {
                last = reference.baseName.text
            } else if let inner = base.as(MemberAccessExprSyntax.self) {
                last = inner.declName.baseName.text
                // `Purchases.shared.products(…)`: the receiver path names Purchases.
                if last == "shared" { return base.trimmedDescription.hasPrefix("Purchases.") }
            } else {
                last = nil
            }
            return last.map { receivers.contains($0) && $0 != "shared" } ?? false
        }
    }
}
