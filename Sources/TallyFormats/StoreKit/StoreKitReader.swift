import TallyModel

/// Reads Xcode StoreKit configuration files (`.storekit`), format versions 1.0 to 5.0, written as
/// JSON or as a property list. Keys Tally does not use are skipped (Xcode adds keys in new
/// versions); the subscription offers key pair is never read into memory.
public enum StoreKitReader: SourceReader {
    public static let format = SourceFormat.storeKit
    public static let extensions = ["storekit", "json"]
    public static let fuzzTargets = [FuzzTarget("storekit", file: "App.storekit")]

    public static func sniff(_ head: String, file: String) -> Bool {
        head.contains("\"productID\"") || head.contains("\"subscriptionGroups\"") || head.contains("\"nonRenewingSubscriptions\"")
            || head.contains("<key>productID</key>") || head.contains("<key>subscriptionGroups</key>")
    }

    /// Streams a JSON configuration from disk; property lists are read whole.
    public static func read(path: String, options: ReadOptions) throws -> Catalog {
        let head = try SourceLoader.readBytes(path: path, maxBytes: options.maxBytes, prefix: 64)
        if PropertyListDocument.looksLikePropertyList(head) {
            return try read(bytes: SourceLoader.readBytes(path: path, maxBytes: options.maxBytes), file: path, options: options)
        }
        var reader = try JSONReader(path: path, maxDepth: options.maxDepth)
        let catalog = try decode(&reader)
        try reader.finish()
        return catalog
    }

    /// Reads a StoreKit configuration from the file's bytes.
    public static func read(bytes: [UInt8], file: String, options: ReadOptions = ReadOptions()) throws -> Catalog {
        if PropertyListDocument.looksLikePropertyList(bytes) {
            var reader = TreeReader(root: try PropertyListDocument.parse(bytes: bytes, file: file), file: file)
            return try decode(&reader)
        }
        var reader = try JSONReader(bytes: bytes, file: file, maxDepth: options.maxDepth)
        let catalog = try decode(&reader)
        try reader.finish()
        return catalog
    }

    /// Decodes a configuration from any document reader.
    /// Mistakes it can step over (a value of the wrong type, a product without an ID or with an
    /// unknown type) are collected and the read goes on, so that one run names every error of
    /// the file (up to `FormatError.limit`), as `tally init` promises; a document that cannot be
    /// parsed stops it at once.
    static func decode<R: DocumentReader>(_ reader: inout R) throws -> Catalog {
        var state = StoreKitDecoder(file: reader.file)
        do {
            return try decode(&reader, into: &state)
        } catch is FormatErrorLog.Stop {
            throw state.log.combined(stoppedAtLimit: true) ?? FormatError("too many errors", file: reader.file, position: .unknown)
        } catch let error as FormatError {
            throw state.log.combined(adding: error) ?? error
        }
    }

