// The Calmly app's product IDs, as the iOS app declares them (configs/ExampleApp.storekit sells them).
enum ProductID: String, CaseIterable {
    case plusMonthly = "com.calmly.app.plus.monthly"
    case plusAnnual = "com.calmly.app.plus.annual"
    case lifetime = "com.calmly.app.lifetime"
    case tipTea = "com.calmly.app.tip.tea"

    static let subscriptions: [ProductID] = [.plusMonthly, .plusAnnual]
}
