import Foundation
import Testing
@testable import TallyCode
import TallyModel

/// A Swift module too big to keep parsed whole (issue 47: 9.5 MB of Swift took 1.1 GB) is read
/// file by file, then in groups of files that refer to each other. The groups must answer every
/// call as the whole module does: the same requests, rejected strings and notes.
@Suite struct SwiftModuleGroupsTests {
    static func files(_ sources: [String: String]) -> [CodeFile] {
        sources.sorted { $0.key < $1.key }.map { CodeFile(path: $0.key, text: $0.value, language: .swift) }
    }

    static func groups(_ sources: [String: String]) -> [[String]] {
        let files = files(sources)
        let summaries = files.map { SwiftScanner.FileSummary(SwiftUnit($0)) }
        return SwiftScanner.components(summaries).map { $0.map { files[$0].path } }
    }

    @Test func filesThatShareNoDeclaredNameAreReadApart() {
        let groups = Self.groups([
            "A.swift": "import StoreKit\nstruct A { func f(_ v: Int) -> Int { let s = \"a\"; return v + s.count } }\nfunc loadA() async throws { _ = try await Product.products(for: [\"com.a\"]) }\n",
            "B.swift": "import StoreKit\nstruct B { func g(_ v: Int) -> Int { let s = \"b\"; return v + s.count } }\nfunc loadB() async throws { _ = try await Product.products(for: [\"com.b\"]) }\n",
            "C.swift": "struct C { let id: String }\n",
        ])
        #expect(groups == [["A.swift"], ["B.swift"], ["C.swift"]])
    }

    @Test func aConstantAnExtensionAnInitAndACallerJoinTheirFiles() {
        let groups = Self.groups([
            "Buy.swift": "import StoreKit\nfunc buy(_ id: String) async throws { _ = try await Product.products(for: [id]) }\n",
            "Caller.swift": "func tap() async throws { try await buy(IDs.monthly) }\n",
            "IDs.swift": "enum IDs { static let monthly = \"com.app.monthly\" }\n",
            "Plan.swift": "struct Plan { let planCode: String }\n",
            "PlanMore.swift": "extension Plan { static let pro = Plan(planCode: \"com.app.pro\") }\n",
            "Made.swift": "struct Tier { let tierKey: String; init(key: String) { tierKey = key } }\n",
            "Uses.swift": "let tiers = [Tier.init(key: \"com.app.tier\")]\n",
            "Alone.swift": "let unrelated = 3\n",
        ])
        #expect(groups.contains(["Buy.swift", "Caller.swift", "IDs.swift"]))
        #expect(groups.contains(["Plan.swift", "PlanMore.swift"]))
        #expect(groups.contains(["Made.swift", "Uses.swift"]))
        #expect(groups.contains(["Alone.swift"]))
    }

    /// Every real Swift file Tally has (the code cases, the apps, the examples), read as one
    /// module and file by file: the same verdict.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: Self.realworld.path), "../shared/fixtures/realworld is absent: the real Swift files are skipped"))
    func realSwiftReadsTheSameFileByFile() throws {
        var modules: [(String, [CodeFile])] = []
        for folder in ["code", "apps"] {
            let root = Self.realworld.appendingPathComponent(folder)
            for entry in try FileManager.default.contentsOfDirectory(atPath: root.path).sorted() {
                let swift = Self.swiftFiles(under: root.appendingPathComponent(entry))
                if !swift.isEmpty { modules.append(("\(folder)/\(entry)", swift)) }
            }
        }
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("examples/code")
        modules.append(("examples/code", Self.swiftFiles(under: examples)))
        #expect(modules.count >= 5)
        var compared = 0
        for (name, files) in modules {
            let whole = CodeScanner.scan(files, idPattern: nil, swiftModuleBytes: .max)
            let apart = CodeScanner.scan(files, idPattern: nil, swiftModuleBytes: 0)
            #expect(whole.requests == apart.requests, "\(name): requests")
            #expect(whole.rejected == apart.rejected, "\(name): rejected strings")
            #expect(Set(whole.notes) == Set(apart.notes), "\(name): notes")
            compared += whole.requests.count
        }
        #expect(compared > 10)
    }

    /// A large real module, when `TALLY_SWIFT_MODULE` names its folder (run by hand over fetched
    /// repositories, not committed: RevenueCat/purchases-ios's 1,864 files, issue 47's closing note).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TALLY_SWIFT_MODULE"] != nil, "set TALLY_SWIFT_MODULE to a folder of Swift to compare both readings"))
    func aNamedModuleReadsTheSameFileByFile() throws {
        let root = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TALLY_SWIFT_MODULE"] ?? "")
        let files = Self.swiftFiles(under: root).filter { $0.text.utf8.count <= 8 << 20 }
        let whole = CodeScanner.scan(files, idPattern: nil, swiftModuleBytes: .max)
        let apart = CodeScanner.scan(files, idPattern: nil, swiftModuleBytes: 0)
        print("module \(root.path): \(files.count) files, \(whole.requests.count) requests, \(whole.rejected.count) rejected, \(whole.notes.count) notes")
        #expect(whole.requests == apart.requests)
        #expect(whole.rejected == apart.rejected)
        #expect(Set(whole.notes) == Set(apart.notes))
    }

    @Test func theSmallCasesReadTheSameFileByFile() {
        let cases: [[String: String]] = [
            ["Store.swift": "import StoreKit\nfunc load() async throws -> [Product] { try await Product.products(for: [\"com.app.pro\", \"com.app.tip\"]) }\n",
             "Other.swift": "let label = \"com.app.unused.thing\" // \"com.app.commented\"\n"],
            ["Buy.swift": "import StoreKit\nfunc buy(_ id: String) async throws { _ = try await Product.products(for: [id]) }\n",
             "Caller.swift": "func tap() async throws { try await buy(IDs.monthly); try await buy(Tier.pro.rawValue); try await buy(server()) }\n",
             "IDs.swift": "enum IDs { static let monthly = \"com.app.monthly\" }\nenum Tier: String, CaseIterable { case pro = \"com.app.tier.pro\", basic = \"com.app.tier.basic\" }\n",
             "Server.swift": "func server() -> String { \"com.app.\" + suffix }\nlet suffix = \"premium_yearly\"\n"],
        ]
        for sources in cases {
            let files = Self.files(sources)
            let whole = CodeScanner.scan(files, idPattern: "com\\.app\\..*", swiftModuleBytes: .max)
            let apart = CodeScanner.scan(files, idPattern: "com\\.app\\..*", swiftModuleBytes: 0)
            #expect(!whole.requests.isEmpty)
            #expect(whole.requests == apart.requests)
            #expect(whole.rejected == apart.rejected)
            #expect(Set(whole.notes) == Set(apart.notes))
        }
    }

    static let realworld = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/fixtures/realworld")

    static func swiftFiles(under root: URL) -> [CodeFile] {
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var files: [CodeFile] = []
        while let path = walker.nextObject() as? String {
            guard path.hasSuffix(".swift"), let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else { continue }
            files.append(CodeFile(path: path, text: text, language: .swift))
        }
        return files.sorted { $0.path < $1.path }
    }
}
