import ArgumentParser

/// Where and how a command writes its report.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "Write the report to FILE instead of standard output (written atomically).")
    var output: String?

    @Flag(name: .long, help: "Never colour the output (colour is only used on a terminal anyway; NO_COLOR is honoured).")
    var noColor = false
}
