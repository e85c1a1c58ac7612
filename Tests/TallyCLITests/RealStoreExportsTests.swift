import Foundation
import Testing

/// Every real store export under `../shared/fixtures/realworld/stores/` (and the Unity app's
/// product files under `apps/avvault-unity-codeless/`), through the built binary (issue 38,
/// "nothing dropped without a word"): `tally show --format json FILE` lists exactly the products
/// an independent count of the raw file finds, with as many prices, or the file is refused
/// (exit 2) with a sentence that says what it is. A silent 0 products is a failure; a file of a
/// shape this test cannot count fails too, so that a new real file gets its count.
@Suite(.enabled(if: CLIRunner.sharedAvailable, "../shared is absent: the real store exports are skipped"))
struct RealStoreExportsTests {
    static let realWorld = CLIRunner.shared.appendingPathComponent("fixtures/realworld")

    /// The Unity app's product files (the rest of the app is not a product list).
    static let appProductFiles = ["apps/avvault-unity-codeless/Assets/Resources/IAPProductCatalog.json", "apps/avvault-unity-codeless/GooglePlayProductCatalog.csv"]

    /// Every regular file under stores/, then the app's product files, as paths from realworld/.
    static var files: [String] {
        guard CLIRunner.sharedAvailable else { return [] }
        let stores = realWorld.appendingPathComponent("stores")
        var found: [String] = []
        let walker = FileManager.default.enumerator(at: stores, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            found.append("stores/" + url.path.dropFirst(stores.path.count + 1))
        }
        return found.sorted() + appProductFiles
    }

    /// gradle-play-publisher's folders, each read as one source.
    static let folders = ["stores/gpp/play", "stores/gpp/play/products", "stores/gpp/play/subscriptions"]

    /// What the raw file holds, counted here without Tally.
    struct Expected {
        /// Product IDs as Tally names them (a base plan as PRODUCT_ID:BASE_PLAN_ID).
        var ids: [String] = []
        /// Prices over all products, read with `--play-default-territory US` (a Play default price
        /// then has its territory).
        var prices = 0
        /// Products with an App Store price tier (Unity), and Google Play default prices the file
        /// holds without a currency (Unity's `googlePrice`), each named on standard error.
        var tiers = 0
        var unnamedCurrencyPrices = 0
        /// Sentences standard error must hold (why a product was not read).
        var said: [String] = []
        /// Set when the file is refused: the sentence that says what it is.
        var refusal: String?
    }

    @Test(arguments: files)
    func aRealFileIsReadExactlyOrRefusedByName(_ path: String) throws {
        try Self.verify(path, Self.expected(file: Self.realWorld.appendingPathComponent(path)))
    }

    @Test(arguments: folders)
    func aGradlePlayPublisherFolderIsReadAsOneSource(_ path: String) throws {
        try Self.verify(path, Self.expected(folder: Self.realWorld.appendingPathComponent(path)))
    }

    /// Without a default territory a Play Console file's auto-filled prices are not placed, and
    /// each is named on standard error: no price is lost without a word.
    @Test(arguments: files.filter { $0.hasSuffix(".csv") })
    func aPlayConsoleFilesDefaultPricesAreNamedWithoutADefaultTerritory(_ path: String) throws {
        let expected = try Self.expected(file: Self.realWorld.appendingPathComponent(path))
        let output = try CLIRunner.run(["show", "--format", "json", path], in: Self.realWorld)
        #expect(output.status == 0, "\(output.stderr)")
        let named = output.stderr.components(separatedBy: "\n").filter { $0.contains("warning:") && $0.contains("Auto Fill Prices is true") }
        #expect(named.count == expected.prices, "\(path): \(output.stderr)")
    }

    // MARK: - Running Tally

