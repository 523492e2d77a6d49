import Sightless

/// `help`: prints the usage.
struct HelpCommand: Command, Injectable {
    let console: Console

    static let initializer = Initializer(HelpCommand.init(console:))

    func run() {
        console.write(Usage.text)
    }
}
