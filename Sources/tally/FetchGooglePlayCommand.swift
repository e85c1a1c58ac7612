import ArgumentParser
import Foundation
import TallyFetch
import TallyReport

/// `tally fetch google-play`: the app's subscriptions, offers and one-time products, live, into a snapshot folder.
struct FetchGooglePlayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "google-play",
        abstract: "Fetch an app's subscriptions, offers and one-time products from the Google Play Developer API.",
        discussion: """
        Saves the app's subscriptions with their base plans, every subscription offer, one-time \
        products and the legacy in-app products: every page as the API sent it. Authenticates as \
        a Google Cloud service account (its JSON key: --service-account, else \
        GOOGLE_APPLICATION_CREDENTIALS) that Play Console → Users and permissions gives access to \
        the app; the Google Play Android Developer API must be enabled in its project.

        Examples:
          tally fetch google-play --package com.example.app \\
              --service-account play-key.json --output play/
          tally check catalog/products.yaml play/
        """
    )

    @Option(name: .long, help: ArgumentHelp("The app's package name (applicationId).", valueName: "package"))
    var package: String

    @Option(name: .long, help: ArgumentHelp("The service account's JSON key (else GOOGLE_APPLICATION_CREDENTIALS).", valueName: "file"))
    var serviceAccount: String?

    @OptionGroup var fetch: FetchOptions

    @Option(name: .long, help: ArgumentHelp("The API's base URL (a proxy, a test server).", valueName: "url"))
    var apiURL: String = GooglePlayFetch.defaultAPI

    @Option(name: .long, help: ArgumentHelp("The OAuth 2.0 token URL (default: the key's token_uri, else \(GooglePlayFetch.defaultTokenURL)).",
                                            valueName: "url"))
    var tokenURL: String?

    func run() async throws {
        try await FetchRunner.fetch("Google Play app \(package)", options: fetch, apiURL: apiURL) { url, environment in
            let fetcher = try GooglePlayFetch(packageName: package, apiURL: url, output: fetch.output, allowHTTP: fetch.allowHTTP)
            let account = try GooglePlayServiceAccount.resolve(file: serviceAccount, environment: environment)
            let token = try GooglePlayFetch.tokenURL(option: tokenURL, account: account, allowHTTP: fetch.allowHTTP)
            return { settings, progress in try await fetcher.run(account: account, tokenURL: token, settings: settings, progress: progress) }
        }
    }
}
