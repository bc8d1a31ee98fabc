import ArgumentParser
import CardBake
import CardBakeCache
import CardBakeCatalog
import CardBakeFiles
import CardBakeRemoteCache
import Foundation

/// The exit statuses cardbake documents (README, "Exit status").
enum ExitStatus {
    static let success: Int32 = 0
    /// Some cards failed, `check` found differences, or a file could not be written or read.
    static let failures: Int32 = 1
    /// The command cannot run as given: a flag, the catalog, a cache folder of another version, or
    /// shard folders `merge` refuses.
    static let usage: Int32 = 2
    /// Another cardbake held the output or cache folder for longer than `--lock-timeout`.
    static let lockTimeout: Int32 = 3
}

/// An error that belongs to one command-line flag: its message names the flag.
struct FlagError: Error, CustomStringConvertible {
    let flag: String
    let underlying: any Error

    var description: String { "\(underlying) (\(flag))" }
}

/// A command stopped by SIGINT or SIGTERM; `folder` was left as it was.
struct Interrupted: Error, CustomStringConvertible {
    let folder: String
    let status: Int32

    var description: String { "interrupted; \(folder) was left as it was." }
}

/// The one place where an error ends a command: one `error:` message and the documented status.
enum Failure {
    /// What to print (nil: the command has said everything) and the status to exit with.
    static func report(for error: any Error) -> (message: String?, status: Int32) {
        switch error {
        case let error as CatalogError:
            (error.description, ExitStatus.usage)
        case let error as OverrideError:
            (error.description, ExitStatus.usage)
        case let error as CacheError:
            (error.description, ExitStatus.usage)
        case let error as UnavailableFormat:
            (error.description, ExitStatus.usage)
        case let error as AssetCatalogError:
            (error.description, ExitStatus.usage)
        case let error as ShardSetError:
            (error.description, ExitStatus.usage)
        case let error as RemoteCacheAddressError:
            (error.description, ExitStatus.usage)
        case let error as LockTimeout:
            ("\(error) (--lock-timeout)", ExitStatus.lockTimeout)
        case let error as Interrupted:
            (error.description, error.status)
        case let error as FileSystemError where error.isWriteFailure:
            ("\(error)\nthe build stopped: no file was left half written and the cache is valid; "
                + "run it again once the cause is fixed.", ExitStatus.failures)
        case let error as FileSystemError:
            (error.description, ExitStatus.failures)
        case let error as FlagError:
            (error.description, report(for: error.underlying).status)
        case let error as ExitCode:
            (nil, error.rawValue)
        default:
            ("\(error)", ExitStatus.failures)
        }
    }

    /// Ends the process for `error`: the argument parser's help, version and completion output as it
    /// prints them (status 0), a usage error with its usage text (status 2), anything else through
    /// ``report(for:)``.
    static func exit(for error: any Error) -> Never {
        if !(error is ExitCode) {
            switch Cardbake.exitCode(for: error) {
            case .success:
                Cardbake.exit(withError: error)
            case .validationFailure:
                // cardbake's own `error:` line, then the parser's usage text without its `Error:` line.
                Console().error(Cardbake.message(for: error))
                let usage = Cardbake.fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false)
                    .drop { !$0.hasPrefix("Usage:") }
                FileHandle.standardError.write(Data((usage.joined(separator: "\n") + "\n").utf8))
                Foundation.exit(ExitStatus.usage)
            default:
                break
            }
        }
        let (message, status) = report(for: error)
        if let message { Console().error(message) }
        Foundation.exit(status)
    }
}
