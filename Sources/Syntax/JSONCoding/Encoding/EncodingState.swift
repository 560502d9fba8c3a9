/// The output of one `encode` call and the containers open in it.
///
/// Bytes are written front to back as the model encodes, so containers must be used in order,
/// which is what synthesized and hand-written `encode(to:)` implementations do. A container stays
/// writable until its parent (or an ancestor) writes again; writing to it after that is reported as
/// ``JSONEncodingError/Reason/invalidContainerUse``. Each value position gets a serial number so a
/// stale encoder or container is recognised instead of corrupting the output.
///
/// No method here calls model code, so `EncodingContext` can run them through its pointer
/// without overlapping accesses. The owner must call `deallocate()` exactly once.
struct EncodingState {
    private struct Frame {
        let isObject: Bool
        /// The value position that opened this container.
        let serial: UInt32
        /// Where this container sits in its parent; nil for the top level, and once a borrowed key is released.
        var component: PathComponent?
        var count = 0
    }

    var writer: JSONWriter
    /// The open containers, outermost first.
    private var frames = GrowableBuffer<Frame>(capacity: 16)
    /// Keys of containers nested directly under a key; see `PathComponent.keptKey`.
    private var keptKeys: [any CodingKey] = []
    /// The value position waiting for its value, if any: set after a key or comma is written.
    private var pendingSerial: UInt32 = 0
    private var pendingComponent: PathComponent?
    private var isValuePending = false
    private var lastSerial: UInt32 = 0
    /// The first misuse detected in a method that cannot throw; reported when encoding finishes.
    private(set) var deferredError: JSONEncodingError?

    init(capacity: Int) {
        writer = JSONWriter(capacity: capacity)
    }

    mutating func deallocate() {
        writer.deallocate()
        frames.deallocate()
    }

    // MARK: Value positions

    /// Gives the next value position a serial number; `component` names it in coding paths.
    mutating func announceValue(at component: PathComponent?) -> UInt32 {
        lastSerial &+= 1
        pendingSerial = lastSerial
        pendingComponent = component
        isValuePending = true
        return lastSerial
    }

    /// Whether the position `serial` is still waiting for its value.
    func isPending(_ serial: UInt32) -> Bool {
        isValuePending && pendingSerial == serial
    }

    /// Forgets the borrowed key of the position `serial` at `depth` once the call that lent it
    /// returns; a container the value left open keeps no pointer to it.
    mutating func releaseKey(depth: Int, serial: UInt32) {
        if pendingSerial == serial { pendingComponent = nil }
        if depth >= 0, depth < frames.count, frames[depth].serial == serial { frames[depth].component = nil }
    }

    /// Claims the announced position `serial` for a single value.
    mutating func beginValue(depth: Int, serial: UInt32) throws(JSONEncodingError) {
        guard isPending(serial), frames.count == depth else {
            throw misuse("a single value container holds one value, written before its parent moves on", depth: depth)
        }
        isValuePending = false
    }

    /// Fills a position whose value encoded nothing with `{}`, as Foundation's `JSONEncoder` does.
    mutating func finishValue(serial: UInt32) {
        guard isPending(serial) else { return }
        isValuePending = false
        writer.writeASCII("{}")
    }

    /// Closes every container at the end of the document.
    mutating func finishDocument() {
        closeFrames(above: -1)
    }

    // MARK: Containers

    /// Opens (or reopens, when the same value asks again) the container for the value at `serial`.
    /// Returns the frame index, or nil after recording a misuse.
    mutating func openContainer(isObject: Bool, depth: Int, serial: UInt32) -> Int? {
        if isPending(serial), frames.count == depth {
            isValuePending = false
            pushFrame(isObject: isObject, serial: serial, component: pendingComponent)
            return depth
        }
        if depth >= 0, depth < frames.count, frames[depth].serial == serial, frames[depth].isObject == isObject {
            closeFrames(above: depth)
            return depth
        }
        recordMisuse(misuse("a value asked for a container after writing something else", depth: depth))
        return nil
    }

