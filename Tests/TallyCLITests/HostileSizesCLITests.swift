import Foundation
import Testing

/// Issue 37, items 5 and 6, through the binary: sizes are checked before anything is read (a blob
/// at a revision, a key file), numbers are parsed with bounds, nesting is bounded by what the
/// readers' stack holds, a revision is never an option to git, a folder at a revision is read
/// through one git process, and inputs that would be misread (a zip, two RevenueCat projects in
/// one folder) or a user's folder that looks like a staging folder are left alone. Time is never
/// asserted: process counts and peak memory are.
@Suite(.serialized, .timeLimit(.minutes(10))) struct HostileSizesCLITests {
    // MARK: - Sizes before reading

    @Test func aBlobJustOverALoweredLimitIsRefusedFromItsSize() throws {
        let repository = try GitRepository()
        defer { repository.remove() }
        let size = 1_048_576 + 1_024
        try Data(repeating: UInt8(ascii: " "), count: size).write(to: repository.url.appendingPathComponent("over.json"))
        try repository.commit("a blob just over 1 MB")
        let output = try CLIRunner.run(["show", "over.json@HEAD", "--max-input-mb", "1"], in: repository.url)
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.stderr.contains("over.json@HEAD: error: the file is \(size) bytes, over the 1 MB input limit at HEAD (raise it with --max-input-mb)"),
                "\(output.stderr)")
        // The same file in the working tree: the same words.
        let here = try CLIRunner.run(["show", "over.json", "--max-input-mb", "1"], in: repository.url)
        #expect(here.status == 2 && here.stderr.contains("the file is \(size) bytes, over the 1 MB input limit"), "\(here.stderr)")
    }

    @Test(.enabled(if: MeasuredRun.timeAvailable, "GNU time is not installed"))
    func aLargeBlobOverTheLimitIsNotRead() throws {
        let repository = try GitRepository()
        defer { repository.remove() }
        // 96 MB at HEAD, 1 MB allowed: refused from the listing's size, so the run stays far below the blob's size.
        try Data(count: 96 << 20).write(to: repository.url.appendingPathComponent("large.json"))
        try repository.commit("a 96 MB blob")
        let path = repository.url.appendingPathComponent("large.json").path
        let run = try MeasuredRun.run(["show", "\(path)@HEAD", "--max-input-mb", "1"])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("the file is 96 MB, over the 1 MB input limit at HEAD"), "\(run.stderr)")
        #expect(run.maxResidentKB < 80 << 10, "peak \(run.maxResidentKB) KB for a 96 MB blob that should not be read")
    }

    @Test func aKeyFileIsCheckedBeforeItIsRead() throws {
        let scratch = try Scratch(["big.key": String(repeating: "k", count: 5_000)])
        defer { scratch.remove() }
        try FileManager.default.createDirectory(at: scratch.root.appendingPathComponent("folder.key"), withIntermediateDirectories: true)
        #expect(mkfifo(scratch.root.appendingPathComponent("pipe.key").path, 0o600) == 0)
        let cases: [(String, String)] = [
            ("big.key", "big.key is 5000 bytes, over the 4096 it may hold: it should hold the secret key alone"),
            ("folder.key", "folder.key is a folder, not a file"),
            ("pipe.key", "pipe.key is a named pipe, not a file"),
            ("/dev/zero", "/dev/zero is a device, not a file"),
            ("missing.key", "cannot read the RevenueCat API key file missing.key: No such file or directory"),
        ]
        for (file, message) in cases {
            let output = try scratch.run(["fetch", "revenuecat", "--project", "proj1ab2c3d4", "--api-key-file", file,
                                          "--output", "out", "--api-url", "http://127.0.0.1:9"])
            #expect(output.status == 2, "\(file): \(output.stderr)")
            #expect(output.stderr.contains(message), "\(file): \(output.stderr)")
            #expect(!FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent("out").path))
        }
    }

    // MARK: - Numbers with bounds

    @Test(arguments: [
        ("--max-input-mb", "8796093022208", "from 1 to 1048576"), ("--max-input-mb", "99999999999999999999", "from 1 to 1048576"),
        ("--max-input-mb", "0", "from 1 to 1048576"), ("--max-input-mb", "-1", "from 1 to 1048576"), ("--max-input-mb", "1.5", "from 1 to 1048576"),
        ("--max-input-mb", "1048577", "from 1 to 1048576"), ("--max-depth", "0", "from 1 to 10000"), ("--max-depth", "10001", "from 1 to 10000"),
        ("--max-depth", "4611686018427387904", "from 1 to 10000"),
    ])
    func aNumberOutOfBoundsIsAUsageError(option: String, value: String, range: String) throws {
        let output = try CLIRunner.run(["show", "configs/ExampleApp.storekit", "\(option)=\(value)"])
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.stderr.contains(option) && output.stderr.contains(range), "\(output.stderr)")
        #expect(!output.stderr.contains("Fatal error") && !output.stderr.contains("crashed"), "\(output.stderr)")
    }

    /// The fetch's numbers were read with bounds already (issue 26): every numeric option of every command is.
    @Test(arguments: [("--timeout", "1e400", "from 1 to 86400"), ("--timeout", "nan", "from 1 to 86400"), ("--timeout", "0.5", "from 1 to 86400"),
                      ("--backoff-scale", "1e400", "--backoff-scale must be a number from 0 to"), ("--backoff-scale", "-1", "--backoff-scale must be a number from 0 to")])
    func aFetchNumberOutOfBoundsIsAUsageError(option: String, value: String, words: String) throws {
        let output = try CLIRunner.run(["fetch", "revenuecat", "--project", "proj1ab2c3d4", "--output", "/nonexistent-tally-test/out",
                                        "--api-url", "http://127.0.0.1:9", "\(option)=\(value)"], environment: ["REVENUECAT_API_KEY": "sk_test"])
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.stderr.contains(words), "\(output.stderr)")
    }

    @Test func theBoundsThemselvesAreAccepted() throws {
        let output = try CLIRunner.run(["show", "configs/ExampleApp.storekit", "--max-input-mb", "1048576", "--max-depth", "10000"])
        #expect(output.status == 0, "\(output.stderr)")
    }

    // MARK: - Nesting within the stack

    static func nested(_ levels: Int) -> String { String(repeating: "[", count: levels) + String(repeating: "]", count: levels) }

    @Test func aDeepDocumentAtTheMostDepthIsRefusedNotCrashed() throws {
        let deep = Self.nested(100_000)
        let scratch = try Scratch([
            "deep.json": "{\"format\": \"tally-catalog/1\", \"products\": \(deep)}",
            "deep-skipped.storekit": "{\"appPolicies\": \(deep), \"products\": [], \"version\": {}}",
            "deep-page.json": "{\"object\": \"list\", \"url\": \"/v2/projects/p/products\", \"lookup_key\": 1, \"items\": \(deep)}",
        ])
        defer { scratch.remove() }
        for file in ["deep.json", "deep-skipped.storekit", "deep-page.json"] {
            let output = try scratch.run(["show", file, "--max-depth", "10000"])
            #expect(output.status == 2, "\(file): \(output.status) \(output.stderr.prefix(600))")
            #expect(output.stderr.contains("\(file):1:") && output.stderr.contains("nesting deeper than 10000 levels, the most Tally reads"),
                    "\(file): \(output.stderr.prefix(600))")
            #expect(!output.stderr.contains("--max-depth"), "no remedy past the most: \(output.stderr.prefix(600))")
        }
    }

    @Test func documentsJustWithinTheMostDepthAreReadOnAnyThread() throws {
        // 9,990 levels: within the limit, so the readers build (and free) trees that deep. Two
        // pages at once are read in parallel, on threads other than the main one.
        let deep = Self.nested(9_990)
        let scratch = try Scratch([
            "skipped.storekit": "{\"appPolicies\": \(deep), \"products\": [], \"version\": {\"major\": 3, \"minor\": 0}}",
            "a/page.json": "{\"object\": \"list\", \"url\": \"/v2/projects/p/products\", \"lookup_key\": 1, \"items\": [], \"deep\": \(deep)}",
            "b/page.json": "{\"object\": \"list\", \"url\": \"/v2/projects/p/products\", \"lookup_key\": 1, \"items\": [], \"deep\": \(deep)}",
            "deep.yaml": "format: tally-catalog/1\nproducts: \(Self.nested(5_000))\n",
        ])
        defer { scratch.remove() }
        let skipped = try scratch.run(["show", "skipped.storekit", "--max-depth", "10000"])
        #expect(skipped.status == 0, "\(skipped.stderr.prefix(600))")
        let pages = try scratch.run(["show", "a/page.json", "b/page.json", "--max-depth", "10000"])
        #expect(pages.status == 0 || pages.status == 2, "\(pages.status) \(pages.stderr.prefix(600))")
        #expect(!pages.stderr.contains("crashed") && !pages.stderr.contains("Fatal error"), "\(pages.stderr.prefix(600))")
        let yaml = try scratch.run(["show", "deep.yaml", "--max-depth", "10000"])
        #expect(yaml.status == 2 && yaml.stderr.contains("deep.yaml:2:"), "\(yaml.status) \(yaml.stderr.prefix(600))")
    }

    // MARK: - Limits of files the input limit does not set

    @Test func aPolicyBaselineOrMappingOverItsOwnLimitSaysSoWithoutTheFlag() throws {
        let repository = try GitRepository()
        defer { repository.remove() }
        let policy = "version: 1\nsources:\n  - configs/*.storekit\n" + String(repeating: "#", count: 5 << 20) + "\n"
        try policy.write(to: repository.url.appendingPathComponent(".tally.yml"), atomically: true, encoding: .utf8)
        let checked = try CLIRunner.run(["check", "--max-input-mb", "1024"], in: repository.url)
        #expect(checked.status == 2, "\(checked.stderr)")
        #expect(checked.stderr.contains(".tally.yml: error: the file is 5 MB, over the 4 MB that a policy file may hold (a fixed limit)"), "\(checked.stderr)")
        #expect(!checked.stderr.contains("--max-input-mb"), "\(checked.stderr)")
        try FileManager.default.removeItem(at: repository.url.appendingPathComponent(".tally.yml"))

        for (name, size, option, words) in [("baseline.json", 300 << 20, "--baseline", "the file is 300 MB, over the 256 MB that a baseline file may hold (a fixed limit)"),
                                            ("mapping.yml", 17 << 20, "--mapping", "the file is 17 MB, over the 16 MB that a mapping file may hold (a fixed limit)")] {
            let file = repository.url.appendingPathComponent(name)
            #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: UInt64(size))
            try handle.close()
            let output = try CLIRunner.run(["check", "configs/ExampleApp.storekit", "catalog/products.yaml", option, name, "--max-input-mb", "1024"],
                                           in: repository.url)
            #expect(output.status == 2, "\(name): \(output.stderr)")
            #expect(output.stderr.contains(words), "\(name): \(output.stderr)")
            #expect(!output.stderr.contains("--max-input-mb"), "\(name): \(output.stderr)")
        }
    }

    // MARK: - git

    @Test func aRevisionThatLooksLikeAnOptionIsARevision() throws {
        let repository = try GitRepository()
        defer { repository.remove() }
        let unknown = try CLIRunner.run(["diff", "catalog/products.yaml@-x", "catalog/products.yaml"], in: repository.url)
        #expect(unknown.status == 2, "\(unknown.stderr)")
        #expect(unknown.stderr.contains("'-x' is not a commit, branch or tag in this repository"), "\(unknown.stderr)")
        let outside = repository.url.appendingPathComponent("written-by-git")
        let option = try CLIRunner.run(["diff", "catalog/products.yaml@--output=\(outside.path)", "catalog/products.yaml"], in: repository.url)
        #expect(option.status == 2 && option.stderr.contains("is not a commit, branch or tag"), "\(option.stderr)")
        #expect(!FileManager.default.fileExists(atPath: outside.path))
        // `git branch` refuses such a name, `git update-ref` makes it: the file is read at it.
        #expect(try GitRepository.run(["update-ref", "refs/heads/-x", "HEAD"], in: repository.url) == 0)
        let named = try CLIRunner.run(["diff", "catalog/products.yaml@-x", "catalog/products.yaml"], in: repository.url)
        #expect(named.status == 0, "\(named.stderr)")
        #expect(!named.stderr.contains("does not exist"), "\(named.stderr)")
    }

    /// A `git` that counts its runs, then runs the real one.
    static func countingGit(in folder: URL) throws -> (path: String, log: URL) {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        let real = try #require(paths.map { ($0 as NSString).appendingPathComponent("git") }.first { FileManager.default.isExecutableFile(atPath: $0) })
        let bin = folder.appendingPathComponent("counting-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("git-runs.log")
        try "#!/bin/sh\necho \"$1\" >> '\(log.path)'\nexec '\(real)' \"$@\"\n".write(to: bin.appendingPathComponent("git"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("git").path)
        return (([bin.path] + paths).joined(separator: ":"), log)
    }

    @Test func aFolderAtARevisionIsReadThroughOneBatch() throws {
        let repository = try GitRepository()
        defer { repository.remove() }
        let pages = 60
        var files: [String: String] = ["rc/0001-apps.json": RevenueCatFolder.apps(project: "proj1ab2c3d4")]
        for index in 0..<pages { files[String(format: "rc/%04d-products.json", index + 2)] = RevenueCatFolder.products([index], project: "proj1ab2c3d4") }
        for (path, text) in files {
            let url = repository.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try repository.commit("a folder of \(pages + 1) pages")
        let (path, log) = try Self.countingGit(in: repository.url.deletingLastPathComponent().appendingPathComponent(UUID().uuidString))
        defer { try? FileManager.default.removeItem(at: log.deletingLastPathComponent()) }
        let output = try CLIRunner.run(["diff", "rc@HEAD", "rc"], in: repository.url, environment: ["PATH": path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("\(pages) products"), "\(output.stdout)")
        let runs = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        // Before: three git processes a page (rev-parse, cat-file -t, show), twice: 370 for these 61 pages.
        #expect(runs.count <= 12, "\(runs.count) git processes: \(Dictionary(grouping: runs, by: { $0 }).mapValues(\.count))")
        #expect(runs.filter { $0 == "cat-file" }.count <= 2, "\(runs)")
    }

    // MARK: - RevenueCat folders

    @Test func aFolderOfTwoRevenueCatProjectsIsRefused() throws {
        let scratch = try Scratch([
            "rc/0001-apps.json": RevenueCatFolder.apps(project: "proj1ab2c3d4"),
            "rc/0002-products.json": RevenueCatFolder.products([0], project: "proj1ab2c3d4"),
            "rc/0003-products.json": RevenueCatFolder.products([1], project: "proj9zz8yy7x"),
        ])
        defer { scratch.remove() }
        let output = try scratch.run(["show", "rc"])
        #expect(output.status == 2, "\(output.stdout) \(output.stderr)")
        #expect(output.stderr.contains("rc: error: the pages come from 2 RevenueCat projects, proj1ab2c3d4 (0001-apps.json) and proj9zz8yy7x (0003-products.json)"),
                "\(output.stderr)")
        // One project's pages read as before.
        try FileManager.default.removeItem(at: scratch.root.appendingPathComponent("rc/0003-products.json"))
        #expect(try scratch.run(["show", "rc"]).status == 0)
    }

    @Test func aPackageListingAProductTwiceHoldsItOnce() throws {
        let scratch = try Scratch(["rc/0001-apps.json": RevenueCatFolder.apps(project: "proj1ab2c3d4"),
                                   "rc/0002-offerings.json": RevenueCatFolder.offering(products: [0, 1, 0, 2, 1], project: "proj1ab2c3d4")])
        defer { scratch.remove() }
        let output = try scratch.run(["show", "rc"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("1 offering") || output.stdout.contains("com.example.p2"), "\(output.stdout)")
        let json = try scratch.run(["show", "rc", "--format", "json"])
        #expect(json.stdout.components(separatedBy: "\"com.example.p0\"").count - 1 >= 1, "\(json.stdout.prefix(400))")
    }

    // MARK: - Zip archives

    @Test func aZippedReportIsNamedAsAZip() throws {
        let report = try String(contentsOf: CLIRunner.repository.appendingPathComponent("examples/review-readiness/in-app-purchases.txt"), encoding: .utf8)
        let zip = Zip.stored(name: "in-app-purchases.txt", Array(report.utf8))
        let scratch = try Scratch([:])
        defer { scratch.remove() }
        for name in ["in-app-purchases.txt", "report.zip", "products.json"] {
            try FileManager.default.createDirectory(at: scratch.root, withIntermediateDirectories: true)
            try Data(zip).write(to: scratch.root.appendingPathComponent(name))
        }
        for arguments in [["show", "in-app-purchases.txt"], ["show", "report.zip"], ["show", "products.json"],
                          ["show", "in-app-purchases.txt", "--input-format", "app-store-connect-report"],
                          ["check", CLIRunner.repository.appendingPathComponent("configs/ExampleApp.storekit").path, "in-app-purchases.txt"]] {
            let output = try scratch.run(arguments)
            let file = arguments[1] == "in-app-purchases.txt" || arguments[0] == "check" ? "in-app-purchases.txt" : arguments[1]
            #expect(output.status == 2, "\(arguments): \(output.stderr)")
            #expect(output.stderr.contains("\(file): error: the file is a zip archive: unzip it first and name the file inside"), "\(arguments): \(output.stderr)")
        }
    }

    // MARK: - Stale staging folders

    @Test(.enabled(if: CLIRunner.fetches, "needs the network stack: swift test --traits Fetch"))
    func onlyTallysOwnStaleFoldersAreSwept() throws {
        let scratch = try Scratch([".OUT.tally-old-notapid/notes.txt": "mine", ".OUT.tally-partial-12ab/notes.txt": "mine too"])
        defer { scratch.remove() }
        let alive = ProcessInfo.processInfo.processIdentifier
        let stale = [".OUT.tally-partial-2147483646-DEAD0001", ".OUT.tally-old-2147483646-DEAD0002"]
        let kept = [".OUT.tally-old-notapid", ".OUT.tally-partial-12ab", ".OUT.tally-old-\(alive)-ABCDEF01", ".OUT.tally-old-2147483646-DEAD0002x",
                    ".OUT.tally-old-02147483646-DEAD0003"]
        for name in stale + kept where !FileManager.default.fileExists(atPath: scratch.root.appendingPathComponent(name).path) {
            try FileManager.default.createDirectory(at: scratch.root.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let output = try CLIRunner.run(["fetch", "revenuecat", "--project", "proj1ab2c3d4", "--output", "OUT", "--api-url", "http://127.0.0.1:9"],
                                       in: scratch.root, environment: ["REVENUECAT_API_KEY": "sk_test", "TALLY_FETCH_BACKOFF_SCALE": "0.01",
                                                                       "TALLY_FETCH_MAX_REQUESTS": "1"])
        #expect(output.status == 2, "\(output.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.root.path)
        #expect(Set(left) == Set(kept), "\(left.sorted())")
        #expect(try String(contentsOf: scratch.root.appendingPathComponent(".OUT.tally-old-notapid/notes.txt"), encoding: .utf8) == "mine")
    }
}

/// RevenueCat API v2 pages for these tests.
enum RevenueCatFolder {
    static func product(_ index: Int) -> String {
        """
        {"object": "product", "id": "prod\(index)", "store_identifier": "com.example.p\(index)", "type": "consumable", "created_at": 1, \
        "app_id": "app1", "display_name": "P\(index)", "state": "active"}
        """
    }

    static func apps(project: String) -> String {
        """
        {"object": "list", "next_page": null, "url": "/v2/projects/\(project)/apps", "items": [{"object": "app", "id": "app1", "name": "A", \
        "created_at": 1, "type": "app_store", "project_id": "\(project)", "app_store": {"bundle_id": "com.example.a"}}]}
        """
    }

    static func products(_ indices: [Int], project: String) -> String {
        "{\"object\": \"list\", \"next_page\": null, \"url\": \"/v2/projects/\(project)/products\", \"items\": [\(indices.map(product).joined(separator: ", "))]}"
    }

    /// One offering whose one package lists `products` (repeats kept), as `expand=items.package.product` gives it.
    static func offering(products: [Int], project: String) -> String {
        let items = products.map { "{\"product\": \(product($0)), \"eligibility_criteria\": \"all\"}" }.joined(separator: ", ")
        return """
        {"object": "list", "next_page": null, "url": "/v2/projects/\(project)/offerings", "items": [{"object": "offering", "id": "ofrng1", \
        "lookup_key": "default", "display_name": "D", "is_current": true, "created_at": 1, "project_id": "\(project)", "metadata": null, \
        "packages": {"object": "list", "next_page": null, "url": "/v2/projects/\(project)/offerings/ofrng1/packages", "items": [{"object": "package", \
        "id": "pkg1", "lookup_key": "$rc_monthly", "display_name": "M", "position": 1, "created_at": 1, "products": {"object": "list", \
        "next_page": null, "url": "/v2/projects/\(project)/packages/pkg1/products", "items": [\(items)]}}]}}]}
        """
    }
}

/// A zip archive of one file, stored (not compressed), as `zip -0` writes it.
enum Zip {
    static func stored(name: String, _ bytes: [UInt8]) -> [UInt8] {
        let crc = crc32(bytes)
        let nameBytes = Array(name.utf8)
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) } }
        let sizes = le32(crc) + le32(UInt32(bytes.count)) + le32(UInt32(bytes.count))
        let local = [0x50, 0x4B, 0x03, 0x04] + le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + sizes + le16(nameBytes.count) + le16(0) + nameBytes
        let central = [0x50, 0x4B, 0x01, 0x02] + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0) + sizes
            + le16(nameBytes.count) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(0) + nameBytes
        let end = [0x50, 0x4B, 0x05, 0x06] + le16(0) + le16(0) + le16(1) + le16(1) + le32(UInt32(central.count))
            + le32(UInt32(local.count + bytes.count)) + le16(0)
        return local + bytes + central + end
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
