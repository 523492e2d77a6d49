/// One thing the user asked for, built by the injector with its services and the values typed
/// on the command line (dynamic arguments).
protocol Command {
    func run() throws(SampleFailure)
}
