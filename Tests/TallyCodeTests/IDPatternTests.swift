import Testing
@testable import TallyCode

/// `code: {ids: REGEX}` patterns that can backtrack without bound are refused (issue 47: `(a|aa)+b`
/// against 40 `a`s took 105 s); the shapes product-ID patterns take are accepted.
struct IDPatternTests {
    @Test(arguments: ["(a|aa)+b", "(a+)+", "(a*)*b", "((ab)*c)+", "(x|y){2,}", "(?:a|b)*c", "([a-z]+\\.)+pro"])
    func nestedRepetitionIsRefused(pattern: String) {
        #expect(IDPattern.backtrackingRisk(pattern) != nil, "\(pattern)")
    }

    @Test(arguments: ["com\\.app\\.tip\\.[a-z]+", "(pro|plus)_(monthly|yearly)", "[a-z]+(\\.[a-z]+)?", "com\\.example\\.(a|b)\\.\\d{1,3}",
                      "[(+*]+", "\\(a+\\)+", "(premium)+"])
    func patternsProductIDsTakeAreAccepted(pattern: String) {
        #expect(IDPattern.backtrackingRisk(pattern) == nil, "\(pattern)")
    }
}
