import Foundation
import Testing

/// Rules of the source tree that a review would otherwise have to catch:
/// one platform layer, and no concurrency claim the compiler cannot check
/// without a comment that says why it holds.
@Suite("Source rules")
struct SourceRulesTests {
    /// Every Swift file under Sources, with its lines.
    static let sources: [(path: String, lines: [String])] = {
        let root = CommandRunner.packageRoot.appendingPathComponent("Sources")
        let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
        var files: [(String, [String])] = []
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift", let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            let path = String(url.path.dropFirst(CommandRunner.packageRoot.path.count + 1))
            files.append((path, text.components(separatedBy: "\n")))
        }
        return files.sorted { $0.0 < $1.0 }
    }()

    @Test func theSourcesAreRead() {
        #expect(Self.sources.count > 150)
    }

    /// The C library is imported in one place (FactoryhostSupport), not by a
    /// `#if canImport(Glibc)` block copied into every file that needs it.
    @Test func theCLibraryIsImportedInOnePlace() {
        let importing = Self.sources.filter { $0.lines.contains { $0.hasPrefix("#if canImport(Glibc)") } }.map(\.path)
        #expect(importing == ["Sources/FactoryhostSupport/Platform/Libc.swift"])
    }

    /// Each `@unchecked Sendable`, `nonisolated(unsafe)` and `unowned(unsafe)`
    /// has a comment just above its declaration (shared by a run of such
    /// declarations) that speaks of it: why the claim holds.
    @Test func everyUncheckedClaimSaysWhyItHolds() {
        let claims: [(keyword: String, word: String)] = [("@unchecked Sendable", "Sendable"), ("nonisolated(unsafe)", "nonisolated"),
                                                         ("unowned(unsafe)", "unowned")]
        var unexplained: [String] = []
        var count = 0
        for (path, lines) in Self.sources {
            for (number, line) in lines.enumerated() {
                let code = line.components(separatedBy: "//").first ?? line
                for claim in claims where code.contains(claim.keyword) {
                    count += 1
                    var above = number - 1
                    var explained = false
                    while above >= 0 {
                        let text = lines[above].trimmingCharacters(in: .whitespaces)
                        let isComment = text.hasPrefix("//")
                        let isSameClaim = !isComment && text.contains(claim.keyword)        // a run shares one comment
                        guard isComment || isSameClaim || text.hasPrefix("@") else { break }
                        if isComment && text.contains(claim.word) { explained = true }
                        above -= 1
                    }
                    if !explained { unexplained.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))") }
                }
            }
        }
        #expect(count > 20)          // the rule looked at the claims there are
        #expect(unexplained.isEmpty, "\(unexplained.joined(separator: "\n"))")
    }

    /// Few `@unchecked Sendable` claims, and fewer over time: where a lock
    /// guards state, `Protected` makes the type checked. (25 now; 34 before
    /// #39, whose goal it met. Raising this is a deliberate commit saying why.)
    @Test func uncheckedSendableClaimsStayFew() {
        let claims = Self.sources.flatMap { source in
            source.lines.enumerated().filter { ($0.element.components(separatedBy: "//").first ?? "").contains("@unchecked Sendable") }
                .map { "\(source.path):\($0.offset + 1)" }
        }
        #expect(claims.count > 10 && claims.count <= 25, "\(claims.count): \(claims.joined(separator: "\n"))")
    }

    /// Each use of what the compiler cannot check — `_withUnsafeGuaranteedRef`,
    /// `unsafeBitCast`, `unsafeDowncast` — has a comment within five lines
    /// above it (or on its line) saying why it holds.
    @Test func everyUnsafeOperationSaysWhyItHolds() {
        let operations = ["_withUnsafeGuaranteedRef", "unsafeBitCast", "unsafeDowncast"]
        var unexplained: [String] = []
        var count = 0
        for (path, lines) in Self.sources {
            for (number, line) in lines.enumerated() {
                let code = line.components(separatedBy: "//").first ?? line
                guard operations.contains(where: code.contains) else { continue }
                count += 1
                let above = lines[max(0, number - 5)..<number]
                if !line.contains("//") && !above.contains(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }) {
                    unexplained.append("\(path):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        #expect(count > 10)
        #expect(unexplained.isEmpty, "\(unexplained.joined(separator: "\n"))")
    }
}
