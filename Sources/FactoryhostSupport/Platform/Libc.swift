// The C library, whichever this platform has: every module that calls
// POSIX imports FactoryhostSupport instead of repeating this block.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif
