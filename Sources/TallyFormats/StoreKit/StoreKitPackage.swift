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
        // Named by the package; each location still names the file and its line.
        catalog.parts = [SourcePart(file: inner, firstLine: 1)]
        catalog.file = name
        return catalog
    }
}