    private static func decode<R: DocumentReader>(_ reader: inout R, into state: inout StoreKitDecoder) throws -> Catalog {
        guard try reader.peekKind() == .object else {
            throw reader.error("a StoreKit configuration is a JSON object with products, settings and subscriptionGroups; found \(try reader.peekKind().article)")
        }
        var sawVersion = false
        try reader.forEachUniqueKey { reader, key in
            switch key {
            case "version":
                sawVersion = true
                state.versionPosition = reader.position
                if try reader.peekKind() == .object {
                    try reader.forEachUniqueKey { reader, key in
                        switch key {
                        case "major": if try !reader.readNullIfPresent() { state.majorVersion = try reader.readInt() }
                        case "minor": if try !reader.readNullIfPresent() { state.minorVersion = try reader.readInt() }
                        default: try state.account.skip(key, StoreKitDecoder.versionKeys, &reader)
                        }
                    }
                } else {
                    try reader.skipValue()
                }
            case "settings": try state.readSettings(&reader)
            case "products", "nonRenewingSubscriptions":
                try reader.forEachElement { reader, _ in
                    if let product = try state.readProduct(&reader, group: nil) { state.products.append(product) }
                }
            case "subscriptionGroups":
                try reader.forEachElement { reader, _ in try state.readGroup(&reader) }
            case "subscriptionSuiteGroups":
                try reader.forEachElement { reader, _ in try state.readGroup(&reader, kind: .subscriptionSuite) }
            case "subscriptionBundleGroups":
                try reader.forEachElement { reader, _ in try state.readGroup(&reader, kind: .subscriptionBundle) }
            default:
                // A key Tally does not know may hold products (a future `subscriptionXGroups`): named, with its size.
                try state.account.skip(key, StoreKitDecoder.rootKeys, &reader)
            }
        }
        if let major = state.majorVersion, (major, state.minorVersion ?? 0) > StoreKitDecoder.newestKnown {
            state.issues.append(SourceIssue(rule: .unknownContent, productID: nil, field: .kind,
                                            message: "StoreKit format \(major).\(state.minorVersion ?? 0) is newer than Tally knows (up to \(StoreKitDecoder.newestKnown.0).\(StoreKitDecoder.newestKnown.1)): read as \(StoreKitDecoder.newestKnown.0).\(StoreKitDecoder.newestKnown.1); keys it does not know are named",
                                            position: state.versionPosition))
        }
        state.issues += state.account.issues
        guard sawVersion || !state.products.isEmpty || !state.groups.isEmpty || !state.log.isEmpty else {
            throw FormatError("this is not a StoreKit configuration: no version, products or subscriptionGroups",
                              file: reader.file, position: Position(line: 1, column: 1))
        }
        if let errors = state.log.combined() { throw errors }
        return state.catalog()
    }
}

/// The mutable state of one StoreKit decode.
struct StoreKitDecoder {
    let file: String
    var storefront: Territory = .usa
    var products: [Product] = []
    var groups: [SubscriptionGroup] = []
    var issues: [SourceIssue] = []
    /// The file's `version.major`; a file before 5.0 has no billing plans.
    var majorVersion: Int?
    var minorVersion: Int?
    var versionPosition = Position.unknown
    /// Keys Tally neither reads nor skips on purpose, named once per file.
    var account = KeyAccount()

    /// The newest format Tally knows (Xcode 27's StoreKit 6.3).
    static let newestKnown = (6, 3)

    /// The errors stepped over so far.
    var log = FormatErrorLog()

    init(file: String) { self.file = file }

    /// Reads one value with `read`. A value of the wrong type (which the reader leaves unread)
    /// is reported and skipped, giving nil; an error after part of the value was read ends the read.
    mutating func attempt<R: DocumentReader, T>(_ reader: inout R, _ read: (inout R) throws -> T) throws -> T? {
        let before = reader.position
        do {
            return try read(&reader)
        } catch let error as FormatError where reader.position == before {
            try log.report(error)
            try reader.skipValue()
            return nil
        }
    }

