import ArgumentParser
import Foundation
import TallyModel
import TallyReport

/// Where and how a command writes its report.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "Write the report to FILE instead of standard output (written atomically).")
    var output: String?

    @Flag(name: .long, help: "Never colour the output (colour is only used on a terminal anyway; NO_COLOR is honoured).")
    var noColor = false

    /// Colour only on a terminal, never into a file, never with --no-color or a non-empty NO_COLOR.
    var useColor: Bool {
        output == nil && Terminal.colorsStandardOutput(noColorFlag: noColor)
    }

    /// Writes the text, a table for people, to the output file (atomically) or standard output,
    /// made safe for a terminal and a CI log (`SafeText.block`).
    func write(_ text: String) throws {
        let text = SafeText.block(text)
        guard let output else {
            Console.out(text.hasSuffix("\n") ? text : text + "\n")
            return
        }
        try ReportFile.writeOrExit(text, to: output)
    }
}
