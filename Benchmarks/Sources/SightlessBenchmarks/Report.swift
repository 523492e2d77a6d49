import Foundation

struct Measurement: Codable {
    let name: String
    let contender: Contender
    let medianNanoseconds: Double
    let bestNanoseconds: Double
    let roundNanoseconds: [Double]

    init(name: String, contender: Contender, sample: Sample) {
        self.name = name
        self.contender = contender
        medianNanoseconds = sample.median
        bestNanoseconds = sample.best
        roundNanoseconds = sample.perOperation
    }
}

struct Scaling {
    let ratios: [Double]
    let oneThread: Sample
    let twoThreads: Sample
}

struct ScalingResult: Codable {
    let name: String
    let contender: Contender
    /// Throughput of two threads over one thread's, median of the rounds.
    let medianScaling: Double
    let roundScaling: [Double]
    let oneThreadNanosecondsPerOperation: Double
    let twoThreadsNanosecondsPerOperation: Double
}

struct MemoryResult: Codable {
    /// What was repeated: `graph` requests, or `child` (a template child per request).
    var name = "graph"
    let contender: Contender
    let requests: Int
    let residentBytesBefore: Int
    let residentBytesAfter: Int
    var growthBytes: Int { residentBytesAfter - residentBytesBefore }
}

/// Everything one run measured, and its three renderings: a table, JSON and an SVG chart.
struct Report: Encodable {
    let mode: String
    let date: String
    let processors: Int
    let roundMilliseconds: Double
    let rounds: Int
    private(set) var measurements: [Measurement] = []
    private(set) var scaling: [ScalingResult] = []
    private(set) var memory: [MemoryResult] = []

    init(mode: String, settings: Settings) {
        self.mode = mode
        date = ISO8601DateFormatter().string(from: Date())
        processors = ProcessInfo.processInfo.activeProcessorCount
        roundMilliseconds = Double(settings.roundNanoseconds) / 1e6
        rounds = settings.rounds
    }

    mutating func add(_ measurement: Measurement) { measurements.append(measurement) }

    mutating func addScaling(name: String, contender: Contender, _ result: Scaling) {
        let sorted = result.ratios.sorted()
        scaling.append(ScalingResult(
            name: name, contender: contender, medianScaling: sorted[sorted.count / 2], roundScaling: result.ratios,
            oneThreadNanosecondsPerOperation: result.oneThread.median,
            twoThreadsNanosecondsPerOperation: result.twoThreads.median))
    }

    mutating func addMemory(name: String = "graph", contender: Contender, requests: Int, before: Int, after: Int) {
        memory.append(MemoryResult(name: name, contender: contender, requests: requests, residentBytesBefore: before,
                                   residentBytesAfter: after))
    }

    func time(_ name: String, _ contender: Contender) -> Double? {
        measurements.first { $0.name == name && $0.contender == contender }?.medianNanoseconds
    }

    /// The median of the per-round ratios of two measurements taken in the same rounds: each
    /// round's load falls on both, so this is steadier than the ratio of the medians.
    func roundRatio(_ numerator: (name: String, contender: Contender), _ denominator: (name: String, contender: Contender)) -> Double? {
        func rounds(_ key: (name: String, contender: Contender)) -> [Double]? {
            measurements.first { $0.name == key.name && $0.contender == key.contender }?.roundNanoseconds
        }
        guard let top = rounds(numerator), let bottom = rounds(denominator), top.count == bottom.count, !top.isEmpty else {
            return nil
        }
        return Sample(perOperation: zip(top, bottom).map { $0 / $1 }).median
    }

    /// The rows of the per-request cases; the handle row compares with the same hand-wired and
    /// Swinject singleton reads.
    var requestRows: [(name: String, hand: Double?, sightless: Double?, swinject: Double?, overHand: Double?, swinjectOver: Double?)] {
        ["graph", "leaf", "singleton", "singleton-handle", "factory", "app-graph"].compactMap { name in
            guard let sightless = time(name, .sightless) else { return nil }
            let reference = name == "singleton-handle" ? "singleton" : name
            return (name, time(reference, .handWired), sightless, time(reference, .swinject),
                    roundRatio((name, .sightless), (reference, .handWired)),
                    roundRatio((reference, .swinject), (name, .sightless)))
        }
    }

    var compileNames: [String] {
        var names: [String] = []
        for measurement in measurements where measurement.name.hasPrefix("compile-") && !names.contains(measurement.name) {
            names.append(measurement.name)
        }
        return names
    }

    // MARK: - Table

