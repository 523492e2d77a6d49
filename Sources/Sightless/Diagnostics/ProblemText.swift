// Every sentence Sightless shows about a mistake is written here, from the problem's data; the
// rest of the library only builds `Problem.Detail`s. The Errors article shows each kind's text,
// and a test compares it with what this file writes.

enum ProblemText {
    /// The problem in up to four lines: what, the path, where, and the fix.
    static func describe(_ problem: InjectionError.Problem) -> String {
        naming([problem]) {
            var lines = ["\(problem.kind): \(message(problem))"]
            if !problem.path.isEmpty { lines.append("  path: \(path(problem.path))") }
            if let location = problem.location { lines.append("  declared at: \(location)") }
            lines.append("  fix: \(fix(problem))")
            return lines.joined(separator: "\n")
        }
    }

    /// Every problem of an error, numbered when there are several.
    static func describe(_ error: InjectionError) -> String {
        let problems = error.problems
        if problems.count == 1, let only = problems.first { return describe(only) }
        return naming(problems) {
            let numbered = problems.enumerated().map { index, problem in
                "\(index + 1). " + describe(problem).split(separator: "\n", omittingEmptySubsequences: false)
                    .joined(separator: "\n   ")
            }
            return "The injector found \(problems.count) problems:\n" + numbered.joined(separator: "\n")
        }
    }

    /// Writes `text` with the types of `problems` that would read alike (two distinct types
    /// with one name, `API.PackageController` and a web `PackageController`) written with
    /// their module and namespace, everywhere in it; within the problems of an error being
    /// written, across all of them.
    static func naming<Text>(_ problems: [InjectionError.Problem], _ text: () -> Text) -> Text {
        var keys: [AnyKey] = []
        for problem in problems {
            keys += problem.path
            keys += problem.errorKeys
            collectKeys(in: problem.detail, into: &keys)
        }
        return AnyKey.naming(keys, text)
    }

    /// Every key of `problems`: their paths', and those their details hold.
    static func keys(of problems: [InjectionError.Problem]) -> [AnyKey] {
        var keys: [AnyKey] = []
        for problem in problems {
            keys += problem.path
            collectKeys(in: problem.detail, into: &keys)
        }
        return keys
    }

    /// Every key a detail holds, wherever it holds it (a consumer, a slot, a candidate).
    private static func collectKeys(in value: Any, into keys: inout [AnyKey]) {
        if let key = value as? AnyKey {
            keys.append(key)
            return
        }
        if value is String { return }
        for child in Mirror(reflecting: value).children { collectKeys(in: child.value, into: &keys) }
    }

    /// A path written with arrows; keys repeating at its end are written once, with their
    /// count, and the middle of a long path is left out.
    static func path(_ keys: [AnyKey]) -> String {
        guard let cycle = PathCycle(keys) else { return shortened(keys) }
        let loop = "[\(shortened(cycle.keys))] × \(cycle.times)"
        return cycle.start == 0 ? loop : shortened(Array(keys[..<cycle.start])) + " → " + loop
    }

    /// The keys with arrows, the middle left out when there are more than twelve.
    private static func shortened(_ keys: [AnyKey]) -> String {
        let words = keys.map(\.description)
        guard words.count > 12 else { return words.joined(separator: " → ") }
        return (words.prefix(5) + ["… \(words.count - 10) more …"] + words.suffix(5)).joined(separator: " → ")
    }

    /// What went wrong, with what the path adds: a recursion, for a stack that ran out.
    static func message(_ problem: InjectionError.Problem) -> String {
        let message = message(problem.detail)
        guard case .tooDeep = problem.detail, let cycle = PathCycle(problem.path) else { return message }
        let keys = cycle.keys.map(\.description).joined(separator: " → ")
        return message + " \(keys) repeats \(cycle.times) times along the path."
    }

