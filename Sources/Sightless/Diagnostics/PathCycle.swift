/// Keys that repeat at the end of a dependency path, as they do when building a value requests
/// it again (its initializer, closure or provider asking an injector for it) until the stack
/// runs out.
///
/// The shortest sequence of keys (up to eight) whose copies end the path, at least three of
/// them; what comes before the first copy is the path's `start`.
struct PathCycle: Equatable {
    /// How many keys of the path come before the first copy of `keys`.
    let start: Int
    /// The keys that repeat, in the order the path goes through them.
    let keys: [AnyKey]
    /// How many times `keys` follow one another at the end of the path.
    let times: Int

    /// The longest period tried: a recursion through more keys than this is shown as a plain path.
    static let longestPeriod = 8

    /// The keys repeating at the end of `path`, or `nil` when no sequence of up to eight keys
    /// ends it three times or more.
    init?(_ path: [AnyKey]) {
        let count = path.count
        guard count >= 3 else { return nil }
        for period in 1...min(Self.longestPeriod, count / 3) {
            // path[runStart...] repeats itself every `period` keys.
            var index = count - period - 1
            while index >= 0, path[index] == path[index + period] { index -= 1 }
            let runStart = index + 1
            let times = (count - runStart) / period
            guard times >= 3 else { continue }
            let start = count - times * period
            self.start = start
            self.keys = Array(path[start..<start + period])
            self.times = times
            return
        }
        return nil
    }
}
