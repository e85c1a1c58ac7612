import Foundation
import TallyModel

/// The objects of RevenueCat API v2 pages, gathered page by page and tied together at the end:
/// apps (which store each product is sold in), products, offerings with their packages and the
/// packages' products (`expand=items.package.product`), entitlements with their products
/// (`expand=items.product`). A list page (`{object: "list", items, next_page, url}`) whose
/// `url` names its owner (`/offerings/{id}/packages`, `/packages/{id}/products`,
/// `/entitlements/{id}/products`) adds its items to that owner.
struct RevenueCatPages {
    private var apps: [String: (type: String, position: Position)] = [:]
    private var products: [PaywallProduct] = []
    private var productIndex: [String: Int] = [:]
    private var offerings: [PaywallOffering] = []
    private var offeringIndex: [String: Int] = [:]
    /// Packages by RevenueCat ID, with the offering they belong to.
    private var packageOwner: [String: (offering: Int, package: Int)] = [:]
    private var entitlements: [PaywallEntitlement] = []
    private var entitlementIndex: [String: Int] = [:]
    /// The products already attached to each package (by RevenueCat ID) and entitlement (by
    /// index), so that attaching one more is a lookup, not a walk of the list: a package of N
    /// products is read in linear time.
    private var packageProducts: [String: Set<String>] = [:]
    private var entitlementProducts: [Int: Set<String>] = [:]
    private var sawEntitlementList = false
    /// Whether a page of the project's offerings list was read (an empty one says there is none).
    private var sawOfferingList = false
    /// Offerings (by index) and packages (by RevenueCat ID) whose contents a page states.
    private var packagesStated = Set<Int>()
    private var productsStated = Set<String>()
    private var statesCurrent = false
    /// Products whose app was not given inline, by product key: resolved once every page is read.
    private var productApp: [String: String] = [:]
    /// Keys of the pages Tally neither reads nor skips on purpose (a folder is one source).
    private var account = KeyAccount()
    /// The projects the pages name (in a list's `url`, `/v2/projects/{id}/…`, or an object's
    /// `project_id`), in the order met, each with the first file naming it: a folder is one
    /// project's, and pages of two are refused rather than compared as one app.
    private var projects: [String] = []
    private var projectFiles: [String: String] = [:]

    mutating func add(_ root: LocatedNode, file: String, shift: Int) throws {
        guard root.isObject, let object = root["object"]?.text else {
            throw FormatError("expected a RevenueCat API v2 response: an object with an \"object\" field", file: file, position: root.position)
        }
        if object == "error" || root["type"]?.text == "authentication_error" {
            throw FormatError("this page is a RevenueCat error response (\(root["message"]?.text ?? object)), not configuration: fetch it again",
                              file: file, position: root.position)
        }
        guard object == "list" else {
            try addObject(root, file: file, shift: shift, owner: nil)
            return
        }
        guard let items = root["items"], items.isArray else {
            throw FormatError("a RevenueCat list without items", file: file, position: root.position, path: "items")
        }
        saw(project: Self.project(inURL: root["url"]?.text), file: file)
        account.check(root, RevenueCatVocabulary.list, shift: shift)
        let owner = Owner(url: root["url"]?.text)
        if case .entitlements = owner { sawEntitlementList = true }
        if case .offerings = owner { sawOfferingList = true }
        if items.elements.contains(where: { $0["object"]?.text == "offering" }) { sawOfferingList = true }
        for item in items.elements {
            try addObject(item, file: file, shift: shift, owner: owner)
        }
    }

