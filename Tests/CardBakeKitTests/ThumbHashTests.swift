import CardBakeKit
import Testing

/// Vectors from the reference encoder and decoder (evanw/thumbhash, js/thumbhash.js, run with
/// node on the same synthetic pictures): the hash's base64, the average colour and aspect ratio
/// it reports, and the decoded picture's size, channel sums and three pixels.
///
/// A coefficient that is zero in exact arithmetic (every one of a solid picture, the symmetric ones
/// of a gradient) comes out as rounding noise, `15 × (0.5 ± 1e-17)`, and the noise of each
/// language's cosine decides whether its nibble is 7 or 8: the reference implementations differ
/// from each other there too. For a gradient the header must match and each nibble be within one;
/// for a solid picture, whose every AC coefficient is noise, the header, whose scales of zero make
/// any decoder ignore the coefficients.
@Suite("ThumbHash")
struct ThumbHashTests {
    enum Agreement: Sendable { case exact, nibblesWithinOne, header }

    struct Vector: Sendable, CustomTestStringConvertible {
        var name: String
        var width: Int
        var height: Int
        var pixel: @Sendable (Int, Int) -> [UInt8]
        /// How closely the hash can match the reference's.
        var agreement = Agreement.exact
        var base64: String
        var average: (Double, Double, Double, Double)
        var ratio: Double
        var decodedSize: (Int, Int)
        var sums: [Int]
        var first, middle, last: [UInt8]

        var testDescription: String { name }

        var rgba: [UInt8] {
            (0..<height).flatMap { y in (0..<width).flatMap { x in pixel(x, y) } }
        }
    }

    static let vectors: [Vector] = [
        Vector(name: "solid", width: 40, height: 30, pixel: { _, _ in [200, 100, 20, 255] }, agreement: .header,
               base64: "GswCBYAHCyuJiIh3eJiIeE+It5B3",
               average: (0.7857142857142857, 0.38888888888888895, 0.06349206349206354, 1), ratio: 1.4,
               decodedSize: (32, 23), sums: [147_200, 72864, 11776, 187_680],
               first: [200, 99, 16, 255], middle: [200, 99, 16, 255], last: [200, 99, 16, 255]),
        Vector(name: "gradient", width: 100, height: 75,
               pixel: { x, y in [UInt8(x * 255 / 99), UInt8(y * 255 / 74), 128, 255] }, agreement: .nibblesWithinOne,
               base64: "3wcKNZqAh4eAiHeIeHiHiICACPh3",
               average: (0.4947089947089946, 0.4788359788359788, 0.5026455026455027, 1), ratio: 1.4,
               decodedSize: (32, 23), sums: [92115, 89549, 93964, 187_680],
               first: [32, 37, 148, 255], middle: [127, 117, 131, 255], last: [249, 253, 122, 255]),
        Vector(name: "portrait", width: 30, height: 60,
               pixel: { x, y in [UInt8((x * 7 + y * 3) % 256), UInt8(x * y % 256), UInt8(255 - x * 5 % 256), 255] },
               base64: "IyYGTAocVXA5t4VXaGhQVsbGgA==",
               average: (0.5158730158730158, 0.4365079365079365, 0.7142857142857143, 1), ratio: 0.5714285714285714,
               decodedSize: (18, 32), sums: [75488, 63829, 104_292, 146_880],
               first: [23, 0, 255, 255], middle: [178, 156, 171, 255], last: [58, 156, 137, 255]),
        Vector(name: "alpha", width: 50, height: 50,
               pixel: { x, y in [255, UInt8(x * 255 / 49), 40, UInt8((x + y) * 255 / 98)] },
               base64: "Jd2GHQwnoIeYh3iIiKCY+HV2gIeAh3h4iA==",
               average: (1, 0.58994708994709, 0.15343915343915354, 0.4666666666666667), ratio: 1,
               decodedSize: (32, 32), sums: [260_972, 153_528, 39553, 120_419],
               first: [255, 134, 43, 1], middle: [255, 133, 43, 128], last: [255, 245, 40, 255]),
        Vector(name: "tiny", width: 3, height: 2, pixel: { x, y in [UInt8(x * 100), UInt8(y * 200), 50, 255] },
               base64: "lQkqTaJ2eAl1iHiHiKh4kHFwF/eI",
               average: (0.41005291005291, 0.3941798941798942, 0.1957671957671958, 1), ratio: 1.4,
               decodedSize: (32, 23), sums: [83306, 81976, 65355, 187_680],
               first: [0, 0, 0, 255], middle: [110, 98, 36, 255], last: [0, 0, 0, 255]),
    ]

