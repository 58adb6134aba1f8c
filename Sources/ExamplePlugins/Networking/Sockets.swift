import FactoryhostSupport
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
}
