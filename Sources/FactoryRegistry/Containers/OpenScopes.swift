/// The scopes a container has open, oldest first. Opening one, closing any
/// one and finding the newest of a name each take the same time however many
/// are open: a server's request scopes close in any order, and with an array
/// closing one of 40,000 open scopes cost 294 µs (a search and a shift).
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
        let handle: ScopeHandle
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

    /// Lists `handle` as the newest open scope.
    mutating func add(_ handle: ScopeHandle) {
        let id = ObjectIdentifier(handle)
        guard entries[id] == nil else { return }
        let sameName = newestOfName[handle.name]
        entries[id] = Entry(handle: handle, older: newest, newer: nil, olderOfName: sameName, newerOfName: nil)
        if let newest { entries[newest]?.newer = id } else { oldest = id }
        if let sameName { entries[sameName]?.newerOfName = id }
        newest = id
        newestOfName[handle.name] = id
    }

    /// Unlists `handle`, wherever it is in the order (nothing if it is not listed).
    mutating func remove(_ handle: ScopeHandle) {
        let id = ObjectIdentifier(handle)
        guard let entry = entries.removeValue(forKey: id) else { return }
        if let older = entry.older { entries[older]?.newer = entry.newer } else { oldest = entry.newer }
        if let newer = entry.newer { entries[newer]?.older = entry.older } else { newest = entry.older }
        if let older = entry.olderOfName { entries[older]?.newerOfName = entry.newerOfName }
        if let newer = entry.newerOfName {
            entries[newer]?.olderOfName = entry.olderOfName
        } else if let older = entry.olderOfName {
            newestOfName[handle.name] = older
        } else {
            newestOfName[handle.name] = nil
        }
    }

    /// The newest open scope named `name`.
    func newest(named name: String) -> ScopeHandle? {
        newestOfName[name].flatMap { entries[$0]?.handle }
    }

    /// The newest open scope named `name`, and whether another of the name is open.
    func newestAndOthers(named name: String) -> (newest: ScopeHandle, others: Bool)? {
        guard let id = newestOfName[name], let entry = entries[id] else { return nil }
        return (entry.handle, entry.olderOfName != nil)
    }

    /// Every open scope, oldest first.
    var all: [ScopeHandle] {
        var list: [ScopeHandle] = []
        list.reserveCapacity(entries.count)
        var cursor = oldest
        while let id = cursor, let entry = entries[id] {
            list.append(entry.handle)
            cursor = entry.newer
        }
        return list
    }
}
