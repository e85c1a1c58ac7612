import ArgumentParser
import Foundation
import TallyConfig
import TallyFormats
import TallyModel

struct InitCommand: ParsableCommand {
    /// How many files a summary line names before it counts the rest (a repository with
    /// generated documentation holds thousands of JSON files that are not sources).
    static let shownPerLine = 10

    /// Names on one line: each made safe (`SafeText.line`: a newline or escape sequence in a file
    /// name is written out), at most `shownPerLine`, the rest counted.
    static func listed(_ items: [String], separator: String) -> String {
        let shown = items.prefix(shownPerLine).map { SafeText.line($0) }.joined(separator: separator)
        return items.count > shownPerLine ? shown + "\(separator)and \(items.count - shownPerLine) more" : shown
    }

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
        let path = PolicyFile.defaultName
        if !print && !force && PolicyFile.defaultExists() {
            throw Stop.message("\(path) already exists; use --force to replace it, or --print to see a fresh starter file")
        }
        let found = PolicyTemplate.scan()
        let loaded = found.loaded
        let text = PolicyTemplate.render(PolicyTemplate.detect(found))
        if print {
            Console.out(text)
            return
        }
        var console = StandardOutput(role: .console)
        guard !found.configurations.isEmpty || !found.catalogs.isEmpty || found.code != nil else {
            // A policy naming nothing would make the next 'tally check' an input error.
            Swift.print("no product source found below this folder (no .storekit file, product list, catalogue or store export Tally reads); nothing written", to: &console)
            if !found.unreadable.isEmpty {
                Swift.print("  unreadable:     " + Self.listed(found.unreadable.map { "\($0.path): \($0.error)" }, separator: "; ")
                            + " ('tally lint FILE' shows every error)", to: &console)
            }
            Swift.print("next: name the files in a .tally.yml by hand (docs/policy.md), or 'tally init --print' for a starter file", to: &console)
            return
        }
        try ReportFile.writeOrExit(text, to: path, what: "the policy file", regularOnly: true)
        let catalogues = found.catalogs.map { path in
            guard let folder = found.folders[path] else { return path }
            let count = loaded[path].map { ", \($0.products.count) product\($0.products.count == 1 ? "" : "s")" } ?? ""
            return "\(path)/ (\(folder.kind)\(count))"
        }
        Swift.print("wrote \(path)", to: &console)
        Swift.print("  configurations: \(found.configurations.isEmpty ? "none found: add them under sources:" : Self.listed(found.configurations, separator: ", "))", to: &console)
        Swift.print("  catalogues:     \(catalogues.isEmpty ? "none found: add them under sources:" : Self.listed(catalogues, separator: ", "))", to: &console)
        if let code = found.code {
            var line = "  code:           \(Self.listed(code.globs, separator: ", ")), \(code.ids) product ID\(code.ids == 1 ? "" : "s") in \(code.files.count) file\(code.files.count == 1 ? "" : "s")"
            if code.unresolved > 0 {
                line += " (\(code.unresolved) call\(code.unresolved == 1 ? "" : "s") with IDs built at run time: add ids: REGEX under code:)"
            }
            Swift.print(line, to: &console)
        }
        if !found.inTestFolders.isEmpty {
            let shown = found.inTestFolders.prefix(5).map { SafeText.line($0) }.joined(separator: ", ") + (found.inTestFolders.count > 5 ? " and \(found.inTestFolders.count - 5) more" : "")
            Swift.print("  left out:       \(found.inTestFolders.count) source\(found.inTestFolders.count == 1 ? "" : "s") under test folders (\(shown)); add them under sources: if the gate should check them", to: &console)
        }
        if !found.unreadable.isEmpty {
            Swift.print("  unreadable:     " + Self.listed(found.unreadable.map { "\($0.path): \($0.error)" }, separator: "; ")
                        + "; left out: 'tally lint FILE' shows every error", to: &console)
        }
        if !found.notSources.isEmpty {
            Swift.print("  not sources:    " + Self.listed(found.notSources.map { "\($0) (\(SourceLoader.notAProductSource($0)))" }, separator: ", "), to: &console)
        }
        let sources = found.configurations.count + found.catalogs.count + (found.code == nil ? 0 : 1)
        Swift.print(sources == 1
                    ? "next: 'tally check' (no arguments needed) lints the one source; add a second copy to compare it with (a catalogue, a store snapshot from 'tally fetch'); 'tally explain RULE' explains a rule"
                    : "next: 'tally check' (no arguments needed); 'tally explain RULE' explains a rule", to: &console)
    }
}
