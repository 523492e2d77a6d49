/// Reports modules that install each other, or a module that installs itself: installing them
/// would never end. The binder stops at the install that closes the cycle and records the
/// cycle (`Binder.installCycles`); the rule reports it, declared where that install is written.
/// Installs of ever new modules inside each other, which repeat no module, are stopped by the
/// binder too, before they use up the thread's stack (`Binder.endlessInstalls`).
struct InstallCycleRule: GraphRule {
    func check(_ input: RuleInput) -> [InjectionError.Problem] {
        input.recorded.installCycles.map { installs in
            InjectionError.Problem(.installCycle(installs), location: installs.last?.location)
        } + input.recorded.endlessInstalls
    }
}
