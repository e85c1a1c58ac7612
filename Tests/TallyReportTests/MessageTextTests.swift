import Foundation
import TallyCheck
import TallyDiff
import TallyModel
import TallyReport
import Testing

/// The reporters make a finding's and a change's words from typed parts (issue 39): one
/// rendering per report, the values' words from `PeopleText`, machine values from `MachineText`.
@Suite struct MessageTextTests {
    @Test func aDurationIsAValueTheReportersRender() throws {
        let period = try #require(Period(iso8601: "P4W"))
        let message: FindingMessage = "\(product: "com.a") renews every \(duration: period, days: true) {here}"
        #expect(MessageText.plain(message) == "com.a renews every 4 weeks (28 days) {here}")
        #expect(message.baselineText == MessageText.plain(message))
        let template = MessageText.template(message)
        #expect(template.text == "{0} renews every {1} {{here}}")
        #expect(template.arguments == ["com.a", "4 weeks (28 days)"])
        let part = JSONReport.MessagePart(message.parts[2])
        #expect(part.kind == "duration" && part.text == "4 weeks (28 days)" && part.period == "P4W")
    }

    @Test func moneyForPeopleAndForMachines() {
        let brl = Money(amount: Decimal(string: "10.9") ?? 0, currency: "BRL")
        #expect(PeopleText.money(brl) == "10.90 BRL")
        #expect(MachineText.amount(brl) == "10.90")
        #expect(MachineText.exact(brl) == "10.9 BRL")
        #expect(FindingValue.money(brl).words == "10.90 BRL")
        #expect(FindingValue.money(brl).baselineText == "10.9 BRL")
    }

    @Test func aChangeNoteBecomesWordsInTheReport() {
        #expect(ChangeNote.possibleRename(old: "com.a.tip_jar", new: "com.a.tip.jar").text == "renamed? com.a.tip_jar → com.a.tip.jar")
        #expect(ChangeNote.members(1).text == "1 subscription")
        #expect(ChangeNote.localizationChanged(displayName: true, description: true).text == "display name and description changed")
        #expect(ChangeNote.offerPricesFollow(storefront: false).text == "offer prices follow the default territory")
    }
}
