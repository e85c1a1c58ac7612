import ArgumentParser
import Foundation
import TallyFetch
import TallyReport

/// `tally fetch revenuecat`: a RevenueCat project's apps, products, offerings and entitlements into a snapshot folder.
struct FetchRevenueCatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "revenuecat",
        abstract: "Fetch a RevenueCat project's apps, products, offerings and entitlements (REST API v2).",
        discussion: """
        Saves every page as the API sent it: apps, products, offerings with their packages and \
        products, entitlements with their products. Authenticates with a v2 secret key of the \
        project (REVENUECAT_API_KEY, or --api-key-file), which is never printed or written.

        Examples:
          tally fetch revenuecat --project proj1ab2c3d4 --output revenuecat/
          tally check revenuecat/ examples/paywall/Lumen.storekit \\
              examples/paywall/play
        """
    )

    @Option(name: .long, help: ArgumentHelp("The RevenueCat project ID.", valueName: "id"))
    var project: String

    @Option(name: .long, help: ArgumentHelp("A file holding the v2 secret key (else \(RevenueCatKey.environmentVariable)).", valueName: "file"))
    var apiKeyFile: String?

    @OptionGroup var fetch: FetchOptions

    @Option(name: .long, help: ArgumentHelp("The API's base URL (a proxy, a test server).", valueName: "url"))
    var apiURL: String = RevenueCatFetch.defaultAPI

    func run() async throws {
        try await FetchRunner.fetch("RevenueCat project \(project)", options: fetch, apiURL: apiURL) { url, environment in
            let fetcher = try RevenueCatFetch(projectID: project, apiURL: url, output: fetch.output, allowHTTP: fetch.allowHTTP)
            let key = try RevenueCatKey.resolve(file: apiKeyFile, environment: environment)
            return { settings, progress in try await fetcher.run(key: key, settings: settings, progress: progress) }
        }
    }
}
