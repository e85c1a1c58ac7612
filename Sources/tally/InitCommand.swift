import ArgumentParser
import TallyRun

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented starter .tally.yml for the repository in the current directory.",
        discussion: """
        Looks for StoreKit configurations (.storekit), catalogues Tally reads (tally-catalog/1 \
        files and store pages, by their content) and folders Tally reads as one source (a 'tally \
        fetch' snapshot, saved App Store Connect or Google Play pages) below the current \
        directory, skipping hidden folders and build output, and writes .tally.yml naming what it \
        found: a folder source as the folder, files by a glob only where the glob matches nothing \
        else (a deploy.yaml beside the catalogue is left out and named). Territories every \
        catalogue product is priced in today become required_territories; every other section \
        is there, commented, to fill in. Afterwards 'tally check' needs no arguments.

        Examples:
          tally init --print          # show the starter file
          tally init --force          # write it, replacing an existing .tally.yml
        """
    )

    @Flag(name: .long, help: "Replace an existing .tally.yml.")
    var force = false

    @Flag(name: .long, help: "Print the starter file to standard output instead of writing it.")
    var print = false

    func run() throws {
        try InitRun.perform(InitRequest(force: force, print: print))
    }
}