    private mutating func addObject(_ node: LocatedNode, file: String, shift: Int, owner: Owner?) throws {
        guard node.isObject, let object = node["object"]?.text else {
            throw FormatError("expected a RevenueCat object with an \"object\" field", file: file, position: node.position, path: node.path)
        }
        let position = PaywallCatalog.shift(node.position, shift)
        saw(project: node["project_id"]?.nonEmptyText, file: file)
        switch object {
        case "app":
            account.check(node, RevenueCatVocabulary.app, shift: shift)
            guard let id = node["id"]?.nonEmptyText, let type = node["type"]?.nonEmptyText else {
                throw FormatError("an app without id or type", file: file, position: node.position, path: node.path)
            }
            apps[id] = (type, position)
        case "product":
            let key = try addProduct(node, file: file, shift: shift)
            switch owner {
            case .packageProducts(let package):
                productsStated.insert(package)
                attach(product: key, toPackage: package)
            case .entitlementProducts(let entitlement): attach(product: key, toEntitlement: entitlement)
            default: break
            }
        case "offering":
            try addOffering(node, file: file, shift: shift)
        case "package":
            guard case .offeringPackages(let offering) = owner else {
                throw FormatError("a package outside its offering: save offerings with expand=items.package.product, "
                                  + "or the list of an offering's packages as RevenueCat sent it (its url names the offering)",
                                  file: file, position: node.position, path: node.path)
            }
            let index = offeringSlot(offering, position: .unknown)
            packagesStated.insert(index)
            try addPackage(node, to: index, file: file, shift: shift)
        case "entitlement":
            try addEntitlement(node, file: file, shift: shift)
        case "project", "customer", "subscription", "purchase":
            break  // Not configuration of the paywall; nothing of it is compared.
        default:
            throw FormatError("a RevenueCat object of type \"\(object)\", which Tally does not read (apps, products, offerings, "
                              + "packages and entitlements are read)", file: file, position: node.position, path: node.path)
        }
    }

    /// Adds a product object (from a products page or an expansion) and returns its key.
    private mutating func addProduct(_ node: LocatedNode, file: String, shift: Int) throws -> String {
        guard let key = node["id"]?.nonEmptyText else {
            throw FormatError("a product without id", file: file, position: node.position, path: node.path)
        }
        if let at = productIndex[key] {
            // The same product again (a page and an expansion): it must say the same thing (issue 47).
            if let storeID = node["store_identifier"]?.nonEmptyText, storeID != products[at].storeID {
                throw FormatError("product \(key) is described twice with different store identifiers, \(products[at].storeID) first "
                                  + "and \(storeID) here: which one the store sells cannot be told",
                                  file: file, position: node.position, path: node.path)
            }
            return key
        }
        account.check(node, RevenueCatVocabulary.product, shift: shift)
        if let subscription = node["subscription"] { account.check(subscription, RevenueCatVocabulary.productSubscription, shift: shift) }
        if let oneTime = node["one_time"] { account.check(oneTime, RevenueCatVocabulary.productOneTime, shift: shift) }
        guard let storeID = node["store_identifier"]?.nonEmptyText else {
            throw FormatError("product \(key) has no store_identifier", file: file, position: node.position, path: node.path)
        }
        var product = PaywallProduct(key: key, storeID: storeID, position: PaywallCatalog.shift(node.position, shift))
        if let typeNode = node["type"], let type = typeNode.text {
            product.kindPosition = PaywallCatalog.shift(typeNode.position, shift)
            switch type {
            case "subscription": product.kind = .subscription
            case "non_renewing_subscription": product.kind = .nonRenewingSubscription
            case "consumable": product.kind = .consumable
            case "non_consumable": product.kind = .nonConsumable
            case "one_time":
                switch node["one_time"]?["is_consumable"]?.bool {
                case true?: product.kind = .consumable
                case false?: product.kind = .nonConsumable
                case nil: product.kind = .oneTime
                }
            default:
                throw FormatError("product \(storeID) has type \"\(type)\"; RevenueCat's types are subscription, one_time, consumable, "
                                  + "non_consumable and non_renewing_subscription", file: file, position: typeNode.position, path: typeNode.path)
            }
        }
        if let durationNode = node["subscription"]?["duration"], let text = durationNode.nonEmptyText {
            guard let period = Period(iso8601: text) else {
                throw FormatError("product \(storeID) has subscription duration \"\(text)\", which is not an ISO 8601 duration (P1M, P1Y)",
                                  file: file, position: durationNode.position, path: durationNode.path)
            }
            product.period = period
            product.periodPosition = PaywallCatalog.shift(durationNode.position, shift)
        }
        if let app = node["app"], app.isObject, let type = app["type"]?.text {
            Self.setStore(type, of: &product)
        } else if let appID = node["app_id"]?.nonEmptyText {
            productApp[key] = appID
        }
        productIndex[key] = products.count
        products.append(product)
        return key
    }