    @Test("The encoder writes the reference encoder's bytes", arguments: vectors)
    func encodes(_ vector: Vector) throws {
        let hash = ThumbHash(encodingRGBA: vector.rgba, width: vector.width, height: vector.height)
        let reference = try #require(ThumbHash(base64: vector.base64)).bytes
        guard vector.agreement != .exact else {
            #expect(hash.base64 == vector.base64)
            return
        }
        #expect(hash.bytes.count == reference.count)
        #expect(hash.bytes.prefix(5) == reference.prefix(5), "the header")
        if vector.agreement == .header {
            #expect(hash.image() == ThumbHash(bytes: reference)?.image())
        } else {
            let nibbles = { (bytes: [UInt8]) in bytes.dropFirst(5).flatMap { [Int($0 & 15), Int($0 >> 4)] } }
            #expect(zip(nibbles(hash.bytes), nibbles(reference)).allSatisfy { abs($0 - $1) <= 1 })
        }
    }

    @Test("The average colour and aspect ratio are the reference decoder's", arguments: vectors)
    func header(_ vector: Vector) throws {
        let hash = try #require(ThumbHash(base64: vector.base64))
        let average = hash.averageColor
        let expected = vector.average
        for (found, wanted) in [(average.red, expected.0), (average.green, expected.1), (average.blue, expected.2),
                                (average.alpha, expected.3)] {
            #expect(abs(found - wanted) < 1e-12, "\(vector.name): \(average)")
        }
        #expect(abs(hash.approximateAspectRatio - vector.ratio) < 1e-12)
    }

    @Test("The decoded picture is the reference decoder's, to one level in a pixel", arguments: vectors)
    func decodes(_ vector: Vector) throws {
        let image = try #require(ThumbHash(base64: vector.base64)).image()
        #expect((image.width, image.height) == vector.decodedSize)
        #expect(image.rgba.count == image.width * image.height * 4)
        let pixels = image.width * image.height
        for channel in 0..<4 {
            let sum = stride(from: channel, to: image.rgba.count, by: 4).reduce(0) { $0 + Int(image.rgba[$1]) }
            #expect(abs(sum - vector.sums[channel]) <= pixels / 16, "\(vector.name) channel \(channel): \(sum)")
        }
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            Array(image.rgba[(y * image.width + x) * 4..<(y * image.width + x) * 4 + 4])
        }
        for (found, wanted) in [(pixel(0, 0), vector.first),
                                (pixel(image.width / 2, image.height / 2), vector.middle),
                                (pixel(image.width - 1, image.height - 1), vector.last)] {
            #expect(zip(found, wanted).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(vector.name): \(found) ≠ \(wanted)")
        }
    }

    @Test("Base64 round-trips, padding optional; text or bytes that are not a hash are nil")
    func base64() throws {
        let hash = try #require(ThumbHash(base64: "IyYGTAocVXA5t4VXaGhQVsbGgA=="))
        #expect(ThumbHash(base64: "IyYGTAocVXA5t4VXaGhQVsbGgA") == hash)
        #expect(ThumbHash(bytes: hash.bytes)?.base64 == "IyYGTAocVXA5t4VXaGhQVsbGgA==")
        #expect(ThumbHash(base64: "not base64!") == nil)
        #expect(ThumbHash(bytes: [1, 2, 3]) == nil)
        #expect(ThumbHash(bytes: Array(hash.bytes.dropLast(2))) == nil, "fewer coefficients than the header announces")
        #expect(ThumbHash(bytes: [0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 20)) == nil, "no luminance across")
    }
}
