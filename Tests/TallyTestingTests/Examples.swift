import Foundation

/// The shipped examples, and broken copies of them.
enum Examples {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let config = "configs/ExampleApp.storekit"
    static let catalog = "catalog/products.yaml"

    /// A temporary copy of configs/ and catalog/ with each (old, new) replacement made in the
    /// catalogue; each must occur exactly once.
    static func broken(_ edits: [(String, String)]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-testing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for folder in ["configs", "catalog"] {
            try FileManager.default.copyItem(at: repository.appendingPathComponent(folder), to: directory.appendingPathComponent(folder))
        }
        let file = directory.appendingPathComponent(catalog)
        var text = try String(contentsOf: file, encoding: .utf8)
        for (old, new) in edits {
            guard text.components(separatedBy: old).count == 2 else { throw ExampleError(description: "\(old) does not occur exactly once") }
            text = text.replacingOccurrences(of: old, with: new)
        }
        try text.write(to: file, atomically: true, encoding: .utf8)
        return directory
    }

    /// Three mismatches: two prices and a period.
    static let threeMismatches = [
        ("prices: {USA: \"5.99\"", "prices: {USA: \"6.49\""),
        ("prices: {USA: \"12.99\"", "prices: {USA: \"13.99\""),
        ("period: P3M\n", "period: P6M\n"),
    ]

    struct ExampleError: Error, CustomStringConvertible {
        var description: String
    }
}
