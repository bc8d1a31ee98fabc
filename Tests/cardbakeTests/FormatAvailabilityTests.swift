import Foundation
import Testing

/// HEIC and AVIF need libvips' HEIF module and libheif's encoders; without them a build stops before rendering.
@Suite("Format availability")
struct FormatAvailabilityTests {
    @Test("A format this libvips cannot write exits 2 naming it and the cards, before anything renders",
          arguments: ["heic", "avif"])
    func unavailable(_ format: String) throws {
        try Sandbox.with { sandbox in
            // Given a libvips that loads no modules (VIPSHOME without them), so it has no heifsave
            try FileManager.default.createDirectory(at: sandbox.url("no-modules"), withIntermediateDirectories: true)
            try sandbox.writeCatalog(threeCards)

            // When
            let result = try sandbox.run(["build", "catalog.json", "--output", "OUT", "--format", format],
                                         environment: ["VIPSHOME": sandbox.url("no-modules").path])

            // Then
            #expect(result.status == 2, result.comment)
            #expect(result.stderr.contains(#"card "zeta-coffee" and 2 other cards ask for format "\#(format)""#), result.comment)
            #expect(result.stderr.contains("cannot write"), result.comment)
            #expect(!sandbox.exists("OUT/cards"), "nothing was rendered")

            // while the formats libvips always has still build there
            let png = try sandbox.run(["build", "catalog.json", "--output", "OUT"],
                                      environment: ["VIPSHOME": sandbox.url("no-modules").path])
            #expect(png.status == 0, png.comment)
        }
    }
}
