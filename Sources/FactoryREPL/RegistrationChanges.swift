/// What `:reload` changed: registrations added, removed, changed (by
/// `configuration: key`), each change saying what changed and how:
/// `app: table#Greeting (make's body; parameter word "hi" → "hello")`.
public struct RegistrationChanges: Equatable {
    public var added: [String] = []
    public var removed: [String] = []
    public var changed: [String] = []

    /// What one registration is made of, as `:reload` compares it (texts;
    /// `make` and parameters through the Lua half's fingerprint).
    struct Aspects: Equatable {
        var scope = ""
        var dependencies = ""
        var arguments = ""
        var values = ""
        /// Each parameter's value (nil: `make` is Swift, or cannot be compared).
        var parameters: [String: String] = [:]
        var make: String?
    }

    init(before: [String: Aspects], after: [String: Aspects]) {
        added = after.keys.filter { before[$0] == nil }.sorted()
        removed = before.keys.filter { after[$0] == nil }.sorted()
        changed = after.keys.sorted().compactMap { key in
            guard let old = before[key], let new = after[key], old != new else { return nil }
            let how = Self.differences(old, new)
            return how.isEmpty ? key : "\(key) (\(how.joined(separator: "; ")))"
        }
    }

    /// The aspects that differ, each as a reader takes it in.
    private static func differences(_ old: Aspects, _ new: Aspects) -> [String] {
        var found: [String] = []
        func compare(_ name: String, _ before: String, _ after: String) {
            guard before != after else { return }
            found.append("\(name) \(before.isEmpty ? "(none)" : before) → \(after.isEmpty ? "(none)" : after)")
        }
        compare("scope", old.scope, new.scope)
        compare("dependencies", old.dependencies, new.dependencies)
        compare("arguments", old.arguments, new.arguments)
        compare("values", old.values, new.values)
        for name in Set(old.parameters.keys).union(new.parameters.keys).sorted() {
            switch (old.parameters[name], new.parameters[name]) {
            case (nil, _?): found.append("parameter \(name) added")
            case (_?, nil): found.append("parameter \(name) removed")
            case let (before?, after?) where before != after:
                // A short scalar shows its values; a table or a function is named only.
                if Self.isShort(before) && Self.isShort(after) { found.append("parameter \(name) \(before) → \(after)") }
                else { found.append("parameter \(name)") }
            default: break
            }
        }
        if old.make != new.make { found.append("make's body") }
        return found
    }

    private static func isShort(_ text: String) -> Bool {
        text.count <= 40 && !text.hasPrefix("function") && !text.hasPrefix("{") && !text.contains("\n")
    }
}
