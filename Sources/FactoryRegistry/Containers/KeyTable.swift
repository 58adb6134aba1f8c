/// An open-addressing table from service keys to registration indices,
/// hashed on the type's identity (a pointer) and kept in raw memory, so a
/// lookup costs a few nanoseconds and no reference counting, whatever the
/// number of registrations.
// @unchecked Sendable: `entries` is filled in init and read-only afterwards (freed in deinit); `names` and
// `mask` are lets. Lookups read without locks.
@usableFromInline
final class KeyTable: @unchecked Sendable {
    @usableFromInline
    struct Entry {
        @usableFromInline var id: UInt          // 0: empty
        @usableFromInline var nameIndex: Int32  // -1: no name; else an index into `names`
        @usableFromInline var value: Int32
    }

    let entries: UnsafeMutableBufferPointer<Entry>
    @usableFromInline let names: [String]
    let mask: Int

    init(_ keys: [ServiceKey]) {
        var capacity = 16
        while capacity < keys.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        entries = .allocate(capacity: capacity)
        entries.initialize(repeating: Entry(id: 0, nameIndex: -1, value: -1))
        var names: [String] = []
        for (value, key) in keys.enumerated() {
            var nameIndex: Int32 = -1
            if let name = key.name {
                nameIndex = Int32(names.count)
                names.append(name)
            }
            var i = KeyTable.slot(key.type.id, key.name, mask)
            while entries[i].id != 0 { i = (i + 1) & mask }
            entries[i] = Entry(id: UInt(bitPattern: key.type.id), nameIndex: nameIndex, value: Int32(value))
        }
        self.names = names
    }

    deinit { entries.deallocate() }

    @inlinable @inline(__always)
    static func slot(_ id: ObjectIdentifier, _ name: String?, _ mask: Int) -> Int {
        var h = UInt(bitPattern: id) &>> 4
        if let name { h ^= nameHash(name) }
        h = h &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: h &>> 32) & mask
    }

    /// FNV-1a over the name's UTF-8: names are short, and SipHash (String's
    /// hashValue) would cost more than the rest of a lookup.
    @inlinable @inline(__always)
    static func nameHash(_ name: String) -> UInt {
        var h: UInt = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { h = (h ^ UInt(byte)) &* 0x0000_0100_0000_01B3 }
        return h
    }

    /// The index registered for (`id`, `name`), or nil.
    @usableFromInline
    func find(_ id: ObjectIdentifier, _ name: String?) -> Int? { lookup.find(id, name) }

    func find(_ key: ServiceKey) -> Int? { find(key.type.id, key.name) }

    /// A trivially-copyable view for the resolve path (valid while the table lives).
    var lookup: Lookup { Lookup(entries: entries, mask: mask, table: Unmanaged.passUnretained(self)) }

    @usableFromInline
    struct Lookup {
        @usableFromInline let entries: UnsafeMutableBufferPointer<Entry>
        @usableFromInline let mask: Int
        @usableFromInline let table: Unmanaged<KeyTable>

        @inlinable @inline(__always)
        func find(_ id: ObjectIdentifier, _ name: String?) -> Int? {
            let raw = UInt(bitPattern: id)
            var i = KeyTable.slot(id, name, mask)
            while true {
                let entry = entries[i]
                if entry.id == 0 { return nil }
                if entry.id == raw {
                    if let name {
                        // _withUnsafeGuaranteedRef: the lookup's owner (the plan) holds the table while it looks.
                        if entry.nameIndex >= 0,
                           table._withUnsafeGuaranteedRef({ $0.names[Int(entry.nameIndex)] == name }) {
                            return Int(entry.value)
                        }
                    } else if entry.nameIndex < 0 {
                        return Int(entry.value)
                    }
                }
                i = (i + 1) & mask
            }
        }
    }
}
