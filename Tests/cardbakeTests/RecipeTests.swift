import ArgumentParser
import Foundation
import Testing
@testable import cardbake

/// The files of docs/recipes that users copy: they parse, have the shape their engine needs, and
/// every `cardbake` command in them is accepted by cardbake's own argument parser.
@Suite("Recipes")
struct RecipeTests {
    static let recipes = CardbakeBinary.repositoryRoot.appendingPathComponent("docs/recipes")

    /// The YAML documents of a recipe, parsed by PyYAML and handed over as JSON.
    static func yamlDocuments(_ name: String) throws -> [[String: Any]] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", """
            import json, sys, yaml
            with open(sys.argv[1]) as f:
                json.dump(list(yaml.safe_load_all(f)), sys.stdout)
            """, recipes.appendingPathComponent(name).path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let json = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "\(name) is not valid YAML (PyYAML: python3-yaml): \(message)")
        return try #require(try JSONSerialization.jsonObject(with: json) as? [[String: Any]])
    }

    /// Every string value in a parsed document, depth first.
    static func strings(in value: Any) -> [String] {
        switch value {
        case let text as String: [text]
        case let array as [Any]: array.flatMap(strings(in:))
        case let object as [String: Any]: object.keys.sorted().flatMap { strings(in: object[$0]!) }
        default: []
        }
    }

    /// Values the recipes' shell variables take at run time; any other variable stands for `1`.
    static let sampleValues = ["REMOTE_CACHE_MODE": "read"]

    /// The `cardbake <command> …` invocations in shell text, as argument lists after `cardbake`.
    /// GitHub expressions (`${{ … }}`) and arithmetic (`$(( … ))`) stand for `1`, variables for
    /// their ``sampleValues``, so that `--shard "$((JOB_COMPLETION_INDEX + 1))/4"` is parsed as a
    /// value it takes at run time.
    static func commands(in text: String) -> [[String]] {
        let substituted = text.replacingOccurrences(of: "\\\n", with: " ")
            .replacing(/\$\{\{[^}]*\}\}/, with: "1")
            .replacing(/\$\(\([^)]*\)\)/, with: "1")
            .replacing(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/) { sampleValues[String($0.output.1)] ?? "1" }
        var commands: [[String]] = []
        for line in substituted.split(separator: "\n") {
            for segment in line.split(separator: /&&|;|\|/) {
                let words = shellWords(String(segment))
                guard let start = words.firstIndex(of: "cardbake"), words.count > start + 1,
                      ["build", "check", "clean", "merge"].contains(words[start + 1]) else { continue }
                commands.append(Array(words[(start + 1)...]))
            }
        }
        return commands
    }

    /// Splits on spaces outside quotes, and drops the quotes.
    static func shellWords(_ text: String) -> [String] {
        var words: [String] = [], current = "", quote: Character?, inWord = false
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }

    /// Flags of the remote cache, which its own branch adds to `build`: checked by the parser once
    /// `build` has them, left out of the parse until then.
    static let remoteCacheFlags = ["--remote-cache", "--remote-cache-mode"]

    /// Parses `arguments` as cardbake would, flags validated; the remote-cache flags are left out
    /// while `build` does not know them.
    static func parse(_ arguments: [String]) throws {
        let help = BuildCommand.helpMessage()
        var checked: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if remoteCacheFlags.contains(argument), !help.contains(argument + " ") {
                index += 2
                continue
            }
            checked.append(argument)
            index += 1
        }
        _ = try Cardbake.parseAsRoot(checked)
    }

    /// Every `cardbake` command in a recipe, parsed; fails when there is none.
    static func expectCommandsParse(in texts: [String], recipe: String, including expected: Set<String>) {
        let commands = texts.flatMap(commands(in:))
        #expect(Set(commands.map { $0[0] }).isSuperset(of: expected), "\(recipe): \(commands)")
        for command in commands {
            #expect(throws: Never.self, "\(recipe): cardbake \(command.joined(separator: " "))") {
                try parse(command)
            }
        }
    }

    /// Whether shell text compiles cardbake: `swift build`, or a make target that builds it.
    static func compiles(_ text: String) -> Bool {
        text.contains(/swift\s+build|make(\s+-\S+)*\s+(build|dist|cards)\b|make\s*(&&|;|$)/.anchorsMatchLineEndings())
    }

    /// The steps of a job, each as its mapping.
    static func steps(of job: [String: Any]) -> [[String: Any]] { job["steps"] as? [[String: Any]] ?? [] }

    /// The `with:` mappings of a job's steps that use `action` (e.g. `actions/cache@v4`).
    static func uses(_ action: String, in job: [String: Any]) -> [[String: Any]] {
        steps(of: job).filter { $0["uses"] as? String == action }.map { $0["with"] as? [String: Any] ?? [:] }
    }

    /// A job's `needs`, as a list whether written as one name or several.
    static func needs(of job: [String: Any]) -> [String] {
        (job["needs"] as? [String]) ?? (job["needs"] as? String).map { [$0] } ?? []
    }

    @Test("The GitHub Actions workflow: one build job compiles, a shard matrix and a merge job download its binary, then merge and check")
    func githubActions() throws {
        let workflow = try #require(try Self.yamlDocuments("github-actions.yml").first)
        let jobs = try #require(workflow["jobs"] as? [String: [String: Any]])
        let build = try #require(jobs["build"]), shard = try #require(jobs["shard"]), merge = try #require(jobs["merge"])
        let matrix = try #require((shard["strategy"] as? [String: Any])?["matrix"] as? [String: Any])
        #expect((matrix["shard"] as? [Int]) == [1, 2, 3, 4])
        let shardSteps = Self.strings(in: shard["steps"] as Any)
        #expect(shardSteps.contains("actions/upload-artifact@v4"))
        #expect(Set(Self.needs(of: merge)) == ["build", "shard"])
        let mergeSteps = Self.strings(in: merge["steps"] as Any)
        #expect(mergeSteps.contains("actions/download-artifact@v4"))
        let environment = try #require(shard["env"] as? [String: String])
        #expect(environment["CARDBAKE_REMOTE_CACHE"] == "${{ secrets.CARDBAKE_REMOTE_CACHE }}")
        #expect(environment["CARDBAKE_REMOTE_CACHE_AUTHORIZATION"] != nil)
        Self.expectCommandsParse(in: shardSteps + mergeSteps, recipe: "github-actions.yml",
                                 including: ["build", "merge", "check"])

        // Exactly one step of one job compiles: the build job's.
        let compilingSteps = jobs.flatMap { name, job in
            Self.steps(of: job).filter { Self.compiles(($0["run"] as? String) ?? "") }.map { _ in name }
        }
        #expect(compilingSteps == ["build"], "steps that compile, by job: \(compilingSteps)")
        #expect((build["container"] as? String)?.hasPrefix("swift:") == true)
        // It caches .build under a key of Package.resolved, Package.swift and the sources,
        let buildCaches = Self.uses("actions/cache@v4", in: build)
        let buildCache = try #require(buildCaches.first { ($0["path"] as? String)?.contains(".build") == true },
                                      "no actions/cache of .build in the build job: \(buildCaches)")
        let buildKey = try #require(buildCache["key"] as? String)
        for input in ["Package.resolved", "Package.swift", "Sources/**"] {
            #expect(buildKey.contains("'\(input)'"), "the .build cache key \(buildKey) leaves out \(input)")
        }
        // and uploads make dist's tarball,
        let uploaded = try #require(Self.uses("actions/upload-artifact@v4", in: build).first)
        let artifact = try #require(uploaded["name"] as? String)
        #expect((uploaded["path"] as? String)?.hasPrefix("dist/cardbake-") == true, "\(uploaded)")

        // which the shard and merge jobs need and download, installing only its runtime packages:
        // no Swift image, no make.
        for (name, job) in [("shard", shard), ("merge", merge)] {
            #expect(Self.needs(of: job).contains("build"), "\(name) does not need build")
            let downloads = Self.uses("actions/download-artifact@v4", in: job)
            #expect(downloads.contains { $0["name"] as? String == artifact }, "\(name) does not download \(artifact)")
            let container = try #require(job["container"] as? String)
            #expect(!container.contains("swift"), "\(name) runs in \(container)")
            let run = Self.steps(of: job).compactMap { $0["run"] as? String }.joined(separator: "\n")
            #expect(run.contains("debian-packages"), "\(name) does not install the tarball's runtime packages")
            #expect(!run.contains("make "), "\(name): \(run)")
        }

        // The shards keep cardbake's cache folder between runs, the one their commands use: the
        // default, .cardbake (CacheOptions), as none of them passes --cache-dir or sets CARDBAKE_CACHE_DIR.
        #expect(environment["CARDBAKE_CACHE_DIR"] == nil)
        #expect(!Self.commands(in: shardSteps.joined(separator: "\n")).joined().contains("--cache-dir"))
        let shardCaches = Self.uses("actions/cache@v4", in: shard)
        let folderCache = try #require(shardCaches.first { $0["path"] as? String == ".cardbake" },
                                       "no actions/cache of .cardbake in the shard job: \(shardCaches)")
        let folderKey = try #require(folderCache["key"] as? String)
        #expect(folderKey.contains("matrix.shard"), "one cache per shard: \(folderKey)")
        #expect(folderKey.contains("github.run_id"), "a key of its own for each run, so each run saves: \(folderKey)")
        #expect(folderCache["restore-keys"] != nil, "each run restores the last one's cache")
    }

    @Test("The Kubernetes recipe: the cache as a Deployment and Service, the shards as an Indexed Job, then a merge Job")
    func kubernetes() throws {
        let documents = try Self.yamlDocuments("kubernetes.yml") + Self.yamlDocuments("kubernetes-merge.yml")
        let kinds = documents.map { "\($0["kind"] ?? "")/\(($0["metadata"] as? [String: Any])?["name"] ?? "")" }
        #expect(Set(kinds).isSuperset(of: ["Deployment/cardbake-cache", "Service/cardbake-cache",
                                           "Job/cardbake-shards", "Job/cardbake-merge"]), "\(kinds)")
        let shards = try #require(documents.first { ($0["metadata"] as? [String: Any])?["name"] as? String == "cardbake-shards"
            && $0["kind"] as? String == "Job" })
        let spec = try #require(shards["spec"] as? [String: Any])
        #expect(spec["completionMode"] as? String == "Indexed")
        let count = try #require(spec["completions"] as? Int)
        let text = Self.strings(in: spec).joined(separator: "\n")
        #expect(text.contains("--shard \"$((JOB_COMPLETION_INDEX + 1))/\(count)\""), "\(text)")
        #expect(text.contains("http://cardbake-cache:8080"))
        let deployment = Self.strings(in: try #require(documents.first { $0["kind"] as? String == "Deployment" }))
        for flag in ["--max_size=20", "--disable_http_ac_validation", "--dir=/data"] {
            #expect(deployment.contains(flag), "\(flag)")
        }
        Self.expectCommandsParse(in: documents.flatMap(Self.strings(in:)), recipe: "kubernetes*.yml",
                                 including: ["build", "merge", "check"])

        // The Jobs compile nothing: they run the image built once from the Dockerfile.
        let image = try Self.dockerfileImage()
        let jobs = documents.filter { $0["kind"] as? String == "Job" }
        #expect(jobs.count == 2)
        for job in jobs {
            let name = (job["metadata"] as? [String: Any])?["name"] as? String ?? "?"
            let template = (job["spec"] as? [String: Any])?["template"] as? [String: Any]
            let containers = ((template?["spec"] as? [String: Any])?["containers"] as? [[String: Any]]) ?? []
            #expect(!containers.isEmpty, "\(name)")
            for container in containers {
                #expect(container["image"] as? String == image, "\(name) runs \(container["image"] ?? "no image"), not \(image)")
            }
            #expect(!Self.compiles(Self.strings(in: job).joined(separator: "\n")), "\(name) compiles")
        }
    }

    /// The Dockerfile's stages: each `FROM` line and the instructions after it, comments left out.
    static func dockerfileStages() throws -> [(from: String, lines: [String])] {
        let text = try String(contentsOf: recipes.appendingPathComponent("Dockerfile"), encoding: .utf8)
        var stages: [(from: String, lines: [String])] = []
        for line in text.replacingOccurrences(of: "\\\n", with: " ").split(separator: "\n").map(String.init)
        where !line.hasPrefix("#") && !line.trimmingCharacters(in: .whitespaces).isEmpty {
            if line.hasPrefix("FROM ") {
                stages.append((line, []))
            } else if !stages.isEmpty {
                stages[stages.count - 1].lines.append(line)
            }
        }
        return stages
    }

    /// The image the Dockerfile's header builds: the `-t` of its `docker build` line.
    static func dockerfileImage() throws -> String {
        let text = try String(contentsOf: recipes.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let match = try #require(text.firstMatch(of: /docker build -f docs\/recipes\/Dockerfile -t (\S+) \./),
                                 "the Dockerfile does not say how to build it")
        return String(match.1)
    }

    @Test("The Dockerfile compiles in a Swift build stage with make dist; its runtime stage has no Swift, only the binary and its packages")
    func dockerfile() throws {
        let stages = try Self.dockerfileStages()
        try #require(stages.count == 2, "\(stages.map(\.from))")
        let (build, runtime) = (stages[0], stages[1])
        #expect(build.from.hasPrefix("FROM swift:") && build.from.hasSuffix(" AS build"), "\(build.from)")
        #expect(build.lines.contains { $0.hasPrefix("RUN ") && Self.compiles($0) && $0.contains("make dist") }, "\(build.lines)")
        #expect(runtime.from == "FROM debian:bookworm-slim", "\(runtime.from)")
        for line in runtime.lines {
            #expect(!line.lowercased().contains("swift"), "the runtime stage: \(line)")
            #expect(!Self.compiles(line), "the runtime stage compiles: \(line)")
        }
        // It installs the runtime packages make dist lists, and takes the binary from the build stage.
        #expect(runtime.lines.contains { $0.hasPrefix("RUN ") && $0.contains("apt-get install") && $0.contains("debian-packages") })
        #expect(runtime.lines.contains { $0.hasPrefix("COPY --from=build ") })
        // Its context leaves out build products, which the build stage keeps in a cache mount.
        let ignored = try String(contentsOf: Self.recipes.appendingPathComponent("Dockerfile.dockerignore"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        #expect(Set(ignored).isSuperset(of: [".build", "dist", ".cardbake"]))
    }

    @Test("The cache-server guide's cardbake commands parse")
    func cacheServerGuide() throws {
        let text = try String(contentsOf: Self.recipes.appendingPathComponent("bazel-remote.md"), encoding: .utf8)
        Self.expectCommandsParse(in: [text], recipe: "bazel-remote.md", including: ["build"])
    }

    @Test("The nginx server block passes nginx -t")
    func nginxConfiguration() throws {
        let nginx = ["/usr/sbin/nginx", "/usr/bin/nginx"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let binary = try #require(nginx, "nginx is not installed (make test-deps installs nginx-light)")
        try Sandbox.with { sandbox in
            let recipe = Self.recipes.appendingPathComponent("nginx-webdav.conf").path
            try sandbox.write("events {}\nhttp {\n    access_log off;\n    include \(recipe);\n}\n", to: "nginx.conf")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["-t", "-e", "stderr", "-p", sandbox.work.path + "/", "-c", sandbox.url("nginx.conf").path,
                                 "-g", "pid \(sandbox.url("nginx.pid").path); error_log stderr;"]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "\(message)")
        }
    }
}
