import Sightless
import Testing

private enum Deferred {
    final class Parent: Injectable {
        init(child: Child) {}
        static let initializer = Initializer(Parent.init(child:))
    }

    final class Child: Injectable {
        init(parent: Lazy<Parent>, pages: Factory<Page, Int>) {}
        static let initializer = Initializer(Child.init(parent:pages:))
    }

    final class Page: Injectable {
        init(number: Int) {}
        static let initializer = Initializer(Page.init(number:), .dynamic)
    }

    struct AppModule: Module {
        func configure(_ binder: Binder) {
            binder.bind(Parent.self).in(.singleton)
        }
    }
}

@Suite("Exporting deferred dependencies")
struct DeferredEdgeExportTests {
    @Test("Lazy and Factory edges are drawn dashed and name the Lazy or Factory")
    func deferredEdgesDashed() throws {
        let dot = try Injector(modules: [Deferred.AppModule()]).exportGraph(as: .dot)
        #expect(dot.contains(#""Child" -> "Parent" [label="argument 1 (Lazy<Parent>)", style=dashed];"#))
        #expect(dot.contains(#""Child" -> "Page" [label="argument 2 (Factory<Page, Int>)", style=dashed];"#))
        #expect(dot.contains(#""Parent" -> "Child" [label="argument 1"];"#))
    }
}
