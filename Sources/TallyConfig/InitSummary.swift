import TallyFormats
import TallyModel

extension SourceScan.Found {
    /// How many files a summary line names before it counts the rest (a repository with
    /// generated documentation holds thousands of JSON files that are not sources).
    static let shownPerLine = 10

    /// `a, b, c, … and 4 more`: each name one safe line.
    static func listed(_ items: [String], separator: String) -> String {
        let shown = items.prefix(shownPerLine).map { SafeText.line($0) }.joined(separator: separator)
        return items.count > shownPerLine ? shown + "\(separator)and \(items.count - shownPerLine) more" : shown
    }

    /// Whether anything was found that a policy can name (else `init` writes nothing).
    public var hasSources: Bool { !configurations.isEmpty || !catalogs.isEmpty || code != nil }

    /// What `tally init` says when it found nothing to name (and wrote nothing), line by line.
    public var nothingFoundLines: [String] {
        var lines = ["no product source found below this folder (no .storekit file, product list, catalogue or store export Tally reads); nothing written"]
        if !unreadable.isEmpty {
            lines.append("  unreadable:     " + Self.listed(unreadable.map { "\($0.path): \($0.error)" }, separator: "; ")
                         + " ('tally lint FILE' shows every error)")
        }
        lines += schemeLines
        lines.append("next: name the files in a .tally.yml by hand (docs/policy.md), or 'tally init --print' for a starter file")
        return lines
    }

    /// What `tally init` says after writing the policy file `path`: what it names, what it left
    /// out and why, and what to run next; line by line.
    public func summaryLines(wrote path: String) -> [String] {
        let catalogues = catalogs.map { path in
            guard let folder = folders[path] else { return path }
            let count = loaded[path].map { ", \($0.products.count) product\($0.products.count == 1 ? "" : "s")" } ?? ""
            return "\(path)/ (\(folder.kind)\(count))"
        }
        var lines = ["wrote \(path)"]
        lines.append("  configurations: \(configurations.isEmpty ? "none found: add them under sources:" : Self.listed(configurations, separator: ", "))")
        lines.append("  catalogues:     \(catalogues.isEmpty ? "none found: add them under sources:" : Self.listed(catalogues, separator: ", "))")
        lines += schemeLines
        if let code {
            var line = "  code:           \(Self.listed(code.globs, separator: ", ")), \(code.ids) product ID\(code.ids == 1 ? "" : "s") in \(code.files.count) file\(code.files.count == 1 ? "" : "s")"
            if code.unresolved > 0 {
                line += " (\(code.unresolved) call\(code.unresolved == 1 ? "" : "s") with IDs built at run time: add ids: REGEX under code:)"
            }
            lines.append(line)
            if !code.unresolvedAt.isEmpty {
                lines.append("  not followed:   " + Self.listed(code.unresolvedAt, separator: ", ")
                             + " ('tally show' of the code names each call and what it could not follow)")
            }
        }
        if !inTestFolders.isEmpty {
            let shown = inTestFolders.prefix(5).map { SafeText.line($0) }.joined(separator: ", ") + (inTestFolders.count > 5 ? " and \(inTestFolders.count - 5) more" : "")
            lines.append("  left out:       \(inTestFolders.count) source\(inTestFolders.count == 1 ? "" : "s") under test folders (\(shown)); add them under sources: if the gate should check them")
        }
        if !unreadable.isEmpty {
            lines.append("  unreadable:     " + Self.listed(unreadable.map { "\($0.path): \($0.error)" }, separator: "; ")
                         + "; left out: 'tally lint FILE' shows every error")
        }
        if !notSources.isEmpty {
            lines.append("  not sources:    " + Self.listed(notSources.map { "\($0) (\(SourceLoader.notAProductSource($0)))" }, separator: ", "))
        }
        let sources = configurations.count + catalogs.count + (code == nil ? 0 : 1)
        if sources == 1, let code, code.ids == 0 {
            // Every call builds its IDs at run time: say how to name them before anything can be compared.
            lines.append("next: the code's calls build their IDs at run time, so 'tally check' has nothing to compare yet: name the IDs with ids: REGEX under code: in \(SafeText.line(path)) (docs/code.md), then add the store's products (a snapshot from 'tally fetch') or a catalogue")
            return lines
        }
        if sources == 1, let code {
            // The code is the only copy (a Play-only app): what to compare it with, runnable as printed.
            lines.append("next: 'tally check' reads the code on its own; to compare the \(code.ids) ID\(code.ids == 1 ? "" : "s") it asks for, add the store's products:")
            if code.stores.contains(.googlePlay) {
                let package = code.androidPackage.map { SafeText.line($0) } ?? "YOUR.PACKAGE.NAME"
                lines.append("  tally fetch google-play --package \(package) --service-account play-key.json --output snapshots/google-play")
            }
            if code.stores.contains(.appStore) {
                lines.append("  tally fetch app-store-connect --app APP_ID --output snapshots/app-store-connect   (with the API key options of 'tally fetch app-store-connect --help')")
            }
            lines.append("  then add the snapshot folder under sources: in \(SafeText.line(path)); or keep a catalogue of the IDs: tally convert \(code.globs.map { "'\(SafeText.line($0))'" }.joined(separator: " ")) --to tally-catalog-yaml -o catalog/products.yaml")
            return lines
        }
        lines.append(sources == 1
                     ? "next: 'tally check' (no arguments needed) lints the one source; add a second copy to compare it with (a catalogue, a store snapshot from 'tally fetch'); 'tally explain RULE' explains a rule"
                     : "next: 'tally check' (no arguments needed); 'tally explain RULE' explains a rule")
        return lines
    }

    /// What each Xcode scheme runs the app against (issue 50), a line each.
    var schemeLines: [String] {
        var lines: [String] = []
        if stoppedScanning {
            lines.append("  stopped:        the scan looked at \(SourceScan.maxFiles) files and folders and stopped before the end: sources further in are not proposed; name them under sources: (docs/policy.md)")
        }
        for reference in schemes {
            let scheme = SafeText.line(reference.scheme)
            if let problem = reference.problem {
                lines.append("  scheme:         \(SafeText.line(reference.schemeName)) (\(scheme):\(reference.position.line)) names a StoreKit configuration but cannot be read: \(SafeText.line(problem))")
            } else if reference.exists, let file = reference.resolved {
                lines.append("  scheme:         \(SafeText.line(reference.schemeName)) (\(scheme)) runs the app against \(SafeText.line(file))")
            } else if let file = reference.resolved {
                lines.append("  scheme:         \(SafeText.line(reference.schemeName)) (\(scheme):\(reference.position.line)) names \(SafeText.line(reference.identifier)), which does not exist (\(SafeText.line(file))): Xcode cannot run the app against it (scheme-storekit)")
            } else {
                lines.append("  scheme:         \(SafeText.line(reference.schemeName)) (\(scheme):\(reference.position.line)) names \(SafeText.line(reference.identifier)), outside the repository: not followed")
            }
        }
        return lines
    }
}
