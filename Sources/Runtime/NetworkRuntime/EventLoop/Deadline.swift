/// A deadline in the loop's timer heap, pointing at the wait it ends.
struct Deadline {
    let instant: ContinuousClock.Instant
    let descriptor: Int32
    let direction: IODirection
    let token: UInt64
}