    /// The catalogue read. Consumes the decoder: products are updated in place (each product's
    /// storage is uniquely held here, so no copy is made).
    consuming func catalog() -> Catalog {
        // Every displayPrice in the file is in the storefront's territory and currency.
        let currency = storefront.currency
        let storefront = storefront
        var products = self.products
        self.products = []
        func inStorefront(_ offer: Offer, _ currency: String?) -> Offer {
            var offer = offer
            offer.territory = storefront
            offer.price = offer.price.map { Money(amount: $0.amount, currency: currency) }
            return offer
        }
        for index in products.indices {
            products[index].prices = products[index].prices.map { Price(territory: storefront, money: Money(amount: $0.money.amount, currency: currency), position: $0.position) }
            products[index].introductoryOffer = products[index].introductoryOffer.map { inStorefront($0, currency) }
            products[index].otherIntroductoryOffers = products[index].otherIntroductoryOffers.map { inStorefront($0, currency) }
            products[index].promotionalOffers = products[index].promotionalOffers.map { inStorefront($0, currency) }
            products[index].codeOffers = products[index].codeOffers.map { inStorefront($0, currency) }
            products[index].winbackOffers = products[index].winbackOffers.map { inStorefront($0, currency) }
            products[index].billingPlans = products[index].billingPlans.map { plan in
                var plan = plan
                plan.price = plan.price.map { Money(amount: $0.amount, currency: currency) }
                plan.commitmentPrice = plan.commitmentPrice.map { Money(amount: $0.amount, currency: currency) }
                // The plan's price is its price in the storefront, as a product's is.
                plan.prices = plan.price.map { [Price(territory: storefront, money: $0, position: plan.position)] } ?? []
                return plan
            }
        }
        var catalog = Catalog(file: file, format: .storeKit, defaultTerritory: storefront, products: products,
                              groups: groups, issues: issues)
        // Billing plans came with StoreKit 5.0: an older file states none (and says nothing about
        // them), unless it holds some (RevenueCat's purchases-ios has a 3.0 file with plans,
        // issue 50): then what it holds is read and compared, not called unknown.
        if let major = majorVersion, major < 5, !products.contains(where: { !$0.billingPlans.isEmpty }) {
            catalog.knownFields.remove(.billingPlans)
        }
        // Win-back offers came with StoreKit 4.0 (Xcode 16), which writes `winbackOffers` on every
        // subscription, even empty: such a file states them; an older one says nothing of them.
        if majorVersion.map({ $0 >= 4 }) ?? false || products.contains(where: { $0.fieldPositions[.winbackOffers] != nil }) {
            catalog.knownFields.insert(.winbackOffers)
        }
        return catalog
    }

    mutating func readSettings<R: DocumentReader>(_ reader: inout R) throws {
        if try reader.readNullIfPresent() { return }
        try reader.forEachUniqueKey { reader, key in
            // `settings` is the test session's, never products: every other key is skipped.
            guard key == "_storefront" else { return try reader.skipValue() }
            let at = reader.position
            let code = try reader.readString()
            guard let territory = Territory(code) else {
                throw reader.error("settings._storefront \"\(code)\" is not an App Store storefront code (three capital letters, like USA)", at: at)
            }
            storefront = territory
        }
    }

    /// A group of subscriptions: `subscriptionGroups`, or (StoreKit 6.3) a group of suites or
    /// bundles, whose entries are of `kind` when they do not say.
    mutating func readGroup<R: DocumentReader>(_ reader: inout R, kind: ProductKind = .autoRenewableSubscription) throws {
        let start = reader.position
        var id: String?
        var name: String?
        var members: [Product] = []
        var localizations: [Localization] = []
        try reader.forEachUniqueKey { reader, key in
            switch key {
            case "id": id = try reader.readOptionalString()
            case "name": name = try reader.readOptionalString()
            case "localizations": localizations = try readLocalizations(&reader)
            case "subscriptions":
                try reader.forEachElement { reader, _ in
                    if let product = try readProduct(&reader, group: nil, defaultKind: kind) { members.append(product) }
                }
            default: try account.skip(key, StoreKitDecoder.groupKeys, &reader)
            }
        }
        // Some hand-made files leave the group id out; fall back to the name so members stay together.
        guard let groupID = id ?? name else {
            throw reader.error("a subscription group has neither an id nor a name", at: start)
        }
        for var product in members {
            let declared = product.group?.declaredGroupID
            product.group = GroupMembership(groupID: groupID, groupName: name, level: product.group?.level, declaredGroupID: declared)
            products.append(product)
        }
        groups.append(SubscriptionGroup(id: groupID, name: name, productIDs: members.map(\.id), position: start, localizations: localizations))
    }

