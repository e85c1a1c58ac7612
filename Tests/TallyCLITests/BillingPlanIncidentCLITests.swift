import Foundation
import Testing

/// Issue 36, class 7: billing plans (iOS 26.4: billed up front, or monthly with a 12-month
/// commitment), rebuilt as files from public reports and run through the binary.
@Suite struct BillingPlanIncidentCLITests {
    /// RevenueCat/purchases-ios#6910: a product's up-front price "is often the same as a monthly
    /// commitment's total price, but can differ". A StoreKit 5.0 file whose monthly plan states
    /// the up-front price as its commitment total (59.99) where 12 × 5.99 = 71.88.
    @Test func aMonthlyPlanWhoseCommitmentIsNotTwelveMonthlyPayments() throws {
        let wrong = StoreKitFile(subscriptions: [.init(productID: "com.example.pro.annual", monthlyPlan: (price: "5.99", commitment: "59.99"))])
        let folder = try Scratch(["Products.storekit": wrong.json])
        defer { folder.remove() }
        let run = try folder.run(["check", "--no-config", "--format", "json", "Products.storekit"])
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        let report = try jsonReport(run)
        #expect(ruleProducts(report) == ["commitment-price com.example.pro.annual"], "\(run.stdout)")
        let finding = try #require(findingRecords(report).first)
        #expect(finding["message"] as? String
                == "com.example.pro.annual's monthly plan costs 5.99 USD a month, 71.88 USD over its 12-month commitment, but its commitment price is 59.99 USD",
                "\(finding)")
        #expect((finding["hint"] as? String ?? "").contains("59.99 USD is the up-front plan's price"), "\(finding)")

        try folder.write("Products.storekit", StoreKitFile(subscriptions: [
            .init(productID: "com.example.pro.annual", monthlyPlan: (price: "5.99", commitment: "71.88")),
        ]).json)
        let fixed = try folder.run(["check", "--no-config", "--format", "json", "Products.storekit"])
        #expect(fixed.status == 0, "\(fixed.stdout)\n\(fixed.stderr)")
        #expect(try ruleProducts(jsonReport(fixed)).isEmpty, "\(fixed.stdout)")
    }

    /// The same in a catalogue: `commitment_price` against the monthly plan's prices.
    @Test func aCatalogueMonthlyPlanWhoseCommitmentIsNotTwelveMonthlyPayments() throws {
        let catalogue = """
        format: tally-catalog/1
        default_territory: USA
        subscription_groups:
          - id: pro
            subscriptions:
              - id: com.example.pro.annual
                level: 1
                period: P1Y
                prices: {USA: "59.99"}
                billing_plans:
                  - {type: UPFRONT, prices: {USA: "59.99"}}
                  - {type: MONTHLY, prices: {USA: "5.99"}, commitment: P12M, commitment_price: "59.99"}
        """
        let folder = try Scratch(["catalog.yaml": catalogue])
        defer { folder.remove() }
        let run = try folder.run(["check", "--no-config", "--format", "json", "catalog.yaml"])
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        #expect(try ruleProducts(jsonReport(run)) == ["commitment-price com.example.pro.annual"], "\(run.stdout)")
        try folder.write("catalog.yaml", catalogue.replacingOccurrences(of: "commitment_price: \"59.99\"", with: "commitment_price: \"71.88\""))
        let fixed = try folder.run(["check", "--no-config", "--format", "json", "catalog.yaml"])
        #expect(fixed.status == 0, "\(fixed.stdout)\n\(fixed.stderr)")
    }

    /// RevenueCat/purchases-ios#7299: a 12-month-commitment product's price string was the
    /// per-installment price (`localizedPriceString` from the monthly payment) while its price was
    /// the total. Rebuilt: a server catalogue prices the subscription at the monthly plan's
    /// monthly payment, 5.99, where the product's price is its up-front plan's, 59.99.
    @Test func aCataloguePriceThatIsTheMonthlyPayment() throws {
        let app = StoreKitFile(subscriptions: [.init(productID: "com.example.pro.annual", monthlyPlan: (price: "5.99", commitment: "71.88"))])
        let catalogue = PricedTerritoriesCLITests.catalogue(defaultTerritory: "USA", [("com.example.pro.annual", "P1Y", [("USA", "5.99")])])
        let folder = try Scratch(["Products.storekit": app.json, "catalog.yaml": catalogue])
        defer { folder.remove() }
        let run = try folder.run(["check", "--no-config", "--format", "json", "Products.storekit", "catalog.yaml"])
        #expect(run.status == 1, "\(run.stdout)\n\(run.stderr)")
        let report = try jsonReport(run)
        #expect(ruleProducts(report) == ["price com.example.pro.annual"], "\(run.stdout)")
        let finding = try #require(findingRecords(report).first)
        #expect(finding["message"] as? String == "com.example.pro.annual costs 59.99 USD in USA in the configuration but 5.99 USD in the catalogue", "\(finding)")
        #expect((finding["hint"] as? String ?? "").contains("the catalogue's 5.99 USD is the monthly plan's monthly payment in the configuration"), "\(finding)")

        try folder.write("catalog.yaml", catalogue.replacingOccurrences(of: "USA: \"5.99\"", with: "USA: \"59.99\""))
        let fixed = try folder.run(["check", "--no-config", "--format", "json", "Products.storekit", "catalog.yaml"])
        #expect(fixed.status == 0, "\(fixed.stdout)\n\(fixed.stderr)")
        #expect(try ruleProducts(jsonReport(fixed)).isEmpty, "\(fixed.stdout)")
    }
}