    private mutating func addOffering(_ node: LocatedNode, file: String, shift: Int) throws {
        guard let id = node["id"]?.nonEmptyText, let key = node["lookup_key"]?.nonEmptyText else {
            throw FormatError("an offering without id or lookup_key", file: file, position: node.position, path: node.path)
        }
        account.check(node, RevenueCatVocabulary.offering, shift: shift)
        let index = offeringSlot(id, position: PaywallCatalog.shift(node.position, shift))
        offerings[index].key = key
        offerings[index].position = PaywallCatalog.shift(node.position, shift)
        if let current = node["is_current"]?.bool {
            statesCurrent = true
            offerings[index].isCurrent = current
        }
        if let packages = node["packages"] { account.check(packages, RevenueCatVocabulary.expansion, shift: shift) }
        if let packages = node["packages"]?["items"] {
            packagesStated.insert(index)
            for package in packages.elements {
                try addPackage(package, to: index, file: file, shift: shift)
            }
        }
    }

    private mutating func addPackage(_ node: LocatedNode, to offering: Int, file: String, shift: Int) throws {
        guard let id = node["id"]?.nonEmptyText, let key = node["lookup_key"]?.nonEmptyText else {
            throw FormatError("a package without id or lookup_key", file: file, position: node.position, path: node.path)
        }
        if packageOwner[id] == nil {
            packageOwner[id] = (offering, offerings[offering].packages.count)
            offerings[offering].packages.append(PaywallPackage(key: key, position: PaywallCatalog.shift(node.position, shift)))
        }
        account.check(node, RevenueCatVocabulary.package, shift: shift)
        if let products = node["products"] { account.check(products, RevenueCatVocabulary.expansion, shift: shift) }
        if node["products"]?["items"] != nil { productsStated.insert(id) }
        for item in node["products"]?["items"]?.elements ?? [] {
            if item["object"]?.text == "product" {
                // The product itself, not wrapped with its eligibility.
                attach(product: try addProduct(item, file: file, shift: shift), toPackage: id)
                continue
            }
            account.check(item, RevenueCatVocabulary.packageProduct, shift: shift)
            if let product = item["product"], product.isObject {
                attach(product: try addProduct(product, file: file, shift: shift), toPackage: id)
            } else if let key = item["product_id"]?.nonEmptyText ?? item["product"]?.nonEmptyText {
                attach(product: key, toPackage: id)
            }
        }
    }

    private mutating func addEntitlement(_ node: LocatedNode, file: String, shift: Int) throws {
        guard let id = node["id"]?.nonEmptyText, let key = node["lookup_key"]?.nonEmptyText else {
            throw FormatError("an entitlement without id or lookup_key", file: file, position: node.position, path: node.path)
        }
        account.check(node, RevenueCatVocabulary.entitlement, shift: shift)
        if let products = node["products"] { account.check(products, RevenueCatVocabulary.expansion, shift: shift) }
        let index = entitlementSlot(id)
        entitlements[index].key = key
        entitlements[index].position = PaywallCatalog.shift(node.position, shift)
        for product in node["products"]?["items"]?.elements ?? [] where product.isObject {
            attach(product: try addProduct(product, file: file, shift: shift), toEntitlement: id)
        }
    }

    private mutating func saw(project id: String?, file: String) {
        guard let id, projectFiles[id] == nil else { return }
        projectFiles[id] = file
        projects.append(id)
    }

    /// `proj1ab2c3d4` in `/v2/projects/proj1ab2c3d4/apps?limit=100`.
    static func project(inURL url: String?) -> String? {
        guard let path = url?.split(separator: "?").first else { return nil }
        let parts = path.split(separator: "/")
        guard let index = parts.firstIndex(of: "projects"), index + 1 < parts.count else { return nil }
        return String(parts[index + 1])
    }

