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
        try Self.run(try tally(context), in: context.package.directoryURL, arguments: arguments)
    }

    /// The binary plugin's `tally` is its artifact bundle's tool. The source plugin has no tool
    /// dependency (one would make every `swift build` of Tally compile it twice, once for the host):
    /// it asks SwiftPM to build the product `tally`, the build `swift run tally` makes.
    func tally(_ context: PluginContext) throws -> URL {
        if let tool = try? context.tool(named: "tally") { return tool.url }
        return try buildTally()
    }

    func buildTally() throws -> URL {
        let result = try packageManager.build(.product("tally"), parameters: .init(configuration: .debug, logging: .concise))
        guard result.succeeded,
              let built = result.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == "tally" })
        else {
            print(result.logText)
            throw BuildFailed()
        }
        return built.url
    }

    struct BuildFailed: Error, CustomStringConvertible {
        var description: String { "building the product tally failed (see the log above)" }
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
        let tally = try (try? context.tool(named: "tally").url) ?? buildTally()
        try Self.run(tally, in: context.xcodeProject.directoryURL, arguments: arguments)
    }
}
#endif
