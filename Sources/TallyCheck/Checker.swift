import TallyModel

/// Every rule Tally knows, in report order. A plain list, not a global registry.
public enum RuleSet {
    public static let comparisonRules: [any ComparisonRule] = [
        MissingInCatalogRule(), MissingInConfigRule(), MissingInCopyRule(), RenamedProductRule(), KindRule(), PriceRule(), PriceTierRule(), PeriodRule(), IntroOfferRule(),
        PromotionalOfferRule(), WinbackOfferRule(), GroupRule(), PlayGroupSplitRule(), LevelRule(), LevelNumberRule(), FamilySharingRule(), PricesNotComparedRule(),
        BillingPlanRule(), SuiteMembersRule(), SeatTierRule(), MultiSeatRule(), PricedTerritoriesRule(),
    ]

    public static let lintRules: [any LintRule] = [
        DuplicateIDRule(), InvalidIDRule(), SubscriptionWithoutGroupRule(), GroupIDMismatchRule(), DisallowedPeriodRule(),
        InvalidPeriodRule(), InvalidPriceRule(), NegativePriceRule(), FreeTrialWithPriceRule(), InvalidOfferRule(),
        UnpricedTerritoryRule(), MissingLocaleRule(), LocalizationTextRule(), PricePointRule(), StoreStateRule(),
        SuiteMemberRule(), IDCaseRule(), DuplicateGroupIDRule(), UnknownContentRule(), SubscriptionWithoutLevelRule(), CommitmentPriceRule(),
        SchemeStoreKitRule(), PromotionalImageRule(),
    ]

    public static let paywallRules: [any PaywallRule] = [
        PaywallMissingInStoreRule(), PaywallMissingInAppRule(), PaywallKindRule(), PaywallPeriodRule(), PaywallBasePlanRule(),
        PaywallNotEntitledRule(), PaywallEmptyOfferingRule(), PaywallNoCurrentOfferingRule(), PaywallUnofferedProductRule(),
    ]

    public static let codeRules: [any CodeRule] = [CodeUnknownProductRule(), CodeUnusedProductRule()]

    /// Every rule, in report order: cross-source first, then lint, then the paywall's, then the code's.
    public static var all: [any Rule] {
        let lists: [[any Rule]] = [comparisonRules, lintRules, paywallRules, codeRules]
        return lists.flatMap { $0 }
    }

    /// Descriptions of every rule, in report order.
    public static var descriptions: [RuleDescription] {
        all.map { type(of: $0).description }
    }

    /// The examples of the rule of this ID (`Rule.examples`): the rules page shows them.
    public static func examples(of id: RuleID) -> [RuleExample] {
        all.first { type(of: $0).description.id == id }.map { type(of: $0).examples } ?? []
    }

    public static func description(of id: RuleID) -> RuleDescription? {
        descriptions.first { $0.id == id }
    }

    /// The description of the rule a person named (`tally explain price`, a policy file), if known.
    public static func description(named name: String) -> RuleDescription? {
        descriptions.first { $0.id.rawValue == name }
    }
}

extension RuleID {
    /// Every rule identity, in `RuleSet`'s order (cross-source, lint, paywall): derived from the
    /// rule lists, never kept by hand.
    public static let all: [RuleID] = RuleSet.descriptions.map(\.id)

    /// The known rule of this name, or nil.
    public static func named(_ name: String) -> RuleID? {
        all.first { $0.rawValue == name }
    }
}

/// Runs lint on every source and compares every configuration with every catalogue.
public struct Checker: Sendable {
    public var comparisonRules: [any ComparisonRule]
    public var lintRules: [any LintRule]
    /// Whether the result lists every (rule, subject) examined, passing or not (`CheckResult.checked`).
    /// Reports that show passing checks (JUnit) need it; leaving it off saves time and memory.
    public var recordsSubjects: Bool
    /// Subscription groups to pair explicitly (from the policy), before matching by members.
    public var groupCorrespondences: [GroupCorrespondence]
    public var paywallRules: [any PaywallRule]

    public init(comparisonRules: [any ComparisonRule] = RuleSet.comparisonRules, lintRules: [any LintRule] = RuleSet.lintRules,
                recordsSubjects: Bool = true, groupCorrespondences: [GroupCorrespondence] = [],
                paywallRules: [any PaywallRule] = RuleSet.paywallRules) {
        self.comparisonRules = comparisonRules
        self.lintRules = lintRules
        self.paywallRules = paywallRules
        self.recordsSubjects = recordsSubjects
        self.groupCorrespondences = groupCorrespondences
    }

    /// Lint only (and the paywall rules that need no other source). Every (source, rule) is a
    /// piece of work for any free core.
    /// - Parameter paywallRules: whether to run the paywall rules on paywall sources (`tally lint`);
    ///   `Gate` runs them apart, against the stores.
    public func lint(_ catalogs: [Catalog], paywallRules: Bool = true) -> CheckResult {
        var result = CheckResult(sources: catalogs.map(\.file))
        for catalog in catalogs where paywallRules && catalog.paywall != nil {
            let own = checkPaywalls(in: [catalog], against: [])
            result.findings += own.findings
            result.checked += own.checked
        }
        let lintRules = PricePointRule.supplied(lintRules, from: catalogs)
        let work = catalogs.flatMap { catalog in lintRules.map { Work.lint(catalog, $0) } }
        for part in run(work) {
            result.findings += part.findings
            result.checked += part.checked
        }
        result.productsChecked = Checker.distinctIDs(catalogs)
        result.names = Checker.names(of: result.findings, in: catalogs)
        return result
    }

    /// One rule on one source, or one rule on one pair of sources.
    private enum Work: Sendable {
        case lint(Catalog, any LintRule)
        case compare(Comparison, any ComparisonRule)
    }

    private enum Preparation: Sendable {
        case compare(Catalog, Catalog)
        case run(Work)
    }

    private enum Prepared: Sendable {
        case comparison(Comparison)
        case part((findings: [Finding], checked: [CheckedSubject]))
    }

    /// Runs every piece of work on whichever core is free; results keep the order of `work`.
    private func run(_ work: [Work]) -> [(findings: [Finding], checked: [CheckedSubject])] {
        let recordsSubjects = self.recordsSubjects
        return Parallel.map(work) { item in
            var findings: [Finding] = []
            var checked = CheckedLog(enabled: recordsSubjects)
            switch item {
            case .lint(let catalog, let rule): rule.lint(catalog, findings: &findings, checked: &checked)
            case .compare(let comparison, let rule): rule.evaluate(comparison, findings: &findings, checked: &checked)
            }
            return (findings, checked.subjects)
        }
    }

    /// Lint every source, then compare each configuration with each catalogue. Each (source,
    /// rule) and (pair, rule) runs on whichever core is free; the result's order does not depend
    /// on timing.
    ///
    /// With several configurations (or catalogues), a product counts as missing only when no
    /// source on that side has it, and is reported once.
    public func check(configurations: [Catalog], catalogs: [Catalog]) -> CheckResult {
        let pairs = configurations.indices.flatMap { left in catalogs.indices.map { (left, configurations.count + $0) } }
        return check(sources: configurations + catalogs, pairs: pairs)
    }