    func table() -> String {
        var lines: [String] = []
        lines.append("Sightless benchmarks (\(mode): median of \(rounds) rounds of ≥ \(Int(roundMilliseconds)) ms; \(processors) cores)")
        lines.append("")
        lines.append(row(["case", "hand-wired", "Sightless", "Swinject", "Sightless/hand", "Swinject/Sightless"]))
        lines.append(row(Array(repeating: "", count: 6), fill: "-"))
        for entry in requestRows {
            lines.append(row([entry.name, nanoseconds(entry.hand), nanoseconds(entry.sightless), nanoseconds(entry.swinject),
                              ratio(entry.overHand), ratio(entry.swinjectOver)]))
        }
        for name in compileNames {
            let sightless = time(name, .sightless)
            let swinject = time(name, .swinject)
            lines.append(row([name, "n/a", milliseconds(sightless), swinject.map { milliseconds($0) } ?? "n/a (depth > 200)",
                              "", ratio(swinject, sightless)]))
        }
        for shape in Shape.allCases {
            for contender in [Contender.sightless, .swinject] {
                if let small = time("compile-10000-\(shape)", contender), let large = time("compile-100000-\(shape)", contender) {
                    lines.append("  compile \(shape), \(contender.rawValue): 100,000 costs \(String(format: "%.1f", large / small)) × 10,000 (linear: 10 ×)")
                }
            }
        }
        if !scaling.isEmpty {
            lines.append("")
            lines.append(row(["contended", "hand-wired", "Sightless", "Swinject", "", ""]))
            lines.append(row(Array(repeating: "", count: 6), fill: "-"))
            for name in ["contended-graph", "contended-singleton"] {
                let values = Contender.allCases.map { contender in
                    scaling.first { $0.name == name && $0.contender == contender }
                }
                lines.append(row([name] + values.map { $0.map { String(format: "%.2f ×", $0.medianScaling) } ?? "" } + ["", ""]))
                lines.append(row(["  1 thread, ns/op"] + values.map { nanoseconds($0?.oneThreadNanosecondsPerOperation) } + ["", ""]))
            }
            if let machine = scaling.first(where: { $0.name == "contended-machine" }) {
                lines.append(row(["machine (shares nothing)", String(format: "%.2f ×", machine.medianScaling), "", "", "", ""]))
            }
            lines.append("  (throughput of 2 threads ÷ throughput of 1 thread; 2.00 × is perfect scaling; the machine row is")
            lines.append("   a loop that shares nothing, the most this machine gave two threads during the run)")
        }
        if !memory.isEmpty {
            lines.append("")
            lines.append(row(["memory", "hand-wired", "Sightless", "Swinject", "", ""]))
            lines.append(row(Array(repeating: "", count: 6), fill: "-"))
            for (name, label) in [("graph", "resident growth"), ("child", "  with template children")] {
                let values = Contender.allCases.map { contender in
                    memory.first { $0.name == name && $0.contender == contender }
                }
                guard values.contains(where: { $0 != nil }) else { continue }
                lines.append(row([label] + values.map { $0.map { kibibytes($0.growthBytes) } ?? "" } + ["", ""]))
            }
            if let requests = memory.first?.requests {
                lines.append("  (resident memory after \(requests.formatted()) graph requests, and as many handlers each in a")
                lines.append("   template child of its own, minus before them)")
            }
        }
        return lines.joined(separator: "\n")
    }

    private func row(_ cells: [String], fill: Character = " ") -> String {
        let widths = [26, 12, 12, 18, 15, 19]
        return zip(cells, widths).enumerated().map { index, pair in
            let (cell, width) = pair
            let padding = String(repeating: fill, count: max(0, width - cell.count))
            return index == 0 ? cell + padding : padding + cell
        }.joined(separator: fill == "-" ? "-" : " ")
    }

    // MARK: - JSON

    private enum CodingKeys: String, CodingKey {
        case mode, date, processors, roundMilliseconds, rounds, measurements, scaling, memory
    }

    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}

func nanoseconds(_ value: Double?) -> String {
    guard let value else { return "" }
    if value >= 100_000 { return String(format: "%.1f µs", value / 1000) }
    return String(format: value >= 100 ? "%.0f ns" : "%.1f ns", value)
}

func milliseconds(_ value: Double?) -> String {
    guard let value else { return "" }
    return String(format: "%.1f ms", value / 1e6)
}

func ratio(_ value: Double?) -> String {
    value.map { String(format: "%.2f ×", $0) } ?? ""
}

func ratio(_ numerator: Double?, _ denominator: Double?) -> String {
    guard let numerator, let denominator, denominator > 0 else { return "" }
    return String(format: "%.2f ×", numerator / denominator)
}

func kibibytes(_ bytes: Int) -> String {
    String(format: "%+.0f KiB", Double(bytes) / 1024)
}