    /// What to change, with what the path adds: a recursion, for a stack that ran out.
    static func fix(_ problem: InjectionError.Problem) -> String {
        // A nonisolated value that needs an isolated one is awaited as a whole: name it.
        if case .offActor(let key, let actor) = problem.detail, let requested = problem.path.first, requested != key {
            return "Request \(requested.typeName) from code isolated to \(actor), or await it: "
                + "try await injector.instance(\(requestExpression(requested))), which builds \(key) on \(actor)."
        }
        // A consumer kept for the whole family: a value each child of a template has cannot reach it.
        if case .missingBinding(let key, let consumer?, _, _) = problem.detail, let scope = problem.keptConsumerScope {
            return fix(problem.detail) + " If each child of a template is made with \(key.typeName) "
                + "(childTemplate(providing: \(key.typeName).self, …)), \(consumer.key) cannot be one \(scope) for the whole family: "
                + "bind \(consumer.key) in that template's modules instead, kept per child (.in(.singleton)), per request (.in(.perRequest)) or unscoped."
        }
        // A closure or provider asked for the value: the key before it on the path needs it.
        if case .providedByTemplate(let key, nil, let template) = problem.detail, problem.path.count >= 2,
           case let user = problem.path[problem.path.count - 2], user != key {
            return fix(.providedByTemplate(key: key, consumer: .init(key: user, role: .target), template: template))
        }
        guard case .tooDeep(_, let stackSize) = problem.detail, let cycle = PathCycle(problem.path),
              let first = cycle.keys.first else {
            return fix(problem.detail)
        }
        let recursion = "If building \(first) asks an injector for \(first) again (in an initializer, a closure or a provider), "
            + "that never ends: ask for the inner one later, through a Lazy or a Factory used after it is built."
        return stackSize == nil ? recursion : recursion + " If the recursion ends deeper down, request it on a thread with a larger stack."
    }

