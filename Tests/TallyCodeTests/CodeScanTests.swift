import Testing
@testable import TallyCode

@Suite struct CodeLanguageTests {
    @Test func extensionsMapToLanguages() {
        #expect(CodeLanguage.forExtension("SWIFT") == .swift)
        #expect(CodeLanguage.forExtension("kts") == .kotlin)
        #expect(CodeLanguage.forExtension("tsx") == .typeScript)
        #expect(CodeLanguage.forExtension("plist") == nil)
        #expect(CodeLanguage.extensions.allSatisfy { CodeLanguage.forExtension($0) != nil })
    }

    @Test func naiveScanTakesReverseDNSAndPurchaseWords() {
        #expect(NaiveScan.looksLikeProductID("com.example.app.pro"))
        #expect(NaiveScan.looksLikeProductID("remove_ads"))
        #expect(!NaiveScan.looksLikeProductID("hello world"))
        #expect(!NaiveScan.looksLikeProductID("https://example.com/a"))
    }
}
