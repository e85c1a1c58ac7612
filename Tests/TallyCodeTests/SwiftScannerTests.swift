import Testing
@testable import TallyCode
import TallyModel

/// The Swift scanner (swift-syntax): an ID is a string literal that reaches a purchase API,
/// followed through the module's declarations; every other look-alike string is rejected with a reason.
@Suite struct SwiftScannerTests {
    func scan(_ files: [String: String], pattern: String? = nil) -> CodeScan {
        CodeScanner.scan(files.sorted { $0.key < $1.key }.map { CodeFile(path: $0.key, text: $0.value, language: .swift) }, idPattern: pattern)
    }

    func ids(_ scan: CodeScan) -> [String] { Array(Set(scan.requests.map(\.id))).sorted() }

    @Test func inlineArrayIsLocatedAtTheLiteralAndTheCall() throws {
        let result = scan(["Store.swift": """
            import StoreKit
            func load() async throws -> [Product] {
                try await Product.products(for: ["com.app.pro", "com.app.tip"])
            }
            """])
        #expect(ids(result) == ["com.app.pro", "com.app.tip"])
        let pro = try #require(result.requests.first { $0.id == "com.app.pro" })
        #expect(pro.call.description == "Store.swift:3:15")
        #expect(pro.literal.description == "Store.swift:3:38")
        #expect(pro.api == "Product.products(for:)")
        #expect(pro.store == .appStore)
        #expect(result.notes.isEmpty && result.rejected.isEmpty)
    }

    @Test func aConstantDeclaredInAnotherFileResolvesTheCall() throws {
        let result = scan([
            "IDs.swift": """
            enum ProductIDs {
                static let monthly = "com.app.sub.monthly"
                static let yearly: String = "com.app.sub.yearly"
                static let all: Set<String> = [monthly, yearly]
            }
            """,
            "Store.swift": """
            import StoreKit
            final class Store {
                func load() async throws { _ = try await Product.products(for: ProductIDs.all) }
            }
            """,
        ])
        #expect(ids(result) == ["com.app.sub.monthly", "com.app.sub.yearly"])
        #expect(result.requests.allSatisfy { $0.call.file == "Store.swift" && $0.literal.file == "IDs.swift" })
        #expect(result.requests.first { $0.id == "com.app.sub.yearly" }?.literal.position == Position(line: 3, column: 33))
    }

    @Test func aStringEnumsRawValuesThroughAllCasesMapAndRawValue() {
        let result = scan(["Store.swift": """
            import StoreKit
            enum StoreProductID: String, CaseIterable {
                case monthly = "com.app.monthly"
                case yearly = "com.app.yearly"
                case lifetime
                static var allProductIDs: Set<String> { Set(allCases.map { $0.rawValue }) }
            }
            enum Other: String { case unused = "com.app.not.asked" }
            func a() async throws { _ = try await Product.products(for: StoreProductID.allProductIDs) }
            func b() async throws { _ = try await Product.products(for: StoreProductID.allCases.map(\\.rawValue)) }
            func c() async throws { _ = try await Product.products(for: [StoreProductID.yearly.rawValue]) }
            """])
        #expect(ids(result) == ["com.app.monthly", "com.app.yearly", "lifetime"])
        // The implicit raw value is located at the case's name.
        #expect(result.requests.first { $0.id == "lifetime" }?.literal.position == Position(line: 5, column: 10))
        #expect(result.requests.filter { $0.id == "com.app.yearly" }.count == 3)
        #expect(result.rejected.map(\.text) == ["com.app.not.asked"])
        #expect(result.rejected.first?.reason == "the raw value of Other.unused, which no purchase API call uses")
    }

    @Test func aDictionarysKeysAndValues() {
        let result = scan(["Store.swift": """
            import StoreKit
            let coins: [String: Int] = ["com.app.coins.100": 100, "com.app.coins.500": 500]
            let names = [1: "com.app.name.one"]
            func load() async throws {
                _ = try await Product.products(for: coins.keys)
                _ = try await Product.products(for: Array(names.values))
            }
            """])
        #expect(ids(result) == ["com.app.coins.100", "com.app.coins.500", "com.app.name.one"])
    }