    /// Reads one product or subscription; nil when it has to be left out (an issue is recorded).
    mutating func readProduct<R: DocumentReader>(_ reader: inout R, group: String?, defaultKind: ProductKind? = nil) throws -> Product? {
        let start = reader.position
        let path = reader.path
        var id: String?
        var typeText: String?
        var typePosition = start
        var product = Product(id: "", kind: .consumable, position: start)
        var priceText: String?
        var pricePosition = start
        var periodText: String?
        var periodPosition = start
        var level: Int?
        var declaredGroup: String?
        var offerIssues: [(String, Position)] = []
        let errorsBefore = log.errors.count

        try reader.forEachUniqueKey { reader, key in
            switch key {
            case "productID":
                product.fieldPositions[.id] = reader.position
                id = try attempt(&reader) { try $0.readOptionalString() } ?? nil
            case "type":
                typePosition = reader.position
                typeText = try attempt(&reader) { try $0.readOptionalString() } ?? nil
            case "displayPrice":
                pricePosition = reader.position
                if try !reader.readNullIfPresent() { priceText = try attempt(&reader) { try $0.readDecimalText() } }
            case "familyShareable", "isFamilyShareable":
                product.fieldPositions[.familyShareable] = reader.position
                if try !reader.readNullIfPresent() { product.familyShareable = try attempt(&reader) { try $0.readBool() } }
            case "members":
                // A suite's or bundle's member subscriptions: product IDs, or objects that name one.
                // Gathered, then set once: `members` is stored copy-on-write behind the product,
                // and an append per member copied them all (100,000 members: quadratic, issue 47).
                var members = product.members
                try reader.forEachElement { reader, _ in
                    if try reader.peekKind() == .object {
                        try reader.forEachUniqueKey { reader, key in
                            guard key == "productID" || key == "id" else { return try account.skip(key, StoreKitDecoder.memberKeys, &reader) }
                            if let member = try attempt(&reader, { try $0.readOptionalString() }) ?? nil { members.append(member) }
                        }
                    } else if let member = try attempt(&reader, { try $0.readOptionalString() }) ?? nil {
                        members.append(member)
                    }
                }
                product.members = members
            case "referenceName":
                product.fieldPositions[.referenceName] = reader.position
                product.referenceName = try attempt(&reader) { try $0.readOptionalString() } ?? nil
            case "localizations":
                product.localizations = try readLocalizations(&reader)
            case "recurringSubscriptionPeriod", "duration":
                // `duration`: a suite's or bundle's period (StoreKit 6.3).
                periodPosition = reader.position
                periodText = try attempt(&reader) { try $0.readOptionalString() } ?? nil
            case "groupNumber":
                product.fieldPositions[.level] = reader.position
                if try !reader.readNullIfPresent() { level = try attempt(&reader) { try $0.readInt() } }
            case "subscriptionGroupID":
                product.fieldPositions[.group] = reader.position
                declaredGroup = try attempt(&reader) { try $0.readOptionalString() } ?? nil
            case "introductoryOffer":
                product.fieldPositions[.introductoryOffer] = reader.position
                if try !reader.readNullIfPresent() {
                    product.introductoryOffer = try readOffer(&reader, issues: &offerIssues)
                }
            case "introductoryOffers":
                try reader.forEachElement { reader, _ in
                    if let offer = try readOffer(&reader, issues: &offerIssues) { product.otherIntroductoryOffers.append(offer) }
                }
            case "adHocOffers":
                product.fieldPositions[.promotionalOffers] = reader.position
                try reader.forEachElement { reader, _ in
                    if let offer = try readOffer(&reader, issues: &offerIssues) { product.promotionalOffers.append(offer) }
                }
            case "codeOffers":
                product.fieldPositions[.codeOffers] = reader.position
                try reader.forEachElement { reader, _ in
                    if let offer = try readOffer(&reader, issues: &offerIssues) { product.codeOffers.append(offer) }
                }
            case "winbackOffers":
                product.fieldPositions[.winbackOffers] = reader.position
                try reader.forEachElement { reader, _ in
                    if let offer = try readOffer(&reader, issues: &offerIssues) { product.winbackOffers.append(offer) }
                }
            case "billingPlans":
                try reader.forEachElement { reader, _ in product.billingPlans.append(try readBillingPlan(&reader)) }
            default: try account.skip(key, StoreKitDecoder.productKeys, &reader)
            }
        }

        // A product Tally cannot place is named, and the read goes on to the next one.
        guard let id, !id.isEmpty else {
            // A productID of the wrong type has been named already.
            if log.errors.count == errorsBefore {
                try log.report(FormatError("a product has no productID", file: file, position: start, path: path))
            }
            return nil
        }
        product.id = id
        guard let typeText = typeText ?? defaultKind.flatMap({ kind in StoreKitDecoder.kinds.first { $0.value == kind }?.key }) else {
            try log.report(FormatError("product \(id) has no type", file: file, position: start, path: path))
            return nil
        }
        guard let kind = StoreKitDecoder.kinds[typeText] else {
            // A type of a newer Xcode: the product is named and left out, never dropped without a word.
            issues.append(SourceIssue(rule: .unknownContent, productID: id, field: .kind,
                                      message: "product \(id) has the type \"\(Elision.value(typeText, limit: 80))\", which Tally does not know (it knows Consumable, NonConsumable, NonRenewingSubscription, RecurringSubscription, SubscriptionSuite and SubscriptionBundle): the product is left out",
                                      position: typePosition, path: path))
            return nil
        }
        product.kind = kind
        product.fieldPositions[.kind] = typePosition
        if kind.isAutoRenewable {
            product.group = GroupMembership(groupID: declaredGroup ?? "", level: level, declaredGroupID: declaredGroup)
        }
        // Xcode writes "displayPrice" : "" for a product whose price was never entered (RevenueCat's
        // own test configurations have seven): no price, not an invalid one.
        if let priceText, !priceText.isEmpty {
            product.fieldPositions[.prices] = pricePosition
            if let amount = DecimalText.parse(priceText) {
                product.prices = [Price(territory: .usa, money: Money(amount: amount, currency: nil), position: pricePosition)]
            } else {
                issues.append(SourceIssue(rule: .invalidPrice, productID: id, field: .prices,
                                          message: "displayPrice \"\(priceText)\" \(DecimalText.rejection(priceText))", position: pricePosition))
            }
        }
        if let periodText {
            product.fieldPositions[.period] = periodPosition
            if let period = Period(iso8601: periodText) {
                product.period = period
            } else {
                issues.append(SourceIssue(rule: .invalidPeriod, productID: id, field: .period,
                                          message: "recurringSubscriptionPeriod \"\(periodText)\" is not an ISO 8601 period like P1M", position: periodPosition))
            }
        }
        if product.introductoryOffer == nil, !product.otherIntroductoryOffers.isEmpty {
            product.introductoryOffer = product.otherIntroductoryOffers.removeFirst()
        } else if let primary = product.introductoryOffer {
            product.otherIntroductoryOffers.removeAll { $0.sameTerms(as: primary) }
        }
        for (message, position) in offerIssues {
            issues.append(SourceIssue(rule: .invalidOffer, productID: id, field: .introductoryOffer, message: message, position: position))
        }
        return product
    }

