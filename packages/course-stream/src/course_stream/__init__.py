"""Single-consumer async event streams and an AbortController/AbortSignal for asyncio."""

__all__: list[str] = []
