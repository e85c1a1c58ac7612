import Foundation
import Testing

/// `tally check` with no arguments in a repository that has a `.tally.yml`.
@Suite struct PolicyFileCLITests {
    static let catalog = "catalog/products.yaml"

    private func example(policy: String = "", edits: [(String, String)] = []) throws -> URL {
        let directory = try CLIRunner.exampleCopy()
        try Policy.write(policy, to: directory)
        for (old, new) in edits { try CLIRunner.edit(directory.appendingPathComponent(Self.catalog), replacing: old, with: new) }
        return directory
    }

    static let unshared = ("name: Lifetime Unlock\n    family_shareable: true", "name: Lifetime Unlock\n    family_shareable: false")

    @Test func withAPolicyAndNoArgumentsTheExampleIsConsistent() throws {
        let directory = try example()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIRunner.run(["check"], in: directory)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("✔ consistent: 15 products checked in 2 sources"))
    }

    @Test func theSourcesComeFromThePolicyNotTheDefaultFolders() throws {
        // Given: the catalogue moved to server/, which only the policy names.
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.moveItem(at: directory.appendingPathComponent("catalog"), to: directory.appendingPathComponent("server"))
        try Data("version: 1\nsources: [configs/*.storekit, \"server/**/*.yaml\"]\n".utf8).write(to: directory.appendingPathComponent(".tally.yml"))
        // When
        let output = try CLIRunner.run(["check", "--format", "json"], in: directory)
        // Then
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("\"server/products.yaml\""))
    }

    @Test func exitCodesFollowThePolicysSeverities() throws {
        // A family-sharing mismatch: a warning by default (exit 0), an error under this policy (exit 1), off (exit 0, not reported).
        let plain = try example(edits: [Self.unshared])
        defer { try? FileManager.default.removeItem(at: plain) }
        #expect(try CLIRunner.run(["check"], in: plain).status == 0)

        let strictTeam = try example(policy: "rules:\n  family-sharing: error\n", edits: [Self.unshared])
        defer { try? FileManager.default.removeItem(at: strictTeam) }
        let failing = try CLIRunner.run(["check"], in: strictTeam)
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("error  family-sharing"))

        let relaxed = try example(policy: "rules:\n  family-sharing: off\n", edits: [Self.unshared])
        defer { try? FileManager.default.removeItem(at: relaxed) }
        let quiet = try CLIRunner.run(["check", "--strict"], in: relaxed)
        #expect(quiet.status == 0)
        #expect(!quiet.stdout.contains("family-sharing  "), "no finding of the rule turned off")

        let failOnWarning = try example(policy: "fail_on: warning\n", edits: [Self.unshared])
        defer { try? FileManager.default.removeItem(at: failOnWarning) }
        #expect(try CLIRunner.run(["check"], in: failOnWarning).status == 1)
    }

    @Test func anUnknownKeyExitsTwoNamingTheKeyAndLine() throws {
        let directory = try example(policy: "rules:\n  price: error\nignores:\n  - rule: price\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIRunner.run(["check"], in: directory)
        #expect(output.status == 2)
        #expect(output.stderr.contains(".tally.yml:7:1: error: unknown key \"ignores\" in the policy file; did you mean \"ignore\"?"), "\(output.stderr)")
        #expect(output.stdout.isEmpty, "nothing is checked with a broken policy")
    }

    @Test func aNewerPolicyVersionIsRefused() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("version: 3\n".utf8).write(to: directory.appendingPathComponent(".tally.yml"))
        let output = try CLIRunner.run(["check"], in: directory)
        #expect(output.status == 2)
        #expect(output.stderr.contains("this policy file is version 3, but this Tally reads version 1 only: upgrade Tally"))
    }

    @Test func aSourceGlobMatchingNothingExitsTwoAtItsLine() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("version: 1\nsources:\n  - configs/*.storekit\n  - catalogs/*.yaml\n".utf8).write(to: directory.appendingPathComponent(".tally.yml"))
        let output = try CLIRunner.run(["check"], in: directory)
        #expect(output.status == 2)
        #expect(output.stderr.contains(".tally.yml:4:5: error: the source \"catalogs/*.yaml\" matches no file"), "\(output.stderr)")
    }

    @Test func ignoresTakeFindingsOutAndUnusedOnesAreWarnedAbout() throws {
        let policy = """
            ignore:
              - rule: price
                product: com.calmly.app.sessions.*
                reason: session packs are repriced by the server on Mondays
              - rule: kind
                product: com.calmly.app.tip.*
                reason: no longer needed
            """
        let directory = try example(policy: policy + "\n", edits: [("prices: {USA: \"5.99\"", "prices: {USA: \"6.49\"")])
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIRunner.run(["check"], in: directory)
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.stdout.contains("ignored: 1 finding accepted by the policy's ignores"))
        #expect(output.stderr.contains(".tally.yml:9:5: warning: the ignore of kind on com.calmly.app.tip.* matched no finding"), "\(output.stderr)")
    }

    @Test func requiredTerritoriesAreChecked() throws {
        let directory = try example(policy: "required_territories: [USA, JPN]\n", edits: [("JPN: \"300\", ", "")])
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIRunner.run(["check", "--format", "json"], in: directory)
        #expect(output.status == 1)
        #expect(output.stdout.contains("\"rule\" : \"unpriced-territory\""))
        #expect(output.stdout.contains("com.calmly.app.sessions.5 has no price in 1 of the 2 territories the policy requires: JPN"))
    }

    @Test func configNamesAnotherPolicyFileAndNoConfigIgnoresIt() throws {
        let directory = try example(edits: [Self.unshared])
        defer { try? FileManager.default.removeItem(at: directory) }
        try Policy.write("rules: {family-sharing: error}\n", to: directory, name: "ci-policy.yml")
        #expect(try CLIRunner.run(["check"], in: directory).status == 0)
        #expect(try CLIRunner.run(["check", "--config", "ci-policy.yml"], in: directory).status == 1)
        try Policy.write("rules: {family-sharing: error}\n", to: directory)
        #expect(try CLIRunner.run(["check"], in: directory).status == 1)
        #expect(try CLIRunner.run(["check", "--no-config"], in: directory).status == 0)
        let missing = try CLIRunner.run(["check", "--config", "nope.yml"], in: directory)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nope.yml: error: no such file"))
    }

    @Test func theRepositoryGatesItselfWithItsOwnPolicy() throws {
        let output = try CLIRunner.run(["check"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stderr.isEmpty, "no warnings about the repository's own policy: \(output.stderr)")
    }
}
