import Foundation
import PackagePlugin

/// `swift package tally [ARGUMENTS]`: runs `tally check` in the package's directory, so the
/// package's `.tally.yml` decides the sources, rules and reports. Arguments are passed on:
/// `swift package tally --strict`, `swift package --disable-sandbox tally --report sarif:build/tally.sarif`.
/// The first argument may also name any other command, which is passed through as it is:
/// `swift package tally explain price`, `swift package tally diff --since main`.
/// The same file is the binary plugin's (plugin-binary/, on the release's artifact bundle).
@main
struct TallyPlugin: CommandPlugin {
    /// Every `tally` subcommand (Tests/TallyCLITests/PluginCommandTests keeps this list equal to
    /// the one `tally --help` prints).
    static let commands: Set<String> = ["check", "show", "convert", "lint", "diff", "rules", "explain", "init", "fetch", "help"]

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        try Self.run(try context.tool(named: "tally").url, in: context.package.directoryURL, arguments: arguments)
    }

    /// Runs `tally` in `directory`: `tally check ARGUMENTS`, or the command the first argument names.
    static func run(_ tally: URL, in directory: URL, arguments: [String]) throws {
        let process = Process()
        process.executableURL = tally
        process.currentDirectoryURL = directory
        let named = arguments.first.map { commands.contains($0) || $0.hasPrefix("--help") || $0 == "-h" || $0 == "--version" } ?? false
        process.arguments = named ? arguments : ["check"] + arguments
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TallyFailed(status: process.terminationStatus) }
    }

    /// Tally's exit status, passed on as the plugin's failure (SwiftPM then exits non-zero).
    struct TallyFailed: Error, CustomStringConvertible {
        var status: Int32
        var description: String {
            "tally exited with status \(status) (\(status == 1 ? "mismatches found" : "usage or input error"))"
        }
    }
}

#if canImport(XcodeProjectPlugin)
import XcodeProjectPlugin

/// In an Xcode project that adds the package (the project's context menu in Xcode, or
/// `xcodebuild`): `tally check` in the project's folder, with its `.tally.yml`.
extension TallyPlugin: XcodeCommandPlugin {
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
        try Self.run(try context.tool(named: "tally").url, in: context.xcodeProject.directoryURL, arguments: arguments)
    }
}
#endif
