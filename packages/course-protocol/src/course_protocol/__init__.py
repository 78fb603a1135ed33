"""The trusted, deeply immutable course model protocol and the CourseModel port."""

__all__: list[str] = []
