"""ScriptedModel: a deterministic, finite FIFO model double for the CourseModel port."""

__all__: list[str] = []
