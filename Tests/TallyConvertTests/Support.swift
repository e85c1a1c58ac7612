import Foundation
import TallyReport
import Testing
import TallyCheck
import TallyConvert
import TallyFormats
import TallyModel

/// The sources the round trips run over: every real-world file beside the repository and every
/// readable fixture of the project.
enum Sources {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let realWorld = repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures/realworld")
    static let sharedAvailable = FileManager.default.fileExists(atPath: realWorld.path)
    static let sharedMissing = "../shared/fixtures/realworld is absent; real-world round trips are skipped"

    /// One source to convert: a path and how to read it.
    struct Source: Sendable, CustomTestStringConvertible {
        var path: String
        var mapping: String? = nil
        var priceTiers: String? = nil
        var testDescription: String {
            (path.replacingOccurrences(of: repository.deletingLastPathComponent().path + "/", with: ""))
                + (priceTiers == nil ? "" : " with price tiers")
        }

        func options() throws -> ReadOptions {
            var options = ReadOptions()
            if let mapping { options.mapping = try TallyMapping.load(path: mapping) }
            if let priceTiers { options.priceTiers = try PriceTierTable.load(path: priceTiers) }
            return options
        }

        func read() throws -> Catalog { try SourceLoader.load(path: path, options: options()) }
    }

    /// Real-world files Tally reads (the empty one is left out: there is nothing to convert).
    static var realWorldFiles: [Source] {
        guard sharedAvailable else { return [] }
        var sources: [Source] = []
        for folder in ["storekit", "plist", "xml"] {
            let directory = realWorld.appendingPathComponent(folder)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
            for name in names where !name.contains("empty") {
                sources.append(Source(path: directory.appendingPathComponent(name).path))
            }
        }
        return sources
    }

    static var realWorldStoreKit: [Source] { realWorldFiles.filter { $0.path.hasSuffix(".storekit") } }

    static func repo(_ path: String) -> String { repository.appendingPathComponent(path).path }

    /// The project's own readable sources.
    static let fixtures: [Source] = [
        Source(path: repo("configs/ExampleApp.storekit")),
        Source(path: repo("catalog/products.yaml")),
        Source(path: repo("examples/server/products.json"), mapping: repo("examples/server/tally-mapping.yml")),
        Source(path: repo("Tests/TallyCLITests/Fixtures/plist/CalmlyProducts.plist")),
        Source(path: repo("Tests/TallyCLITests/Fixtures/csv/calmly-prices.csv")),
        Source(path: repo("Tests/TallyCLITests/Fixtures/app-store-package/metadata.xml")),
        Source(path: repo("Tests/TallyCLITests/Fixtures/app-store-package/metadata.xml"),
               priceTiers: repo("Tests/TallyCLITests/Fixtures/app-store-package/price-tiers.csv")),
        Source(path: repo("Tests/TallyCLITests/Fixtures/app-store-connect/calmly")),
        Source(path: repo("Tests/TallyFormatsTests/Fixtures/plist/binary-productIdentifier.plist")),
        Source(path: repo("Tests/TallyFormatsTests/Fixtures/app-store-connect/legacy-v1-inAppPurchases.json")),
        Source(path: repo("Tests/TallyFormatsTests/Fixtures/seeds/small-catalog.json")),
    ]

    static var all: [Source] { fixtures + realWorldFiles }
}

enum RoundTrip {
    /// Converts `catalog` and reads the result back as the file `name`.
    static func convert(_ catalog: Catalog, to target: ConvertTarget, name: String? = nil,
                        storefront: Territory? = nil, version: StoreKitVersion = .v4) throws -> (text: String, notes: [String], read: Catalog) {
        let conversion = Converter.convert(catalog, options: ConvertOptions(target: target, storefront: storefront, storeKitVersion: version))
        let file = name ?? "converted.\(target.fileExtension)"
        let read = try SourceLoader.load(bytes: Array(conversion.text.utf8), file: file)
        return (conversion.text, conversion.notes, read)
    }

    /// The findings `tally check ORIGINAL CONVERTED` would report that the original does not
    /// have on its own: every comparison finding, and lint findings new in the converted file.
    static func findings(_ original: Catalog, _ converted: Catalog) -> [String] {
        let sides = original.format.role == .configuration || converted.format.role == .catalog
            ? (original, converted) : (converted, original)
        let checker = Checker(recordsSubjects: false)
        let result = checker.check(configurations: [sides.0], catalogs: [sides.1])
        let alone = Set(checker.lint([original]).findings.map { "\($0.ruleID) \($0.productID ?? "")" })
        return result.findings.filter { finding in
            let inConverted = finding.primaryLocation?.file == converted.file
            let isLint = finding.right == nil && finding.left?.role == nil
            return !isLint || (inConverted && !alone.contains("\(finding.ruleID) \(finding.productID ?? "")"))
        }.map { "\($0.ruleID): \($0.message)" }
    }
}