    @Test func swiftUIViewsStoreKit1AndRevenueCat() {
        let result = scan(["Views.swift": """
            import StoreKit
            import SwiftUI
            import RevenueCat
            struct Shop: View {
                let tips = ["com.app.tip.small", "com.app.tip.large"]
                var body: some View {
                    VStack {
                        ProductView(id: "com.app.pro")
                        StoreView(ids: tips)
                        SubscriptionStoreView(productIDs: ["com.app.plus.monthly"])
                    }
                    .storeProductTask(for: "com.app.tip.huge") { _ in }
                }
            }
            final class Legacy: NSObject {
                func start() {
                    let request = SKProductsRequest(productIdentifiers: Set(["com.app.legacy"]))
                    request.start()
                    Purchases.shared.getProducts(["com.app.rc.one"]) { _ in }
                }
                func modern() async { _ = await Purchases.shared.products(["com.app.rc.two"]) }
            }
            """])
        #expect(ids(result) == ["com.app.legacy", "com.app.plus.monthly", "com.app.pro", "com.app.rc.one", "com.app.rc.two",
                                "com.app.tip.huge", "com.app.tip.large", "com.app.tip.small"])
        let apis = Set(result.requests.map(\.api))
        #expect(apis == ["ProductView(id:)", "StoreView(ids:)", "SubscriptionStoreView(productIDs:)", "storeProductTask(for:)",
                         "SKProductsRequest(productIdentifiers:)", "Purchases.getProducts", "Purchases.products(_:)"])
        #expect(result.requests.first { $0.id == "com.app.tip.huge" }?.call.position == Position(line: 12, column: 10))
    }

    @Test func aParameterIsFollowedToTheArgumentsOfItsCallSites() {
        let result = scan([
            "Store.swift": """
            import StoreKit
            final class Store {
                let identifiers: [String]
                init(identifiers: [String]) { self.identifiers = identifiers }
                func load() async throws { _ = try await Product.products(for: identifiers) }
                func fetch(_ ids: Set<String>) async throws { _ = try await Product.products(for: ids) }
            }
            """,
            "App.swift": """
            let store = Store(identifiers: ["com.app.one", "com.app.two"])
            func go() async throws { try await store.fetch(["com.app.three"]) }
            """,
        ])
        #expect(ids(result) == ["com.app.one", "com.app.three", "com.app.two"])
        #expect(result.notes.isEmpty, "\(result.notes)")
    }

    @Test func aComputedPropertyWithASwitchOverSelf() {
        let result = scan(["Plan.swift": """
            import StoreKit
            enum Plan: CaseIterable {
                case monthly, yearly
                var productID: String {
                    switch self {
                    case .monthly: return "com.app.plan.monthly"
                    case .yearly: return "com.app.plan.yearly"
                    }
                }
            }
            func load() async throws { _ = try await Product.products(for: Plan.allCases.map(\\.productID)) }
            func one() async throws { _ = try await Product.products(for: [Plan.yearly.productID]) }
            """])
        #expect(ids(result) == ["com.app.plan.monthly", "com.app.plan.yearly"])
        // Plan.yearly.productID is the yearly ID only.
        #expect(result.requests.filter { $0.call.position.line == 12 }.map(\.id) == ["com.app.plan.yearly"])
    }

    @Test func stringsThatLookLikeIDsButAreNotAskedForAreRejectedWithWhatTheyAre() {
        let result = scan(["App.swift": """
            import StoreKit
            let bundleID = "com.app.mobile"
            let defaults = UserDefaults(suiteName: "group.com.app.shared")
            extension Notification.Name { static let didBuy = Notification.Name("com.app.didBuyPremium") }
            func save() { UserDefaults.standard.set(true, forKey: "com.app.premium.unlocked") }
            // try await Product.products(for: ["com.app.old.monthly"])
            func load() async throws { _ = try await Product.products(for: ["com.app.pro"]) }
            func isPro(_ id: String) -> Bool { id == "com.app.pro.legacy" }
            """])
        #expect(ids(result) == ["com.app.pro"])
        let reasons = Dictionary(result.rejected.map { ($0.text, $0.reason) }, uniquingKeysWith: { a, _ in a })
        #expect(reasons["com.app.mobile"] == "an app or bundle ID (bundleID)")
        #expect(reasons["group.com.app.shared"] == "an app group or defaults suite name")
        #expect(reasons["com.app.didBuyPremium"] == "a notification name")
        #expect(reasons["com.app.premium.unlocked"] == "a dictionary or UserDefaults key")
        #expect(reasons["com.app.old.monthly"] == "in a comment")
        #expect(reasons["com.app.pro.legacy"] == "compared with, not requested")
        #expect(result.rejected.first { $0.text == "com.app.old.monthly" }?.location.position == Position(line: 6, column: 37))
    }

    @Test func idsFromTheServerOrBuiltAtRunTimeAreANoteNotAGuess() throws {
        let result = scan(["Remote.swift": """
            import StoreKit
            func remote(_ server: [String]) async throws { _ = try await Product.products(for: server.map { $0 }) }
            func built(_ tier: String) async throws { _ = try await Product.products(for: ["com.app.premium." + tier]) }
            func interpolated(_ tier: String) async throws { _ = try await Product.products(for: ["com.app.\\(tier).monthly"]) }
            """])
        #expect(result.requests.isEmpty)
        #expect(result.notes.count == 3)
        let first = try #require(result.notes.first)
        #expect(first.location.position == Position(line: 2, column: 62))
        #expect(first.message.hasPrefix("Product.products(for:) asks for the product IDs from `server.map { $0 }`"), "\(first.message)")
        #expect(result.rejected.first { $0.text == "com.app.premium." }?.reason == "part of an ID built at run time for Product.products(for:) at line 3")
    }

    @Test func thePolicysPatternTakesStringsBuiltAnotherWay() {
        let result = scan(["Tips.swift": """
            enum Tip { static let small = "com.app.tip.small"; static let large = "com.app.tip.large" }
            let bundle = "com.app.bundle.identifier"
            """], pattern: #"com\.app\.tip\.[a-z]+"#)
        #expect(ids(result) == ["com.app.tip.large", "com.app.tip.small"])
        #expect(result.rejected.map(\.text) == ["com.app.bundle.identifier"])
    }

    @Test func namesThatRecurseEndInANote() {
        let result = scan(["Loop.swift": """
            import StoreKit
            enum A { static let ids: [String] = B.ids }
            enum B { static let ids: [String] = A.ids }
            func f(_ ids: [String]) async throws { _ = try await Product.products(for: ids); try await f(ids) }
            func load() async throws { _ = try await Product.products(for: A.ids) }
            """])
        #expect(result.requests.isEmpty)
        #expect(result.notes.count == 2)
    }

    @Test func mayAskForProductsNamesTheAPIs() {
        #expect(CodeScanner.mayAskForProducts("let p = try await Product.products(for: ids)", language: .swift))
        #expect(CodeScanner.mayAskForProducts("SKProductsRequest(productIdentifiers: s)", language: .swift))
        #expect(!CodeScanner.mayAskForProducts("let bundle = \"com.app.pro\"", language: .swift))
    }

    @Test func sourceThatDoesNotParseIsReadAsFarAsItGoes() {
        let result = scan(["Broken.swift": """
            import StoreKit
            func load() async throws { _ = try await Product.products(for: ["com.app.pro"]) }
            func broken( { ] ) "com.app.dangling
            """])
        #expect(ids(result) == ["com.app.pro"])
    }
}

