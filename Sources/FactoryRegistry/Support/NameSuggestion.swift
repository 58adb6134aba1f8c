/// "Did you mean …?" for a name that is not known: the known name closest
/// to it by edit distance (ignoring case), if it is close enough to be a
/// likely typo — a third of its length, or two edits that keep its first
/// letter.
///
/// ```swift
/// NameSuggestion.closest(to: "sesion", among: ["session", "screen"])   // "session"
/// NameSuggestion.didYouMean("sesion", among: ["session"])              // ", did you mean 'session'?"
/// ```
public enum NameSuggestion {
    /// The likely intended name, if any.
    public static func closest(to name: String, among names: some Sequence<String>) -> String? {
        guard name.utf8.count <= 64 else { return nil }      // no name is that long: no quadratic work on it
        // Among thousands of names a guess costs more than it helps (and an
        // error per name would make a run quadratic): no suggestion.
        var count = 0
        for _ in names {
            count += 1
            if count > maximumCandidates { return nil }
        }
        let target = Array(name.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in names where candidate != name && candidate.utf8.count <= 128 {
            let lowered = Array(candidate.lowercased())
            let distance = editDistance(target, lowered)
            guard isLikelyTypo(distance, of: target, for: lowered) else { continue }
            if let current = best, (current.distance, current.name) <= (distance, candidate) { continue }
            best = (candidate, distance)
        }
        return best?.name
    }

    /// The likely intended registry key (`Type` or `Type#name`): a named key is
    /// judged by its name among the keys of the same type (`table#Clokc` →
    /// `table#Clock`, but `table#w` is not `table#z`: the shared `table#` makes
    /// no typo likelier), a plain one as a name.
    ///
    /// ```swift
    /// NameSuggestion.closestKey(to: "table#Clokc", among: ["table#Clock", "Cache"])   // "table#Clock"
    /// ```
    public static func closestKey(to key: String, among keys: some Sequence<String>) -> String? {
        Keys(keys).closest(to: key)
    }

    /// ``closestKey(to:among:)`` for many keys, the keys sorted by type once:
    /// each suggestion then reads only the keys of its type (a check of
    /// thousands of missing keys among thousands of registrations stays linear).
    ///
    /// ```swift
    /// let keys = NameSuggestion.Keys(["table#Clock", "Cache"])
    /// keys.closest(to: "table#Clokc")      // "table#Clock"
    /// ```
    public struct Keys {
        private var plain: [String] = []
        private var named: [Substring: [String]] = [:]

        /// The registered `keys` (`Type` or `Type#name`).
        public init(_ keys: some Sequence<String>) {
            for key in keys { insert(key) }
        }

        /// Adds a registered key.
        public mutating func insert(_ key: String) {
            if let hash = key.firstIndex(of: "#") {
                named[key[..<hash], default: []].append(String(key[key.index(after: hash)...]))
            } else {
                plain.append(key)
            }
        }

        /// The key `key` likely meant, as ``NameSuggestion/closestKey(to:among:)`` judges it.
        public func closest(to key: String) -> String? {
            guard let hash = key.firstIndex(of: "#") else { return NameSuggestion.closest(to: key, among: plain) }
            let type = key[..<hash], name = String(key[key.index(after: hash)...])
            guard name.count >= 3, let names = named[type] else { return nil }
            return NameSuggestion.closest(to: name, among: names).map { "\(type)#\($0)" }
        }
    }

    /// Past this many known names, no suggestion is made.
    public static let maximumCandidates = 256

    /// `, did you mean 'x'?` for the closest name, or "" if none is close.
    public static func didYouMean(_ name: String, among names: some Sequence<String>) -> String {
        closest(to: name, among: names).map { ", did you mean '\($0)'?" } ?? ""
    }

    /// Up to `limit` known names near `name`: likely typos (as ``closest(to:among:)``
    /// judges them) first, then names that contain it or that it contains, ignoring
    /// case (`Checkout` → `CheckoutViewModel`), each group nearest first.
    ///
    /// ```swift
    /// NameSuggestion.nearest(to: "Checkout", among: ["CheckoutViewModel", "Cart"])   // ["CheckoutViewModel"]
    /// ```
    public static func nearest(to name: String, among names: some Sequence<String>, limit: Int = 3) -> [String] {
        near(name, among: names, limit: limit).nearest
    }

    /// What to say of an unknown `name`: `did you mean 'x'?` when a likely typo
    /// (as ``closest(to:among:)`` finds it) is the nearest, else `nearest: a, b`;
    /// nil when nothing is near.
    ///
    /// ```swift
    /// NameSuggestion.hint(for: "table#crt", among: ["table#cart"])     // "did you mean 'table#cart'?"
    /// NameSuggestion.hint(for: "Checkout", among: ["CheckoutViewModel"])  // "nearest: CheckoutViewModel"
    /// ```
    public static func hint(for name: String, among names: some Sequence<String>) -> String? {
        let found = near(name, among: names, limit: 3)
        if let typo = found.typo { return "did you mean '\(typo)'?" }
        return found.nearest.isEmpty ? nil : "nearest: " + found.nearest.joined(separator: ", ")
    }

    /// The names near `name` (typos first, then related names), and the likely typo
    /// ``closest(to:among:)`` would name, in one walk.
    public static func near(_ name: String, among names: some Sequence<String>, limit: Int) -> (typo: String?, nearest: [String]) {
        guard name.utf8.count <= 64, !name.isEmpty else { return (nil, []) }
        let target = Array(name.lowercased()), lowered = name.lowercased()
        var typos: [(Int, String)] = [], related: [(Int, String)] = []
        var seen = 0
        for candidate in names {
            seen += 1
            guard candidate != name && candidate.utf8.count <= 128 else { continue }
            let other = candidate.lowercased()
            if seen <= maximumCandidates {
                let characters = Array(other)
                let distance = editDistance(target, characters)
                if isLikelyTypo(distance, of: target, for: characters) {
                    typos.append((distance, candidate))
                    continue
                }
            }
            if other.contains(lowered) || (other.count >= 3 && lowered.contains(other)) {
                related.append((abs(other.count - lowered.count), candidate))
            }
        }
        typos.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        var result: [String] = []
        for (_, candidate) in typos + related.sorted(by: { ($0.0, $0.1) < ($1.0, $1.1) }) where !result.contains(candidate) {
            result.append(candidate)
            if result.count == limit { break }
        }
        // As closest: among more names than it weighs, no guess.
        return (seen <= maximumCandidates ? typos.first?.1 : nil, result)
    }

    /// Whether `other` is `target` (both lowercased) mistyped: a third of its
    /// length in edits, or two that keep its first letter.
    private static func isLikelyTypo(_ distance: Int, of target: [Character], for other: [Character]) -> Bool {
        distance <= max(1, target.count / 3) || (distance == 2 && target.count > 2 && target.first == other.first)
    }

    /// Levenshtein distance.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
