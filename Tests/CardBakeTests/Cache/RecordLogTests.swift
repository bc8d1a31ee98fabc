import Foundation
import Testing
@testable import CardBakeCache
@testable import CardBakeManifest

/// ``RecordLog``: appends that follow the change, a killed append passed over and written over, and
/// compaction once the changes outnumber the table.
@Suite("Record log")
struct RecordLogTests {
    /// The table a log's file holds, by key, with each entry's note.
    static func table(_ log: RecordLog) -> (entries: [String: (note: Int64, value: String)], end: RecordLog.End?) {
        var entries: [String: (note: Int64, value: String)] = [:]
        let end = log.bytes().flatMap { bytes in
            log.read(bytes) { note, key, value in
                entries[String(decoding: key, as: UTF8.self)] = value.map { (note, String(decoding: $0, as: UTF8.self)) }
            }
        }
        return (entries, end)
    }

    static func changes(_ pairs: [(String, String?)]) -> RecordLog.Changes {
        { emit in
            for (key, value) in pairs { try emit((Data(key.utf8), value.map { Data($0.utf8) })) }
        }
    }

    static func save(_ pairs: [(String, String?)], entries: Int, note: Int64, to log: RecordLog,
                     after end: RecordLog.End?, whole: [(String, String?)] = []) throws -> RecordLog.End {
        try log.save(pairs.count, changes: changes(pairs), entries: entries, note: note, after: end, whole: changes(whole))
    }

    @Test("A save appends its changes; the file reads as the table with each frame's note")
    func appends() throws {
        try withTemporaryDirectory { folder in
            let log = RecordLog(file: folder.appendingPathComponent("table"), name: "table")
            let whole = (0..<100).map { ("key \($0)", "value \($0)") as (String, String?) }
            let first = try Self.save([], entries: 100, note: 1, to: log, after: nil, whole: whole)
            let size = try Data(contentsOf: log.file).count
            let second = try Self.save([("key 5", "changed"), ("key 6", nil)], entries: 99, note: 2, to: log, after: first)
            let table = Self.table(log)
            #expect(table.end == second)
            #expect(table.entries.count == 99)
            #expect(table.entries["key 5"]?.value == "changed" && table.entries["key 5"]?.note == 2)
            #expect(table.entries["key 7"]?.value == "value 7" && table.entries["key 7"]?.note == 1)
            #expect(table.entries["key 6"] == nil)
            #expect(try Data(contentsOf: log.file).count - size < 100, "two changes append a small frame")
            #expect(try Self.save([], entries: 99, note: 3, to: log, after: second) == second, "nothing to write")
        }
    }

    @Test("An append cut short is passed over, and the next save writes over it")
    func cutShort() throws {
        try withTemporaryDirectory { folder in
            let log = RecordLog(file: folder.appendingPathComponent("table"), name: "table")
            let first = try Self.save([], entries: 1, note: 1, to: log, after: nil, whole: [("a", "1")])
            _ = try Self.save([("b", "2")], entries: 2, note: 2, to: log, after: first)
            let bytes = try Data(contentsOf: log.file)
            for cut in [bytes.count - 1, bytes.count - 20, Int(first.length) + 3] {
                try bytes.prefix(cut).write(to: log.file)
                let table = Self.table(log)
                #expect(table.end == first, "cut at \(cut)")
                #expect(table.entries.keys.sorted() == ["a"])
            }
            // A damaged byte in the second frame: the same.
            var damaged = bytes
            damaged[bytes.count - 40] ^= 1
            try damaged.write(to: log.file)
            let table = Self.table(log)
            #expect(table.end == first)
            _ = try Self.save([("c", "3")], entries: 2, note: 3, to: log, after: table.end)
            #expect(Self.table(log).entries.keys.sorted() == ["a", "c"])
            #expect(try Data(contentsOf: log.file).count < bytes.count + 10, "the damaged frame was written over")
        }
    }

    @Test("Once the changes outnumber the table, a save writes the table whole")
    func compacts() throws {
        try withTemporaryDirectory { folder in
            let log = RecordLog(file: folder.appendingPathComponent("table"), name: "table")
            var end = try Self.save([], entries: 1, note: 0, to: log, after: nil, whole: [("a", "0")])
            let limit = RecordLog.compactionRatio * 1 + RecordLog.compactionSlack
            for round in 1...limit {
                end = try Self.save([("a", "\(round)")], entries: 1, note: Int64(round), to: log, after: end,
                                    whole: [("a", "\(round)")])
            }
            #expect(end.changes == 1, "the last save wrote the one entry whole")
            #expect(Self.table(log).entries["a"]?.value == "\(limit)")
            #expect(try Data(contentsOf: log.file).count < 100)
        }
    }

    @Test("A file of another name or version, or none, is not a log")
    func foreign() throws {
        try withTemporaryDirectory { folder in
            let log = RecordLog(file: folder.appendingPathComponent("table"), name: "table")
            #expect(Self.table(log).end == nil)
            _ = try Self.save([], entries: 1, note: 0, to: log, after: nil, whole: [("a", "1")])
            #expect(Self.table(RecordLog(file: log.file, name: "other")).end == nil)
            try Data("cardbake-table log 2\n".utf8).write(to: log.file)
            #expect(Self.table(log).end == nil)
        }
    }
}
