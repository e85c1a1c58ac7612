import Foundation
import Testing

/// Lint rules about offers cover every kind of offer (`Product.allOffers`): a negative win-back
/// price and a code offer that is a free trial with a price are both reported.
@Suite struct EveryOfferLintTests {
    @Test func negativeWinBackAndPricedCodeFreeTrialAreReported() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        // The annual plan of the shipped example gains a code offer and a win-back offer.
        try workspace.replace("configs/ExampleApp.storekit", """
                  "codeOffers" : [

                  ],
                  "displayPrice" : "69.99",
        """, """
          "codeOffers" : [
            {
              "displayPrice" : "0.99",
              "eligibility" : ["new"],
              "internalID" : "C0DE0001",
              "isStackable" : false,
              "numberOfPeriods" : 1,
              "offerID" : "plus_code_trial",
              "paymentMode" : "free",
              "referenceName" : "Code trial",
              "subscriptionPeriod" : "P1W"
            }
          ],
          "winbackOffers" : [
            {
              "displayPrice" : "-1.99",
              "internalID" : "B0CC0001",
              "numberOfPeriods" : 1,
              "offerID" : "plus_winback_negative",
              "paymentMode" : "payUpFront",
              "referenceName" : "Negative win-back",
              "subscriptionPeriod" : "P1M"
            }
          ],
          "displayPrice" : "69.99",
        """)
        let output = try workspace.run(["lint", "--no-config", "--format", "json", "configs/ExampleApp.storekit"])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        // Each finding names its rule and the offer it is about: the win-back offer is negative,
        // the code offer is a free trial with a price.
        let rules = findingRecords(try jsonReport(output)).map { "\($0["rule"] as? String ?? "?") \($0["offer"] as? String ?? "-")" }
        #expect(rules.contains("negative-price plus_winback_negative"), "\(rules)")
        #expect(rules.contains("free-trial-with-price plus_code_trial"), "\(rules)")
    }
}
