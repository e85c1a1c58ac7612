import ArgumentParser
import TallyRun

/// Which policy file a command uses.
struct PolicyOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The policy file (default: the nearest .tally.yml, in this folder or above it up to the repository's top).", valueName: "file"))
    var config: String?

    @Flag(name: .long, help: "Ignore .tally.yml: default rules, and the sources named or found in configs/ and catalog/.")
    var noConfig = false

    func validate() throws {
        if config != nil && noConfig { throw ValidationError("--config and --no-config contradict each other; use one") }
    }

    /// The choice as `TallyRun` takes it (`PolicyChoice.load`: exit 2 on any problem in the file).
    var choice: PolicyChoice { PolicyChoice(config: config, noConfig: noConfig) }
}
