import Foundation

/// Draws the report as horizontal grouped bars: one panel of per-request times relative to
/// hand-wired (log scale), one of compile times, and one of two-thread scaling.
extension Report {
    func svg() -> String {
        let colors: [Contender: String] = [.handWired: "#8c8c8c", .sightless: "#2b7bba", .swinject: "#e07b39"]
        var panels: [Panel] = []

        var relative = Panel(title: "Time per request, × hand-wired (log scale; shorter is faster)", logScale: true, unit: "×")
        for entry in requestRows {
            guard let hand = entry.hand else { continue }
            var bars: [Bar] = []
            if let sightless = entry.sightless { bars.append(Bar(contender: .sightless, value: sightless / hand)) }
            if let swinject = entry.swinject { bars.append(Bar(contender: .swinject, value: swinject / hand)) }
            relative.groups.append(Group(label: entry.name, bars: bars))
        }
        relative.reference = 1
        if !relative.groups.isEmpty { panels.append(relative) }

        var compile = Panel(title: "Build the injector and resolve the deepest key, ms (log scale)", logScale: true, unit: " ms")
        for name in compileNames {
            let bars = [Contender.sightless, .swinject].compactMap { contender in
                time(name, contender).map { Bar(contender: contender, value: $0 / 1e6) }
            }
            compile.groups.append(Group(label: name.replacingOccurrences(of: "compile-", with: ""), bars: bars))
        }
        if !compile.groups.isEmpty { panels.append(compile) }

        var contended = Panel(title: "Throughput of 2 threads ÷ 1 thread (2 is perfect scaling)", logScale: false, unit: "×")
        for name in ["contended-graph", "contended-singleton"] {
            let bars = Contender.allCases.compactMap { contender in
                scaling.first { $0.name == name && $0.contender == contender }.map { Bar(contender: contender, value: $0.medianScaling) }
            }
            if !bars.isEmpty { contended.groups.append(Group(label: name.replacingOccurrences(of: "contended-", with: ""), bars: bars)) }
        }
        if let machine = scaling.first(where: { $0.name == "contended-machine" }) {
            contended.groups.append(Group(label: "machine", bars: [Bar(contender: .handWired, value: machine.medianScaling)]))
        }
        contended.reference = 2
        contended.fixedMaximum = 2.2
        if !contended.groups.isEmpty { panels.append(contended) }

        let width = 760.0
        let labelWidth = 130.0
        let plotWidth = width - labelWidth - 110
        let barHeight = 14.0
        var y = 56.0
        var body = ""
        for panel in panels {
            body += text(x: 12, y: y, panel.title, weight: "bold")
            y += 12
            let values = panel.groups.flatMap { $0.bars.map(\.value) } + [panel.reference ?? 0]
            let maximum = panel.fixedMaximum ?? (values.max() ?? 1)
            let minimum = panel.logScale ? min(0.5, values.filter { $0 > 0 }.min() ?? 1) : 0
            func position(_ value: Double) -> Double {
                if panel.logScale {
                    let span = log10(maximum * 1.5) - log10(minimum)
                    return labelWidth + plotWidth * (log10(max(value, minimum)) - log10(minimum)) / span
                }
                return labelWidth + plotWidth * value / maximum
            }
            let top = y
            for group in panel.groups {
                body += text(x: labelWidth - 8, y: y + barHeight * Double(group.bars.count) / 2 + 8, group.label, anchor: "end")
                for bar in group.bars {
                    let end = position(bar.value)
                    body += "<rect x=\"\(labelWidth)\" y=\"\(y + 3)\" width=\"\(String(format: "%.1f", max(1, end - labelWidth)))\" height=\"\(barHeight - 2)\" fill=\"\(colors[bar.contender] ?? "#000")\"/>\n"
                    body += text(x: end + 4, y: y + barHeight, format(bar.value) + panel.unit, size: 11)
                    y += barHeight
                }
                y += 8
            }
            if let reference = panel.reference {
                let x = position(reference)
                body += "<line x1=\"\(x)\" y1=\"\(top)\" x2=\"\(x)\" y2=\"\(y - 4)\" stroke=\"#444\" stroke-dasharray=\"3,3\"/>\n"
            }
            y += 24
        }
        if !memory.isEmpty {
            let growth = memory.filter { $0.name == "graph" }
                .map { "\($0.contender.rawValue) \(kibibytes($0.growthBytes))" }.joined(separator: ", ")
            body += text(x: 12, y: y, "Resident memory after \(memory[0].requests.formatted()) graph requests: \(growth)", weight: "bold")
            y += 12
        }
        if scaling.contains(where: { $0.name == "contended-machine" }) {
            body += text(x: 12, y: y + 6, "machine: a loop that shares nothing, what the machine gave two threads during the run", size: 11)
            y += 18
        }
        var legendX = 12.0
        var legend = ""
        for contender in Contender.allCases {
            legend += "<rect x=\"\(legendX)\" y=\"26\" width=\"12\" height=\"12\" fill=\"\(colors[contender] ?? "#000")\"/>\n"
            legend += text(x: legendX + 16, y: 37, contender.rawValue, size: 12)
            legendX += 110
        }
        let height = y
        return """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif">
        <rect width="100%" height="100%" fill="white"/>
        \(text(x: 12, y: 18, "Sightless vs hand-wired vs Swinject (\(mode) run, \(date), \(processors) cores)", weight: "bold", size: 14))
        \(legend)\(body)</svg>

        """
    }

    private func text(x: Double, y: Double, _ content: String, weight: String = "normal", size: Int = 12, anchor: String = "start") -> String {
        let escaped = content.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return "<text x=\"\(String(format: "%.1f", x))\" y=\"\(String(format: "%.1f", y))\" font-size=\"\(size)\" font-weight=\"\(weight)\" text-anchor=\"\(anchor)\">\(escaped)</text>\n"
    }

    private func format(_ value: Double) -> String {
        value >= 100 ? String(format: "%.0f", value) : value >= 10 ? String(format: "%.1f", value) : String(format: "%.2f", value)
    }
}

private struct Bar {
    let contender: Contender
    let value: Double
}

private struct Group {
    let label: String
    let bars: [Bar]
}

private struct Panel {
    let title: String
    let logScale: Bool
    let unit: String
    var groups: [Group] = []
    var reference: Double?
    var fixedMaximum: Double?
}
