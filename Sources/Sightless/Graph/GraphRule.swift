/// One check of a compiled graph. Each rule is a small unit in `Rules/`, readable and tested
/// on its own; the compiler runs them all and reports every problem together.
protocol GraphRule {
    func check(_ graph: BindingGraph) -> [InjectionError.Problem]
}
