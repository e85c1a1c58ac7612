#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation

/// A multi-seat subscription, as App Store Connect API 4.5 and 4.6.1 document it.
///
/// API 4.5 adds `multiSeatStatus` (`ENABLED`, `DISABLED`) and `marketSettings` (`APP_STORE`,
/// `APPLE_SCHOOL`, `APPLE_BUSINESS`) to `Subscription.Attributes`: com.calmly.app.plus.monthly
/// (6450000203) states both. API 4.6.1 adds up to four volume pricing tiers to a subscription
/// price and reads a subscription's tiers; the documentation Tally was built from gives no JSON
/// for a tier, so the stand-in serves the most literal reading (as the snapshot reader reads it,
/// `ConnectCatalogBuilder.readMultiSeat`): the subscription's prices include one
/// `subscriptionPrices` resource per tier and territory that states `minimumSeats` and
/// `maximumSeats` (null for the last tier), each linking its price point and territory
/// (`Fixtures/seat-tiers`): 1-5 seats at 9.99 USD a seat, 6+ seats at 7.99 USD.
extension StandInServer {
    static let seatTiers = testsFolder.appendingPathComponent("Fixtures/seat-tiers")

    /// The subscription's two API 4.5 attributes, added to the Calmly export's page.
    static let seatEdits: [(file: String, old: String, new: String)] = [
        (file: "05-subscriptions-calmly-plus.json", old: "\"productId\": \"com.calmly.app.plus.monthly\",",
         new: "\"productId\": \"com.calmly.app.plus.monthly\",\n        \"multiSeatStatus\": \"ENABLED\",\n        \"marketSettings\": [\"APP_STORE\", \"APPLE_BUSINESS\"],"),
    ]
}
#endif
