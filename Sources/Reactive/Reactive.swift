/// The Combine-compatible core lives in this target (see `Sources/Reactive/README.md`).
public enum Reactive {}
