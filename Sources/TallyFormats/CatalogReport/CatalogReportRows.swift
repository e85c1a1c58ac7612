import TallyModel

/// The rows of an in-app purchases catalog report, read by column name into products.
struct CatalogReportRows {
    let file: String
    let columns: [String: Int]
    /// How many columns the header names.
    let width: Int
    let options: ReadOptions
    private var products: [Product] = []
    private var held: [Product] = []
    private var hidden: [String: Int] = [:]
    /// Each app's rows (APP_APPLE_ID, else APP_NAME), in order, for `ReadOptions.reportApp`.
    private var apps: [(key: String, name: String)] = []

    init(file: String, columns: [String: Int], width: Int, options: ReadOptions) {
        self.file = file
        self.columns = columns
        self.width = width
        self.options = options
    }

    /// `ADDON_TYPE` as App Store Connect shows types ("Auto-Renewable Subscription") or as its API
    /// writes them (`AUTOMATICALLY_RENEWABLE_SUBSCRIPTION`), upper-cased with `_` for spaces and `-`.
    static let kinds: [String: ProductKind] = [
        "CONSUMABLE": .consumable, "NON_CONSUMABLE": .nonConsumable,
        "AUTO_RENEWABLE_SUBSCRIPTION": .autoRenewableSubscription, "AUTOMATICALLY_RENEWABLE_SUBSCRIPTION": .autoRenewableSubscription,
        "AUTO_RENEWABLE": .autoRenewableSubscription,
        "NON_RENEWING_SUBSCRIPTION": .nonRenewingSubscription, "NON_RENEWING": .nonRenewingSubscription,
        // The retired Newsstand free subscription: it never renews and never expires.
        "FREE_SUBSCRIPTION": .nonRenewingSubscription,
    ]

    /// Words a report may write for "no value".
    static let empty: Set<String> = ["", "-", "NONE", "N/A", "NA"]

