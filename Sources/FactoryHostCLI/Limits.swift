import ArgumentParser
import FactoryScripting
/// Parsing of the limit options' values.
enum Limits {
    /// "65536", "512K", "64M", "1G" (powers of 1024) → bytes; nil if malformed or zero.
    static func bytes(_ text: String) -> Int? {
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(text)
        var scale = 1
        if let last = text.last?.uppercased().first, let unit = units[last] {
            scale = unit
            digits = digits.dropLast()
        }
        guard let value = Int(digits), value > 0 else { return nil }
        let (bytes, overflow) = value.multipliedReportingOverflow(by: scale)
        return overflow ? nil : bytes
    }

    /// Why `text` is no `--timeout` value, if it is none: every command's
    /// `--timeout` is read by ``duration(_:)`` and refused with these words.
    static func durationProblem(_ text: String?) -> String? {
        guard let text, duration(text) == nil else { return nil }
        return "--timeout: '\(text)' is not a duration (try 2, 0.5, 500ms or 1m)"
    }

    /// Throws ``durationProblem(_:)`` for the argument parser, if there is one.
    static func validateDuration(_ text: String?) throws {
        if let problem = durationProblem(text) { throw ValidationError(problem) }
    }

    /// "2", "0.5", "2s", "500ms", "1m" → a duration; nil if malformed or not positive.
    static func duration(_ text: String) -> Duration? {
        let suffixes: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]
        var number = Substring(text)
        var scale = 1.0
        for (suffix, factor) in suffixes where text.hasSuffix(suffix) {
            number = number.dropLast(suffix.count)
            scale = factor
            break
        }
        guard let value = Double(number), value.isFinite, value > 0, value * scale < 1e9 else { return nil }
        return .milliseconds(Int((value * scale * 1000).rounded(.up)))
    }
}
