import TallyModel

/// Reads the property list of products an app ships (XML or binary), in every shape seen in
/// public projects, recognised from the content:
///
/// - a list of product IDs: `[id, ...]`;
/// - `{Products: [id, ...]}`;
/// - "format 2": `{Products: [...], Subscriptions: [{Group: "vip", Products: [...]}]}` (a
///   subscription's level is its place in its group's list, the first being level 1);
/// - a dictionary keyed by product ID, whose values are display data (or product dictionaries);
/// - a list of product dictionaries: `productIdentifier` (or `ProductId`, `productID`, `id`) with
///   `consumable` (a boolean), `ProductType` (0 non-consumable, 1 consumable, 2 auto-renewable
///   subscription), `Type` (`Consumable`, `NonConsumable`, ...), `Title`, `Description`, `Tier`.
///
/// Property lists have no line numbers: every value is located by its key path
/// (`Subscriptions[0].Products[2]`). A plist knows only what its shape says: IDs always; kinds
/// when every product states one; groups and levels with a `Subscriptions` section. Price tiers
/// are not prices and are not read as prices.
public enum PropertyListReader: SourceReader {
    public static let format = SourceFormat.propertyList
    public static let extensions = ["plist"]
    public static let fuzzTargets = [FuzzTarget("plist", file: "Products.plist")]

    public static func sniff(_ head: String, file: String) -> Bool {
        head.hasPrefix("bplist") || head.contains("<plist") || head.contains("<!DOCTYPE plist")
    }

    /// A property list is a product source only in a product list's shape (`PropertyListShape`):
    /// an Info.plist, entitlements or a scheme list is not, nor a file that does not parse.
    public static let decidedByContent = true

    public static func holdsProducts(_ bytes: [UInt8], file: String) -> Bool? {
        guard let root = try? PropertyListDocument.parse(bytes: bytes, file: file) else { return false }
        return PropertyListShape.of(root) == .products
    }

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        let root = try PropertyListDocument.parse(bytes: bytes, file: file)
        var builder = PropertyListProducts(file: file)
        switch root.value {
        case .array(let elements):
            try builder.readList(elements, path: "")
        case .object(let members):
            let shape = PropertyListShape.of(root)
            if case .other(let what) = shape, members.contains(where: { PropertyListShape.isForeign($0.key) }) {
                throw FormatError("this property list is not a product list: it is \(what). Tally reads an app's product lists: "
                                  + knownShapes.joined(separator: "; "), file: file, position: .unknown)
            }
            if let products = members.first(where: { $0.key == "Products" })?.node {
                builder.account.check(members, at: "", rootKeys)
                try builder.readProductsSection(products, subscriptions: members.first { $0.key == "Subscriptions" }?.node)
            } else if case .other(let problem) = shape {
                throw unrecognised(file: file, found: problem)
            } else {
                try builder.readKeyedByID(members)
            }
        case .scalar(_, let kind):
            throw unrecognised(file: file, found: "the whole file is \(kind.article)")
        }
        return builder.catalog()
    }

    /// The keys of `{Products, Subscriptions}` (StoreHelper's shape); a dictionary keyed by
    /// product ID has nothing but IDs at the top.
    static let rootKeys = KeyVocabulary(nil, read: ["Products", "Subscriptions"])

    /// The shapes Tally knows, for the error an unrecognised one gets.
    static let knownShapes = [
        "a list of product IDs",
        "{Products: [IDs]}",
        "{Products: [...], Subscriptions: [{Group, Products}]}",
        "a dictionary keyed by product ID",
        "a list of dictionaries with productIdentifier (and consumable, ProductType, Title, Description, Tier)",
    ]

    static func unrecognised(file: String, found: String, path: String? = nil) -> FormatError {
        FormatError("this property list has a shape Tally does not recognise (\(found)). Tally reads: "
                    + knownShapes.joined(separator: "; ")
                    + ". A StoreKit configuration saved as XML is read as StoreKit when its format is named",
                    file: file, position: .unknown, path: path).with(.readAsStoreKit)
    }

    /// Characters a product ID may have here (lint reports the ones the App Store refuses).
    static func isIDCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-": return true
        default: return false
        }
    }
}
