import Foundation
import TallyModel

/// Reads an App Store package's `metadata.xml` (the iTMSTransporter format,
/// `<package xmlns="http://apple.com/itunes/importer" version="software5.x">`): the in-app
/// purchases under `software/software_metadata/in_app_purchases`, with the auto-renewable
/// subscriptions in `<subscription_group name="...">` (5.9) or `<family name="...">` (5.0).
///
/// Prices in a package are App Store price *tiers*. They are kept as `Product.priceTier` and
/// compared with tiers; with a `PriceTierTable` (`--price-tiers`) they also become amounts.
/// Introductory offers exist in a package only as free trials (`bonus_duration`,
/// `free_trial_duration`). Products with `cleared_for_sale` false are left out unless
/// `NOT_CLEARED_FOR_SALE` is among the included states.
///
/// The XML is parsed by libxml2 without network, DTDs or entities (see `SafeXML`).
public enum AppStorePackageReader: DirectorySourceReader {
    public static let format = SourceFormat.appStorePackage
    public static let extensions = ["xml"]
    public static let fuzzTargets = [FuzzTarget("app-store-package", file: "metadata.xml")]

    public static func sniff(_ head: String, file: String) -> Bool {
        head.contains("<package") && (head.contains("apple.com/itunes/importer") || head.contains("<software_metadata"))
    }

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        let root = try SafeXML.parse(bytes: bytes, file: file)
        guard root.name == "package" else {
            throw FormatError("this is not an App Store package metadata.xml: the root element is <\(root.name)>, not <package>",
                              file: file, position: root.position)
        }
        let lists = root.children("software").flatMap { $0.children("software_metadata") }.flatMap { $0.children("in_app_purchases") }
        guard !lists.isEmpty else {
            throw FormatError("no <in_app_purchases> under <package><software><software_metadata>: this package describes no in-app purchases",
                              file: file, position: root.position)
        }
        var decoder = PackageDecoder(file: file, options: options)
        for list in lists {
            decoder.account.check(list, PackageDecoder.listElements)
            for element in list.children {
                switch element.name {
                case "in_app_purchase": try decoder.readPurchase(element, group: nil)
                case "subscription_group", "family": try decoder.readGroup(element)
                default: continue
                }
            }
        }
        return decoder.catalog()
    }

    /// An `.itmsp` package folder, or any folder holding a `metadata.xml`.
    public static func claims(directory path: String) -> Bool {
        FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("metadata.xml"))
    }

    /// Reads the folder's `metadata.xml`.
    public static func read(directory path: String, options: ReadOptions) throws -> Catalog {
        let file = (path as NSString).appendingPathComponent("metadata.xml")
        let bytes = try SourceLoader.readBytes(path: file, maxBytes: options.maxBytes)
        guard !bytes.isEmpty else { throw FormatError("the file is empty (0 bytes): nothing to read", file: file, position: .unknown) }
        return try read(bytes: bytes, file: file, options: options)
    }
}
