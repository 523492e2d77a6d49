#if canImport(XCTest)
import Sightless
import XCTest

private final class XCTestClock: Injectable {
    static let initializer = Initializer(XCTestClock.init)
}
private protocol XCTestFeed: Sendable {}
private final class XCTestScreen: Injectable {
    init(clock: XCTestClock, feed: any XCTestFeed) {}
    static let initializer = Initializer(XCTestScreen.init(clock:feed:))
}
private final class XCTestHttpFeed: XCTestFeed, Injectable {
    static let initializer = Initializer(XCTestHttpFeed.init)
}

private struct XCTestAppModule: Module {
    var bindsFeed = true
    func configure(_ binder: Binder) {
        if bindsFeed { binder.bind(XCTestFeed.self).to(XCTestHttpFeed.self) }
        binder.entryPoint(XCTestScreen.self)
    }
}

/// The check in an XCTest test case: one line, and the graph's problems as the failure's text.
final class VerificationXCTests: XCTestCase {
    func testTheAppsGraphIsValid() {
        XCTAssertNoThrow(try Injector.verify(modules: [XCTestAppModule()]))
    }

    func testABrokenGraphFailsWithTheProblemText() {
        XCTAssertThrowsError(try Injector.verify(modules: [XCTestAppModule(bindsFeed: false)])) { error in
            XCTAssertTrue("\(error)".contains("path: XCTestScreen → XCTestFeed"), "\(error)")
        }
    }
}
#endif
