import TallyModel

/// The products of one property list, as its shape gives them.
struct PropertyListProducts {
    let file: String
    private var products: [Product] = []
    private var groups: [SubscriptionGroup] = []
    /// Whether every product so far stated its kind.
    private var everyKindStated = true
    /// Whether the file has a `Subscriptions` section (so groups and levels are known).
    private var hasGroups = false
    /// Keys of the file Tally neither reads nor skips on purpose.
    var account = KeyAccount()

    init(file: String) { self.file = file }

    func catalog() -> Catalog {
        var known: Set<Field> = [.id]
        if everyKindStated && !products.isEmpty { known.insert(.kind) }
        if hasGroups { known.formUnion([.group, .level]) }
        return Catalog(file: file, format: .propertyList, products: products, groups: groups, knownFields: known, issues: account.issues)
    }

    /// A list whose elements are product IDs or product dictionaries.
    mutating func readList(_ elements: [DocNode], path: String, group: String? = nil) throws {
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            var product: Product
            var stated: Bool
            switch element.value {
            case .scalar(let text, .string):
                guard !text.isEmpty else { throw error("an empty product ID", at: elementPath) }
                product = Product(id: text, kind: .nonConsumable, path: elementPath)
                stated = false
            case .object(let members):
                (product, stated) = try readProduct(members, id: nil, path: elementPath)
            case .array:
                throw PropertyListReader.unrecognised(file: file, found: "a list inside the list at \(elementPath)", path: elementPath)
            case .scalar(_, let kind):
                throw error("expected a product ID (a string) or a product dictionary, found \(kind.article)", at: elementPath)
            }
            if let group {
                if stated, !product.kind.isAutoRenewable {
                    throw error("\(product.id) is listed under Subscriptions but its type says \(product.kind)",
                                at: product.path(of: .kind) ?? elementPath)
                }
                product.kind = .autoRenewableSubscription
                stated = true
                product.group = GroupMembership(groupID: group, groupName: group, level: index + 1)
                product.fieldPaths[.group] = path
                if product.fieldPaths[.kind] == nil { product.fieldPaths[.kind] = path }
                product.fieldPaths[.level] = elementPath
            }
            if !stated { everyKindStated = false }
            products.append(product)
        }
    }

    /// `Products: [...]`, and `Subscriptions: [{Group, Products}]` when present.
    mutating func readProductsSection(_ list: DocNode, subscriptions: DocNode?) throws {
        guard case .array(let elements) = list.value else {
            throw error("Products should be a list of product IDs, found \(list.kind.article)", at: "Products")
        }
        try readList(elements, path: "Products")
        guard let subscriptions else { return }
        guard case .array(let sections) = subscriptions.value else {
            throw error("Subscriptions should be a list of {Group, Products} dictionaries, found \(subscriptions.kind.article)",
                        at: "Subscriptions")
        }
        hasGroups = true
        for (index, section) in sections.enumerated() {
            let path = "Subscriptions[\(index)]"
            guard case .object(let members) = section.value else {
                throw error("expected a dictionary with Group and Products, found \(section.kind.article)", at: path)
            }
            account.check(members, at: path, Self.sectionKeys)
            guard let name = section.member("Group")?.scalarText, !name.isEmpty else {
                throw error("this subscription group has no Group name", at: path)
            }
            guard let members = section.member("Products"), case .array(let elements) = members.value else {
                throw error("subscription group \(name) has no Products list", at: path)
            }
            let first = products.count
            try readList(elements, path: "\(path).Products", group: name)
            groups.append(SubscriptionGroup(id: name, name: name, productIDs: products[first...].map(\.id)))
        }
    }

    /// A dictionary keyed by product ID; values are display data or product dictionaries.
    mutating func readKeyedByID(_ members: [(key: String, node: DocNode)]) throws {
        for member in members {
            let path = "[\"\(member.key)\"]"
            if case .object(let fields) = member.node.value {
                let (product, stated) = try readProduct(fields, id: member.key, path: path)
                if !stated { everyKindStated = false }
                products.append(product)
            } else {
                everyKindStated = false
                products.append(Product(id: member.key, kind: .nonConsumable, path: path))
            }
        }
    }

    /// `Subscriptions[]` entries: the group's name and its products, by level.
    static let sectionKeys = KeyVocabulary("Subscriptions entry", read: ["Group", "Products"])

    /// A product dictionary's keys (StoreHelper's, Apple's samples', the shapes seen in apps).
    static let productKeys = KeyVocabulary(
        "product",
        read: Set(idKeys).union(["consumable", "Consumable", "isConsumable", "ProductType", "productType", "Type", "type", "Tier", "tier"]),
        // Text the app shows, in no stated locale (a localization needs one); an amount in no
        // stated currency; the app's own picture of the product.
        ignored: ["Title", "title", "Description", "description", "Name", "name", "displayName", "DisplayName",
                  "Price", "price", "Emoji", "emoji", "Image", "image"])

    static let idKeys = ["productIdentifier", "ProductIdentifier", "productId", "ProductId", "productID", "ProductID", "identifier", "Identifier", "id", "ID"]

    /// One product dictionary. `id` is given when the dictionary is keyed by it.
    private mutating func readProduct(_ members: [(key: String, node: DocNode)], id given: String?, path: String) throws -> (Product, Bool) {
        account.check(members, at: path, Self.productKeys)
        var product = Product(id: given ?? "", kind: .nonConsumable, path: path)
        if given == nil {
            guard let idKey = Self.idKeys.first(where: { key in members.contains { $0.key == key } }),
                  let node = members.first(where: { $0.key == idKey })?.node else {
                throw error("this product dictionary has no product ID (expected one of: \(Self.idKeys.joined(separator: ", ")))", at: path)
            }
            guard let text = node.scalarText, !text.isEmpty else {
                throw error("\(idKey) should be a product ID (a non-empty string), found \(node.kind.article)", at: "\(path).\(idKey)")
            }
            product.id = text
            product.fieldPaths[.id] = "\(path).\(idKey)"
        }
        var stated = false
        for (key, node) in members {
            let keyPath = "\(path).\(key)"
            let kind: ProductKind?
            switch key {
            case "consumable", "Consumable", "isConsumable":
                guard case .scalar(let text, .bool) = node.value else {
                    throw error("\(key) should be true or false, found \(node.kind.article)", at: keyPath)
                }
                kind = text == "true" ? .consumable : .nonConsumable
            case "ProductType", "productType":
                kind = try productType(node, at: keyPath)
            case "Type", "type":
                guard let text = node.scalarText else { throw error("\(key) should be a product type, found \(node.kind.article)", at: keyPath) }
                kind = try kindWord(text, at: keyPath)
            case "Tier", "tier":
                // An App Store price tier: a tier, not a price (an amount only through a price-tier table).
                guard case .scalar(let text, _) = node.value, let tier = Int(text), tier >= 0 else {
                    throw error("\(key) should be an App Store price tier (a whole number), found \(node.scalarText.map { "\"\($0)\"" } ?? node.kind.article)", at: keyPath)
                }
                if tier >= 1 {
                    product.priceTier = tier
                    product.fieldPaths[.prices] = keyPath
                }
                kind = nil
            default:
                kind = nil
            }
            guard let kind else { continue }
            if stated, kind != product.kind {
                throw error("\(product.id) states two kinds: \(product.kind) and \(kind)", at: keyPath)
            }
            product.kind = kind
            product.fieldPaths[.kind] = keyPath
            stated = true
        }
        return (product, stated)
    }

    /// `ProductType`: 0 non-consumable, 1 consumable, 2 subscription (or a word).
    private func productType(_ node: DocNode, at path: String) throws -> ProductKind {
        guard case .scalar(let text, let valueKind) = node.value else {
            throw error("ProductType should be 0, 1 or 2, found \(node.kind.article)", at: path)
        }
        if valueKind == .string, Int(text) == nil { return try kindWord(text, at: path) }
        switch text {
        case "0": return .nonConsumable
        case "1": return .consumable
        case "2": return .autoRenewableSubscription
        default: throw error("ProductType \(text) is not one Tally knows (0 non-consumable, 1 consumable, 2 subscription)", at: path)
        }
    }

    private func kindWord(_ text: String, at path: String) throws -> ProductKind {
        let folded = String(text.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic })
        switch folded {
        case "consumable": return .consumable
        case "nonconsumable": return .nonConsumable
        case "nonrenewing", "nonrenewingsubscription": return .nonRenewingSubscription
        case "subscription", "autorenewable", "autorenewablesubscription", "recurringsubscription", "autorenewing":
            return .autoRenewableSubscription
        default:
            throw error("unknown product type \"\(text)\" (expected Consumable, NonConsumable, NonRenewingSubscription or AutoRenewable)", at: path)
        }
    }

    private func error(_ message: String, at path: String) -> FormatError {
        FormatError(message, file: file, position: .unknown, path: path)
    }
}
