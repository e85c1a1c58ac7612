import Foundation
import Testing

/// `--format html` through the built binary and a real browser: headless Chromium opens the page
/// `tally diff` and `tally check` write, the tests read the DOM it dumps (counts, product IDs,
/// both prices, a finding's both sides) and keep its screenshots at 1280 px and at a phone's
/// 390 px. Skipped with a message where Chromium is not installed; CI sets
/// TALLY_REQUIRE_CHROMIUM=1, so there a missing browser fails instead. Screenshots go to
/// TALLY_ARTEFACTS_DIR when set (CI keeps them), else into the test's temporary folder.
@Suite(.enabled(if: Chromium.path != nil || Chromium.required, "chromium is not installed (apt-get install chromium); HTML pages not opened in a browser"),
       .timeLimit(.minutes(20)))
struct HTMLBrowserTests {
    @Test(.enabled(if: GitRepository.gitAvailable, "git is not installed"))
    func diffSinceHeadWritesAPageChromiumShowsEveryChangedProductAndBothPrices() throws {
        let chromium = try #require(Chromium.path, "TALLY_REQUIRE_CHROMIUM=1 but no chromium is installed")
        // Given: two prices changed in the catalogue (one on a subscription), one in the StoreKit
        // configuration, where that product's reference name now holds markup that must stay text
        let repository = try GitRepository()
        defer { repository.remove() }
        let url = repository.url
        try CLIRunner.edit(url.appendingPathComponent("catalog/products.yaml"), replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        try CLIRunner.edit(url.appendingPathComponent("catalog/products.yaml"), replacing: "prices: {USA: \"9.99\"", with: "prices: {USA: \"10.99\"")
        let storeKit = url.appendingPathComponent("configs/ExampleApp.storekit")
        try CLIRunner.edit(storeKit, replacing: "\"displayPrice\" : \"5.99\"", with: "\"displayPrice\" : \"6.99\"")
        try CLIRunner.edit(storeKit, replacing: "\"referenceName\" : \"Session Pack 20\"",
                           with: "\"referenceName\" : \"Session Pack 20 <script>document.title='owned'</script>\"")

        // When
        let output = try CLIRunner.run(["diff", "--since", "HEAD", "--format", "html", "--output", "build/diff.html"], in: url)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.isEmpty)
        let page = url.appendingPathComponent("build/diff.html")
        let html = try String(contentsOf: page, encoding: .utf8)
        let json = try CLIRunner.run(["diff", "--since", "HEAD", "--format", "json"], in: url)
        let changed = try Self.changedProducts(json.stdout)
        #expect(changed == ["com.calmly.app.plus.monthly", "com.calmly.app.sessions.20"], "\(json.stdout)")

        // Then: the page is self-contained
        #expect(!html.contains("<script"), "no script element, the reference name's markup is escaped")
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("src="), "nothing loaded from elsewhere")
        #expect(html.contains("Content-Security-Policy\" content=\"default-src 'none'"))

        // And the browser's DOM holds the counts, every changed product, both prices
        let dom = try Chromium.dumpDOM(chromium, page)
        #expect(dom.contains("<title>Tally diff:"), "the page loaded: \(dom.prefix(500))")
        for product in changed {
            #expect(dom.contains("data-product=\"\(product)\""), "\(product) has its section")
        }
        #expect(dom.contains("data-old=\"5.99 USD\"") && dom.contains("data-new=\"6.49 USD\""), "catalogue price old and new")
        #expect(dom.contains("data-old=\"9.99 USD\"") && dom.contains("data-new=\"10.99 USD\""))
        #expect(dom.contains("+0.50 USD, +8.3%"))
        #expect(dom.contains("data-old=\"5.99 USD\"") && dom.contains("data-new=\"6.99 USD\""), "StoreKit price old and new")
        #expect(dom.contains("data-count=\"changed\">3<"), "two products changed in the catalogue, one in the configuration")
        #expect(dom.contains("data-count=\"price-changes\">3<"))
        #expect(dom.contains("data-count=\"attention\">1<"), "the subscription's price increase")
        #expect(dom.contains("price increase on an existing subscription"))
        #expect(dom.contains("data-territory=\"USA\""), "price changes grouped by territory")
        #expect(dom.contains("Session Pack 20 &lt;script&gt;"), "the reference name is shown as text beside the ID")
        #expect(!dom.contains("<title>owned"), "the name's script never ran")
        #expect(dom.contains("<span class=\"name\">Calmly Plus Monthly</span>"), "reference names beside IDs")

