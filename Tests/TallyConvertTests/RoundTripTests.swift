import Foundation
import Testing
import TallyConvert
import TallyFormats
import TallyModel

/// Round trips are the test of `tally convert`: a source converted to a catalogue is consistent
/// with it, and a StoreKit file through a catalogue and back is consistent with the original.
struct RoundTripTests {
    @Test("source → catalogue (YAML and JSON) → check is consistent", arguments: Sources.all)
    func sourceToCatalogue(_ source: Sources.Source) throws {
        // Given any source Tally reads
        let original = try source.read()
        for target in [ConvertTarget.tallyCatalogYAML, .tallyCatalogJSON] {
            // When it is converted to a catalogue and read back
            let converted = try RoundTrip.convert(original, to: target)
            // Then checking the two finds nothing, and the catalogue claims no field the source does not know
            #expect(RoundTrip.findings(original, converted.read) == [], "\(target)")
            #expect(converted.read.knownFields.subtracting([.codeOffers]) == original.knownFields.subtracting([.codeOffers]), "\(target)")
            #expect(converted.read.products.map(\.id) == original.products.map(\.id) || Set(converted.read.products.map(\.id)) == Set(original.products.map(\.id)))
        }
    }

    @Test("source → CSV → check is consistent", arguments: Sources.all)
    func sourceToCSV(_ source: Sources.Source) throws {
        let original = try source.read()
        let converted = try RoundTrip.convert(original, to: .csv)
        #expect(RoundTrip.findings(original, converted.read) == [])
    }

    @Test("source → StoreKit → check is consistent", arguments: Sources.all)
    func sourceToStoreKit(_ source: Sources.Source) throws {
        let original = try source.read()
        let converted = try RoundTrip.convert(original, to: .storeKit)
        #expect(RoundTrip.findings(original, converted.read) == [])
    }

    @Test("storekit → catalogue → storekit → check against the original is consistent",
          .enabled(if: Sources.sharedAvailable, Comment(rawValue: Sources.sharedMissing)), arguments: Sources.realWorldStoreKit)
    func storeKitThroughCatalogue(_ source: Sources.Source) throws {
        let original = try source.read()
        let catalogue = try RoundTrip.convert(original, to: .tallyCatalogYAML)
        for version in StoreKitVersion.allCases {
            let back = try RoundTrip.convert(catalogue.read, to: .storeKit, name: "App.storekit", version: version)
            #expect(RoundTrip.findings(original, back.read) == [], "StoreKit \(version)")
            // Stable: converting the result again gives the same bytes.
            let again = try RoundTrip.convert(back.read, to: .storeKit, name: "App.storekit", version: version)
            #expect(again.text == back.text, "StoreKit \(version) is not stable")
        }
    }

    @Test("every storekit file converts to the same bytes twice", arguments: Sources.all)
    func stable(_ source: Sources.Source) throws {
        let original = try source.read()
        for target in ConvertTarget.allCases {
            let first = Converter.convert(original, options: ConvertOptions(target: target))
            let second = Converter.convert(try source.read(), options: ConvertOptions(target: target))
            #expect(first == second, "\(target)")
        }
    }
}
