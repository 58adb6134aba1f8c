/// An open-addressing table from service keys to registration indices,
/// hashed on the type's identity (a pointer) so a lookup costs a few
/// nanoseconds whatever the number of registrations.
struct KeyIndex: Sendable {
    private struct Entry: Sendable {
        var id: ObjectIdentifier?
        var name: String?
        var value: Int
    }

    private var entries: [Entry]
    private let mask: Int

    init(_ keys: [ServiceKey]) {
        var capacity = 16
        while capacity < keys.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        entries = Array(repeating: Entry(id: nil, name: nil, value: -1), count: capacity)
        for (value, key) in keys.enumerated() {
            var i = KeyIndex.slot(key.type.id, key.name, mask)
            while entries[i].id != nil { i = (i + 1) & mask }
            entries[i] = Entry(id: key.type.id, name: key.name, value: value)
        }
    }

    @inline(__always)
    private static func slot(_ id: ObjectIdentifier, _ name: String?, _ mask: Int) -> Int {
        var h = UInt(bitPattern: id) &>> 4
        if let name { h ^= UInt(bitPattern: name.hashValue) }
        h = h &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: h &>> 32) & mask
    }

    /// The index registered for (`id`, `name`), or nil.
    @inline(__always)
    func find(_ id: ObjectIdentifier, _ name: String?) -> Int? {
        var i = KeyIndex.slot(id, name, mask)
        while let entryID = entries[i].id {
            if entryID == id && entries[i].name == name { return entries[i].value }
            i = (i + 1) & mask
        }
        return nil
    }

    func find(_ key: ServiceKey) -> Int? { find(key.type.id, key.name) }
}