@Suite struct SwiftScannerShapesTests {
    /// The shape of Apple's Food Truck sample: a set built in a closure called at once, with an insert.
    @Test func aSetBuiltInAClosureCalledAtOnce() {
        let result = CodeScanner.scan([CodeFile(path: "StoreActor.swift", text: """
            import StoreKit
            actor StoreActor {
                static let monthlyID = "com.app.feed.monthly"
                static let yearlyID = "com.app.feed.yearly"
                static let historyID = "com.app.history"
                static let subscriptionIDs: Set<String> = [monthlyID, yearlyID]
                static let allProductIDs: Set<String> = {
                    var ids = subscriptionIDs
                    ids.insert(historyID)
                    return ids
                }()
                func load() async throws { _ = try await Product.products(for: Self.allProductIDs) }
            }
            """, language: .swift)])
        #expect(Set(result.requests.map(\.id)) == ["com.app.feed.monthly", "com.app.feed.yearly", "com.app.history"])
        #expect(result.notes.isEmpty, "\(result.notes)")
    }
}

@Suite struct SwiftScannerLimitsTests {
    /// swift-syntax's parser doubles its time with each level of nested square brackets: a file
    /// nested deeper than real code is is a note, read in no time, not minutes of parsing.
    @Test func squareBracketsNestedDeeperThanCodeIsAreANote() {
        let deep = "import StoreKit\nfunc f() async throws { _ = try await Product.products(for: " + String(repeating: "[", count: 40)
            + "\"com.a.b\"" + String(repeating: "]", count: 40) + ") }\n"
        let result = CodeScanner.scan([CodeFile(path: "Deep.swift", text: deep, language: .swift)])
        #expect(result.requests.isEmpty)
        #expect(result.notes.map(\.message) == ["not read: square brackets nested 40 deep, more than the 12 Tally parses"])
        let usual = CodeScanner.scan([CodeFile(path: "Usual.swift", text: """
            import StoreKit
            let table: [String: [[String]]] = ["a": [["b"]]]
            func f() async throws { _ = try await Product.products(for: [["com.a.b"][0]][0..<1].map { $0 }) }
            """, language: .swift)])
        #expect(usual.notes.allSatisfy { !$0.message.hasPrefix("not read") })
    }
}
