import Testing
@testable import TallyCode
import TallyModel

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

@Suite struct PaywallPlatformUseTests {
    @Test func offeringsCallsAreNotedOncePerPlatformAndCommentsAreNot() {
        let file = CodeFile(path: "App/Paywall.swift", text: """
            // Purchases.shared.getOfferings is what we used before
            func load() async throws {
                let offerings = try await Purchases.shared.offerings()
                Purchases.shared.getOfferings { _, _ in }
            }
            """, language: .swift)
        let notes = PaywallPlatformUse.notes(in: file)
        #expect(notes.count == 1)
        #expect(notes.first?.location.position == Position(line: 3, column: 31))
        #expect(notes.first?.message.contains("RevenueCat") == true)
        #expect(PaywallPlatformUse.notes(in: CodeFile(path: "a.kt", text: "val x = 1", language: .kotlin)).isEmpty)
    }
}
