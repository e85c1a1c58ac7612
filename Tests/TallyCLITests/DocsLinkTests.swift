import Foundation
import Testing

/// Issue 21 item 2: every relative link in README.md and docs/**/*.md points to a file that
/// exists, and a link's `#anchor` to a heading of that file (GitHub's anchors). Links inside
/// code are not links; web addresses are not checked.
@Suite struct DocsLinkTests {
    struct Link: CustomStringConvertible {
        var source: String
        var target: String
        var description: String { "\(source): (\(target))" }
    }

    /// `[text](target)` and `![alt](target)` outside code blocks and inline code, with the line.
    static func links(in text: String, named path: String) -> [Link] {
        var links: [Link] = []
        var inBlock = false
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = raw.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") { inBlock.toggle(); continue }
            guard !inBlock else { continue }
            let line = withoutInlineCode(String(raw))
            var rest = Substring(line)
            while let close = rest.range(of: "](") {
                let after = rest[close.upperBound...]
                guard let end = after.firstIndex(of: ")") else { break }
                var target = String(after[..<end]).trimmingCharacters(in: .whitespaces)
                if let space = target.firstIndex(of: " ") { target = String(target[..<space]) }   // [a](b "title")
                links.append(Link(source: "\(path):\(index + 1)", target: target))
                rest = after[end...]
            }
        }
        return links
    }

    static func withoutInlineCode(_ line: String) -> String {
        var result = ""
        var inCode = false
        for character in line {
            if character == "`" { inCode.toggle(); continue }
            if !inCode { result.append(character) }
        }
        return result
    }

    /// GitHub's anchors for a document's headings: lower case, punctuation but `-` and `_`
    /// dropped, spaces as `-`; a repeated one gets `-1`, `-2`.
    static func anchors(in text: String) -> Set<String> {
        var anchors = Set<String>()
        var counts: [String: Int] = [:]
        var inBlock = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") { inBlock.toggle(); continue }
            guard !inBlock, raw.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            var slug = ""
            for character in title.lowercased() {
                if character.isLetter || character.isNumber || character == "-" || character == "_" { slug.append(character) }
                else if character == " " { slug.append("-") }
            }
            let seen = counts[slug, default: 0]
            counts[slug] = seen + 1
            anchors.insert(seen == 0 ? slug : "\(slug)-\(seen)")
        }
        return anchors
    }

    @Test func anchorsAreGitHubs() {
        let anchors = Self.anchors(in: "# Tally\n## Start a catalogue from your `.storekit`\n## Policy file: `.tally.yml`\n## Exit codes\n## Exit codes\n```\n# not a heading\n```")
        #expect(anchors == ["tally", "start-a-catalogue-from-your-storekit", "policy-file-tallyyml", "exit-codes", "exit-codes-1"])
        let links = Self.links(in: "see [a](docs/a.md#x) and `[b](c)`\n```\n[d](e)\n```\n[f](https://example.com)", named: "R.md")
        #expect(links.map(\.target) == ["docs/a.md#x", "https://example.com"])
    }

    /// Files other branches write, linked before they land (none now: snapshots.md, install.md and
    /// the pre-commit hook have all landed). A listed file that
    /// exists fails the test, so that the list is emptied once they are merged.
    static let writtenElsewhere: Set<String> = []

    @Test func filesWrittenElsewhereAreListedOnlyUntilTheyLand() {
        for path in Self.writtenElsewhere.sorted() {
            let exists = FileManager.default.fileExists(atPath: CLIRunner.repository.appendingPathComponent(path).path)
            #expect(!exists, "\(path) exists now: take it off DocsLinkTests.writtenElsewhere so that its links are checked")
        }
    }

    @Test func everyRelativeLinkResolves() throws {
        let repository = CLIRunner.repository
        var failures: [String] = []
        var checked = 0
        for path in try ExamplesRunTests.documents() {
            let file = repository.appendingPathComponent(path)
            let text = try String(contentsOf: file, encoding: .utf8)
            for link in Self.links(in: text, named: path) {
                let target = link.target
                if target.isEmpty || target.contains("://") || target.hasPrefix("mailto:") { continue }
                checked += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let destination = parts[0].isEmpty ? file : file.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                let fromTop = destination.path.hasPrefix(repository.standardizedFileURL.path + "/")
                    ? String(destination.path.dropFirst(repository.standardizedFileURL.path.count + 1)) : destination.path
                if Self.writtenElsewhere.contains(fromTop) { continue }
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: destination.path, isDirectory: &isDirectory) else {
                    failures.append("\(link): no such file")
                    continue
                }
                guard parts.count == 2 else { continue }
                guard !isDirectory.boolValue, destination.pathExtension == "md" else {
                    failures.append("\(link): an anchor into a file that is not Markdown")
                    continue
                }
                let anchors = Self.anchors(in: try String(contentsOf: destination, encoding: .utf8))
                if !anchors.contains(parts[1]) { failures.append("\(link): no heading with the anchor #\(parts[1])") }
            }
        }
        #expect(checked >= 30, "the documents link each other")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
