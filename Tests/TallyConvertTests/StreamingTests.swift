import Foundation
import Testing
import TallyConvert
import TallyModel

/// The writers stream into a `ByteSink` (issue 30): what they hand on in pieces is the file they
/// return whole, and a sink whose reader went away stops them early.
@Suite struct StreamingTests {
    static let targets: [ConvertTarget] = ConvertTarget.allCases

    static func pieces(_ catalog: Catalog, _ target: ConvertTarget, threshold: Int) -> (bytes: [UInt8], count: Int, notes: [String]) {
        var bytes: [UInt8] = []
        var count = 0
        var sink = ByteSink(threshold: threshold) { piece in
            bytes += piece
            count += 1
            return true
        }
        let notes = Converter.write(catalog, options: ConvertOptions(target: target), to: &sink)
        sink.finish()
        return (bytes, count, notes)
    }

    @Test("pieces of any size add up to the whole file, with the same notes", arguments: Sources.fixtures)
    func piecesAddUp(_ source: Sources.Source) throws {
        let catalog = try source.read()
        for target in Self.targets where Converter.refusal(catalog, options: ConvertOptions(target: target)) == nil {
            let whole = Converter.convert(catalog, options: ConvertOptions(target: target))
            for threshold in [1, 7, 4096] {
                let streamed = Self.pieces(catalog, target, threshold: threshold)
                #expect(streamed.bytes == Array(whole.text.utf8), "\(target), pieces of \(threshold) bytes")
                #expect(streamed.notes == whole.notes, "\(target)")
            }
        }
    }

    @Test("products are handed on as they are written, not at the end")
    func handedOnAsWritten() throws {
        let catalog = try Sources.fixtures[1].read()  // catalog/products.yaml
        for target in [ConvertTarget.csv, .tallyCatalogJSON, .tallyCatalogYAML] {
            #expect(Self.pieces(catalog, target, threshold: 1).count > catalog.products.count / 2, "\(target)")
        }
    }

    @Test("a sink that cannot deliver stops the writer: nothing more is handed on")
    func stopsWhenClosed() throws {
        let catalog = try Sources.fixtures[1].read()
        for target in [ConvertTarget.csv, .tallyCatalogJSON, .tallyCatalogYAML] {
            var calls = 0
            var sink = ByteSink(threshold: 1) { _ in
                calls += 1
                return false
            }
            _ = Converter.write(catalog, options: ConvertOptions(target: target), to: &sink)
            sink.finish()
            #expect(calls == 1, "\(target)")
            #expect(!sink.isOpen)
        }
    }
}
