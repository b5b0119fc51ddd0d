// The C library, imported once for every layer: the other targets import `IPSDoctorSupport` and
// get it from here, so no file outside this folder names a platform.
//
// Everything the layers call from it is declared alike on Linux (Glibc) and on Apple systems
// (Darwin): the byte functions (`memchr`, `memcmp`, `strlen`), descriptors (`open`, `openat`,
// `read`, `write`, `close`, `fcntl`, `fstat`, `lseek`, `mkstemp`, `rename`, `unlink`, `mmap`),
// `isatty`, `ioctl` with `TIOCGWINSZ`, `signal`, `getcwd`, `getenv` and `errno`.
// `docs/platforms.md` lists where each platform declares them, and what differs lives in the
// other files of this folder. `PlatformGuardTests` fails when a source outside this folder
// names a platform or calls what Darwin does not have.

#if canImport(Glibc)
  @_exported import Glibc
#elseif canImport(Darwin)
  @_exported import Darwin
#elseif canImport(Musl)
  @_exported import Musl
#endif
