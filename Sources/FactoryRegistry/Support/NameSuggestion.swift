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
            let likely = distance <= max(1, target.count / 3)
                || (distance == 2 && target.count > 2 && target.first == lowered.first)
            guard likely else { continue }
            if let current = best, (current.distance, current.name) <= (distance, candidate) { continue }
            best = (candidate, distance)
        }
        return best?.name
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
        guard name.utf8.count <= 64, !name.isEmpty else { return [] }
        let target = Array(name.lowercased()), lowered = name.lowercased()
        var typos: [(Int, String)] = [], related: [(Int, String)] = []
        var candidates = 0
        for candidate in names where candidate != name && candidate.utf8.count <= 128 {
            candidates += 1
            let other = candidate.lowercased()
            if other.contains(lowered) || (other.count >= 3 && lowered.contains(other)) {
                related.append((abs(other.count - lowered.count), candidate))
            } else if candidates <= maximumCandidates {
                let distance = editDistance(target, Array(other))
                if distance <= max(1, target.count / 3) || (distance == 2 && target.count > 2 && target.first == other.first) {
                    typos.append((distance, candidate))
                }
            }
        }
        let ordered = typos.sorted { ($0.0, $0.1) < ($1.0, $1.1) } + related.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
        var result: [String] = []
        for (_, candidate) in ordered where !result.contains(candidate) {
            result.append(candidate)
            if result.count == limit { break }
        }
        return result
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
