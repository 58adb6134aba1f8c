#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LuaBridge

/// The few POSIX socket calls the loopback test server needs (plain
/// HTTP/1.1 over TCP, `Connection: close`); the client side is libcurl's.
enum Sockets {
    #if canImport(Darwin)
    static let streamType = SOCK_STREAM
    static let sendFlags: Int32 = 0
    #else
    static let streamType = Int32(SOCK_STREAM.rawValue)
    static let sendFlags = Int32(MSG_NOSIGNAL)
    #endif

    static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    static func sendAll(_ fd: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, sendFlags) }
            if sent <= 0 { return false }
            bytes = bytes.dropFirst(sent)
        }
        return true
    }

    /// Reads until the peer closes (or `stopAtHeaderEnd` and the header ended).
    static func receive(_ fd: Int32, stopAtHeaderEnd: Bool = false) -> [UInt8]? {
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 { return nil }
            if count == 0 { return data }
            data += buffer[..<count]
            if stopAtHeaderEnd, data.count >= 4, data.suffix(4) == [13, 10, 13, 10] { return data }
        }
    }

    /// Runs `body` on a detached thread of its own.
    static func detach(_ body: @escaping @Sendable () -> Void) {
        final class Box { let body: @Sendable () -> Void; init(_ b: @escaping @Sendable () -> Void) { body = b } }
        let raw = Unmanaged.passRetained(Box(body)).toOpaque()
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let status = pthread_create(&thread, nil, { raw in
            #if canImport(Darwin)
            let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
            #else
            guard let raw else { return nil }
            let box = Unmanaged<Box>.fromOpaque(raw).takeRetainedValue()
            #endif
            box.body()
            return nil
        }, raw)
        if status == 0 {
            #if canImport(Darwin)
            if let thread { pthread_detach(thread) }
            #else
            pthread_detach(thread)
            #endif
        } else {
            Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
        }
    }
}

/// A lock for the few objects the HTTP threads share with the host thread.
// @unchecked Sendable: the mutex and condition live at fixed heap addresses from init to deinit, and pthread
// primitives are made to be shared; `wait`'s predicate runs with the mutex held.
final class Mutex: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }
    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }
    func locked<R>(_ body: () throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
    /// Waits (lock held) until `done()` or `seconds` pass; returns `done()`.
    func wait(seconds: Double, until done: () -> Bool) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let wait = seconds.isFinite ? min(max(seconds, 0), 86_400) : 86_400   // never a trap
        let total = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 + wait
        var deadline = timespec(tv_sec: Int(total), tv_nsec: Int((total - total.rounded(.down)) * 1e9))
        while !done() {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return done() }
        }
        return true
    }
    func signal() { pthread_cond_broadcast(condition) }
}
