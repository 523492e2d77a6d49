@testable import Sightless

/// The binding graph an injector would compile from these bindings, for testing one rule at a
/// time: graph in, problems out. Every bound key is a root, like `Injector(modules:)` makes it.
func ruleGraph(roots: [AnyKey] = [], _ configure: (Binder) -> Void) -> BindingGraph {
    ruleCompiler(roots: roots, configure).graph
}

func ruleCompiler(roots: [AnyKey] = [], _ configure: (Binder) -> Void) -> GraphCompiler {
    let binder = Binder()
    configure(binder)
    let merged = DuplicateBindingRule().merge(modules: binder.recipes, overrides: [], builtIn: [.injector()])
    var compiler = GraphCompiler(bindings: merged.bindings)
    for key in merged.order + roots { compiler.addRoot(key) }
    return compiler
}
