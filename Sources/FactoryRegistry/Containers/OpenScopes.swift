/// The scopes a container has open, oldest first. Opening one, closing any
/// one and finding the newest of a name each take the same time however many
/// are open: a server's request scopes close in any order, and with an array
/// closing one of 40,000 open scopes cost 294 µs (a search and a shift).
///
/// A scope Swift code opened is listed weakly — its handle is its life:
/// dropped without `close()`, it closes (a handler that threw before its
/// close kept its request's instances for good) — a script's strongly, open
/// until closed (``ScriptScopes``).
///
/// Not thread-safe: the container uses it under its scope lock.
///
/// ```swift
/// var open = OpenScopes()
/// open.add(session)
/// open.newest(named: "session")    // session
/// open.remove(session)
/// ```
struct OpenScopes {
    /// A listed scope and its neighbours: in the order opened, and among the scopes of its name.
    private struct Entry {
        weak var listed: ScopeHandle?
        /// The handle again, for a scope kept open until closed.
        let kept: ScopeHandle?
        var handle: ScopeHandle? { kept ?? listed }
        var older: ObjectIdentifier?
        var newer: ObjectIdentifier?
        var olderOfName: ObjectIdentifier?
        var newerOfName: ObjectIdentifier?
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var oldest: ObjectIdentifier?
    private var newest: ObjectIdentifier?
    private var newestOfName: [String: ObjectIdentifier] = [:]

    /// How many are open.
    var count: Int { entries.count }

    /// Lists `handle` as the newest open scope — `keeping` it until it is
    /// unlisted, or only while something else holds it.
    mutating func add(_ handle: ScopeHandle, keeping: Bool) {
        let id = ObjectIdentifier(handle)
        guard entries[id] == nil else { return }
        let sameName = newestOfName[handle.name]
        entries[id] = Entry(listed: handle, kept: keeping ? handle : nil, older: newest, newer: nil, olderOfName: sameName, newerOfName: nil)
        if let newest { entries[newest]?.newer = id } else { oldest = id }
        if let sameName { entries[sameName]?.newerOfName = id }
        newest = id
        newestOfName[handle.name] = id
    }

    /// Unlists `handle`, wherever it is in the order (nothing if it is not listed).
    mutating func remove(_ handle: ScopeHandle) {
        remove(ObjectIdentifier(handle), name: handle.name)
    }

    /// Unlists the scope of identity `id` and name `name` (a handle being
    /// deinitialized is named by its identity: no reference to it may be taken).
    mutating func remove(_ id: ObjectIdentifier, name: String) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        if let older = entry.older { entries[older]?.newer = entry.newer } else { oldest = entry.newer }
        if let newer = entry.newer { entries[newer]?.older = entry.older } else { newest = entry.older }
        if let older = entry.olderOfName { entries[older]?.newerOfName = entry.newerOfName }
        if let newer = entry.newerOfName {
            entries[newer]?.olderOfName = entry.olderOfName
        } else if let older = entry.olderOfName {
            newestOfName[name] = older
        } else {
            newestOfName[name] = nil
        }
    }

    /// The newest open scope named `name`.
    func newest(named name: String) -> ScopeHandle? {
        newestOfName[name].flatMap { entries[$0]?.handle }
    }

    /// The newest open scope named `name`, and whether another of the name is open.
    func newestAndOthers(named name: String) -> (newest: ScopeHandle, others: Bool)? {
        guard let id = newestOfName[name], let entry = entries[id], let handle = entry.handle else { return nil }
        return (handle, entry.olderOfName != nil)
    }

    /// Every open scope, oldest first.
    var all: [ScopeHandle] {
        var list: [ScopeHandle] = []
        list.reserveCapacity(entries.count)
        var cursor = oldest
        while let id = cursor, let entry = entries[id] {
            if let handle = entry.handle { list.append(handle) }     // (one being dropped is unlisting itself)
            cursor = entry.newer
        }
        return list
    }
}
