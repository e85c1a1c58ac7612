#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import FlyingFox
import Foundation
import Testing

/// A RevenueCat `next_page` is checked as the server will read it (issue 37): percent-decoded, so
/// that `%2e%2e` is `..` and an encoded slash cannot join two segments into one. The key goes to
/// no page outside the project.
@Suite(.serialized) struct HostileNextPageTests {
    static let project = "/v2/projects/\(RevenueCatStandIn.project)"

    @Test(.timeLimit(.minutes(5)), arguments: [
        "\(project)/%2e%2e/other/apps", "\(project)/%2E%2E/%2E%2E/v1/apps", "\(project)/.%2e/other/apps",
        "\(project)/apps%2f..%2f..%2fother", "\(project)/apps%5c..%5cother", "\(project)/%2e/apps", "\(project)//apps",
    ])
    func aNextPageOutsideTheProjectIsRefused(next: String) async throws {
        let setup = try await HostileSetup(.revenueCat) { request, context in
            guard request.path == context.firstList, !request.target.rawValue.contains("starting_after") else { return nil }
            return Hostile.json(200, ["object": "list", "items": [], "next_page": next, "url": context.firstList])
        }
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("next_page is not a page of project \(RevenueCatStandIn.project)"), "\(fetched.stderr)")
        // Only the first page was asked for: the next one never left Tally.
        #expect(setup.rawTargets.count == 1, "\(setup.rawTargets)")
        #expect(!setup.rawTargets.contains { $0.lowercased().contains("%2e") || $0.lowercased().contains("%2f") || $0.contains("//") }, "\(setup.rawTargets)")
    }

    @Test(.timeLimit(.minutes(5)))
    func aPlainNextPageIsFollowed() async throws {
        let setup = try await HostileSetup(.revenueCat)
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(setup.requests.filter { $0.hasSuffix("/products") }.count == 4, "\(setup.requests)")
    }
}
#endif
