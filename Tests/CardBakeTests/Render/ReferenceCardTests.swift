import Foundation
@testable import CardBake
@testable import CardBakeCache
@testable import CardBakeCatalog
@testable import CardBakeFiles
@testable import CardBakeManifest
@testable import CardBakeRender
import Testing
import Vips

/// The whole look against committed reference renders, so a change to any stage shows.
///
/// Text antialiasing can differ slightly between machines, so the comparison allows a small mean
/// difference and does not bound single pixels. To re-record after an intended change of look, run
/// `CARDBAKE_RECORD_REFERENCES=1 swift test --filter ReferenceCardTests` and review the new images.
@Suite("Reference cards", .vips)
struct ReferenceCardTests {
    static let references = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("References")
    static let recording = ProcessInfo.processInfo.environment["CARDBAKE_RECORD_REFERENCES"] == "1"

    @Test("The default style matches its reference render", arguments: [1, 2])
    func defaultLook(scale: Int) throws {
        let source = try TestImage.blocks(width: 480, height: 360)
        let (bitmap, _) = try CardRendererTests.render(
            source, title: "Tom & Jerry <3 and a title far too long to fit",
            description: "Justified text over the blurred photo. " + String(repeating: "More words follow here. ", count: 30),
            scale: scale)
        let actual = try VipsImage.fromPixels(bitmap.samples, width: bitmap.width, height: bitmap.height, bands: 3)
        let file = Self.references.appendingPathComponent("default@\(scale)x.png")
        if Self.recording {
            try actual.encoded(as: .png(compression: 9, filter: .adaptive)).write(to: file)
            return
        }
        let expected = try VipsImage.decode(try Data(contentsOf: file), maxWidth: 1 << 20)
        try expectSimilar(actual, expected, meanTolerance: 1.0, maxTolerance: 255, name: "reference-default@\(scale)x")
    }
}
