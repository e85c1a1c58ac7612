import ArgumentParser
import Foundation

/// The `tally` command: checks that in-app-purchase product configurations agree.
@main
struct Tally: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tally",
        abstract: "Keep in-app-purchase product catalogues consistent.",
        discussion: """
        Tally reads Xcode StoreKit configurations (.storekit) and server catalogues \
        (tally-catalog/1, JSON or YAML), normalises them into one product model and reports \
        every mismatch: missing products, kinds, prices, periods, offers, groups and levels.

        Exit codes: 0 consistent, 1 mismatches found, 2 usage or input error.

        Examples:
          tally check                                   # configs/*.storekit vs catalog/* here
          tally check App.storekit server/products.yaml --format junit --output tally.xml
          tally show configs/App.storekit --format json
          tally lint catalog/products.yaml
        """,
        version: "0.1.0",
        subcommands: [CheckCommand.self, ShowCommand.self, LintCommand.self, RulesCommand.self, DiffCommand.self],
        defaultSubcommand: nil
    )

    /// Parses and runs, mapping every usage error to exit code 2 (not ArgumentParser's 64).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Foundation.exit(exit.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                Tally.exit(withError: error)
            }
            var standardError = StandardError()
            print(fullMessage(for: error), to: &standardError)
            Foundation.exit(TallyExit.usageOrInput.rawValue)
        }
    }
}

/// Tally's exit codes.
enum TallyExit: Int32 {
    case consistent = 0
    case mismatches = 1
    case usageOrInput = 2

    var code: ExitCode { ExitCode(rawValue) }
}

/// Writes to standard error.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}
