/// Where each key sits among a configuration's registrations: an
/// open-addressing table of 4-byte positions that compares keys through the
/// registrations themselves, so a key is stored once, in its registration.
/// (A `[ServiceKey: Int]` stored every 56-byte key again, with the
/// dictionary's slack: about 170 bytes per registration at 100,000.)
///
/// A value, like the array it indexes: a snapshot copies both together.
struct RegistrationIndex {
    private var slots: [Int32] = []     // -1: empty; else a position in the registrations
    private var count = 0

    /// The position of `key` in `registrations` (the array this indexes), or nil.
    func position(of key: ServiceKey, in registrations: [Registration]) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        var i = KeyTable.slot(key.type.id, key.name, mask)
        while true {
            let position = slots[i]
            if position < 0 { return nil }
            if registrations[Int(position)].key == key { return Int(position) }
            i = (i + 1) & mask
        }
    }

    /// Records that `key`, not in the index yet, is at `position`;
    /// `registrations` holds the keys already indexed, at their positions.
    mutating func insert(_ key: ServiceKey, at position: Int, in registrations: [Registration]) {
        if (count + 1) * 2 > slots.count {
            let old = slots
            slots = Array(repeating: -1, count: max(16, old.count * 2))
            for indexed in old where indexed >= 0 { place(registrations[Int(indexed)].key, Int32(indexed)) }
        }
        place(key, Int32(position))
        count += 1
    }

    private mutating func place(_ key: ServiceKey, _ position: Int32) {
        let mask = slots.count - 1
        var i = KeyTable.slot(key.type.id, key.name, mask)
        while slots[i] >= 0 { i = (i + 1) & mask }
        slots[i] = position
    }
}
