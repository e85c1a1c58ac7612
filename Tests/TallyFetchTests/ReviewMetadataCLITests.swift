#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
import Testing

/// `tally fetch app-store-connect` saves billing plans (API 4.4: plan availabilities, their
/// territories, the monthly plan's prices) and localizations (API 4.4.1 versions, else the older
/// endpoints); the snapshot reads back into the model's plans and localizations, and `check`
/// against a StoreKit 5.0 file finds a repriced monthly plan: through the binary, against the stand-in.
@Suite(.serialized) struct ReviewMetadataCLITests {
    typealias Setup = FetchAppStoreConnectCLITests.Setup
    static let annual = "com.calmly.app.plus.annual"

    @Test(.timeLimit(.minutes(5)))
    func aFetchSavesPlansMonthlyPricesAndVersionLocalizations() async throws {
        let setup = try await Setup(reviewMetadata: true)
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(fetched.stderr.contains("2 billing plan availabilities") && fetched.stderr.contains("3 monthly plan prices"), "\(fetched.stderr)")
        let requests = setup.server.requests
        #expect(requests.contains("/v1/subscriptions/6450000202/planAvailabilities"), "\(requests)")
        #expect(requests.contains("/v1/subscriptionPlanAvailabilities/pa-6450000202-MONTHLY/availableTerritories"))
        #expect(setup.server.rawTargets.contains { $0.hasPrefix("/v1/subscriptions/6450000202/prices?") && $0.contains("planType") && $0.contains("=MONTHLY") },
                "\(setup.server.rawTargets.filter { $0.contains("6450000202/prices") })")
        // Four localizations of the version, three a page: both pages followed; the older endpoint not asked.
        #expect(requests.filter { $0 == "/v1/inAppPurchaseVersions/iapv-6450000104-1/localizations" }.count == 2)
        #expect(!requests.contains("/v2/inAppPurchases/6450000104/inAppPurchaseLocalizations"))
        // A group without versions falls back to the endpoint before 4.4.1.
        #expect(requests.contains("/v1/subscriptionGroups/21000002/versions") && requests.contains("/v1/subscriptionGroups/21000002/subscriptionGroupLocalizations"))

        let manifest = try Self.manifest(setup.output)
        let counts = manifest["counts"] as? [String: Int] ?? [:]
        #expect(counts["planAvailabilities"] == 2 && counts["monthlyPrices"] == 3 && counts["planTerritories"] == 6, "\(counts)")
        let endpoints = manifest["endpoints"] as? [String: [String: Int]] ?? [:]
        #expect(endpoints["localizations"]?["versions"] == 3, "\(endpoints)")
        #expect((endpoints["localizations"]?["older"] ?? 0) >= 2, "\(endpoints)")
        #expect(endpoints["planAvailabilities"]?["planAvailabilities"] == 9, "\(endpoints)")

        // Read back (as a catalogue): the plans with the monthly prices, the version's localizations, the groups'.
        let catalogue = try await Self.catalogue(of: setup.output)
        let annual = try #require(Self.subscription(Self.annual, in: catalogue))
        let plans = annual["billing_plans"] as? [[String: Any]] ?? []
        #expect(plans.map { $0["type"] as? String } == ["UPFRONT", "MONTHLY"], "\(plans)")
        #expect(plans.last?["prices"] as? [String: String] == ["USA": "6.99", "GBR": "6.99", "JPN": "1100"], "\(plans)")
        #expect(plans.last?["enabled"] as? Bool == true && plans.last?["commitment"] as? String == "P12M", "\(plans)")
        #expect((annual["localizations"] as? [String: Any])?.keys.sorted() == ["de-DE", "en-US"], "\(annual)")
        let tea = (catalogue["products"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "com.calmly.app.tip.tea" }
        #expect((tea?["localizations"] as? [String: Any])?.keys.sorted() == ["de-DE", "en-US", "fr-FR", "ja"], "\(String(describing: tea))")
        let groups = catalogue["subscription_groups"] as? [[String: Any]] ?? []
        let names = Dictionary(groups.map { ($0["name"] as? String ?? "", ($0["localizations"] as? [String: Any])?.keys.sorted() ?? []) }, uniquingKeysWith: { a, _ in a })
        #expect(names == ["Calmly Plus": ["de-DE", "en-US"], "Calmly Kids": ["en-US"]], "\(groups)")
    }

