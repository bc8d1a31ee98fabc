import Foundation

// The libFuzzer entry point for the catalog decoder and validator.
//
// Not part of the package: Tests/Stress/fuzz-catalog compiles this file together with
// Sources/CardBake/Catalog into one module with `swiftc -sanitize=fuzzer,address`, so the
// internal types are visible here. Each input goes through `CatalogLoader.decode`, the entry the
// command line uses once it has read the file, and its outcome is checked by `CatalogInvariants`:
// any crash, sanitizer report or broken invariant is a finding.

/// Where the fuzzed bytes claim to come from; only anchors relative paths and prefixes messages.
private let fuzzedCatalogFile = URL(fileURLWithPath: "/fuzz/Input/catalog.json")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCatalog(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    do {
        CatalogInvariants.check(try CatalogLoader.decode(data, file: fuzzedCatalogFile))
    } catch let error as CatalogError {
        CatalogInvariants.check(error, file: fuzzedCatalogFile)
    } catch {
        fatalError("CatalogLoader.decode threw \(type(of: error)), not a CatalogError: \(error)")
    }
    return 0
}
