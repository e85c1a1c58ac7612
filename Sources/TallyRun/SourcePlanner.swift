import Foundation
import TallyConfig
import TallyFormats
import TallyModel

/// Which policy file and which files a run reads: the one planner that `check`, `lint`, `show`,
/// `diff`, `init`, `TallyAssert` and the plugin (which runs `tally check`) share.
///
/// - **The policy** is the file named (`--config`), else the nearest `.tally.yml` from the run's
///   folder up to the top of its git repository (as swift-format finds its configuration, but
///   never above the repository: a file in a home folder does not reach every clone). `diff
///   --since` looks in the same folders on its newer side (`RevisionPlanner`).
/// - **The sources** are the arguments, else the policy's `sources:` (relative to the policy's
///   folder, so the same files from any subfolder), else the default folders `configs/` and
///   `catalog/`; a mapping file is never a source (`SourceSet.resolve`).
/// - **A product source is recognised by what it holds** (`SourceLoader.isProductSource`): an
///   Info.plist, entitlements or a scheme list is not, however it is named or matched.
public enum SourcePlanner {
    /// The folders a run in `directory` looks in for `.tally.yml`, nearest first: `directory`
    /// and each folder above it up to the one holding `.git`; `directory` alone outside git.
    /// Each is named relative to `directory` (`.`, `..`, `../..`).
    public static func policyFolders(from directory: String = ".") -> [String] {
        let start = URL(fileURLWithPath: directory == "." ? FileManager.default.currentDirectoryPath : directory).standardizedFileURL
        var folders: [String] = []
        var current = start
        var relative = "."
        while true {
            folders.append(relative)
            if FileManager.default.fileExists(atPath: current.appendingPathComponent(".git").path) { return folders }
            let parent = current.deletingLastPathComponent()
            guard parent.path != current.path, !parent.path.isEmpty else { break }
            current = parent
            relative = relative == "." ? ".." : relative + "/.."
        }
        // No repository above: only the run's own folder.
        return ["."]
    }

    /// The nearest `.tally.yml` for a run in `directory`, as a path from it (`.tally.yml`,
    /// `../.tally.yml`); nil when there is none.
    public static func nearestPolicy(from directory: String = ".") -> String? {
        nearestPolicy(among: policyFolders(from: directory), in: FileTree(root: directory == "." ? nil : directory))
    }

    /// The nearest `.tally.yml` of `folders` (nearest first) in `tree`: the working tree, or the
    /// files of a revision (`diff --since`'s newer side), found by one rule.
    static func nearestPolicy(among folders: [String], in tree: any SourceTree) -> String? {
        folders.lazy.map { $0.isEmpty || $0 == "." ? PolicyFile.defaultName : "\($0)/\(PolicyFile.defaultName)" }.first { tree.isFile($0) }
    }

    /// The policy a run uses: the file `named`, else the nearest `.tally.yml`; nil when there is
    /// none. Throws the file's located errors (`FormatError`).
    public static func policy(named path: String?, from directory: String = ".") throws -> PolicyFile? {
        if let path { return try PolicyFile.load(path: path) }
        guard let nearest = nearestPolicy(from: directory) else { return nil }
        return try PolicyFile.load(path: nearest)
    }

    /// The sources of a run: `arguments` when any, else the policy's, else the default folders.
    /// Nil when there are none anywhere.
    public static func sources(arguments: [String], policy: PolicyFile?, mapping: SourceSet.MappingChoice = SourceSet.MappingChoice(),
                               root: String? = nil, format: SourceFormat? = nil) throws(RunFailure) -> SourceSet? {
        try SourceSet.resolve(arguments: arguments, policy: policy, mapping: mapping, root: root, format: format)
    }

    /// The mapping files among `paths`: those a mapping names, and those `isMapping` recognises
    /// (a `format: tally-mapping/1` file a glob matched). A mapping file is never a source,
    /// whichever glob matched it: `check` and `diff` both take these out of their sources.
    static func mappingFiles(among paths: [String], named: Set<String>, isMapping: (String) -> Bool) -> Set<String> {
        named.union(paths.filter(isMapping))
    }
}
