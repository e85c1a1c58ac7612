import Foundation
import Testing

/// Issue 47, HIGH: the repository is the boundary. Every path that comes from repository content
/// (a policy's `sources:`, `code:`, mappings and baseline, the default folders, the folders a
/// report is written through) resolves inside the repository, or the run stops with exit 2 naming
/// it before a byte of it is read or printed. Each case plants a secret outside the repository in
/// a file a reader would print (a catalogue whose product ID is the secret) and requires that it
/// appears nowhere in the output. Paths named on the command line are the user's own and are read.
@Suite(.timeLimit(.minutes(10)))
struct RepositoryBoundaryCLITests {
    static let secret = "ghp_SECRETTOKEN0123456789"

    /// A folder outside the repository holding a catalogue whose product ID is the secret, a
    /// mapping, and a plain JSON file; removed by the caller.
    static func outside() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-outside-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("deep"), withIntermediateDirectories: true)
        let catalogue = """
            format: tally-catalog/1
            products:
              - id: \(secret)
                kind: non-consumable
                prices: {USA: "1.99"}
            """
        try catalogue.write(to: folder.appendingPathComponent("products.yaml"), atomically: true, encoding: .utf8)
        try catalogue.write(to: folder.appendingPathComponent("deep/products.yaml"), atomically: true, encoding: .utf8)
        try #"{"token": "\#(secret)"}"#.write(to: folder.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)
        try """
            format: tally-mapping/1
            products: "$"
            id: "token"
            """.write(to: folder.appendingPathComponent("tally-mapping.yml"), atomically: true, encoding: .utf8)
        return folder
    }

    /// Runs `script` in a git repository of the shipped examples, with `$O` the outside folder.
    static func run(_ script: String) throws -> CLIRunner.Output {
        let directory = try GateHostileCLITests.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outside = try outside()
        defer { try? FileManager.default.removeItem(at: outside) }
        return try GateHostileCLITests.bash("O='\(outside.path)'; " + script, in: directory)
    }

    static func expectRefused(_ run: CLIRunner.Output, naming what: String, _ comment: Comment? = nil) {
        #expect(run.stdout.contains("tally=2"), "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains(what), "the refusal names \(what): \(run.stderr)")
        #expect(run.stderr.contains("outside the repository"), "\(run.stderr)")
        #expect(!run.stdout.contains(secret) && !run.stderr.contains(secret), "nothing outside was printed: \(run.stdout) \(run.stderr)")
        #expect(!run.stdout.contains("consistent"), "no verdict: \(run.stdout)")
    }

    @Test func aSourceWithDotDotIsRefused() throws {
        let run = try Self.run("""
            mkdir -p sub
            printf 'version: 1\\nsources:\\n  - configs/*.storekit\\n  - "../%s/products.yaml"\\n' "$(basename "$O")" > .tally.yml
            (cd sub && timeout 60 "$T" check); echo "tally=$?"
            """)
        Self.expectRefused(run, naming: "products.yaml")
    }

    @Test func anAbsoluteSourceIsRefused() throws {
        let run = try Self.run("""
            printf 'version: 1\\nsources:\\n  - configs/*.storekit\\n  - "%s/products.yaml"\\n' "$O" > .tally.yml
            timeout 60 "$T" check; echo "tally=$?"
            """)
        Self.expectRefused(run, naming: ".tally.yml:4")
    }

    @Test func aGlobReachingOutIsRefused() throws {
        let run = try Self.run("""
            printf 'version: 1\\nsources:\\n  - configs/*.storekit\\n  - "%s/**/*.yaml"\\n' "$O" > .tally.yml
            timeout 60 "$T" check; echo "tally=$?"
            """)
        Self.expectRefused(run, naming: ".tally.yml:4")
    }

    @Test func aMappingOutsideIsRefused() throws {
        let run = try Self.run("""
            cp "$O/config.json" catalog/server.json
            printf 'version: 1\\nsources:\\n  - configs/*.storekit\\n  - {path: catalog/server.json, mapping: "%s/tally-mapping.yml"}\\n' "$O" > .tally.yml
            timeout 60 "$T" check; echo "tally=$?"
            """)
        Self.expectRefused(run, naming: "the mapping")
    }

    @Test func aLinkedFolderAtDepthTwoIsRefused() throws {
        let run = try Self.run("""
            mkdir -p vendor/shared && ln -s "$O" vendor/shared/catalogue
            printf 'version: 1\\nsources:\\n  - configs/*.storekit\\n  - vendor/shared/catalogue/*.yaml\\n' > .tally.yml
            timeout 60 "$T" check; echo "tally=$?"
            """)
        Self.expectRefused(run, naming: "vendor/shared/catalogue/products.yaml")
    }

    @Test func aLinkedDefaultFolderWithNoPolicyIsRefused() throws {
        let run = try Self.run("""
            rm -rf catalog && ln -s "$O" catalog
            timeout 60 "$T" check; echo "tally=$?"
            """)
        Self.expectRefused(run, naming: "the default folder catalog/")
    }

    @Test func aBaselineOutsideIsRefused() throws {
        let run = try Self.run("""
            printf 'version: 1\\nsources: [configs/*.storekit, catalog/*.yaml]\\nbaseline: "%s/config.json"\\n' "$O" > .tally.yml
            timeout 60 "$T" check; echo "tally=$?"
            """)
        Self.expectRefused(run, naming: "the baseline")
    }

    @Test func theSameFileNamedOnTheCommandLineIsRead() throws {
        let run = try Self.run("""
            timeout 60 "$T" check --no-config configs/ExampleApp.storekit "$O/products.yaml" > /dev/null; echo "tally=$?"
            """)
        #expect(run.stdout.contains("tally=1"), "the user's own argument is read and compared: \(run.stdout) \(run.stderr)")
    }

    @Test func aReportThroughALinkedParentFolderIsRefused() throws {
        let run = try Self.run("""
            ln -s "$O" build
            timeout 60 "$T" check --report text --report json:build/r.json; echo "tally=$?"
            ls "$O"
            """)
        #expect(run.stdout.contains("tally=2"), "\(run.stdout) \(run.stderr)")
        #expect(run.stderr.contains("build/r.json"), "\(run.stderr)")
        #expect(run.stderr.contains("outside the repository"), "\(run.stderr)")
        #expect(!run.stdout.contains("r.json"), "nothing written outside: \(run.stdout)")
    }

    @Test func aReportToAnAbsolutePathOutsideIsWritten() throws {
        let run = try Self.run("""
            timeout 60 "$T" check --report text --report json:"$O/r.json" > /dev/null; echo "tally=$?"
            test -s "$O/r.json" && echo written
            """)
        #expect(run.stdout.contains("tally=0"), "\(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("written"), "a path the user names is theirs: \(run.stdout) \(run.stderr)")
    }
}