    static func verify(_ path: String, _ expected: Expected) throws {
        let output = try CLIRunner.run(["show", "--format", "json", "--play-default-territory", "US", path], in: realWorld)
        if let refusal = expected.refusal {
            #expect(output.status == 2, "\(path) should be refused: \(output.stdout)")
            #expect(output.stderr.contains(refusal), "\(path): \(output.stderr)")
            return
        }
        #expect(output.status == 0, "\(path): \(output.stderr)")
        let products = try #require(try jsonReport(output)["products"] as? [[String: Any]], "\(path)")
        #expect(products.compactMap { $0["id"] as? String }.sorted() == expected.ids.sorted(), "\(path)")
        #expect(products.reduce(0) { $0 + (($1["prices"] as? [String: Any])?.count ?? 0) } == expected.prices, "\(path): prices")
        #expect(products.filter { $0["price_tier"] != nil }.count == expected.tiers, "\(path): price tiers")
        let unnamedCurrency = output.stderr.components(separatedBy: "\n").filter { $0.contains("in a currency the file does not name") }
        #expect(unnamedCurrency.count == expected.unnamedCurrencyPrices, "\(path): \(output.stderr)")
        for sentence in expected.said { #expect(output.stderr.contains(sentence), "\(path): \(output.stderr)") }
        if expected.ids.isEmpty {
            #expect(!expected.said.isEmpty, "\(path): 0 products must come with a sentence that says why")
        }
    }

    // MARK: - Counting the raw files

    static func expected(file url: URL) throws -> Expected {
        let data = try Data(contentsOf: url)
        let name = url.lastPathComponent
        if data.isEmpty { return Expected(refusal: "error: the file is empty (0 bytes): nothing to read") }
        let text = String(decoding: data, as: UTF8.self)
        if text.hasPrefix("Product ID,") { return playConsole(text) }
        let json = try JSONSerialization.jsonObject(with: data)
        guard let object = json as? [String: Any] else {
            Issue.record("\(name): a real file of a shape this test does not count; add its count")
            return Expected()
        }
        if Set(object.keys) == ["regionsVersion"] {
            return Expected(refusal: "error: this is gradle-play-publisher's subscription metadata ({\"regionsVersion\": ...}), not a product")
        }
        if let products = object["products"] as? [[String: Any]], object["appleSKU"] != nil || products.contains(where: { $0["storeIDs"] != nil }) {
            return unity(products)
        }
        if let sku = object["sku"] as? String {
            return Expected(ids: [sku], prices: (object["prices"] as? [String: Any])?.count ?? 0)
        }
        if let productID = object["productId"] as? String, object["packageName"] != nil {
            let plans = object["basePlans"] as? [[String: Any]] ?? []
            var expected = Expected(ids: plans.compactMap { ($0["basePlanId"] as? String).map { "\(productID):\($0)" } })
            expected.prices = plans.reduce(0) { $0 + (($1["regionalConfigs"] as? [Any])?.count ?? 0) }
            if plans.isEmpty { expected.said = ["warning: \(productID): this subscription has no base plans, so it sells nothing"] }
            return expected
        }
        Issue.record("\(name): a real file of a shape this test does not count; add its count")
        return Expected()
    }

    /// A gradle-play-publisher folder: the `.json` files of `products/` and `subscriptions/`
    /// (or of the folder itself), less each subscription's `NAME.metadata.json`, as gradle-play-publisher reads them.
    static func expected(folder url: URL) throws -> Expected {
        let manager = FileManager.default
        var folders = [url]
        for sub in ["products", "subscriptions"] where manager.fileExists(atPath: url.appendingPathComponent(sub).path) {
            folders.append(url.appendingPathComponent(sub))
        }
        var total = Expected()
        for folder in folders {
            let names = try manager.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".json") }
            for name in names.sorted() where !(name.hasSuffix(".metadata.json") && names.contains(String(name.dropLast(".metadata.json".count)) + ".json")) {
                let one = try expected(file: folder.appendingPathComponent(name))
                #expect(one.refusal == nil, "\(name) in a folder")
                total.ids += one.ids
                total.prices += one.prices
                total.said += one.said
            }
        }
        return total
    }

    /// Unity's `IAPProductCatalog.json`: a product is its `id`, else its App Store or Google Play
    /// store ID; `applePriceTier` 1 and up is a tier; a non-zero `googlePrice` has no currency.
    static func unity(_ products: [[String: Any]]) -> Expected {
        var expected = Expected()
        for product in products {
            let storeIDs = (product["storeIDs"] as? [[String: Any]] ?? []).reduce(into: [String: String]()) { ids, entry in
                if let store = entry["store"] as? String, let id = entry["id"] as? String, !id.isEmpty, ids[store] == nil { ids[store] = id }
            }
            let id = (product["id"] as? String).flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
            guard let shown = storeIDs["AppleAppStore"] ?? storeIDs["MacAppStore"] ?? id ?? storeIDs["GooglePlay"] else {
                expected.said.append("a product with an empty id")
                continue
            }
            expected.ids.append(shown)
            if let tier = product["applePriceTier"] as? Int, tier >= 1 { expected.tiers += 1 }
            if let price = product["googlePrice"] as? [String: Any], let amount = price["num"] as? Double, amount != 0 { expected.unnamedCurrencyPrices += 1 }
        }
        return expected
    }

    /// A Play Console CSV: one product per published row; its price cell is one default price
    /// (Auto Fill Prices true) or REGION; MICROS pairs.
    static func playConsole(_ text: String) -> Expected {
        var expected = Expected()
        let rows = text.components(separatedBy: .newlines).filter { !$0.isEmpty }.map(cells)
        guard let header = rows.first else { return expected }
        func column(_ name: String) -> Int? { header.firstIndex { $0.lowercased() == name.lowercased() } }
        guard let idColumn = column("Product ID"), let stateColumn = column("Published State"),
              let autofillColumn = column("Auto Fill Prices"), let priceColumn = column("Price") else {
            Issue.record("a Play Console CSV without the columns this test counts by")
            return expected
        }
        for row in rows.dropFirst() where row.count > priceColumn && row[stateColumn] == "published" {
            expected.ids.append(row[idColumn])
            let parts = row[priceColumn].split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            expected.prices += row[autofillColumn] == "true" && parts.count == 1 ? 1 : parts.count / 2
        }
        return expected
    }

    /// The cells of one CSV line (quoted cells kept whole, doubled quotes undone).
    static func cells(_ line: String) -> [String] {
        var cells: [String] = []
        var current = ""
        var quoted = false
        let characters = Array(line)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if quoted, character == "\"", index + 1 < characters.count, characters[index + 1] == "\"" {
                current.append("\"")
                index += 1
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                cells.append(current)
                current = ""
            } else {
                current.append(character)
            }
            index += 1
        }
        cells.append(current)
        return cells
    }
}
