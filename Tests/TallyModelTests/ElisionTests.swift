import Testing
import TallyModel

@Suite struct ElisionTests {
    @Test func shortTextIsUntouched() {
        #expect(Elision.message("catalog/products.yaml:3:7: error: unknown kind \"gizmo\"") == "catalog/products.yaml:3:7: error: unknown kind \"gizmo\"")
        #expect(Elision.value("com.example.pro") == "com.example.pro")
    }

    @Test func aLongValueKeepsItsStartAndSaysItsLength() {
        let id = "com.example." + String(repeating: "a", count: 20_000_000)
        #expect(Elision.value(id) == "com.example.aaaaaaaaaaaaaaaaaaaaaaaaaaaa…(20,000,012 characters)")
        let message = Elision.message("file.json:1:2: error: unknown key \"\(id)\" in a product")
        #expect(message == "file.json:1:2: error: unknown key \"com.example.aaaaaaaaaaaaaaaaaaaaaaaaaaaa…(20,000,012 characters)\" in a product")
    }

    @Test func aLongLineOfShortWordsIsCut() {
        let line = String(repeating: "ab ", count: 10_000)
        let shown = Elision.message(line)
        #expect(shown.count < 1_100)
        #expect(shown.hasSuffix("…(30,000 characters)"))
    }

    @Test func charactersAreCountedNotBytes() {
        let value = String(repeating: "é", count: 300)
        #expect(Elision.value(value) == String(repeating: "é", count: 40) + "…(300 characters)")
    }
}
