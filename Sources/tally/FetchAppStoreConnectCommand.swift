import ArgumentParser
import Foundation
import TallyFetch
import TallyReport

/// `tally fetch app-store-connect`: the app's in-app purchases and subscriptions, live, into a snapshot folder.
struct FetchAppStoreConnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app-store-connect",
        abstract: "Fetch an app's in-app purchases and subscriptions from the App Store Connect API.",
        discussion: """
        Saves the app's in-app purchases with their price schedules, subscription groups, \
        subscriptions with their prices, introductory and promotional offers: every page as the \
        API sent it; and the price points of the territories each product is priced in \
        (price-points.json), which check compares every App Store price with. Authenticates with an App Store Connect API key (Users and Access → \
        Integrations → App Store Connect API → Team Keys; role App Manager or higher; the .p8 \
        file downloads once). Flags win over the environment: ASC_KEY_ID, ASC_ISSUER_ID, \
        ASC_PRIVATE_KEY_PATH, or ASC_PRIVATE_KEY (the .p8 text, for CI secrets).

        Examples:
          tally fetch app-store-connect --app 1600000001 --output asc/ \\
              --key-id 2X9R4HXF34 --issuer-id 57246542-96fe-1a63-e053-0824d011072a \\
              --private-key AuthKey_2X9R4HXF34.p8
          tally check configs/ExampleApp.storekit asc/
        """
    )

    @Option(name: .long, help: ArgumentHelp("The app's Apple ID (App Store Connect → App Information).", valueName: "app-id"))
    var app: String

    @OptionGroup var fetch: FetchOptions

    @Option(name: .long, help: ArgumentHelp("The API's base URL (a proxy, a test server).", valueName: "url"))
    var apiURL: String = AppStoreConnectFetch.defaultAPI

    @Option(name: .long, help: ArgumentHelp("The API key's ID (else ASC_KEY_ID).", valueName: "kid"))
    var keyID: String?

    @Option(name: .long, help: ArgumentHelp("The team's issuer ID (else ASC_ISSUER_ID).", valueName: "issuer"))
    var issuerID: String?

    @Option(name: .long, help: ArgumentHelp("The API key's .p8 file (else ASC_PRIVATE_KEY_PATH, or the text in ASC_PRIVATE_KEY).",
                                            valueName: "file"))
    var privateKey: String?

    @Option(name: .long, help: ArgumentHelp("The territories whose price points to save for every priced product, such as "
                                            + "USA,DEU,JPN (at most 50; default: those each product is priced in, at most 10).",
                                            valueName: "territories"))
    var pricePointTerritories: String?

    func run() async throws {
        try await FetchRunner.fetch("App Store Connect app \(app)", options: fetch, apiURL: apiURL) { url, environment in
            let fetcher = try AppStoreConnectFetch(appID: app, apiURL: url, output: fetch.output, allowHTTP: fetch.allowHTTP,
                                                   pricePointTerritories: try pricePointTerritories.map(PricePointPlan.territories(named:)))
            let credentials = try AppStoreConnectCredentials.resolve(keyID: keyID, issuerID: issuerID, privateKeyFile: privateKey,
                                                                     environment: environment)
            // Hidden, for tests: a shorter token lifetime, so that a fetch renews its token.
            let lifetime = try Bounded.number(environment, "TALLY_ASC_TOKEN_LIFETIME", in: 1...AppStoreConnectToken.maximumLifetime)
                ?? AppStoreConnectToken.defaultLifetime
            return { settings, progress in
                try await fetcher.run(credentials: credentials, tokenLifetime: lifetime, settings: settings, progress: progress)
            }
        }
    }
}