    static func message(_ detail: InjectionError.Problem.Detail) -> String {
        switch detail {
        case .missingBinding(let key, let consumer, let nearMisses, _):
            var message = "Nothing provides \(key)"
            message += consumer.map { ", needed by \($0)." } ?? "."
            message += boundWithSameType(nearMisses)
            return message
        case .providedByTemplate(let key, let consumer, let template):
            let needed = consumer.map { ", needed by \($0)" } ?? ""
            return "Nothing in this injector provides \(key)\(needed): each child of the template declared at \(template) is made with its own \(key)."
        case .boundInTemplate(let key, let consumer, let template):
            let needed = consumer.map { ", needed by \($0)" } ?? ""
            return "Nothing in this injector provides \(key)\(needed): the modules of the template declared at \(template) bind it, for that template's children only."
        case .bindingWithoutTarget(let key, _):
            return "\(key) is bound without a target, and \(key.typeName) is not Injectable."
        case .cycle(let keys):
            let written = keys.map(\.description).joined(separator: " → ")
            return "\(written): \(keys.count <= 2 ? "this type needs itself" : "these types need each other") to be built."
        case .cyclesThrough(let consumer, let dependency, let cycles):
            let written = cycles.map { $0.map(\.description).joined(separator: " → ") }.joined(separator: "; ")
            return "\(consumer) needs \(dependency), and that one dependency closes \(cycles.count) cycles of types that need each other to be built: \(written)."
        case .installCycle(let installs):
            let written = installs.map(\.module.description).joined(separator: " → ")
            let steps = zip(installs, installs.dropFirst()).map { installer, installed in
                let what = installer.module == installed.module ? "itself" : installed.module.description
                return "\(installer.module) installs \(what) at \(place(installed.location))"
            }
            let who = installs.count <= 2 ? "this module installs itself, so installing it" : "these modules install each other, so installing them"
            return "\(written): \(who) would never end. \(steps.joined(separator: "; "))."
        case .endlessInstalls(let installs, let depth):
            let written = installs.map(\.module.description).joined(separator: " → ")
            let steps = zip(installs, installs.dropFirst()).map { installer, installed in
                "\(installer.module) installs \(installed.module) at \(place(installed.location))"
            }
            return "\(written) → …: these modules install new modules inside each other without end; \(depth) installs were nested when the injector stopped. \(steps.joined(separator: "; "))."
        case .reentered(let key, .closure):
            return "\(key) needs itself while it is being built, through a closure or provider binding."
        case .reentered(let key, .singleton):
            return "\(key) is a singleton that needs itself while it is being built."
        case .reentered(let key, .request):
            return "\(key) asks for itself while it is being built, through a Lazy, a Factory or the injector."
        case .reentered(let key, .otherThread):
            return "\(key) is being built by another thread or task that waits for something this one is building: they need each other."
        case .reentered(let key, .descriptor):
            return "\(key) was requested while the injector compiled a type, by that type's initializer, properties or scope descriptor."
        case .boundTwice(let key, let first, let second, let amongOverrides):
            return "\(key) is bound twice\(amongOverrides ? " among the overrides" : ""): at \(place(first)) and at \(place(second))."
        case .contributedTwice(let collection, let entry, let first, let second):
            return "\(collection) has two contributions for the key \(entry): at \(place(first)) and at \(place(second))."
        case .reservedKey(let key):
            return "\(key) is always bound to the injector itself."
        case .boundByParent(let key, _):
            return "\(key) is bound by the parent injector and again by this child's modules."
        case .providedBoundByParent(let key, let template):
            return "\(key) is provided to each child of the template declared at \(place(template)), and the parent injector binds it too: a child's requests could not tell the two apart."
        case .creationTimeArgumentsInjected(let target, let consumer, let slots):
            return "\(target) takes dynamic arguments (\(list(slots))), so it cannot be injected into \(consumer.key) (\(consumer.role)): nothing there could fill them."
        case .factoryArguments(let factory, let consumer, let target, let passed, let slots):
            // A factory requested itself has no consumer but its own node.
            let place = consumer.key == factory ? "" : " in \(consumer)"
            return "\(factory)\(place) makes \(target) from (\(passed.map(\.typeName).joined(separator: ", "))), but \(target) takes \(slots.isEmpty ? "no dynamic arguments" : "(\(list(slots)))")."
        case .scopedWithArguments(let key, let scope, let slots):
            return "\(key) is \(article(scope)) \(scope), but it takes dynamic arguments (\(list(slots))), which would differ from request to request."
        case .captiveDependency(let key, let scope, let dependency, let dependencyScope):
            return "\(key) is \(article(scope)) \(scope), but it holds \(dependency), which is kept \(dependencyScope == "weak" ? "only while someone holds it" : dependencyScope): \(key) would keep the first \(dependency) it got."
        case .keptByEachChild(let key, let scope, let needs, let provided):
            let source = provided ? "which each child of the template is made with" : "which the child binds"
            return "\(key.typeName) declares the scope \(scope), one for the whole family, but needs \(needs), \(source): each child would keep its own \(key.typeName)."
        case .argumentCount(let key, let slots, let passed):
            let takes = slots.isEmpty
                ? "takes no dynamic arguments"
                : "takes \(slots.count) dynamic argument\(slots.count == 1 ? "" : "s") (\(list(slots)))"
            let got = passed.isEmpty
                ? "none were passed"
                : "\(passed.count) \(passed.count == 1 ? "was" : "were") passed (\(passed.map(\.typeName).joined(separator: ", ")))"
            return "\(key) \(takes), but \(got)."
        case .argumentType(let key, let position, let slot, let passed, _):
            return "Dynamic argument \(position) of \(key) fills \(slot.role), of type \(slot.key.typeName), but the value passed is of type \(passed.typeName)."
        case .rawArgumentIndex(let index, let count):
            return count == 0
                ? "The raw initializer asked for argument \(index), but it has none."
                : "The raw initializer asked for argument \(index), but it has \(count) (0 to \(count - 1))."
        case .rawArgumentType(let index, let requested, let actual):
            return "The raw initializer read argument \(index) as \(requested.typeName), but it is \(article(actual.typeName)) \(actual.typeName)."
        case .aliasTarget(let key, let target, let actual):
            return "\(key) is bound to \(target), but \(actual.typeName) is not \(article(key.typeName)) \(key.typeName)."
        case .inheritedInitializer(let key, let base, let built):
            return "\(key.typeName) inherits the initializer of \(base.typeName), which built \(article(built.typeName)) \(built.typeName), not \(article(key.typeName)) \(key.typeName)."
        case .initializerOfOtherType(let key, let builds):
            return "\(key.typeName).initializer builds \(article(builds.typeName)) \(builds.typeName), not \(article(key.typeName)) \(key.typeName)."
        case .subclassProperty(let key, let role):
            return "\(key.typeName) declares the property \(role), which belongs to a subclass \(key.typeName) is not."
        case .propertiesOfOtherType(let key, let fills):
            return "\(key.typeName).properties fills \(article(fills.typeName)) \(fills.typeName), not \(article(key.typeName)) \(key.typeName)."
        case .initializerFailed(let key, let error):
            return "Building \(key) threw: \(error)"
        case .tooDeep(let depth, let stackSize?):
            return "Building this object nests \(depth) levels of dependencies, more than the \(stackSize / 1024) KiB stack of this thread holds."
        case .tooDeep(let depth, nil):
            return "Building this object nests \(depth) levels of builds that await, more than the \(depth - 1) one request may nest."
        case .injectorReleased(let key, let wrapper):
                        return "\(wrapper) of \(key), given to a value its injector keeps (a singleton), was used after the injector was released."
        case .injectorShutDown(let key):
            return "\(key) was requested from an injector that was shut down."
        case .noInjector(let key):
            return "\(key), read where it stands, was resolved where no injector is current: outside any build, withChild, withOverrides or withCurrent body, and no injector was chosen for the process."
        case .processInjectorChosen(let earlier):
            return "An injector was chosen for the process at \(earlier) already."
        case .shuttingDown(let key):
            return "withChild asked for a child (\(key)) of an injector that is shutting down: awaitShutDown(draining:) lets the bodies in flight end, and takes no new one."
        case .closeFailed(let key, let error):
            return "Closing \(key) threw: \(error)"
        case .noSession(let session):
            return "\(session) has no session: none was started with replace(…), or end() ended it."
        case .needsAwait(let key, let awaited):
            return awaited == key
                ? "\(key) is built with await (its initializer, closure or provider is async), but was requested synchronously."
                : "\(key) is built with await (it needs \(awaited), whose initializer, closure or provider is async), but was requested synchronously."
        case .keptNotBuilt(let key, let scope, let awaited, let awaitedIsBuilt):
            if awaited == key {
                return "\(key) is \(article(scope)) \(scope) built with await (its initializer, closure or provider is async), and was requested synchronously before an awaited request built it."
            }
            let why = awaitedIsBuilt
                ? "it needs \(awaited), which is built already, but an awaited request builds it"
                : "it needs \(awaited), whose initializer, closure or provider is async"
            return "\(key) is \(article(scope)) \(scope) built with await (\(why)), and was requested synchronously before an awaited request built it."
        case .awaitedInScope(let key, let scope, let awaited):
            let why = awaited == key ? "" : " (it needs \(awaited))"
            return "\(key) is built with await\(why) and kept in the scope \(scope), which keeps only values built synchronously."
        case .closerNotKept(let key, let scope):
            return "\(key) is closed at shutdown by its binding's onShutdown, but it is \(article(scope)) \(scope) value, which the injector does not keep until shutdown."
        case .closableNotKept(let key, let scope):
            return "\(key) has a close() to run (it is Closable or AsyncClosable), but it is \(article(scope)) \(scope) value, which the injector does not keep until shutdown: nothing would close it."
        case .offActor(let key, let actor):
            return "\(key) is isolated to \(actor) and was requested synchronously by code that does not run on \(actor)."
        case .descriptorsOffActor(let key, let actor):
            return "The initializer and properties of \(key.typeName) are isolated to \(actor), and the injector needed them while compiling off \(actor)."
        case .overrideReplacesNothing(let key, _, let nearMisses):
            var message = "The override of \(key) replaces no binding: nothing else binds \(key)."
            message += boundWithSameType(nearMisses)
            return message
        case .decoratorWithoutBinding(let key, _, let nearMisses):
            var message = "The decorator of \(key) wraps nothing: this injector does not bind \(key)."
            message += boundWithSameType(nearMisses)
            return message
        case .decoratorOfParentKey(let key, _):
            return "The decorator of \(key) wraps nothing this child builds: its parent binds \(key), and the value is the whole family's."
        case .unusedContextualBinding(let key, let consumer, _):
            return "The binding of \(key) when injected into \(consumer) serves nothing: \(consumer) has no argument or property of \(key)."
        case .severalCandidates(let key, let candidates):
            return "Nothing binds \(key), and \(candidates.count) types are offered to implement it: \(candidates.map(\.description).joined(separator: ", "))."
        case .internalInconsistency(let inconsistency):
            return "Sightless found itself inconsistent: " + inconsistencyMessage(inconsistency)
        }
    }

