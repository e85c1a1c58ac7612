import Foundation
import Testing

/// `price-point` through the built binary, offline: an App Store Connect snapshot holding the
/// price points a fetch saved (`examples/review-readiness/snapshot/price-points.json`) and a
/// catalogue priced off them; a malformed points file; a snapshot without points.
@Suite struct PricePointCLITests {
    static func copy() throws -> URL { try ReviewReadinessCLITests.copy() }

    static let catalogue = """
        format: tally-catalog/1
        products:
          - id: com.lumen.app.gems.100
            kind: consumable
            prices: {USA: "0.95", GBR: "0.99", JPN: "90"}
          - id: com.lumen.app.starter
            kind: non-consumable
            prices: {USA: "2.99", GBR: "2.49", JPN: "480"}
        """

    @Test func aCataloguePriceOffThePointsIsNamedWithItsNearestPointsAndExitsOne() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.catalogue.write(to: directory.appendingPathComponent("server.yaml"), atomically: true, encoding: .utf8)
        let run = try CLIRunner.run(["check", "--no-config", "server.yaml", "snapshot"], in: directory)
        #expect(run.status == 1, "\(run.stderr)\n\(run.stdout)")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let found = lines.filter { $0.contains("  price-point  ") }
        #expect(found.count == 2, "\(run.stdout)")
        #expect(found.contains { $0.hasSuffix("com.lumen.app.gems.100 costs 0.95 USD in USA, which is not an App Store price point there; the nearest are 0.89 USD and 0.99 USD") },
                "\(run.stdout)")
        // Below the lowest point: only that end is named.
        #expect(found.contains { $0.hasSuffix("com.lumen.app.gems.100 costs 90 JPY in JPN, which is not an App Store price point there; the lowest is 100 JPY") },
                "\(run.stdout)")
        // Each side is located: the catalogue's price, and the list of points it was checked against.
        #expect(run.stdout.contains("source: server.yaml:5:") && run.stdout.contains("  0.95 USD"), "\(run.stdout)")
        #expect(run.stdout.contains("catalog: snapshot/price-points.json:5:5  0.99 USD"), "\(run.stdout)")
        // starter has no JPN points in the snapshot: that price is not checked, and the coverage line says so.
        #expect(run.stdout.contains("compared: prices against App Store price points (snapshot/price-points.json, read 2026-11-20T09:30:00Z"), "\(run.stdout)")
        #expect(run.stdout.contains("not checked: 1 price in a product or territory whose points were not fetched"), "\(run.stdout)")
    }

    @Test func aMalformedPointsFileIsAnErrorAtItsLineAndExitsTwo() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("snapshot/price-points.json")
        // The second point of the first list: not an amount.
        try CLIRunner.edit(file, replacing: "{\"customerPrice\": \"0.39\", \"proceeds\": \"0.27\"}", with: "{\"customerPrice\": \"0,39\", \"proceeds\": \"0.27\"}")
        let run = try CLIRunner.run(["check", "--no-config", "Lumen.storekit", "snapshot"], in: directory)
        #expect(run.status == 2, "\(run.stderr)\n\(run.stdout)")
        #expect(run.stderr.contains("snapshot/price-points.json:7:25"), "\(run.stderr)")
        #expect(run.stderr.contains("\"customerPrice\" must be an amount such as \"4.99\", not \"0,39\""), "\(run.stderr)")
    }

    @Test func aListIndexThatDoesNotExistIsNamedAtItsLine() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("snapshot/price-points.json")
        try CLIRunner.edit(file, replacing: "\"territories\": {\"USA\": 3, \"GBR\": 4}", with: "\"territories\": {\"USA\": 3, \"GBR\": 9}")
        let run = try CLIRunner.run(["check", "--no-config", "Lumen.storekit", "snapshot"], in: directory)
        #expect(run.status == 2, "\(run.stderr)\n\(run.stdout)")
        #expect(run.stderr.contains("snapshot/price-points.json:"), "\(run.stderr)")
        #expect(run.stderr.contains("list 9 does not exist: the file has 5 lists (0 to 4)"), "\(run.stderr)")
    }

    @Test func withoutPointsNothingIsFoundAndTheCoverageSaysPricesWereNotChecked() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.removeItem(at: directory.appendingPathComponent("snapshot/price-points.json"))
        try Self.catalogue.write(to: directory.appendingPathComponent("server.yaml"), atomically: true, encoding: .utf8)
        let run = try CLIRunner.run(["check", "--no-config", "server.yaml", "snapshot"], in: directory)
        #expect(!run.stdout.contains("  price-point  "), "\(run.stdout)")
        #expect(run.stdout.contains("compared: prices against App Store price points: not checked, snapshot holds no price points"), "\(run.stdout)")
    }
}