    /// Writes `key` with the array of `strings` as the last member of the top-level object whose
    /// value has serial `serial`, opening it when the value encoded nothing; records a misuse when
    /// the value is not an object.
    mutating func addMember(_ key: String, strings: [String], toTopLevelObject serial: UInt32) throws(JSONEncodingError) {
        guard let frame = openContainer(isObject: true, depth: 0, serial: serial) else { return }
        try beginElement(inFrame: frame, serial: serial)
        writer.writeKey(key)
        writer.write(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { writer.write(UInt8(ascii: ",")) }
            writer.writeString(string)
        }
        writer.write(UInt8(ascii: "]"))
    }

    /// Starts the next member or element of the container at `frame`: closes any nested
    /// containers still open, and writes the separating comma.
    mutating func beginElement(inFrame frame: Int, serial: UInt32) throws(JSONEncodingError) {
        guard frame < frames.count, frames[frame].serial == serial else {
            throw misuse("a container was written to after its parent moved on", depth: min(frame, frames.count))
        }
        closeFrames(above: frame)
        if frames[frame].count > 0 { writer.write(UInt8(ascii: ",")) }
        frames[frame].count += 1
    }

    /// Writes `"key":` after `beginElement`.
    mutating func writeKey(_ key: some CodingKey) {
        writer.writeKey(key.stringValue)
    }

    /// Opens a container nested directly in the container at `frame` (not through a value's
    /// encoder), under `key` or, for arrays, at the next index. Returns its frame index and
    /// serial, or nil after recording a misuse.
    mutating func openNestedContainer(isObject: Bool, inFrame frame: Int, serial: UInt32, key: (any CodingKey)?) -> (frame: Int, serial: UInt32)? {
        do {
            try beginElement(inFrame: frame, serial: serial)
        } catch {
            recordMisuse(error)
            return nil
        }
        let component: PathComponent
        if let key {
            writeKey(key)
            component = .keptKey(keptKeys.count)
            keptKeys.append(key)
        } else {
            component = .index(frames[frame].count - 1)
        }
        lastSerial &+= 1
        pushFrame(isObject: isObject, serial: lastSerial, component: component)
        return (frame + 1, lastSerial)
    }

    /// The number of members or elements written to the container at `frame`.
    func elementCount(inFrame frame: Int, serial: UInt32) -> Int {
        guard frame < frames.count, frames[frame].serial == serial else { return 0 }
        return frames[frame].count
    }

    private mutating func pushFrame(isObject: Bool, serial: UInt32, component: PathComponent?) {
        writer.write(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
        frames.append(Frame(isObject: isObject, serial: serial, component: component))
    }

    /// Closes containers until only `frame` and its ancestors are open (all of them for -1).
    private mutating func closeFrames(above frame: Int) {
        while frames.count > frame + 1 {
            writer.write(frames.removeLast().isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
        }
    }

    // MARK: Coding paths and errors

    /// The coding path of the value at `depth` whose position has serial `serial`.
    func codingPath(depth: Int, serial: UInt32) -> [any CodingKey] {
        var path = codingPath(throughFrame: min(depth, frames.count) - 1)
        if depth >= 0, depth < frames.count, frames[depth].serial == serial {
            if let component = frames[depth].component { path.append(component.codingKey(keptKeys: keptKeys)) }
        } else if pendingSerial == serial, let pendingComponent {
            path.append(pendingComponent.codingKey(keptKeys: keptKeys))
        }
        return path
    }

    /// The coding path of the container at `frame` (empty for -1, above the top level).
    func codingPath(throughFrame frame: Int) -> [any CodingKey] {
        let last = min(frame, frames.count - 1)
        guard last >= 0 else { return [] }
        return UnsafeBufferPointer(start: frames.start, count: last + 1).compactMap { $0.component?.codingKey(keptKeys: keptKeys) }
    }

    private func misuse(_ message: String, depth: Int) -> JSONEncodingError {
        JSONEncodingError(
            reason: .invalidContainerUse,
            message: message,
            codingPath: CodingPathRendering.render(codingPath(throughFrame: depth - 1))
        )
    }

    /// Remembers the first misuse found where throwing is impossible (container requests).
    mutating func recordMisuse(_ error: JSONEncodingError) {
        if deferredError == nil { deferredError = error }
    }
}
