import Foundation
import Testing
@testable import TallyFormats
import TallyModel

/// The streaming JSON reader must read exactly what Foundation's JSONSerialization reads: the
/// same files through both, decoded by the same decoders, give the same catalogue (positions
/// aside: Foundation keeps none).
@Suite struct ReferenceReaderTests {
    /// Foundation's parse, as a tree the shared decoders can walk.
    static func foundationTree(_ bytes: [UInt8]) throws -> DocNode {
        func convert(_ value: Any) -> DocNode {
            switch value {
            case let dictionary as [String: Any]:
                return DocNode(.object(dictionary.keys.sorted().map { (key: $0, node: convert(dictionary[$0] as Any)) }))
            case let array as [Any]:
                return DocNode(.array(array.map(convert)))
            case let string as String:
                return DocNode(.scalar(string, .string))
            case is NSNull:
                return DocNode(.scalar("null", .null))
            case let number as NSNumber:
                if String(cString: number.objCType) == "c" || type(of: number) == type(of: NSNumber(value: true)) && "\(number)" != "\(number.intValue)" {
                    return DocNode(.scalar(number.boolValue ? "true" : "false", .bool))
                }
                return DocNode(.scalar(number.stringValue, .number))
            default:
                if let bool = value as? Bool { return DocNode(.scalar(bool ? "true" : "false", .bool)) }
                return DocNode(.scalar("\(value)", .string))
            }
        }
        return convert(try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]))
    }

    /// The catalogue without positions, for comparing readers that keep different ones.
    static func withoutPositions(_ catalog: Catalog) -> [Product] {
        catalog.products.map { product in
            var product = product
            product.position = .unknown
            product.fieldPositions = [:]
            product.prices = product.prices.map { Price(territory: $0.territory, money: $0.money) }.sorted { $0.territory < $1.territory }
            func clean(_ offer: Offer) -> Offer {
                var offer = offer
                offer.position = .unknown
                offer.termPositions = OfferPositions()
                return offer
            }
            product.introductoryOffer = product.introductoryOffer.map(clean)
            product.otherIntroductoryOffers = product.otherIntroductoryOffers.map(clean)
            product.promotionalOffers = product.promotionalOffers.map(clean)
            product.codeOffers = product.codeOffers.map(clean)
            product.winbackOffers = product.winbackOffers.map(clean)
            product.billingPlans = product.billingPlans.map { plan in
                var plan = plan
                plan.position = .unknown
                plan.prices = plan.prices.map { Price(territory: $0.territory, money: $0.money) }
                return plan
            }
            return product
        }
    }

    static var jsonFixtures: [String] {
        let storeKit = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.realWorld.appendingPathComponent("storekit").path)) ?? []
        return storeKit.filter { $0.hasSuffix(".storekit") && !$0.contains("xmlplist") && !$0.contains("empty") }.sorted()
    }

    @Test(.enabled(if: Fixtures.sharedAvailable, Comment(rawValue: Fixtures.sharedMissing)), arguments: jsonFixtures)
    func storeKitFilesReadTheSameThroughFoundation(_ name: String) throws {
        let path = Fixtures.realWorld("storekit/\(name)")
        let bytes = try SourceLoader.readBytes(path: path)
        let fast = try SourceLoader.load(path: path)
        var tree = TreeReader(root: try Self.foundationTree(bytes), file: path)
        let reference = try StoreKitReader.decode(&tree)
        #expect(Self.withoutPositions(fast) == Self.withoutPositions(reference))
        #expect(fast.defaultTerritory == reference.defaultTerritory)
        #expect(fast.groups.map(\.productIDs) == reference.groups.map(\.productIDs))
    }

    @Test func theShippedExampleAndASpecExampleReadTheSameThroughFoundation() throws {
        let configPath = Fixtures.repo("configs/ExampleApp.storekit")
        var tree = TreeReader(root: try Self.foundationTree(try SourceLoader.readBytes(path: configPath)), file: configPath)
        #expect(Self.withoutPositions(try SourceLoader.load(path: configPath)) == Self.withoutPositions(try StoreKitReader.decode(&tree)))

        let bytes = Array(CatalogReaderTests.json.utf8)
        var catalogTree = TreeReader(root: try Self.foundationTree(bytes), file: "c.json")
        let reference = try TallyCatalogReader.decode(&catalogTree, format: .tallyCatalogJSON)
        let fast = Self.withoutPositions(try Fixtures.load(CatalogReaderTests.json, as: "c.json"))
        let slow = Self.withoutPositions(reference)
        for (a, b) in zip(fast, slow) where a != b { Issue.record("\(a)\n  vs\n\(b)") }
        #expect(fast.count == slow.count)
    }
}
