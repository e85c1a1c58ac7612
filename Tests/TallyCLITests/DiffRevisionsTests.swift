import Foundation
import Testing

/// Release managers: `tally diff` between two revisions of the whole policy source set, without a
/// checkout, with several reports in one run and totals that keep configurations and catalogues apart.
@Suite(.enabled(if: GitRepository.gitAvailable, "git is not installed"))
struct DiffRevisionsTests {
    /// Tagged v1 (the examples, an App Store Connect snapshot in asc/, a policy naming the three),
    /// then v2 (the tip's price raised in the snapshot, a session pack's in the catalogue), then an
    /// uncommitted edit that neither revision holds.
    static func taggedRepository() throws -> GitRepository {
        let repository = try GitRepository()
        let url = repository.url
        try FileManager.default.copyItem(at: CLIRunner.repository.appendingPathComponent("examples/asc-export"), to: url.appendingPathComponent("asc"))
        try Data("version: 1\nsources: [configs/ExampleApp.storekit, asc, catalog/products.yaml]\n".utf8).write(to: url.appendingPathComponent(".tally.yml"))
        try repository.commit("v1")
        try GitRepository.run(["tag", "v1"], in: url)
        try SnapshotSourceTests.raiseTipPrice(in: url)
        try CLIRunner.edit(url.appendingPathComponent("catalog/products.yaml"), replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        try repository.commit("v2")
        try GitRepository.run(["tag", "v2"], in: url)
        try CLIRunner.edit(url.appendingPathComponent("catalog/products.yaml"), replacing: "prices: {USA: \"12.99\"", with: "prices: {USA: \"13.99\"")
        return repository
    }

    @Test func twoRevisionsOfThePolicySourcesAreComparedWithoutACheckout() throws {
        // Given
        let repository = try Self.taggedRepository()
        defer { repository.remove() }
        // When
        let since = try CLIRunner.run(["diff", "--since", "v1", "--until", "v2"], in: repository.url)
        let range = try CLIRunner.run(["diff", "v1..v2"], in: repository.url)
        // Then
        #expect(since.status == 0, "\(since.stderr)")
        #expect(range.status == 0, "\(range.stderr)")
        #expect(range.stdout == since.stdout)
        let text = since.stdout
        #expect(text.contains("old: asc@v1 (app-store-connect, default territory USA, 15 products)\nnew: asc@v2 (app-store-connect"), "\(text)")
        #expect(text.contains("~ prices › USA: 2.99 USD → 3.49 USD"), "the snapshot folder is one source at both revisions")
        #expect(text.contains("new: asc/03-iap-prices-tip-tea.json@v2:78:26"))
        #expect(text.contains("old: catalog/products.yaml@v1"))
        #expect(text.contains("~ prices › USA: 5.99 USD → 6.49 USD"))
        #expect(!text.contains("13.99"), "the working tree is not read")
        #expect(text.contains("old: configs/ExampleApp.storekit@v1 (storekit"))
        #expect(text.contains("total for configurations (1 file): 0 added, 0 removed, 0 changed, 15 unchanged products"))
        #expect(text.contains("total for catalogues (2 files): 0 added, 0 removed, 2 changed, 28 unchanged products"), "\(text)")
        // And the same from a subfolder, and for the folder alone as FOLDER@REV
        let below = try CLIRunner.run(["diff", "v1..v2"], in: repository.url.appendingPathComponent("catalog"))
        #expect(below.stdout == since.stdout, "\(below.stderr)")
        let folder = try CLIRunner.run(["diff", "asc@v1", "asc"], in: repository.url)
        #expect(folder.status == 0, "\(folder.stderr)")
        #expect(folder.stdout.hasPrefix("old: asc@v1 (app-store-connect, default territory USA, 15 products)\nnew: asc (app-store-connect"), "\(folder.stdout)")
        #expect(folder.stdout.contains("~ prices › USA: 2.99 USD → 3.49 USD"))
        // And nothing was checked out
        let status = try CLIRunner.launch(URL(fileURLWithPath: "/usr/bin/env"), ["git", "status", "--porcelain"], in: repository.url)
        #expect(status.stdout == " M catalog/products.yaml\n")
        // And with --since alone the newer side is the working tree
        let working = try CLIRunner.run(["diff", "--since", "v2"], in: repository.url)
        #expect(working.stdout.contains("~ prices › USA: 12.99 USD → 13.99 USD"), "\(working.stdout)")
        #expect(working.stdout.contains("old: asc@v2 (app-store-connect") && working.stdout.contains("new: asc (app-store-connect"))
    }

    @Test func severalReportsInOneRun() throws {
        let repository = try Self.taggedRepository()
        defer { repository.remove() }
        let output = try CLIRunner.run(["diff", "v1..v2", "--report", "text:out/diff.txt", "--report", "html:out/diff.html",
                                        "--report", "release-notes:out/notes.md"], in: repository.url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasSuffix("reports: text out/diff.txt, html out/diff.html, release-notes out/notes.md\n"), "\(output.stdout)")
        #expect(output.stdout.contains("total for catalogues (2 files)"))
        let text = try String(contentsOf: repository.url.appendingPathComponent("out/diff.txt"), encoding: .utf8)
        let html = try String(contentsOf: repository.url.appendingPathComponent("out/diff.html"), encoding: .utf8)
        let notes = try String(contentsOf: repository.url.appendingPathComponent("out/notes.md"), encoding: .utf8)
        #expect(text.contains("~ prices › USA: 2.99 USD → 3.49 USD"))
        #expect(html.contains("<dl class=\"counts\" data-scope=\"configurations\">") && html.contains("data-scope=\"catalogues\""))
        #expect(notes.hasPrefix("## Catalogue changes"))
        #expect(notes.contains("### Price rises"))
        // And one report on standard output beside files
        let mixed = try CLIRunner.run(["diff", "v1..v2", "--report", "markdown", "--report", "json:out/diff.json"], in: repository.url)
        #expect(mixed.status == 0, "\(mixed.stderr)")
        #expect(mixed.stdout.contains("**Total for catalogues (2 files):**"), "\(mixed.stdout)")
        #expect(FileManager.default.fileExists(atPath: repository.url.appendingPathComponent("out/diff.json").path))
        // And usage errors
        let two = try CLIRunner.run(["diff", "v1..v2", "--report", "text", "--report", "html"], in: repository.url)
        #expect(two.status == 2)
        #expect(two.stderr.contains("only one report can go to standard output"))
        let until = try CLIRunner.run(["diff", "--until", "v2", "a", "b"], in: repository.url)
        #expect(until.stderr.contains("--until goes with --since"))
        let unknown = try CLIRunner.run(["diff", "v1..nope"], in: repository.url)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("'nope' is not a commit, branch or tag in this repository"), "\(unknown.stderr)")
    }

