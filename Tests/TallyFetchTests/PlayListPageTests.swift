#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
import Testing
@testable import TallyFetch

/// What `tally fetch google-play` keeps of a list page (issue 47, LOW: a page was held as
/// Foundation objects, about 60 times its size, and a list's pages until the list ended):
/// streamed for the next token and each item's product and base plan IDs.
@Suite struct PlayListPageTests {
    @Test func aSubscriptionsPageGivesItsIDsAndTheNextToken() throws {
        let body = #"""
        {"subscriptions": [
          {"productId": "premium", "listings": [{"languageCode": "en-US", "title": "P"}],
           "basePlans": [{"basePlanId": "monthly", "regionalConfigs": [{"regionCode": "US"}]}, {"state": "DRAFT"}, {"basePlanId": "yearly"}]},
          {"listings": []},
          "not an object",
          {"productId": 7, "basePlans": {"basePlanId": "x"}}
        ], "kind": "androidpublisher#listSubscriptionsResponse", "nextPageToken": "abc"}
        """#
        let page = try PlayListPage(Array(body.utf8), items: "subscriptions", legacy: false)
        #expect(page.nextPageToken == "abc")
        #expect(page.items.map(\.productID) == ["premium", nil, nil, nil])
        #expect(page.items.map(\.basePlans) == [["monthly", nil, "yearly"], [], [], []])
    }

    @Test func theLegacyListIsPagedByTokenPagination() throws {
        let body = #"{"inappproduct": [{"sku": "coins"}], "tokenPagination": {"nextPageToken": "t2"}, "nextPageToken": "ignored"}"#
        let page = try PlayListPage(Array(body.utf8), items: "inappproduct", legacy: true)
        #expect(page.nextPageToken == "t2")
        #expect(page.items.count == 1)
        let last = try PlayListPage(Array(#"{"inappproduct": []}"#.utf8), items: "inappproduct", legacy: true)
        #expect(last.nextPageToken == nil && last.items.isEmpty)
    }

    @Test func aBodyThatIsNotAJSONObjectIsRefused() {
        for body in ["[]", "\"page\"", "{\"subscriptions\": [", "<html>", ""] {
            #expect(throws: (any Error).self, "\(body)") { try PlayListPage(Array(body.utf8), items: "subscriptions", legacy: false) }
        }
    }
}
#endif
