import Foundation
import TallyDiff
import TallyReport
import TallyFormats
import TallyModel
import Testing

/// Two generated catalogues (../shared/bench/gen_catalog.py with different seeds: different
/// prices in every territory, periods, offers, levels, moved and missing products): the diff is
/// complete and correct, checked change by change against bench/plain_diff.py, an independent
/// Python computation with json + dict.
@Suite(.enabled(if: Shared.available && Python.available, Comment(rawValue: "needs ../shared and python3")))
struct GeneratedDiffTests {
    static let generated: URL? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-diff-generated-\(UUID().uuidString)")
        for seed in [1, 2] {
            let output = Python.run([Shared.root.appendingPathComponent("bench/gen_catalog.py").path,
                                     directory.appendingPathComponent("seed\(seed)").path,
                                     "--products", "400", "--territories", "12", "--seed", "\(seed)"])
            guard output?.status == 0 else { return nil }
        }
        return directory
    }()

    @Test("Every change matches the Python computation, and so do the summary counts", arguments: ["catalog.json", "App.storekit"])
    func matchesPython(file: String) throws {
        // Given
        let directory = try #require(Self.generated, "gen_catalog.py failed")
        let old = directory.appendingPathComponent("seed1/\(file)").path, new = directory.appendingPathComponent("seed2/\(file)").path
        // When
        let result = CatalogDiffer().diff(old: try SourceLoader.load(path: old), new: try SourceLoader.load(path: new))
        // Then: the same (path, action) pairs, one by one
        let script = Shared.repository.appendingPathComponent("bench/plain_diff.py").path
        let expected = try #require(Python.run([script, old, new, "--changes"]), "plain_diff.py failed").stdout
            .split(separator: "\n").map(String.init)
        let actual = result.allChanges.map { "\($0.path)\t\($0.action)" }.sorted()
        #expect(actual.count == expected.count)
        #expect(actual == expected)
        #expect(actual.count > 400, "the seeds should differ in many places")
        // And the same counts
        let summaryText = try #require(Python.run([script, old, new]), "plain_diff.py failed").stdout
        let counts = try #require(try JSONSerialization.jsonObject(with: Data(summaryText.utf8)) as? [String: Any])
        let summary = result.summary
        #expect(counts["added"] as? Int == summary.added)
        #expect(counts["removed"] as? Int == summary.removed)
        #expect(counts["changed"] as? Int == summary.changed)
        #expect(counts["unchanged"] as? Int == summary.unchanged)
        #expect(counts["price_changes"] as? Int == summary.priceChanges)
        #expect(counts["price_increases"] as? Int == summary.priceIncreases)
        #expect(counts["price_decreases"] as? Int == summary.priceDecreases)
        #expect(counts["territories_with_price_changes"] as? Int == summary.territoriesWithPriceChanges)
        #expect(counts["attention"] as? Int == summary.attention)
        let reasons = try #require(counts["attention_reasons"] as? [String: Int])
        #expect(reasons == Dictionary(uniqueKeysWithValues: summary.attentionReasons.map { ($0.key.rawValue, $0.value) }))
    }

    @Test("The products gen_catalog.py leaves out of one seed's files are exactly the added and removed ones")
    func addedAndRemovedMatchTheGenerator() throws {
        let directory = try #require(Self.generated, "gen_catalog.py failed")
        let old = try SourceLoader.load(path: directory.appendingPathComponent("seed1/catalog.json").path)
        let new = try SourceLoader.load(path: directory.appendingPathComponent("seed2/catalog.json").path)
        let result = CatalogDiffer().diff(old: old, new: new)
        let oldIDs = Set(old.products.map(\.id)), newIDs = Set(new.products.map(\.id))
        #expect(Set(result.products.filter { $0.status == .removed }.map(\.productID)) == oldIDs.subtracting(newIDs))
        #expect(Set(result.products.filter { $0.status == .added }.map(\.productID)) == newIDs.subtracting(oldIDs))
        #expect(result.summary.changed + result.summary.unchanged == oldIDs.intersection(newIDs).count)
    }
}

/// Runs python3 scripts for cross-checks.
enum Python {
    static let available = run(["-c", "print(1)"])?.status == 0

    static func run(_ arguments: [String]) -> (status: Int32, stdout: String)? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