    @Test func aFileAPolicyGlobMatchesThatIsNotAProductSourceIsSkippedWithANoteOnBothSides() throws {
        // Given: deploy.yaml beside the catalogue, at HEAD and now, under the policy's glob
        let repository = try GitRepository()
        defer { repository.remove() }
        try Data("name: billing-api\nreplicas: 3\n".utf8).write(to: repository.url.appendingPathComponent("catalog/deploy.yaml"))
        try Data("version: 1\nsources: [configs/ExampleApp.storekit, \"catalog/*.yaml\"]\n".utf8).write(to: repository.url.appendingPathComponent(".tally.yml"))
        try repository.commit("deploy")
        // When
        let output = try CLIRunner.run(["diff", "--since", "HEAD"], in: repository.url)
        let check = try CLIRunner.run(["check"], in: repository.url)
        // Then: the same note as check gives, once
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr == ".tally.yml:2:40: warning: catalog/deploy.yaml matches the source \"catalog/*.yaml\" but is not a product source (a YAML file without catalogue keys ('format: tally-catalog/1')); skipped\n",
                "\(output.stderr)")
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stderr.contains(".tally.yml:2:40: warning: catalog/deploy.yaml matches the source \"catalog/*.yaml\" but is not a product source"))
        #expect(output.stdout.contains("no changes: 15 products identical"))
    }
}
