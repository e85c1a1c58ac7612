import ArgumentParser
import TallyFormats
import TallyModel

/// How sources are read: shared by every command that reads files.
struct SourceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Read every source as this format instead of detecting it (\(SourceFormat.allCases.map(\.rawValue).joined(separator: ", "))).",
        valueName: "format"))
    var inputFormat: SourceFormat?

    @Option(name: .long, help: ArgumentHelp("Refuse input files larger than this many megabytes.", valueName: "MB"))
    var maxInputMb: Int = 512

    @Option(name: .long, help: ArgumentHelp(
        "Read the server's own JSON or YAML through this tally-mapping/1 file: every .json, .yaml or .yml source that is not tally-catalog/1 (see docs/mapping-format.md).",
        valueName: "file"))
    var mapping: String?

    /// The reader settings these options ask for. A mapping file that cannot be read is an input error (exit 2).
    func readOptions() throws -> ReadOptions {
        guard maxInputMb > 0 else { throw ValidationError("--max-input-mb must be a positive number of megabytes") }
        var options = ReadOptions(maxBytes: maxInputMb * 1024 * 1024)
        if let mapping { options.mapping = try MappingFile.load(mapping) }
        return options
    }
}

extension SourceFormat: ExpressibleByArgument {}