    @Test(.timeLimit(.minutes(5)))
    func beforeVersionsTheOlderEndpointsAreUsedAndTheManifestSaysSo() async throws {
        let setup = try await Setup(reviewMetadata: true, api: .v4_4)
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        // The versions endpoint answered 404: the older one was asked for the same product.
        #expect(setup.server.requests.contains("/v2/inAppPurchases/6450000104/versions"))
        #expect(setup.server.requests.contains("/v2/inAppPurchases/6450000104/inAppPurchaseLocalizations"))
        let endpoints = try Self.manifest(setup.output)["endpoints"] as? [String: [String: Int]] ?? [:]
        #expect(endpoints["localizations"]?["versions"] == nil && (endpoints["localizations"]?["older"] ?? 0) >= 9, "\(endpoints)")

        // With German required, what the older endpoints hold is missing it: the version's German is not there.
        let policy = setup.scratch.path("tally.yml")
        try "version: 1\nrequired_locales: [en_US, de_DE]\n".write(toFile: policy, atomically: true, encoding: .utf8)
        let lint = try await Tally.run(["lint", "--config", policy, setup.output])
        #expect(lint.status == 1, "\(lint.all)")
        #expect(lint.stdout.contains("com.calmly.app.tip.tea has no localization in de_DE"), "\(lint.stdout)")
        #expect(lint.stdout.contains("subscription group Calmly Kids has no localization in de_DE"), "\(lint.stdout)")
    }

    @Test(.timeLimit(.minutes(5)))
    func beforePlansTheFetchSkipsThemAndSaysSo() async throws {
        let setup = try await Setup(reviewMetadata: true, api: .v4_3)
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(!setup.server.rawTargets.contains { $0.contains("planType") }, "no monthly prices asked without a monthly plan")
        let manifest = try Self.manifest(setup.output)
        #expect((manifest["endpoints"] as? [String: [String: Int]])?["planAvailabilities"] == ["notFound": 9], "\(manifest)")
    }

    @Test(.timeLimit(.minutes(5)))
    func aPlanTypeTallyDoesNotKnowIsNamedNotTakenForTheUpFrontPlan() async throws {
        let setup = try await Setup(reviewMetadata: true, edits: [
            (file: "plan-availabilities-6450000202.json", old: "\"planType\": \"MONTHLY\"", new: "\"planType\": \"QUARTERLY\""),
            (file: "monthly-prices-6450000202.json", old: "\"planType\": \"MONTHLY\"", new: "\"planType\": \"QUARTERLY\""),
        ])
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        let lint = try await Tally.run(["lint", "--no-config", setup.output])
        #expect(lint.stdout.contains("has planType \"QUARTERLY\", a billing plan Tally does not know (expected UPFRONT or MONTHLY)"), "\(lint.all)")
        // The up-front prices stay the subscription's own: 69.99 in USA, not a QUARTERLY price.
        let catalogue = try await Self.catalogue(of: setup.output)
        let annual = try #require(Self.subscription(Self.annual, in: catalogue))
        #expect((annual["prices"] as? [String: String])?["USA"] == "69.99", "\(annual)")
        #expect((annual["billing_plans"] as? [[String: Any]])?.map { $0["type"] as? String } == ["UPFRONT"], "\(annual)")
    }

