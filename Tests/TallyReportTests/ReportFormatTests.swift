import TallyReport
import Testing

@Suite("Report formats")
struct ReportFormatTests {
    @Test("Every format's reporter carries the format's name", arguments: ReportFormat.allCases)
    func identifierMatches(_ format: ReportFormat) {
        #expect(type(of: format.reporter(color: false)).identifier == format.rawValue)
    }
}
