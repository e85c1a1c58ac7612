import Foundation
import TallyCheck
import TallyFormats
import TallyModel

/// The findings of `scheme-storekit` for a run: the repository's schemes against the StoreKit
/// files the run reads.
enum SchemeFindings {
    /// Each scheme that names a StoreKit configuration that does not exist, as an error at the
    /// scheme's line (beside a policy source that matches no file).
    static func missingFiles(in root: String) -> [FormatError] {
        XcodeSchemes.references(in: root).filter { !$0.exists && $0.problem == nil }.map { reference in
            let target = reference.resolved.map { "\($0), which does not exist" } ?? "\(reference.identifier), outside the repository"
            return FormatError("the scheme \(SafeText.line(reference.schemeName)) runs the app against \(SafeText.line(target)) (scheme-storekit)",
                               file: relativeToRun(reference.scheme, root: root), position: reference.position)
        }
    }

    /// The findings for `references`, given the StoreKit files the run reads (paths as opened).
    static func findings(_ references: [SchemeStoreKitReference], root: String, checked: [String]) -> [Finding] {
        func absolute(_ path: String) -> String { RepositoryBoundary.absolute(path) }
        let read = Set(checked.map(absolute))
        var findings: [Finding] = []
        for reference in references {
            let location = SourceLocation(file: relativeToRun(reference.scheme, root: root), line: Int(reference.position.line),
                                          column: Int(reference.position.column))
            let side = FindingSide(role: nil, value: .text(reference.identifier), location: location)
            if let problem = reference.problem {
                var found = Finding(ruleID: .schemeStoreKit, severity: SchemeStoreKitRule.description.defaultSeverity, productID: nil, field: .id,
                                    message: "the scheme \(name: reference.schemeName) names a StoreKit configuration but cannot be read (\(words: SafeText.line(problem))): which file the app runs against is not known",
                                    left: FindingSide(role: nil, value: nil as FindingValue?, location: location))
                found.severity = .warning
                findings.append(found)
                continue
            }
            guard let resolved = reference.resolved else {
                findings.append(Finding(ruleID: .schemeStoreKit, severity: SchemeStoreKitRule.description.defaultSeverity, productID: nil, field: .id,
                                        message: "the scheme \(name: reference.schemeName) names the StoreKit configuration \(name: reference.identifier), which leads outside the repository: not followed",
                                        left: side))
                continue
            }
            guard reference.exists else {
                findings.append(Finding(ruleID: .schemeStoreKit, severity: SchemeStoreKitRule.description.defaultSeverity, productID: nil, field: .id,
                                        message: "the scheme \(name: reference.schemeName) runs the app against \(name: resolved), which does not exist (\(name: reference.identifier) from the workspace)",
                                        left: side))
                continue
            }
            let used = absolute((root as NSString).appendingPathComponent(resolved))
            if !read.isEmpty, !read.contains(used), read.allSatisfy({ file in !references.contains { absolute((root as NSString).appendingPathComponent($0.resolved ?? "")) == file } }) {
                var found = Finding(ruleID: .schemeStoreKit, severity: SchemeStoreKitRule.description.defaultSeverity, productID: nil, field: .id,
                                    message: "the scheme \(name: reference.schemeName) runs the app against \(name: resolved), which this check does not read; it reads \(words: checked.map { relativeToRun($0, root: root) }.joined(separator: ", ")), which no scheme uses",
                                    left: side)
                found.severity = .warning
                findings.append(found)
            }
        }
        return findings
    }

    /// A path under `root` as the run names files (relative to the current folder).
    static func relativeToRun(_ path: String, root: String) -> String {
        guard root != ".", !root.isEmpty, !path.hasPrefix("/") else { return path }
        return (root as NSString).appendingPathComponent(path)
    }
}