    private mutating func offeringSlot(_ id: String, position: Position) -> Int {
        if let index = offeringIndex[id] { return index }
        offeringIndex[id] = offerings.count
        offerings.append(PaywallOffering(key: id, position: position))
        return offerings.count - 1
    }

    private mutating func entitlementSlot(_ id: String) -> Int {
        if let index = entitlementIndex[id] { return index }
        entitlementIndex[id] = entitlements.count
        entitlements.append(PaywallEntitlement(key: id))
        return entitlements.count - 1
    }

    private mutating func attach(product: String, toPackage id: String) {
        guard let (offering, package) = packageOwner[id] else { return }
        if packageProducts[id, default: []].insert(product).inserted {
            offerings[offering].packages[package].productKeys.append(product)
        }
    }

    private mutating func attach(product: String, toEntitlement id: String) {
        let index = entitlementSlot(id)
        if entitlementProducts[index, default: []].insert(product).inserted { entitlements[index].productKeys.append(product) }
    }

    private static func setStore(_ type: String, of product: inout PaywallProduct) {
        product.storeName = type
        switch type {
        case "app_store", "mac_app_store": product.store = .appStore
        case "play_store": product.store = .googlePlay
        default: product.store = nil
        }
    }

    /// The catalogue: products' stores resolved through the apps read, every reference checked.
    func catalog(file: String, parts: [SourcePart]) throws -> Catalog {
        if projects.count > 1 {
            let named = projects.prefix(3).map { "\($0) (\(((projectFiles[$0] ?? "") as NSString).lastPathComponent))" }
            throw FormatError("the pages come from \(projects.count) RevenueCat projects, \(named.joined(separator: " and "))"
                              + "\(projects.count > 3 ? " and more" : ""): one source is one project, and Tally does not compare a merge of "
                              + "two apps; fetch each project into a folder of its own and name the one to check", file: file, position: .unknown)
        }
        var products = self.products
        for index in products.indices where products[index].storeName == nil {
            if let appID = productApp[products[index].key], let app = apps[appID] {
                Self.setStore(app.type, of: &products[index])
            }
        }
        var offerings = self.offerings
        for index in offerings.indices {
            offerings[index].statesPackages = packagesStated.contains(index)
        }
        for (id, owner) in packageOwner {
            offerings[owner.offering].packages[owner.package].statesProducts = productsStated.contains(id)
        }
        let keys = Set(products.map(\.key))
        for offering in offerings {
            for package in offering.packages {
                for key in package.productKeys where !keys.contains(key) {
                    throw FormatError("package \(package.key) of offering \(offering.key) holds product \(key), which no page describes: "
                                      + "save offerings with expand=items.package.product", file: file, position: package.position)
                }
            }
        }
        let paywall = Paywall(platform: "RevenueCat", products: products, offerings: offerings,
                              entitlements: sawEntitlementList || !entitlements.isEmpty ? entitlements : nil,
                              statesCurrentOffering: statesCurrent, listsOfferings: sawOfferingList)
        return PaywallCatalog.build(paywall, file: file, format: .revenueCat, parts: parts, issues: account.issues)
    }
}

/// Whose items a list page holds, from its `url`.
private enum Owner {
    case offeringPackages(String)
    case packageProducts(String)
    case entitlementProducts(String)
    case entitlements
    case offerings
    case other

    init(url: String?) {
        let path = (url ?? "").split(separator: "?").first.map { $0.split(separator: "/").map(String.init) } ?? []
        guard let last = path.last else { self = .other; return }
        let owner = path.count >= 2 ? path[path.count - 2] : ""
        let kind = path.count >= 3 ? path[path.count - 3] : ""
        switch (kind, last) {
        case ("offerings", "packages"): self = .offeringPackages(owner)
        case ("packages", "products"): self = .packageProducts(owner)
        case ("entitlements", "products"): self = .entitlementProducts(owner)
        default:
            switch last {
            case "entitlements": self = .entitlements
            case "offerings": self = .offerings
            default: self = .other
            }
        }
    }
}
