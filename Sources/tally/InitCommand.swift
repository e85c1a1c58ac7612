import ArgumentParser
import Foundation
import TallyConfig
import TallyFormats
import TallyModel

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a commented starter .tally.yml for the repository in the current directory.",
        discussion: """
        Looks for StoreKit configurations (.storekit) and catalogues Tally reads (tally-catalog/1 \
        files, by their content) below the current directory, skipping hidden folders and build \
        output, and writes .tally.yml with their folders as source globs. Territories every \
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
        let path = PolicyFile.defaultName
        if !print && !force && FileManager.default.fileExists(atPath: path) {
            var standardError = StandardError()
            Swift.print("tally: \(path) already exists; use --force to replace it, or --print to see a fresh starter file", to: &standardError)
            throw TallyExit.usageOrInput.code
        }
        let found = SourceScan.find(in: ".")
        let text = PolicyTemplate.render(Self.detect(configurations: found.configurations, catalogs: found.catalogs))
        if print {
            Console.out(text)
            return
        }
        try ReportFile.writeOrExit(text, to: path, what: "the policy file")
        var console = StandardOutput(role: .console)
        Swift.print("wrote \(path)", to: &console)
        Swift.print("  configurations: \(found.configurations.isEmpty ? "none found: add them under sources:" : found.configurations.joined(separator: ", "))", to: &console)
        Swift.print("  catalogues:     \(found.catalogs.isEmpty ? "none found: add them under sources:" : found.catalogs.joined(separator: ", "))", to: &console)
        Swift.print("next: 'tally check' (no arguments needed); 'tally explain RULE' explains a rule", to: &console)
    }

    /// What the template can say about these sources; unreadable files are simply not used.
    static func detect(configurations: [String], catalogs: [String]) -> PolicyTemplate.Detected {
        let loadedCatalogs = catalogs.compactMap { try? SourceLoader.load(path: $0) }
        let loadedConfigs = configurations.compactMap { try? SourceLoader.load(path: $0) }
        var priced: Set<Territory>?
        for product in loadedCatalogs.flatMap(\.products) {
            let territories = Set(product.prices.map(\.territory))
            priced = priced.map { $0.intersection(territories) } ?? territories
        }
        let example: (configuration: String, catalog: String)?
        if let group = loadedConfigs.flatMap(\.groups).first, let other = loadedCatalogs.flatMap(\.groups).first {
            example = (group.name ?? group.id, other.id)
        } else {
            example = nil
        }
        return PolicyTemplate.Detected(configurations: configurations, catalogs: catalogs,
                                       pricedEverywhere: (priced ?? []).sorted(), groupExample: example)
    }
}
