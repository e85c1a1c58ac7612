import Foundation
import TallyDiff
import TallyFormats
import TallyModel

/// The shared real-world fixtures beside the repository, and the repository's own scripts.
enum Shared {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let root = repository.deletingLastPathComponent().appendingPathComponent("shared")
    static let storeKit = root.appendingPathComponent("fixtures/realworld/storekit")
    /// Whether ../shared/fixtures/realworld exists (CI always has it; a user's clone may not).
    static let available = FileManager.default.fileExists(atPath: storeKit.path)
    static let missing = "../shared/fixtures/realworld is absent; real-world diff tests are skipped"

    /// Reads a real StoreKit file, named by its file name alone (so expectations do not depend
    /// on where the repository is).
    static func storeKit(_ name: String) throws -> Catalog {
        let bytes = try SourceLoader.readBytes(path: storeKit.appendingPathComponent(name).path)
        return try SourceLoader.load(bytes: bytes, file: name)
    }
}