    /// A StoreKit 5.0 file with both plans, monthly at 5.99 where the store charges 6.99: `check` exits 1 naming it.
    @Test(.timeLimit(.minutes(5)))
    func checkOfAStoreKitFileFindsTheRepricedMonthlyPlan() async throws {
        let setup = try await Setup(reviewMetadata: true)
        defer { Task { await setup.finish() } }
        #expect(try await setup.fetch().status == 0)
        let repriced = setup.scratch.path("Repriced.storekit")
        try Self.storeKit50(monthly: "5.99").write(to: URL(fileURLWithPath: repriced))
        let check = try await Tally.run(["check", "--no-config", repriced, setup.output])
        #expect(check.status == 1, "\(check.all)")
        let plan = check.stdout.split(separator: "\n").filter { $0.contains("  billing-plan  ") }
        #expect(plan.count == 1, "\(check.stdout)")
        #expect(plan.first?.contains("\(Self.annual)'s monthly plan costs 5.99 USD a month in USA") == true, "\(check.stdout)")
        #expect(plan.first?.contains("6.99 USD a month") == true, "\(check.stdout)")

        // The same file at the store's monthly price: consistent.
        let agreed = setup.scratch.path("Agreed.storekit")
        try Self.storeKit50(monthly: "6.99").write(to: URL(fileURLWithPath: agreed))
        let same = try await Tally.run(["check", "--no-config", agreed, setup.output])
        #expect(same.status == 0, "\(same.all)")
    }

    // MARK: - Helpers

    /// `configs/ExampleApp.storekit` as a StoreKit 5.0 file whose annual Calmly Plus subscription
    /// has both billing plans: up front at its own price, monthly at `monthly`.
    static func storeKit50(monthly: String) throws -> Data {
        let source = StandInServer.repository.appendingPathComponent(FetchAppStoreConnectCLITests.storekit)
        guard var root = try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any],
              var groups = root["subscriptionGroups"] as? [[String: Any]] else { throw StandInError("not a StoreKit file") }
        var found = false
        for index in groups.indices {
            guard var subscriptions = groups[index]["subscriptions"] as? [[String: Any]] else { continue }
            for at in subscriptions.indices where subscriptions[at]["productID"] as? String == annual {
                let upfront = subscriptions[at]["displayPrice"] as? String ?? ""
                subscriptions[at]["billingPlans"] = [
                    ["billingPlanType": "BILLED_UPFRONT", "displayPrice": upfront, "commitmentDisplayPrice": upfront, "internalID": "B0000001", "isEnabled": true],
                    ["billingPlanType": "MONTHLY", "displayPrice": monthly, "internalID": "B0000002", "isEnabled": true],
                ]
                found = true
            }
            groups[index]["subscriptions"] = subscriptions
        }
        guard found else { throw StandInError("\(annual) is not in \(source.path)") }
        root["subscriptionGroups"] = groups
        root["version"] = ["major": 5, "minor": 0]
        return try JSONSerialization.data(withJSONObject: root, options: [.prettyPrinted, .sortedKeys])
    }

    static func manifest(_ folder: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent("tally-snapshot.json"))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }

    /// The snapshot as `tally convert` writes it: a tally-catalog/1 document, parsed.
    static func catalogue(of folder: String) async throws -> [String: Any] {
        let converted = try await Tally.run(["convert", folder, "--to", "tally-catalog-json"])
        guard converted.status == 0, let json = try JSONSerialization.jsonObject(with: Data(converted.stdout.utf8)) as? [String: Any] else {
            throw StandInError("convert failed: \(converted.all)")
        }
        return json
    }

    static func subscription(_ id: String, in catalogue: [String: Any]) -> [String: Any]? {
        for group in catalogue["subscription_groups"] as? [[String: Any]] ?? [] {
            if let found = (group["subscriptions"] as? [[String: Any]] ?? []).first(where: { $0["id"] as? String == id }) { return found }
        }
        return nil
    }
}

extension FetchAppStoreConnectCLITests.Setup {
    /// A stand-in serving `api`, with the billing plans and localizations of `Fixtures/review-metadata` when `reviewMetadata`.
    init(reviewMetadata: Bool, api: StandInServer.APIVersion = .v4_4_1, edits: [(file: String, old: String, new: String)] = []) async throws {
        scratch = try Scratch()
        keyFile = try key.write(in: scratch.url)
        var options = StandInServer.Options(publicKey: try key.publicKey)
        options.reviewMetadata = reviewMetadata
        options.api = api
        options.edits = edits
        server = try StandInServer(options)
        try await server.start()
    }
}
#endif
