import ArgumentParser
import Foundation
import TallyCheck
import TallyConfig
import TallyFormats
import TallyRun

/// Which policy file a command uses, and reading it and the baseline with errors on standard error.
struct PolicyOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The policy file (default: the nearest .tally.yml, in this folder or above it up to the repository's top).", valueName: "file"))
    var config: String?

    @Flag(name: .long, help: "Ignore .tally.yml: default rules, and the sources named or found in configs/ and catalog/.")
    var noConfig = false

    func validate() throws {
        if config != nil && noConfig { throw ValidationError("--config and --no-config contradict each other; use one") }
    }

    /// The policy file, or nil when there is none (or --no-config); exits 2 on any problem in it.
    func load() throws -> PolicyFile? {
        if noConfig { return nil }
        let policy = try Reading.orExit { try SourcePlanner.policy(named: config) }
        if let policy { RunFiles.shared.noteInput(policy.file) }
        return policy
    }
}

enum Reading {
    /// Runs `body`; a `FormatError` (or any error) stops the command (`main` prints it, exit 2).
    static func orExit<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as FormatError {
            throw Stop.diagnostics(error.diagnostics)
        } catch let stop as Stop {
            throw stop
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw Stop.message("error: \(error)")
        }
    }
}
