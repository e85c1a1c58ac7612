import TallyCheck
import TallyReport
import Testing

@Suite("GitHub annotations")
struct GitHubReporterTests {
    @Test func oneWorkflowCommandPerFindingThenASummary() {
        // When
        let lines = GitHubReporter().report(Sample.mixed).split(separator: "\n").map(String.init)
        // Then
        #expect(lines.count == Sample.mixed.findings.count + 1)
        #expect(lines[0].hasPrefix("::error file=configs/App.storekit,line=42,col=7,title=price (com.example.pro.monthly)::com.example.pro.monthly costs 4.99 USD"))
        #expect(lines[0].contains("%0A  catalog: catalog/products.yaml:18:14  5.99 USD"))
        #expect(lines.contains { $0.hasPrefix("::warning file=") })
        #expect(lines.contains { $0.hasPrefix("::notice file=configs/App.storekit,title=group-id-mismatch::") })
        #expect(lines.last == "tally: ✘ 4 errors, 2 warnings, 1 note in 3 sources (4 products checked)")
    }

    @Test func theMissingSideWithoutALineIsNotTheAnnotatedOne() {
        let lines = GitHubReporter().report(Sample.mixed).split(separator: "\n")
        let missing = lines.first { $0.contains("title=missing-in-config") }
        #expect(missing?.hasPrefix("::error file=catalog/products.yaml,line=44,col=7,") == true)
    }

    @Test func messagesAndPropertiesAreEscapedAsGitHubExpects() {
        // Given: a percent sign, line breaks, colons and commas from a user's file.
        let finding = Finding.test(product: "com.a,b:c", message: "100% off\r\nnext::line", left: .test(file: "dir,1/a:b.storekit"), right: nil)
        // When
        let line = GitHubReporter().report(.test(findings: [finding])).split(separator: "\n")[0]
        // Then
        // A line break inside the message (a newline in an ID) is shown, not a break in the
        // annotation (issue 47); the annotation's own lines are joined with %0A.
        #expect(line == "::error file=dir%2C1/a%3Ab.storekit,line=42,col=7,title=price (com.a%2Cb%3Ac)::100%25 off\\u{D}\\u{A}next::line%0A  configuration: dir,1/a:b.storekit:42:7  4.99 USD")
    }

    @Test func aConsistentResultIsOneSummaryLine() {
        #expect(GitHubReporter().report(Sample.consistent) == "tally: ✔ consistent: 2 products checked in 2 sources, 0 errors, 0 warnings")
    }
}
