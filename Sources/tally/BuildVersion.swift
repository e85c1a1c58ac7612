import TallyBuildInfo
import TallyReport

/// What `tally --version` prints: the version (`TallyInfo.version`, the one place it is written)
/// and the commit the binary was built from, or an honest word that nobody said which.
enum BuildVersion {
    /// The commit `scripts/release` built from; nil in a plain `swift build`.
    static var commit: String? {
        guard let pointer = tally_build_commit() else { return nil }
        let commit = String(cString: pointer)
        return commit.isEmpty ? nil : commit
    }

    /// `0.1.0 (commit 1a2b3c4d5e6f)` or `0.1.0 (commit unknown: built from source)`.
    static var description: String {
        if let commit { return "\(TallyInfo.version) (commit \(commit))" }
        return "\(TallyInfo.version) (commit unknown: built from source)"
    }
}
