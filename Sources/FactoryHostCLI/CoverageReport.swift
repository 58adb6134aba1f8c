import FactoryRegistry
import FactoryScripting
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `factoryhost test --coverage`: the registrations of a run's spec files,
/// merged (a registration several files declare is built if any built it),
/// as text — the ones never built, by configuration — and as JSON.
struct CoverageReport {
    let entries: [RegistrationCoverage.Entry]

    init(_ all: [RegistrationCoverage.Entry]) {
        var merged: [String: RegistrationCoverage.Entry] = [:]
        var order: [String] = []
        for entry in all {
            let id = entry.configuration + "\u{1F}" + entry.key + "\u{1F}" + entry.origin
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
    var percent: Double { entries.isEmpty ? 100 : Double(built) * 100 / Double(entries.count) }
    var percentText: String { Self.format(percent) + "%" }

    /// `77.5`, `100`.
    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// The summary line, then the registrations never built (at most `limit`).
    func text(limit: Int) -> String {
        var lines = ["registration coverage: \(built) of \(entries.count) built (\(percentText))"]
        let never = entries.filter { !$0.built }
        if !never.isEmpty {
            lines.append("never built:")
            for entry in never.prefix(limit) { lines.append("  \(entry.configuration): \(entry.key) (\(entry.origin))") }
            if never.count > limit { lines.append("  … and \(never.count - limit) more (--coverage-json lists them all)") }
        }
        return lines.joined(separator: "\n")
    }

    /// `{ "built": 31, "total": 40, "percent": 77.5, "registrations": [{ "configuration", "key", "origin", "built" }] }`.
    var json: String {
        let rows = entries.map { entry in
            "    {\"configuration\": \(jsonString(entry.configuration)), \"key\": \(jsonString(entry.key)), "
                + "\"origin\": \(jsonString(entry.origin)), \"built\": \(entry.built)}"
        }
        return "{\n  \"built\": \(built),\n  \"total\": \(entries.count),\n  \"percent\": \(Self.format(percent)),\n"
            + "  \"registrations\": [\n" + rows.joined(separator: ",\n") + (rows.isEmpty ? "" : "\n") + "  ]\n}\n"
    }
}

extension String {
    /// Writes the text to `path` (UTF-8), replacing what is there.
    func write(toFile path: String) throws {
        guard let file = fopen(path, "w") else {
            throw CoverageWriteError(reason: String(cString: strerror(errno)))
        }
        defer { fclose(file) }
        let bytes = Array(utf8)
        guard fwrite(bytes, 1, bytes.count, file) == bytes.count else {
            throw CoverageWriteError(reason: String(cString: strerror(errno)))
        }
    }
}

struct CoverageWriteError: Error, CustomStringConvertible {
    let reason: String
    var description: String { reason }
}