        // And it renders at desktop and phone widths without the page scrolling sideways
        try Chromium.screenshots(chromium, page, name: "diff")
        let phone = try Chromium.widths(chromium, page, width: 390)
        #expect(phone.view > 300 && phone.content <= phone.view, "at 390 px the page is \(phone.content) px wide in a \(phone.view) px view")
    }

    @Test func checkPageShowsTheFindingWithBothSides() throws {
        let chromium = try #require(Chromium.path, "TALLY_REQUIRE_CHROMIUM=1 but no chromium is installed")
        // Given: the catalogue's price differs from the configuration's
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent("catalog/products.yaml"), replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        // When
        let output = try CLIRunner.run(["check", "configs/ExampleApp.storekit", "catalog/products.yaml",
                                        "--report", "text", "--report", "html:build/reports/check.html"], in: directory)
        #expect(output.status == 1, "\(output.stderr)")
        #expect(output.stdout.contains("error  price"))
        let page = directory.appendingPathComponent("build/reports/check.html")
        // Then
        let dom = try Chromium.dumpDOM(chromium, page)
        #expect(dom.contains("<title>Tally check:"), "the page loaded: \(dom.prefix(500))")
        #expect(dom.contains("data-count=\"errors\">1<"), "\(dom)")
        #expect(dom.contains("data-count=\"products\">15<"))
        #expect(dom.contains("data-product=\"com.calmly.app.sessions.20\""))
        #expect(dom.contains("<span class=\"name\">Session Pack 20</span>"))
        #expect(dom.contains("data-rule=\"price\" data-severity=\"error\""))
        #expect(dom.contains("data-side=\"configuration\""), "the configuration's side")
        #expect(dom.contains("data-side=\"catalog\""), "the catalogue's side")
        #expect(dom.contains("5.99 USD") && dom.contains("6.49 USD"), "both prices")
        #expect(dom.contains("catalog/products.yaml:36"), "where the catalogue's price is")
        try Chromium.screenshots(chromium, page, name: "check")
        let phone = try Chromium.widths(chromium, page, width: 390)
        #expect(phone.view > 300 && phone.content <= phone.view, "at 390 px the page is \(phone.content) px wide in a \(phone.view) px view")
    }

    /// Product IDs of `tally diff --format json`'s changes.
    static func changedProducts(_ json: String) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let diffs = try #require(report["diffs"] as? [[String: Any]])
        let changes = diffs.flatMap { ($0["changes"] as? [[String: Any]]) ?? [] }
        return Set(changes.compactMap { $0["product"] as? String }).sorted()
    }
}

/// Debian's `chromium`, headless.
enum Chromium {
    static let required = ProcessInfo.processInfo.environment["TALLY_REQUIRE_CHROMIUM"] == "1"

    /// The first of chromium, chromium-browser, google-chrome on PATH.
    static let path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser", "google-chrome"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }()

    /// The DOM after the page has loaded, serialised.
    static func dumpDOM(_ chromium: String, _ page: URL) throws -> String {
        try run(chromium, ["--dump-dom", page.absoluteString]).stdout
    }

    /// `NAME-1280.png` and `NAME-390.png`, checked to be PNGs of those widths, in
    /// TALLY_ARTEFACTS_DIR (or beside the page).
    static func screenshots(_ chromium: String, _ page: URL, name: String) throws {
        let folder = ProcessInfo.processInfo.environment["TALLY_ARTEFACTS_DIR"].map { URL(fileURLWithPath: $0) }
            ?? page.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (width, height) in [(1280, 2000), (390, 2400)] {
            let file = folder.appendingPathComponent("\(name)-\(width).png")
            try? FileManager.default.removeItem(at: file)
            let result = try run(chromium, ["--hide-scrollbars", "--window-size=\(width),\(height)", "--screenshot=\(file.path)", page.absoluteString])
            let png = try Data(contentsOf: file)
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(file.path) is a PNG; chromium said \(result.stderr)")
            #expect(png.count > 16 + 4 && png[16..<20].reduce(0) { $0 << 8 | Int($1) } == width, "\(file.lastPathComponent) is \(width) px wide")
        }
    }

    /// How wide the page lays out in a frame `width` px wide, and how wide that frame's view is:
    /// a page beside it holds the page in an `<iframe>` (headless windows are at least 500 px
    /// wide; a frame can be narrower, and its media queries see its own width) and writes both
    /// widths into its DOM once everything has loaded. The page itself stays as written.
    static func widths(_ chromium: String, _ page: URL, width: Int) throws -> (content: Int, view: Int) {
        let probe = page.deletingLastPathComponent().appendingPathComponent("probe-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: probe) }
        let html = """
            <!DOCTYPE html><html><body style="margin:0"><iframe id="page" src="\(page.lastPathComponent)" style="width:\(width)px;height:800px;border:0"></iframe>
            <script>addEventListener('load', () => { const d = document.getElementById('page').contentDocument.documentElement;
            document.body.setAttribute('data-widths', d.scrollWidth + ' ' + d.clientWidth) })</script></body></html>
            """
        try html.write(to: probe, atomically: true, encoding: .utf8)
        let dom = try run(chromium, ["--allow-file-access-from-files", "--window-size=1280,900", "--dump-dom", probe.absoluteString]).stdout
        let match = try #require(dom.range(of: "data-widths=\"[0-9]+ [0-9]+\"", options: .regularExpression), "no widths in \(dom.prefix(300))")
        let numbers = dom[match].dropFirst("data-widths=\"".count).dropLast().split(separator: " ").compactMap { Int($0) }
        return (numbers.first ?? Int.max, numbers.last ?? 0)
    }

    /// Runs headless Chromium with a fresh profile; no time limit here (a busy machine starts it slowly).
    static func run(_ chromium: String, _ arguments: [String]) throws -> CLIRunner.Output {
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("tally-chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                             "--user-data-dir=\(profile.path)"] + arguments
        // Standard error (Chromium is chatty) into a file, so neither pipe can fill and block it.
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let errors = profile.appendingPathComponent("stderr.txt")
        guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
            throw CLIRunner.EditError(message: "cannot create \(errors.path)")
        }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stderr = (try? Data(contentsOf: errors)) ?? Data()
        let output = CLIRunner.Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                                      stderr: String(decoding: stderr, as: UTF8.self))
        #expect(output.status == 0, "chromium \(arguments.joined(separator: " ")) exited \(output.status): \(output.stderr)")
        return output
    }
}
