/// A rectangle in points.
public struct PointRect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The frame in pixels at `scale`, snapped outwards to whole pixels as CGRectIntegral does:
    /// origins floor, far edges ceil.
    public func pixels(atScale scale: Int) -> PixelRect {
        let s = Double(scale)
        let left = Int((x * s).rounded(.down))
        let top = Int((y * s).rounded(.down))
        let right = Int(((x + width) * s).rounded(.up))
        let bottom = Int(((y + height) * s).rounded(.up))
        return PixelRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}

/// A rectangle of whole pixels.
public struct PixelRect: Sendable, Hashable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var isEmpty: Bool { width <= 0 || height <= 0 }
}
