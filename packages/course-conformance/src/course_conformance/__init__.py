"""A conformance kit that checks any CourseModel implementation against the port invariants."""

__all__: list[str] = []
