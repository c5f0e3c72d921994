/// The terminal view layer lives in this target.
public enum CommonUI {}