    // The kinds of `message` again, in their own switch: a kind's fix reads whole, on its own.
    static func fix(_ detail: InjectionError.Problem.Detail) -> String {
        switch detail {
        case .missingBinding(let key, _, let nearMisses, let canConform):
            let bindCall = key.writtenName.map { "binder.bind(Key<\(key.typeName)>(named: \"\($0)\")).to(…)" }
                ?? "binder.bind(\(key.typeName).self).to(…)"
            var fix = "Bind it in a module: \(bindCall)"
            if canConform {
                fix += ", or, if \(key.typeName) is a class or struct, make it conform to Injectable"
            }
            if !nearMisses.isEmpty { fix += ", or ask for one of the keys that are bound" }
            return fix + "."
        case .providedByTemplate(let key, let consumer?, let template):
            let user = consumer.key
            return "Build \(user) in the children of the template declared at \(template), which have \(key): request it from a child (template.child(…)), and keep it no longer than a child (unscoped, or bound in the template's modules); or, to keep one \(user) for all, make \(key) a dynamic argument of \(user) (Slot.dynamic) and inject Factory<\(user.typeName), \(key.typeName)> where the value is known."
        case .providedByTemplate(let key, nil, let template):
            return "Request \(key) from a child of the template declared at \(template): template.child(…).getInstance(\(key.typeName).self)."
        case .boundInTemplate(let key, let consumer?, let template):
            return "Request \(consumer.key) from a child of the template declared at \(template), whose modules bind \(key), or bind \(key) in this injector's modules too."
        case .boundInTemplate(let key, nil, let template):
            return "Request it from a child of the template declared at \(template), or bind \(key) in this injector's modules too."
        case .bindingWithoutTarget(let key, let canConform):
            let finish = "Finish the binding with .to(instance:), .to { resolver in … }, .to(provider:) or .to(SomeType.self)"
            return canConform ? finish + ", or, if \(key.typeName) is a class or struct, make it conform to Injectable." : finish + "."
        case .cycle:
            return "Break the cycle: inject one of these as Lazy<…> or Factory<…>, which builds it only when asked, or remove one of the dependencies."
        case .installCycle(let installs):
            guard let first = installs.first, installs.allSatisfy({ $0.module == first.module }) else {
                return "Install each module once: remove the install that leads back, and where the modules' bindings are needed together, install them side by side in a module above them, or pass them to Injector(modules:)."
            }
            let type = first.module.typeName
            return "Remove the install of \(type) from its own configure(_:). A module that installs another value of its type on purpose (one that installs a smaller one, down to none) is told apart from it by value when \(type) is Equatable."
        case .endlessInstalls:
            return "Let the installs end: a module that installs another of its own type must install a smaller one each time, down to one that installs none; install each module once, side by side in a module above them, where their bindings are needed together."
        case .cyclesThrough(let consumer, let dependency, _):
            let type = dependency.typeName
            return "Break that one dependency, which every one of these cycles goes through: inject \(type) into \(consumer) as Lazy<\(type)> or Factory<\(type)>, which builds it only when asked, or let \(consumer) not need \(dependency)."
        case .reentered(let key, .closure):
            return "Remove the request that leads back to \(key), or resolve it later instead of while building."
        case .reentered(let key, .singleton):
            return "Do not ask for \(key) (directly, or through a Lazy, Factory, closure or provider) from anything it needs while it is being built."
        case .reentered(let key, .otherThread):
            return "Break the cycle between \(key) and what it needs: inject one side as Lazy<…> or Factory<…> and use it after both are built."
        case .reentered(let key, .request):
            return "Do not ask for \(key) from its own initializer, properties or awakeFromInjection(); keep the Lazy or Factory and use it after \(key) is built."
        case .reentered(let key, .descriptor):
            return "Describe the type with values alone (static let initializer = Initializer(…)), and ask for \(key) from its initializer or awakeFromInjection() instead."
        case .boundTwice(_, _, _, let amongOverrides):
            return amongOverrides
                ? "Keep one of the two override bindings."
                : "Remove one of the bindings, or pass the module with the replacement in Injector(modules:overrides:)."
        case .contributedTwice:
            return "Keep one of the two contributions, or give one another key; to replace an entry in a test, contribute it from an override module."
        case .reservedKey(let key):
            return "Remove this binding; inject \(key.typeName) directly."
        case .boundByParent:
            return "Remove the child's binding to use the parent's, or pass it in child(modules:overrides:) to replace the parent's binding in this child."
        case .providedBoundByParent(let key, _):
            return "Provide it under a name of its own, childTemplate(providing: Key<\(key.typeName)>(named: \"…\")), and inject that key where the child's value is meant; or remove the parent's binding of \(key.typeName), if each child's value replaces it."
        case .creationTimeArgumentsInjected(let target, let consumer, let slots):
            return "Inject Factory<\(target.typeName), \(types(slots))> into \(consumer.key) and call make(…) where the values are known, or resolve it with getInstance(\(target.typeName).self, arguments: …)."
        case .factoryArguments(_, _, let target, _, let slots):
            return slots.isEmpty
                ? "Inject Factory<\(target.typeName)> with no argument types."
                : "Inject Factory<\(target.typeName), \(types(slots))>: one argument type per dynamic slot, in order."
        case .scopedWithArguments(let key, _, _):
            return "Leave \(key) unscoped, or make its arguments injected slots."
        case .captiveDependency(let key, _, let dependency, _):
            return "Inject Factory<\(dependency.typeName)> into \(key) and ask it when a value is needed, or keep \(key) no longer than \(dependency)."
        case .keptByEachChild(let key, let scope, let needs, _):
            return "To keep one per child, declare it per child: bind it in the child's modules, binder.bind(\(requestExpression(key))).in(\(scopeCall(scope))); "
                + "to keep one for the family, let it not need \(needs) (pass \(needs.typeName) to the methods that use it, or build it through a Factory with a Dynamic argument); or declare it .unscoped."
        case .argumentCount(let key, let slots, _):
            return slots.isEmpty
                ? "Request it with getInstance(\(key.typeName).self), without arguments."
                : "Pass exactly \(slots.count): getInstance(\(key.typeName).self, arguments: …), one value per dynamic slot, in order."
        case .argumentType(let key, let position, let slot, _, let slots):
            return "Pass \(article(slot.key.typeName)) \(slot.key.typeName) in position \(position): \(key) takes (\(list(slots)))."
        case .rawArgumentIndex:
            return "Read only the indices of the slots passed to Initializer(_:make:), from 0."
        case .rawArgumentType:
            return "Read each argument as the type of its slot."
        case .aliasTarget(let key, _, _):
            return "Bind \(key) to a type that conforms to or inherits from \(key.typeName)."
        case .inheritedInitializer(let key, let base, _):
            return "Declare \(base).initializer as a class var built with Self.init(…) and a required init, or give \(key.typeName) an initializer of its own (override class var initializer)."
        case .initializerOfOtherType(let key, _):
            return "Describe an initializer of \(key.typeName) itself: Initializer(\(key.typeName).init(…))."
        case .subclassProperty:
            return "Declare that property only in the properties of the subclass that has it."
        case .propertiesOfOtherType(let key, _):
            return "Declare Properties<\(key.typeName)> for \(key.typeName)."
        case .initializerFailed(let key, _):
            return "Handle the condition that makes it throw, or catch the error where \(key) is requested."
        case .tooDeep(_, _?):
            return "Request it on a thread with a larger stack, or make the graph shallower: have a type inject a Factory and build a deep part when it needs it."
        case .tooDeep(_, nil):
            return "Make the graph shallower: have a type inject a Factory and build a deep part when it needs it; a build that asks for a new type at every level never ends."
        case .injectorReleased:
                        return "Keep the Injector alive while its singletons use their Lazy and Factory dependencies: a singleton's hold it weakly, since the injector holds the singleton."
        case .noInjector:
            return "Make the value inside injector.withCurrent { … } (or a withChild body), have an injector build it, or choose the app's injector once at launch: try injector.chooseForProcess()."
        case .processInjectorChosen:
            return "Choose the process's injector once, at launch; for a scope of its own (a test, a request), use injector.withCurrent { … } or withOverrides instead."
        case .injectorShutDown:
            return "Request values before shutDown() of this injector and of its parents; for work after it, build a new injector."
        case .shuttingDown:
            return "Stop taking work before awaitShutDown(draining:) (a server stops accepting connections first), and answer this one as refused (HTTP 503, say); for work after it, build a new injector."
        case .noSession:
            return "Start a session with session.replace(…) (at log-in) before withCurrent; after end(), send the user to log in again, or catch this error where the session is used."
        case .closeFailed(let key, _):
            return "Handle the condition that makes closing \(key) throw; the other values were closed all the same."
        case .needsAwait(let key, _):
            return "Await it: try await injector.instance(\(requestExpression(key))) (resolver.instance in a binding, lazy.value, factory.instance(…)); build an injector whose eager singletons need await with try await Injector.start(modules:)."
        case .keptNotBuilt(let key, _, _, _):
            return "Build it once with await before requesting it synchronously: try await injector.instance(\(requestExpression(key))), or make it an eager singleton of an injector built with try await Injector.start(modules:); once built, a synchronous request reads it."
        case .awaitedInScope:
            return "Keep it .unscoped, .singleton or .eagerSingleton, or make what it awaits synchronous."
        case .closerNotKept:
            return "Keep it until shutdown with .in(.singleton).onShutdown { … } (or .eagerSingleton), or remove the onShutdown and close it where it is used."
        case .closableNotKept(let key, _):
            return "Keep it until shutdown, which closes it: .in(.singleton) on its binding, or static var scope: Scope { .singleton } in \(key.typeName) "
                + "(bound in a template's modules, each child keeps its own and closes it when the child shuts down); "
                + "or, to close it where it is used, build it through a Factory<\(key.typeName)>, whose values are the caller's."
        case .offActor(let key, let actor):
            return "Request it from code isolated to \(actor), or await it: try await injector.instance(\(requestExpression(key))), which builds it on \(actor)."
        case .descriptorsOffActor(_, let actor):
            return "Build the injector, or make the first request of the type, on \(actor); or await it: try await Injector.start(modules:) or try await injector.instance(…), which read them on \(actor)."
        case .overrideReplacesNothing(_, _, let nearMisses):
            return nearMisses.isEmpty
                ? "Override a key the modules bind (check its type and name), or move the binding from overrides: to modules: if it adds a key."
                : "Override one of the keys that are bound (check the name), or move the binding from overrides: to modules: if it adds a key."
        case .decoratorWithoutBinding(let key, _, _):
            return "Bind \(key) in this injector's modules, or decorate a key that is bound (check its type and name)."
        case .decoratorOfParentKey(let key, _):
            return "Decorate \(key) in the parent's modules, where it applies to the whole family; or override \(key) in this child (child(modules:overrides:)) and decorate the override."
        case .unusedContextualBinding(let key, let consumer, _):
            return "Name the type whose initializer or properties take \(key) in whenInjected(into:), or remove the binding if \(consumer) no longer needs it."
        case .severalCandidates(let key, let candidates):
            let first = candidates.first.map(\.type.typeName) ?? "SomeType"
            return "Bind one explicitly: binder.bind(\(key.typeName).self).to(\(first).self), or offer only one candidate."
        case .internalInconsistency:
            return "Please report this as a bug in Sightless, with the modules that produce it."
        }
    }

