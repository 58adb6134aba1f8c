#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import LuaBridge

/// One HTTP GET that can be cancelled from another thread: cancelling shuts
/// the socket down, so the waiting read returns at once.
final class HTTPGet: @unchecked Sendable {
    private let lock = Mutex()
    private var socket: Int32 = -1
    private var cancelled = false

    /// `GET url` (an `http://127.0.0.1:PORT/path` URL): the status and body.
    func run(_ url: String) throws -> (status: Int, body: String) {
        let (host, port, path) = try Self.parse(url)
        let fd = try Sockets.connect(host: host, port: port)
        let proceed = lock.locked { () -> Bool in
            socket = fd
            return !cancelled
        }
        defer { lock.locked { socket = -1 }; close(fd) }
        guard proceed else { throw Cancelled() }
        guard Sockets.sendAll(fd, "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n") else {
            throw lock.locked({ cancelled }) ? Cancelled() : LuaError(.runtime, "GET \(url): the connection closed")
        }
        let data = Sockets.receive(fd)
        if lock.locked({ cancelled }) { throw Cancelled() }
        guard let data, let split = Self.headerEnd(data) else {
            throw LuaError(.runtime, "GET \(url): no HTTP response")
        }
        let head = String(decoding: data[..<split], as: UTF8.self)
        let statusLine = head.split(separator: "\r\n").first ?? ""
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else {
            throw LuaError(.runtime, "GET \(url): bad status line '\(statusLine)'")
        }
        return (status, String(decoding: data[(split + 4)...], as: UTF8.self))
    }

    func cancel() {
        lock.locked {
            cancelled = true
            if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
        }
    }

    struct Cancelled: Error {}

    static func headerEnd(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for i in 0...(data.count - 4) where data[i] == 13 && data[i + 1] == 10 && data[i + 2] == 13 && data[i + 3] == 10 {
            return i
        }
        return nil
    }

    static func parse(_ url: String) throws -> (String, UInt16, String) {
        guard url.hasPrefix("http://") else { throw LuaError(.runtime, "not an http:// URL: '\(url)'") }
        let rest = url.dropFirst(7)
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        let pieces = authority.split(separator: ":")
        guard let host = pieces.first, pieces.count <= 2 else { throw LuaError(.runtime, "bad URL '\(url)'") }
        let port = pieces.count == 2 ? UInt16(pieces[1]) : 80
        guard let port else { throw LuaError(.runtime, "bad port in URL '\(url)'") }
        return (String(host), port, path.isEmpty ? "/" : String(path))
    }
}
