import FactoryRegistry
import FactoryScripting
import FactoryhostSupport
import ScenarioTesting

/// `factoryhost test --coverage`: the registrations of a run's spec files,
/// merged (a registration several files declare is built if any built it),
/// as text — the ones never built, by configuration — and as JSON.
struct CoverageReport {
    let entries: [RegistrationCoverage.Entry]
    /// Spec files that did not load: their registrations were never counted,
    /// so the coverage is unknown (it said 100%: 0 of 0).
    let unloaded: [String]
    /// The signal that interrupted the run (`"SIGTERM"`), if one did: the
    /// tests that never ran built nothing, so the coverage is unknown too
    /// (a cancelled run's file said 100%).
    let interruptedBy: String?

    /// `unloaded`: the files whose registrations are not among `all`.
    init(_ all: [RegistrationCoverage.Entry], unloaded: [String] = [], interruptedBy: String? = nil) {
        self.unloaded = unloaded
        self.interruptedBy = interruptedBy
        var merged: [RegistrationCoverage.Entry.ID: RegistrationCoverage.Entry] = [:]
        var order: [RegistrationCoverage.Entry.ID] = []
        for entry in all {
            let id = entry.id
            if var known = merged[id] {
                known.built = known.built || entry.built
                merged[id] = known
            } else {
                merged[id] = entry
                order.append(id)
            }
        }
        entries = order.compactMap { merged[$0] }
    }

    var built: Int { entries.count(where: \.built) }
    /// Nil when a file did not load (the coverage is unknown), or when
    /// there is nothing to cover (0 of 0 was "100%", and met any minimum:
    /// a mistyped spec path passed `--coverage-min 70`).
    var percent: Double? {
        guard unloaded.isEmpty, interruptedBy == nil, !entries.isEmpty else { return nil }
        return Double(built) * 100 / Double(entries.count)
    }
    /// Rounded down to a tenth: never "100%" while one is missing.
    var percentText: String { percent == nil ? "unknown" : Self.format(shownPercent) + "%" }
    /// The percentage as reports show it: rounded down to a tenth.
    var shownPercent: Double { ((percent ?? 0) * 10).rounded(.down) / 10 }
    /// The percentage for JSON: `null` when unknown.
    private var percentJSON: String { percent == nil ? "null" : Self.format(shownPercent) }
    /// Why the coverage is unknown, if it is.
    var unknownReason: String? {
        if let interruptedBy { return "the run was interrupted by \(interruptedBy): the tests that did not run built nothing" }
        guard !unloaded.isEmpty else {
            return entries.isEmpty ? "the spec files declare no registration: there is nothing to cover" : nil
        }
        return "\(unloaded.count) spec file\(unloaded.count == 1 ? "" : "s") did not load ("
            + unloaded.prefix(3).map(Self.oneLine).joined(separator: ", ") + (unloaded.count > 3 ? ", …" : "")
            + "): \(unloaded.count == 1 ? "its" : "their") registrations were never counted"
    }

    /// `77.5`, `100`.
    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// The summary line, then the registrations never built (at most `limit`).
    func text(limit: Int) -> String {
        var lines = ["registration coverage: \(built) of \(entries.count) built (\(percentText))"
                     + (unknownReason.map { " — \($0)" } ?? "")]
        let never = entries.filter { !$0.built }
        if !never.isEmpty {
            lines.append("never built:")
            for entry in never.prefix(limit) {
                lines.append("  \(Self.oneLine(entry.configuration)): \(Self.oneLine(entry.key)) (\(Self.oneLine(entry.origin)))")
            }
            if never.count > limit { lines.append("  … and \(never.count - limit) more (--coverage-json lists them all)") }
        }
        return lines.joined(separator: "\n")
    }

    /// A name on one line: control characters escaped.
    static func oneLine(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The summary and what was never built as one JSON Lines object (after `--reporter json`'s summary).
    var jsonLine: String {
        let never = entries.filter { !$0.built }.map { entry in
            "{\"configuration\": \(jsonString(entry.configuration)), \"key\": \(jsonString(entry.key)), \"origin\": \(jsonString(entry.origin))}"
        }
        return "{\"type\": \"coverage\", \"built\": \(built), \"total\": \(entries.count), \"percent\": \(percentJSON), "
            + (interruptedBy.map { "\"interruptedBy\": \(jsonString($0)), " } ?? "")
            + "\"unloaded\": [\(unloaded.map(jsonString).joined(separator: ", "))], "
            + "\"neverBuilt\": [\(never.joined(separator: ", "))]}"
    }

    /// `{ "built": 31, "total": 40, "percent": 77.5, "registrations": [{ "configuration", "key", "origin", "built" }] }`.
    var json: String {
        let rows = entries.map { entry in
            "    {\"configuration\": \(jsonString(entry.configuration)), \"key\": \(jsonString(entry.key)), "
                + "\"origin\": \(jsonString(entry.origin)), \"built\": \(entry.built)}"
        }
        return "{\n  \"built\": \(built),\n  \"total\": \(entries.count),\n  \"percent\": \(percentJSON),\n"
            + (interruptedBy.map { "  \"interruptedBy\": \(jsonString($0)),\n" } ?? "")
            + "  \"unloaded\": [\(unloaded.map(jsonString).joined(separator: ", "))],\n"
            + "  \"registrations\": [\n" + rows.joined(separator: ",\n") + (rows.isEmpty ? "" : "\n") + "  ]\n}\n"
    }
}

extension String {
    /// Writes the text to `path` (UTF-8), replacing what is there — whole or
    /// not at all (``ReportFile``).
    func write(toFile path: String) throws {
        do {
            try ReportFile(path: path).write(Array(utf8))
        } catch let failure as ReportFile.Failure {
            throw CoverageWriteError(reason: failure.reason)
        }
    }
}

struct CoverageWriteError: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
