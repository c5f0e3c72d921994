/// The embedded backend (storage, accounts, payments, inventory, search engines) lives here.
public enum Backend {}
