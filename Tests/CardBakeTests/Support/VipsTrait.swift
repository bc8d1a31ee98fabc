import Testing
import Vips

/// Starts libvips once before a test or suite that uses it.
struct VipsTrait: TestTrait, SuiteTrait, TestScoping {
    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        try Vips.start()
        try await function()
    }
}

extension Trait where Self == VipsTrait {
    /// libvips is started before the test runs.
    static var vips: Self { VipsTrait() }
}
