import Foundation
import TallyFormats
import TallyModel

/// Fuzz targets for every reader. Built with `-DFUZZING -sanitize=fuzzer,address` (see
/// fuzz/run.sh) it is a libFuzzer target whose reader is chosen by `TALLY_FUZZ_READER`; built
/// normally it replays inputs: `TallyFuzz READER FILE ...` (the regression corpus uses that), and
/// `TallyFuzz --list` prints every target and its format (fuzz/run.sh runs them all).
enum Fuzz {
    /// Target name → (format, the file name the input pretends to have): every reader's
    /// `fuzzTargets` (`SourceLoader.readers`, the one list of readers), and `mapping`, which fuzzes
    /// the tally-mapping/1 parser itself.
    static let readers: [String: (SourceFormat?, String)] = {
        var table: [String: (SourceFormat?, String)] = ["mapping": (nil, "tally-mapping.yml")]
        for reader in SourceLoader.readers {
            for target in reader.fuzzTargets { table[target.name] = (reader.format, target.file) }
        }
        return table
    }()

    /// The shipped server example's mapping, for the `mapped` target (run from the repository root).
    static let exampleMapping = try? TallyMapping.load(path: "examples/server/tally-mapping.yml")

    /// Reads one input; a `FormatError` is the expected answer to bad input, anything else traps.
    static func run(_ bytes: [UInt8], reader: String) {
        guard let (format, name) = readers[reader] else {
            fatalError("unknown reader \(reader); known: \(readers.keys.sorted().joined(separator: ", "))")
        }
        do {
            guard let format else {
                _ = try TallyMapping.parse(bytes: bytes, file: name)
                return
            }
            var options = ReadOptions()
            options.mapping = exampleMapping
            _ = try SourceLoader.load(bytes: bytes, file: name, format: format, options: options)
        } catch is FormatError {
            // A clear, located error.
        } catch {
            fatalError("\(reader): a reader threw something other than a FormatError: \(error)")
        }
    }
}

#if FUZZING
nonisolated(unsafe) private var selectedReader = ProcessInfo.processInfo.environment["TALLY_FUZZ_READER"] ?? "storekit"

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    Fuzz.run(bytes, reader: selectedReader)
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// SwiftPM links executables with `main` = `TallyFuzz_main`: hand control to libFuzzer's driver.
@_cdecl("TallyFuzz_main")
public func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    var count = argc
    var arguments = argv
    return runDriver(&count, &arguments) { data, size in fuzzOne(data, size) }
}
#else
@main
enum Replay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        if arguments.first == "--list" {
            // The one list of fuzz targets: fuzz/run.sh and the replay tests read it from here.
            for (name, target) in Fuzz.readers.sorted(by: { $0.key < $1.key }) { print(name, target.0?.rawValue ?? "-") }
            return
        }
        guard let reader = arguments.first, Fuzz.readers[reader] != nil else {
            print("usage: TallyFuzz READER FILE ...  (READER: \(Fuzz.readers.keys.sorted().joined(separator: ", ")))")
            exit(2)
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { print("cannot read \(path)"); exit(2) }
            Fuzz.run([UInt8](data), reader: reader)
        }
    }
}
#endif
