"""FixtureProviderAdapter: replays untrusted provider fixtures into the course protocol."""

__all__: list[str] = []
