import Dispatch

/// Where every result goes: a function stored in a variable and called
/// through it, which the optimizer cannot see into — so what a contender
/// builds escapes, is allocated on the heap like the real thing (a baseline
/// the optimizer could put on the stack would flatter it), and cannot be dropped.
nonisolated(unsafe) var opaqueSink: (Any) -> Void = { _ in }

/// Hands `value` to ``opaqueSink``.
@inline(never)
func consume<T>(_ value: T) {
    opaqueSink(value)
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Median ns per call for each contender, sampling them in turn (a sample of
/// each, then the next round), so a slow phase of the machine hits every
/// contender alike and the ratios hold.
func measureInterleaved(_ contenders: [(String, () throws -> Void)], rounds: Int = 15,
                        sampleNanoseconds: UInt64 = 10_000_000) throws -> [(String, Double)] {
    try measureInterleavedSamples(contenders, rounds: rounds, sampleNanoseconds: sampleNanoseconds).map { ($0.0, median($0.1)) }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
}

/// Every round's ns per call for each contender (see ``measureInterleaved``).
func measureInterleavedSamples(_ contenders: [(String, () throws -> Void)], rounds: Int = 15,
                               sampleNanoseconds: UInt64 = 10_000_000) throws -> [(String, [Double])] {
    var batches: [Int] = []
    for (_, body) in contenders {
        for _ in 0..<100 { try body() }
        var batch = 1
        while true {
            let start = now()
            for _ in 0..<batch { try body() }
            if now() - start >= sampleNanoseconds / 4 || batch >= 1 << 26 { break }
            batch *= 2
        }
        batches.append(batch * 4)
    }
    var samples = [[Double]](repeating: [], count: contenders.count)
    for _ in 0..<rounds {
        for (i, (_, body)) in contenders.enumerated() {
            let start = now()
            for _ in 0..<batches[i] { try body() }
            samples[i].append(Double(now() - start) / Double(batches[i]))
        }
    }
    return contenders.indices.map { (contenders[$0].0, samples[$0]) }
}

/// One case's results: contender → median ns per operation, in run order.
struct CaseResult {
    let name: String
    var contenders: [(String, Double)] = []
    /// Each contender's samples, round by round (when measured interleaved).
    var samples: [String: [Double]] = [:]

    /// The median over rounds of `a`'s time over `b`'s in the same round:
    /// samples taken moments apart share the machine's state, so this ratio
    /// holds even when the machine's speed drifts during the run.
    func pairedRatio(_ a: String, _ b: String) -> Double? {
        guard let x = samples[a], let y = samples[b], x.count == y.count, !x.isEmpty else {
            guard let p = ns(a), let q = ns(b) else { return nil }
            return p / q
        }
        return median(zip(x, y).map { $0 / $1 })
    }
    mutating func add(_ contender: String, _ ns: Double) { contenders.append((contender, ns)) }
    init(name: String, contenders: [(String, Double)] = []) {
        self.name = name
        self.contenders = contenders
    }
    func ns(_ contender: String) -> Double? { contenders.first { $0.0 == contender }?.1 }
}
