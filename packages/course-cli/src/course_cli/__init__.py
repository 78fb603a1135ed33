"""The course command: replay and check provider fixtures, and run a Tool round-trip demo."""

__all__: list[str] = []