    static func key(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).uppercased()
            .replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: "-", with: "_")
    }

    private func field(_ row: TabSeparatedRows.Row, _ column: String) -> TabSeparatedRows.Field? {
        guard let field = row.field(columns[column]) else { return nil }
        let text = field.text.trimmingCharacters(in: .whitespaces)
        return Self.empty.contains(text.uppercased()) ? nil : TabSeparatedRows.Field(text: text, position: field.position)
    }

    private func failure(_ message: String, _ field: TabSeparatedRows.Field) -> FormatError {
        FormatError(message, file: file, position: field.position)
    }

    mutating func add(_ row: TabSeparatedRows.Row) throws {
        if row.fields.count > width, let extra = row.fields[width...].first(where: { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw failure("this row has \(row.fields.count) fields but the header names \(width) columns (a tab inside a value must be in a quoted field)", extra)
        }
        let start = TabSeparatedRows.Field(text: "", position: Position(line: row.line, column: 1))
        guard let idField = field(row, "PRODUCT_ID") else {
            throw failure("this row has no PRODUCT_ID", row.field(columns["PRODUCT_ID"]) ?? start)
        }
        guard try belongsToChosenApp(row) else { return }
        guard let typeField = field(row, "ADDON_TYPE") else { throw failure("\(idField.text) has no ADDON_TYPE", row.field(columns["ADDON_TYPE"]) ?? start) }
        guard let kind = Self.kinds[Self.key(typeField.text)] else {
            throw failure("\(idField.text): ADDON_TYPE \"\(typeField.text)\" is not a type Tally reads (Consumable, Non-Consumable, "
                          + "Auto-Renewable Subscription, Non-Renewing Subscription, Free Subscription)", typeField)
        }
        var product = Product(id: idField.text, kind: kind, position: Position(line: row.line, column: 1))
        product.fieldPositions[.id] = idField.position
        product.fieldPositions[.kind] = typeField.position
        if let name = field(row, "REFERENCE_NAME") {
            product.referenceName = name.text
            product.fieldPositions[.referenceName] = name.position
        }
        if let duration = field(row, "AUTO_RENEWABLE_DURATION") {
            let period = try self.period(duration, column: "AUTO_RENEWABLE_DURATION", product: product.id)
            if kind.isAutoRenewable {
                product.period = period
                product.fieldPositions[.period] = duration.position
            }
        }
        if let trial = field(row, "FREE_TRIAL_DURATION") {
            let period = try self.period(trial, column: "FREE_TRIAL_DURATION", product: product.id)
            if kind.isAutoRenewable {
                product.introductoryOffer = Offer(mode: .freeTrial, period: period, position: trial.position)
                product.fieldPositions[.introductoryOffer] = trial.position
            }
        }
        if let incentive = field(row, "MARKETING_OPTIN_INCENTIVE_DURATION") {
            // Read to refuse a malformed one; the model has no place for the opt-in incentive.
            _ = try period(incentive, column: "MARKETING_OPTIN_INCENTIVE_DURATION", product: product.id)
        }
        if let locales = field(row, "LOCALE") {
            product.localizations = locales.text.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }.map { Localization(locale: $0) }
            product.fieldPositions[.localizations] = locales.position
        } else if columns["LOCALE"] != nil {
            product.fieldPositions[.localizations] = row.field(columns["LOCALE"])?.position ?? start.position
        }
        let state = try self.state(row, product: product.id)
        product.storeState = state
        if ProductStates.counts(state, including: options.includeStates, hidden: &hidden) {
            products.append(product)
        } else if StoreStates.heldWhenLeftOut(state) {
            held.append(product)
        }
    }

    /// The product's state in the API's spelling: `ADDON_ITC_STATUS` ("Missing Metadata" →
    /// `MISSING_METADATA`, "Ready for Sale" → `APPROVED`), `NOT_CLEARED_FOR_SALE` for an approved
    /// product whose `CLEARED_FOR_SALE` says no.
    private func state(_ row: TabSeparatedRows.Row, product id: String) throws -> String? {
        var state: String?
        if let status = field(row, "ADDON_ITC_STATUS") {
            let key = Self.key(status.text)
            if key == "READY_FOR_SALE" {
                state = "APPROVED"
            } else if let known = ProductStates.normalise(key), known != ProductStates.all, known != ProductStates.notClearedForSale {
                state = known
            } else {
                throw failure("\(id): ADDON_ITC_STATUS \"\(status.text)\" is not an in-app purchase status Tally knows (Missing Metadata, "
                              + "Ready to Submit, Waiting for Review, In Review, Approved, Rejected, Developer Action Needed, ...)", status)
            }
        }
        if let cleared = field(row, "CLEARED_FOR_SALE") {
            switch cleared.text.lowercased() {
            case "yes", "y", "true", "1": break
            case "no", "n", "false", "0":
                if state == nil || ProductStates.forSale.contains(state ?? "") { state = ProductStates.notClearedForSale }
            default:
                throw failure("\(id): CLEARED_FOR_SALE \"\(cleared.text)\" is neither yes nor no", cleared)
            }
        }
        return state
    }

    /// A duration as App Store Connect writes one ("1 Month", "7 Days", "1 Year"), or as its API
    /// does (`ONE_MONTH`), or ISO 8601 (`P1M`); anything else stops the file.
    private func period(_ field: TabSeparatedRows.Field, column: String, product id: String) throws -> Period {
        if let period = PackageDuration.period(field.text) ?? ConnectVocabulary.period(Self.key(field.text)) { return period }
        if field.text.uppercased().hasPrefix("P"), let period = Period(iso8601: field.text.uppercased()) { return period }
        throw failure("\(id): \(column) \"\(field.text)\" is not a duration Tally reads (a number and a unit: \"1 Week\", \"1 Month\", \"1 Year\")", field)
    }

    /// Whether the row is of the app `ReadOptions.reportApp` names (all rows when it names none);
    /// remembers each app for the error that asks to choose one.
    private mutating func belongsToChosenApp(_ row: TabSeparatedRows.Row) throws -> Bool {
        let appleID = field(row, "APP_APPLE_ID")?.text, name = field(row, "APP_NAME")?.text
        let key = appleID ?? name ?? ""
        if !apps.contains(where: { $0.key == key }) { apps.append((key, name ?? appleID ?? "")) }
        guard let chosen = options.reportApp?.trimmingCharacters(in: .whitespaces), !chosen.isEmpty else { return true }
        if chosen == appleID || chosen.caseInsensitiveCompare(name ?? "") == .orderedSame { return true }
        return false
    }

    func catalog() throws -> Catalog {
        let named = apps.filter { !$0.key.isEmpty }
        if let chosen = options.reportApp, !chosen.isEmpty, products.isEmpty, held.isEmpty, hidden.isEmpty {
            throw FormatError("no row is of the app \"\(chosen)\"; the report's apps: \(Self.describe(named))", file: file, position: .unknown)
        }
        if options.reportApp == nil, named.count > 1 {
            throw FormatError("the report holds the in-app purchases of \(named.count) apps (\(Self.describe(named))): "
                              + "name the app whose products to read", file: file, position: .unknown).with(.nameReportApp)
        }
        var known: Set<Field> = [.id, .kind]
        if columns["REFERENCE_NAME"] != nil { known.insert(.referenceName) }
        if columns["AUTO_RENEWABLE_DURATION"] != nil { known.insert(.period) }
        if columns["FREE_TRIAL_DURATION"] != nil { known.insert(.introductoryOffer) }
        if columns["LOCALE"] != nil { known.insert(.localizations) }
        var catalog = Catalog(file: file, format: .appStoreConnectReport, defaultTerritory: .usa, products: products, knownFields: known)
        catalog.introductoryOfferModes = [.freeTrial]
        catalog.hiddenByState = hidden
        catalog.heldByState = held
        return catalog
    }

    static func describe(_ apps: [(key: String, name: String)]) -> String {
        apps.prefix(8).map { $0.name == $0.key ? $0.key : "\($0.name) \($0.key)" }.joined(separator: ", ")
            + (apps.count > 8 ? ", and \(apps.count - 8) more" : "")
    }
}