    private static let kinds: [String: ProductKind] = [
        "Consumable": .consumable, "NonConsumable": .nonConsumable,
        "NonRenewingSubscription": .nonRenewingSubscription, "RecurringSubscription": .autoRenewableSubscription,
        "SubscriptionSuite": .subscriptionSuite, "SubscriptionBundle": .subscriptionBundle,
    ]

    private static let modes: [String: OfferMode] = ["free": .freeTrial, "payAsYouGo": .payAsYouGo, "payUpFront": .payUpFront]

    mutating func readLocalizations<R: DocumentReader>(_ reader: inout R) throws -> [Localization] {
        var result: [Localization] = []
        if try reader.readNullIfPresent() { return result }
        try reader.forEachElement { reader, _ in
            var localization = Localization(locale: "")
            try reader.forEachUniqueKey { reader, key in
                switch key {
                case "locale": localization.locale = try reader.readOptionalString() ?? ""
                case "displayName": localization.displayName = try reader.readOptionalString()
                case "description": localization.description = try reader.readOptionalString()
                default: try account.skip(key, StoreKitDecoder.localizationKeys, &reader)
                }
            }
            result.append(localization)
        }
        return result
    }

    /// Reads one offer; nil (with an issue) when its mode or period cannot be understood.
    mutating func readOffer<R: DocumentReader>(_ reader: inout R, issues: inout [(String, Position)]) throws -> Offer? {
        let start = reader.position
        var modeText: String?
        var periodText: String?
        var periods = 1
        var priceText: String?
        var offerID: String?
        var planType: String?
        var eligibility: [String] = []
        var at = OfferPositions()
        try reader.forEachUniqueKey { reader, key in
            switch key {
            case "paymentMode":
                at.mode = reader.position
                modeText = try reader.readOptionalString()
            case "subscriptionPeriod":
                at.period = reader.position
                periodText = try reader.readOptionalString()
            case "numberOfPeriods":
                at.periods = reader.position
                if try !reader.readNullIfPresent() { periods = try reader.readInt() }
            case "displayPrice":
                at.price = reader.position
                if try !reader.readNullIfPresent() { priceText = try reader.readDecimalText() }
            case "offerID": offerID = try reader.readOptionalString()
            case "billingPlanType": planType = try reader.readOptionalString()
            case "eligibility":
                at.eligibility = reader.position
                if try reader.peekKind() == .array {
                    try reader.forEachElement { reader, _ in eligibility.append(try reader.readString()) }
                } else if let single = try reader.readOptionalString() {
                    eligibility = [single]
                }
            default: try account.skip(key, StoreKitDecoder.offerKeys, &reader)
            }
        }
        guard let modeText, let mode = StoreKitDecoder.modes[modeText] else {
            issues.append(("offer paymentMode \"\(modeText ?? "")\" is not free, payAsYouGo or payUpFront", at.mode.isKnown ? at.mode : start))
            return nil
        }
        guard let periodText, let period = Period(iso8601: periodText) else {
            issues.append(("offer subscriptionPeriod \"\(periodText ?? "")\" is not an ISO 8601 period like P1W", at.period.isKnown ? at.period : start))
            return nil
        }
        var price: Money?
        if let priceText {
            guard let amount = DecimalText.parse(priceText) else {
                issues.append(("offer displayPrice \"\(priceText)\" \(DecimalText.rejection(priceText))", at.price))
                return nil
            }
            price = Money(amount: amount, currency: nil)
        }
        var offer = Offer(id: offerID, mode: mode, period: period, periods: periods, price: price,
                          eligibility: eligibility, position: start, termPositions: at)
        offer.billingPlanType = planType
        return offer
    }

    mutating func readBillingPlan<R: DocumentReader>(_ reader: inout R) throws -> BillingPlan {
        var plan = BillingPlan(type: "", position: reader.position)
        try reader.forEachUniqueKey { reader, key in
            switch key {
            case "billingPlanType": plan.type = try reader.readOptionalString() ?? ""
            case "displayPrice":
                if try !reader.readNullIfPresent() { plan.price = DecimalText.parse(try reader.readDecimalText()).map { Money(amount: $0, currency: nil) } }
            case "commitmentDisplayPrice":
                if try !reader.readNullIfPresent() { plan.commitmentPrice = DecimalText.parse(try reader.readDecimalText()).map { Money(amount: $0, currency: nil) } }
            case "isEnabled": if try !reader.readNullIfPresent() { plan.isEnabled = try reader.readBool() }
            default: try account.skip(key, StoreKitDecoder.planKeys, &reader)
            }
        }
        return plan
    }
}
