import Foundation
import TallyCheck
import TallyModel
import TallyReport
import Testing

@Suite("JSON reporter")
struct JSONReporterTests {
    static let findingKeys: Set<String> = [
        "rule", "severity", "product", "territory", "offer", "field", "message", "message_parts", "hint", "configuration", "catalog", "source",
    ]
    static let sideKeys: Set<String> = ["value", "amount", "currency", "period", "territories", "store", "file", "line", "column", "path"]

    @Test("The output parses as JSON and has every documented key")
    func documentedKeys() throws {
        // When
        let output = JSONReporter().report(Sample.mixed)
        // Then
        let root = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(Set(root.keys) == ["version", "summary", "comparisons", "pairs", "findings", "diagnostics"])
        #expect((root["diagnostics"] as? [Any])?.isEmpty == true)
        let pairs = try #require(root["pairs"] as? [[String: Any]])
        #expect(pairs.count == Sample.mixed.pairs.count)
        for pair in pairs {
            #expect(Set(pair.keys) == ["configuration", "catalog", "territory", "shared_products", "compared", "skipped"])
            for skipped in (pair["skipped"] as? [[String: Any]]) ?? [] {
                #expect(Set(skipped.keys) == ["field", "reason", "missing_in"])
            }
        }
        let plist = try #require(pairs.last)
        #expect(plist["compared"] as? [String] == ["kind", "group", "level"])
        #expect((plist["skipped"] as? [[String: Any]])?.first?["reason"] as? String == "the property list has no prices")
        #expect(root["version"] as? Int == 1)
        let summary = try #require(root["summary"] as? [String: Any])
        #expect(Set(summary.keys) == ["errors", "warnings", "notes", "products_checked", "sources"])
        #expect(summary["errors"] as? Int == 4)
        #expect(summary["warnings"] as? Int == 2)
        #expect(summary["notes"] as? Int == 1)
        #expect(summary["products_checked"] as? Int == 4)
        let findings = try #require(root["findings"] as? [[String: Any]])
        #expect(findings.count == Sample.mixed.findings.count)
        for finding in findings {
            #expect(Set(finding.keys) == Self.findingKeys)
            for key in ["configuration", "catalog", "source"] {
                if let side = finding[key] as? [String: Any] {
                    // A side of a finding between two sources says its role; a lint finding's one side has none.
                    #expect(Set(side.keys) == (key == "source" ? Self.sideKeys : Self.sideKeys.union(["role"])))
                } else {
                    #expect(finding[key] is NSNull)
                }
            }
        }
    }

    @Test("A finding's message_parts are its message as words and typed values; their texts make the message")
    func messageParts() throws {
        let document = JSONReporter.document(for: .test(findings: [.test()]))
        let record = try #require(document.findings.first)
        let parts = try #require(record.messageParts)
        #expect(parts.map(\.text).joined() == record.message)
        #expect(parts.map(\.kind) == ["product", "text", "money", "text", "territory", "text", "source", "text", "money", "text", "source"])
        let money = try #require(parts.first { $0.kind == "money" })
        #expect(money.text == "4.99 USD" && money.amount == "4.99" && money.currency == "USD")
        #expect(parts.first { $0.kind == "territory" }?.territories == ["USA"])
        let json = JSONReporter().report(.test(findings: [.test()]))
        #expect(json.contains("\"message_parts\" : ["))
    }

    @Test("Lint findings put their side under source; cross-source ones under configuration and catalog")
    func sidesByRole() throws {
        // Given
        let lint = Finding.test(rule: .invalidPeriod, left: .test(role: "source"), right: nil)
        // When
        let document = JSONReporter.document(for: .test(findings: [lint, .test()]))
        // Then
        #expect(document.findings[0].source?.file == "configs/App.storekit")
        #expect(document.findings[0].configuration == nil)
        #expect(document.findings[1].configuration?.line == 42)
        #expect(document.findings[1].catalog?.value == "5.99 USD")
        #expect(document.findings[1].source == nil)
    }

    @Test("The output decodes back into the same report")
    func roundTrips() throws {
        let output = JSONReporter().report(Sample.mixed)
        let decoded = try JSONDecoder().decode(JSONReport.self, from: Data(output.utf8))
        #expect(decoded == JSONReporter.document(for: Sample.mixed))
    }

    @Test("The run's diagnostics are listed with every key, null where one does not apply")
    func diagnostics() throws {
        var context = ReportContext()
        context.diagnostics = [
            Diagnostic(.warning, "com.example.pro: price \"abc\" is not a decimal; the value was not taken (invalid-price)",
                       at: SourceLocation(file: "App.storekit", line: 12, column: 7)),
            Diagnostic(.error, "the file is larger than the input limit", at: SourceLocation(file: "big.json"), remedy: .raiseInputLimit),
        ]
        let output = JSONReporter(context: context).report(Sample.mixed)
        let root = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let list = try #require(root["diagnostics"] as? [[String: Any]])
        #expect(list.count == 2)
        for entry in list { #expect(Set(entry.keys) == ["severity", "message", "file", "line", "column", "path", "remedy"]) }
        #expect(list[0]["severity"] as? String == "warning")
        #expect(list[0]["line"] as? Int == 12)
        #expect(list[0]["remedy"] is NSNull)
        #expect(list[1]["remedy"] as? String == "raiseInputLimit")
        #expect(list[1]["line"] is NSNull)
    }

    @Test("An offer on a side keeps its period and price apart from its words")
    func anOfferSideIsTyped() throws {
        let offer = Offer(id: "intro", mode: .payAsYouGo, period: Period(months: 1, days: 0), periods: 3,
                          price: Money(amount: Decimal(string: "1.99") ?? 0, currency: "USD"))
        let side = JSONReport.SideRecord(value: .offer(offer), store: nil, file: "App.storekit", line: 3, column: 5, path: nil)
        #expect(side.value == "pay as you go: 1.99 USD per 1 month, 3 periods")
        #expect(side.period == "P1M")
        #expect(side.amount == "1.99")
        #expect(side.currency == "USD")
        let free = JSONReport.SideRecord(value: .offer(Offer(id: nil, mode: .freeTrial, period: Period(months: 0, days: 7), periods: 1, price: nil)),
                                         store: nil, file: "b.yaml", line: 1, column: 1, path: nil)
        #expect(free.period == "P1W" && free.amount == nil && free.currency == nil, "\(free)")
    }
}
