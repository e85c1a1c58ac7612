import Foundation
import TallyModel

/// A StoreKit configuration saved as a package (issue 50): recent Xcode writes `Name.storekit/`, a
/// folder holding `Configuration.storekit` and `Assets/` (the promotional images its
/// `promotionalImageID`s name). It is read wherever a `.storekit` file is (arguments, globs,
/// `init`, `diff` at a revision) as one StoreKit configuration, named by the package; each
/// value's location names the file inside it.
extension StoreKitReader: DirectorySourceReader {
    /// The file inside a package that holds the configuration.
    public static let packageConfiguration = "Configuration.storekit"

    /// A folder named `*.storekit` that holds `Configuration.storekit`.
    public static func claims(directory path: String) -> Bool {
        let name = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard name.lowercased().hasSuffix(".storekit") else { return false }
        var isDirectory: ObjCBool = false
        let inner = (name as NSString).appendingPathComponent(packageConfiguration)
        return FileManager.default.fileExists(atPath: inner, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    public static func read(directory path: String, options: ReadOptions) throws -> Catalog {
        let name = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        let inner = (name as NSString).appendingPathComponent(packageConfiguration)
        var catalog = try read(path: inner, options: options)
        catalog.issues += missingImages(inner: inner, assets: (name as NSString).appendingPathComponent("Assets"), options: options)
        // Named by the package; each location still names the file and its line.
        catalog.parts = [SourcePart(file: inner, firstLine: 1)]
        catalog.file = name
        return catalog
    }

    /// Each `"promotionalImageID" : "ID"` of the package's configuration whose image (`Assets/ID.*`)
    /// the package does not hold: a `promotional-image` finding at the key's line.
    static func missingImages(inner: String, assets: String, options: ReadOptions) -> [SourceIssue] {
        guard let bytes = try? SourceLoader.readBytes(path: inner, maxBytes: options.maxBytes) else { return [] }
        let images = Set(((try? FileManager.default.contentsOfDirectory(atPath: assets)) ?? []).map { name in
            name.split(separator: ".", maxSplits: 1).first.map(String.init) ?? name
        })
        let key = Array("\"promotionalImageID\"".utf8)
        var issues: [SourceIssue] = []
        var line = 1, lineStart = 0, i = 0, product: String?
        let productKey = Array("\"productID\"".utf8)
        func value(after end: Int) -> (String, Int)? {
            var j = end
            while j < bytes.count, bytes[j] == 0x20 || bytes[j] == 0x3A || bytes[j] == 0x09 { j += 1 }
            guard j < bytes.count, bytes[j] == 0x22 else { return nil }
            var k = j + 1
            while k < bytes.count, bytes[k] != 0x22, bytes[k] != 0x0A, k - j < 256 { k += 1 }
            guard k < bytes.count, bytes[k] == 0x22 else { return nil }
            return (String(decoding: bytes[(j + 1)..<k], as: UTF8.self), j)
        }
        while i < bytes.count, issues.count < 1_000 {
            if bytes[i] == 0x0A { line += 1; lineStart = i + 1; i += 1; continue }
            if bytes[i] == 0x22, bytes[i...].starts(with: productKey), let (id, _) = value(after: i + productKey.count) { product = id }
            if bytes[i] == 0x22, bytes[i...].starts(with: key), let (id, at) = value(after: i + key.count), !id.isEmpty, !images.contains(id) {
                issues.append(SourceIssue(rule: .promotionalImage, productID: product, field: .localizations,
                                          message: "the promotional image \(id) is not in the package's Assets folder",
                                          position: Position(line: line, column: at - lineStart + 1)))
            }
            i += 1
        }
        return issues
    }
}
