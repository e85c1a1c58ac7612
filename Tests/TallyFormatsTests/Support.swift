import Foundation
import TallyFormats
import TallyModel

/// Paths to test data: this target's own fixtures, and the shared real-world files beside the repo.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let realWorld = repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures/realworld")
    /// Whether ../shared/fixtures/realworld exists (CI always has it; a user's clone may not).
    static let sharedAvailable = FileManager.default.fileExists(atPath: realWorld.path)
    static let sharedMissing = "../shared/fixtures/realworld is absent; real-world fixture tests are skipped"

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }
    static func realWorld(_ name: String) -> String { realWorld.appendingPathComponent(name).path }
    static func repo(_ name: String) -> String { repository.appendingPathComponent(name).path }

    /// Reads `text` as if it were the file `name`.
    static func load(_ text: String, as name: String) throws -> Catalog {
        try SourceLoader.load(bytes: Array(text.utf8), file: name)
    }

    /// The error reading `text` as `name` gives, or nil if it reads.
    static func error(_ text: String, as name: String) -> FormatError? {
        do {
            _ = try load(text, as: name)
            return nil
        } catch let error as FormatError {
            return error
        } catch {
            return FormatError("unexpected error type: \(error)", file: name, position: .unknown)
        }
    }
}
