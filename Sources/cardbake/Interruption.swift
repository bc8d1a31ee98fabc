import CardBake
import CardBakeCatalog
import CardBakeFiles
import Dispatch
import Foundation
import Synchronization

/// Turns SIGINT and SIGTERM into a cancelled build: workers stop between steps, nothing half-written
/// is left, and the process exits 130 (SIGINT) or 143 (SIGTERM).
final class Interruption {
    let cancellation = Cancellation()
    private let received = ReceivedSignal()
    private let sources: [any DispatchSourceSignal]

    init() {
        let queue = DispatchQueue(label: "cardbake.signals")
        let cancellation = cancellation, received = received
        sources = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: queue)
            source.setEventHandler { [cancellation, received] in
                received.number.store(signalNumber, ordering: .relaxed)
                cancellation.cancel()
            }
            source.resume()
            return source
        }
    }

    /// 128 + the number of the signal received.
    var exitStatus: Int32 { 128 + max(received.number.load(ordering: .relaxed), SIGINT) }
}

/// The last signal that asked the build to stop.
private final class ReceivedSignal: Sendable {
    let number = Atomic<Int32>(0)
}