    /// Lint every source, then compare exactly the given pairs of sources (indices into
    /// `sources`: the configuration's side first, the catalogue's second). A product counts as
    /// missing only when no source on that side, among the pairs of the same store, has it.
    public func check(sources: [Catalog], pairs indices: [(Int, Int)]) -> CheckResult {
        // A product the store holds aside by state (in review, Ready to Submit) that the other
        // side has is compared on every field (issue 48): the state says when it will be sold,
        // not what it is. Products one side alone has keep the state handling below.
        var promoted: [String: Product] = [:]
        let pairs = indices.map { pair -> (Catalog, Catalog) in
            let (left, right) = (sources[pair.0], sources[pair.1])
            let (newLeft, fromLeft) = Self.promotingHeld(left, wantedBy: right)
            let (newRight, fromRight) = Self.promotingHeld(right, wantedBy: left)
            for product in fromLeft { promoted["\(left.file) \(product.id)"] = product }
            for product in fromRight { promoted["\(right.file) \(product.id)"] = product }
            return (newLeft, newRight)
        }
        let names = SourceNames.shortest(sources.map(\.file))
        let crowded = SourceNames.crowdedNouns(sources)
        let lintRules = PricePointRule.supplied(lintRules, from: sources)
        let lintWork = sources.flatMap { catalog in lintRules.map { Work.lint(catalog, $0) } }
        // Phase one: the comparisons are built while the lint rules run (on whichever core is free).
        let built = Parallel.map(pairs.map(Preparation.compare) + lintWork.map(Preparation.run)) { [self, groupCorrespondences] item -> Prepared in
            switch item {
            case .compare(let configuration, let catalog):
                return .comparison(Comparison(configuration: configuration, catalog: catalog, groupCorrespondences: groupCorrespondences, names: names,
                                              crowdedNouns: crowded))
            case .run(let work):
                return .part(run([work])[0])
            }
        }
        let comparisons = built.compactMap { if case .comparison(let comparison) = $0 { comparison } else { nil } }
        let lintParts = built.compactMap { if case .part(let part) = $0 { part } else { nil } }
        // Phase two: every (pair, rule).
        let compareWork = comparisons.flatMap { comparison in comparisonRules.map { Work.compare(comparison, $0) } }
        let parts = lintParts + run(compareWork)

        var result = CheckResult(sources: sources.map(\.file))
        for comparison in comparisons {
            for (config, catalog) in comparison.pairs {
                result.markCompared(config.id, in: comparison.configuration.file)
                result.markCompared(catalog.id, in: comparison.catalog.file)
            }
            // A source that was compared, even with nothing in common, is known to the coverage.
            result.compared[comparison.configuration.file, default: []].formUnion([])
            result.compared[comparison.catalog.file, default: []].formUnion([])
        }
        result.pairs = comparisons.map(PairSummary.init)
        result.comparisons = result.pairs.map(ComparedLine.pair)
        if lintRules.contains(where: { $0 is PricePointRule }) { result.comparisons += PricePointCoverage.lines(sources) }
        // Every source that lacks a product another has is named, once per (store, product,
        // source lacking it), whichever pairs say so: more sources never report less. Where a
        // copy and a catalogue both show the lack, the catalogue's finding (missing-in-config or
        // -catalog) is kept; within one kind, the first pair's.
        let rulesPerPair = max(comparisonRules.count, 1)
        var missing: [String: Int] = [:]
        // A copy formed of several files lacks a product only when none of its files has it.
        var copyHas: [String: Set<String>] = [:]
        var copyOf: [String: String] = [:]
        for comparison in comparisons {
            for (catalog, ids) in [(comparison.configuration, comparison.configProducts.keys), (comparison.catalog, comparison.catalogProducts.keys)] {
                guard let copy = catalog.copy else { continue }
                copyOf[catalog.file] = copy
                copyHas["\(comparison.store) \(copy)", default: []].formUnion(ids)
            }
        }
        // A product the lacking source holds by state (not for sale: Ready to Submit, Missing
        // Metadata, ...) is not missing from it: `store-state` says why it is not for sale instead.
        let holders = Dictionary(sources.filter { !$0.heldByState.isEmpty }.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        let storeState = lintRules.lazy.compactMap { $0 as? StoreStateRule }.first
        var heldReported = Set<String>()
        for (index, part) in parts.enumerated() {
            result.checked += part.checked
            let isComparison = index >= lintWork.count
            for finding in part.findings {
                if isComparison, Self.presenceRules.contains(finding.ruleID),
                   let absent = [finding.left, finding.right].compactMap({ $0 }).first(where: { $0.value == nil }) {
                    let comparison = comparisons[(index - lintWork.count) / rulesPerPair]
                    if let storeState, let holder = holders[absent.location.file],
                       let held = holder.heldByState.first(where: { $0.id == finding.productID }) {
                        let presentIsLeft = finding.left?.value != nil
                        guard let present = presentIsLeft ? finding.left : finding.right,
                              heldReported.insert("\(holder.file) \(held.id)").inserted else { continue }
                        let noun = presentIsLeft ? comparison.configNoun : comparison.catalogNoun
                        result.findings.append(storeState.heldFinding(held, in: holder, wantedBy: (present, noun, presentIsLeft)))
                        continue
                    }
                    let store = comparison.store
                    let copy = copyOf[absent.location.file]
                    if let copy, copyHas["\(store) \(copy)"]?.contains(finding.productID ?? "") == true { continue }
                    let key = "\(store) \(finding.productID ?? "") \(copy.map { "copy \($0)" } ?? absent.location.file)"
                    if let earlier = missing[key] {
                        if result.findings[earlier].ruleID == .missingInCopy, finding.ruleID != .missingInCopy { result.findings[earlier] = finding }
                        continue
                    }
                    missing[key] = result.findings.count
                }
                result.findings.append(finding)
            }
        }
        // Findings on a product compared although its store holds it aside carry the state, and
        // store-state says once that it is not for sale yet.
        if !promoted.isEmpty {
            for index in result.findings.indices {
                let finding = result.findings[index]
                guard finding.ruleID != .storeState, let id = finding.productID else { continue }
                for side in [finding.left, finding.right].compactMap({ $0 }) {
                    // A folder source's side names the page inside it.
                    let file = side.location.file
                    guard let (holder, held) = promoted.first(where: { key, _ in
                              key.hasSuffix(" \(id)") && (file == String(key.dropLast(id.count + 1)) || file.hasPrefix(String(key.dropLast(id.count + 1)) + "/"))
                          }).map({ (String($0.key.dropLast(id.count + 1)), $0.value) }),
                          let state = held.storeState else { continue }
                    let note = "\(names[holder] ?? holder) holds it as \(StoreStates.displayName(state)) (\(state)): compared, though not for sale yet"
                    result.findings[index].hint = result.findings[index].hint.map { "\($0); \(note)" } ?? note
                }
            }
            if let storeState {
                for comparison in comparisons {
                    for (config, catalog) in comparison.pairs {
                        for (holderFile, held, present, presentIsLeft) in [
                            (comparison.configuration.file, config, comparison.catalogSide(catalog, .id, value: catalog.id), false),
                            (comparison.catalog.file, catalog, comparison.configSide(config, .id, value: config.id), true),
                        ] {
                            guard promoted["\(holderFile) \(held.id)"] != nil, let holder = sources.first(where: { $0.file == holderFile }),
                                  heldReported.insert("\(holderFile) \(held.id)").inserted else { continue }
                            let noun = presentIsLeft ? comparison.configNoun : comparison.catalogNoun
                            result.findings.append(storeState.heldFinding(held, in: holder, wantedBy: (present, noun, presentIsLeft)))
                        }
                    }
                }
            }
        }
        // The source's own store-state finding for a product reported above says less: dropped.
        if !heldReported.isEmpty { result.findings = Self.withoutRepeatedStoreStates(result.findings) }
        result.productsChecked = Set(sources.flatMap { $0.products.map(\.id) }).count
        result.names = Checker.names(of: result.findings, in: sources)
        return result
    }

    /// The paywall's findings, with a product it shows that a store source holds aside by state
    /// (Ready to Submit, Missing Metadata) reported by `store-state` with its state and cause,
    /// once, rather than as missing from that store.
    private func reportingHeld(_ findings: [Finding], by paywall: Catalog, in others: [Catalog]) -> [Finding] {
        guard let storeState = lintRules.lazy.compactMap({ $0 as? StoreStateRule }).first, others.contains(where: { !$0.heldByState.isEmpty }) else { return findings }
        var reported = Set<String>()
        var result: [Finding] = []
        for finding in findings {
            guard finding.ruleID == .paywallMissingInStore, let present = finding.left, let file = finding.right?.location.file,
                  let holder = others.first(where: { $0.file == file }),
                  let held = holder.heldByState.first(where: { $0.id == finding.productID }) else {
                result.append(finding)
                continue
            }
            guard reported.insert("\(file) \(held.id)").inserted else { continue }
            result.append(storeState.heldFinding(held, in: holder, wantedBy: (present, paywall.format.sourceNoun, true)))
        }
        return result
    }

    /// `findings` without the store-state findings of one source (lint) about a product that a
    /// store-state finding naming the source that has it (the other side) also reports: that one
    /// says the same, and who asks for the product.
    public static func withoutRepeatedStoreStates(_ findings: [Finding]) -> [Finding] {
        func key(_ side: FindingSide?, _ product: String?) -> String { "\(side?.location.description ?? "") \(product ?? "")" }
        let wanted = Set(findings.filter { $0.ruleID == .storeState && $0.right != nil }.flatMap { finding in
            [finding.left, finding.right].compactMap { side in side?.value.map { _ in key(side, finding.productID) } }
        })
        guard !wanted.isEmpty else { return findings }
        return findings.filter { finding in
            !(finding.ruleID == .storeState && finding.right == nil && finding.left?.role == nil && wanted.contains(key(finding.left, finding.productID)))
        }
    }

    /// `catalog` with the products its store holds aside by state that `other` has moved among
    /// its products, and those products.
    static func promotingHeld(_ catalog: Catalog, wantedBy other: Catalog) -> (Catalog, [Product]) {
        guard !catalog.heldByState.isEmpty else { return (catalog, []) }
        var wanted = Set(other.products.map(\.id))
        wanted.formUnion(other.products.flatMap(\.storeIDs.values))
        let present = Set(catalog.products.map(\.id))
        let moved = catalog.heldByState.filter { wanted.contains($0.id) && !present.contains($0.id) }
        guard !moved.isEmpty else { return (catalog, []) }
        var copy = catalog
        copy.products += moved
        let movedIDs = Set(moved.map(\.id))
        copy.heldByState.removeAll { movedIDs.contains($0.id) }
        return (copy, moved)
    }

    /// The rules that say a source lacks a product.
    static let presenceRules: Set<RuleID> = [.missingInCatalog, .missingInConfig, .missingInCopy]

    /// The sources that name others' products (`SourceRole.refersToOthers`: paywalls, the app's
    /// code), role by role, each linted and checked by its rules against the stores' sources
    /// (`stores`); the code sees the run's paywalls too (the app then asks for what they name).
    public func checkReferring(_ referring: [Catalog], stores: [Catalog]) -> CheckResult {
        var result = CheckResult()
        for role in SourceRole.allCases where role.refersToOthers {
            let group = referring.filter { $0.format.role == role }
            guard !group.isEmpty else { continue }
            let lint = lint(group, paywallRules: false)
            let found: CheckResult
            switch role {
            case .paywall: found = checkPaywalls(in: group, against: stores)
            case .code: found = checkCode(in: group, against: stores + referring.filter { $0.paywall != nil })
            case .configuration, .catalog: continue
            }
            result.findings += lint.findings + found.findings
            result.checked += lint.checked + found.checked
            result.comparisons += found.comparisons
            result.mergeCompared(found)
        }
        return result
    }

    /// The paywall sources among `paywalls` on their own and against every source of `others`
    /// (the paywall rules); the coverage lines in `comparisons`. Lint is not run here.
    public func checkPaywalls(in paywalls: [Catalog], against others: [Catalog]) -> CheckResult {
        var result = CheckResult()
        for source in paywalls {
            guard let paywall = source.paywall else { continue }
            let context = PaywallContext(source: source, paywall: paywall, others: others)
            var checked = CheckedLog(enabled: recordsSubjects)
            var found: [Finding] = []
            for rule in paywallRules {
                rule.evaluate(context, findings: &found, checked: &checked)
            }
            result.findings += reportingHeld(found, by: source, in: others)
            result.checked += checked.subjects
            if !others.isEmpty { result.comparisons += PaywallCoverage.lines(context) }
            if !context.sides.isEmpty { result.compared[source.file, default: []].formUnion([]) }
            // A product the platform lists that a store source has (by ID, in its store; any
            // store when the platform does not say which) is compared on its ID, shown or not.
            for product in paywall.products {
                for side in context.sides where product.store.map({ $0 == side.catalog.format.store }) ?? true {
                    guard let found = side.products[product.storeID] else { continue }
                    result.markCompared(product.storeID, in: source.file)
                    result.markCompared(found.id, in: side.catalog.file)
                }
            }
            for match in context.matches {
                guard case .found(let product) = match.lookup else { continue }
                result.markCompared(match.shown.product.storeID, in: source.file)
                let side = context.sides[match.side].catalog
                result.markCompared(product.id, in: side.file)
            }
        }
        return result
    }

    /// Each code source against every other source of the run (the code rules); the `compared:`
    /// lines say what each code source asks for and what it was compared with.
    public func checkCode(in code: [Catalog], against others: [Catalog]) -> CheckResult {
        var result = CheckResult()
        for source in code {
            var context = CodeContext(source: source, others: others)
            context.storeState = lintRules.lazy.compactMap { $0 as? StoreStateRule }.first
            var checked = CheckedLog(enabled: recordsSubjects)
            for rule in RuleSet.codeRules {
                rule.evaluate(context, findings: &result.findings, checked: &checked)
            }
            result.checked += checked.subjects
            result.comparisons.append(.code(CodeCoverage.summary(context)))
            // The code and each source it was compared with are known to the coverage.
            if !context.sides.isEmpty {
                for file in [source.file] + context.sides.map(\.file) { result.compared[file, default: []].formUnion([]) }
            }
            for request in context.requests.requests {
                for (side, product) in context.matches(request) {
                    result.markCompared(request.id, in: source.file)
                    result.markCompared(product.id, in: side.file)
                }
                // An ID the store holds aside by state is there: compared on its ID, and store-state says why it is not for sale.
                for side in context.sides(for: request) where side.heldByState.contains(where: { $0.id == request.id }) {
                    result.markCompared(request.id, in: source.file)
                    result.markCompared(request.id, in: side.file)
                }
            }
        }
        return result
    }

    /// The first source's name for people of each product a finding is about.
    static func names(of findings: [Finding], in catalogs: [Catalog]) -> [String: String] {
        var wanted = Set(findings.compactMap(\.productID))
        var names: [String: String] = [:]
        for catalog in catalogs where !wanted.isEmpty {
            for product in catalog.products where wanted.contains(product.id) {
                guard let name = product.nameForPeople else { continue }
                names[product.id] = name
                wanted.remove(product.id)
            }
        }
        return names
    }

    static func distinctIDs(_ catalogs: [Catalog]) -> Int {
        Set(catalogs.flatMap { $0.products.map(\.id) }).count
    }
}
