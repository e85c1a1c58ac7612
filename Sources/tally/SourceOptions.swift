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

    /// The reader settings these options ask for.
    func readOptions() throws -> ReadOptions {
        guard maxInputMb > 0 else { throw ValidationError("--max-input-mb must be a positive number of megabytes") }
        return ReadOptions(maxBytes: maxInputMb * 1024 * 1024)
    }
}

extension SourceFormat: ExpressibleByArgument {}
