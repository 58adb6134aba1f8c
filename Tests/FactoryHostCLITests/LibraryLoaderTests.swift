import CLibraryLoader
import Foundation
import Testing

/// The optional system libraries (libsqlite3, libcurl, libedit) are opened
/// by trying names in turn; when none loads, the reason given must be the
/// most telling one — a file that is there but broken — not the last name's.
@Suite("Opening an optional system library")
struct LibraryLoaderTests {
    private func open(_ names: [String]) -> (loaded: Bool, reason: String) {
        let copies = names.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
        var reason = [CChar](repeating: 0, count: 512)
        let library = pointers.withUnsafeMutableBufferPointer { fh_dlopen_first($0.baseAddress, &reason, reason.count) }
        if let library { dlclose(library) }
        return (library != nil, String(cString: reason))
    }

    @Test func aBrokenFileIsTheReasonWhateverComesAfterIt() throws {
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent("fh-broken-\(UUID().uuidString).so").path
        try Data("not a library".utf8).write(to: URL(fileURLWithPath: broken))
        defer { try? FileManager.default.removeItem(atPath: broken) }
        let result = open(["/nonexistent/libfirst.so", broken, "/nonexistent/liblast.so"])
        #expect(!result.loaded)
        #expect(result.reason.contains(broken), "\(result.reason)")
    }

    @Test func withNothingThereTheFirstNameIsTheReason() {
        let result = open(["/nonexistent/libfirst.so", "/nonexistent/liblast.so"])
        #expect(!result.loaded)
        #expect(result.reason.contains("/nonexistent/libfirst.so"), "\(result.reason)")
    }

    #if os(Linux)
    @Test func theFirstThatLoadsIsOpened() {
        let result = open(["/nonexistent/libfirst.so", "libc.so.6"])
        #expect(result.loaded)
    }

    @Test func everySymbolIsLoadedOrTheFirstMissingOneIsNamed() throws {
        let library = try #require(dlopen("libc.so.6", RTLD_NOW))
        defer { dlclose(library) }
        var strlenSlot: UnsafeMutableRawPointer?, getpidSlot: UnsafeMutableRawPointer?, missingSlot: UnsafeMutableRawPointer?
        var failure = [CChar](repeating: 0, count: 256)
        let status = withUnsafeMutablePointer(to: &strlenSlot) { strlenPointer in
            withUnsafeMutablePointer(to: &getpidSlot) { getpidPointer in
                withUnsafeMutablePointer(to: &missingSlot) { missingPointer in
                    ["strlen", "fh_no_such_symbol", "getpid"].withCStringArray { names in
                        let symbols = [fh_symbol(name: names[0], slot: strlenPointer), fh_symbol(name: names[1], slot: missingPointer),
                                       fh_symbol(name: names[2], slot: getpidPointer)]
                        return fh_load_symbols(library, symbols, 3, "libc", &failure, failure.count)
                    }
                }
            }
        }
        #expect(status == -1)
        #expect(strlenSlot != nil && missingSlot == nil && getpidSlot == nil)
        #expect(String(decoding: failure.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == "libc has no fh_no_such_symbol")
    }
    #endif
}

private extension Array where Element == String {
    /// The strings as C strings, for the length of `body`.
    func withCStringArray<R>(_ body: ([UnsafePointer<CChar>]) -> R) -> R {
        let copies = map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.compactMap { $0.map { UnsafePointer($0) } })
    }
}
