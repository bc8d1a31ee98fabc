import CardBake
import CardBakeFiles
import Foundation
import Synchronization

/// Shows build progress: a bar on a terminal, a line per 10 % otherwise, a line per card with
/// `--verbose`, nothing with `--quiet`.
final class ProgressPrinter: Sendable {
    private let console: Console
    private let lastDecile = Mutex(0)

    init(console: Console) {
        self.console = console
    }

    func handle(_ event: BuildEvent) {
        switch event {
        case let .waiting(folder, holder):
            console.waiting(for: folder, holder: holder)
        case let .warning(message):
            console.warning(message)
        case let .downloaded(count):
            if console.errorIsTerminal {
                console.status("downloading photos: \(count) done")
            } else if console.verbose {
                console.note("downloaded \(count.counting("photo"))")
            }
        case let .planned(total, toRender, failed):
            console.note("\(total.counting("card")): \(toRender) to render, \(total - toRender - failed) cached, "
                         + "\(failed) failed")
        case let .finished(result, done, total):
            if console.verbose {
                let detail = result.reason.map { ": \($0)" } ?? ""
                console.note("\(result.status.rawValue) \(result.id) in \(String(format: "%.2f", result.seconds)) s\(detail)")
            }
            if console.errorIsTerminal {
                console.status(bar(done: done, total: total))
                if done == total { console.status("") }
            } else if !console.verbose {
                let decile = done * 10 / max(total, 1)
                let crossed = lastDecile.withLock { last in
                    defer { last = max(last, decile) }
                    return decile > last
                }
                if crossed { console.note("\(decile * 10)% (\(done)/\(total.counting("card")))") }
            }
        }
    }

    private func bar(done: Int, total: Int) -> String {
        let width = 30
        let filled = total > 0 ? done * width / total : width
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            + "] \(done)/\(total)"
    }
}
