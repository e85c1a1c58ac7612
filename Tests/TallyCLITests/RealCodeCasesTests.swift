import Foundation
import Testing

/// Issue 49: every real case of ../shared/fixtures/realworld/code/ (a call site with the files its
/// IDs come from, as a public app wrote them, and `expected.json` read by hand) gives exactly its
/// IDs through `tally show FILES…`, the files read together as `check` reads a code source.
@Suite struct RealCodeCasesTests {
    static let cases = CLIRunner.shared.appendingPathComponent("fixtures/realworld/code")

    /// Cases Tally does not yet read whole, each with what it would need. A case listed here that
    /// starts passing fails the test, so that the list never hides a fixed case.
    static let notYet: [String: String] = [
        "07-kotlin-string-template-prefix":
            "three IDs are \"$PRODUCT_PREFIX.${name.lowercase()}\" of a data-class argument in another module: a call inside a template is not evaluated",
    ]

    struct Case: Sendable, CustomStringConvertible {
        let name: String
        let files: [String]
        let ids: [String]
        let store: String
        var description: String { name }
    }

    static func load() -> [Case] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: cases.path) else { return [] }
        return names.sorted().compactMap { name in
            let url = cases.appendingPathComponent(name).appendingPathComponent("expected.json")
            guard let data = try? Data(contentsOf: url),
                  let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  let files = document["files"] as? [String], let ids = document["ids"] as? [String] else { return nil }
            return Case(name: name, files: files, ids: ids.sorted(), store: document["store"] as? String ?? "unknown")
        }
    }

    @Test func everyCaseGivesExactlyItsIDs() throws {
        guard CLIRunner.sharedAvailable else {
            print("skipped: ../shared/fixtures/realworld is absent")
            return
        }
        let all = Self.load()
        #expect(all.count >= 43, "the cases of \(Self.cases.path)")
        var exact = 0
        for item in all {
            let output = try CLIRunner.run(["show", "--format", "json"] + item.files, in: Self.cases.appendingPathComponent(item.name))
            #expect(output.status == 0, "\(item): \(output.stderr)")
            let document = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
            let found = ((document?["products"] as? [[String: Any]]) ?? []).compactMap { $0["id"] as? String }.sorted()
            let uniqueExpected = Array(Set(item.ids)).sorted()
            if let reason = Self.notYet[item.name] {
                #expect(found != uniqueExpected, "\(item) now passes: take it out of notYet (\(reason))")
                // What it finds is still a subset: never an ID the code does not ask for.
                #expect(Set(found).isSubset(of: Set(uniqueExpected)), "\(item): \(found)")
                continue
            }
            #expect(found == uniqueExpected, "\(item): found \(found), expected \(uniqueExpected)")
            if found == uniqueExpected { exact += 1 }
        }
        #expect(exact + Self.notYet.count == all.count)
    }

    /// The store each request names: a case whose requests all ask one store says that store.
    @Test func requestsNameTheStoreTheyAsk() throws {
        guard CLIRunner.sharedAvailable else {
            print("skipped: ../shared/fixtures/realworld is absent")
            return
        }
        for item in Self.load() where ["app-store", "google-play"].contains(item.store) && Self.notYet[item.name] == nil {
            let output = try CLIRunner.run(["show", "--format", "json"] + item.files, in: Self.cases.appendingPathComponent(item.name))
            let document = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any]
            let requests = ((document?["code"] as? [String: Any])?["requests"] as? [[String: Any]]) ?? []
            let stores = Set(requests.compactMap { $0["store"] as? String })
            #expect(stores == [item.store], "\(item): \(stores)")
        }
    }
}
