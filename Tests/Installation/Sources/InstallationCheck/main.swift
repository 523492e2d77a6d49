import Sightless

final class Greeting: Injectable {
    let text: String
    init(text: String) { self.text = text }
    static let initializer = Initializer(Greeting.init(text:), .named("greeting"))
}

struct GreetingModule: Module {
    func configure(_ binder: Binder) {
        binder.bind(Key<String>(named: "greeting")).to(instance: "Sightless is installed")
    }
}

let injector = try Injector(modules: [GreetingModule()])
print(try injector.getInstance(Greeting.self).text)