    private static func inconsistencyMessage(_ inconsistency: InjectionError.Problem.Inconsistency) -> String {
        switch inconsistency {
        case .nodeType(let key, let expected):
            return "the compiled node of \(key) does not produce \(expected)."
        case .argumentPlanType(let expected):
            return "an initializer's argument plan does not produce its argument's type, \(expected)."
        case .argumentLayout(let key):
            return "\(key) read dynamic arguments that were laid out for another key."
        case .notLinked(let key):
            return "\(key) was compiled but not linked."
        case .notStored(let key):
            return "the singleton \(key) was built but not stored."
        case .outsideTemplateChild(let key):
            return "\(key), compiled for the children of a template, was built outside a child of it."
        }
    }

    /// The sentence naming the keys bound with the same type as a key nothing provides, or
    /// nothing when there are none.
    private static func boundWithSameType(_ nearMisses: [AnyKey]) -> String {
        nearMisses.isEmpty ? "" : " Bound with the same type: \(nearMisses.map(\.description).sorted().joined(separator: ", "))."
    }

    private static func place(_ location: SourceLocation?) -> String {
        location.map(String.init(describing:)) ?? "?"
    }

    private static func list(_ slots: [InjectionError.Problem.Slot]) -> String {
        slots.map(\.description).joined(separator: ", ")
    }

    private static func types(_ slots: [InjectionError.Problem.Slot]) -> String {
        slots.map(\.key.typeName).joined(separator: ", ")
    }

    /// "a" or "an", as English wants it before `word`.
    static func article(_ word: String) -> String {
        guard let first = word.lowercased().first else { return "a" }
        return "aeiou".contains(first) ? "an" : "a"
    }

    /// How code names `key`: `Screen.self`, or `Key<Screen>(named: "main")`.
    static func requestExpression(_ key: AnyKey) -> String {
        key.writtenName.map { "Key<\(key.typeName)>(named: \"\($0)\")" } ?? "\(key.typeName).self"
    }

    /// How code names the scope called `name`: `.singleton`, `.eagerSingleton`, …
    static func scopeCall(_ name: String) -> String {
        switch name {
        case "singleton": ".singleton"
        case "eager singleton": ".eagerSingleton"
        case "weak": ".weak"
        case "per request": ".perRequest"
        default: "its scope (\(name))"
        }
    }
}
