import Foundation

// The libFuzzer entry point for the manifest reader. Not part of the package: Tests/Stress/fuzz-manifest
// compiles this folder with Sources/CardBakeManifest into one module with `swiftc -sanitize=fuzzer,address`.
// Each input is a manifest's files (`ManifestInvariants.files(in:)`); its outcome is checked by
// `ManifestInvariants`: any crash, sanitizer report or broken invariant is a finding.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    ManifestInvariants.check(bytes.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}
